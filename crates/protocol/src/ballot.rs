//! Opening ballots: `GET /api/ballots/{variant}` (fourth wave).

use serde::{Deserialize, Serialize};

/// One ballot opening of a variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BallotView {
    /// Stable id, its set's name as prefix: `3move-026`, `fmjd64-07-13`, `idf150-01-10`,
    /// `damka-015`.
    pub id: String,
    /// The opening's name (the federations' name, or its moves for ours).
    pub name: String,
    /// The moves from the start in the variant's notation (empty for a set-up position of
    /// the FMJD table, whose men are placed by hand: see `arrangement`).
    pub moves: Vec<String>,
    /// For a set-up position: the men moved by hand, as the table writes it (`a1-a5
    /// a7-h4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrangement: Option<String>,
    /// The position the game starts from.
    pub fen: String,
    /// The set's name (`3move`, `2move`, `fmjd64`, `idf150`, `damka`).
    pub set: String,
    /// Where it comes from, for people (the authority and the data's origin).
    pub source: String,
    /// A table from this ballot may be rated: its set is a federation's (the 3-move
    /// ballot, the FMJD-64 and IDF 150 tables), not Damka's own.
    #[serde(default)]
    pub rated: bool,
}

/// The `ballot` option of a new table: the opening every game starts from.
///
/// On the wire a string: `"random"` (each game draws a ballot of the variant's default
/// set with the server's randomness) or a ballot's id (every game starts from it); `null`
/// or absent for the variant's start position.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "String", into = "String")]
pub enum BallotChoice {
    /// A new ballot of the variant's default set for each game.
    Random,
    /// This ballot, by id (`fmjd64-07-13`).
    Id(String),
}

impl BallotChoice {
    /// The wire text of [`BallotChoice::Random`].
    pub const RANDOM: &'static str = "random";
}

impl From<String> for BallotChoice {
    fn from(s: String) -> BallotChoice {
        if s == BallotChoice::RANDOM {
            BallotChoice::Random
        } else {
            BallotChoice::Id(s)
        }
    }
}

impl From<BallotChoice> for String {
    fn from(c: BallotChoice) -> String {
        match c {
            BallotChoice::Random => BallotChoice::RANDOM.to_owned(),
            BallotChoice::Id(id) => id,
        }
    }
}

/// The ballot a game starts from, as a table's `state`, `game_started` and a stored game
/// show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameBallot {
    /// The ballot's id (`fmjd64-07-13`).
    pub id: String,
    /// Its name (`FMJD-64 7-XIII`), also the PDN's `Opening` tag.
    pub name: String,
    /// Its moves from the start position (empty for a set-up position: see
    /// `arrangement`).
    pub moves: Vec<String>,
    /// For a set-up position of the FMJD table: the men moved by hand (`a1-a5 a7-h4`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arrangement: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_is_a_string_on_the_wire() {
        let random: BallotChoice = serde_json::from_str(r#""random""#).expect("json");
        assert_eq!(random, BallotChoice::Random);
        let id: BallotChoice = serde_json::from_str(r#""3move-004""#).expect("json");
        assert_eq!(id, BallotChoice::Id("3move-004".into()));
        assert_eq!(serde_json::to_string(&id).expect("json"), r#""3move-004""#);
        assert_eq!(
            serde_json::to_string(&BallotChoice::Random).expect("json"),
            r#""random""#
        );
    }
}
