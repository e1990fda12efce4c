//! The seven variants and their fixed properties.

use crate::{Color, Square, notation};
use std::fmt;
use std::str::FromStr;

/// A draughts variant (`../../docs/rules.md`, shared spec §1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Variant {
    /// American checkers / English draughts: 8x8, short kings, Black first.
    American,
    /// Russian draughts: flying kings, men capture backwards, crowned mid-capture.
    Russian,
    /// Brazilian draughts: International rules on 8x8.
    Brazilian,
    /// Spanish draughts: mirrored board, men capture forward only, majority.
    Spanish,
    /// Italian draughts: mirrored board, short kings, men never capture kings.
    Italian,
    /// Czech draughts: flying kings, a king must capture first.
    Czech,
    /// International draughts: 10x10, flying kings, majority.
    International,
}

impl Variant {
    /// All variants in wire order.
    pub const ALL: [Variant; 7] = [
        Variant::American,
        Variant::Russian,
        Variant::Brazilian,
        Variant::Spanish,
        Variant::Italian,
        Variant::Czech,
        Variant::International,
    ];

    /// The wire id (`american`, `russian`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Variant::American => "american",
            Variant::Russian => "russian",
            Variant::Brazilian => "brazilian",
            Variant::Spanish => "spanish",
            Variant::Italian => "italian",
            Variant::Czech => "czech",
            Variant::International => "international",
        }
    }

    /// The variant with wire id `name` (case-insensitive); `english` is
    /// accepted for American. `None` for anything else.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Variant> {
        let lower = name.to_ascii_lowercase();
        if lower == "english" {
            return Some(Variant::American);
        }
        Variant::ALL.into_iter().find(|v| v.name() == lower)
    }

    /// 8 or 10.
    #[must_use]
    pub const fn board_size(self) -> u8 {
        match self {
            Variant::International => 10,
            _ => 8,
        }
    }

    /// Number of playing squares (32 or 50).
    #[must_use]
    pub const fn square_count(self) -> u8 {
        self.board_size() * self.board_size() / 2
    }

    /// Men per side at the start (12 or 20).
    #[must_use]
    pub const fn men_per_side(self) -> u8 {
        match self {
            Variant::International => 20,
            _ => 12,
        }
    }

    /// The full PDN GameType tag value, e.g. `20,W,10,10,N2,0`.
    #[must_use]
    pub const fn game_type(self) -> &'static str {
        match self {
            Variant::American => "21,B,8,8,N1,0",
            Variant::Russian => "25,W,8,8,A0,0",
            Variant::Brazilian => "26,W,8,8,A0,0",
            Variant::Spanish => "24,W,8,8,N1,1",
            Variant::Italian => "22,W,8,8,N2,1",
            Variant::Czech => "29,W,8,8,A0,0",
            Variant::International => "20,W,10,10,N2,0",
        }
    }

    /// The side that moves first (Black in American checkers).
    #[must_use]
    pub const fn first_mover(self) -> Color {
        match self {
            Variant::American => Color::Black,
            _ => Color::White,
        }
    }

    /// Whether squares are written algebraically (`c3`) rather than numerically.
    #[must_use]
    pub const fn is_algebraic(self) -> bool {
        matches!(self, Variant::Russian | Variant::Brazilian | Variant::Czech)
    }

    /// The start position in FEN, in the variant's notation.
    #[must_use]
    pub const fn start_fen(self) -> &'static str {
        match self {
            Variant::American => "B:W21-32:B1-12",
            Variant::Russian | Variant::Brazilian | Variant::Czech => {
                "W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
            }
            Variant::Spanish => "W:W1-12:B21-32",
            Variant::Italian => "W:W21-32:B1-12",
            Variant::International => "W:W31-50:B1-20",
        }
    }

    /// The name of a square in this variant's notation (`"32"`, `"c3"`);
    /// `"?"` for a square of the other board size.
    #[must_use]
    pub fn square_name(self, sq: Square) -> String {
        notation::square_name(self, sq)
    }

    /// Parses a square name of this variant's notation; `None` if it is not
    /// a playing square.
    #[must_use]
    pub fn parse_square(self, name: &str) -> Option<Square> {
        notation::parse_square(self, name)
    }

    /// Display column and row `(x, y)` of a square, counted from the top-left
    /// corner with White at the bottom; mirrored boards (Italian, Spanish) are
    /// given as drawn physically.
    #[must_use]
    pub fn square_xy(self, sq: Square) -> (u8, u8) {
        notation::square_xy(self, sq)
    }

    /// Every playing square, in reference order.
    pub fn squares(self) -> impl Iterator<Item = Square> {
        let size = self.board_size();
        (1..=self.square_count()).filter_map(move |n| Square::from_reference(size, n))
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown variant name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseVariantError;

impl fmt::Display for ParseVariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(
            "unknown variant (expected american, english, russian, brazilian, spanish, italian, czech or international)",
        )
    }
}

impl std::error::Error for ParseVariantError {}

impl FromStr for Variant {
    type Err = ParseVariantError;

    fn from_str(s: &str) -> Result<Variant, ParseVariantError> {
        Variant::from_name(s).ok_or(ParseVariantError)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
            assert_eq!(v.squares().count(), usize::from(v.square_count()));
        }
        assert_eq!(Variant::from_name("English"), Some(Variant::American));
        assert_eq!(Variant::from_name("checkers"), None);
    }
}
