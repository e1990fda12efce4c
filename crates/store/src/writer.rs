//! Group commit for SQLite: one task makes every write of the server (moves, game starts
//! and ends, guests), many per transaction, on a connection of its own.
//!
//! With `synchronous = FULL` every SQLite commit waits for the disk, and a commit per move
//! caps a busy server at the disk's flush rate. Here each table still awaits its own move's
//! commit before acknowledging it, but the moves that arrive while one batch is being
//! committed all go into the next batch: one flush for many moves. A batch is few
//! statements ([`super::batch`]: its move rows in one `INSERT`), because each statement
//! is a round trip to sqlx's thread for the connection. Being the only writer it never
//! waits for SQLite's write lock either. Its connection does no WAL checkpoints: they
//! run beside it ([`super::checkpoint`]), so a commit never waits for one.
//!
//! A failed transaction closes the connection: SQLite may already have rolled it back by
//! itself (a full disk, `SQLITE_FULL`), and a connection in that state would refuse every
//! later `BEGIN`. The next batch opens a fresh one, so writes recover by themselves once
//! the cause is gone.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use sqlx::Connection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection};
use tokio::sync::{RwLock, mpsc, watch};

use super::batch::{apply_sqlite_batch, commit_moves_sqlite};
use super::checkpoint::{self, open};
use super::queue::{Job, MAX_BATCH, WriteQueue, Written};
use super::ratings::Hooks;
use super::stats::StoreStats;
use super::write::Write;

/// Starts the writer task (and its checkpointer) on the database of `options`; they end
/// when every handle is dropped. `max_pages` and `wal_limit` are the test hooks of
/// [`super::StoreOptions`].
pub(crate) fn spawn(
    options: SqliteConnectOptions,
    max_pages: Option<Arc<AtomicU64>>,
    wal_limit: Option<i64>,
    hooks: Hooks,
) -> WriteQueue {
    let (queue, rx) = WriteQueue::new();
    let stats = queue.stats().clone();
    let gate = Arc::new(RwLock::new(()));
    let commits = Arc::new(AtomicU64::new(0));
    let (alive, watch_alive) = watch::channel(());
    tokio::spawn(checkpoint::run(
        options.clone(),
        gate.clone(),
        commits.clone(),
        stats.clone(),
        wal_limit.unwrap_or(checkpoint::LOG_LIMIT),
        watch_alive,
    ));
    let writer = Writer {
        options,
        hooks,
        conn: None,
        max_pages,
        gate,
        commits,
        stats,
        _alive: alive,
    };
    tokio::spawn(writer.run(rx));
    queue
}

/// Opens the writer's connection: no automatic checkpoints, and a page cache that holds
/// the index pages every move touches (thousands of games are being played at once;
/// SQLite's default cache of 2 MiB would read them back from the file again and again).
async fn open_writer(options: &SqliteConnectOptions) -> Result<SqliteConnection, sqlx::Error> {
    let mut conn = open(options).await?;
    sqlx::query("PRAGMA cache_size = -65536")
        .execute(&mut conn)
        .await?;
    Ok(conn)
}

/// The writer task's state.
struct Writer {
    /// How to open the connection.
    options: SqliteConnectOptions,
    /// What a test makes the writer do.
    hooks: Hooks,
    /// The connection, once open (closed after a failed transaction).
    conn: Option<SqliteConnection>,
    /// Test hook: the page limit to set before each transaction.
    max_pages: Option<Arc<AtomicU64>>,
    /// Held (shared) during each transaction; the checkpointer takes it alone for the
    /// moment it needs no commit to happen.
    gate: Arc<RwLock<()>>,
    /// Transactions committed, for the checkpointer.
    commits: Arc<AtomicU64>,
    /// What the writer measures.
    stats: Arc<StoreStats>,
    /// Dropped with the writer: the checkpointer then makes its last checkpoint and ends.
    _alive: watch::Sender<()>,
}

