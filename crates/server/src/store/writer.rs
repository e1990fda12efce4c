//! Group commit for SQLite: one task makes every write of the server (moves, game starts
//! and ends, guests), many per transaction.
//!
//! With `synchronous = FULL` every SQLite commit waits for the disk, and a commit per move
//! caps a busy server at the disk's flush rate. Here each table still awaits its own move's
//! commit before acknowledging it, but the moves that arrive while one batch is being
//! committed all go into the next batch: one flush for many moves. Being the only writer
//! it never waits for SQLite's write lock either. PostgreSQL groups concurrent commits
//! itself, so writes go to it directly.

//!
//! A failed transaction never goes back to the pool: SQLite may already have rolled it
//! back by itself (a full disk, `SQLITE_FULL`), and a connection returned in that state
//! would refuse every later `BEGIN`. The connection is closed instead and the next batch
//! opens a fresh one, so writes recover by themselves once the cause is gone.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use sqlx::Connection;
use sqlx::sqlite::SqlitePool;
use tokio::sync::{mpsc, oneshot};

use super::health::Breaker;
use super::write::{Write, apply_sqlite};

/// Largest number of writes in one transaction.
const MAX_BATCH: usize = 256;

/// One write, and where to report the outcome.
struct Job {
    /// The write.
    write: Write,
    /// Told once the write is committed (or failed).
    done: oneshot::Sender<Result<(), sqlx::Error>>,
}

/// The handle to the writer task.
#[derive(Clone, Debug)]
pub struct MoveWriter {
    /// Jobs for the writer task.
    tx: mpsc::Sender<Job>,
    /// The store's circuit breaker.
    breaker: Breaker,
}

impl MoveWriter {
    /// Starts the writer task for `pool`; it ends when every handle is dropped.
    /// `max_pages` is the test hook of [`super::StoreOptions::sqlite_max_page_count`].
    pub fn spawn(pool: SqlitePool, max_pages: Option<Arc<AtomicU64>>) -> MoveWriter {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        let writer = Writer { pool, max_pages };
        tokio::spawn(writer.run(rx));
        MoveWriter {
            tx,
            breaker: Breaker::default(),
        }
    }

    /// The store's circuit breaker.
    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    /// Makes one write; returns once it is committed.
    ///
    /// Fails if the database refuses it or the writer has stopped.
    pub async fn write(&self, write: Write) -> Result<(), sqlx::Error> {
        let (done, result) = oneshot::channel();
        let job = Job { write, done };
        self.tx
            .send(job)
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        result.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}

/// The writer task's state.
struct Writer {
    /// The database.
    pool: SqlitePool,
    /// Test hook: the page limit to set before each transaction.
    max_pages: Option<Arc<AtomicU64>>,
}

impl Writer {
    async fn run(self, mut rx: mpsc::Receiver<Job>) {
        let mut batch = Vec::with_capacity(MAX_BATCH);
        while rx.recv_many(&mut batch, MAX_BATCH).await > 0 {
            let writes: Vec<&Write> = batch.iter().map(|j| &j.write).collect();
            match self.transaction(&writes).await {
                Ok(()) => {
                    for job in batch.drain(..) {
                        let _ = job.done.send(Ok(()));
                    }
                }
                // One bad write (e.g. a duplicate ply) must not fail the others: make them
                // one by one so each caller learns its own outcome.
                Err(_) if batch.len() > 1 => {
                    for job in batch.drain(..) {
                        let result = self.transaction(&[&job.write]).await;
                        let _ = job.done.send(result);
                    }
                }
                Err(e) => {
                    if let Some(job) = batch.pop() {
                        let _ = job.done.send(Err(e));
                    }
                }
            }
        }
    }

    /// Commits `writes` in one transaction. On failure the connection is closed, not
    /// returned to the pool (see the module documentation).
    async fn transaction(&self, writes: &[&Write]) -> Result<(), sqlx::Error> {
        let mut conn = self.pool.acquire().await?;
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
            let mut tx = conn.begin_with("BEGIN IMMEDIATE").await?;
            for write in writes {
                apply_sqlite(&mut tx, write).await?;
            }
            tx.commit().await
        }
        .await;
        if result.is_err() {
            conn.close_on_drop();
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use crate::store::{GameRow, MoveRow, NewGame, Store};

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
                random_opening: 0,
                capture_optional: 0,
                white_id: "w".into(),
                white_name: "W".into(),
                black_id: "b".into(),
                black_name: "B".into(),
                initial_fen: "W:W1:B2".into(),
                opening_plies: 0,
                status: "playing".into(),
                result: None,
                reason: None,
                white_ms: 60_000,
                black_ms: 60_000,
                clock_ply: 0,
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
            duplicate.await.expect("task").is_err(),
            "the duplicate ply is refused"
        );
        assert_eq!(store.moves("g1").await.expect("moves").len(), 200);
        assert_eq!(store.moves("g2").await.expect("moves").len(), 1);
        store.close().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
