//! The cost of one move arriving from the wire, per variant: what the server
//! does with a client's move text.
//!
//! - `position`: `Position::parse_move` (parse, match against the legal
//!   moves) then `Position::play` (which checks legality again), on every
//!   position of seeded random games and on every move of the vectors'
//!   random positions (sparse endgames with kings, long captures).
//! - `game`: `parse_move` then `Game::play` (repetition list, draw-limit
//!   counters, outcome) along the random games, as the server's table does;
//!   `game play`: `Game::play` alone, the move parsed beforehand.
//! - `legal text`: the reply's list of legal moves in notation, which the
//!   server sends after every move.
//!
//! Figures are nanoseconds per call, each call timed on its own; the timer's
//! own cost is printed first. Last, the parts of the path on one position,
//! timed in a loop, show what a change to one of them would save.
//!
//! `cargo bench -p draughts --bench wire_move` measures; without `--bench` it
//! is a smoke run over two games.

mod common;

use common::rng::SplitMix64;
use common::{Latency, load_vectors, measuring, nanos, timer_overhead_ns};
use draughts::{Game, MoveList, Position, Rules, Variant};
use serde_json::Value;
use std::hint::black_box;
use std::time::Instant;

/// A game longer than this is cut: random play in 10x10 can shuffle kings
/// for a long time before a draw limit ends it.
const MAX_PLIES: usize = 300;

/// The seed of the sample games (fixed: every run times the same moves).
const SEED: u64 = 0x00da_3ca0;

/// How much to sample and how often to repeat it.
struct Plan {
    games: usize,
    rounds: usize,
}

fn main() {
    let measuring = measuring();
    let plan = if measuring {
        Plan {
            games: 30,
            rounds: 30,
        }
    } else {
        Plan {
            games: 2,
            rounds: 1,
        }
    };
    let vectors = load_vectors("random_positions.json");
    println!(
        "timer overhead (two clock reads): {} ns",
        timer_overhead_ns()
    );
    println!(
        "{:<14} {:<11} {:>8} {:>9} {:>8} {:>8} {:>8}",
        "variant", "path", "samples", "mean ns", "p50 ns", "p99 ns", "max ns"
    );
    let mut rng = SplitMix64(SEED);
    for variant in Variant::ALL {
        let games: Vec<Vec<String>> = (0..plan.games)
            .map(|_| random_game(variant, &mut rng))
            .collect();
        let mut samples = game_positions(variant, &games);
        samples.extend(vector_positions(variant, &vectors));
        let rows = [
            ("position", time_position_path(&samples, plan.rounds)),
            ("game", time_game_path(variant, &games, plan.rounds, true)),
            (
                "game play",
                time_game_path(variant, &games, plan.rounds, false),
            ),
            ("legal text", time_legal_text(&samples, plan.rounds)),
        ];
        for (path, l) in rows {
            println!(
                "{:<14} {:<11} {:>8} {:>9.0} {:>8} {:>8} {:>8}",
                variant.name(),
                path,
                l.samples,
                l.mean,
                l.p50,
                l.p99,
                l.max
            );
        }
    }
    parts(if measuring { 1_000_000 } else { 1_000 });
}

/// The parts of a wire move on the International start position with `32-28`,
/// each repeated `calls` times in a loop, best of five loops.
fn parts(calls: u32) {
    let pos = Position::new(Rules::new(Variant::International));
    let m = pos.parse_move("32-28").expect("32-28 is an opening move");
    println!("parts, International start position, move 32-28 (best of 5 loops of {calls}):");
    let time = |name: &str, f: &mut dyn FnMut()| {
        let best = (0..5)
            .map(|_| {
                let start = Instant::now();
                for _ in 0..calls {
                    f();
                }
                start.elapsed().as_secs_f64() * 1e9 / f64::from(calls)
            })
            .fold(f64::INFINITY, f64::min);
        println!("  {name:<24} {best:>7.0} ns");
    };
    time("MoveList::new", &mut || {
        black_box(MoveList::new());
    });
    time("Position::legal_moves", &mut || {
        black_box(black_box(&pos).legal_moves());
    });
    time("Position::parse_move", &mut || {
        black_box(black_box(&pos).parse_move(black_box("32-28")).ok());
    });
    time("Position::is_legal", &mut || {
        black_box(black_box(&pos).is_legal(black_box(&m)));
    });
    time("Position::play", &mut || {
        black_box(black_box(&pos).play(black_box(&m)).ok());
    });
    time("Position::play_unchecked", &mut || {
        let mut next = black_box(&pos).clone();
        next.play_unchecked(black_box(&m));
        black_box(next);
    });
}

