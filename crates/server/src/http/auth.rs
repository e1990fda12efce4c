//! The guest session: a random token in the `damka_session` cookie, stored only as its
//! SHA-256 hash, so a leaked database does not leak sessions.

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;
use damka_protocol::Player;
use sha2::{Digest, Sha256};

use crate::AppState;
use crate::error::AppError;
use crate::random;

/// Name of the session cookie.
pub const COOKIE: &str = "damka_session";

/// A one-year cookie lifetime, in seconds.
const COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// The hex SHA-256 of a session token.
pub fn token_hash(token: &str) -> String {
    random::hex(&Sha256::digest(token.as_bytes()))
}

/// The session token from the request's cookies, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .map(|(_, value)| value.trim().to_owned())
        .filter(|t| t.len() == 64 && t.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// The `Set-Cookie` value for a token (`Secure` when the server is told it is behind
/// HTTPS).
pub fn set_cookie(token: &str, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{COOKIE}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age={COOKIE_MAX_AGE}{secure}")
}

/// The guest behind the request's cookie, if any.
///
/// Fails only on a database error.
pub async fn guest_of(state: &AppState, headers: &HeaderMap) -> Result<Option<Player>, AppError> {
    let Some(token) = session_token(headers) else {
        return Ok(None);
    };
    let row = state.store.guest_by_token(&token_hash(&token)).await?;
    if let Some(g) = &row {
        state.limits.touch(&g.id);
    }
    Ok(row.map(|g| Player::guest(g.id, g.name)))
}

/// Extractor: the request's guest, or `401 unauthorized`.
pub struct Guest(pub Player);

impl FromRequestParts<AppState> for Guest {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        guest_of(state, &parts.headers)
            .await?
            .map(Guest)
            .ok_or(AppError::Unauthorized)
    }
}

/// Extractor: the request's guest, if it has a session.
pub struct MaybeGuest(pub Option<Player>);

impl FromRequestParts<AppState> for MaybeGuest {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        Ok(MaybeGuest(guest_of(state, &parts.headers).await?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_session_cookie_among_others() {
        let token = "a".repeat(64);
        let mut headers = HeaderMap::new();
        let value = format!("theme=dark; {COOKIE}={token}; lang=pl");
        headers.insert(axum::http::header::COOKIE, value.parse().expect("header"));
        assert_eq!(session_token(&headers), Some(token));
        headers.insert(
            axum::http::header::COOKIE,
            "damka_session=short".parse().expect("header"),
        );
        assert_eq!(session_token(&headers), None);
    }

    #[test]
    fn hash_is_sha256_hex() {
        assert_eq!(
            token_hash("abc"),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
    }
}
