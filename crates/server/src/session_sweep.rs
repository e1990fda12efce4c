//! Sessions over time: every `--session-check-secs` the sessions of the open sockets are
//! checked against the database (a session ended by the operator's `damka account`
//! command, on another node of a cluster, or expired, closes its sockets with
//! [`damka_protocol::close::SIGNED_OUT`]) and the sessions used lately get their
//! `used_at` written; every `--session-sweep-secs` the expired sessions are deleted.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use damka_store::{AccountWrite, Secret, SessionCutoffs, StoreError};

use crate::config::Config;
use crate::core::Core;
use crate::session_sockets::TOUCH_EVERY_MS;

const DAY_MS: i64 = 24 * 3600 * 1000;

/// The cutoffs of `--session-idle-days` and `--session-max-days` as of `now`.
pub fn cutoffs(config: &Config, now: i64) -> SessionCutoffs {
    let before = |days: u32| match days {
        0 => i64::MIN,
        d => now.saturating_sub(i64::from(d) * DAY_MS),
    };
    SessionCutoffs {
        used_after: before(config.sessions.session_idle_days),
        created_after: before(config.sessions.session_max_days),
    }
}

/// What one check did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Check {
    /// Sockets closed because their session had ended.
    pub closed: usize,
    /// Sessions whose `used_at` was written.
    pub touched: usize,
}

/// Checks the sessions of the open sockets: the ended ones close their sockets; the
/// live ones (in use: a socket is open) and those used by requests lately get their
/// `used_at` written.
///
/// Fails on a database error (the next check tries again).
pub async fn check_sessions(core: &Core) -> Result<Check, StoreError> {
    let now = crate::time::unix_ms();
    let cut = cutoffs(&core.config, now);
    let checked = core.sessions.sessions();
    let live = core.store.live_sessions(&checked, cut).await?;
    let alive: HashSet<&str> = live.iter().map(|s| s.token_hash.as_str()).collect();
    let closed = core.sessions.end_unless_live(&checked, &alive);
    if closed > 0 {
        tracing::info!(closed, "sockets of ended sessions closed");
    }
    let mut touch: HashSet<String> = core.sessions.take_touched().into_iter().collect();
    touch.extend(
        live.iter()
            .filter(|s| s.used_at.is_some_and(|at| at < now - TOUCH_EVERY_MS))
            .map(|s| s.token_hash.clone()),
    );
    let touched = touch.len();
    if touched > 0 {
        let write = AccountWrite::TouchSessions {
            token_hashes: touch.into_iter().map(Secret).collect(),
            now,
        };
        core.store.account_write(write).await?;
    }
    Ok(Check { closed, touched })
}

/// Deletes the expired sessions (their cookies already resolve to nobody).
///
/// Fails on a database error.
pub async fn expire_sessions(core: &Core) -> Result<(), StoreError> {
    let cut = cutoffs(&core.config, crate::time::unix_ms());
    if cut == SessionCutoffs::NONE {
        return Ok(());
    }
    core.store
        .account_write(AccountWrite::ExpireSessions {
            used_before: cut.used_after,
            created_before: cut.created_after,
        })
        .await
}

/// Checks every `--session-check-secs` and expires every `--session-sweep-secs` until
/// shutdown.
pub async fn session_sweeper(core: Arc<Core>) {
    let check = Duration::from_secs(core.config.sessions.session_check_secs.max(1));
    let sweep = Duration::from_secs(core.config.sessions.session_sweep_secs.max(1));
    let start = tokio::time::Instant::now();
    let mut checks = tokio::time::interval_at(start + check, check);
    let mut sweeps = tokio::time::interval(sweep);
    loop {
        tokio::select! {
            () = core.shutdown.cancelled() => break,
            _ = checks.tick() => {
                match check_sessions(&core).await {
                    Ok(_) => {}
                    // Said once by the store's breaker; not again every few seconds.
                    Err(e) if e.is_outage() => tracing::debug!(error = %e, "session check failed"),
                    Err(e) => tracing::warn!(error = %e, "session check failed"),
                }
            }
            _ = sweeps.tick() => {
                if let Err(e) = expire_sessions(&core).await {
                    tracing::warn!(error = %e, "session sweep failed");
                }
            }
        }
    }
}
