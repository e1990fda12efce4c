//! Accounts: a guest that took a username and a password, and its sessions.
//!
//! A guest becomes an account in place (the account row names the guest's id), so its
//! games, seats and tournaments stay its own. A guest's own session is the token hash in
//! its `guests` row; an account's sessions (one per signed-in device) are rows of
//! `sessions`, and its `guests` row's token is retired. Everything secret is stored
//! hashed: passwords as Argon2id PHC strings (made by the server), session tokens as
//! SHA-256; neither is ever printed ([`Secret`]).

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::sessions::SessionCutoffs;
use super::write::Write;
use super::{Store, StoreError, on_pool};

/// A stored secret (a password hash, a token hash): kept out of `Debug` output, so a
/// logged write or row never shows it.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(pub String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

impl Secret {
    /// The stored text.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

/// Who a session token belongs to: a guest, or an account (with its username).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionPlayer {
    /// The player's id (the guest's, kept by the account).
    pub id: String,
    /// Display name (an account's is its username).
    pub name: String,
    /// The username of an account; `None` for a guest.
    pub username: Option<String>,
    /// When an account's session was last used (Unix ms); `None` for a guest's own
    /// token, which lives as long as the guest.
    pub used_at: Option<i64>,
}

/// An account as signing in needs it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AccountRow {
    /// The player's id.
    pub player_id: String,
    /// The username as chosen.
    pub username: String,
    /// The Argon2id PHC string.
    pub password_hash: Secret,
    /// Unix ms.
    pub created_at: i64,
    /// Disabled by the operator: no sign-in, no session works.
    pub disabled: bool,
    /// The client language it chose (a code such as `"pl"`), if any.
    pub language: Option<String>,
}

#[derive(sqlx::FromRow)]
struct RawAccount {
    player_id: String,
    username: String,
    password_hash: String,
    created_at: i64,
    disabled: i64,
    language: Option<String>,
}

impl From<RawAccount> for AccountRow {
    fn from(r: RawAccount) -> AccountRow {
        AccountRow {
            player_id: r.player_id,
            username: r.username,
            password_hash: Secret(r.password_hash),
            created_at: r.created_at,
            disabled: r.disabled != 0,
            language: r.language,
        }
    }
}

#[derive(sqlx::FromRow)]
struct RawSessionPlayer {
    id: String,
    name: String,
    username: Option<String>,
    used_at: Option<i64>,
}

/// A guest that becomes an account.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    /// The guest's id, kept.
    pub player_id: String,
    /// The username (also the new display name).
    pub username: String,
    /// The username folded for uniqueness (case and look-alikes).
    pub username_key: String,
    /// The Argon2id PHC string.
    pub password_hash: Secret,
    /// The SHA-256 of the new session's token (the guest's own token is retired).
    pub session: Secret,
    /// Unix ms.
    pub now: i64,
}

/// A change to accounts and sessions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AccountWrite {
    /// A guest becomes an account, with a first session; its guest token stops working.
    Create(NewAccount),
    /// A new session of an account (signing in).
    Session {
        /// The token's hash.
        token_hash: Secret,
        /// The account's player id.
        player_id: String,
        /// Unix ms.
        now: i64,
    },
    /// One session ends (signing out): an account's session row goes; a guest's own
    /// token is retired (the guest can no longer be reached).
    EndSession {
        /// The token's hash.
        token_hash: Secret,
    },
    /// Every session of a player ends but `keep` (signing out everywhere; after a
    /// password change, every other device).
    EndSessions {
        /// The player.
        player_id: String,
        /// The session that stays, if any.
        keep: Option<Secret>,
    },
    /// A new password; every session but `keep` ends.
    Password {
        /// The player.
        player_id: String,
        /// The new Argon2id PHC string.
        password_hash: Secret,
        /// The session that stays (the one that changed it), if any.
        keep: Option<Secret>,
    },
    /// The operator disables (every session ends) or enables an account.
    Disable {
        /// The player.
        player_id: String,
        /// Disabled or enabled.
        disabled: bool,
    },
    /// The client language an account chose (`None`: the browser's).
    Language {
        /// The player.
        player_id: String,
        /// A language code the client speaks.
        language: Option<String>,
    },
    /// Sessions were used: their `used_at` becomes `now` (the idle limit counts from
    /// it).
    TouchSessions {
        /// The sessions' token hashes.
        token_hashes: Vec<Secret>,
        /// Unix ms.
        now: i64,
    },
    /// Expired sessions go: unused since `used_before`, or made before `created_before`.
    ExpireSessions {
        /// Unix ms; sessions last used before it end.
        used_before: i64,
        /// Unix ms; sessions made before it end.
        created_before: i64,
    },
}

