//! `draughts pdn [--variant V] FILE...`: replays every game of PDN files.
//!
//! Prints one line per game (file, game number, players, result, plies, `OK` or the
//! error) and stops at the first game that does not replay, exiting with status 1.
//! Usage errors and unreadable files exit with status 2.

use draughts::Variant;
use draughts::pdn::{self, Record};
use std::process::ExitCode;

const USAGE: &str = "usage: draughts pdn [--variant VARIANT] FILE...
Replays every game of each PDN file and prints one line per game.
The variant comes from --variant, else each game's GameType tag, else international.
Variants: american (english), russian, brazilian, spanish, italian, czech, international.";

/// Runs the subcommand on its arguments (those after `pdn`).
pub fn run(args: &[String]) -> ExitCode {
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("{USAGE}");
        return ExitCode::SUCCESS;
    }
    let (variant, files) = match parse_args(args) {
        Ok(parsed) => parsed,
        Err(message) => {
            eprintln!("draughts pdn: {message}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let mut games = 0usize;
    for file in &files {
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

/// `--variant V` (or `--variant=V`) and the files.
fn parse_args(args: &[String]) -> Result<(Option<Variant>, Vec<String>), String> {
    let mut variant = None;
    let mut files = Vec::new();
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        let name = if arg == "--variant" {
            Some(iter.next().ok_or("--variant needs a value")?.as_str())
        } else {
            arg.strip_prefix("--variant=")
        };
        if let Some(name) = name {
            variant = Some(Variant::from_name(name).ok_or(format!("unknown variant {name:?}"))?);
        } else if arg.starts_with("--") {
            return Err(format!("unknown option {arg:?}"));
        } else {
            files.push(arg.clone());
        }
    }
    if files.is_empty() {
        return Err("no file given".to_owned());
    }
    Ok((variant, files))
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
