//! Analysis: of a finished game (`POST`/`GET /api/games/{id}/analysis`) and of any
//! position (`GET /api/analyse`).

use serde::{Deserialize, Serialize};

/// Where a game's analysis is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum JobState {
    /// Nobody asked for it.
    None,
    /// Waiting for the engine.
    Queued,
    /// The engine works on it.
    Running,
    /// Finished: the plies are there.
    Done,
}

/// How far a running analysis got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    /// Positions searched so far.
    pub searched: u32,
    /// Positions of the game (its plies and the start).
    pub positions: u32,
}

/// A job's state (`202` answer of the request, and part of the result).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnalysisStatus {
    /// `queued`, `running` or `done`; `none` for a game nobody asked to analyse.
    pub status: JobState,
    /// While queued: its place in the queue over every node (1: next).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_position: Option<u32>,
    /// While running: how far it got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
}

/// A position's value from White's side, flattened into the object that carries it:
/// `"eval": 35` (hundredths of a man, positive when White is better), or `"win":
/// "white"|"black"` instead when the engine sees a forced win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Eval {
    /// The engine sees a forced win for this side.
    Win {
        /// The winner's side.
        win: crate::Side,
    },
    /// Hundredths of a man from White's side.
    Score {
        /// The value.
        eval: i32,
    },
}

/// One ply of an analysed game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlyAnalysis {
    /// The ply, from 1 (the stored moves' numbering).
    pub ply: u32,
    /// The move played (full path, as stored).
    #[serde(rename = "move")]
    pub mv: String,
    /// The position's value after the move (`eval` or `win`).
    #[serde(flatten)]
    pub eval: Eval,
    /// The engine's move in the position before (`None` when there was none to search).
    pub best: Option<String>,
    /// The engine's line from the position before, starting with `best`.
    pub pv: Vec<String>,
    /// `null`, `"inaccuracy"`, `"mistake"` or `"blunder"`.
    pub judgement: Option<String>,
}

/// A game's analysis: `GET /api/games/{id}/analysis`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameAnalysis {
    /// `queued`, `running` or `done`; `none` for a game nobody asked to analyse.
    pub status: JobState,
    /// While queued: its place in the queue over every node (1: next).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub queue_position: Option<u32>,
    /// While running: how far it got.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub progress: Option<Progress>,
    /// Every ply once done (empty before).
    pub plies: Vec<PlyAnalysis>,
    /// Each side's accuracy in per cent, once done (see `docs/protocol.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub accuracy: Option<Accuracy>,
    /// The search budget per position, once done (`"nodes=N depth<=D"`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<String>,
}

/// Accuracy per side: 100 for a game of the engine's own moves.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Accuracy {
    /// White's.
    pub white: f64,
    /// Black's.
    pub black: f64,
}

/// A position's analysis: `GET /api/analyse`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PositionAnalysis {
    /// The engine's move (`None` when the side to move has none).
    pub best: Option<String>,
    /// The position's value from White's side (`eval` or `win`).
    #[serde(flatten)]
    pub eval: Eval,
    /// The engine's line, starting with `best`.
    pub pv: Vec<String>,
    /// Depth of the last completed iteration.
    pub depth: u32,
}

/// Body of `POST /api/analyse/pdn`: a game pasted on the analysis board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdnUpload {
    /// The PDN text (its first game is read).
    pub pdn: String,
    /// The variant to read it in when it has no `GameType` tag (International when absent).
    #[serde(default)]
    pub variant: Option<String>,
}

/// One move of a pasted game with the position after it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdnPly {
    /// 1 for the first move.
    pub ply: u32,
    /// The move in full, in the variant's notation (every landing square of a capture).
    #[serde(rename = "move")]
    pub mv: String,
    /// The position after it.
    pub fen: String,
}

/// A pasted game replayed by the server (`POST /api/analyse/pdn`), to step through on the
/// analysis board: the client knows no rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PdnReplay {
    /// Variant id (from the `GameType` tag, or the one asked for).
    pub variant: String,
    /// The `White` tag, if any.
    pub white: Option<String>,
    /// The `Black` tag, if any.
    pub black: Option<String>,
    /// The result, `None` when unfinished or unknown.
    pub result: Option<crate::GameResult>,
    /// The position before the first move.
    pub start_fen: String,
    /// The moves with the positions after them.
    pub moves: Vec<PdnPly>,
}

/// One position to learn from (`GET /api/games/{id}/mistakes`): where a player of an
/// analysed game made a mistake or a blunder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MistakePosition {
    /// The ply of the mistake (the stored moves' numbering, from 1).
    pub ply: u32,
    /// The side that made it (and is to move in `fen`).
    pub color: crate::Side,
    /// The position before the mistake.
    pub fen: String,
    /// The legal moves there.
    pub legal: Vec<String>,
    /// The move played.
    pub played: String,
    /// `"mistake"` or `"blunder"`.
    pub judgement: String,
    /// The engine's move there (the analysis's `best`).
    pub best: Option<String>,
}

/// A game's positions to learn from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MistakePositions {
    /// In the game's order, both sides'.
    pub positions: Vec<MistakePosition>,
}

/// Body of `POST /api/games/{id}/mistakes/{ply}`: a move tried instead of the mistake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MistakeTry {
    /// The move tried (a legal move of the position).
    #[serde(rename = "move")]
    pub mv: String,
}

/// The answer to a move tried instead of a mistake.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MistakeVerdict {
    /// The move keeps (nearly) all the mover's chances: it would not be judged even an
    /// inaccuracy against the engine's value of the position.
    pub ok: bool,
    /// How the move would have been judged (`null` when `ok`).
    pub judgement: Option<String>,
    /// The position after the move.
    pub fen: String,
    /// The position's value after the move (`eval` or `win`), from White's side.
    #[serde(flatten)]
    pub eval: Eval,
}
