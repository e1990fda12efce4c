//! Board geometry of the padded layout, as compile-time constants.
//!
//! Move generation is written once, generic over [`Geometry`], and
//! monomorphized for the 8x8 and the 10x10 board: the four diagonal steps are
//! the constant shifts `-(H+1)` (up-left), `-H` (up-right), `+H` (down-left)
//! and `+(H+1)` (down-right), and the ghost bits of [`Geometry::MASK`] catch
//! steps that would leave the board sideways.

/// Constants of one board size.
pub(crate) trait Geometry: Copy + 'static {
    /// Playing squares per row.
    const H: i32;
    /// Every playing square.
    const MASK: u64;
    /// The top row (where the bottom side crowns).
    const TOP: u64;
    /// The bottom row (where the top side crowns).
    const BOTTOM: u64;
    /// The four diagonal steps: up-left, up-right, down-left, down-right.
    const DIRS: [i32; 4] = [-(Self::H + 1), -Self::H, Self::H, Self::H + 1];
}

const fn row_mask(h: u32, row: u32) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < h {
        let s = row * h + i;
        m |= 1 << (s + s / (2 * h));
        i += 1;
    }
    m
}

const fn board_mask(h: u32) -> u64 {
    let mut m = 0u64;
    let mut row = 0;
    while row < 2 * h {
        m |= row_mask(h, row);
        row += 1;
    }
    m
}

/// The 8x8 board (32 squares in 35 bits).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Board8;

impl Geometry for Board8 {
    const H: i32 = 4;
    const MASK: u64 = board_mask(4);
    const TOP: u64 = row_mask(4, 0);
    const BOTTOM: u64 = row_mask(4, 7);
}

/// The 10x10 board (50 squares in 54 bits).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Board10;

impl Geometry for Board10 {
    const H: i32 = 5;
    const MASK: u64 = board_mask(5);
    const TOP: u64 = row_mask(5, 0);
    const BOTTOM: u64 = row_mask(5, 9);
}

/// Shifts a set one diagonal step (`d` from [`Geometry::DIRS`]), dropping what
/// falls off the board.
#[inline(always)]
pub(crate) fn shift<G: Geometry>(b: u64, d: i32) -> u64 {
    let s = if d > 0 { b << d } else { b >> -d };
    s & G::MASK
}

/// Whether a (possibly negative or out-of-range) bit index is a playing square.
#[inline(always)]
pub(crate) fn on_board<G: Geometry>(bit: i32) -> bool {
    (bit as u32) < 64 && G::MASK >> bit & 1 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_have_the_right_sizes() {
        assert_eq!(Board8::MASK.count_ones(), 32);
        assert_eq!(Board10::MASK.count_ones(), 50);
        assert_eq!(Board8::TOP.count_ones(), 4);
        assert_eq!(Board10::BOTTOM.count_ones(), 5);
        assert_eq!(Board8::TOP & Board8::BOTTOM, 0);
    }

    #[test]
    fn steps_never_wrap_around_the_edge() {
        // Reference square 5 (8x8) is the left edge of row 1: no step left.
        let sq5 = 1u64 << 4;
        assert_eq!(
            shift::<Board8>(sq5, Board8::DIRS[2]),
            0,
            "down-left off board"
        );
        assert_ne!(shift::<Board8>(sq5, Board8::DIRS[3]), 0);
        // Reference square 4 is the right edge of row 0.
        let sq4 = 1u64 << 3;
        assert_eq!(
            shift::<Board8>(sq4, Board8::DIRS[3]),
            0,
            "down-right off board"
        );
        assert_eq!(shift::<Board8>(sq4, Board8::DIRS[0]), 0, "up off board");
        // Every square has between 1 and 4 neighbours.
        for bit in 0..64 {
            if Board10::MASK >> bit & 1 == 0 {
                continue;
            }
            let n = Board10::DIRS
                .iter()
                .filter(|&&d| on_board::<Board10>(bit + d))
                .count();
            assert!((1..=4).contains(&n));
        }
    }
}
