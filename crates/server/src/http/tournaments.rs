//! Tournaments: `POST /api/rooms/{room}/tournaments`, `GET /api/rooms/{room}/tournaments`,
//! `GET /api/tournaments/{id}`, `POST /api/tournaments/{id}/join|leave|start`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use damka_protocol::tournament::{CreateTournament, TournamentSummary, TournamentView};

use super::auth::Guest;
use crate::AppState;
use crate::error::{AppError, AppResult};
use crate::tournament::{self, Command};

/// Creates a tournament with the caller as its first entrant.
pub async fn create(
    State(state): State<AppState>,
    Path(room): Path<String>,
    Guest(guest): Guest,
    body: Result<Json<CreateTournament>, JsonRejection>,
) -> AppResult<(StatusCode, Json<TournamentView>)> {
    let room = state
        .rooms
        .get(&room)
        .ok_or(AppError::NotFound("room"))?
        .clone();
    let Json(req) = body.map_err(|e| AppError::InvalidOptions(e.body_text()))?;
    let view = tournament::create(&state, &room, guest, &req).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// The room's tournaments: open, running, and the last finished ones.
pub async fn list(
    State(state): State<AppState>,
    Path(room): Path<String>,
) -> AppResult<Json<Vec<TournamentSummary>>> {
    let room = state.rooms.get(&room).ok_or(AppError::NotFound("room"))?;
    Ok(Json(room.tournaments()))
}

/// One tournament (live from its actor, or read back from the store when over).
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<TournamentView>> {
    view(&state, &id).await.map(Json)
}

async fn view(state: &AppState, id: &str) -> AppResult<TournamentView> {
    let now = crate::time::unix_ms();
    if let Some(h) = state.tournaments.get(id) {
        return Ok(h.snapshot().view(now));
    }
    tournament::load(state, id)
        .await?
        .map(|t| t.view(now))
        .ok_or(AppError::NotFound("tournament"))
}

/// The live tournament `id`, for an action.
///
/// Fails with `not_found`, or `bad_message` when it is over.
async fn live(state: &AppState, id: &str) -> AppResult<tournament::TournamentHandle> {
    match state.tournaments.get(id) {
        Some(h) => Ok(h),
        None if tournament::load(state, id).await?.is_some() => {
            Err(AppError::BadMessage("the tournament is over".into()))
        }
        None => Err(AppError::NotFound("tournament")),
    }
}

/// Joins (before the start).
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Guest(guest): Guest,
) -> AppResult<Json<TournamentView>> {
    let h = live(&state, &id).await?;
    h.ask(|reply| Command::Join {
        player: guest,
        reply,
    })
    .await?;
    view(&state, &id).await.map(Json)
}

/// Leaves (before the start: the place is free; after: the rest is forfeited).
pub async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Guest(guest): Guest,
) -> AppResult<Json<TournamentView>> {
    let h = live(&state, &id).await?;
    h.ask(|reply| Command::Leave {
        player: guest,
        reply,
    })
    .await?;
    view(&state, &id).await.map(Json)
}

/// The creator starts it now.
pub async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Guest(guest): Guest,
) -> AppResult<Json<TournamentView>> {
    let h = live(&state, &id).await?;
    h.ask(|reply| Command::Start {
        player: guest,
        reply,
    })
    .await?;
    view(&state, &id).await.map(Json)
}
