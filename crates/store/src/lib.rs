//! Damka's storage: a SQLite or PostgreSQL pool with one group-commit writer, runtime
//! queries (`query` / `query_as` + `bind`, no database needed to build) and one migration
//! folder per backend (`migrations/sqlite`, `migrations/postgres` at the repository's
//! root). The server never sees sqlx: it reads and writes typed rows ([`GameRow`] with its
//! [`ClockRow`], results and reasons as enums, flags as `bool`) and gets a [`StoreError`]
//! that says what it needs to know (an outage to wait out, a fenced-out write, a
//! conflict).
//!
//! The SQL text is shared: both backends accept `$1`-style placeholders, integers are
//! `BIGINT`/`INTEGER` read as `i64`, and nothing relies on backend-specific types. Each
//! read is written once and `on_pool!` expands it for both pools.
//!
//! SQLite runs in WAL mode with `synchronous = FULL`, so a committed move survives a power
//! cut as well as a `kill -9`. Every write is a [`Write`] value, committed in batches
//! (group commit) by a writer task: on SQLite one transaction at a time on the writer's
//! own connection, so the server is SQLite's only writer, with WAL checkpoints beside it;
//! on PostgreSQL a few transactions at once.
//!
//! Every write passes a circuit breaker ([`Breaker`]): once the database is out of reach
//! or out of space, writes fail at once (no waiting for a pool timeout per write) until a
//! probe write succeeds.

mod accounts;
mod analysis;
mod batch;
mod chat;
mod checkpoint;
mod error;
mod expiry;
mod fair_play;
pub mod fence;
mod games;
mod guests;
mod health;
pub mod lease;
mod pg_writer;
mod queue;
mod ratings;
mod sessions;
mod stats;
mod tournaments;
mod write;
mod writer;

use std::path::Path;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

pub use accounts::{AccountRow, AccountWrite, NewAccount, Secret, SessionPlayer};
pub use analysis::{AnalysisRow, AnalysisStatus, AnalysisWrite, Priority as AnalysisPriority};
pub use chat::ChatRow;
pub use error::StoreError;
pub use fair_play::{FairPlayWrite, PairRow};
pub use games::{ClockRow, DrawOfferRow, GameEnd, GameRow, MoveRow, NewGame};
pub use health::Breaker;
pub use lease::Leases;
pub use queue::WriteQueue;
pub use ratings::{
    BoardRow, HistoryPoint, RatedEnd, RatingChange, RatingChanges, RatingRow, RatingSlot,
    ResultCounts,
};
pub use sessions::{LiveSession, SessionCutoffs};
pub use stats::StoreStats;
pub use tournaments::{BoardResult, EntrantRow, PairingRow, TournamentRow, TournamentWrite};
pub use write::Write;

use error::is_outage;

/// The database: a pool that reads, and the group-commit writer every change goes
/// through (which holds the store's circuit breaker).
#[derive(Clone, Debug)]
pub struct Store {
    /// The connections that read.
    pool: Pool,
    /// The writer's handle: SQLite's one writer task, or PostgreSQL's.
    writer: WriteQueue,
}

/// A pool of either backend.
#[derive(Clone, Debug)]
enum Pool {
    /// A SQLite file in WAL mode.
    Sqlite(SqlitePool),
    /// PostgreSQL.
    Postgres(PgPool),
}

/// How to open the database.
#[derive(Clone, Debug)]
pub struct StoreOptions {
    /// Longest wait for a pooled connection (and for a new connection to be made).
    pub acquire_timeout: Duration,
    /// Test hook (SQLite): when set and not 0, the writer sets `PRAGMA max_page_count`
    /// to this before each transaction, so a test can fill the database up and free it
    /// again (`SQLITE_FULL` is exactly the disk-full error path).
    pub sqlite_max_page_count: Option<Arc<AtomicU64>>,
    /// Test hook (SQLite): the WAL size in pages past which the checkpointer holds the
    /// writer to start the log over (default 16,384: 64 MiB of 4 KiB pages), so a test
    /// can see the log start over without writing 64 MiB.
    pub sqlite_wal_limit_pages: Option<i64>,
    /// Test hook: abort the process between a rated game's end and its ratings, inside
    /// their one transaction (see `ratings.rs`).
    pub abort_before_ratings: bool,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            acquire_timeout: Duration::from_secs(1),
            sqlite_max_page_count: None,
            sqlite_wal_limit_pages: None,
            abort_before_ratings: false,
        }
    }
}

/// Runs the same query against whichever pool the store holds; its sqlx error becomes a
/// [`StoreError`].
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match &$store.pool {
            $crate::Pool::Sqlite($pool) => $body,
            $crate::Pool::Postgres($pool) => $body,
        }
        .map_err($crate::StoreError::from)
    };
}
pub(crate) use on_pool;

