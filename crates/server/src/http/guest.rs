//! `POST /api/guest` (create, or return and rename); `GET /api/me` is in
//! [`super::account`].

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use damka_protocol::{GuestRequest, Player};

use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::session::ClientIp;
use crate::session::{guest_of, set_cookie, token_hash};
use crate::{random, time};

/// Renames a guest may make in a row.
pub const RENAME_BURST: f64 = 3.0;

/// Renames per second a guest may make after a burst (one every 20 s).
pub const RENAME_PER_SECOND: f64 = 0.05;

/// Creates a guest with a session cookie, or returns (and renames) the cookie's guest.
pub async fn create(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    body: Bytes,
) -> AppResult<Response> {
    let req: GuestRequest = if body.iter().all(u8::is_ascii_whitespace) {
        GuestRequest::default()
    } else {
        serde_json::from_slice(&body).map_err(|e| AppError::BadMessage(e.to_string()))?
    };
    // Normalised (NFKC, invisible characters out); a word mixing scripts is refused.
    let req = GuestRequest {
        name: match req.name.as_deref() {
            Some(name) => Some(
                crate::names::normalise(name)
                    .filter(|n| crate::names::valid_name(n))
                    .ok_or(AppError::InvalidName)?,
            ),
            None => None,
        },
    };
    let now = time::unix_ms();
    if let Some(mut guest) = guest_of(&state.core, &headers).await? {
        if let Some(name) = req.name {
            if guest.account {
                // An account's name is its username.
                return Err(AppError::InvalidName);
            }
            // A rename is a database write: a few in a row, then one every 20 s per
            // guest, and one a second per address for all its guests.
            let limits = &state.core.limits;
            if !limits
                .renames
                .take(guest.id.clone(), RENAME_BURST, RENAME_PER_SECOND)
                || !limits
                    .renames_from
                    .take(ip, RENAME_BURST * 3.0, RENAME_PER_SECOND * 20.0)
            {
                return Err(AppError::RateLimited);
            }
            crate::accounts::guest_name_free(&state.core.store, &name).await?;
            state.core.store.rename_guest(&guest.id, &name, now).await?;
            guest.name = name;
        }
        return Ok(Json(guest).into_response());
    }
    if !state
        .core
        .limits
        .take_guest(ip, state.core.config.limits.guests_per_minute)
    {
        tracing::info!(%ip, "guest creation refused: too many from one address");
        return Err(AppError::TooManyGuests);
    }
    if let Some(name) = &req.name {
        crate::accounts::guest_name_free(&state.core.store, name).await?;
    }
    let token = random::session_token();
    let guest = Player::guest(
        uuid::Uuid::new_v4().simple().to_string(),
        req.name.unwrap_or_else(|| {
            let lang = headers
                .get(axum::http::header::ACCEPT_LANGUAGE)
                .and_then(|v| v.to_str().ok());
            if random::prefers_english(lang) {
                random::guest_name_en()
            } else {
                random::guest_name()
            }
        }),
    );
    state
        .core
        .store
        .create_guest(&guest.id, &guest.name, &token_hash(&token), now)
        .await?;
    tracing::info!(guest = %guest.id, "new guest");
    Ok((
        StatusCode::OK,
        [(
            SET_COOKIE,
            set_cookie(&token, state.core.config.secure_cookie),
        )],
        Json(guest),
    )
        .into_response())
}
