//! One game record as read from a file, and its replay into a [`PdnGame`].

use super::error::PdnError;
use super::game::{GameResult, PdnGame};
use super::lexer::RawGame;
use super::tags::{normalize_name, normalize_value, variant_from_game_type};
use super::{numbering::move_number, replay};
use crate::{Position, Rules, Variant};

/// A game record: tags and move tokens, not yet checked against the rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// Game number in the file, from 1.
    pub index: usize,
    /// Tag pairs in file order, names normalized (`Bianco` → `White`, HTML entities
    /// decoded, spaces trimmed) and values trimmed.
    pub tags: Vec<(String, String)>,
    /// Move tokens as written, without move numbers, comments and annotations.
    pub moves: Vec<String>,
    /// The movetext's result token, if any (also `-` or `4-6` when equal to the `Result`
    /// tag and last in the movetext).
    pub terminator: Option<String>,
}

impl Record {
    /// Builds a record from the lexer's output (game number `index`).
    pub(crate) fn from_raw(index: usize, raw: RawGame) -> Record {
        let tags: Vec<(String, String)> = raw
            .tags
            .iter()
            .map(|(name, value)| (normalize_name(name), normalize_value(value)))
            .collect();
        let mut record = Record {
            index,
            tags,
            moves: raw.moves,
            terminator: raw.terminator,
        };
        // A final token equal to the Result tag is the result, whatever it says
        // (`Result "-"` ending in `-`, `Result "4-6"` ending in `4-6`).
        if record.terminator.is_none() {
            let result = record.tag("Result").map(str::to_owned);
            if result.is_some() && record.moves.last() == result.as_ref() {
                record.terminator = record.moves.pop();
            }
        }
        record
    }

    /// The value of the first tag called `name` (normalized name), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// The variant the record is played in: `forced` if given, else the `GameType` tag's,
    /// else International (the PDN default).
    ///
    /// # Errors
    ///
    /// [`PdnError::UnsupportedGameType`] when no variant is forced and the `GameType`
    /// tag names a game we do not play.
    pub fn variant(&self, forced: Option<Variant>) -> Result<Variant, PdnError> {
        if let Some(variant) = forced {
            return Ok(variant);
        }
        match self.tag("GameType") {
            None => Ok(Variant::International),
            Some(value) => {
                variant_from_game_type(value).ok_or_else(|| PdnError::UnsupportedGameType {
                    game: self.index,
                    value: value.to_owned(),
                })
            }
        }
    }

    /// The record's result: the movetext's terminator if it gives one, else the `Result`
    /// tag's (Dambo exports end every movetext with `*`), else unfinished.
    pub fn result(&self) -> GameResult {
        let from_text = self.terminator.as_deref().and_then(GameResult::parse);
        let from_tag = self.tag("Result").and_then(GameResult::parse);
        match from_text {
            Some(result) if result != GameResult::Unfinished => result,
            _ => from_tag.unwrap_or(GameResult::Unfinished),
        }
    }

    /// The start position: the variant's, or the `FEN` tag's. A FEN written with numeric
    /// squares for an algebraic variant (as in the USSR championship files) is converted.
    ///
    /// # Errors
    ///
    /// [`PdnError::InvalidFen`] when the FEN is not a valid position in either notation,
    /// and the errors of [`Record::variant`].
    pub fn start(&self, forced: Option<Variant>) -> Result<Position, PdnError> {
        let variant = self.variant(forced)?;
        let rules = Rules::new(variant);
        let Some(fen) = self.tag("FEN") else {
            return Ok(Position::new(rules));
        };
        // Some writers end the FEN with a period.
        let trimmed = fen.trim().trim_end_matches('.');
        Position::from_fen(rules, trimmed)
            .or_else(|_| {
                Position::from_fen(rules, &super::fen::numeric_to_algebraic(variant, trimmed))
            })
            .map_err(|_| PdnError::InvalidFen {
                game: self.index,
                fen: fen.to_owned(),
            })
    }

    /// Replays the record through the engine.
    ///
    /// # Errors
    ///
    /// The first problem: an unsupported variant, an invalid FEN, or the first move that
    /// cannot be played, with its ply, move number and text.
    pub fn replay(&self, forced: Option<Variant>) -> Result<PdnGame, PdnError> {
        let start = self.start(forced)?;
        let moves = replay::replay(&start, &self.moves).map_err(|stop| {
            let ply = stop.index + 1;
            PdnError::Move {
                game: self.index,
                ply,
                number: move_number(&start, ply),
                text: self.moves.get(stop.index).cloned().unwrap_or_default(),
                fault: stop.fault,
            }
        })?;
        Ok(PdnGame {
            tags: self.tags.clone(),
            start,
            moves,
            result: self.result(),
        })
    }
}