impl Writer {
    async fn run(mut self, mut rx: mpsc::Receiver<Job>) {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let writes: Vec<&Write> = batch.iter().map(|j| &j.write).collect();
            let began = Instant::now();
            let result = self.transaction(&writes).await;
            match result {
                Ok(written) => {
                    let took = began.elapsed();
                    self.stats.committed(batch.len(), took);
                    for (job, w) in batch.drain(..).zip(written) {
                        job.settle(Ok(w));
                    }
                }
                // One bad write (e.g. a duplicate ply) must not fail the others: they
                // are made one by one (unless the database cannot take writes at all).
                Err(e) => {
                    for job in Job::fail_or_retry(std::mem::take(&mut batch), e) {
                        let result = self.transaction(&[&job.write]).await;
                        job.settle(result.map(|w| w.into_iter().next().flatten()));
                    }
                }
            }
        }
    }

    /// Commits `writes` in one transaction. On failure the connection is closed (see the
    /// module documentation).
    async fn transaction(&mut self, writes: &[&Write]) -> Result<Vec<Written>, sqlx::Error> {
        let _gate = self.gate.read().await;
        let conn = match &mut self.conn {
            Some(conn) => conn,
            None => self.conn.insert(open_writer(&self.options).await?),
        };
        let result = async {
            if let Some(limit) = &self.max_pages {
                let pages = match limit.load(Ordering::SeqCst) {
                    0 => 1_073_741_823, // SQLite's default maximum
                    n => n,
                };
                sqlx::query(&format!("PRAGMA max_page_count = {pages}"))
                    .execute(&mut *conn)
                    .await?;
            }
            if let Some(done) = commit_moves_sqlite(conn, writes).await {
                return done;
            }
            let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
            let written = apply_sqlite_batch(&mut tx, writes, self.hooks).await?;
            tx.commit().await?;
            Ok(written)
        }
        .await;
        match &result {
            Ok(_) => {
                self.commits.fetch_add(1, Ordering::Relaxed);
            }
            Err(_) => {
                self.stats.failed();
                if let Some(conn) = self.conn.take()
                    && let Err(e) = conn.close().await
                {
                    tracing::debug!(error = %e, "closing the writer's failed connection");
                }
            }
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::{ClockRow, GameRow, MoveRow, NewGame, Store};
    use damka_protocol::GameStatus;

    fn row(ply: i64) -> MoveRow {
        MoveRow {
            ply,
            mv: format!("m{ply}"),
            fen_after: "W:W1:B2".into(),
            white_ms: 1000,
            black_ms: 1000,
            used_ms: 0,
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn concurrent_moves_commit_together_and_a_bad_one_fails_alone() {
        let dir = std::env::temp_dir().join(format!("damka_writer_test_{}", std::process::id()));
        let store = Store::connect(&format!("sqlite://{}/w.db", dir.display()))
            .await
            .expect("store");
        store.create_guest("w", "W", "hw", 0).await.expect("guest");
        store.create_guest("b", "B", "hb", 0).await.expect("guest");
        for id in ["g1", "g2"] {
            let game = GameRow {
                id: id.into(),
                table_id: "t".into(),
                room: "russian".into(),
                variant: "russian".into(),
                minutes: 1,
                increment_s: 0,
                days: None,
                random_opening: false,
                capture_optional: false,
                rated: false,
                white_id: "w".into(),
                white_name: "W".into(),
                black_id: "b".into(),
                black_name: "B".into(),
                initial_fen: "W:W1:B2".into(),
                opening_plies: 0,
                ballot: None,
                ballot_random: false,
                micro_match: None,
                status: GameStatus::Playing,
                result: None,
                reason: None,
                clock: ClockRow {
                    white_ms: 60_000,
                    black_ms: 60_000,
                    ply: 0,
                },
                started_at: 0,
                ended_at: None,
            };
            let new = NewGame {
                row: game,
                opening: Vec::new(),
            };
            store.insert_game(&new).await.expect("game");
        }
        // 200 moves of game g1 from 200 tasks at once, plus a duplicate ply of g2.
        store
            .append_move("g2", &row(1))
            .await
            .expect("first g2 move");
        let mut tasks = Vec::new();
        for ply in 1..=200 {
            let s = store.clone();
            tasks.push(tokio::spawn(
                async move { s.append_move("g1", &row(ply)).await },
            ));
        }
        let s = store.clone();
        let duplicate = tokio::spawn(async move { s.append_move("g2", &row(1)).await });
        for t in tasks {
            t.await.expect("task").expect("stored");
        }
        assert!(
            matches!(
                duplicate.await.expect("task"),
                Err(crate::StoreError::Conflict(_))
            ),
            "the duplicate ply is refused as a conflict"
        );
        assert_eq!(store.moves("g1").await.expect("moves").len(), 200);
        assert_eq!(store.moves("g2").await.expect("moves").len(), 1);
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
