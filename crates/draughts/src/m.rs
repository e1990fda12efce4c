//! Moves and the fixed-capacity move list.

use crate::{Bitboard, Square};
use std::ops::Deref;

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

/// Room for every legal move of any reachable position.
pub const MOVE_LIST_CAPACITY: usize = 256;

const NULL_MOVE: Move = Move {
    from: Square::from_bit(0),
    to: Square::from_bit(0),
    captures: Bitboard::EMPTY,
    path: [0; MAX_PATH],
    len: 0,
    promotes: false,
    king_key: 0,
};

/// A list of moves in a fixed array: generating moves never allocates.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MOVE_LIST_CAPACITY],
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[must_use]
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [NULL_MOVE; MOVE_LIST_CAPACITY],
            len: 0,
        }
    }

    /// Appends a move; a full list drops it rather than panic. Simple moves
    /// number at most four per empty square (one per direction it can be
    /// reached from), under 200 even on 10x10, and captures in positions with
    /// at most 20 pieces a side (which the FEN parser enforces) stay far
    /// below the capacity; the random-position vectors check real cases.
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
            self.len += 1;
        }
    }

    /// Keeps the moves for which `keep` is true, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }

    /// Mutable access to the moves (for the crate).
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Keeps the first `len` moves.
    pub(crate) fn truncate(&mut self, len: usize) {
        self.len = self.len.min(len);
    }

    /// Removes every move.
    pub fn clear(&mut self) {
        self.len = 0;
    }
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl Deref for MoveList {
    type Target = [Move];

    #[inline]
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
