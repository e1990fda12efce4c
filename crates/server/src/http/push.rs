//! Web Push for accounts: `GET /api/push/key` (the server's VAPID public key), `POST` and
//! `DELETE /api/push/subscribe` (a browser's subscription, as `PushManager.subscribe`
//! gives it), `GET` and `PUT /api/push/settings` (which kinds to be told of). Guests
//! cannot subscribe: what they would be told of (correspondence games) is for accounts.

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use damka_protocol::ErrorCode;
use damka_store::{PushSettings, PushSubscriptionRow, PushWrite};
use serde::{Deserialize, Serialize};

use crate::accounts::retry_after;
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::limits::RateKey;
use crate::session::{ClientIp, Guest};

/// Subscriptions one account keeps (its browsers); a new one past that replaces the
/// oldest.
pub const MAX_SUBSCRIPTIONS: usize = 10;

/// Subscription changes per address: a burst of 10, then one a minute.
const CHANGES_BURST: f64 = 10.0;
const CHANGES_PER_SECOND: f64 = 1.0 / 60.0;

/// `GET /api/push/key`.
#[derive(Serialize)]
pub struct Key {
    /// The server's VAPID public key (uncompressed P-256 point, base64url): the browser's
    /// `applicationServerKey`.
    key: String,
}

/// The server's public key.
pub async fn key(State(state): State<AppState>) -> Json<Key> {
    Json(Key {
        key: state.core.push.public_key().to_owned(),
    })
}

/// A subscription as the browser gives it (`PushSubscription.toJSON()`).
#[derive(Deserialize)]
pub struct Subscription {
    endpoint: String,
    #[serde(default)]
    keys: Option<SubscriptionKeys>,
}

/// Its keys.
#[derive(Deserialize)]
pub struct SubscriptionKeys {
    p256dh: String,
    auth: String,
}

fn body<T>(json: Result<Json<T>, JsonRejection>) -> AppResult<T> {
    json.map(|Json(v)| v)
        .map_err(|e| AppError::BadMessage(e.body_text()))
}

/// Takes one of the address's subscription and settings changes.
///
/// Fails with `429` (and `Retry-After`) past the address's limit.
fn take_change(state: &AppState, ip: RateKey) -> AppResult<()> {
    state
        .core
        .limits
        .push_changes
        .take_or_wait(ip, CHANGES_BURST, CHANGES_PER_SECOND)
        .map_err(retry_after)
}

fn account_only(player: &damka_protocol::Player) -> AppResult<()> {
    if player.account {
        Ok(())
    } else {
        Err(AppError::game(
            ErrorCode::Forbidden,
            "notifications are for accounts (sign up: it keeps your games)",
        ))
    }
}

/// A browser subscribes (`204`): only to a known push service, with a P-256 key and a
/// 16-byte secret; an account keeps its last [`MAX_SUBSCRIPTIONS`].
///
/// Fails with `403 forbidden` for a guest, `400 bad_message` for a subscription the
/// server would not send to, `429` past the address's limit.
pub async fn subscribe(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    json: Result<Json<Subscription>, JsonRejection>,
) -> AppResult<StatusCode> {
    account_only(&player)?;
    let sub = body(json)?;
    let keys = sub
        .keys
        .ok_or_else(|| AppError::BadMessage("a subscription needs its keys".into()))?;
    if !state.core.push.endpoint_allowed(&sub.endpoint) {
        return Err(AppError::BadMessage(
            "not a push service this server sends to".into(),
        ));
    }
    let p256dh = URL_SAFE_NO_PAD
        .decode(keys.p256dh.trim_end_matches('='))
        .ok()
        .filter(|k| p256::PublicKey::from_sec1_bytes(k).is_ok() && k.len() == 65);
    let auth = URL_SAFE_NO_PAD
        .decode(keys.auth.trim_end_matches('='))
        .ok()
        .filter(|a| a.len() == 16);
    if p256dh.is_none() || auth.is_none() {
        return Err(AppError::BadMessage(
            "keys.p256dh must be a P-256 public key and keys.auth 16 bytes (base64url)".into(),
        ));
    }
    take_change(&state, ip)?;
    let store = &state.core.store;
    let mut existing = store.push_subscriptions(&player.id).await?;
    existing.retain(|s| s.endpoint != sub.endpoint);
    // Oldest first: past the limit the oldest go.
    for old in existing
        .iter()
        .take((existing.len() + 1).saturating_sub(MAX_SUBSCRIPTIONS))
    {
        store
            .push_write(PushWrite::Unsubscribe {
                endpoint: old.endpoint.clone(),
                player_id: Some(player.id.clone()),
            })
            .await?;
    }
    store
        .push_write(PushWrite::Subscribe {
            row: PushSubscriptionRow {
                endpoint: sub.endpoint,
                player_id: player.id.clone(),
                p256dh: keys.p256dh,
                auth: keys.auth,
            },
            now: crate::time::unix_ms(),
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /api/push/subscribe` body.
#[derive(Deserialize)]
pub struct Unsubscription {
    endpoint: String,
}

/// A browser unsubscribes (`204`, also when it was not subscribed).
pub async fn unsubscribe(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    json: Result<Json<Unsubscription>, JsonRejection>,
) -> AppResult<StatusCode> {
    let sub = body(json)?;
    take_change(&state, ip)?;
    state
        .core
        .store
        .push_write(PushWrite::Unsubscribe {
            endpoint: sub.endpoint,
            player_id: Some(player.id),
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Which notifications an account wants (`GET` and `PUT /api/push/settings`).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct Settings {
    /// It is your move (in a correspondence game, while you are not watching it).
    pub your_turn: bool,
    /// A draw offer or a takeback request.
    pub offers: bool,
    /// A game ended.
    pub game_end: bool,
    /// Your time is running low.
    pub time_low: bool,
}

impl From<PushSettings> for Settings {
    fn from(s: PushSettings) -> Settings {
        Settings {
            your_turn: s.your_turn,
            offers: s.offers,
            game_end: s.game_end,
            time_low: s.time_low,
        }
    }
}

/// An account's settings.
pub async fn settings(
    State(state): State<AppState>,
    Guest(player): Guest,
) -> AppResult<Json<Settings>> {
    account_only(&player)?;
    Ok(Json(
        state.core.store.push_settings(&player.id).await?.into(),
    ))
}

/// Changes an account's settings (`204`).
pub async fn set_settings(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    json: Result<Json<Settings>, JsonRejection>,
) -> AppResult<StatusCode> {
    account_only(&player)?;
    let s = body(json)?;
    take_change(&state, ip)?;
    state
        .core
        .store
        .push_write(PushWrite::Settings {
            player_id: player.id,
            settings: PushSettings {
                your_turn: s.your_turn,
                offers: s.offers,
                game_end: s.game_end,
                time_low: s.time_low,
            },
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
