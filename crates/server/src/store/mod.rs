//! Storage: one enum over a SQLite or PostgreSQL pool, runtime queries (`query` /
//! `query_as` + `bind`, no database needed to build) and one migration folder per backend.
//!
//! The SQL text is shared: both backends accept `$1`-style placeholders, integers are
//! `BIGINT`/`INTEGER` read as `i64`, and nothing relies on backend-specific types. Each
//! method is written once and `on_pool!` expands it for both pools.
//!
//! SQLite runs in WAL mode with `synchronous = FULL`, so a committed move survives a power
//! cut as well as a `kill -9`; writes are single statements or short transactions that
//! start with a write (no read-then-upgrade deadlocks), and a busy timeout absorbs the
//! rare contention between table actors.

mod games;
mod guests;
mod writer;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

pub use games::{GameRow, MoveRow, NewGame};
pub use guests::GuestRow;
pub use writer::MoveWriter;

/// The database: SQLite (default) or PostgreSQL.
#[derive(Clone, Debug)]
pub enum Store {
    /// SQLite file in WAL mode, with the group-commit writer for moves.
    Sqlite(SqlitePool, MoveWriter),
    /// PostgreSQL.
    Postgres(PgPool),
}

/// Runs the same expression against whichever pool the store holds.
macro_rules! on_pool {
    ($store:expr, $pool:ident => $body:expr) => {
        match $store {
            $crate::store::Store::Sqlite($pool, _) => $body,
            $crate::store::Store::Postgres($pool) => $body,
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
    pub async fn connect(url: &str) -> Result<Store, sqlx::Error> {
        let store = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            let pool = PgPoolOptions::new()
                .max_connections(16)
                .acquire_timeout(Duration::from_secs(5))
                .connect(url)
                .await?;
            Store::Postgres(pool)
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
            let options = SqliteConnectOptions::from_str(url)?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Full)
                .foreign_keys(true)
                .busy_timeout(Duration::from_secs(5));
            let pool = SqlitePoolOptions::new()
                .max_connections(8)
                .connect_with(options)
                .await?;
            let writer = MoveWriter::spawn(pool.clone());
            Store::Sqlite(pool, writer)
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
        match self {
            Store::Sqlite(pool, _) => sqlx::migrate!("../../migrations/sqlite").run(pool).await?,
            Store::Postgres(pool) => {
                sqlx::migrate!("../../migrations/postgres")
                    .run(pool)
                    .await?
            }
        }
        Ok(())
    }

    /// Checks that the database answers (for `/readyz`).
    pub async fn ping(&self) -> Result<(), sqlx::Error> {
        on_pool!(self, pool => sqlx::query("SELECT 1").execute(pool).await.map(|_| ()))
    }

    /// Closes the pool (after the last write of a graceful shutdown).
    pub async fn close(&self) {
        on_pool!(self, pool => pool.close().await)
    }

    /// The backend's name, for logs.
    pub fn backend(&self) -> &'static str {
        match self {
            Store::Sqlite(..) => "sqlite",
            Store::Postgres(_) => "postgres",
        }
    }
}
