//! Puzzles: positions where the side to move wins by force with a line only one move at a
//! time finds (a shot), found in games and verified by a deeper search (issue 37,
//! docs/puzzles.md).
//!
//! - [`candidates`] scans a game: a position is a candidate when the side to move's
//!   expected result (the engine's score through the variant's result curve,
//!   [`result_scale`](crate::result_scale)) is at least [`PuzzleOptions::win`] while it was
//!   at most [`PuzzleOptions::before`] one move earlier, both at the scan depth.
//! - [`verify`] plays the solution out at the verification depth: at every solver move
//!   each legal move is scored with a full window; the best must win and beat the second
//!   best by [`PuzzleOptions::margin`] of expected result (else the shot is over there, or,
//!   at the first move, the position has several winning ideas and is no puzzle); the
//!   opponent answers with the engine's best defence; a side with one legal move (a forced
//!   capture) plays it at once, and such a move never counts as a solver move. A puzzle
//!   has at least [`PuzzleOptions::min_solver_moves`] solver moves and gains: material
//!   (a man or more), a king, or the game.
//! - [`self_play`] makes the games to scan: the engine against itself at a shallow depth,
//!   now and then choosing a worse move (the blunders shots punish).
//!
//! ```
//! use bot::puzzle::{PuzzleOptions, verify};
//! use bot::Engine;
//! use draughts::{Game, Position, Rules, Variant};
//!
//! // White gives a man twice (Black's captures are forced) and takes three on the way
//! // to a king (found by `draughts puzzles` in self-play).
//! let fen = "W:Wa1,c1,e1,g1,b2,d2,f2,e3,g3,e5:Ba5,c5,h6,a7,c7,e7,g7,b8,d8,h8";
//! let pos = Position::from_fen(Rules::new(Variant::Russian), fen).expect("a position");
//! let mut engine = Engine::new(16);
//! let p = verify(&mut engine, &Game::new(pos), &PuzzleOptions::default()).expect("a puzzle");
//! assert_eq!(p.line, ["e5-d6", "c7xe5", "e3-d4", "c5xe3", "d2xf4xd6xf8"]);
//! ```

use std::sync::atomic::AtomicBool;

use draughts::{Color, Game, Move, Position, SplitMix64, Variant};

use crate::search::{Engine, Limits};

/// The starter set of `variant`: the verified puzzles made by `draughts puzzles` and
/// kept in the repository (`crates/bot/puzzles/<variant>.jsonl`, one JSON object a line;
/// docs/puzzles.md).
pub fn starter_set(variant: Variant) -> &'static str {
    match variant {
        Variant::American => include_str!("../puzzles/american.jsonl"),
        Variant::Russian => include_str!("../puzzles/russian.jsonl"),
        Variant::Brazilian => include_str!("../puzzles/brazilian.jsonl"),
        Variant::Spanish => include_str!("../puzzles/spanish.jsonl"),
        Variant::Italian => include_str!("../puzzles/italian.jsonl"),
        Variant::Czech => include_str!("../puzzles/czech.jsonl"),
        Variant::International => include_str!("../puzzles/international.jsonl"),
    }
}

/// What makes a puzzle (the documented thresholds, docs/puzzles.md).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PuzzleOptions {
    /// Depth of the scan of a game's positions.
    pub scan_depth: u32,
    /// Depth of the verification (each solver move's alternatives, each defence).
    pub verify_depth: u32,
    /// Expected result (0 to 1) from which the solver wins.
    pub win: f64,
    /// The solver's expected result one move before a candidate, at most.
    pub before: f64,
    /// How much more expected result the best solver move must keep than the second.
    pub margin: f64,
    /// Solver moves a puzzle needs at least (forced ones not counted).
    pub min_solver_moves: u32,
    /// Solver moves a puzzle has at most (the line stops there).
    pub max_solver_moves: u32,
}

impl Default for PuzzleOptions {
    fn default() -> PuzzleOptions {
        PuzzleOptions {
            scan_depth: 6,
            verify_depth: 10,
            win: 0.85,
            before: 0.6,
            margin: 0.3,
            min_solver_moves: 2,
            max_solver_moves: 12,
        }
    }
}

/// What a puzzle is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Theme {
    /// The first solver move gives material away (the opponent captures in reply).
    Shot,
    /// A solver man becomes a king in the line.
    Breakthrough,
    /// One solver move takes three pieces or more.
    LongCapture,
    /// Few pieces left: at most 8 on the small board, 12 on the large.
    Endgame,
    /// Early in its game: within the first 20 plies.
    Opening,
}

