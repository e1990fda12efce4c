//! Guest expiry: when guests were last seen, and deleting the idle ones (never played,
//! not seen since a cutoff). Run by the periodic sweep in [`crate::limits`], directly on
//! the pool: on SQLite these short statements wait for the writer task's transaction
//! (`busy_timeout`) like any second writer would.

use super::{Store, StoreError, on_pool};

/// Ids per `UPDATE ... IN (...)` statement.
const CHUNK: usize = 500;

/// Guests not seen since the cutoff who are no player of any game and no account. The
/// computer's seats (`bot-N`, migration 0004) are never idle: games refer to them.
const IDLE: &str = "SELECT id FROM guests WHERE seen_at < $1 AND id NOT LIKE 'bot-%' \
     AND NOT EXISTS (SELECT 1 FROM games WHERE games.white_id = guests.id \
                                            OR games.black_id = guests.id) \
     AND NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.player_id = guests.id) \
     ORDER BY seen_at LIMIT $2";

/// Deletes one idle guest, checking again that it is idle.
const DELETE: &str = "DELETE FROM guests WHERE id = $1 AND seen_at < $2 \
     AND id NOT LIKE 'bot-%' AND NOT EXISTS (SELECT 1 FROM games WHERE games.white_id = guests.id \
                                            OR games.black_id = guests.id) \
     AND NOT EXISTS (SELECT 1 FROM accounts WHERE accounts.player_id = guests.id)";

impl Store {
    /// Sets `seen_at = now` for the guests in `ids`; returns how many rows changed.
    ///
    /// Fails on a database error.
    pub async fn mark_guests_seen(&self, ids: &[String], now: i64) -> Result<u64, StoreError> {
        let mut changed = 0;
        for chunk in ids.chunks(CHUNK) {
            let placeholders: Vec<String> =
                (0..chunk.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "UPDATE guests SET seen_at = $1 WHERE id IN ({})",
                placeholders.join(", ")
            );
            changed += on_pool!(self, pool => {
                let mut q = sqlx::query(&sql).bind(now);
                for id in chunk {
                    q = q.bind(id);
                }
                q.execute(pool).await.map(|r| r.rows_affected())
            })?;
        }
        Ok(changed)
    }

    /// Up to `limit` guests not seen since `cutoff` (Unix ms) who never played.
    ///
    /// Fails on a database error.
    pub async fn idle_guests(&self, cutoff: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        on_pool!(self, pool => sqlx::query_scalar::<_, String>(IDLE)
            .bind(cutoff).bind(limit).fetch_all(pool).await)
    }

    /// Deletes guest `id` if it is still idle; returns 1 if it was deleted.
    ///
    /// Fails on a database error.
    pub async fn delete_idle_guest(&self, id: &str, cutoff: i64) -> Result<u64, StoreError> {
        on_pool!(self, pool => sqlx::query(DELETE)
            .bind(id).bind(cutoff).execute(pool).await.map(|r| r.rows_affected()))
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