impl From<AccountWrite> for Write {
    fn from(write: AccountWrite) -> Write {
        Write::Account(Box::new(write))
    }
}

impl AccountWrite {
    /// Whether it takes more than one statement.
    pub(super) fn is_multi_statement(&self) -> bool {
        matches!(
            self,
            AccountWrite::Create(_)
                | AccountWrite::EndSession { .. }
                | AccountWrite::Password { .. }
                | AccountWrite::Disable { .. }
                | AccountWrite::TouchSessions { .. }
        )
    }
}

/// A retired guest token: no SHA-256 hex starts with `-`, and ids are unique.
const RETIRE_GUEST_TOKEN: &str = "UPDATE guests SET token_hash = '-' || id WHERE id = $1";

const INSERT_ACCOUNT: &str = "INSERT INTO accounts (player_id, username, username_key, \
    password_hash, created_at) VALUES ($1, $2, $3, $4, $5)";

const INSERT_SESSION: &str = "INSERT INTO sessions (token_hash, player_id, created_at, used_at) \
    VALUES ($1, $2, $3, $3)";

const END_OTHER_SESSIONS: &str =
    "DELETE FROM sessions WHERE player_id = $1 AND token_hash <> COALESCE($2, '')";

macro_rules! apply_account {
    ($write:expr, $conn:expr) => {
        match $write {
            AccountWrite::Create(a) => {
                sqlx::query(INSERT_ACCOUNT)
                    .bind(&a.player_id)
                    .bind(&a.username)
                    .bind(&a.username_key)
                    .bind(a.password_hash.expose())
                    .bind(a.now)
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query("UPDATE guests SET name = $2, seen_at = $3 WHERE id = $1")
                    .bind(&a.player_id)
                    .bind(&a.username)
                    .bind(a.now)
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query(RETIRE_GUEST_TOKEN)
                    .bind(&a.player_id)
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query(INSERT_SESSION)
                    .bind(a.session.expose())
                    .bind(&a.player_id)
                    .bind(a.now)
                    .execute(&mut *$conn)
                    .await?;
            }
            AccountWrite::Session {
                token_hash,
                player_id,
                now,
            } => {
                sqlx::query(INSERT_SESSION)
                    .bind(token_hash.expose())
                    .bind(player_id)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            AccountWrite::EndSession { token_hash } => {
                sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                    .bind(token_hash.expose())
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query("UPDATE guests SET token_hash = '-' || id WHERE token_hash = $1")
                    .bind(token_hash.expose())
                    .execute(&mut *$conn)
                    .await?;
            }
            AccountWrite::EndSessions { player_id, keep } => {
                sqlx::query(END_OTHER_SESSIONS)
                    .bind(player_id)
                    .bind(keep.as_ref().map(Secret::expose))
                    .execute(&mut *$conn)
                    .await?;
            }
            AccountWrite::Password {
                player_id,
                password_hash,
                keep,
            } => {
                sqlx::query("UPDATE accounts SET password_hash = $2 WHERE player_id = $1")
                    .bind(player_id)
                    .bind(password_hash.expose())
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query(END_OTHER_SESSIONS)
                    .bind(player_id)
                    .bind(keep.as_ref().map(Secret::expose))
                    .execute(&mut *$conn)
                    .await?;
            }
            AccountWrite::Disable {
                player_id,
                disabled,
            } => {
                sqlx::query("UPDATE accounts SET disabled = $2 WHERE player_id = $1")
                    .bind(player_id)
                    .bind(i64::from(*disabled))
                    .execute(&mut *$conn)
                    .await?;
                if *disabled {
                    sqlx::query("DELETE FROM sessions WHERE player_id = $1")
                        .bind(player_id)
                        .execute(&mut *$conn)
                        .await?;
                }
            }
            AccountWrite::Language {
                player_id,
                language,
            } => {
                sqlx::query("UPDATE accounts SET language = $2 WHERE player_id = $1")
                    .bind(player_id)
                    .bind(language.as_deref())
                    .execute(&mut *$conn)
                    .await?;
            }
            AccountWrite::TouchSessions { token_hashes, now } => {
                for hash in token_hashes {
                    sqlx::query(
                        "UPDATE sessions SET used_at = $2 WHERE token_hash = $1 AND used_at < $2",
                    )
                    .bind(hash.expose())
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
                }
            }
            AccountWrite::ExpireSessions {
                used_before,
                created_before,
            } => {
                sqlx::query("DELETE FROM sessions WHERE used_at < $1 OR created_at < $2")
                    .bind(used_before)
                    .bind(created_before)
                    .execute(&mut *$conn)
                    .await?;
            }
        }
    };
}

/// Applies an account write on a SQLite connection.
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &AccountWrite,
) -> Result<(), sqlx::Error> {
    apply_account!(write, conn);
    Ok(())
}