impl Theme {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Theme::Shot => "shot",
            Theme::Breakthrough => "breakthrough",
            Theme::LongCapture => "long_capture",
            Theme::Endgame => "endgame",
            Theme::Opening => "opening",
        }
    }
}

/// A verified puzzle.
#[derive(Debug, Clone, PartialEq)]
pub struct Puzzle {
    /// The variant.
    pub variant: Variant,
    /// The position, the solver to move.
    pub fen: String,
    /// The solution from it: solver moves, the opponent's replies and the forced moves
    /// of either side, in the variant's notation; it ends with a solver move.
    pub line: Vec<String>,
    /// Solver moves in the line that were a choice (forced ones not counted).
    pub solver_moves: u32,
    /// Its themes.
    pub themes: Vec<Theme>,
    /// The solver's expected result at the start (verification depth).
    pub expected: f64,
    /// An initial puzzle rating (Glicko-2 scale): longer and quieter shots are harder.
    pub rating: i32,
}

/// Why a position is no puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rejection {
    /// The game is over, or the side to move has one legal move only.
    NoChoice,
    /// The best move does not win.
    NotWinning,
    /// Several moves win: no single idea to find.
    Ambiguous,
    /// Fewer solver moves than a puzzle needs.
    TooShort,
    /// The line gains nothing: no material, no king, no game.
    NoGain,
    /// The verification was stopped before its end ([`verify_until`]).
    Stopped,
}

/// The expected result of a score for its side (the variant's result curve).
pub fn expected(variant: Variant, score: i32) -> f64 {
    1.0 / (1.0 + (-f64::from(score) / crate::result_scale(variant)).exp())
}

/// Verifies the position of `game` as a puzzle for the side to move.
///
/// Fails with the reason it is none.
pub fn verify(engine: &mut Engine, game: &Game, o: &PuzzleOptions) -> Result<Puzzle, Rejection> {
    verify_until(engine, game, o, &AtomicBool::new(false))
}

/// [`verify`] that gives up when `stop` is set (the server's search threads stop an
/// analysis for a person's game): then [`Rejection::Stopped`], whatever it had found.
///
/// The engine searches without the region patterns (and is left so:
/// [`Engine::set_region_patterns`]): a puzzle is judged by the evaluation the
/// starter sets were made and checked with, whatever the playing strength's.
///
/// Fails with the reason it is none.
pub fn verify_until(
    engine: &mut Engine,
    game: &Game,
    o: &PuzzleOptions,
    stop: &AtomicBool,
) -> Result<Puzzle, Rejection> {
    engine.set_region_patterns(false);
    let found = verify_inner(engine, game, o, stop);
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(Rejection::Stopped);
    }
    found
}

fn verify_inner(
    engine: &mut Engine,
    game: &Game,
    o: &PuzzleOptions,
    stop: &AtomicBool,
) -> Result<Puzzle, Rejection> {
    let start = game.position().clone();
    let variant = start.variant();
    let solver = start.turn();
    if game.outcome().is_some() || start.legal_moves().len() < 2 {
        return Err(Rejection::NoChoice);
    }
    let mut game = game.clone();
    let mut line: Vec<Move> = Vec::new();
    let mut counted = 0;
    let mut first_expected = 0.0;
    while game.outcome().is_none() && counted < o.max_solver_moves {
        let pos = game.position().clone();
        let legal = pos.legal_moves();
        let mv = if legal.len() == 1 {
            legal[0]
        } else if pos.turn() == solver {
            let scored = engine.score_root_moves(&game, o.verify_depth, stop);
            let (Some(best), Some(second)) = (scored.first(), scored.get(1)) else {
                return Err(Rejection::NoChoice);
            };
            let (eb, es) = (expected(variant, best.1), expected(variant, second.1));
            if counted == 0 {
                if eb < o.win {
                    return Err(Rejection::NotWinning);
                }
                if eb - es < o.margin {
                    return Err(Rejection::Ambiguous);
                }
                first_expected = eb;
            } else if eb < o.win || eb - es < o.margin {
                // The shot is over: from here on, technique.
                break;
            }
            counted += 1;
            best.0
        } else {
            let limits = Limits {
                depth: Some(o.verify_depth),
                search_forced: true,
                ..Limits::default()
            };
            match engine.search(&game, &limits, stop) {
                Some(r) => r.mv,
                None => break,
            }
        };
        if game.play(&mv).is_err() {
            break;
        }
        line.push(mv);
    }
    // The line ends with the solver's last move (what follows is the opponent's).
    while line.len() > 1 && mover(&start, line.len() - 1) != solver {
        line.pop();
    }
    if counted < o.min_solver_moves {
        return Err(Rejection::TooShort);
    }
    let end = replay(&start, &line);
    let won = end.legal_moves().is_empty() && end.turn() != solver;
    let promoted = line
        .iter()
        .enumerate()
        .any(|(i, m)| mover(&start, i) == solver && m.promotes());
    let gain = material(&end, solver) - material(&start, solver);
    if !won && !promoted && gain < 1 {
        return Err(Rejection::NoGain);
    }
    let themes = themes_of(&start, &line, solver);
    let rating = initial_rating(counted, &line, &themes);
    Ok(Puzzle {
        variant,
        fen: start.to_fen(),
        line: notation(&start, &line),
        solver_moves: counted,
        themes,
        expected: first_expected,
        rating,
    })
}

