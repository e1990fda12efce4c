//! What every public lookup shares (profiles, a player's games and PDN, leaderboards, a
//! room's games, replays): a token of the address's budget (`--lookups-per-minute`), and
//! the store's lookups' pool ([`damka_store::Store::lookups`]), whose few connections are
//! apart from the game path's; when they stay taken the lookup is answered `429` with
//! `Retry-After: 1` at once rather than queued behind the others.

use damka_store::{GameCursor, Store, StoreError};

use crate::accounts::retry_after;
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::limits::RateKey;

/// Takes a token of `ip`'s lookups budget and returns the store to read with.
///
/// Fails with `429 rate_limited` (and `Retry-After`) when the budget is spent.
pub fn admit(state: &AppState, ip: RateKey) -> AppResult<Store> {
    let per_minute = state.core.config.limits.lookups_per_minute;
    state
        .core
        .limits
        .lookups_from
        .take_or_wait(ip, (per_minute / 4.0).max(1.0), per_minute / 60.0)
        .map_err(|wait| {
            tracing::info!(%ip, "lookups refused: rate");
            retry_after(wait)
        })?;
    Ok(state.core.store.lookups())
}

/// A lookup's error: the lookups' connections all taken is `429` with `Retry-After: 1`;
/// any other as ever.
pub fn failed(e: StoreError) -> AppError {
    if e.is_busy() {
        AppError::RetryAfter(1)
    } else {
        AppError::Database(e)
    }
}

/// Where a list continues: after the finished game `before` (a page's last), if given.
///
/// Fails with `bad_message` for an id of no finished game, or a database error.
pub async fn cursor(store: &Store, before: Option<&str>) -> AppResult<Option<GameCursor>> {
    let Some(id) = before else {
        return Ok(None);
    };
    if id.is_empty() || id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        return Err(AppError::BadMessage("before: not a game id".into()));
    }
    store
        .game_cursor(id)
        .await
        .map_err(failed)?
        .map(Some)
        .ok_or_else(|| AppError::BadMessage("before: no such finished game".into()))
}

/// A page size from a query: 1 to 100, `default` when not given.
///
/// Fails with `bad_message` outside 1 to 100.
pub fn page_size(limit: Option<i64>, default: i64) -> AppResult<i64> {
    let limit = limit.unwrap_or(default);
    if !(1..=100).contains(&limit) {
        return Err(AppError::BadMessage("limit must be 1 to 100".into()));
    }
    Ok(limit)
}
