//! Guest expiry: when guests were last seen, and deleting the idle ones (never played,
//! not seen since a cutoff). Run by the periodic sweep (`crate::sweep` of the server).
//!
//! Both changes go through the group-commit writer in small batches ([`SEEN_BATCH`],
//! [`EXPIRE_BATCH`] guests a write), so each is one short statement inside a transaction
//! with whatever moves are waiting, and the moves that come while the sweep runs go into
//! the transactions between its batches: the sweep never holds the writer (nor, on
//! SQLite, competes with it for the write lock). The reads that find the idle guests walk
//! the guests not seen since the cutoff in (seen_at, id) order, a bounded page at a time,
//! each guest checked through the indexes of games by player (migration 0010): linear in
//! the guests, whatever the number of games.

use super::games::placeholders;
use super::write::Write;
use super::{Store, StoreError, on_pool};

/// Guests whose seen time one write sets.
pub const SEEN_BATCH: usize = 200;

/// Guests one write deletes at most.
pub const EXPIRE_BATCH: usize = 100;

/// Whether `guests` (the row in the statement) is idle: no game as either colour, no
/// account; the computer's seats (`bot-N`, migration 0004) never are (games refer to
/// them). Each test is one probe of an index.
const IDLE: &str = "id NOT LIKE 'bot-%' \
     AND NOT EXISTS (SELECT 1 FROM games WHERE games.white_id = guests.id) \
     AND NOT EXISTS (SELECT 1 FROM games WHERE games.black_id = guests.id) \
     AND NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.player_id = guests.id)";

/// One guest not seen since the cutoff, as a page of the sweep reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnseenGuest {
    /// The guest's id.
    pub id: String,
    /// When it was last seen, Unix ms (with the id, where the next page starts).
    pub seen_at: i64,
    /// Whether it is idle: never played, no account, not the computer.
    pub idle: bool,
}

/// A page of the guests not seen since `$1`, from after (`$2`, `$3`), `$4` of them.
pub(crate) fn unseen_sql() -> String {
    format!(
        "SELECT id, seen_at, CASE WHEN {IDLE} THEN 1 ELSE 0 END AS idle FROM guests \
         WHERE seen_at < $1 AND seen_at >= $2 AND (seen_at > $2 OR id > $3) \
         ORDER BY seen_at, id LIMIT $4"
    )
}

/// The statement of a [`Write::GuestsSeen`] of `n` guests (`$1` the time).
pub(crate) fn seen_sql(n: usize) -> String {
    format!(
        "UPDATE guests SET seen_at = $1 WHERE id IN ({})",
        placeholders(2, n)
    )
}

/// The statement of a [`Write::ExpireGuests`] of `n` guests (`$1` the cutoff): each is
/// checked again in the `DELETE` itself, so a guest who played or signed up since the
/// page was read stays.
pub(crate) fn expire_sql(n: usize) -> String {
    format!(
        "DELETE FROM guests WHERE id IN ({}) AND seen_at < $1 AND {IDLE}",
        placeholders(2, n)
    )
}

impl Store {
    /// Sets `seen_at = now` for the guests in `ids`, [`SEEN_BATCH`] a write; returns how
    /// many ids were written (an id of no guest changes nothing).
    ///
    /// Fails on a database error.
    pub async fn mark_guests_seen(&self, ids: &[String], now: i64) -> Result<u64, StoreError> {
        for chunk in ids.chunks(SEEN_BATCH) {
            self.write(Write::GuestsSeen {
                ids: chunk.to_vec(),
                now,
            })
            .await?;
        }
        Ok(ids.len() as u64)
    }

    /// Up to `limit` guests not seen since `cutoff` (Unix ms), in (seen_at, id) order
    /// from after `after` (the last one of the previous page), each with whether it is
    /// idle. A page reads `limit` guests whatever their games.
    ///
    /// Fails on a database error.
    pub async fn unseen_guests(
        &self,
        cutoff: i64,
        after: Option<&UnseenGuest>,
        limit: i64,
    ) -> Result<Vec<UnseenGuest>, StoreError> {
        let sql = unseen_sql();
        let (seen, id) = after.map_or((i64::MIN, ""), |g| (g.seen_at, g.id.as_str()));
        let rows: Vec<(String, i64, i32)> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(cutoff).bind(seen).bind(id).bind(limit).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|(id, seen_at, idle)| UnseenGuest {
                id,
                seen_at,
                idle: idle != 0,
            })
            .collect())
    }

    /// Deletes those of `ids` (at most [`EXPIRE_BATCH`] a call is best: one write) that
    /// are still idle and unseen since `cutoff`; returns how many went.
    ///
    /// Fails on a database error.
    pub async fn expire_guests(&self, ids: &[String], cutoff: i64) -> Result<u64, StoreError> {
        let mut expired = 0;
        for chunk in ids.chunks(EXPIRE_BATCH) {
            self.write(Write::ExpireGuests {
                ids: chunk.to_vec(),
                cutoff,
            })
            .await?;
            let sql = format!(
                "SELECT COUNT(*) FROM guests WHERE id IN ({})",
                placeholders(1, chunk.len())
            );
            let left: i64 = on_pool!(self, pool => {
                let mut q = sqlx::query_scalar::<_, i64>(&sql);
                for id in chunk {
                    q = q.bind(id);
                }
                q.fetch_one(pool).await
            })?;
            expired += (chunk.len() as u64).saturating_sub(u64::try_from(left).unwrap_or(0));
        }
        Ok(expired)
    }

    /// Number of stored guests (people: the computer's seats are not counted).
    ///
    /// Fails on a database error.
    pub async fn guest_count(&self) -> Result<i64, StoreError> {
        on_pool!(self, pool => sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM guests WHERE id NOT LIKE 'bot-%'",
        )
            .fetch_one(pool).await)
    }
}
