//! Micro-matches: two games from one opening with the colours swapped, as the
//! federations play 8x8 draughts from a ballot (a table's `"micro_match": true`).

use serde::{Deserialize, Serialize};

use crate::Player;

/// Where a micro-match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    /// A game of the match is being played (the first or the second).
    Playing,
    /// The first game is over; the second starts when both players press start, or by
    /// itself after the break (`next_game_in`).
    Break,
    /// Both games are over, or the match ended early (an aborted game ends it).
    Over,
}

/// A player's points in a match, counted in halves (a win 2, a draw 1): a number on the
/// wire (`1.5`), exact here.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "f64", try_from = "f64")]
pub struct Points {
    /// Half points.
    pub halves: u32,
}

impl From<Points> for f64 {
    fn from(p: Points) -> f64 {
        f64::from(p.halves) / 2.0
    }
}

impl TryFrom<f64> for Points {
    type Error = String;

    fn try_from(x: f64) -> Result<Points, String> {
        let halves = x * 2.0;
        if halves.fract() != 0.0 || !(0.0..=f64::from(u32::MAX)).contains(&halves) {
            return Err(format!("{x} is not a number of half points"));
        }
        // Checked above: a whole number of halves in range.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Ok(Points {
            halves: halves as u32,
        })
    }
}

/// Points of a micro-match, per player: 1 a win, ½ a draw, per game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchScore {
    /// The points of the player who had White in the first game (and Black in the second).
    pub white_first: Points,
    /// The points of the player who had Black in the first game (and White in the second).
    pub black_first: Points,
}

/// The two players of a micro-match, by their colour in its first game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchPlayers {
    /// White in the first game, Black in the second.
    pub white_first: Player,
    /// Black in the first game, White in the second.
    pub black_first: Player,
}

/// A micro-match as a table's `state`, `game_started` and `game_over` show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchView {
    /// The ids of the match's games so far, the first game first (one or two).
    pub games: Vec<String>,
    /// The points of both players from the games over so far.
    pub score: MatchScore,
    /// Who is who in `score`.
    pub players: MatchPlayers,
    /// Where the match stands.
    pub status: MatchStatus,
    /// During the break: ms until the second game starts by itself.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_game_in: Option<u64>,
}

/// A stored game's place in a micro-match (`GET /api/games/{id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchGame {
    /// The match's id: the id of its first game.
    pub id: String,
    /// 1 or 2.
    pub game: u8,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_match_on_the_wire() {
        let v = MatchView {
            games: vec!["g1".into(), "g2".into()],
            score: MatchScore {
                white_first: Points { halves: 3 },
                black_first: Points { halves: 1 },
            },
            players: MatchPlayers {
                white_first: Player::guest("a", "Ala"),
                black_first: Player::guest("b", "Bolek"),
            },
            status: MatchStatus::Over,
            next_game_in: None,
        };
        let json = serde_json::to_value(&v).expect("json");
        assert_eq!(json["score"]["white_first"], 1.5);
        assert_eq!(json["score"]["black_first"], 0.5);
        assert_eq!(json["status"], "over");
        assert_eq!(json["players"]["black_first"]["name"], "Bolek");
        assert!(json.get("next_game_in").is_none());
        let back: MatchView = serde_json::from_value(json).expect("parse");
        assert_eq!(back, v);
        assert!(serde_json::from_str::<Points>("0.3").is_err());
        assert!(serde_json::from_str::<Points>("-1").is_err());
        assert_eq!(
            serde_json::to_string(&Points { halves: 2 }).expect("json"),
            "1.0"
        );
    }
}
