//! One position searched to the analysis budget, and a game's plies made from its
//! positions' searches. Pure (no I/O, no async): the caller runs each search on the
//! computer's threads.

use std::sync::atomic::AtomicBool;

use bot::{Engine, Limits};
use damka_protocol::Side;
use damka_protocol::analysis::{Accuracy, Eval, PlyAnalysis};
use draughts::{Color, Game, Move, Position};

use super::judge::{self, Value};

/// Table size of an analysis search: 2^18 entries of 16 bytes (4 MiB), fresh for every
/// position, so a position's result does not depend on what was searched before it (a
/// search cut short and run again, or a job restarted on another node, gives the same
/// answer).
const TT_BITS: u32 = 18;

/// How far each position is searched: a node count and a depth cap, never a time, so the
/// result is the same on any machine and under any load (the engine checks its node count
/// at fixed points and answers with its last completed iteration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Nodes per position.
    pub nodes: u64,
    /// Deepest iteration.
    pub depth: u32,
}

impl Budget {
    /// As stored with a result and shown on the wire: `nodes=N depth<=D`.
    pub fn describe(&self) -> String {
        format!("nodes={} depth<={}", self.nodes, self.depth)
    }

    fn limits(&self) -> Limits {
        Limits {
            depth: Some(self.depth.max(1)),
            movetime_ms: None,
            nodes: Some(self.nodes.max(1)),
            // A forced capture is often the first move of a shot: its
            // position is worth what the shot wins, not its material.
            search_forced: true,
        }
    }
}

/// What the search found in one position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// The position's value.
    pub value: Value,
    /// The engine's move (none when the game is over there).
    pub best: Option<Move>,
    /// Its line, from `best`.
    pub pv: Vec<Move>,
    /// Depth of the last completed iteration.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// Searches the game's current position within `budget` (or until `stop`). A position
/// where the game is over is its result: the winner's, or 0 for a draw.
pub fn search(game: &Game, budget: Budget, stop: &AtomicBool) -> Searched {
    search_with(game, budget, stop, None)
}

/// [`search`] probing these endgame tables below the root: a position they know is won
/// is then a forced win (as the tables count it: the variants' move-count draw rules
/// aside).
pub fn search_with(
    game: &Game,
    budget: Budget,
    stop: &AtomicBool,
    tables: Option<std::sync::Arc<bot::Bitbases>>,
) -> Searched {
    let over = |outcome: Option<draughts::Outcome>| Searched {
        value: outcome
            .and_then(|o| o.winner)
            .map_or(Value::Score(0), Value::Win),
        best: None,
        pv: Vec::new(),
        depth: 0,
        nodes: 0,
    };
    if let Some(outcome) = game.outcome() {
        return over(Some(outcome));
    }
    let mut engine = Engine::new(TT_BITS);
    engine.set_bitbases(tables);
    match engine.search(game, &budget.limits(), stop) {
        Some(r) => Searched {
            value: Value::from_search(r.score, game.position().turn()),
            best: Some(r.mv),
            pv: r.pv,
            depth: r.depth,
            nodes: r.nodes,
        },
        None => over(None),
    }
}

/// A line of moves from `pos` in the protocol's notation (full paths), as far as it is
/// legal.
pub fn line(pos: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut out = Vec::with_capacity(moves.len());
    for m in moves {
        if !pos.is_legal(m) {
            break;
        }
        out.push(pos.move_to_string(m));
        pos.play_unchecked(m);
    }
    out
}

/// A value on the wire: a score in hundredths of a man as shown (a clean extra man is
/// 100 in every variant, [`bot::centimen`]), from the engine's own unit.
pub fn eval(value: Value, variant: draughts::Variant) -> Eval {
    match value {
        Value::Score(eval) => Eval::Score {
            eval: bot::centimen(variant, eval),
        },
        Value::Win(Color::White) => Eval::Win { win: Side::White },
        Value::Win(Color::Black) => Eval::Win { win: Side::Black },
    }
}

/// The plies of a game from the searches of its positions: `positions[i]` is the
/// position before ply `i + 1` (so one more than the moves), `searched[i]` its search,
/// `moves[i]` ply `i + 1`'s stored text. Also each side's accuracy.
pub fn plies(
    positions: &[Position],
    searched: &[Searched],
    moves: &[(Move, String)],
) -> (Vec<PlyAnalysis>, Accuracy) {
    let mut out = Vec::with_capacity(moves.len());
    let mut sums = [(0.0, 0u32), (0.0, 0u32)];
    let Some(curve) = positions.first().map(|p| judge::Curve::of(p.variant())) else {
        return (
            out,
            Accuracy {
                white: 100.0,
                black: 100.0,
            },
        );
    };
    for (i, (mv, text)) in moves.iter().enumerate() {
        let (Some(pos), Some(before), Some(after)) =
            (positions.get(i), searched.get(i), searched.get(i + 1))
        else {
            break;
        };
        let mover = pos.turn();
        let engine_move = before.best.as_ref() == Some(mv) || pos.legal_moves().len() <= 1;
        let judgement = judge::judge(curve, mover, before.value, after.value, engine_move);
        let lost = if engine_move {
            0.0
        } else {
            curve.expected(before.value, mover) - curve.expected(after.value, mover)
        };
        let sum = &mut sums[usize::from(mover == Color::Black)];
        sum.0 += judge::move_accuracy(lost);
        sum.1 += 1;
        out.push(PlyAnalysis {
            ply: u32::try_from(i + 1).unwrap_or(u32::MAX),
            mv: text.clone(),
            eval: eval(after.value, pos.variant()),
            best: before.best.as_ref().map(|b| pos.move_to_string(b)),
            pv: line(pos, &before.pv),
            judgement: judgement.map(|j| j.name().to_owned()),
        });
    }
    let mean = |(sum, n): (f64, u32)| {
        if n == 0 {
            100.0
        } else {
            (sum / f64::from(n) * 10.0).round() / 10.0
        }
    };
    let accuracy = Accuracy {
        white: mean(sums[0]),
        black: mean(sums[1]),
    };
    (out, accuracy)
}
