//! A game as PDN knows it: tags, start position, moves and result.

use crate::{Color, Move, Outcome, Position, Variant};

/// A game record: what [`super::write`] writes and what [`super::Record::replay`] returns.
#[derive(Debug, Clone)]
pub struct PdnGame {
    /// Tag pairs in order (`Event`, `Site`, `Date`, `Round`, `White`, `Black`,
    /// `TimeControl`, `Termination`, ...). The writer derives `Result`, `GameType`, `FEN`
    /// and `SetUp` itself and skips them here; the reader keeps every tag it found.
    pub tags: Vec<(String, String)>,
    /// The position before the first move (the variant's start or a set-up position).
    pub start: Position,
    /// The moves, in order, each legal in the position before it.
    pub moves: Vec<Move>,
    /// How the game ended.
    pub result: GameResult,
}

impl PdnGame {
    /// A game from `start` with no tags, no moves and an unfinished result.
    pub fn new(start: Position) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            result: GameResult::Unfinished,
        }
    }

    /// The game's variant (that of its start position).
    pub fn variant(&self) -> Variant {
        self.start.variant()
    }

    /// The value of the first tag called `name` (case-sensitive), if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(tag, _)| tag == name)
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name` to `value`, replacing an existing one or appending it.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(tag, _)| tag == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_owned(), value)),
        }
    }

    /// Sets the result and the `Termination` tag (the reason's wire name) from the
    /// engine's outcome; `None` means the game is unfinished.
    pub fn set_outcome(&mut self, outcome: Option<&Outcome>) {
        self.result = GameResult::from_outcome(outcome);
        match outcome {
            Some(outcome) => self.set_tag("Termination", outcome.reason.name()),
            None => self.tags.retain(|(tag, _)| tag != "Termination"),
        }
    }

    /// The position after every move (the start position if there are none). Moves are
    /// played unchecked: for a hand-built game whose moves are not legal in sequence the
    /// position is meaningless (never for a game returned by the reader).
    pub fn end_position(&self) -> Position {
        let mut position = self.start.clone();
        for m in &self.moves {
            position.play_unchecked(m);
        }
        position
    }
}

/// A game's result as PDN writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won (`1-0`, `2-0`).
    WhiteWins,
    /// Black won (`0-1`, `0-2`).
    BlackWins,
    /// Draw (`1/2-1/2`, `1-1`).
    Draw,
    /// Unfinished, aborted or unknown (`*`).
    Unfinished,
}

impl GameResult {
    /// The result of an engine outcome; `None` (no outcome yet) is unfinished, and so is
    /// an outcome with no winner that is not a draw (an aborted game).
    pub fn from_outcome(outcome: Option<&Outcome>) -> GameResult {
        match outcome {
            None => GameResult::Unfinished,
            Some(outcome) => match outcome.winner {
                Some(Color::White) => GameResult::WhiteWins,
                Some(Color::Black) => GameResult::BlackWins,
                None if outcome.reason == crate::Reason::Aborted => GameResult::Unfinished,
                None => GameResult::Draw,
            },
        }
    }

    /// The PDN token: `1-0`/`0-1`/`1/2-1/2` on 8x8, `2-0`/`0-2`/`1-1` on 10x10, `*`.
    pub fn token(self, variant: Variant) -> &'static str {
        let ten = variant.board_size() == 10;
        match self {
            GameResult::WhiteWins if ten => "2-0",
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins if ten => "0-2",
            GameResult::BlackWins => "0-1",
            GameResult::Draw if ten => "1-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unfinished => "*",
        }
    }

    /// Reads any result token of either board size (`2-0`, `1-0`, `1/2-1/2`, `1-1`, `0-0`
    /// as a double loss counts as unfinished); `None` for anything else.
    pub fn parse(token: &str) -> Option<GameResult> {
        match token.trim() {
            "1-0" | "2-0" => Some(GameResult::WhiteWins),
            "0-1" | "0-2" => Some(GameResult::BlackWins),
            "1/2-1/2" | "1-1" | "½-½" => Some(GameResult::Draw),
            "*" | "0-0" => Some(GameResult::Unfinished),
            _ => None,
        }
    }
}
