//! Moves: start, landing squares and captured pieces.

use crate::{Bitboard, Square};

/// Most landing squares a move can have: a side has at most 20 pieces, so a
/// capture takes at most 20.
pub const MAX_PATH: usize = 20;

/// A legal move: start square, landing squares and the set of captured pieces.
///
/// Two moves are equal when they have the same start, end and captured set
/// (spec §1.1): routes that differ only in the order of the jumps are one
/// move. [`Move::path`] keeps one of those routes.
#[derive(Debug, Clone, Copy)]
pub struct Move {
    from: Square,
    to: Square,
    captures: Bitboard,
    path: [u8; MAX_PATH],
    len: u8,
    promotes: bool,
    /// Italian priority key: bit `31 - i` set when the `i`-th captured piece
    /// is a king, so a larger key meets a king earlier.
    pub(crate) king_key: u32,
}

impl Move {
    /// What fills the unused slots of a [`MoveList`](crate::MoveList).
    pub(crate) const PLACEHOLDER: Move = Move {
        from: Square::from_bit(0),
        to: Square::from_bit(0),
        captures: Bitboard::EMPTY,
        path: [0; MAX_PATH],
        len: 0,
        promotes: false,
        king_key: 0,
    };

    /// A simple (non-capturing) move.
    #[must_use]
    #[inline]
    pub(crate) fn simple(from: Square, to: Square, promotes: bool) -> Move {
        let mut path = [0; MAX_PATH];
        path[0] = to.bit();
        Move {
            from,
            to,
            captures: Bitboard::EMPTY,
            path,
            len: 1,
            promotes,
            king_key: 0,
        }
    }

    /// Turns this move into the simple move [`Move::simple`] would build,
    /// in place.
    #[inline]
    pub(crate) fn set_simple(&mut self, from: u8, to: u8, promotes: bool) {
        self.from = Square::from_bit(from);
        self.to = Square::from_bit(to);
        self.captures = Bitboard::EMPTY;
        self.path = [0; MAX_PATH];
        self.path[0] = to;
        self.len = 1;
        self.promotes = promotes;
        self.king_key = 0;
    }

    /// A capture along `path` (landing squares after `from`).
    #[must_use]
    pub(crate) fn capture(
        from: Square,
        path: &[u8],
        captures: Bitboard,
        promotes: bool,
        king_key: u32,
    ) -> Move {
        let mut buf = [0; MAX_PATH];
        let len = path.len().min(MAX_PATH);
        buf[..len].copy_from_slice(&path[..len]);
        Move {
            from,
            to: Square::from_bit(buf[len.saturating_sub(1)]),
            captures,
            path: buf,
            len: len as u8,
            promotes,
            king_key,
        }
    }

    /// The start square.
    #[must_use]
    #[inline]
    pub fn from(&self) -> Square {
        self.from
    }

    /// The end square.
    #[must_use]
    #[inline]
    pub fn to(&self) -> Square {
        self.to
    }

    /// The landing squares after [`Move::from`], ending with [`Move::to`]:
    /// one square for a simple move, one per captured piece for a capture.
    pub fn path(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.path[..usize::from(self.len)]
            .iter()
            .map(|&b| Square::from_bit(b))
    }

    /// The captured pieces.
    #[must_use]
    #[inline]
    pub fn captures(&self) -> Bitboard {
        self.captures
    }

    /// Whether the move captures.
    #[must_use]
    #[inline]
    pub fn is_capture(&self) -> bool {
        !self.captures.is_empty()
    }

    /// Whether a man ends the move as a king.
    #[must_use]
    #[inline]
    pub fn promotes(&self) -> bool {
        self.promotes
    }

    /// Replaces the route by another one of the same move.
    pub(crate) fn set_route(&mut self, other: &Move) {
        self.path = other.path;
        self.len = other.len;
        self.king_key = other.king_key;
    }
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from && self.to == other.to && self.captures == other.captures
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.from, self.to, self.captures).hash(state);
    }
}
