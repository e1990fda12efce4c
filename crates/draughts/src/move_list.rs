//! The move list: a fixed array that spills to the heap rather than lose a
//! move.

use crate::Move;
use std::ops::Deref;

/// Moves a [`MoveList`] holds without allocating.
///
/// Simple moves never exceed it: a simple move is its landing square and the
/// direction it arrives from (a piece, even a flying king, reaches an empty
/// square along one diagonal only from the nearest piece on it), so a side
/// has at most 4 per empty square: 4 x 49 = 196 on 10x10, 4 x 31 = 124 on
/// 8x8. Distinct captures have no proven bound (a hill-climbing search over
/// positions with many kings found at most 63 legal moves in International,
/// 56 in Russian), and move input keeps every route of a capture: the same
/// search found an International position with 363 routes between two
/// squares (test `capture_routes_past_the_list_capacity_are_all_kept`). The
/// list then moves to the heap rather than drop a move (see
/// [`MoveList::is_spilled`]); perft pays one comparison where it reads it.
pub const MOVE_LIST_CAPACITY: usize = 256;

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
            moves: [Move::PLACEHOLDER; MOVE_LIST_CAPACITY],
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

    /// Appends a simple move, written in its slot field by field: a move
    /// built aside and copied in was read back by wide loads from the
    /// narrow stores that built it (a stall that was most of the move
    /// generator's time in a profile).
    #[inline]
    pub(crate) fn push_simple(&mut self, from: u8, to: u8, promotes: bool) {
        if let Some(slot) = self.moves.get_mut(self.len) {
            slot.set_simple(from, to, promotes);
            self.len += 1;
        } else {
            self.push(Move::simple(
                crate::Square::from_bit(from),
                crate::Square::from_bit(to),
                promotes,
            ));
        }
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
    use crate::Square;

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
