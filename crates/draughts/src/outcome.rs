//! How a game ended.

use crate::Color;
use std::fmt;

/// Why a game ended (the wire's `reason` values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The side to move had no legal move and lost.
    NoMoves,
    /// A player resigned.
    Resign,
    /// A player's clock ran out.
    Timeout,
    /// Draw agreed.
    Agreement,
    /// The same position occurred for the third time.
    Threefold,
    /// A draw limit of spec §2 was reached.
    MoveLimit,
    /// The game was abandoned before it really started.
    Aborted,
    /// A player left the game and did not come back: the opponent claimed the win or a
    /// draw (decided by the server, never by the rules).
    Abandoned,
}

impl Reason {
    /// Every reason.
    pub const ALL: [Reason; 8] = [
        Reason::NoMoves,
        Reason::Resign,
        Reason::Timeout,
        Reason::Agreement,
        Reason::Threefold,
        Reason::MoveLimit,
        Reason::Aborted,
        Reason::Abandoned,
    ];

    /// The wire name (`no_moves`, `resign`, ...).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Reason::NoMoves => "no_moves",
            Reason::Resign => "resign",
            Reason::Timeout => "timeout",
            Reason::Agreement => "agreement",
            Reason::Threefold => "threefold",
            Reason::MoveLimit => "move_limit",
            Reason::Aborted => "aborted",
            Reason::Abandoned => "abandoned",
        }
    }

    /// The reason with wire name `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The end of a game: who won (`None` for a draw or an aborted game) and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub reason: Reason,
}

impl Outcome {
    /// The wire result: `"white"`, `"black"` or `"draw"`; `None` for an
    /// aborted game.
    #[must_use]
    pub fn result_name(&self) -> Option<&'static str> {
        match (self.winner, self.reason) {
            (_, Reason::Aborted) => None,
            (Some(c), _) => Some(c.name()),
            (None, _) => Some("draw"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reason_names_round_trip() {
        for r in Reason::ALL {
            assert_eq!(Reason::from_name(r.name()), Some(r));
        }
        assert_eq!(Reason::from_name("stalemate"), None);
    }
}
