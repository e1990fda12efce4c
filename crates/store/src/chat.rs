//! Chat messages of rooms and tables: every message is stored before it is broadcast,
//! and the last ones of a room or table are read back for its history.

use super::write::Write;
use super::{ClockRow, Store, StoreError, on_pool};

/// A stored chat message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatRow {
    /// Message id.
    pub id: String,
    /// `room:<id>` or `table:<id>`.
    pub scope: String,
    /// Sender's guest id.
    pub from_id: String,
    /// Sender's name as shown when sent.
    pub from_name: String,
    /// The text.
    pub text: String,
    /// A spectator's table message during a game (players do not see it).
    pub spectators: bool,
    /// Unix ms.
    pub at: i64,
}

/// A chat row as the database holds it.
#[derive(sqlx::FromRow)]
struct RawChat {
    id: String,
    scope: String,
    from_id: String,
    from_name: String,
    text: String,
    spectators: i64,
    at: i64,
}

impl From<RawChat> for ChatRow {
    fn from(r: RawChat) -> ChatRow {
        ChatRow {
            id: r.id,
            scope: r.scope,
            from_id: r.from_id,
            from_name: r.from_name,
            text: r.text,
            spectators: r.spectators != 0,
            at: r.at,
        }
    }
}

impl Store {
    /// Stores a chat message; durable when this returns `Ok`.
    ///
    /// Fails on a database error (and at once during an outage).
    pub async fn save_chat(&self, row: &ChatRow) -> Result<(), StoreError> {
        self.write(Write::Chat(Box::new(row.clone()))).await
    }

    /// Keeps chat bounded: deletes messages older than `before` (Unix ms) and all but the
    /// last `keep` of every room and table.
    ///
    /// Fails on a database error.
    pub async fn prune_chat(&self, keep: i64, before: i64) -> Result<(), StoreError> {
        self.write(Write::PruneChat { keep, before }).await
    }

    /// Deletes a closed table's chat.
    ///
    /// Fails on a database error.
    pub async fn clear_chat(&self, scope: &str) -> Result<(), StoreError> {
        self.write(Write::ClearChat {
            scope: scope.to_owned(),
        })
        .await
    }

    /// Messages stored in a scope.
    ///
    /// Fails on a database error.
    pub async fn chat_count(&self, scope: &str) -> Result<i64, StoreError> {
        Ok(
            on_pool!(self, pool => sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM chat WHERE scope = $1")
            .bind(scope).fetch_one(pool).await)?,
        )
    }

    /// The last `limit` messages of a scope, oldest first.
    ///
    /// Fails on a database error.
    pub async fn chat_history(&self, scope: &str, limit: i64) -> Result<Vec<ChatRow>, StoreError> {
        const SQL: &str = "SELECT id, scope, from_id, from_name, text, spectators, at FROM chat \
                           WHERE scope = $1 ORDER BY seq DESC LIMIT $2";
        let mut rows = on_pool!(self, pool => sqlx::query_as::<_, RawChat>(SQL)
            .bind(scope).bind(limit).fetch_all(pool).await)?;
        rows.reverse();
        Ok(rows.into_iter().map(ChatRow::from).collect())
    }

    /// Takes back the last moves of a running game: deletes the moves after
    /// `clock.ply` and sets the stored clock to `clock` (the times after the remaining
    /// last move), clearing the draw offer and any conditional moves, in one transaction.
    ///
    /// Fails on a database error; nothing changes then.
    pub async fn take_back(&self, game_id: &str, clock: ClockRow) -> Result<(), StoreError> {
        self.write(Write::Takeback {
            game_id: game_id.to_owned(),
            clock,
        })
        .await
    }
}
