//! Why a game record could not be replayed.

use std::fmt;

/// The first problem found in a game record. Games are numbered from 1 in file order;
/// plies from 1 at the game's start position.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum PdnError {
    /// The `GameType` tag names a game we do not play and no variant was given.
    UnsupportedGameType {
        /// Game number in the file.
        game: usize,
        /// The tag's value.
        value: String,
    },
    /// The `FEN` tag is not a valid position of the variant (in either notation).
    InvalidFen {
        /// Game number in the file.
        game: usize,
        /// The tag's value.
        fen: String,
    },
    /// A move token could not be played.
    Move {
        /// Game number in the file.
        game: usize,
        /// Ply of the move (1 = the first move of the game).
        ply: usize,
        /// The move number as PDN writes it: `32.` for the first mover, `32...` for the
        /// second.
        number: String,
        /// The move as written in the file.
        text: String,
        /// What is wrong with it.
        fault: MoveFault,
    },
}

/// What is wrong with a move token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveFault {
    /// Not a move in the variant's notation (e.g. text glued to a move).
    Syntax,
    /// A placeholder for a move the record does not know (`-`, `--`).
    Unknown,
    /// Well-formed, but no legal move matches it (or none with which the rest of the
    /// game can be replayed).
    Illegal,
}

impl PdnError {
    /// The game number (from 1) the error is about.
    pub fn game(&self) -> usize {
        match self {
            PdnError::UnsupportedGameType { game, .. }
            | PdnError::InvalidFen { game, .. }
            | PdnError::Move { game, .. } => *game,
        }
    }

    /// The ply of the faulty move, for a move error.
    pub fn ply(&self) -> Option<usize> {
        match self {
            PdnError::Move { ply, .. } => Some(*ply),
            _ => None,
        }
    }
}

impl fmt::Display for PdnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PdnError::UnsupportedGameType { game, value } => {
                write!(f, "game {game}: unsupported GameType \"{value}\"")
            }
            PdnError::InvalidFen { game, fen } => write!(f, "game {game}: invalid FEN \"{fen}\""),
            PdnError::Move {
                game,
                ply,
                number,
                text,
                fault,
            } => {
                let what = match fault {
                    MoveFault::Syntax => "is not a move",
                    MoveFault::Unknown => "is an unknown-move placeholder",
                    MoveFault::Illegal => "is illegal",
                };
                write!(f, "game {game}: move {number} {text} (ply {ply}) {what}")
            }
        }
    }
}

impl std::error::Error for PdnError {}
