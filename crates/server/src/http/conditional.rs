//! `POST /api/games/{id}/conditional` (docs/protocol.md, "Conditional moves"): a player's
//! prepared replies in a running correspondence game, handed to the game's table actor.
//! The table socket's `conditional` message does the same; this is the contract's form.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use damka_protocol::ErrorCode;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::http::lookup;
use crate::session::{ClientIp, Guest};
use crate::table::Command;

/// The body, and the answer: the lines (as kept, every move written in full).
#[derive(Debug, Deserialize, Serialize)]
pub struct Lines {
    /// Each line: the opponent's move, the reply, and so on; `[]` clears them.
    pub lines: Vec<Vec<String>>,
}

/// Sets the asker's prepared replies in game `id` (they replace any before).
///
/// Fails with `401` without a session, `404 not_found` for an unknown game, `409 no_game`
/// for one that is over, `not_seated` for someone not playing it, `400 bad_message` for
/// lines the rules refuse, and `429` (`Retry-After`) past the address's budget or when
/// the game's table runs on another node of a cluster (the table socket's message
/// reaches it wherever it runs).
pub async fn set(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    Path(id): Path<String>,
    body: Result<Json<Lines>, JsonRejection>,
) -> AppResult<Json<Lines>> {
    let Json(body) = body.map_err(|e| AppError::BadMessage(e.body_text()))?;
    let store = lookup::admit(&state, ip)?;
    let game = store
        .game(&id)
        .await
        .map_err(lookup::failed)?
        .ok_or(AppError::NotFound("game"))?;
    if game.ended_at.is_some() {
        return Err(AppError::game(ErrorCode::NoGame, "that game is over"));
    }
    if game.white_id != player.id && game.black_id != player.id {
        return Err(AppError::game(
            ErrorCode::NotSeated,
            "you do not play this game",
        ));
    }
    let Some(table) = state.tables.get_or_load(&game.table_id).await else {
        // In a cluster the table may run on another node: asked again, the balancer may
        // reach it (the table socket's message always does).
        return Err(AppError::RetryAfter(1));
    };
    let (reply, answer) = oneshot::channel();
    let cmd = Command::Conditional {
        game_id: id,
        player,
        lines: body.lines,
        reply,
    };
    table
        .tx
        .send(cmd)
        .await
        .map_err(|_| AppError::game(ErrorCode::NoGame, "that game is over"))?;
    let lines = answer
        .await
        .map_err(|_| AppError::game(ErrorCode::NoGame, "that game is over"))??;
    Ok(Json(Lines { lines }))
}
