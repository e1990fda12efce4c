//! The automatic draw limits of spec §2 and their live counters.
//!
//! After every move the position selects the active limits (one row of the
//! FMJD-64 table, the 40-move rule, or International's three rules side by
//! side). A limit that stays active counts the move in its own unit; one that
//! becomes active starts at zero; a capture or promotion restarts them all and
//! selects the limits as at the start of a game from the new position.
//!
//! Readings of the spec where it leaves room:
//! - 7.2.7 is selected when the lone king is the only piece on the long
//!   diagonal; it stays selected (paused) when the king steps off, so those
//!   moves neither count nor restart, and a strong-side move counts when the
//!   lone king is alone on the diagonal after it. A capture or promotion ends
//!   the pause: the row is selected again from the position alone.
//! - International's 25-move kings-only counter is listed only while both
//!   sides have a king: otherwise every move of the side without one is a man
//!   move, which restarts it anyway.

use crate::notation::reference_xy;
use crate::{Color, Move, Position, Variant};

/// A live draw-rule counter (wire: `{"rule", "moves", "limit"}`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Counter {
    /// Rule id: `forty_moves`, `kings_only`, `fmjd64_7_2_4`, `fmjd64_7_2_6`,
    /// `fmjd64_7_2_7`, `fmjd64_7_2_8`, `intl_16` or `intl_5`.
    pub rule: &'static str,
    /// Moves counted so far (per side, or the strong side's moves).
    pub moves: u32,
    /// The count at which the game is drawn.
    pub limit: u32,
}

/// What a limit counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    /// Every ply; `limit` moves by each side.
    Plies,
    /// Plies in which a king moved; a man move restarts.
    KingPlies,
    /// Moves of the strong side.
    Strong(Color),
    /// Moves of the strong side made while the lone king is alone on the
    /// long diagonal (7.2.7); other moves neither count nor restart.
    StrongOnDiagonal(Color),
}

/// One active limit with its count (in plies or strong-side moves).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limit {
    rule: &'static str,
    unit: Unit,
    limit: u32,
    count: u32,
}

impl Limit {
    fn new(rule: &'static str, unit: Unit, limit: u32) -> Limit {
        Limit {
            rule,
            unit,
            limit,
            count: 0,
        }
    }

    /// Whether the limit is reached.
    pub(crate) fn reached(&self) -> bool {
        match self.unit {
            Unit::Plies | Unit::KingPlies => self.count >= 2 * self.limit,
            Unit::Strong(_) | Unit::StrongOnDiagonal(_) => self.count >= self.limit,
        }
    }

    pub(crate) fn counter(&self) -> Counter {
        let moves = match self.unit {
            Unit::Plies | Unit::KingPlies => self.count / 2,
            Unit::Strong(_) | Unit::StrongOnDiagonal(_) => self.count,
        };
        Counter {
            rule: self.rule,
            moves,
            limit: self.limit,
        }
    }
}

/// Material of one side: (pieces, kings).
/// The limits active at once (at most two: International's kings-only
/// count beside a lone king's), kept inline: a search carries one per node,
/// and a vector would cost an allocation each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LimitSet {
    len: u8,
    items: [Limit; 2],
}

impl LimitSet {
    const UNUSED: Limit = Limit {
        rule: "",
        unit: Unit::Plies,
        limit: 0,
        count: 0,
    };

    fn new() -> LimitSet {
        LimitSet {
            len: 0,
            items: [Self::UNUSED; 2],
        }
    }

    fn one(limit: Limit) -> LimitSet {
        let mut set = LimitSet::new();
        set.push(limit);
        set
    }

    fn push(&mut self, limit: Limit) {
        self.items[usize::from(self.len)] = limit;
        self.len += 1;
    }

    pub(crate) fn from_slice(limits: &[Limit]) -> LimitSet {
        let mut set = LimitSet::new();
        for &l in limits {
            set.push(l);
        }
        set
    }
}

impl std::ops::Deref for LimitSet {
    type Target = [Limit];

    fn deref(&self) -> &[Limit] {
        &self.items[..usize::from(self.len)]
    }
}

impl std::ops::DerefMut for LimitSet {
    fn deref_mut(&mut self) -> &mut [Limit] {
        &mut self.items[..usize::from(self.len)]
    }
}

fn material(pos: &Position, color: Color) -> (u32, u32) {
    let pieces = pos.pieces(color);
    (pieces.count(), (pieces & pos.kings()).count())
}

/// If one side is a lone king: (that side, the other side's material).
fn lone_king(pos: &Position) -> Option<(Color, (u32, u32))> {
    Color::ALL
        .into_iter()
        .find_map(|c| (material(pos, c) == (1, 1)).then(|| (c, material(pos, c.other()))))
}

/// Whether `color`'s lone king is the only piece on the long diagonal.
fn alone_on_long_diagonal(pos: &Position, color: Color) -> bool {
    let size = pos.variant().board_size();
    let on_diagonal = |sq: crate::Square| {
        let (x, y) = reference_xy(size, sq.reference(size));
        x + y == size - 1
    };
    let mut pieces = pos.occupied().filter(|&sq| on_diagonal(sq));
    matches!((pieces.next(), pieces.next()), (Some(sq), None) if pos.pieces(color).contains(sq))
}

