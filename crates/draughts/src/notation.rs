//! Square names per variant, mapped onto the reference numbering.
//!
//! The reference board has square 1 top-left, the first mover at the bottom
//! and a playing square in the bottom-left corner. American checkers is the
//! reference turned half a turn (Black, the first mover, is at the bottom
//! internally); Italian and Spanish boards are its mirror image.

use crate::{Square, Variant};

/// Converts between a reference number and the variant's own number (the
/// maps are their own inverses). Only for the 8x8 numeric variants that
/// differ from the reference; identity otherwise.
fn reference_to_own(variant: Variant, r: u8) -> u8 {
    let (row, idx) = ((r - 1) / 4, (r - 1) % 4);
    match variant {
        Variant::American => 33 - r,
        Variant::Italian => row * 4 + (3 - idx) + 1,
        Variant::Spanish => (7 - row) * 4 + idx + 1,
        _ => r,
    }
}

/// Column and row of a reference square on the reference board.
pub(crate) fn reference_xy(size: u8, r: u8) -> (u8, u8) {
    let h = size / 2;
    let (row, idx) = ((r - 1) / h, (r - 1) % h);
    (2 * idx + u8::from(row % 2 == 0), row)
}

/// The reference number of `sq` if it is a playing square of the board.
fn checked_reference(variant: Variant, sq: Square) -> Option<u8> {
    let size = variant.board_size();
    let r = sq.reference(size);
    (Square::from_reference(size, r) == Some(sq)).then_some(r)
}

/// The square's name in the variant's notation (`"?"` for a square that is
/// not on this board, which only a caller mixing boards can produce).
pub(crate) fn square_name(variant: Variant, sq: Square) -> String {
    let mut name = String::with_capacity(2);
    push_square_name(variant, sq, &mut name);
    name
}

/// Appends the square's name to `out`: move text is written square by square
/// into one string (the server writes every legal move after every move).
pub(crate) fn push_square_name(variant: Variant, sq: Square, out: &mut String) {
    let size = variant.board_size();
    let Some(r) = checked_reference(variant, sq) else {
        out.push('?');
        return;
    };
    if variant.is_algebraic() {
        let (x, y) = reference_xy(size, r);
        out.push(char::from(b'a' + x));
        push_number(out, size - y);
    } else {
        push_number(out, reference_to_own(variant, r));
    }
}

/// Appends a square number or a rank in decimal, without the formatting machinery (a
/// few digits, written for every square of every legal move after every move).
fn push_number(out: &mut String, n: u8) {
    if n >= 100 {
        out.push(char::from(b'0' + n / 100));
    }
    if n >= 10 {
        out.push(char::from(b'0' + n / 10 % 10));
    }
    out.push(char::from(b'0' + n % 10));
}

/// The square's number in the variant's own numbering (numeric variants; 0 for a
/// square not on this board).
pub(crate) fn square_number(variant: Variant, sq: Square) -> u8 {
    checked_reference(variant, sq).map_or(0, |r| reference_to_own(variant, r))
}

/// Parses a square name of the variant's notation.
pub(crate) fn parse_square(variant: Variant, name: &str) -> Option<Square> {
    let size = variant.board_size();
    if variant.is_algebraic() {
        let bytes = name.as_bytes();
        let [file, rank] = bytes else {
            return None;
        };
        let file = file.to_ascii_lowercase();
        if !(b'a'..b'a' + size).contains(&file) || !(b'1'..b'1' + size).contains(rank) {
            return None;
        }
        let (x, y) = (file - b'a', size - (rank - b'0'));
        if (x + y) % 2 == 0 {
            return None;
        }
        let idx = (x - u8::from(y % 2 == 0)) / 2;
        Square::from_reference(size, y * (size / 2) + idx + 1)
    } else {
        if name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) || name.len() > 2 {
            return None;
        }
        let n: u8 = name.parse().ok()?;
        if n == 0 || n > variant.square_count() {
            return None;
        }
        Square::from_reference(size, reference_to_own(variant, n))
    }
}

/// Display column and row, White at the bottom, mirrored boards as drawn
/// (`(0, 0)` for a square that is not on this board).
pub(crate) fn square_xy(variant: Variant, sq: Square) -> (u8, u8) {
    let size = variant.board_size();
    let Some(r) = checked_reference(variant, sq) else {
        return (0, 0);
    };
    let (x, y) = reference_xy(size, r);
    let last = size - 1;
    match variant {
        // Black moves first, so the reference board has Black at the bottom.
        Variant::American => (last - x, last - y),
        Variant::Italian | Variant::Spanish => (last - x, y),
        _ => (x, y),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(v: Variant, name: &str) -> Square {
        v.parse_square(name).expect("valid square")
    }

    #[test]
    fn names_round_trip_in_every_variant() {
        for v in Variant::ALL {
            let mut seen = std::collections::HashSet::new();
            for s in v.squares() {
                let name = v.square_name(s);
                assert_eq!(v.parse_square(&name), Some(s), "{v} {name}");
                assert!(seen.insert(v.square_xy(s)));
                let (x, y) = v.square_xy(s);
                assert!(x < v.board_size() && y < v.board_size());
            }
        }
    }

    #[test]
    fn display_corners_match_the_spec() {
        // Italian square 1 is a8, top-left.
        assert_eq!(
            Variant::Italian.square_xy(sq(Variant::Italian, "1")),
            (0, 0)
        );
        // Spanish square 1 is h1, White's bottom-right.
        assert_eq!(
            Variant::Spanish.square_xy(sq(Variant::Spanish, "1")),
            (7, 7)
        );
        // Algebraic a1 is the bottom-left corner.
        assert_eq!(
            Variant::Russian.square_xy(sq(Variant::Russian, "a1")),
            (0, 7)
        );
        assert_eq!(
            Variant::International.square_xy(sq(Variant::International, "1")),
            (1, 0)
        );
        assert_eq!(
            Variant::International.square_xy(sq(Variant::International, "46")),
            (0, 9)
        );
        // American 1-4 across the top, 29 in the bottom-left corner.
        assert_eq!(
            Variant::American.square_xy(sq(Variant::American, "1")),
            (1, 0)
        );
        assert_eq!(
            Variant::American.square_xy(sq(Variant::American, "29")),
            (0, 7)
        );
    }

    #[test]
    fn squares_of_another_board_never_panic() {
        let big = Variant::International.parse_square("50").expect("square");
        assert_eq!(Variant::American.square_name(big), "?");
        assert_eq!(Variant::Italian.square_xy(big), (0, 0));
        let ghost = Square::from_bit(8);
        assert_eq!(Variant::Spanish.square_name(ghost), "?");
    }

    #[test]
    fn rejects_non_squares() {
        for name in ["", "0", "33", "a2", "b1", "i1", "a9", "1a", "a10", "c"] {
            assert_eq!(Variant::Russian.parse_square(name), None, "{name}");
        }
        for name in ["", "0", "33", "c3", "+1", "-1", "1.5", "100"] {
            assert_eq!(Variant::Italian.parse_square(name), None, "{name}");
        }
        assert_eq!(Variant::International.parse_square("51"), None);
        assert_eq!(Variant::American.parse_square("33"), None);
        assert_eq!(Variant::American.parse_square("c3"), None);
    }
}
