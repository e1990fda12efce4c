//! Storage: one enum over a SQLite or PostgreSQL pool, runtime queries (`query` /
//! `query_as` + `bind`, no database needed to build) and one migration folder per backend.
//!
//! The SQL text is shared: both backends accept `$1`-style placeholders, integers are
//! `BIGINT`/`INTEGER` read as `i64`, and nothing relies on backend-specific types. Each
//! method is written once and `on_pool!` expands it for both pools.
//!
//! SQLite runs in WAL mode with `synchronous = FULL`, so a committed move survives a power
//! cut as well as a `kill -9`. Every write is a [`Write`] value: on SQLite one writer task
//! ([`MoveWriter`]) commits them in batches (group commit), so the server is SQLite's
//! only writer; on PostgreSQL they run directly.

mod expiry;
mod games;
mod guests;
mod write;
mod writer;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

pub use games::{DrawOfferRow, GameRow, MoveRow, NewGame};
pub use guests::GuestRow;
pub use write::Write;
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

    /// Makes one change; it is committed (durable) when this returns `Ok`. On SQLite it
    /// goes through the single writer task (group commit); on PostgreSQL directly, in a
    /// transaction when it takes more than one statement.
    ///
    /// Fails on a database error.
    pub async fn write(&self, write: Write) -> Result<(), sqlx::Error> {
        match self {
            Store::Sqlite(_, writer) => writer.write(write).await,
            Store::Postgres(pool) if write.is_multi_statement() => {
                let mut tx = pool.begin().await?;
                write::apply_postgres(&mut tx, &write).await?;
                tx.commit().await
            }
            Store::Postgres(pool) => {
                let mut conn = pool.acquire().await?;
                write::apply_postgres(&mut conn, &write).await
            }
        }
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
