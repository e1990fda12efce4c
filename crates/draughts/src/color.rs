//! The two sides.

use std::fmt;
use std::str::FromStr;

/// A side: White or Black. Which one moves first depends on the variant
/// (Black in American checkers, White everywhere else).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// White.
    White,
    /// Black.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The opponent.
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The wire name: `"white"` or `"black"`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }

    /// The FEN letter: `W` or `B`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::White => 'W',
            Color::Black => 'B',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per side, as shakmaty keeps them: a clock's two times, two players, two
/// flags. Indexed by [`Color`], so code never has to turn a colour into `0` or `1`.
///
/// ```
/// use draughts::{ByColor, Color};
/// let mut ready = ByColor::new_with(|_| false);
/// ready[Color::Black] = true;
/// assert_eq!(ready.find(|r| *r), Some(Color::Black));
/// assert_eq!(ready.map(u8::from), ByColor { white: 0, black: 1 });
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// White's.
    pub white: T,
    /// Black's.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Each side's value from `init`.
    pub fn new_with(mut init: impl FnMut(Color) -> T) -> ByColor<T> {
        ByColor {
            white: init(Color::White),
            black: init(Color::Black),
        }
    }

    /// The value of `color`.
    pub const fn get(&self, color: Color) -> &T {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The value of `color`, to change.
    pub fn get_mut(&mut self, color: Color) -> &mut T {
        match color {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }

    /// Both values through `f`.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> ByColor<U> {
        ByColor {
            white: f(self.white),
            black: f(self.black),
        }
    }

    /// References to both values.
    pub const fn as_ref(&self) -> ByColor<&T> {
        ByColor {
            white: &self.white,
            black: &self.black,
        }
    }

    /// The first side (White first) whose value satisfies `pred`.
    pub fn find(&self, mut pred: impl FnMut(&T) -> bool) -> Option<Color> {
        Color::ALL.into_iter().find(|c| pred(self.get(*c)))
    }

    /// Whether both values satisfy `pred`.
    pub fn all(&self, mut pred: impl FnMut(&T) -> bool) -> bool {
        pred(&self.white) && pred(&self.black)
    }

    /// Whether either value satisfies `pred`.
    pub fn any(&self, mut pred: impl FnMut(&T) -> bool) -> bool {
        pred(&self.white) || pred(&self.black)
    }

    /// Both values with their sides, White first.
    pub fn iter(&self) -> impl Iterator<Item = (Color, &T)> {
        [(Color::White, &self.white), (Color::Black, &self.black)].into_iter()
    }

    /// Both values with their sides, to change, White first.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = (Color, &mut T)> {
        [
            (Color::White, &mut self.white),
            (Color::Black, &mut self.black),
        ]
        .into_iter()
    }
}

impl<T> std::ops::Index<Color> for ByColor<T> {
    type Output = T;

    fn index(&self, color: Color) -> &T {
        self.get(color)
    }
}

impl<T> std::ops::IndexMut<Color> for ByColor<T> {
    fn index_mut(&mut self, color: Color) -> &mut T {
        self.get_mut(color)
    }
}

/// Error for a colour name that is neither `white` nor `black`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseColorError;

impl fmt::Display for ParseColorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid colour (expected white or black)")
    }
}

impl std::error::Error for ParseColorError {}

impl FromStr for Color {
    type Err = ParseColorError;

    /// Accepts `white`/`black` (any case) and the FEN letters `W`/`B`.
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        match s.to_ascii_lowercase().as_str() {
            "white" | "w" => Ok(Color::White),
            "black" | "b" => Ok(Color::Black),
            _ => Err(ParseColorError),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.name().parse::<Color>(), Ok(c));
            assert_eq!(c.other().other(), c);
            assert_ne!(c.other(), c);
        }
        assert!("red".parse::<Color>().is_err());
    }
}
