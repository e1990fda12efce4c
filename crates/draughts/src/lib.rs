//! Rules engine for seven draughts variants: American, Russian, Brazilian,
//! Spanish, Italian, Czech and International.
//!
//! ```
//! use draughts::{Position, Rules, Variant, perft};
//!
//! let pos = Position::new(Rules::new(Variant::International));
//! assert_eq!(pos.legal_moves().len(), 9);
//! assert_eq!(perft(&pos, 3), 658);
//!
//! // Moves are read and written in the variant's own notation.
//! let m = pos.parse_move("32-28")?;
//! let next = pos.play(&m)?;
//! assert_eq!(next.to_fen(), "B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Map
//!
//! - Vocabulary: [`Color`], [`Variant`] (wire ids, notation, start FEN),
//!   [`Rules`] (one table for every variant plus table options), [`Square`],
//!   [`Bitboard`], [`Piece`]/[`Role`], [`Move`]/[`MoveList`].
//! - [`Position`]: FEN in and out, [`Position::legal_moves`] (bitboards, no
//!   allocation below [`MOVE_LIST_CAPACITY`] moves), [`Position::is_legal`],
//!   [`Position::play`], move text via [`Position::parse_move`] and
//!   [`Position::move_to_string`].
//! - [`perft()`]: move-tree counts for testing against published tables.
//! - [`Game`]: a position with its history: threefold repetition, the draw
//!   limits of every variant with live [`Counter`]s, the [`Outcome`], and
//!   [`random_opening`].
//! - [`clock`]: the Fischer clock; [`pdn`]: PDN reading and writing.
//! - [`ballot`]: the opening ballots ([`Ballot`], [`BallotSet`]): the ACF
//!   3-move and 2-move ballots, the FMJD-64 and IDF tables, and Damka's own
//!   balanced sets; [`ballot::random`] draws one by seed, [`ballot::find`]
//!   looks one up by id.
//!
//! Internally every variant is played on one reference numbering (square 1
//! top-left, first mover at the bottom); see [`Square`].

#![forbid(unsafe_code)]

pub mod ballot;
mod bitboard;
mod capture;
pub mod clock;
mod color;
mod draw;
mod fen;
#[doc(hidden)]
pub mod fuzzing;
mod game;
mod geometry;
mod legal;
mod m;
mod move_list;
mod movegen;
mod movetext;
mod notation;
mod opening;
mod outcome;
pub mod pdn;
mod perft;
mod piece;
mod position;
mod priority;
mod rules;
mod square;
mod variant;

pub use ballot::{Ballot, BallotSet};
pub use bitboard::Bitboard;
pub use color::{ByColor, Color, ParseColorError};
pub use draw::{Counter, DrawLimits};
pub use fen::FenError;
pub use game::{Game, ReplayError};
pub use legal::PlayError;
pub use m::{MAX_PATH, Move};
pub use move_list::{MOVE_LIST_CAPACITY, MoveList};
pub use movetext::MoveError;
pub use opening::{SplitMix64, random_opening};
pub use outcome::{Outcome, Reason};
pub use perft::{perft, perft_divide};
pub use piece::{Piece, Role};
pub use position::Position;
pub use rules::{CapturePromotion, Priority, Rules, RulesError};
pub use square::Square;
pub use variant::{ParseVariantError, Variant};
