//! Guests: an id, a display name and the SHA-256 hash of their session token.

use super::write::Write;
use super::{Store, StoreError, on_pool};

/// A stored guest.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GuestRow {
    /// Guest id.
    pub id: String,
    /// Display name.
    pub name: String,
}

impl Store {
    /// Stores a new guest.
    ///
    /// Fails on a database error (including a duplicate token hash).
    pub async fn create_guest(
        &self,
        id: &str,
        name: &str,
        token_hash: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        self.write(Write::Guest {
            id: id.to_owned(),
            name: name.to_owned(),
            token_hash: token_hash.to_owned(),
            now,
        })
        .await
    }

    /// The guest whose token hashes to `token_hash`, if any.
    pub async fn guest_by_token(&self, token_hash: &str) -> Result<Option<GuestRow>, StoreError> {
        const SQL: &str = "SELECT id, name FROM guests WHERE token_hash = $1";
        on_pool!(self, pool => sqlx::query_as::<_, GuestRow>(SQL)
            .bind(token_hash).fetch_optional(pool).await)
    }

    /// Renames a guest.
    pub async fn rename_guest(&self, id: &str, name: &str, now: i64) -> Result<(), StoreError> {
        self.write(Write::Rename {
            id: id.to_owned(),
            name: name.to_owned(),
            now,
        })
        .await
    }
}
