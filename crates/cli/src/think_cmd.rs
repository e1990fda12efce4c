//! `draughts think`: the computer opponent's move for a position.

use crate::{Failure, args};
use bot::{ClockLimits, Engine, Level, Limits};
use draughts::{Game, Position};
use serde_json::json;
use std::sync::atomic::AtomicBool;

/// The clock `--level` thinks on when none is given: a minute, no increment.
const DEFAULT_REMAINING_MS: u64 = 60_000;

/// Runs `think` on its arguments.
pub(crate) fn run(opts: &args::ThinkArgs) -> Result<(), Failure> {
    if opts.level.is_none() && (opts.remaining.is_some() || opts.increment.is_some()) {
        return Err(Failure::usage(
            "--remaining and --increment go with --level",
        ));
    }
    let pos = opts.position.position()?;
    let game = Game::new(pos.clone());
    let stop = AtomicBool::new(false);
    let result = if let Some(n) = opts.level {
        let level = Level::from_number(n)
            .ok_or_else(|| Failure::usage(format!("invalid level {n} (1, 2 or 3)")))?;
        let clock = ClockLimits {
            remaining_ms: opts.remaining.unwrap_or(DEFAULT_REMAINING_MS),
            increment_ms: opts.increment.unwrap_or(0),
        };
        bot::think(&game, level, clock, opts.seed.unwrap_or(0), &stop)
    } else {
        let limits = Limits {
            depth: opts.depth,
            movetime_ms: opts.movetime,
            ..Limits::default()
        };
        Engine::new(20).search(&game, &limits, &stop)
    };
    let Some(result) = result else {
        return Err(Failure::input("the game is over: no move to think about"));
    };
    if opts.json {
        let out = json!({
            "move": pos.move_to_string(&result.mv),
            "score": bot::centimen(pos.variant(), result.score),
            "internal_score": result.score,
            "depth": result.depth,
            "nodes": result.nodes,
            "time_ms": result.time_ms,
            "pv": pv_texts(&pos, &result.pv),
        });
        println!("{out}");
    } else {
        println!("{}", pos.move_to_string(&result.mv));
    }
    Ok(())
}

/// The principal variation as move texts, each in its own position.
pub(crate) fn pv_texts(root: &Position, pv: &[draughts::Move]) -> Vec<String> {
    let mut pos = root.clone();
    pv.iter()
        .map(|m| {
            let text = pos.move_to_string(m);
            pos.play_unchecked(m);
            text
        })
        .collect()
}
