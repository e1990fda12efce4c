//! PDN 3.0: reading game files from other programs and writing our games.
//!
//! Reading has two stages, like move input: [`parse`] splits text into [`Record`]s (tags
//! and move tokens; it never fails, whatever the text), then [`Record::replay`] plays the
//! moves through the engine and returns a [`PdnGame`] or the first problem as a
//! [`PdnError`]. [`read`] does both for every game of a file.
//!
//! The reader accepts what real files contain (see `vectors/pdn/README.md`):
//! comments, nested variations (skipped), NAGs and `!?` marks, glued or zero-padded move
//! numbers, padded squares (`1- 6`), either capture separator, short (`from x to`) or full
//! captures (a short capture that matches several legal moves is resolved by lookahead:
//! the candidate with which the rest of the game replays), localized or HTML-escaped tag
//! names, broken tag lines, games without tags, forfeits (`1. 0-2`), and FEN tags in
//! numeric notation for algebraic variants.
//!
//! ```
//! use draughts::pdn;
//!
//! let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n";
//! let records = pdn::parse(text);
//! let game = records[0].replay(None).expect("legal moves");
//! assert_eq!(game.moves.len(), 4);
//! let written = pdn::write(&game);
//! assert!(written.contains("1. 32-28 19-23 2. 28x19 14x23 *"));
//! ```

mod error;
mod fen;
mod game;
mod lexer;
mod numbering;
mod record;
mod replay;
pub(crate) mod resolve;
mod scanner;
mod tags;
mod writer;

pub use error::{MoveFault, PdnError};
pub use game::{GameResult, PdnGame};
pub use numbering::move_number;
pub use record::Record;
pub use writer::{Annotation, move_text, write, write_all, write_annotated};

use crate::Variant;
use std::borrow::Cow;

/// Splits PDN text into game records, numbered from 1. Never fails.
pub fn parse(text: &str) -> Vec<Record> {
    lexer::split_games(text)
        .into_iter()
        .enumerate()
        .map(|(i, raw)| Record::from_raw(i + 1, raw))
        .collect()
}

/// Parses and replays every game of `text`; `variant` overrides the `GameType` tags
/// (without either, games are International). One result per record, in file order.
pub fn read(text: &str, variant: Option<Variant>) -> Vec<Result<PdnGame, PdnError>> {
    parse(text)
        .iter()
        .map(|record| record.replay(variant))
        .collect()
}

/// Decodes a file's bytes: UTF-8 (a byte-order mark is dropped), or Latin-1 when the bytes
/// are not valid UTF-8 (older files are in single-byte code pages; Latin-1 maps every byte
/// to a character, so nothing is lost and no move text is affected).
pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => Cow::Owned(bytes.iter().map(|&b| char::from(b)).collect()),
    }
}
