//! Sessions as a running server watches them: which of the sessions its sockets were
//! opened with still hold (a session ends by signing out, a password change, the
//! operator, or expiry, possibly in another process or on another node), and the limits
//! that make one expire.

use super::{Store, StoreError, on_pool};

/// When a session counts as expired: an account's session last used before
/// `used_after` or made before `created_after` no longer resolves (a guest's own token
/// does not expire: the guest sweep deletes idle guests).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionCutoffs {
    /// Unix ms; `i64::MIN` for no idle limit.
    pub used_after: i64,
    /// Unix ms; `i64::MIN` for no absolute limit.
    pub created_after: i64,
}

impl SessionCutoffs {
    /// No limit at all.
    pub const NONE: SessionCutoffs = SessionCutoffs {
        used_after: i64::MIN,
        created_after: i64::MIN,
    };
}

/// A session that still holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LiveSession {
    /// Its token's hash.
    pub token_hash: String,
    /// When an account's session was last used; `None` for a guest's own token.
    pub used_at: Option<i64>,
}

#[derive(sqlx::FromRow)]
struct RawLive {
    token_hash: String,
    used_at: Option<i64>,
}

/// Hashes asked about in one query.
const CHUNK: usize = 400;

impl Store {
    /// Which of these token hashes still resolve to a player (as
    /// [`Store::player_by_token`] would, with the same cutoffs): a guest's own token,
    /// or an unexpired session of an enabled account.
    ///
    /// Fails on a database error.
    pub async fn live_sessions(
        &self,
        token_hashes: &[String],
        cutoffs: SessionCutoffs,
    ) -> Result<Vec<LiveSession>, StoreError> {
        let mut live = Vec::with_capacity(token_hashes.len());
        for chunk in token_hashes.chunks(CHUNK) {
            let list = (0..chunk.len())
                .map(|i| format!("${}", i + 3))
                .collect::<Vec<_>>()
                .join(", ");
            let sql = format!(
                "SELECT g.token_hash, NULL AS used_at FROM guests g \
                 LEFT JOIN accounts a ON a.player_id = g.id \
                 WHERE g.token_hash IN ({list}) AND (a.disabled IS NULL OR a.disabled = 0) \
                 UNION ALL \
                 SELECT s.token_hash, s.used_at FROM sessions s \
                 JOIN accounts a ON a.player_id = s.player_id \
                 WHERE s.token_hash IN ({list}) AND a.disabled = 0 \
                 AND s.used_at >= $1 AND s.created_at >= $2"
            );
            let rows: Vec<RawLive> = on_pool!(self, pool => {
                let mut q = sqlx::query_as(&sql)
                    .bind(cutoffs.used_after)
                    .bind(cutoffs.created_after);
                for hash in chunk {
                    q = q.bind(hash);
                }
                q.fetch_all(pool).await
            })?;
            live.extend(rows.into_iter().map(|r| LiveSession {
                token_hash: r.token_hash,
                used_at: r.used_at,
            }));
        }
        Ok(live)
    }
}
