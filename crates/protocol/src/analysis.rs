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
