//! `POST /api/guest` (create, or return and rename) and `GET /api/me`.

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use damka_protocol::{GuestRequest, Player};

use super::auth::{Guest, guest_of, set_cookie, token_hash};
use crate::AppState;
use crate::error::{AppError, AppResult};
use crate::limits::ClientIp;
use crate::{random, time};

/// Renames a guest may make in a row.
pub const RENAME_BURST: f64 = 3.0;

/// Renames per second a guest may make after a burst (one every 20 s).
pub const RENAME_PER_SECOND: f64 = 0.05;

/// Whether a display name follows the rules: 2–24 characters of letters, digits, space,
/// `-` or `_`, not blank.
pub fn valid_name(name: &str) -> bool {
    let n = name.chars().count();
    (2..=24).contains(&n)
        && name.trim() == name
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == ' ' || c == '-' || c == '_')
}

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
                    .filter(|n| valid_name(n))
                    .ok_or(AppError::InvalidName)?,
            ),
            None => None,
        },
    };
    let now = time::unix_ms();
    if let Some(mut guest) = guest_of(&state, &headers).await? {
        if let Some(name) = req.name {
            // A rename is a database write: a few in a row, then one every 20 s per
            // guest, and one a second per address for all its guests.
            let limits = &state.limits;
            if !limits
                .renames
                .take(guest.id.clone(), RENAME_BURST, RENAME_PER_SECOND)
                || !limits
                    .renames_from
                    .take(ip, RENAME_BURST * 3.0, RENAME_PER_SECOND * 20.0)
            {
                return Err(AppError::RateLimited);
            }
            state.store.rename_guest(&guest.id, &name, now).await?;
            guest.name = name;
        }
        return Ok(Json(guest).into_response());
    }
    if !state.limits.take_guest(ip, state.config.guests_per_minute) {
        tracing::info!(%ip, "guest creation refused: too many from one address");
        return Err(AppError::TooManyGuests);
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
        .store
        .create_guest(&guest.id, &guest.name, &token_hash(&token), now)
        .await?;
    tracing::info!(guest = %guest.id, "new guest");
    Ok((
        StatusCode::OK,
        [(SET_COOKIE, set_cookie(&token, state.config.secure_cookie))],
        Json(guest),
    )
        .into_response())
}

/// The session's guest.
pub async fn me(Guest(guest): Guest) -> Json<Player> {
    Json(guest)
}

#[cfg(test)]
mod tests {
    use super::valid_name;

    #[test]
    fn names() {
        assert!(valid_name("Gość 4821"));
        assert!(valid_name("Ala_ma-kota"));
        assert!(!valid_name("A"));
        assert!(!valid_name(" Ala"));
        assert!(!valid_name("<script>"));
        assert!(!valid_name(&"x".repeat(25)));
    }
}
