//! `GET /api/featured`: the featured game of each variant (docs/protocol.md, "Featured
//! games"; chosen in [`crate::featured`]). One answer serves everybody for two seconds,
//! so a flood of requests costs the database nothing more.

use axum::Json;
use axum::extract::State;

use crate::app::AppState;
use crate::error::AppResult;
use crate::featured::FeaturedGame;

/// The list, in the variants' order.
///
/// Fails with `503` when the store cannot be read and there is no answer to give.
pub async fn list(State(state): State<AppState>) -> AppResult<Json<Vec<FeaturedGame>>> {
    let games = state.featured.list(&state.core).await?;
    Ok(Json(games.as_ref().clone()))
}
