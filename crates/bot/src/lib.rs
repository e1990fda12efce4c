//! The computer opponent: an alpha-beta draughts engine for the seven
//! variants of the [`draughts`] crate, pure (no global state; the only I/O
//! is reading and writing endgame table files, [`Table`]).
//!
//! ```
//! use bot::{ClockLimits, Level, think};
//! use draughts::{Game, Position, Rules, Variant};
//! use std::sync::atomic::AtomicBool;
//!
//! let game = Game::new(Position::new(Rules::new(Variant::International)));
//! let clock = ClockLimits { remaining_ms: 60_000, increment_ms: 0 };
//! let stop = AtomicBool::new(false);
//! let answer = think(&game, Level::One, clock, 7, &stop).expect("a legal move");
//! assert!(game.position().is_legal(&answer.mv));
//! ```
//!
//! # Map
//!
//! - [`think`]: what the server calls, one move for a [`Level`] within a
//!   [`ClockLimits`] budget, deterministic given the seed (level 3 when it
//!   is not cut by time).
//! - [`Engine`]: the search with its own transposition table and explicit
//!   [`Limits`] (depth, movetime, nodes), for the CLI and the Hub protocol.
//! - The evaluation (private): weights × features per variant (material,
//!   advancement, per-square men, runaways, king mobility, structure), the
//!   weights fitted by [`texel`] and compiled in from `crates/bot/weights/`.
//! - [`book`]: the opening book, from our own deep searches, that level 3
//!   and the Hub engine play from.
//! - [`texel`]: the fitting of those weights to game results.

#![forbid(unsafe_code)]

pub mod bitbase;
pub mod book;
mod eval;
pub mod puzzle;
pub mod regions;
pub mod score;
mod search;
pub mod texel;
mod tt;

pub use bitbase::{BitbaseError, Bitbases, Material, Probe, Table, Wdl};
pub use score::{centimen, man_value};
pub use search::{
    BITBASE_WIN, Control, Engine, Limits, MAX_DEPTH, Progress, SearchResult, WIN, WIN_BOUND,
};

use draughts::{Game, SplitMix64};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The three levels of the seeds' rules pages.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// A beginner: a shallow search and a seeded choice among near-best
    /// moves, now and then a clear mistake.
    One = 1,
    /// A club player: a moderate fixed depth.
    Two = 2,
    /// The full engine within its clock.
    Three = 3,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 3] = [Level::One, Level::Two, Level::Three];

    /// The level numbered `n` (1, 2 or 3).
    #[must_use]
    pub fn from_number(n: u8) -> Option<Level> {
        match n {
            1 => Some(Level::One),
            2 => Some(Level::Two),
            3 => Some(Level::Three),
            _ => None,
        }
    }

    /// The level's number.
    #[must_use]
    pub fn number(self) -> u8 {
        self as u8
    }

    /// The deepest iteration the level searches (plies).
    #[must_use]
    pub fn max_depth(self) -> u32 {
        self.settings().depth
    }

    /// The level's search settings.
    fn settings(self) -> Settings {
        match self {
            Level::One => Settings {
                depth: 2,
                cap_ms: 300,
                tt_bits: 12,
            },
            Level::Two => Settings {
                depth: 5,
                cap_ms: 1_500,
                tt_bits: 15,
            },
            // Level 3's table is 16 MiB (the Hub engine's, with which it is
            // measured), kept between searches by [`Engines`].
            Level::Three => Settings {
                depth: MAX_DEPTH,
                cap_ms: 10_000,
                tt_bits: 20,
            },
        }
    }
}

/// What a level searches with.
struct Settings {
    /// Deepest iteration.
    depth: u32,
    /// Most time per move, whatever the clock.
    cap_ms: u64,
    /// Transposition table size (log2 entries of 16 bytes).
    tt_bits: u32,
}

/// The bot's clock: what it has left and what it gains per move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockLimits {
    /// Time left on the bot's clock, in milliseconds.
    pub remaining_ms: u64,
    /// Fischer increment per move, in milliseconds.
    pub increment_ms: u64,
}

impl ClockLimits {
    /// The time the bot allots itself: `(soft, hard)`. It aims at
    /// `remaining / 18 + 9/10 of the increment` a move (at most `cap_ms`):
    /// no new iteration starts past 6/10 of that (`soft`; a search without
    /// a depth or node cap stretches it, never past `hard`, while the best
    /// move changes or its score falls, and shrinks it to 0.55 once the
    /// move has held for six iterations), and the search stops at `hard`,
    /// twice the aim but never more than a quarter of what the clock holds
    /// beyond a safety margin, so the bot never flags.
    #[must_use]
    pub fn budget(&self, cap_ms: u64) -> (Duration, Duration) {
        let remaining = self.remaining_ms;
        // What must stay on the clock after the move: the caller's reaction
        // time and a share of the clock.
        let margin = (remaining / 10).clamp(remaining.min(20), 1_000);
        let usable = remaining.saturating_sub(margin);
        let aim = (remaining / 18 + self.increment_ms * 9 / 10)
            .min(usable / 2)
            .min(cap_ms);
        let soft = aim * 6 / 10;
        let hard = (aim * 2).min(usable / 4).min(cap_ms);
        (
            Duration::from_millis(soft.max(1)),
            Duration::from_millis(hard.max(1)),
        )
    }
}

