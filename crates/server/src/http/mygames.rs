//! `GET /api/me/games`: the asker's games in progress, those where it is their move first
//! (docs/protocol.md, "My games"). A lookup like the others (the address's budget, the
//! lookups' pool), read from the player-column indexes.

use axum::Json;
use axum::extract::State;
use damka_store::RunningGame;
use serde::Serialize;

use crate::app::AppState;
use crate::error::AppResult;
use crate::http::lookup::{self, failed};
use crate::session::{ClientIp, MaybeGuest};

/// Games listed at most (as White and as Black, each).
pub const MAX_GAMES: i64 = 100;

/// The list.
#[derive(Debug, Serialize)]
pub struct MyGames {
    /// Games in progress: the asker's move first, then the oldest first.
    pub games: Vec<MyGame>,
}

/// One game in progress, as the asker sees it.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct MyGame {
    /// Game id.
    pub id: String,
    /// The table it is played at (open `/#/table/{table}`).
    pub table: String,
    /// Variant id.
    pub variant: String,
    /// The colour the asker plays.
    pub color: &'static str,
    /// Whether it is the asker's move.
    pub my_move: bool,
    /// The opponent's id and name.
    pub opponent: Opponent,
    /// Plies played (the opening's included).
    pub plies: i64,
    /// Minutes per player and increment, seconds.
    pub minutes: i64,
    /// Increment, seconds.
    pub increment: i64,
    /// A correspondence game's days per move (`minutes` and `increment` are 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<i64>,
    /// A correspondence game's: when the side to move runs out of time (Unix ms), as of
    /// the game's last clock save.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<i64>,
    /// Whether the game is rated.
    pub rated: bool,
    /// Started at, Unix ms.
    pub started_at: i64,
}

/// The other player.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct Opponent {
    /// Player id.
    pub id: String,
    /// Name.
    pub name: String,
}

/// Whether White is to move in `fen` (the engine's `W:…` / `B:…`).
fn white_to_move(fen: &str) -> bool {
    !fen.trim_start().starts_with('B')
}

/// A game as `me` sees it.
fn seen_by(me: &str, r: &RunningGame) -> MyGame {
    let g = &r.game;
    let white = g.white_id == me;
    let fen = r.last_fen.as_deref().unwrap_or(&g.initial_fen);
    let (id, name) = if white {
        (&g.black_id, &g.black_name)
    } else {
        (&g.white_id, &g.white_name)
    };
    MyGame {
        id: g.id.clone(),
        table: g.table_id.clone(),
        variant: g.variant.clone(),
        color: if white { "white" } else { "black" },
        my_move: white_to_move(fen) == white,
        opponent: Opponent {
            id: id.clone(),
            name: name.clone(),
        },
        plies: r.plies,
        minutes: g.minutes,
        increment: g.increment_s,
        days: g.days,
        deadline: r.deadline.filter(|_| g.days.is_some()),
        rated: g.rated,
        started_at: g.started_at,
    }
}

/// `GET /api/me/games`. Without a session (or with one that has just ended: a start page
/// refreshing its list while the account is signed out elsewhere) the list is empty, not
/// `401`: nobody's games are in it.
///
/// Fails with `429` past the address's lookups budget or while the lookups' connections
/// are all taken.
pub async fn my_games(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    MaybeGuest(player): MaybeGuest,
) -> AppResult<Json<MyGames>> {
    let Some(player) = player else {
        return Ok(Json(MyGames { games: Vec::new() }));
    };
    let store = lookup::admit(&state, ip)?;
    let running = store
        .running_games_of_player(&player.id, MAX_GAMES)
        .await
        .map_err(failed)?;
    let mut games: Vec<MyGame> = running.iter().map(|r| seen_by(&player.id, r)).collect();
    // Stable: within each group, the oldest game first.
    games.sort_by_key(|g| !g.my_move);
    Ok(Json(MyGames { games }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_to_move_is_the_fens_first_letter() {
        assert!(white_to_move("W:W21,22:B1,2"));
        assert!(!white_to_move("B:W21,22:B1,2"));
    }
}
