//! Guests: an id, a display name and the SHA-256 hash of their session token (read with
//! an account's sessions: [`crate::Store::player_by_token`]).

use super::write::Write;
use super::{Store, StoreError};

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