/// Chooses the bot's move for the side to move; None when the game is over / no legal move.
/// Returns within the time it allots itself from `clock` (never flags: budget a safety
/// margin, and answer at once with a single legal move); stops early when `stop` is set.
#[must_use]
pub fn think(
    game: &Game,
    level: Level,
    clock: ClockLimits,
    seed: u64,
    stop: &AtomicBool,
) -> Option<SearchResult> {
    think_with(game, level, clock, seed, stop, None)
}

/// What the engine's scores mean in results: the scale `K` of the curve
/// `1 / (1 + e^(-score / K))` from a score (the evaluation's unit, for the
/// side to move) to the expected result, with which the variant's
/// evaluation was fitted (Texel tuning on self-play; the `k` of its weight
/// file, docs/engine.md).
#[must_use]
pub fn result_scale(variant: draughts::Variant) -> f64 {
    texel::committed(variant).1
}

/// [`think`], level 3 probing these endgame tables below the root (the
/// weaker levels never do: they are meant to err).
#[must_use]
pub fn think_with(
    game: &Game,
    level: Level,
    clock: ClockLimits,
    seed: u64,
    stop: &AtomicBool,
    bitbases: Option<Arc<Bitbases>>,
) -> Option<SearchResult> {
    if game.outcome().is_some() {
        return None;
    }
    let mut engine = Engine::new(level.settings().tt_bits);
    think_on(&mut engine, game, level, clock, seed, stop, bitbases)
}

/// Level 3's engines kept between searches, so that a search finds in its
/// transposition table what the last ones learnt (most often the same
/// game's previous moves: a server with one search slot and a few games at
/// once keeps hitting it). A search takes an idle engine of its variant
/// (the table's keys do not hold the variant: one table never serves two)
/// or makes one, and gives it back after; at most `keep` idle engines
/// stay (the oldest go), each with a 16 MiB table. Levels 1 and 2 search
/// with a fresh small table as [`think_with`] does: they stay repeatable
/// given the seed.
#[derive(Debug)]
pub struct Engines {
    idle: std::sync::Mutex<Vec<(draughts::Variant, Engine)>>,
    keep: usize,
}

impl Engines {
    /// A pool keeping at most `keep` idle engines.
    #[must_use]
    pub fn new(keep: usize) -> Engines {
        Engines {
            idle: std::sync::Mutex::new(Vec::new()),
            keep,
        }
    }

    /// [`think_with`], level 3 on a kept engine.
    #[must_use]
    pub fn think(
        &self,
        game: &Game,
        level: Level,
        clock: ClockLimits,
        seed: u64,
        stop: &AtomicBool,
        bitbases: Option<Arc<Bitbases>>,
    ) -> Option<SearchResult> {
        if level != Level::Three || game.outcome().is_some() {
            return think_with(game, level, clock, seed, stop, bitbases);
        }
        let variant = game.position().variant();
        let kept = {
            let mut idle = self.lock();
            // The most recently returned first: it most likely played this game.
            idle.iter()
                .rposition(|(v, _)| *v == variant)
                .map(|i| idle.remove(i).1)
        };
        let mut engine = kept.unwrap_or_else(|| Engine::new(level.settings().tt_bits));
        let result = think_on(&mut engine, game, level, clock, seed, stop, bitbases);
        let mut idle = self.lock();
        if self.keep > 0 {
            if idle.len() >= self.keep {
                idle.remove(0);
            }
            idle.push((variant, engine));
        }
        result
    }