/// Who makes the `i`-th move of a line from `start` (sides alternate).
fn mover(start: &Position, i: usize) -> Color {
    if i.is_multiple_of(2) {
        start.turn()
    } else {
        start.turn().other()
    }
}

fn replay(start: &Position, line: &[Move]) -> Position {
    let mut pos = start.clone();
    for m in line {
        pos.play_unchecked(m);
    }
    pos
}

/// Men count 1, kings 3 (what a shot wins), for `side` against the other.
fn material(pos: &Position, side: Color) -> i32 {
    let count = |c: Color| {
        let all = pos.pieces(c);
        let kings = (all & pos.kings()).count();
        i64::from(all.count() - kings) + 3 * i64::from(kings)
    };
    i32::try_from(count(side) - count(side.other())).unwrap_or(0)
}

fn notation(start: &Position, line: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    line.iter()
        .map(|m| {
            let text = pos.move_to_string(m);
            pos.play_unchecked(m);
            text
        })
        .collect()
}

fn themes_of(start: &Position, line: &[Move], solver: Color) -> Vec<Theme> {
    let mut themes = Vec::new();
    if line.get(1).is_some_and(Move::is_capture) && mover(start, 1) != solver {
        themes.push(Theme::Shot);
    }
    let solver_moves = || {
        line.iter()
            .enumerate()
            .filter(|(i, _)| mover(start, *i) == solver)
            .map(|(_, m)| m)
    };
    if solver_moves().any(Move::promotes) {
        themes.push(Theme::Breakthrough);
    }
    if solver_moves().any(|m| m.captures().count() >= 3) {
        themes.push(Theme::LongCapture);
    }
    let pieces = start.occupied().count();
    let small = matches!(start.variant(), Variant::International) as u32;
    if pieces <= 8 + 4 * small {
        themes.push(Theme::Endgame);
    }
    themes
}

/// 1,200 for two solver moves, 150 more for each further one, 150 more when the first is
/// quiet (a sacrifice is harder to see than a capture), 100 more for a long capture.
fn initial_rating(counted: u32, line: &[Move], themes: &[Theme]) -> i32 {
    let extra = i32::try_from(counted.saturating_sub(2)).unwrap_or(0);
    let quiet = line.first().is_some_and(|m| !m.is_capture());
    1_200
        + 150 * extra
        + if quiet { 150 } else { 0 }
        + if themes.contains(&Theme::LongCapture) {
            100
        } else {
            0
        }
}

/// The plies of `game`'s moves (from its start) where a puzzle may begin: the side to
/// move there went from at most [`PuzzleOptions::before`] to at least
/// [`PuzzleOptions::win`] expected result with the opponent's last move (scan depth).
/// Without the region patterns, as [`verify_until`].
pub fn candidates(engine: &mut Engine, game: &Game, o: &PuzzleOptions) -> Vec<usize> {
    engine.set_region_patterns(false);
    let stop = AtomicBool::new(false);
    let variant = game.position().variant();
    let limits = Limits {
        depth: Some(o.scan_depth),
        search_forced: true,
        ..Limits::default()
    };
    let mut replay = Game::new(game.initial().clone());
    // The side to move's expected result at each ply.
    let mut previous: Option<f64> = None;
    let mut found = Vec::new();
    for ply in 0..=game.moves().len() {
        let now = if replay.outcome().is_some() {
            None
        } else {
            engine
                .search(&replay, &limits, &stop)
                .map(|r| expected(variant, r.score))
        };
        if let (Some(before_for_opponent), Some(now)) = (previous, now)
            && 1.0 - before_for_opponent <= o.before
            && now >= o.win
        {
            found.push(ply);
        }
        previous = now;
        let Some(m) = game.moves().get(ply) else {
            break;
        };
        if replay.play(m).is_err() {
            break;
        }
    }
    found
}

