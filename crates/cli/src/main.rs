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
//! ```
//!
//! Exit status: 0 on success, 1 for a bad position or an illegal move, 2 for
//! bad arguments.

mod args;
mod bench_cmd;
mod hub_cmd;
mod match_cmd;
mod match_stats;
mod moves_cmd;
mod openings;
mod pdn_cmd;
mod perft_cmd;
mod play_cmd;
mod think_cmd;

use std::process::ExitCode;

const USAGE: &str = "usage:
  draughts perft --variant V [--fen FEN] --depth N [--divide] [--capture-optional]
  draughts moves --variant V [--fen FEN] [--json] [--capture-optional]
  draughts play  --variant V [--fen FEN] [--capture-optional] MOVE...
  draughts pdn   [--variant V] FILE...
  draughts think --variant V [--fen FEN] (--level N [--remaining MS] [--increment MS] | --movetime MS | --depth D)
                 [--seed S] [--json] [--capture-optional]
  draughts hub   (the Hub protocol of draughts GUIs on stdin/stdout)
  draughts match --engine1 CMD --engine2 CMD [--param1 N=V]... [--param2 N=V]... [--variant V[,V...]]
                 [--movetime MS] [--openings N] [--max-plies N] [--elo0 E] [--elo1 E] [--alpha A] [--beta B]
  draughts openings --variant V [--depth D]
  draughts bench [--variant V[,V...]] [--movetime MS | --depth D]
Variants: american (english), russian, brazilian, spanish, italian, czech, international.";

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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((command, rest)) = args.split_first() else {
        eprintln!("{USAGE}");
        return ExitCode::from(2);
    };
    let result = match command.as_str() {
        "pdn" => return pdn_cmd::run(rest),
        "hub" => return hub_cmd::run(rest),
        "perft" => perft_cmd::run(rest),
        "moves" => moves_cmd::run(rest),
        "play" => play_cmd::run(rest),
        "think" => think_cmd::run(rest),
        "match" => match_cmd::run(rest),
        "bench" => bench_cmd::run(rest),
        "openings" => openings::run(rest),
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        other => Err(Failure::usage(format!("unknown command {other:?}"))),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("draughts {command}: {}", failure.message);
            if failure.status == 2 {
                eprintln!("{USAGE}");
            }
            ExitCode::from(failure.status)
        }
    }
}
