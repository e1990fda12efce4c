//! Analysis jobs of finished games: one row per game (`games_analysis`), the unit every
//! node agrees on. A request inserts the row unless it is there; a node claims a job by
//! writing its own random claim token where the job is queued or its lease ran out, then
//! reads the row back to see whether the claim is its own (so the claim needs no result
//! from the group-commit writer); it renews the lease as it goes and stores the result
//! under its claim, so a node that lost its claim cannot overwrite another's work.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::write::Write;
use super::{Store, StoreError, on_pool};

const REQUEST: &str = "INSERT INTO games_analysis (game_id, status, requested_by, address, \
    requested_at, priority) VALUES ($1, 'queued', $2, $3, $4, $5) \
    ON CONFLICT (game_id) DO NOTHING";

const CLAIM: &str = "UPDATE games_analysis SET status = 'running', claim = $2, \
    lease_until = $3 WHERE game_id = $1 AND (status = 'queued' OR (status = 'running' \
    AND (lease_until IS NULL OR lease_until < $4)))";

const RENEW: &str = "UPDATE games_analysis SET lease_until = $3, \
    searched = COALESCE($4, searched), positions = COALESCE($5, positions) \
    WHERE game_id = $1 AND claim = $2 AND status = 'running'";

const FINISH: &str = "UPDATE games_analysis SET status = 'done', budget = $3, result = $4, \
    done_at = $5, lease_until = NULL WHERE game_id = $1 AND claim = $2 AND status = 'running'";

const PRIORITIZE: &str = "UPDATE games_analysis SET priority = $2 \
    WHERE game_id = $1 AND status = 'queued' AND priority > $2";

const RELEASE: &str = "UPDATE games_analysis SET status = 'queued', claim = NULL, \
    lease_until = NULL WHERE game_id = $1 AND claim = $2 AND status = 'running'";

const COLUMNS: &str = "game_id, status, requested_by, address, requested_at, priority, \
    claim, lease_until, searched, positions, budget, result";

/// The queue's order: priority, then the time of the request, then the game's id (so two
/// requests of one millisecond still have an order every node agrees on).
const QUEUE_ORDER: &str = "priority, requested_at, game_id";

/// A job's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalysisStatus {
    /// Waiting for a node to claim it.
    Queued,
    /// Claimed by a node (which may have died: see the lease).
    Running,
    /// The result is stored.
    Done,
}

impl AnalysisStatus {
    /// The stored (and wire) name.
    pub fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
        }
    }

    fn parse(s: &str) -> Option<AnalysisStatus> {
        Some(match s {
            "queued" => AnalysisStatus::Queued,
            "running" => AnalysisStatus::Running,
            "done" => AnalysisStatus::Done,
            _ => return None,
        })
    }
}

/// Where a job goes in the queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Priority {
    /// An account asked for the analysis of a game it played: first.
    Own,
    /// Anybody else's request.
    Other,
}

impl Priority {
    /// The stored number (the queue sorts by it).
    pub fn stored(self) -> i64 {
        match self {
            Priority::Own => 0,
            Priority::Other => 1,
        }
    }

    fn from_stored(n: i64) -> Option<Priority> {
        match n {
            0 => Some(Priority::Own),
            1 => Some(Priority::Other),
            _ => None,
        }
    }
}

/// A stored analysis job.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisRow {
    /// The game analysed.
    pub game_id: String,
    /// Its state.
    pub status: AnalysisStatus,
    /// The player who asked first.
    pub requested_by: String,
    /// Their address, when known (the fair queue's key).
    pub address: Option<String>,
    /// When it was asked for (Unix ms).
    pub requested_at: i64,
    /// Its place in the queue's order: [`Priority::Own`] before [`Priority::Other`].
    pub priority: Priority,
    /// The claim token of the attempt that runs (or ran) it.
    pub claim: Option<String>,
    /// Until when that claim holds (Unix ms).
    pub lease_until: Option<i64>,
    /// While it runs: positions searched so far, of `positions`.
    pub searched: Option<i64>,
    /// The game's positions to search (known once a node runs it).
    pub positions: Option<i64>,
    /// The search budget it was made with (text, for the record).
    pub budget: Option<String>,
    /// The result (the server's JSON), once done.
    pub result: Option<String>,
}

