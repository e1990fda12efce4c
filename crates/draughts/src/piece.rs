//! Pieces: a colour and a role.

use crate::Color;

/// What a piece is: a man (moves forward one square) or a king.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    /// A man (pawn).
    Man,
    /// A king (crowned man).
    King,
}

/// A piece on the board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}
