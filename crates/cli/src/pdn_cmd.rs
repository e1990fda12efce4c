//! `draughts pdn [--variant V] FILE...`: replays every game of PDN files.
//!
//! Prints one line per game (file, game number, players, result, plies, `OK` or the
//! error) and stops at the first game that does not replay, exiting with status 1.
//! Usage errors and unreadable files exit with status 2.

use crate::args::PdnArgs;
use draughts::pdn::{self, Record};
use std::process::ExitCode;

/// Runs the subcommand on its arguments (those after `pdn`).
pub fn run(opts: &PdnArgs) -> ExitCode {
    let variant = opts.variant;
    let mut games = 0usize;
    for file in &opts.files {
        let bytes = match std::fs::read(file) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("draughts pdn: {file}: {e}");
                return ExitCode::from(2);
            }
        };
        let text = pdn::decode(&bytes);
        for record in pdn::parse(&text) {
            games += 1;
            let replayed = record.replay(variant);
            let status = match &replayed {
                Ok(game) => format!("{} plies OK", game.moves.len()),
                Err(e) => format!("ERROR {e}"),
            };
            println!("{file}:{} {} {status}", record.index, describe(&record));
            if replayed.is_err() {
                eprintln!("draughts pdn: {file}: stopped at game {}", record.index);
                return ExitCode::FAILURE;
            }
        }
    }
    println!("{games} games OK");
    ExitCode::SUCCESS
}

/// `White - Black result` from the tags (`?` where unknown).
fn describe(record: &Record) -> String {
    let white = record.tag("White").filter(|s| !s.is_empty()).unwrap_or("?");
    let black = record.tag("Black").filter(|s| !s.is_empty()).unwrap_or("?");
    let result = record
        .terminator
        .as_deref()
        .filter(|&t| t != "*")
        .or(record.tag("Result"))
        .unwrap_or("*");
    format!("{white} - {black} {result}")
}