#[derive(sqlx::FromRow)]
struct RawAnalysis {
    game_id: String,
    status: String,
    requested_by: String,
    address: Option<String>,
    requested_at: i64,
    priority: i64,
    claim: Option<String>,
    lease_until: Option<i64>,
    searched: Option<i64>,
    positions: Option<i64>,
    budget: Option<String>,
    result: Option<String>,
}

impl TryFrom<RawAnalysis> for AnalysisRow {
    type Error = StoreError;

    fn try_from(r: RawAnalysis) -> Result<AnalysisRow, StoreError> {
        let status = AnalysisStatus::parse(&r.status).ok_or_else(|| {
            StoreError::Corrupt(format!("analysis of {} has status {}", r.game_id, r.status))
        })?;
        let priority = Priority::from_stored(r.priority).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "analysis of {} has priority {}",
                r.game_id, r.priority
            ))
        })?;
        Ok(AnalysisRow {
            game_id: r.game_id,
            status,
            requested_by: r.requested_by,
            address: r.address,
            requested_at: r.requested_at,
            priority,
            claim: r.claim,
            lease_until: r.lease_until,
            searched: r.searched,
            positions: r.positions,
            budget: r.budget,
            result: r.result,
        })
    }
}

/// A change to an analysis job.
#[derive(Debug, Clone)]
pub enum AnalysisWrite {
    /// A job is asked for; nothing happens when the game has one already.
    Request {
        /// The game.
        game_id: String,
        /// Who asks.
        requested_by: String,
        /// From where.
        address: Option<String>,
        /// Its place in the queue.
        priority: Priority,
        /// Unix ms.
        now: i64,
    },
    /// Claims a queued job, or a running one whose lease ended before `now`.
    Claim {
        /// The game.
        game_id: String,
        /// The claimant's token.
        claim: String,
        /// Unix ms: the lease's end.
        until: i64,
        /// Unix ms.
        now: i64,
    },
    /// Extends the lease of the job's claim, and records how far it got.
    Renew {
        /// The game.
        game_id: String,
        /// The claim.
        claim: String,
        /// Unix ms: the lease's new end.
        until: i64,
        /// Positions searched so far and of how many (`None`: unchanged).
        progress: Option<(i64, i64)>,
    },
    /// Stores the result under the claim (nothing when the claim is no longer the job's).
    Finish {
        /// The game.
        game_id: String,
        /// The claim.
        claim: String,
        /// The budget used.
        budget: String,
        /// The result.
        result: String,
        /// Unix ms.
        now: i64,
    },
    /// Moves a queued job up to `priority` (an account asking about its own game that
    /// somebody else asked for first); a job already as high, or running, is left alone.
    Prioritize {
        /// The game.
        game_id: String,
        /// Its new place.
        priority: Priority,
    },
    /// Gives a running job back to the queue (a graceful stop mid-job).
    Release {
        /// The game.
        game_id: String,
        /// The claim.
        claim: String,
    },
}

impl From<AnalysisWrite> for Write {
    fn from(write: AnalysisWrite) -> Write {
        Write::Analysis(Box::new(write))
    }
}

