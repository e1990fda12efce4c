//! Fencing: a write made for a table by the node that owns it carries the owner's lease
//! (node and epoch), and the PostgreSQL writer stores it only while `table_owners` still
//! names that node with that epoch. A node that lost its lease (frozen past it, cut off
//! from the database while another node took its tables over) can therefore not store a
//! move, so it can never acknowledge one: two owners of a table at once cannot both
//! write (docs/scaling.md).
//!
//! The fence travels with the task, not as an argument: a table actor runs inside
//! [`scope`], and every write it makes through [`super::Store::write`] picks the fence up.
//! Outside a scope writes carry none and are not checked (one node, SQLite, guests).

use std::fmt;
use std::future::Future;

/// The lease a write is made under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// The table (or tournament) id, as in `table_owners.table_id`.
    pub table: String,
    /// The owning node's id.
    pub node: String,
    /// The owner's epoch.
    pub epoch: i64,
}

tokio::task_local! {
    static FENCE: Fence;
}

/// Runs `fut` with its writes fenced by `fence`.
pub async fn scope<F: Future>(fence: Fence, fut: F) -> F::Output {
    FENCE.scope(fence, fut).await
}

/// The fence of the running task, if it runs inside [`scope`].
pub fn current() -> Option<Fence> {
    FENCE.try_with(Clone::clone).ok()
}

/// The error of a write refused because its fence no longer holds: another node owns
/// the table now (or the owner's epoch moved on).
#[derive(Debug)]
pub struct FenceBroken {
    /// The fence that was refused.
    pub fence: Fence,
}

impl fmt::Display for FenceBroken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "table {} is no longer owned by node {} at epoch {}",
            self.fence.table, self.fence.node, self.fence.epoch
        )
    }
}

impl std::error::Error for FenceBroken {}

impl FenceBroken {
    /// As the store's error type (not an outage: the breaker stays closed).
    pub fn into_sqlx(self) -> sqlx::Error {
        sqlx::Error::Decode(Box::new(self))
    }
}

/// Whether `e` is a write refused by its fence.
pub fn is_broken(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Decode(inner) if inner.is::<FenceBroken>())
}

/// Checks, inside the batch's transaction, that every fence holds; takes a share lock on
/// the rows so a hand-over or takeover cannot move them before the batch commits. Returns
/// the fences that do not hold (none: all good).
pub(super) async fn check(
    conn: &mut sqlx::PgConnection,
    fences: &[&Fence],
) -> Result<Vec<Fence>, sqlx::Error> {
    if fences.is_empty() {
        return Ok(Vec::new());
    }
    let tables: Vec<&str> = fences.iter().map(|f| f.table.as_str()).collect();
    let rows: Vec<(String, String, i64)> = sqlx::query_as(
        "SELECT table_id, node, epoch FROM table_owners WHERE table_id = ANY($1) FOR SHARE",
    )
    .bind(&tables)
    .fetch_all(conn)
    .await?;
    Ok(fences
        .iter()
        .filter(|f| {
            !rows
                .iter()
                .any(|(t, n, e)| *t == f.table && *n == f.node && *e == f.epoch)
        })
        .map(|f| (*f).clone())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fence() -> Fence {
        Fence {
            table: "t1".into(),
            node: "a".into(),
            epoch: 3,
        }
    }

    #[tokio::test]
    async fn the_fence_follows_the_task_and_only_inside_its_scope() {
        assert_eq!(current(), None);
        let seen = scope(fence(), async { current() }).await;
        assert_eq!(seen, Some(fence()));
        assert_eq!(current(), None);
    }

    #[test]
    fn a_broken_fence_is_told_apart_and_is_not_an_outage() {
        let e = FenceBroken { fence: fence() }.into_sqlx();
        assert!(is_broken(&e));
        assert!(!crate::error::is_outage(&e));
        assert!(crate::StoreError::from(FenceBroken { fence: fence() }.into_sqlx()).is_fenced());
        assert!(!is_broken(&sqlx::Error::RowNotFound));
        assert!(
            e.to_string()
                .contains("no longer owned by node a at epoch 3")
        );
    }
}
