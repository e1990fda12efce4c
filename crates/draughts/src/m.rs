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

/// Moves a [`MoveList`] holds without allocating.
///
/// Simple moves never exceed it: a simple move is its landing square and the
/// direction it arrives from (a piece, even a flying king, reaches an empty
/// square along one diagonal only from the nearest piece on it), so a side
/// has at most 4 per empty square: 4 x 49 = 196 on 10x10, 4 x 31 = 124 on
/// 8x8. Captures have no such small bound: flying kings (Russian, without
/// the majority rule) and move input, which keeps every route of a capture,
/// can exceed it in crafted positions. The list then moves to the heap
/// rather than drop a move (see [`MoveList::is_spilled`]).
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

/// A list of moves: a fixed array, so generating moves does not allocate,
/// and a heap vector only past [`MOVE_LIST_CAPACITY`] moves, so no move is
/// ever lost.
#[derive(Clone)]
pub struct MoveList {
    /// The moves while there are at most [`MOVE_LIST_CAPACITY`].
    moves: [Move; MOVE_LIST_CAPACITY],
    /// Every move once there are more (then `moves` is not read): one
    /// contiguous slice either way, and an empty `Vec` costs no allocation.
    spill: Vec<Move>,
    /// Number of moves, wherever they are.
    len: usize,
}

impl MoveList {
    /// An empty list.
    #[must_use]
    #[inline]
    pub fn new() -> MoveList {
        MoveList {
            moves: [NULL_MOVE; MOVE_LIST_CAPACITY],
            spill: Vec::new(),
            len: 0,
        }
    }

    /// Appends a move.
    #[inline]
    pub(crate) fn push(&mut self, m: Move) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            *slot = m;
        } else {
            self.push_spilled(m);
        }
        self.len += 1;
    }

    #[cold]
    fn push_spilled(&mut self, m: Move) {
        if self.spill.is_empty() {
            self.spill.extend_from_slice(&self.moves);
        }
        self.spill.push(m);
    }

    /// Number of moves (the slice's `len`, without looking where they are:
    /// the capture search asks often).
    #[must_use]
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the list has no move.
    #[must_use]
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Whether the list holds more than [`MOVE_LIST_CAPACITY`] moves (and so
    /// lives on the heap).
    #[must_use]
    #[inline]
    pub fn is_spilled(&self) -> bool {
        self.len > MOVE_LIST_CAPACITY
    }

    /// Keeps the moves for which `keep` is true, in order (`keep` sees each
    /// move once, first to last).
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let moves = self.as_mut_slice();
        let mut j = 0;
        for i in 0..moves.len() {
            if keep(&moves[i]) {
                moves[j] = moves[i];
                j += 1;
            }
        }
        self.truncate(j);
    }

    /// Mutable access to the moves (for the crate).
    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [Move] {
        if self.is_spilled() {
            &mut self.spill
        } else {
            &mut self.moves[..self.len]
        }
    }

    /// Keeps the first `len` moves.
    #[inline]
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        if self.is_spilled() {
            if len <= MOVE_LIST_CAPACITY {
                self.moves[..len].copy_from_slice(&self.spill[..len]);
                self.spill.clear();
            } else {
                self.spill.truncate(len);
            }
        }
        self.len = len;
    }

    /// Removes every move.
    #[inline]
    pub fn clear(&mut self) {
        if self.is_spilled() {
            self.spill.clear();
        }
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
        if self.is_spilled() {
            &self.spill
        } else {
            &self.moves[..self.len]
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Distinct simple moves, numbered by their start and end bits.
    fn numbered(i: usize) -> Move {
        Move::simple(
            Square::from_bit((i / 64) as u8),
            Square::from_bit((i % 64) as u8),
            false,
        )
    }

    #[test]
    fn a_list_past_its_capacity_keeps_every_move_in_order() {
        let total = MOVE_LIST_CAPACITY + 50;
        let mut list = MoveList::new();
        for i in 0..total {
            list.push(numbered(i));
            assert_eq!(list.is_spilled(), i >= MOVE_LIST_CAPACITY);
        }
        assert_eq!(list.len(), total);
        assert!(list.iter().copied().eq((0..total).map(numbered)));

        // Shrinking below the capacity moves the list back into its array.
        list.retain(|m| m.to().bit() % 2 == 0);
        assert!(!list.is_spilled());
        assert!(list.iter().copied().eq((0..total).step_by(2).map(numbered)));
        for i in 0..MOVE_LIST_CAPACITY {
            list.push(numbered(i));
        }
        assert!(list.is_spilled(), "spills again");
        assert_eq!(list.len(), total.div_ceil(2) + MOVE_LIST_CAPACITY);
        assert_eq!(list.last().copied(), Some(numbered(MOVE_LIST_CAPACITY - 1)));

        list.truncate(MOVE_LIST_CAPACITY + 1);
        assert!(list.is_spilled());
        list.truncate(3);
        assert!(list.iter().copied().eq([0, 2, 4].map(numbered)));
        list.clear();
        assert!(list.is_empty() && !list.is_spilled());
    }
}
