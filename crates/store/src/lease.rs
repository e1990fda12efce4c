//! Leases in PostgreSQL: each node's (`nodes`), renewed by heartbeat, and the one owner
//! of each table (`table_owners`), with the epoch that fences the owner's writes
//! ([`crate::fence`]).
//!
//! Every time is the database's clock (`clock_timestamp()`, in milliseconds), never a
//! node's, so nodes with skewed clocks still agree on who has expired. A node's lease is
//! safe to trust only as a hint: a node frozen past its lease may still believe it owns
//! its tables, which is why writes are fenced rather than the lease being relied on.

use sqlx::PgPool;

use crate::StoreError;

/// The database's clock in milliseconds since the epoch.
const NOW_MS: &str = "(EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT";

/// A table (or tournament) and its owner's epoch.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow, serde::Serialize, serde::Deserialize)]
pub struct Owned {
    /// `table_owners.table_id`.
    pub table_id: String,
    /// The room it belongs to.
    pub room: String,
    /// The owner's epoch.
    pub epoch: i64,
}

/// The cluster's leases, in the shared PostgreSQL.
#[derive(Clone, Debug)]
pub struct Leases {
    pool: PgPool,
}

impl Leases {
    pub(crate) fn new(pool: PgPool) -> Leases {
        Leases { pool }
    }

    /// Registers node `node` (reachable at `addr`) with a lease of `lease_ms`.
    ///
    /// Fails if the id is taken (ids carry a random part) or on a database error.
    pub async fn register(&self, node: &str, addr: &str, lease_ms: i64) -> Result<(), StoreError> {
        Ok(register(&self.pool, node, addr, lease_ms).await?)
    }

    /// Extends `node`'s lease by `lease_ms` from now; `false` once the lease has expired or
    /// the node was marked gone (its tables may have been taken: it must stop them).
    ///
    /// Fails on a database error.
    pub async fn renew(&self, node: &str, lease_ms: i64) -> Result<bool, StoreError> {
        Ok(renew(&self.pool, node, lease_ms).await?)
    }

    /// Marks `node` as stopping (it hands its tables over; no new ones go to it).
    ///
    /// Fails on a database error.
    pub async fn leaving(&self, node: &str) -> Result<(), StoreError> {
        Ok(leaving(&self.pool, node).await?)
    }

    /// Marks `node` as gone (it stopped, or its lease expired and its tables were taken).
    ///
    /// Fails on a database error.
    pub async fn gone(&self, node: &str) -> Result<(), StoreError> {
        Ok(gone(&self.pool, node).await?)
    }

    /// The live nodes other than `me` whose leases hold, by id.
    ///
    /// Fails on a database error.
    pub async fn live_peers(&self, me: &str) -> Result<Vec<String>, StoreError> {
        Ok(live_peers(&self.pool, me).await?)
    }

    /// Makes `node` the first owner of a new table; returns its epoch (1).
    ///
    /// Fails if the table has an owner already.
    pub async fn claim_new(&self, node: &str, table: &str, room: &str) -> Result<i64, StoreError> {
        Ok(claim_new(&self.pool, node, table, room).await?)
    }

    /// The owner of `table` and its epoch, if it has one.
    ///
    /// Fails on a database error.
    pub async fn owner(&self, table: &str) -> Result<Option<(String, i64)>, StoreError> {
        Ok(owner(&self.pool, table).await?)
    }

