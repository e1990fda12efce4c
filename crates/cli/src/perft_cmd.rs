//! `draughts perft`: move-tree counts; the last line is the count alone.

use crate::{Failure, args};
use draughts::{perft, perft_divide};

/// Runs `perft` on its arguments.
pub(crate) fn run(args: &[String]) -> Result<(), Failure> {
    let opts = args::parse(
        args,
        &[
            "--variant",
            "--fen",
            "--depth",
            "--divide",
            "--capture-optional",
        ],
    )?;
    if let Some(extra) = opts.positional.first() {
        return Err(Failure::usage(format!("unexpected argument {extra:?}")));
    }
    let depth = opts
        .depth
        .ok_or_else(|| Failure::usage("--depth is required"))?;
    let pos = opts.position()?;
    if opts.divide && depth > 0 {
        let mut total = 0;
        for (text, n) in perft_divide(&pos, depth) {
            println!("{text} {n}");
            total += n;
        }
        println!("{total}");
    } else {
        println!("{}", perft(&pos, depth));
    }
    Ok(())
}
