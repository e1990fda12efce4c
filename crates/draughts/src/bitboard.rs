//! A set of squares in one `u64`.

use crate::Square;
use std::ops::{BitAnd, BitOr, BitXor, Not};

/// A set of squares, one bit per square in the board's padded layout (see
/// [`Square`]). Bits that are not playing squares are always clear in the
/// sets the engine hands out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// The empty set.
    pub const EMPTY: Bitboard = Bitboard(0);

    /// Whether `sq` is in the set.
    #[must_use]
    #[inline]
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.bit() & 1 != 0
    }

    /// Number of squares in the set.
    #[must_use]
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[must_use]
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The set with `sq` added.
    #[must_use]
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1 << sq.bit())
    }

    /// The set with `sq` removed.
    #[must_use]
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1 << sq.bit()))
    }

    /// The lowest square of the set, if any.
    #[must_use]
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_bit(self.0.trailing_zeros() as u8))
        }
    }
}

impl Iterator for Bitboard {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        let sq = self.first()?;
        self.0 &= self.0 - 1;
        Some(sq)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl FromIterator<Square> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl BitAnd for Bitboard {
    type Output = Bitboard;
    fn bitand(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 & rhs.0)
    }
}

impl BitOr for Bitboard {
    type Output = Bitboard;
    fn bitor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 | rhs.0)
    }
}

impl BitXor for Bitboard {
    type Output = Bitboard;
    fn bitxor(self, rhs: Bitboard) -> Bitboard {
        Bitboard(self.0 ^ rhs.0)
    }
}

impl Not for Bitboard {
    type Output = Bitboard;
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iterates_in_order() {
        let b = Bitboard(0b1010_0001);
        let bits: Vec<u8> = b.map(Square::bit).collect();
        assert_eq!(bits, vec![0, 5, 7]);
        assert_eq!(b.count(), 3);
        assert!(b.contains(Square::from_bit(5)));
        assert!(!b.contains(Square::from_bit(6)));
        assert_eq!(
            b.without(Square::from_bit(5)).with(Square::from_bit(6)).0,
            0b1100_0001
        );
    }
}
