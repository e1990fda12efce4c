//! `GET /api/tables/{id}`.

use axum::Json;
use axum::extract::{Path, State};
use damka_protocol::TableView;

use crate::app::AppState;
use crate::error::{AppError, AppResult};

/// One open table.
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<TableView>> {
    state
        .core
        .rooms
        .table(&id)
        .map(Json)
        .ok_or(AppError::NotFound("table"))
}
