//! The server's periodic clean-ups, each a task that runs until shutdown: when guests
//! were last seen is written and idle guests are deleted ([`guest_sweeper`]); the
//! rate-limit maps forget whoever has been quiet ([`limits_pruner`]); chat beyond the
//! history and age kept is deleted ([`chat_sweeper`]).

use std::sync::Arc;
use std::time::Duration;

use crate::core::Core;

/// What one sweep did.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Sweep {
    /// Guests whose `seen` time was written.
    pub seen: u64,
    /// Guests deleted.
    pub expired: u64,
}

/// Guests of the sweep's read pages (each checked idle or not through the indexes).
const PAGE: i64 = 500;

/// The least pause after each of the sweep's writes (see [`pace`]).
const PAUSE: Duration = Duration::from_millis(20);

/// Waits after a write of the sweep that took `took`: four times as long (at least
/// [`PAUSE`]), so the sweep has the writer (and the disk) a fifth of the time at most,
/// however many guests go: a sweep of 600,000 idle guests at once without pauses made
/// the commits of moves wait behind the disk's syncs of its deletions and checkpoints
/// (p99 of the acknowledgement 260 ms against 15 ms), with pauses as long as the writes
/// still 280 ms (docs/performance.md).
async fn pace(took: Duration) {
    tokio::time::sleep((took * 4).max(PAUSE)).await;
}

/// Writes the `seen` times of the guests seen since the last sweep, then deletes the
/// guests not seen for `guest_expiry_days` who never played a game and hold no seat.
///
/// Every change goes through the store's writer in small batches (a few hundred seen
/// times, a hundred deletions a write), each awaited and followed by a pause four times
/// as long as it took, so moves committed meanwhile wait for one short statement at most
/// and the sweep has the writer a fifth of the time at most; the idle guests are found a page at a time in
/// (seen_at, id) order, so one sweep reads each unseen guest once.
///
/// Fails on a database error (the next sweep tries again).
pub async fn sweep_guests(core: &Core) -> Result<Sweep, damka_store::StoreError> {
    let started = std::time::Instant::now();
    let now = crate::time::unix_ms();
    let touched = core.limits.take_touched();
    let mut seen = 0;
    for batch in touched.chunks(damka_store::SEEN_BATCH) {
        let began = std::time::Instant::now();
        seen += core.store.mark_guests_seen(batch, now).await?;
        pace(began.elapsed()).await;
    }
    let days = core.config.sessions.guest_expiry_days;
    let mut sweep = Sweep { seen, expired: 0 };
    core.limits
        .prune_guest_buckets(core.config.limits.guests_per_minute);
    if days == 0 {
        return Ok(sweep);
    }
    let age_ms = i64::try_from(days.saturating_mul(24 * 3600 * 1000)).unwrap_or(i64::MAX);
    let cutoff = now.saturating_sub(age_ms);
    let mut after = None;
    loop {
        if core.shutdown.is_cancelled() {
            break;
        }
        let page = core
            .store
            .unseen_guests(cutoff, after.as_ref(), PAGE)
            .await?;
        let full = page.len() as i64 == PAGE;
        // Seated now or seen since the sweep began: not idle after all.
        let seated = core.rooms.seated_guests();
        let idle: Vec<String> = page
            .iter()
            .filter(|g| g.idle && !seated.contains(&g.id) && !core.limits.touched_contains(&g.id))
            .map(|g| g.id.clone())
            .collect();
        for batch in idle.chunks(damka_store::EXPIRE_BATCH) {
            let began = std::time::Instant::now();
            sweep.expired += core.store.expire_guests(batch, cutoff).await?;
            pace(began.elapsed()).await;
        }
        after = page.into_iter().last();
        if !full {
            break;
        }
    }
    if sweep.expired > 0 {
        tracing::info!(
            expired = sweep.expired,
            ms = started.elapsed().as_millis() as u64,
            "expired idle guests"
        );
    }
    Ok(sweep)
}

/// How often the rate-limit maps forget the buckets that have refilled.
pub const PRUNE_EVERY: Duration = Duration::from_secs(60);

/// Prunes the per-address and per-person rate-limit maps (here and in every room)
/// every [`PRUNE_EVERY`] until shutdown, so they hold only who was active lately.
pub async fn limits_pruner(core: Arc<Core>) {
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + PRUNE_EVERY, PRUNE_EVERY);
    loop {
        tokio::select! {
            () = core.shutdown.cancelled() => break,
            _ = tick.tick() => {
                core.limits.prune(core.config.limits.guests_per_minute);
                for room in core.rooms.all() {
                    room.prune_limits();
                }
            }
        }
    }
}

/// Sweeps every `guest_sweep_secs` until shutdown.
pub async fn guest_sweeper(core: Arc<Core>) {
    let period = Duration::from_secs(core.config.sessions.guest_sweep_secs.max(1));
    let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    loop {
        tokio::select! {
            () = core.shutdown.cancelled() => break,
            _ = tick.tick() => {
                if let Err(e) = sweep_guests(&core).await {
                    tracing::warn!(error = %e, "guest sweep failed");
                }
            }
        }
    }
}

/// Deletes the chat beyond what is kept (`--chat-history` per room and table, none older
/// than `--chat-max-age-days`) every `--chat-sweep-secs` until shutdown: one address can
/// no longer fill the disk, and nobody's words are kept longer than the operator says.
pub async fn chat_sweeper(core: Arc<Core>) {
    let period = Duration::from_secs(core.config.chat.chat_sweep_secs.max(1));
    let mut tick = tokio::time::interval(period);
    loop {
        tokio::select! {
            () = core.shutdown.cancelled() => break,
            _ = tick.tick() => {
                let age_ms = i64::from(core.config.chat.chat_max_age_days) * 24 * 3600 * 1000;
                let before = crate::time::unix_ms().saturating_sub(age_ms);
                let keep = i64::from(core.config.chat.chat_history);
                if let Err(e) = core.store.prune_chat(keep, before).await {
                    tracing::warn!(error = %e, "chat sweep failed");
                }
            }
        }
    }
}
