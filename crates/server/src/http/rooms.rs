//! `GET /api/rooms`, `GET /api/rooms/{room}`, `POST /api/rooms/{room}/tables`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use damka_protocol::{CreateTable, RoomDetail, RoomView, TableView};

use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::session::ClientIp;
use crate::session::Guest;

/// Every room with counts.
pub async fn list(State(state): State<AppState>) -> Json<Vec<RoomView>> {
    Json(state.core.rooms.all().iter().map(|r| r.view()).collect())
}

/// One room with its tables.
pub async fn show(
    State(state): State<AppState>,
    Path(room): Path<String>,
) -> AppResult<Json<RoomDetail>> {
    let room = state.room(&room)?;
    Ok(Json(room.detail()))
}

/// Creates a table with the caller seated.
pub async fn create_table(
    State(state): State<AppState>,
    Path(room): Path<String>,
    Guest(guest): Guest,
    ClientIp(ip): ClientIp,
    body: Result<Json<CreateTable>, JsonRejection>,
) -> AppResult<(StatusCode, Json<TableView>)> {
    let room = state.room(&room)?;
    let Json(req) = body.map_err(|e| AppError::InvalidOptions(e.body_text()))?;
    // Seated with the rating of the room's variant (an account's; its correspondence
    // rating at a table of days per move).
    let correspondence = req.options.days.is_some();
    let guest =
        crate::ratings::shown_in(&state.core, guest, room.config.variant, correspondence).await?;
    let view = state
        .tables
        .create_from(&room, guest, &req, Some(ip.addr()))?;
    tracing::info!(table = %view.id, room = %room.config.id, "table created");
    Ok((StatusCode::CREATED, Json(view)))
}