    /// The room of an owned table, if it has an owner.
    ///
    /// Fails on a database error.
    pub async fn room_of(&self, table: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query_scalar::<_, String>("SELECT room FROM table_owners WHERE table_id = $1")
                .bind(table)
                .fetch_optional(&self.pool)
                .await?,
        )
    }

    /// The tables `node` owns.
    ///
    /// Fails on a database error.
    pub async fn owned(&self, node: &str) -> Result<Vec<Owned>, StoreError> {
        Ok(owned(&self.pool, node).await?)
    }

    /// Drops `node`'s ownership of a closed table; `false` if it was not the owner.
    ///
    /// Fails on a database error.
    pub async fn release(&self, node: &str, table: &str) -> Result<bool, StoreError> {
        Ok(release(&self.pool, node, table).await?)
    }

    /// Moves `table` from `from` to `to` with a new epoch (a graceful hand-over); returns
    /// the new epoch, or `None` if `from` was not the owner.
    ///
    /// Fails on a database error.
    pub async fn hand_over(
        &self,
        from: &str,
        table: &str,
        to: &str,
    ) -> Result<Option<i64>, StoreError> {
        Ok(hand_over(&self.pool, from, table, to).await?)
    }

    /// Makes `node` the owner of every unfinished game's table and every tournament not
    /// over that has no owner (stored by a single-node server, or whose claim failed);
    /// returns them with their epochs.
    ///
    /// Fails on a database error.
    pub async fn adopt(&self, node: &str) -> Result<Vec<Owned>, StoreError> {
        Ok(adopt(&self.pool, node).await?)
    }

    /// Marks every other node whose lease expired as gone and takes over for `me` the
    /// tables of every gone node (those that just expired, and those of nodes that stopped
    /// with nobody to hand their tables to), in one transaction (so two reaping nodes never
    /// both take a table). Takes nothing unless `me`'s own lease holds: a node that lapsed
    /// itself must not reap.
    ///
    /// Fails on a database error.
    pub async fn reap(&self, me: &str) -> Result<Reaped, StoreError> {
        Ok(reap(&self.pool, me).await?)
    }
}

/// Registers node `node` (reachable at `addr`) with a lease of `lease_ms`.
///
/// Fails if the id is taken (ids carry a random part) or on a database error.
async fn register(pool: &PgPool, node: &str, addr: &str, lease_ms: i64) -> sqlx::Result<()> {
    sqlx::query(&format!(
        "INSERT INTO nodes (id, addr, started_at, expires_at, state) \
         VALUES ($1, $2, {NOW_MS}, {NOW_MS} + $3, 'live')"
    ))
    .bind(node)
    .bind(addr)
    .bind(lease_ms)
    .execute(pool)
    .await?;
    Ok(())
}

