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
}
