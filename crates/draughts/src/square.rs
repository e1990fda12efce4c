//! Playing squares.

/// A playing square, stored as its bit in the board's padded layout.
///
/// The layout is one reference numbering for all variants: square 1 is the
/// top-left playing square, White (the first mover) plays from the bottom
/// upwards and the bottom-left corner is a playing square. Reference square
/// `n` (1-based) sits at bit `(n-1) + (n-1) / (2h)` where `h` is the number of
/// playing squares per row (4 on 8x8, 5 on 10x10): a ghost bit after every two
/// rows makes the four diagonal steps the constant shifts `±h`, `±(h+1)` on
/// both boards. Mirrored variants (Italian, Spanish) and American (Black
/// first) are mapped onto it by [`crate::Variant::square_name`] and
/// [`crate::Variant::parse_square`]; the rules are mirror-symmetric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at a bit index of the padded layout. The caller guarantees
    /// that the bit is a playing square of the board in use.
    #[must_use]
    #[inline]
    pub const fn from_bit(bit: u8) -> Square {
        Square(bit)
    }

    /// The bit index in the padded layout.
    #[must_use]
    #[inline]
    pub const fn bit(self) -> u8 {
        self.0
    }

    /// The square with 1-based reference number `n` on a board of
    /// `board_size` (8 or 10); `None` when out of range.
    #[must_use]
    pub const fn from_reference(board_size: u8, n: u8) -> Option<Square> {
        let h = board_size / 2;
        if (board_size != 8 && board_size != 10) || n == 0 || n > h * board_size {
            return None;
        }
        let s = n - 1;
        Some(Square(s + s / (2 * h)))
    }

    /// The 1-based reference number on a board of `board_size` (8 or 10).
    #[must_use]
    pub const fn reference(self, board_size: u8) -> u8 {
        let period = board_size + 1;
        self.0 - self.0 / period + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_numbers_round_trip() {
        for size in [8, 10] {
            let n_squares = size * size / 2;
            for n in 1..=n_squares {
                let sq = Square::from_reference(size, n).expect("in range");
                assert_eq!(sq.reference(size), n);
            }
            assert_eq!(Square::from_reference(size, 0), None);
            assert_eq!(Square::from_reference(size, n_squares + 1), None);
        }
        // The ghost bit after two rows.
        assert_eq!(Square::from_reference(8, 9).map(Square::bit), Some(9));
        assert_eq!(Square::from_reference(10, 11).map(Square::bit), Some(11));
    }
}