/// Extends `node`'s lease by `lease_ms` from now; `false` once the lease has expired or
/// the node was marked gone (its tables may have been taken: it must stop them).
async fn renew(pool: &PgPool, node: &str, lease_ms: i64) -> sqlx::Result<bool> {
    let done = sqlx::query(&format!(
        "UPDATE nodes SET expires_at = {NOW_MS} + $2 \
         WHERE id = $1 AND state <> 'gone' AND expires_at > {NOW_MS}"
    ))
    .bind(node)
    .bind(lease_ms)
    .execute(pool)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Marks `node` as stopping (it hands its tables over; no new ones go to it).
async fn leaving(pool: &PgPool, node: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE nodes SET state = 'leaving' WHERE id = $1 AND state = 'live'")
        .bind(node)
        .execute(pool)
        .await?;
    Ok(())
}

/// Marks `node` as gone (it stopped, or its lease expired and its tables were taken).
async fn gone(pool: &PgPool, node: &str) -> sqlx::Result<()> {
    sqlx::query("UPDATE nodes SET state = 'gone' WHERE id = $1")
        .bind(node)
        .execute(pool)
        .await?;
    Ok(())
}

/// The live nodes other than `me` whose leases hold, by id.
async fn live_peers(pool: &PgPool, me: &str) -> sqlx::Result<Vec<String>> {
    sqlx::query_scalar(&format!(
        "SELECT id FROM nodes WHERE id <> $1 AND state = 'live' AND expires_at > {NOW_MS} \
         ORDER BY id"
    ))
    .bind(me)
    .fetch_all(pool)
    .await
}

/// Makes `node` the first owner of a new table; returns its epoch (1).
///
/// Fails if the table has an owner already.
async fn claim_new(pool: &PgPool, node: &str, table: &str, room: &str) -> sqlx::Result<i64> {
    sqlx::query_scalar(
        "INSERT INTO table_owners (table_id, room, node, epoch) VALUES ($1, $2, $3, 1) \
         RETURNING epoch",
    )
    .bind(table)
    .bind(room)
    .bind(node)
    .fetch_one(pool)
    .await
}

/// The owner of `table` and its epoch, if it has one.
async fn owner(pool: &PgPool, table: &str) -> sqlx::Result<Option<(String, i64)>> {
    sqlx::query_as("SELECT node, epoch FROM table_owners WHERE table_id = $1")
        .bind(table)
        .fetch_optional(pool)
        .await
}

/// The tables `node` owns.
async fn owned(pool: &PgPool, node: &str) -> sqlx::Result<Vec<Owned>> {
    sqlx::query_as(
        "SELECT table_id, room, epoch FROM table_owners WHERE node = $1 ORDER BY table_id",
    )
    .bind(node)
    .fetch_all(pool)
    .await
}

/// Drops `node`'s ownership of a closed table; `false` if it was not the owner.
async fn release(pool: &PgPool, node: &str, table: &str) -> sqlx::Result<bool> {
    let done = sqlx::query("DELETE FROM table_owners WHERE table_id = $1 AND node = $2")
        .bind(table)
        .bind(node)
        .execute(pool)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Moves `table` from `from` to `to` with a new epoch (a graceful hand-over); returns
/// the new epoch, or `None` if `from` was not the owner.
async fn hand_over(pool: &PgPool, from: &str, table: &str, to: &str) -> sqlx::Result<Option<i64>> {
    sqlx::query_scalar(
        "UPDATE table_owners SET node = $3, epoch = epoch + 1 \
         WHERE table_id = $1 AND node = $2 RETURNING epoch",
    )
    .bind(table)
    .bind(from)
    .bind(to)
    .fetch_optional(pool)
    .await
}

/// Makes `node` the owner of every unfinished game's table and every tournament not
/// over that has no owner (stored by a single-node server, or whose claim failed);
/// returns them with their epochs.
async fn adopt(pool: &PgPool, node: &str) -> sqlx::Result<Vec<Owned>> {
    let mut tx = pool.begin().await?;
    let mut taken: Vec<Owned> = sqlx::query_as(
        "INSERT INTO table_owners (table_id, room, node, epoch) \
         SELECT DISTINCT ON (table_id) table_id, room, $1, 1 FROM games \
         WHERE status = 'playing' \
           AND NOT EXISTS (SELECT 1 FROM table_owners o WHERE o.table_id = games.table_id) \
         ON CONFLICT (table_id) DO NOTHING RETURNING table_id, room, epoch",
    )
    .bind(node)
    .fetch_all(&mut *tx)
    .await?;
    let tournaments: Vec<Owned> = sqlx::query_as(
        "INSERT INTO table_owners (table_id, room, node, epoch) \
         SELECT id, room, $1, 1 FROM tournaments \
         WHERE status <> 'over' \
           AND NOT EXISTS (SELECT 1 FROM table_owners o WHERE o.table_id = tournaments.id) \
         ON CONFLICT (table_id) DO NOTHING RETURNING table_id, room, epoch",
    )
    .bind(node)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    taken.extend(tournaments);
    taken.sort_by(|a, b| a.table_id.cmp(&b.table_id));
    Ok(taken)
}

/// What [`Leases::reap`] took.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Reaped {
    /// The nodes whose leases had expired, now marked gone.
    pub nodes: Vec<String>,
    /// Their tables, now `me`'s, each with its new epoch.
    pub tables: Vec<Owned>,
}

/// Marks every other node whose lease expired as gone and takes over for `me` the
/// tables of every gone node (those that just expired, and those of nodes that stopped
/// with nobody to hand their tables to), in one transaction (so two reaping nodes never
/// both take a table). Takes nothing unless `me`'s own lease holds: a node that lapsed
/// itself must not reap.
async fn reap(pool: &PgPool, me: &str) -> sqlx::Result<Reaped> {
    let mut tx = pool.begin().await?;
    let alive: Option<String> = sqlx::query_scalar(&format!(
        "SELECT id FROM nodes WHERE id = $1 AND state = 'live' AND expires_at > {NOW_MS} \
         FOR UPDATE"
    ))
    .bind(me)
    .fetch_optional(&mut *tx)
    .await?;
    if alive.is_none() {
        return Ok(Reaped::default());
    }
    let nodes: Vec<String> = sqlx::query_scalar(&format!(
        "UPDATE nodes SET state = 'gone' \
         WHERE id <> $1 AND state <> 'gone' AND expires_at <= {NOW_MS} RETURNING id"
    ))
    .bind(me)
    .fetch_all(&mut *tx)
    .await?;
    let mut tables: Vec<Owned> = sqlx::query_as(
        "UPDATE table_owners SET node = $1, epoch = epoch + 1 \
         WHERE node IN (SELECT id FROM nodes WHERE id <> $1 AND state = 'gone') \
         RETURNING table_id, room, epoch",
    )
    .bind(me)
    .fetch_all(&mut *tx)
    .await?;
    tx.commit().await?;
    tables.sort_by(|a, b| a.table_id.cmp(&b.table_id));
    Ok(Reaped { nodes, tables })
}