impl Store {
    /// Connects to `sqlite://path` (creating the file and its folder) or `postgres://...`
    /// and applies the migrations.
    ///
    /// Fails when the URL has another scheme, the database cannot be reached or a
    /// migration fails.
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        Store::connect_with(url, StoreOptions::default()).await
    }

    /// [`Store::connect`] with options.
    ///
    /// Fails as [`Store::connect`].
    pub async fn connect_with(url: &str, options: StoreOptions) -> Result<Store, StoreError> {
        Ok(Store::open(url, options).await?)
    }

    async fn open(url: &str, options: StoreOptions) -> Result<Store, sqlx::Error> {
        if options.abort_before_ratings {
            ratings::set_abort_before_ratings(true);
        }
        let store = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(options.acquire_timeout)
                .connect(url)
                .await?;
            let writer = pg_writer::spawn(&pool, options.acquire_timeout);
            Store {
                pool: Pool::Postgres(pool),
                writer,
            }
        } else if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            let file = path.split('?').next().unwrap_or(path);
            if let Some(dir) = Path::new(file).parent()
                && !dir.as_os_str().is_empty()
            {
                std::fs::create_dir_all(dir).map_err(sqlx::Error::Io)?;
            }
            let connect = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5))
                // The log file is reused after a checkpoint; past this it is cut back.
                .pragma("journal_size_limit", "67108864");
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .acquire_timeout(options.acquire_timeout)
                .connect_with(connect.clone())
                .await?;
            let writer = writer::spawn(
                connect,
                options.sqlite_max_page_count,
                options.sqlite_wal_limit_pages,
            );
            Store {
                pool: Pool::Sqlite(pool),
                writer,
            }
        } else {
            return Err(sqlx::Error::Configuration(
                "DATABASE_URL must start with sqlite:// or postgres://".into(),
            ));
        };
        store.migrate().await?;
        Ok(store)
    }

    /// Applies the migrations of the store's backend.
    async fn migrate(&self) -> Result<(), sqlx::Error> {
        match &self.pool {
            Pool::Sqlite(pool) => sqlx::migrate!("../../migrations/sqlite").run(pool).await?,
            Pool::Postgres(pool) => {
                sqlx::migrate!("../../migrations/postgres")
                    .run(pool)
                    .await?
            }
        }
        Ok(())
    }

    /// Makes one change; it is committed (durable) when this returns `Ok`. It goes
    /// through the backend's group-commit writer (one transaction for many writes).
    ///
    /// Fails on a database error, and at once (without trying) while the circuit is
    /// open; a failure that means the database cannot take writes opens it.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        if !self.breaker().healthy() {
            return Err(StoreError::circuit_open());
        }
        let result = self.writer.write(write).await;
        if let Err(e) = &result
            && is_outage(e)
        {
            self.trip(e);
        }
        Ok(result?)
    }

    /// Makes one write, breaker or not.
    async fn write_now(&self, write: Write) -> Result<(), sqlx::Error> {
        self.writer.write(write).await
    }

    /// Opens the circuit after `e` and, unless one runs already, starts the task that
    /// probes the database until a write succeeds again.
    fn trip(&self, e: &sqlx::Error) {
        let breaker = self.breaker();
        if !breaker.trip() {
            return;
        }
        tracing::error!(error = %e, "database not accepting writes: refusing writes until a probe succeeds");
        let store = self.clone();
        tokio::spawn(async move {
            let started = std::time::Instant::now();
            for delay in Breaker::probe_delays() {
                tokio::time::sleep(delay).await;
                match store.write_now(Write::Probe).await {
                    Ok(()) => break,
                    Err(sqlx::Error::PoolClosed) => return,
                    Err(e) => tracing::debug!(error = %e, "database probe failed"),
                }
            }
            tracing::warn!(
                down_ms = started.elapsed().as_millis() as u64,
                "database accepts writes again"
            );
            store.breaker().recovered();
        });
    }

    /// The cluster's leases (in PostgreSQL), or `None` on SQLite.
    pub fn leases(&self) -> Option<Leases> {
        match &self.pool {
            Pool::Postgres(pool) => Some(Leases::new(pool.clone())),
            Pool::Sqlite(_) => None,
        }
    }

    /// What the store's writer measures (for `/metrics`).
    pub fn stats(&self) -> &StoreStats {
        self.writer.stats()
    }

    /// The store's circuit breaker (tables watch it).
    pub fn breaker(&self) -> &Breaker {
        self.writer.breaker()
    }

    /// Checks that the database answers and takes writes (for `/readyz`).
    ///
    /// Fails while the circuit is open, or if the database does not answer.
    pub async fn ping(&self) -> Result<(), StoreError> {
        if !self.breaker().healthy() {
            return Err(StoreError::circuit_open());
        }
        let result = match &self.pool {
            Pool::Sqlite(pool) => sqlx::query("SELECT 1").execute(pool).await.map(|_| ()),
            Pool::Postgres(pool) => sqlx::query("SELECT 1").execute(pool).await.map(|_| ()),
        };
        if let Err(e) = &result
            && is_outage(e)
        {
            self.trip(e);
        }
        Ok(result?)
    }

    /// Closes the pool (after the last write of a graceful shutdown).
    pub async fn close(&self) {
        match &self.pool {
            Pool::Sqlite(pool) => pool.close().await,
            Pool::Postgres(pool) => pool.close().await,
        }
    }

    /// The backend's name, for logs.
    pub fn backend(&self) -> &'static str {
        match &self.pool {
            Pool::Sqlite(_) => "sqlite",
            Pool::Postgres(_) => "postgres",
        }
    }
}