macro_rules! apply_analysis {
    ($conn:expr, $write:expr) => {
        match $write {
            AnalysisWrite::Request {
                game_id,
                requested_by,
                address,
                priority,
                now,
            } => {
                sqlx::query(REQUEST)
                    .bind(game_id)
                    .bind(requested_by)
                    .bind(address)
                    .bind(now)
                    .bind(priority.stored())
                    .execute(&mut *$conn)
                    .await?;
            }
            AnalysisWrite::Claim {
                game_id,
                claim,
                until,
                now,
            } => {
                sqlx::query(CLAIM)
                    .bind(game_id)
                    .bind(claim)
                    .bind(until)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            AnalysisWrite::Renew {
                game_id,
                claim,
                until,
                progress,
            } => {
                sqlx::query(RENEW)
                    .bind(game_id)
                    .bind(claim)
                    .bind(until)
                    .bind(progress.map(|p| p.0))
                    .bind(progress.map(|p| p.1))
                    .execute(&mut *$conn)
                    .await?;
            }
            AnalysisWrite::Finish {
                game_id,
                claim,
                budget,
                result,
                now,
            } => {
                sqlx::query(FINISH)
                    .bind(game_id)
                    .bind(claim)
                    .bind(budget)
                    .bind(result)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            AnalysisWrite::Prioritize { game_id, priority } => {
                sqlx::query(PRIORITIZE)
                    .bind(game_id)
                    .bind(priority.stored())
                    .execute(&mut *$conn)
                    .await?;
            }
            AnalysisWrite::Release { game_id, claim } => {
                sqlx::query(RELEASE)
                    .bind(game_id)
                    .bind(claim)
                    .execute(&mut *$conn)
                    .await?;
            }
        }
    };
}

/// Applies an analysis write on a SQLite connection.
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &AnalysisWrite,
) -> Result<(), sqlx::Error> {
    apply_analysis!(conn, write);
    Ok(())
}

/// Applies an analysis write on a PostgreSQL connection.
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &AnalysisWrite,
) -> Result<(), sqlx::Error> {
    apply_analysis!(conn, write);
    Ok(())
}

impl Store {
    /// Makes an analysis change.
    ///
    /// Fails on a database error (a request for an unknown game breaks its foreign key).
    pub async fn analysis_write(&self, write: AnalysisWrite) -> Result<(), StoreError> {
        self.write(write.into()).await
    }

    /// A game's analysis job, if it has one.
    ///
    /// Fails on a database error, or with [`StoreError::Corrupt`] for a status this
    /// version does not know.
    pub async fn analysis(&self, game_id: &str) -> Result<Option<AnalysisRow>, StoreError> {
        let sql = format!("SELECT {COLUMNS} FROM games_analysis WHERE game_id = $1");
        let row: Option<RawAnalysis> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(game_id).fetch_optional(pool).await)?;
        row.map(AnalysisRow::try_from).transpose()
    }

    /// The jobs a node may claim at `now` (Unix ms): queued, or running on a lease that
    /// ended; in the queue's order (an account's own games first, then the oldest
    /// request), at most `limit`.
    ///
    /// Fails as [`Store::analysis`].
    pub async fn claimable_analyses(
        &self,
        now: i64,
        limit: i64,
    ) -> Result<Vec<AnalysisRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM games_analysis WHERE status = 'queued' OR (status = \
             'running' AND (lease_until IS NULL OR lease_until < $1)) \
             ORDER BY {QUEUE_ORDER} LIMIT $2"
        );
        let rows: Vec<RawAnalysis> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(now).bind(limit).fetch_all(pool).await)?;
        rows.into_iter().map(AnalysisRow::try_from).collect()
    }

    /// Jobs waiting in the queue (not yet claimed), over every node.
    ///
    /// Fails on a database error.
    pub async fn queued_analyses(&self) -> Result<i64, StoreError> {
        let sql = "SELECT COUNT(*) FROM games_analysis WHERE status = 'queued'";
        let n: i64 = on_pool!(self, pool => sqlx::query_scalar(sql).fetch_one(pool).await)?;
        Ok(n)
    }

    /// A queued job's place in the queue (1: next), counting the queued jobs before it
    /// in the queue's order.
    ///
    /// Fails on a database error.
    pub async fn analysis_queue_position(&self, row: &AnalysisRow) -> Result<i64, StoreError> {
        let sql = "SELECT COUNT(*) FROM games_analysis WHERE status = 'queued' AND \
             (priority < $1 OR (priority = $1 AND (requested_at < $2 OR \
             (requested_at = $2 AND game_id < $3))))";
        let ahead: i64 = on_pool!(self, pool => sqlx::query_scalar(sql)
            .bind(row.priority.stored()).bind(row.requested_at).bind(&row.game_id)
            .fetch_one(pool).await)?;
        Ok(ahead + 1)
    }
}