/// The limits active in `pos`, in priority order. `previous` are the limits
/// before the move: a 7.2.7 limit stays selected (paused) while the lone king
/// is off the long diagonal.
fn active(pos: &Position, previous: &[Limit]) -> LimitSet {
    let v = pos.variant();
    match v {
        Variant::American | Variant::Italian => {
            LimitSet::one(Limit::new("forty_moves", Unit::Plies, 40))
        }
        Variant::International => {
            let mut out = LimitSet::new();
            let both_kings = Color::ALL.into_iter().all(|c| material(pos, c).1 > 0);
            if both_kings {
                out.push(Limit::new("kings_only", Unit::KingPlies, 25));
            }
            if let Some((_, (n, k))) = lone_king(pos) {
                if n == 3 && k >= 1 {
                    out.push(Limit::new("intl_16", Unit::Plies, 16));
                } else if n <= 2 && k >= 1 {
                    out.push(Limit::new("intl_5", Unit::Plies, 5));
                }
            }
            out
        }
        Variant::Russian | Variant::Brazilian | Variant::Spanish | Variant::Czech => {
            LimitSet::one(fmjd64_row(pos, previous))
        }
    }
}

/// The first matching row of the FMJD-64 table, or the 40-move rule.
fn fmjd64_row(pos: &Position, previous: &[Limit]) -> Limit {
    if let Some((weak, (n, k))) = lone_king(pos) {
        let strong = weak.other();
        if n <= 2 && k >= 1 {
            // King against king: 5 moves each.
            if n == 1 {
                return Limit::new("fmjd64_7_2_8", Unit::Plies, 5);
            }
            return Limit::new("fmjd64_7_2_8", Unit::Strong(strong), 5);
        }
        let was_diagonal = previous
            .iter()
            .any(|l| l.unit == Unit::StrongOnDiagonal(strong));
        if n == 3 && k >= 1 && (was_diagonal || alone_on_long_diagonal(pos, weak)) {
            return Limit::new("fmjd64_7_2_7", Unit::StrongOnDiagonal(strong), 5);
        }
        if n >= 3 && k == n {
            return Limit::new("fmjd64_7_2_4", Unit::Strong(strong), 15);
        }
    }
    let [(wn, wk), (bn, bk)] = Color::ALL.map(|c| material(pos, c));
    if wk > 0 && bk > 0 {
        return match wn + bn {
            0..=5 => Limit::new("fmjd64_7_2_6", Unit::Plies, 30),
            6..=7 => Limit::new("fmjd64_7_2_6", Unit::Plies, 60),
            _ => Limit::new("kings_only", Unit::KingPlies, 15),
        };
    }
    Limit::new("forty_moves", Unit::Plies, 40)
}

/// The limits at the start of a game (every count at zero).
pub(crate) fn initial(pos: &Position) -> LimitSet {
    active(pos, &[])
}

/// The limits after `m` was played from `before`, reaching `after`.
pub(crate) fn after_move(
    previous: &[Limit],
    before: &Position,
    m: &Move,
    after: &Position,
) -> LimitSet {
    let mover = before.turn();
    let king_moved = before.kings().contains(m.from());
    let restart = m.is_capture() || m.promotes();
    // After a restart the configuration arises afresh (spec §2): nothing from before it may
    // select the row, not even a paused 7.2.7, so the limits are those of a game set up in
    // `after`.
    if restart {
        return initial(after);
    }
    let mut next = active(after, previous);
    for limit in next.iter_mut() {
        let Some(old) = previous
            .iter()
            .find(|o| o.rule == limit.rule && o.unit == limit.unit && o.limit == limit.limit)
        else {
            continue; // the configuration arises now: count from zero
        };
        limit.count = match limit.unit {
            Unit::Plies => old.count + 1,
            Unit::KingPlies if king_moved => old.count + 1,
            Unit::KingPlies => 0,
            Unit::Strong(strong) => old.count + u32::from(mover == strong),
            Unit::StrongOnDiagonal(strong) => {
                let on = alone_on_long_diagonal(after, strong.other());
                old.count + u32::from(mover == strong && on)
            }
        };
    }
    next
}

/// The draw limits of a game's current position with their counts: what
/// [`Game`](crate::Game) keeps to end a game by a move limit, as a value a
/// search can carry along its own line of moves without cloning a whole game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrawLimits(LimitSet);

impl DrawLimits {
    /// The limits of a game set up in `pos` (every count at zero).
    #[must_use]
    pub fn new(pos: &Position) -> DrawLimits {
        DrawLimits(initial(pos))
    }

    pub(crate) fn from_limits(limits: &[Limit]) -> DrawLimits {
        DrawLimits(LimitSet::from_slice(limits))
    }

    /// The limits after the legal move `m` was played from `before`,
    /// reaching `after` (as [`Game::play`](crate::Game::play) counts them).
    #[must_use]
    pub fn after_move(&self, before: &Position, m: &Move, after: &Position) -> DrawLimits {
        DrawLimits(after_move(&self.0, before, m, after))
    }

    /// Whether a limit is reached: the game is drawn by a move limit (unless
    /// the side to move has no legal move, which loses first).
    #[must_use]
    pub fn reached(&self) -> bool {
        self.0.iter().any(Limit::reached)
    }

    /// The active limits with their counts, as [`Game::counters`](crate::Game::counters).
    pub fn counters(&self) -> impl ExactSizeIterator<Item = Counter> + '_ {
        self.0.iter().map(Limit::counter)
    }
}
