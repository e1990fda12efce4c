//! A game: the initial position, the moves, and how it ends by the rules.

use crate::draw::{self, DrawLimits, Limit, LimitSet};
use crate::{Counter, FenError, Move, MoveError, Outcome, PlayError, Position, Reason, Rules};
use std::fmt;

/// A game in progress or finished: initial position, moves, current position,
/// and everything the automatic game end needs (positions for threefold
/// repetition, the draw-limit counters).
#[derive(Debug, Clone)]
pub struct Game {
    initial: Position,
    moves: Vec<Move>,
    position: Position,
    /// Positions since the last capture or man move (none before it can
    /// recur), the current one last. Full positions: no hash collisions.
    since_irreversible: Vec<Position>,
    limits: LimitSet,
    outcome: Option<Outcome>,
}

/// Error of [`Game::replay`]: a stored move that does not replay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayError {
    /// The initial FEN is invalid.
    Fen(FenError),
    /// The move at this 0-based ply is invalid, illegal or ambiguous.
    Move {
        /// 0-based ply of the move.
        ply: usize,
        /// The move text.
        text: String,
        /// Why it was rejected (`Illegal` also when the game was over).
        error: MoveError,
    },
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReplayError::Fen(e) => e.fmt(f),
            ReplayError::Move { ply, text, error } => {
                write!(f, "move {} ({text}): {error}", ply + 1)
            }
        }
    }
}

impl std::error::Error for ReplayError {}

impl Game {
    /// A game starting from `initial`.
    #[must_use]
    pub fn new(initial: Position) -> Game {
        let mut game = Game {
            limits: draw::initial(&initial),
            position: initial.clone(),
            since_irreversible: vec![initial.clone()],
            initial,
            moves: Vec::new(),
            outcome: None,
        };
        game.outcome = game.compute_outcome();
        game
    }

    /// Rebuilds a game from its initial FEN and the stored move texts (how
    /// the server reloads games).
    ///
    /// # Errors
    ///
    /// [`ReplayError`] for a bad FEN or the first move that does not replay.
    pub fn replay<S: AsRef<str>>(
        rules: Rules,
        initial_fen: &str,
        moves: &[S],
    ) -> Result<Game, ReplayError> {
        let initial = Position::from_fen(rules, initial_fen).map_err(ReplayError::Fen)?;
        let mut game = Game::new(initial);
        for (ply, text) in moves.iter().enumerate() {
            let text = text.as_ref();
            let err = |error| ReplayError::Move {
                ply,
                text: text.to_string(),
                error,
            };
            let m = game.position.parse_move(text).map_err(err)?;
            game.play(&m).map_err(|_| err(MoveError::Illegal))?;
        }
        Ok(game)
    }

    /// The position the game started from.
    #[must_use]
    pub fn initial(&self) -> &Position {
        &self.initial
    }

    /// The current position.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, in order.
    #[must_use]
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// How the game ended by the rules (no legal move, threefold repetition,
    /// a draw limit), or `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The active draw limits with their current counts.
    #[must_use]
    pub fn counters(&self) -> Vec<Counter> {
        self.limits.iter().map(Limit::counter).collect()
    }

    /// The active draw limits with their counts as a value that follows a
    /// line of moves cheaply ([`DrawLimits::after_move`]); what a search uses
    /// instead of cloning the game at every node.
    #[must_use]
    pub fn draw_limits(&self) -> DrawLimits {
        DrawLimits::from_limits(&self.limits)
    }

    /// Plays a legal move.
    ///
    /// # Errors
    ///
    /// [`PlayError`] when the move is illegal or the game is already over.
    pub fn play(&mut self, m: &Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError { m: *m });
        }
        // The generated move, not the caller's: its route and flags are the
        // engine's own.
        let Some(m) = self.position.find_legal(m) else {
            return Err(PlayError { m: *m });
        };
        let before = self.position.clone();
        self.position.play_unchecked(&m);
        let man_moved = !before.kings().contains(m.from());
        if m.is_capture() || man_moved {
            self.since_irreversible.clear();
        }
        self.since_irreversible.push(self.position.clone());
        self.limits = draw::after_move(&self.limits, &before, &m, &self.position);
        self.moves.push(m);
        self.outcome = self.compute_outcome();
        Ok(())
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        if !self.position.has_legal_moves() {
            return Some(Outcome {
                winner: Some(self.position.turn().other()),
                reason: Reason::NoMoves,
            });
        }
        let repeats = self
            .since_irreversible
            .iter()
            .filter(|p| **p == self.position)
            .count();
        if repeats >= 3 {
            return Some(Outcome {
                winner: None,
                reason: Reason::Threefold,
            });
        }
        if self.limits.iter().any(Limit::reached) {
            return Some(Outcome {
                winner: None,
                reason: Reason::MoveLimit,
            });
        }
        None
    }

    /// The rule id of the first reached draw limit, if any (which row of the
    /// table ended the game).
    #[must_use]
    pub fn reached_limit(&self) -> Option<&'static str> {
        self.limits
            .iter()
            .find(|l| l.reached())
            .map(|l| l.counter().rule)
    }
}
