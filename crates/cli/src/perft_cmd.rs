//! `draughts perft`: move-tree counts; the last line is the count alone.

use crate::{Failure, args};
use draughts::{perft, perft_divide};

/// Runs `perft` on its arguments.
pub(crate) fn run(opts: &args::PerftArgs) -> Result<(), Failure> {
    let depth = opts.depth;
    let pos = opts.position.position()?;
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