    /// Idle engines kept for `variant`.
    #[must_use]
    pub fn idle(&self, variant: draughts::Variant) -> usize {
        self.lock().iter().filter(|(v, _)| *v == variant).count()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<(draughts::Variant, Engine)>> {
        // A search that panicked left the list whole (it is only pushed to and
        // removed from under the lock).
        self.idle
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// [`think_with`]'s search on `engine` (its table as it is).
fn think_on(
    engine: &mut Engine,
    game: &Game,
    level: Level,
    clock: ClockLimits,
    seed: u64,
    stop: &AtomicBool,
    bitbases: Option<Arc<Bitbases>>,
) -> Option<SearchResult> {
    let settings = level.settings();
    if level == Level::Three {
        engine.set_bitbases(bitbases);
        engine.set_book(true);
    }
    let limits = Limits {
        depth: Some(settings.depth),
        ..Limits::default()
    };
    let result = engine.search_clock(game, clock, settings.cap_ms, &limits, stop)?;
    if level != Level::One || result.depth == 0 {
        return Some(result);
    }
    // The beginner: every move scored at its shallow depth, then a seeded
    // pick among those close to the best; one move in eight the margin is
    // wide enough for a real blunder.
    let scored = engine.score_root_moves(game, settings.depth, stop);
    let mut rng =
        SplitMix64::new(seed ^ (game.moves().len() as u64).wrapping_mul(0x2545_F491_4F6C_DD1D));
    let best = scored.first().map_or(0, |s| s.1);
    let margin = if rng.below(8) == 0 { 350 } else { 70 };
    let near: Vec<&(draughts::Move, i32)> = scored
        .iter()
        .filter(|(_, s)| *s >= best - margin && *s > -WIN_BOUND || *s == best)
        .collect();
    let (mv, score) = *near[rng.below(near.len() as u64) as usize];
    Some(SearchResult {
        mv,
        score,
        pv: vec![mv],
        ..result
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{Position, Rules, Variant};

    /// `variant`'s game after at least `plies` first legal moves (out of
    /// the book), at a position with a choice of moves.
    fn played(variant: Variant, plies: usize) -> Game {
        let mut game = Game::new(Position::new(Rules::new(variant)));
        while game.moves().len() < plies || game.position().legal_moves().len() < 2 {
            let m = game.position().legal_moves()[0];
            game.play(&m).expect("legal");
        }
        game
    }

    #[test]
    fn level_three_keeps_its_engine_and_table_per_variant() {
        let engines = Engines::new(1);
        let clock = ClockLimits {
            remaining_ms: 3_000,
            increment_ms: 0,
        };
        let stop = AtomicBool::new(false);
        let american = played(Variant::American, 12);
        let answer = engines.think(&american, Level::Three, clock, 1, &stop, None);
        assert!(
            answer.is_some_and(|a| a.depth > 0),
            "searched, not from the book"
        );
        assert_eq!(engines.idle(Variant::American), 1);
        assert!(
            engines.lock()[0].1.knows(&american),
            "the kept table holds the position"
        );
        // Levels 1 and 2 search on a fresh table and leave the pool alone.
        let _ = engines.think(&american, Level::Two, clock, 1, &stop, None);
        assert_eq!(engines.lock().len(), 1);
        // Another variant never gets the American table; with room for one, the
        // oldest idle engine goes.
        let international = played(Variant::International, 12);
        let _ = engines.think(&international, Level::Three, clock, 1, &stop, None);
        assert_eq!(engines.idle(Variant::American), 0);
        assert_eq!(engines.idle(Variant::International), 1);
        let kept = &engines.lock()[0].1;
        assert!(kept.knows(&international) && !kept.knows(&american));
        // Nothing kept with no room.
        let none = Engines::new(0);
        let _ = none.think(&american, Level::Three, clock, 1, &stop, None);
        assert_eq!(none.lock().len(), 0);
    }

    #[test]
    fn levels_round_trip() {
        for l in Level::ALL {
            assert_eq!(Level::from_number(l.number()), Some(l));
        }
        assert_eq!(Level::from_number(0), None);
        assert_eq!(Level::from_number(4), None);
    }

    #[test]
    fn the_budget_keeps_a_margin() {
        let c = ClockLimits {
            remaining_ms: 50,
            increment_ms: 0,
        };
        let (soft, hard) = c.budget(10_000);
        assert!(
            soft <= hard && hard < Duration::from_millis(20),
            "{soft:?} {hard:?}"
        );
        let c = ClockLimits {
            remaining_ms: 60_000,
            increment_ms: 0,
        };
        let (soft, hard) = c.budget(10_000);
        assert_eq!(soft, Duration::from_millis(1_999));
        assert_eq!(hard, Duration::from_millis(6_666));
        // The increment counts; the cap bounds everything.
        let c = ClockLimits {
            remaining_ms: 60_000,
            increment_ms: 2_000,
        };
        assert_eq!(c.budget(10_000).0, Duration::from_millis(3_079));
        assert_eq!(c.budget(500).1, Duration::from_millis(500));
        // An empty clock still gives the first iteration a moment.
        let c = ClockLimits {
            remaining_ms: 0,
            increment_ms: 0,
        };
        assert_eq!(
            c.budget(10_000),
            (Duration::from_millis(1), Duration::from_millis(1))
        );
    }

    fn _engine_is_send() {
        fn send<T: Send>() {}
        send::<Engine>();
        send::<SearchResult>();
    }
}
