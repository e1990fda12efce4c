//! `draughts`: the rules engine on the command line.
//!
//! ```text
//! draughts perft --variant V [--fen FEN] --depth N [--divide] [--capture-optional]
//! draughts moves --variant V [--fen FEN] [--json] [--capture-optional]
//! draughts play  --variant V [--fen FEN] [--capture-optional] MOVE...
//! draughts pdn   [--variant V] FILE...
//! draughts think --variant V [--fen FEN] (--level N [--remaining MS] [--increment MS] | --movetime MS | --depth D) [--seed S] [--json]
//! draughts hub
//! draughts match --engine1 CMD --engine2 CMD [--variant V,...] [--movetime MS] [--openings N] ...
//! draughts openings --variant V [--depth D]
//! draughts bench [--variant V,...] [--movetime MS | --depth D]
//! draughts bitbase --variant V[,V...] --pieces N --out DIR [--verbose] | --variant V --out DIR --probe FEN | --variant V[,V...] --out DIR --verify [--threads N]
//! draughts tune selfplay --variant V --games N --depth D --seed S --out FILE
//! draughts tune fit --variant V --data FILE[,FILE...] --out WEIGHTS
//! draughts book make --variant V [--depth D] [--plies P] [--threads N] --out FILE
//! draughts ballots list --variant V [--set S] | import --variant V --set S [FILE] | make --variant V [--plies P] [--depth D] [--margin M] [--threads N]
//! ```
//!
//! Every subcommand answers `--help`. Exit status: 0 on success, 1 for a bad position or
//! an illegal move, 2 for bad arguments.

mod args;
mod ballots_cmd;
mod bench_cmd;
mod bitbase_cmd;
mod book_cmd;
mod hub_cmd;
mod match_cmd;
mod match_stats;
mod moves_cmd;
mod openings;
mod pdn_cmd;
mod perft_cmd;
mod play_cmd;
mod puzzles_cmd;
mod think_cmd;
mod tune_cmd;

use std::process::ExitCode;

use args::Command;
use clap::Parser;

/// A failed command: the message and the exit status.
pub(crate) struct Failure {
    message: String,
    status: u8,
}

impl Failure {
    /// Bad arguments (exit status 2).
    pub(crate) fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 2,
        }
    }

    /// A bad position or move (exit status 1).
    pub(crate) fn input(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            status: 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = args::Cli::parse();
    let (name, result) = match cli.command {
        Command::Pdn(a) => return pdn_cmd::run(&a),
        Command::Hub(_) => return hub_cmd::run(&[]),
        Command::Perft(a) => ("perft", perft_cmd::run(&a)),
        Command::Moves(a) => ("moves", moves_cmd::run(&a)),
        Command::Play(a) => ("play", play_cmd::run(&a)),
        Command::Think(a) => ("think", think_cmd::run(&a)),
        Command::Match(a) => ("match", match_cmd::run(&a)),
        Command::Openings(a) => ("openings", openings::run(&a)),
        Command::Bench(a) => ("bench", bench_cmd::run(&a)),
        Command::Bitbase(a) => ("bitbase", bitbase_cmd::run(&a)),
        Command::Tune(a) => ("tune", tune_cmd::run(&a)),
        Command::Ballots(a) => ("ballots", ballots_cmd::run(&a)),
        Command::Book(a) => ("book", book_cmd::run(&a)),
        Command::Puzzles(a) => ("puzzles", puzzles_cmd::run(&a)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("draughts {name}: {}", failure.message);
            ExitCode::from(failure.status)
        }
    }
}