/// Applies an account write on a PostgreSQL connection.
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &AccountWrite,
) -> Result<(), sqlx::Error> {
    apply_account!(write, conn);
    Ok(())
}

/// Who a token belongs to: the guest whose own token it is, or the account whose session
/// it is and has not expired (unused since `$2`, or made before `$3`) (a disabled
/// account's sessions are gone, and are not honoured meanwhile).
const PLAYER_BY_TOKEN: &str = "SELECT g.id, g.name, a.username, NULL AS used_at FROM guests g \
    LEFT JOIN accounts a ON a.player_id = g.id \
    WHERE g.token_hash = $1 AND (a.disabled IS NULL OR a.disabled = 0) \
    UNION ALL \
    SELECT g.id, g.name, a.username, s.used_at FROM sessions s \
    JOIN guests g ON g.id = s.player_id \
    LEFT JOIN accounts a ON a.player_id = g.id \
    WHERE s.token_hash = $1 AND (a.disabled IS NULL OR a.disabled = 0) \
    AND s.used_at >= $2 AND s.created_at >= $3";

const ACCOUNT_COLUMNS: &str = "player_id, username, password_hash, created_at, disabled, language";

impl Store {
    /// Makes an account change (in one transaction).
    ///
    /// Fails with [`StoreError::Conflict`] when the username (folded) is taken or the
    /// player is an account already, or on a database error.
    pub async fn account_write(&self, write: AccountWrite) -> Result<(), StoreError> {
        self.write(write.into()).await
    }

    /// The player (guest or account) behind a session token's hash, if any and not
    /// expired by `cutoffs`.
    ///
    /// Fails on a database error.
    pub async fn player_by_token(
        &self,
        token_hash: &str,
        cutoffs: SessionCutoffs,
    ) -> Result<Option<SessionPlayer>, StoreError> {
        let row: Option<RawSessionPlayer> = on_pool!(self, pool => sqlx::query_as(PLAYER_BY_TOKEN)
            .bind(token_hash).bind(cutoffs.used_after).bind(cutoffs.created_after)
            .fetch_optional(pool).await)?;
        Ok(row.map(|r| SessionPlayer {
            id: r.id,
            name: r.name,
            username: r.username,
            used_at: r.used_at,
        }))
    }

    /// The account with this folded username, if any.
    ///
    /// Fails on a database error.
    pub async fn account_by_key(
        &self,
        username_key: &str,
    ) -> Result<Option<AccountRow>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE username_key = $1");
        let row: Option<RawAccount> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(username_key).fetch_optional(pool).await)?;
        Ok(row.map(AccountRow::from))
    }

    /// The account of a player, if it is one.
    ///
    /// Fails on a database error.
    pub async fn account_of(&self, player_id: &str) -> Result<Option<AccountRow>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE player_id = $1");
        let row: Option<RawAccount> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(player_id).fetch_optional(pool).await)?;
        Ok(row.map(AccountRow::from))
    }

    /// How many sessions a player has open (a guest's own token not counted).
    ///
    /// Fails on a database error.
    pub async fn session_count(&self, player_id: &str) -> Result<i64, StoreError> {
        on_pool!(self, pool => sqlx::query_scalar::<_, i64>(
            "SELECT COUNT(*) FROM sessions WHERE player_id = $1")
            .bind(player_id).fetch_one(pool).await)
    }
}
