//! Who a request is from: the guest or account behind the `damka_session` cookie (a
//! random token stored only as its SHA-256 hash, so a leaked database does not leak
//! sessions: a guest's own token, or one of an account's sessions), and the
//! client's address (the TCP peer, or the last `X-Forwarded-For` entry behind a trusted
//! proxy). Both HTTP handlers and socket upgrades ask here; the extractors work with any
//! router state that can lend the [`Core`].

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::HeaderMap;
use axum::http::request::Parts;
use damka_protocol::Player;
use sha2::{Digest, Sha256};

use crate::config::Config;
use crate::core::Core;
use crate::error::AppError;
use crate::limits::RateKey;
use crate::random;

/// Name of the session cookie.
pub const COOKIE: &str = "damka_session";

/// A one-year cookie lifetime, in seconds.
const COOKIE_MAX_AGE: u64 = 365 * 24 * 3600;

/// The address requests without a known peer are counted under (only tests that drive
/// the router without a listener).
const UNKNOWN: IpAddr = IpAddr::V4(Ipv4Addr::UNSPECIFIED);

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
pub async fn guest_of(core: &Core, headers: &HeaderMap) -> Result<Option<Player>, AppError> {
    Ok(session_of(core, headers).await?.map(|(player, _)| player))
}

/// The player behind the request's cookie and its session (the token's hash), if the
/// session holds: a guest's own token, or an account's session that has not expired
/// (`--session-idle-days`, `--session-max-days`, checked at every use). A use of an
/// account's session is noted, so its `used_at` is written within minutes.
///
/// A guest whose name is an account's username (folded: case and look-alikes) is shown
/// with a tag of its id (`Bolek #3fa9`): it had the name before the account took it,
/// keeps playing, and is never taken for the account.
///
/// Fails only on a database error.
pub async fn session_of(
    core: &Core,
    headers: &HeaderMap,
) -> Result<Option<(Player, String)>, AppError> {
    let Some(token) = session_token(headers) else {
        return Ok(None);
    };
    let hash = token_hash(&token);
    let now = crate::time::unix_ms();
    let cutoffs = crate::session_sweep::cutoffs(&core.config, now);
    let Some(g) = core.store.player_by_token(&hash, cutoffs).await? else {
        return Ok(None);
    };
    core.limits.touch(&g.id);
    if g.used_at
        .is_some_and(|at| at < now - crate::session_sockets::TOUCH_EVERY_MS)
    {
        core.sessions.touch(&hash);
    }
    let player = if g.username.is_some() {
        Player::account(g.id, g.name)
    } else {
        let key = crate::accounts::username_key(&g.name);
        let name = match core.store.account_by_key(&key).await? {
            Some(a) if a.player_id != g.id => crate::names::tagged(&g.name, &g.id),
            _ => g.name,
        };
        Player::guest(g.id, name)
    };
    Ok(Some((player, hash)))
}

/// Extractor: the request's guest, or `401 unauthorized`.
pub struct Guest(pub Player);

impl<S: AsRef<Core> + Send + Sync> FromRequestParts<S> for Guest {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let core = state.as_ref();
        let player = guest_of(core, &parts.headers)
            .await?
            .ok_or(AppError::Unauthorized)?;
        crate::fair_play::seen(core, &player, client_ip(&core.config, parts));
        Ok(Guest(player))
    }
}

/// Extractor: the request's guest, if it has a session.
pub struct MaybeGuest(pub Option<Player>);

impl<S: AsRef<Core> + Send + Sync> FromRequestParts<S> for MaybeGuest {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let core = state.as_ref();
        let player = guest_of(core, &parts.headers).await?;
        if let Some(player) = &player {
            crate::fair_play::seen(core, player, client_ip(&core.config, parts));
        }
        Ok(MaybeGuest(player))
    }
}

/// The client's address as the per-address limits count it ([`RateKey`]: IPv6 cut to
/// `--ipv6-prefix`): the TCP peer, or with `trust_forwarded_for` the last valid
/// `X-Forwarded-For` entry (the one the trusted proxy added).
pub fn client_ip(config: &Config, parts: &Parts) -> RateKey {
    let peer = parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(UNKNOWN, |c| c.0.ip());
    let ip = if config.trust_forwarded_for {
        forwarded_for(&parts.headers).unwrap_or(peer)
    } else {
        peer
    };
    RateKey::new(ip, config.limits.ipv6_prefix)
}

/// The last address of the `X-Forwarded-For` headers, if it parses.
fn forwarded_for(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    last.to_str().ok()?.rsplit(',').next()?.trim().parse().ok()
}

/// Extractor: the client's address as a limit key ([`client_ip`]); every per-address
/// limit counts under it.
pub struct ClientIp(pub RateKey);

impl<S: AsRef<Core> + Send + Sync> FromRequestParts<S> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        Ok(ClientIp(client_ip(&state.as_ref().config, parts)))
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

    #[test]
    fn forwarded_for_takes_the_last_entry() {
        let mut h = HeaderMap::new();
        h.insert(
            "x-forwarded-for",
            "1.2.3.4, 10.0.0.9"
                .parse()
                .unwrap_or_else(|_| unreachable!()),
        );
        assert_eq!(forwarded_for(&h), "10.0.0.9".parse().ok());
        h.insert(
            "x-forwarded-for",
            "junk".parse().unwrap_or_else(|_| unreachable!()),
        );
        assert_eq!(forwarded_for(&h), None);
    }
}
