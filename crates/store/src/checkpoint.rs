//! WAL checkpoints for SQLite, beside the writer instead of inside its commits.
//!
//! In WAL mode every commit appends the pages it changed to the log; a checkpoint copies
//! them back into the database file (and syncs it), and once everything is copied the
//! next commit starts the log over. SQLite's automatic checkpoint runs inside the commit
//! that crosses 1,000 pages, so every few hundred milliseconds of a busy server one
//! batch of moves (and every move queued behind it) waited for a whole checkpoint.
//!
//! Here the writer's connection never checkpoints (`wal_autocheckpoint = 0`), and this
//! task, on a connection of its own, checkpoints every [`EVERY`] while there are commits:
//!
//! 1. passive checkpoints while the writer goes on committing: the first copies what the
//!    log holds, each next one what was committed during the one before, fewer pages each
//!    time, until one is short;
//! 2. the log starts over only when a commit begins with every page of it copied, which
//!    under steady commits never happens by itself; so once the log has grown past
//!    [`LOG_LIMIT`], one more passive checkpoint with the writer held at its gate (after
//!    the transaction under way): it copies only the last few pages, and the writer's
//!    next commit starts the log over.
//!
//! So commits never wait for a checkpoint, and once every few seconds of a busy server
//! for one short step of one.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::{RwLock, watch};

use super::stats::StoreStats;

/// How often the log is checkpointed while the writer commits.
const EVERY: Duration = Duration::from_millis(250);

/// A checkpoint step this short copied little, so what was committed meanwhile is little:
/// the next step may hold the writer.
const SHORT: Duration = Duration::from_millis(2);

/// Most steps without holding the writer before one that does.
const UNHELD_STEPS: usize = 4;

/// Pages the log may hold before a checkpoint holds the writer to start it over (64 MiB
/// of 4 KiB pages: a few seconds of a busy server). Below it the log just grows: a held
/// step costs the moves that wait for it, and a log of this size costs nothing.
pub(super) const LOG_LIMIT: i64 = 16 * 1024;

/// Runs until `alive`'s sender (held by the writer) is dropped, then makes a last
/// checkpoint. `log_limit` is [`LOG_LIMIT`] but in tests.
pub(super) async fn run(
    options: SqliteConnectOptions,
    gate: Arc<RwLock<()>>,
    commits: Arc<AtomicU64>,
    stats: Arc<StoreStats>,
    log_limit: i64,
    mut alive: watch::Receiver<()>,
) {
    let mut conn: Option<SqliteConnection> = None;
    let mut seen = 0;
    let mut tick = tokio::time::interval(EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        let last = tokio::select! {
            _ = tick.tick() => false,
            changed = alive.changed() => changed.is_err(),
        };
        let now = commits.load(Ordering::Relaxed);
        if now != seen || last {
            seen = now;
            let began = Instant::now();
            if let Err(e) = checkpoint(&mut conn, &options, &gate, &stats, log_limit).await {
                tracing::warn!(error = %e, "WAL checkpoint failed");
            }
            stats.checkpoint.observe_duration(began.elapsed());
        }
        if last {
            break;
        }
    }
    if let Some(conn) = conn
        && let Err(e) = conn.close().await
    {
        tracing::debug!(error = %e, "closing the checkpointer's connection");
    }
}

/// Copies the log into the database: passive checkpoints while the writer goes on, each
/// copying what was committed during the one before, until one is short (or after
/// [`UNHELD_STEPS`]); then, once the log has passed [`LOG_LIMIT`], one more with the
/// writer held, which copies what is left so that the next commit starts the log over.
///
/// Fails when a checkpoint fails.
async fn checkpoint(
    conn: &mut Option<SqliteConnection>,
    options: &SqliteConnectOptions,
    gate: &RwLock<()>,
    stats: &StoreStats,
    log_limit: i64,
) -> Result<(), sqlx::Error> {
    let mut log = 0;
    for _ in 0..UNHELD_STEPS {
        let began = Instant::now();
        log = log.max(passive(conn, options).await?);
        if began.elapsed() < SHORT {
            break;
        }
    }
    // Whether anything was committed meanwhile cannot be told from here (a transaction
    // under way when a step began commits pages it did not copy): the log starts over
    // only after a step with the writer held.
    if log < log_limit {
        // Let the log grow a while longer rather than hold the writer now.
        return Ok(());
    }
    let asked = Instant::now();
    let held = gate.write().await;
    let result = passive(conn, options).await;
    drop(held);
    stats.held.observe_duration(asked.elapsed());
    result.map(|_| ())
}

/// One passive checkpoint: it never waits for a lock nor blocks the writer, and copies
/// the log as it was when it began. A failure closes the connection; the next checkpoint
/// opens a fresh one.
///
/// Fails when the database cannot be opened or the checkpoint fails.
async fn passive(
    conn: &mut Option<SqliteConnection>,
    options: &SqliteConnectOptions,
) -> Result<i64, sqlx::Error> {
    let c = match conn {
        Some(c) => c,
        None => conn.insert(open(options).await?),
    };
    // Answers (busy, pages in the log, pages copied) as of its start.
    let result = sqlx::query_as::<_, (i64, i64, i64)>("PRAGMA wal_checkpoint(PASSIVE)")
        .fetch_one(&mut *c)
        .await;
    match result {
        Ok((busy, log, copied)) => {
            tracing::debug!(busy, log, copied, "WAL checkpoint");
            Ok(log)
        }
        Err(e) => {
            if let Some(c) = conn.take() {
                let _ = c.close().await;
            }
            Err(e)
        }
    }
}

/// Opens a connection that does no automatic checkpoints.
///
/// Fails when the database cannot be opened.
pub(super) async fn open(options: &SqliteConnectOptions) -> Result<SqliteConnection, sqlx::Error> {
    let mut conn = options.connect().await?;
    sqlx::query("PRAGMA wal_autocheckpoint = 0")
        .execute(&mut conn)
        .await?;
    Ok(conn)
}
