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
    requested_at) VALUES ($1, 'queued', $2, $3, $4) ON CONFLICT (game_id) DO NOTHING";

const CLAIM: &str = "UPDATE games_analysis SET status = 'running', claim = $2, \
    lease_until = $3 WHERE game_id = $1 AND (status = 'queued' OR (status = 'running' \
    AND (lease_until IS NULL OR lease_until < $4)))";

const RENEW: &str = "UPDATE games_analysis SET lease_until = $3 \
    WHERE game_id = $1 AND claim = $2 AND status = 'running'";

const FINISH: &str = "UPDATE games_analysis SET status = 'done', budget = $3, result = $4, \
    done_at = $5, lease_until = NULL WHERE game_id = $1 AND claim = $2 AND status = 'running'";

const RELEASE: &str = "UPDATE games_analysis SET status = 'queued', claim = NULL, \
    lease_until = NULL WHERE game_id = $1 AND claim = $2 AND status = 'running'";

const COLUMNS: &str = "game_id, status, requested_by, address, claim, lease_until, budget, \
    result";

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
    /// The claim token of the attempt that runs (or ran) it.
    pub claim: Option<String>,
    /// Until when that claim holds (Unix ms).
    pub lease_until: Option<i64>,
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
    claim: Option<String>,
    lease_until: Option<i64>,
    budget: Option<String>,
    result: Option<String>,
}

impl TryFrom<RawAnalysis> for AnalysisRow {
    type Error = StoreError;

    fn try_from(r: RawAnalysis) -> Result<AnalysisRow, StoreError> {
        let status = AnalysisStatus::parse(&r.status).ok_or_else(|| {
            StoreError::Corrupt(format!("analysis of {} has status {}", r.game_id, r.status))
        })?;
        Ok(AnalysisRow {
            game_id: r.game_id,
            status,
            requested_by: r.requested_by,
            address: r.address,
            claim: r.claim,
            lease_until: r.lease_until,
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
    /// Extends the lease of the job's claim.
    Renew {
        /// The game.
        game_id: String,
        /// The claim.
        claim: String,
        /// Unix ms: the lease's new end.
        until: i64,
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
                now,
            } => {
                sqlx::query(REQUEST)
                    .bind(game_id)
                    .bind(requested_by)
                    .bind(address)
                    .bind(now)
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
            } => {
                sqlx::query(RENEW)
                    .bind(game_id)
                    .bind(claim)
                    .bind(until)
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
    /// ended; oldest request first, at most `limit`.
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
             ORDER BY requested_at LIMIT $2"
        );
        let rows: Vec<RawAnalysis> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(now).bind(limit).fetch_all(pool).await)?;
        rows.into_iter().map(AnalysisRow::try_from).collect()
    }
}
