//! The engine's colours and the wire's sides, one for the other.

use damka_protocol::Side;
use draughts::Color;

/// The wire colour of an engine colour.
pub fn side(color: Color) -> Side {
    match color {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// The engine colour of a wire colour.
pub fn color(side: Side) -> Color {
    match side {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}
