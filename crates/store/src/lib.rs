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
//!
//! Reads go through one of two pools. The main pool serves what the game path needs
//! (sessions, seats, tables, restores); the lookups' small pool ([`Store::lookups`])
//! serves the public pages anyone may ask for without limit of their number (profiles, a
//! player's PDN, leaderboards, game lists and replays). However many of those arrive, they
//! wait for the lookups' few connections, for a short time only, and then fail as
//! [`StoreError::Busy`]: they never take a connection the game path needs.

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
#[cfg(test)]
mod plans;
mod push;
mod puzzles;
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
pub use expiry::{EXPIRE_BATCH, SEEN_BATCH, UnseenGuest};
pub use fair_play::{FairPlayWrite, PairRow};
pub use games::{
    ClockRow, DrawOfferRow, GameCursor, GameEnd, GameRow, MAX_IDS, MatchSlot, MoveRow, NewGame,
    RunningGame,
};
pub use health::Breaker;
pub use lease::Leases;
pub use push::{PushSettings, PushSubscriptionRow, PushWrite};
pub use puzzles::{GamePuzzleRow, PuzzleStatsRow, PuzzleWrite};
pub use queue::WriteQueue;
pub use ratings::{
    BoardRow, HistoryPoint, MatchCounts, RatedEnd, RatingChange, RatingChanges, RatingRow,
    ResultCounts,
};
pub use sessions::{LiveSession, SessionCutoffs};
pub use stats::StoreStats;
pub use tournaments::{
    BoardResult, EntrantRow, GameTournament, PairingRow, TournamentRow, TournamentWrite,
};
pub use write::Write;

use error::is_outage;

/// The database: a pool that reads, and the group-commit writer every change goes
/// through (which holds the store's circuit breaker).
#[derive(Clone, Debug)]
pub struct Store {
    /// The connections this handle reads with: the main pool, or for the handle
    /// [`Store::lookups`] returns, the lookups' pool.
    pool: Pool,
    /// The lookups' pool (see [`Store::lookups`]).
    lookups: Pool,
    /// Whether `pool` is the lookups' pool: a wait for one of its connections that runs
    /// out is [`StoreError::Busy`], not an outage.
    is_lookups: bool,
    /// The lookups' slots, one per connection of their pool: a lookup waits at most
    /// `lookup_wait` for one (the others' lookups), then is [`StoreError::Busy`]; holding
    /// one, it waits for its connection as long as any read may (the time to open one
    /// is not the others' fault, and a busy machine may take more than `lookup_wait`).
    lookup_slots: Arc<tokio::sync::Semaphore>,
    /// Longest wait for a lookups' slot.
    lookup_wait: Duration,
    /// The writer's handle: SQLite's one writer task, or PostgreSQL's.
    writer: WriteQueue,
}

/// Every lookups' slot, taken by [`Store::hold_lookups`] until dropped.
#[derive(Debug)]
pub struct LookupsHeld {
    _slots: tokio::sync::OwnedSemaphorePermit,
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
    /// Connections of the lookups' pool ([`Store::lookups`]); at least 1.
    pub lookup_connections: u32,
    /// Longest wait for a connection of the lookups' pool, after which a lookup fails
    /// with [`StoreError::Busy`].
    pub lookup_wait: Duration,
}

impl Default for StoreOptions {
    fn default() -> StoreOptions {
        StoreOptions {
            acquire_timeout: Duration::from_secs(1),
            sqlite_max_page_count: None,
            sqlite_wal_limit_pages: None,
            abort_before_ratings: false,
            lookup_connections: 2,
            lookup_wait: Duration::from_millis(250),
        }
    }
}

