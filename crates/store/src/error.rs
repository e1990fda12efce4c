//! The store's one error type: what a caller needs to tell apart (an outage to wait out,
//! a write fenced out by another node's lease, a conflict with what is stored), with the
//! database's own words kept for the logs.

use std::borrow::Cow;

use sqlx::error::ErrorKind;

/// Why a store operation failed.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The database cannot take writes now (out of reach, out of space, the circuit
    /// open): the store probes it and takes writes again once it answers.
    #[error("the database is not accepting writes: {0}")]
    Unavailable(String),
    /// A write of a table (or tournament) this node no longer owns: another node holds
    /// its lease now.
    #[error("{0}")]
    Fenced(String),
    /// The write conflicts with what is stored (a second move for one ply, a name or
    /// token already taken).
    #[error("the write conflicts with what is stored: {0}")]
    Conflict(String),
    /// A stored value this version cannot read (a row another version wrote).
    #[error("a stored value cannot be read: {0}")]
    Corrupt(String),
    /// Any other database failure (a bug, most likely: the details are in the text).
    #[error("database error: {0}")]
    Database(String),
    /// Every connection of the lookups' pool ([`crate::Store::lookups`]) stayed taken
    /// for as long as a lookup may wait: try again in a moment. The game path is not
    /// affected.
    #[error("every connection for lookups is taken")]
    Busy,
}

impl StoreError {
    /// Whether the database is out (the caller waits for it rather than failing for
    /// good: see [`crate::Breaker`]).
    pub fn is_outage(&self) -> bool {
        matches!(self, StoreError::Unavailable(_))
    }

    /// Whether a lookup found the lookups' connections all taken (see
    /// [`StoreError::Busy`]).
    pub fn is_busy(&self) -> bool {
        matches!(self, StoreError::Busy)
    }

    /// Whether a write was refused because this node lost the table's lease.
    pub fn is_fenced(&self) -> bool {
        matches!(self, StoreError::Fenced(_))
    }

    /// The error of a write refused while the circuit is open.
    pub(crate) fn circuit_open() -> StoreError {
        StoreError::Unavailable("the circuit is open while the database is probed".into())
    }
}

impl From<sqlx::Error> for StoreError {
    fn from(e: sqlx::Error) -> StoreError {
        if crate::fence::is_broken(&e) {
            return StoreError::Fenced(e.to_string());
        }
        if is_outage(&e) {
            return StoreError::Unavailable(e.to_string());
        }
        if let sqlx::Error::Database(db) = &e
            && matches!(
                db.kind(),
                ErrorKind::UniqueViolation | ErrorKind::ForeignKeyViolation
            )
        {
            return StoreError::Conflict(e.to_string());
        }
        StoreError::Database(e.to_string())
    }
}

/// Whether an error means the database cannot take writes (out of reach, out of space,
/// read-only, locked, a lost connection) rather than that this one write is wrong.
/// SQLite: the primary result codes `BUSY` (5), `LOCKED` (6), `NOMEM` (7), `READONLY`
/// (8), `IOERR` (10), `FULL` (13) and `CANTOPEN` (14); PostgreSQL: SQLSTATE classes 08
/// (connection), 53 (insufficient resources), 57 (operator intervention) and 58 (system).
pub(crate) fn is_outage(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(db) => {
            if !matches!(db.kind(), ErrorKind::Other) {
                return false;
            }
            if db.try_downcast_ref::<sqlx::sqlite::SqliteError>().is_some() {
                let code = db.code().and_then(|c| c.parse::<i32>().ok()).unwrap_or(0);
                return matches!(code & 0xff, 5 | 6 | 7 | 8 | 10 | 13 | 14);
            }
            let code = db.code().unwrap_or(Cow::Borrowed(""));
            ["08", "53", "57", "58"].iter().any(|c| code.starts_with(c))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outages_are_told_from_bad_writes() {
        assert!(is_outage(&sqlx::Error::PoolTimedOut));
        assert!(!is_outage(&sqlx::Error::RowNotFound));
        assert!(StoreError::from(sqlx::Error::PoolTimedOut).is_outage());
        assert!(!StoreError::from(sqlx::Error::RowNotFound).is_outage());
        assert!(StoreError::circuit_open().is_outage());
    }
}
