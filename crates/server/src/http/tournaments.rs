//! Tournaments: `POST /api/rooms/{room}/tournaments`, `GET /api/rooms/{room}/tournaments`,
//! `GET /api/tournaments/{id}`, `POST /api/tournaments/{id}/join|leave|start`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use damka_protocol::tournament::{CreateTournament, TournamentSummary, TournamentView};

use crate::app::AppState;
use crate::cluster::tournaments::Action;
use crate::error::{AppError, AppResult};
use crate::session::ClientIp;
use crate::session::Guest;
use crate::tournament;
use damka_protocol::Player;
use damka_protocol::tournament::TournamentStatus;

/// Creates a tournament with the caller as its first entrant.
pub async fn create(
    State(state): State<AppState>,
    Path(room): Path<String>,
    ClientIp(ip): ClientIp,
    Guest(guest): Guest,
    body: Result<Json<CreateTournament>, JsonRejection>,
) -> AppResult<(StatusCode, Json<TournamentView>)> {
    let room = state.room(&room)?;
    let Json(req) = body.map_err(|e| AppError::InvalidOptions(e.body_text()))?;
    let view = tournament::create(&state.tournaments, &room, guest, ip.addr(), &req).await?;
    Ok((StatusCode::CREATED, Json(view)))
}

/// The room's tournaments: open, running, and the last finished ones.
pub async fn list(
    State(state): State<AppState>,
    Path(room): Path<String>,
) -> AppResult<Json<Vec<TournamentSummary>>> {
    let room = state.room(&room)?;
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
    tournament::load(&state.core, id)
        .await?
        .map(|t| t.view(now))
        .ok_or(AppError::NotFound("tournament"))
}

/// Does `action` for `guest` in the live tournament `id`: through its actor here, or
/// the node that runs it.
///
/// Fails with `not_found`, `bad_message` when it is over, or the actor's refusal.
async fn act(state: &AppState, id: &str, action: Action, guest: Player) -> AppResult<()> {
    if let Some(h) = state.tournaments.get(id) {
        return h.ask(|reply| action.command(guest, reply)).await;
    }
    match tournament::load(&state.core, id).await? {
        None => Err(AppError::NotFound("tournament")),
        Some(t) if t.status == TournamentStatus::Over => {
            Err(AppError::BadMessage("the tournament is over".into()))
        }
        Some(_) => match &state.cluster {
            Some(cluster) => crate::cluster::tournaments::ask(cluster, id, action, guest).await,
            None => Err(AppError::NotFound("tournament")),
        },
    }
}

/// Joins (before the start).
pub async fn join(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Guest(guest): Guest,
) -> AppResult<Json<TournamentView>> {
    act(&state, &id, Action::Join, guest).await?;
    view(&state, &id).await.map(Json)
}

/// Leaves (before the start: the place is free; after: the rest is forfeited).
pub async fn leave(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Guest(guest): Guest,
) -> AppResult<Json<TournamentView>> {
    act(&state, &id, Action::Leave, guest).await?;
    view(&state, &id).await.map(Json)
}

/// The creator starts it now.
pub async fn start(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Guest(guest): Guest,
) -> AppResult<Json<TournamentView>> {
    act(&state, &id, Action::Start, guest).await?;
    view(&state, &id).await.map(Json)
}
