//! `draughts play`: plays moves and prints the resulting game state as JSON.

use crate::{Failure, args};
use draughts::Game;
use serde_json::json;

/// Runs `play` on its arguments.
pub(crate) fn run(opts: &args::PlayArgs) -> Result<(), Failure> {
    let mut game = Game::new(opts.position.position()?);
    for (i, text) in opts.moves.iter().enumerate() {
        let pos = game.position();
        let m = pos
            .parse_move(text)
            .map_err(|e| Failure::input(format!("move {} {text:?}: {e}", i + 1)))?;
        game.play(&m)
            .map_err(|_| Failure::input(format!("move {} {text:?}: the game is over", i + 1)))?;
    }
    let pos = game.position();
    let outcome = game.outcome().map(|o| {
        json!({
            "result": o.result_name(),
            "reason": o.reason.name(),
        })
    });
    let counters: Vec<_> = game
        .counters()
        .iter()
        .map(|c| json!({"rule": c.rule, "moves": c.moves, "limit": c.limit}))
        .collect();
    let out = json!({
        "fen": pos.to_fen(),
        "turn": pos.turn().name(),
        "outcome": outcome,
        "counters": counters,
    });
    println!("{out}");
    Ok(())
}