/// A random game from the start (uniform among legal moves) until it ends
/// by the rules or reaches [`MAX_PLIES`], as move texts.
fn random_game(variant: Variant, rng: &mut SplitMix64) -> Vec<String> {
    let mut game = Game::new(Position::new(Rules::new(variant)));
    let mut texts = Vec::new();
    while game.outcome().is_none() && texts.len() < MAX_PLIES {
        let legal = game.position().legal_moves();
        let m = legal[rng.below(legal.len())];
        texts.push(game.position().move_to_string(&m));
        game.play(&m).expect("a generated move plays");
    }
    texts
}

/// Every position of `games` with the move text played from it.
fn game_positions(variant: Variant, games: &[Vec<String>]) -> Vec<(Position, String)> {
    let mut out = Vec::new();
    for texts in games {
        let mut pos = Position::new(Rules::new(variant));
        for text in texts {
            let m = pos.parse_move(text).expect("a written move parses back");
            let next = pos.play(&m).expect("a parsed move plays");
            out.push((pos, text.clone()));
            pos = next;
        }
    }
    out
}

/// Every legal move (its main path) of the vectors' random positions.
fn vector_positions(variant: Variant, vectors: &Value) -> Vec<(Position, String)> {
    let entries = vectors["variants"][variant.name()]
        .as_array()
        .unwrap_or_else(|| panic!("random_positions.json has no {variant}"));
    let mut out = Vec::new();
    for entry in entries {
        let fen = entry["fen"].as_str().expect("fen is a string");
        let pos = Position::from_fen(Rules::new(variant), fen)
            .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
        for m in entry["moves"].as_array().expect("moves is an array") {
            let text = m["move"].as_str().expect("move is a string");
            out.push((pos.clone(), text.to_string()));
        }
    }
    out
}

/// Parse, legal moves, match, play: one position and one text per call.
fn time_position_path(samples: &[(Position, String)], rounds: usize) -> Latency {
    let mut ns = Vec::with_capacity(samples.len() * rounds);
    for _ in 0..rounds {
        for (pos, text) in samples {
            let start = Instant::now();
            let m = black_box(pos)
                .parse_move(black_box(text))
                .unwrap_or_else(|e| panic!("{text} in {}: {e}", pos.to_fen()));
            let next = pos.play(&m).expect("a parsed move plays");
            black_box(&next);
            ns.push(nanos(start.elapsed()));
        }
    }
    Latency::of(ns, rounds)
}

/// `Game::play` with its draw bookkeeping, move by move along each game,
/// with the parse timed too when `with_parse`; setting up the game is not
/// timed.
fn time_game_path(
    variant: Variant,
    games: &[Vec<String>],
    rounds: usize,
    with_parse: bool,
) -> Latency {
    let mut ns = Vec::new();
    for _ in 0..rounds {
        for texts in games {
            let mut game = Game::new(Position::new(Rules::new(variant)));
            for text in texts {
                let parse = || {
                    game.position()
                        .parse_move(black_box(text))
                        .expect("a written move parses back")
                };
                let parsed = (!with_parse).then(parse);
                let start = Instant::now();
                let m = parsed.unwrap_or_else(parse);
                game.play(&m).expect("a parsed move plays");
                black_box(&game);
                ns.push(nanos(start.elapsed()));
            }
        }
    }
    Latency::of(ns, rounds)
}

/// The legal moves of a position written out, as the reply to a move lists
/// them.
fn time_legal_text(samples: &[(Position, String)], rounds: usize) -> Latency {
    let mut ns = Vec::with_capacity(samples.len() * rounds);
    for _ in 0..rounds {
        for (pos, _) in samples {
            let start = Instant::now();
            let pos = black_box(pos);
            let texts: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| pos.move_to_string(m))
                .collect();
            black_box(&texts);
            ns.push(nanos(start.elapsed()));
        }
    }
    Latency::of(ns, rounds)
}
