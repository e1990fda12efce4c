//! Web Push: the server's VAPID key (one row, the first node to start makes it, every
//! node reads it back), the browsers' subscriptions by endpoint, and what each player wants
//! to be told.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::write::Write;
use super::{Store, StoreError, on_pool};

const KEY: &str = "INSERT INTO push_keys (id, secret, created_at) VALUES (1, $1, $2) \
    ON CONFLICT (id) DO NOTHING";

/// A subscription belongs to the player who last gave it (a browser used by another
/// account afterwards moves to that account).
const SUBSCRIBE: &str = "INSERT INTO push_subscriptions (endpoint, player_id, p256dh, auth, \
    created_at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (endpoint) DO UPDATE SET \
    player_id = excluded.player_id, p256dh = excluded.p256dh, auth = excluded.auth, \
    created_at = excluded.created_at";

const UNSUBSCRIBE: &str = "DELETE FROM push_subscriptions WHERE endpoint = $1";

const UNSUBSCRIBE_OF: &str =
    "DELETE FROM push_subscriptions WHERE endpoint = $1 AND player_id = $2";

const SETTINGS: &str = "INSERT INTO push_settings (player_id, your_turn, offers, game_end, \
    time_low) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (player_id) DO UPDATE SET \
    your_turn = excluded.your_turn, offers = excluded.offers, game_end = excluded.game_end, \
    time_low = excluded.time_low";

/// A browser's push subscription.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PushSubscriptionRow {
    /// The push service's URL for this browser.
    pub endpoint: String,
    /// Whose it is.
    pub player_id: String,
    /// The browser's P-256 public key (uncompressed, base64url).
    pub p256dh: String,
    /// Its authentication secret (16 bytes, base64url).
    pub auth: String,
}

/// What a player wants to be told (every kind, unless they turned it off).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PushSettings {
    /// It is your move.
    pub your_turn: bool,
    /// A draw offer or a takeback request.
    pub offers: bool,
    /// A game ended.
    pub game_end: bool,
    /// Your time is running low.
    pub time_low: bool,
}

impl Default for PushSettings {
    fn default() -> PushSettings {
        PushSettings {
            your_turn: true,
            offers: true,
            game_end: true,
            time_low: true,
        }
    }
}

/// A change to push data.
#[derive(Debug, Clone)]
pub enum PushWrite {
    /// The server's key, unless one is stored already.
    Key {
        /// The secret, base64url.
        secret: String,
        /// Unix ms.
        now: i64,
    },
    /// A browser subscribes (or subscribes again).
    Subscribe {
        /// The subscription.
        row: PushSubscriptionRow,
        /// Unix ms.
        now: i64,
    },
    /// A subscription ends: its owner unsubscribed (`player_id` given: only theirs), or
    /// the push service refused it (gone).
    Unsubscribe {
        /// Its endpoint.
        endpoint: String,
        /// Only if it is this player's.
        player_id: Option<String>,
    },
    /// A player's settings.
    Settings {
        /// Whose.
        player_id: String,
        /// The settings.
        settings: PushSettings,
    },
}

impl From<PushWrite> for Write {
    fn from(write: PushWrite) -> Write {
        Write::Push(Box::new(write))
    }
}

macro_rules! apply_push {
    ($conn:expr, $write:expr) => {
        match $write {
            PushWrite::Key { secret, now } => {
                sqlx::query(KEY)
                    .bind(secret)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            PushWrite::Subscribe { row, now } => {
                sqlx::query(SUBSCRIBE)
                    .bind(&row.endpoint)
                    .bind(&row.player_id)
                    .bind(&row.p256dh)
                    .bind(&row.auth)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            PushWrite::Unsubscribe {
                endpoint,
                player_id,
            } => match player_id {
                Some(player) => {
                    sqlx::query(UNSUBSCRIBE_OF)
                        .bind(endpoint)
                        .bind(player)
                        .execute(&mut *$conn)
                        .await?;
                }
                None => {
                    sqlx::query(UNSUBSCRIBE)
                        .bind(endpoint)
                        .execute(&mut *$conn)
                        .await?;
                }
            },
            PushWrite::Settings {
                player_id,
                settings,
            } => {
                sqlx::query(SETTINGS)
                    .bind(player_id)
                    .bind(i64::from(settings.your_turn))
                    .bind(i64::from(settings.offers))
                    .bind(i64::from(settings.game_end))
                    .bind(i64::from(settings.time_low))
                    .execute(&mut *$conn)
                    .await?;
            }
        }
    };
}

/// Applies a push write on SQLite.
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &PushWrite,
) -> Result<(), sqlx::Error> {
    apply_push!(conn, write);
    Ok(())
}

/// Applies a push write on PostgreSQL.
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &PushWrite,
) -> Result<(), sqlx::Error> {
    apply_push!(conn, write);
    Ok(())
}

impl Store {
    /// Makes a push change.
    ///
    /// Fails on a database error.
    pub async fn push_write(&self, write: PushWrite) -> Result<(), StoreError> {
        self.write(write.into()).await
    }

    /// The server's VAPID secret, once made.
    ///
    /// Fails on a database error.
    pub async fn push_secret(&self) -> Result<Option<String>, StoreError> {
        on_pool!(self, pool => sqlx::query_scalar("SELECT secret FROM push_keys WHERE id = 1")
            .fetch_optional(pool).await)
    }

    /// A player's subscriptions.
    ///
    /// Fails on a database error.
    pub async fn push_subscriptions(
        &self,
        player_id: &str,
    ) -> Result<Vec<PushSubscriptionRow>, StoreError> {
        on_pool!(self, pool => sqlx::query_as(
            "SELECT endpoint, player_id, p256dh, auth FROM push_subscriptions \
             WHERE player_id = $1 ORDER BY created_at")
            .bind(player_id).fetch_all(pool).await)
    }

    /// A player's settings (every kind on until they change them).
    ///
    /// Fails on a database error.
    pub async fn push_settings(&self, player_id: &str) -> Result<PushSettings, StoreError> {
        let row: Option<(i64, i64, i64, i64)> = on_pool!(self, pool => sqlx::query_as(
            "SELECT your_turn, offers, game_end, time_low FROM push_settings WHERE player_id = $1")
            .bind(player_id).fetch_optional(pool).await)?;
        Ok(
            row.map_or_else(PushSettings::default, |(t, o, e, l)| PushSettings {
                your_turn: t != 0,
                offers: o != 0,
                game_end: e != 0,
                time_low: l != 0,
            }),
        )
    }
}