/// Every verified puzzle of `game` (a candidate that passes [`verify`]), with the ply it
/// starts at; the opening theme added for the first 20 plies.
pub fn puzzles_of(engine: &mut Engine, game: &Game, o: &PuzzleOptions) -> Vec<(usize, Puzzle)> {
    let mut out = Vec::new();
    for ply in candidates(engine, game, o) {
        let mut at = Game::new(game.initial().clone());
        for m in &game.moves()[..ply] {
            if at.play(m).is_err() {
                break;
            }
        }
        if let Ok(mut p) = verify(engine, &at, o) {
            if ply < 20 {
                p.themes.push(Theme::Opening);
                p.themes.sort();
            }
            out.push((ply, p));
        }
    }
    out
}

/// A game of the engine against itself from `start`, at `depth`: each move the best, or
/// with probability `err` one of the others (weighted to the near-best), so that it
/// blunders now and then; at most `max_plies` plies.
pub fn self_play(
    engine: &mut Engine,
    start: Position,
    depth: u32,
    err: f64,
    max_plies: usize,
    seed: u64,
) -> Game {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(seed);
    let mut game = Game::new(start);
    while game.outcome().is_none() && game.moves().len() < max_plies {
        let scored = engine.score_root_moves(&game, depth, &stop);
        let Some(best) = scored.first() else {
            break;
        };
        let roll = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        let mv = if scored.len() > 1 && roll < err {
            // One of the other moves: the second with half the chance, and so on.
            let mut i = 1;
            while i + 1 < scored.len() && rng.next_u64().is_multiple_of(2) {
                i += 1;
            }
            scored[i].0
        } else {
            best.0
        };
        if game.play(&mv).is_err() {
            break;
        }
    }
    game
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use draughts::Rules;

    #[test]
    fn puzzles_are_judged_without_the_region_patterns() {
        // Every variant with region patterns: the engine evaluates a position after
        // two moves differently with and without them, and a verification leaves it
        // without them.
        for v in [Variant::American, Variant::International] {
            let mut pos = Position::new(Rules::new(v));
            for _ in 0..2 {
                let m = pos.legal_moves()[0];
                pos = pos.play(&m).expect("legal");
            }
            let mut engine = Engine::new(16);
            let with = engine.evaluate(&pos);
            engine.set_region_patterns(false);
            let without = engine.evaluate(&pos);
            assert_ne!(with, without, "{v:?}: the patterns count");
            engine.set_region_patterns(true);
            assert_eq!(engine.evaluate(&pos), with);
            let shallow = PuzzleOptions {
                verify_depth: 4,
                ..PuzzleOptions::default()
            };
            let _ = verify(&mut engine, &Game::new(pos.clone()), &shallow);
            assert_eq!(engine.evaluate(&pos), without, "{v:?}");
            // The scan of a game too.
            engine.set_region_patterns(true);
            let _ = candidates(&mut engine, &Game::new(pos.clone()), &shallow);
            assert_eq!(engine.evaluate(&pos), without, "{v:?}");
        }
    }

    fn game(variant: Variant, fen: &str) -> Game {
        Game::new(Position::from_fen(Rules::new(variant), fen).expect("a position"))
    }

    #[test]
    fn a_unique_shot_is_found_with_the_forced_captures_played_for_the_solver() {
        let mut engine = Engine::new(16);
        let fen = "W:Wa1,c1,e1,g1,b2,d2,f2,e3,g3,e5:Ba5,c5,h6,a7,c7,e7,g7,b8,d8,h8";
        let p = verify(
            &mut engine,
            &game(Variant::Russian, fen),
            &PuzzleOptions::default(),
        )
        .expect("a puzzle");
        // Two sacrifices, each answered by Black's only move (a forced capture), then
        // the triple capture to a king.
        assert_eq!(p.line, ["e5-d6", "c7xe5", "e3-d4", "c5xe3", "d2xf4xd6xf8"]);
        // Black's forced captures are no solver moves; White's three are.
        assert_eq!(p.solver_moves, 3);
        assert_eq!(
            p.themes,
            [Theme::Shot, Theme::Breakthrough, Theme::LongCapture]
        );
        assert!(p.expected >= 0.85, "{p:?}");
        assert_eq!(p.rating, 1_200 + 150 + 150 + 100);
        // A shallower verification finds the same.
        let quick = PuzzleOptions {
            verify_depth: 6,
            ..PuzzleOptions::default()
        };
        assert_eq!(
            verify(&mut engine, &game(Variant::Russian, fen), &quick).map(|p| p.line),
            Ok(p.line)
        );
    }

    #[test]
    fn a_shot_reached_in_a_game_is_found_with_its_history() {
        // Black's b6-a5 walks into the shot above (White's b2 away: the same idea, the
        // last capture through b4 now): verified
        // after the move, the game's history kept (the server's puzzles from analysed
        // games), at two depths.
        let mut g = game(
            Variant::Russian,
            "B:Wa1,c1,e1,g1,d2,f2,e3,g3,e5:Bb6,c5,h6,a7,c7,e7,g7,b8,d8,h8",
        );
        let mv = g.position().parse_move("b6-a5").expect("legal");
        g.play(&mv).expect("played");
        let mut engine = Engine::new(18);
        for depth in [6, 7] {
            let o = PuzzleOptions {
                verify_depth: depth,
                ..PuzzleOptions::default()
            };
            let p = verify_until(&mut engine, &g, &o, &AtomicBool::new(false));
            assert_eq!(
                p.map(|p| p.line),
                Ok(["e5-d6", "c7xe5", "e3-d4", "e5xc3", "d2xb4xd6xf8"]
                    .map(String::from)
                    .to_vec()),
                "depth {depth}"
            );
        }
    }

    #[test]
    fn a_lost_or_quiet_position_is_no_puzzle() {
        let mut engine = Engine::new(16);
        let o = PuzzleOptions::default();
        // The start position: nothing wins.
        let start = Game::new(Position::new(draughts::Rules::new(Variant::Russian)));
        assert_eq!(verify(&mut engine, &start, &o), Err(Rejection::NotWinning));
        // The shot's position with Black to move: Black has no shot.
        let fen = "B:Wa1,c1,e1,g1,b2,d2,f2,e3,g3,e5:Ba5,c5,h6,a7,c7,e7,g7,b8,d8,h8";
        assert!(verify(&mut engine, &game(Variant::Russian, fen), &o).is_err());
    }

    #[test]
    fn candidates_are_where_a_blunder_hands_over_the_shot() {
        let mut engine = Engine::new(16);
        let o = PuzzleOptions::default();
        let mut g = Game::new(Position::new(draughts::Rules::new(Variant::Russian)));
        // A self-play game of the engine that blunders: the seed's game is fixed.
        for seed in 1..200 {
            g = self_play(
                &mut engine,
                Position::new(Rules::new(Variant::Russian)),
                4,
                0.3,
                200,
                seed,
            );
            if !puzzles_of(&mut engine, &g, &o).is_empty() {
                break;
            }
        }
        let found = puzzles_of(&mut engine, &g, &o);
        assert!(!found.is_empty(), "a puzzle in 200 blundering games");
        for (ply, p) in found {
            // Each starts where its game stood at that ply, and passes the verification
            // again at a deeper search.
            let mut at = Game::new(g.initial().clone());
            for m in &g.moves()[..ply] {
                at.play(m).unwrap();
            }
            assert_eq!(at.position().to_fen(), p.fen);
            let deeper = PuzzleOptions {
                verify_depth: o.verify_depth + 2,
                ..o
            };
            let again = verify(&mut engine, &at, &deeper).expect("still a puzzle deeper");
            assert_eq!(again.line[0], p.line[0], "{p:?}");
        }
    }

    #[test]
    fn several_winning_moves_are_no_puzzle() {
        let mut engine = Engine::new(16);
        // White's king and three men against one man: anything wins.
        let r = verify(
            &mut engine,
            &game(Variant::Russian, "W:WKa1,c3,e3,g3:Bh8"),
            &PuzzleOptions::default(),
        );
        assert_eq!(r, Err(Rejection::Ambiguous));
    }
}