/// Runs the same query against whichever pool the store holds; its sqlx error becomes a
/// [`StoreError`].
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        // A lookup first takes one of the lookups' slots (see `Store::lookup_slot`).
        match $store.lookup_slot().await {
            Err(e) => Err(e),
            Ok(_slot) => match &$store.pool {
                $crate::Pool::Sqlite($pool) => $body,
                $crate::Pool::Postgres($pool) => $body,
            }
            .map_err(|e| $store.read_error(e)),
        }
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
        let hooks = ratings::Hooks {
            abort_before_ratings: options.abort_before_ratings,
        };
        let slots = options.lookup_connections.max(1) as usize;
        let store = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(options.acquire_timeout)
                .connect(url)
                .await?;
            let lookups = PgPoolOptions::new()
                .max_connections(options.lookup_connections.max(1))
                .min_connections(0)
                .acquire_timeout(options.acquire_timeout.max(options.lookup_wait))
                .connect_lazy_with((*pool.connect_options()).clone());
            let writer = pg_writer::spawn(&pool, options.acquire_timeout, hooks);
            Store {
                pool: Pool::Postgres(pool),
                lookups: Pool::Postgres(lookups),
                is_lookups: false,
                lookup_slots: Arc::new(tokio::sync::Semaphore::new(slots)),
                lookup_wait: options.lookup_wait,
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
            // Opened once the file exists (the main pool made it): read-only, so a lookup
            // can never write, nor ever wait for SQLite's write lock.
            let lookups = SqlitePoolOptions::new()
                .max_connections(options.lookup_connections.max(1))
                .min_connections(0)
                .acquire_timeout(options.acquire_timeout.max(options.lookup_wait))
                .connect_lazy_with(connect.clone().read_only(true));
            let writer = writer::spawn(
                connect,
                options.sqlite_max_page_count,
                options.sqlite_wal_limit_pages,
                hooks,
            );
            Store {
                pool: Pool::Sqlite(pool),
                lookups: Pool::Sqlite(lookups),
                is_lookups: false,
                lookup_slots: Arc::new(tokio::sync::Semaphore::new(slots)),
                lookup_wait: options.lookup_wait,
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

    /// The same store reading through the lookups' pool: for the public pages anyone may
    /// ask for (profiles, a player's PDN, leaderboards, game lists and replays), so that
    /// however many arrive they never take a connection of the game path (sessions,
    /// sign-in, table sockets, restores) nor the writer's. Its reads wait at most
    /// [`StoreOptions::lookup_wait`] for one of its few connections and then fail with
    /// [`StoreError::Busy`]. Writes go through the one writer as ever.
    pub fn lookups(&self) -> Store {
        Store {
            pool: self.lookups.clone(),
            is_lookups: true,
            ..self.clone()
        }
    }

    /// Takes every connection of the lookups' pool and holds them until the result is
    /// dropped: meanwhile every lookup waits and fails with [`StoreError::Busy`]. For
    /// tests and benchmarks (what a flood of lookups does to the rest).
    ///
    /// Fails when a connection cannot be had within the lookups' wait.
    pub async fn hold_lookups(&self) -> Result<LookupsHeld, StoreError> {
        let n = u32::try_from(self.lookup_slots_total()).unwrap_or(u32::MAX);
        let slots = self
            .lookup_slots
            .clone()
            .acquire_many_owned(n)
            .await
            .map_err(|_| StoreError::Busy)?;
        Ok(LookupsHeld { _slots: slots })
    }

    /// The lookups' slots in all (their pool's connections).
    fn lookup_slots_total(&self) -> usize {
        match &self.lookups {
            Pool::Sqlite(pool) => pool.options().get_max_connections() as usize,
            Pool::Postgres(pool) => pool.options().get_max_connections() as usize,
        }
    }

    /// For a read of the lookups' handle, one of their slots, waited for at most
    /// `lookup_wait`; `None` (nothing to wait for) for any other read.
    ///
    /// Fails with [`StoreError::Busy`] when every slot stays taken.
    pub(crate) async fn lookup_slot(
        &self,
    ) -> Result<Option<tokio::sync::OwnedSemaphorePermit>, StoreError> {
        if !self.is_lookups {
            return Ok(None);
        }
        match tokio::time::timeout(self.lookup_wait, self.lookup_slots.clone().acquire_owned())
            .await
        {
            Ok(Ok(slot)) => Ok(Some(slot)),
            Ok(Err(_)) | Err(_) => Err(StoreError::Busy),
        }
    }

    /// A read's error: a wait for a lookups' connection that ran out is
    /// [`StoreError::Busy`]; anything else as [`StoreError::from`].
    fn read_error(&self, e: sqlx::Error) -> StoreError {
        match e {
            sqlx::Error::PoolTimedOut if self.is_lookups => StoreError::Busy,
            e => StoreError::from(e),
        }
    }

    /// Makes one change; it is committed (durable) when this returns `Ok`. It goes
    /// through the backend's group-commit writer (one transaction for many writes).
    ///
    /// Fails on a database error, and at once (without trying) while the circuit is
    /// open; a failure that means the database cannot take writes opens it.
    pub async fn write(&self, write: Write) -> Result<(), StoreError> {
        self.write_reporting(write).await.map(drop)
    }

    /// [`Store::write`], with what the write reports back (a rated game's end: its
    /// rating changes, computed and stored in its transaction).
    ///
    /// Fails as [`Store::write`] does.
    async fn write_reporting(&self, write: Write) -> Result<queue::Written, StoreError> {
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
        self.writer.write(write).await.map(drop)
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
        for pool in [&self.lookups, &self.pool] {
            match pool {
                Pool::Sqlite(pool) => pool.close().await,
                Pool::Postgres(pool) => pool.close().await,
            }
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
