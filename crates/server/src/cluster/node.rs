//! A node's lease loop: renew its own lease, and take over the tables of nodes whose
//! leases expired.
//!
//! Every `lease / 3` the loop renews the node's lease and then reaps ([`Leases::reap`]),
//! reporting what it took as [`NodeEvent::Took`] (the owner restores those tables from
//! the database: the restart path). Once its own lease cannot be confirmed (a refused
//! renewal: it expired or the node was marked gone; or no successful renewal for a whole
//! lease, the database being out of reach) it reports [`NodeEvent::Lost`] and ends: the
//! node must stop its tables (their writes are fenced anyway) and join again.

use std::time::{Duration, Instant};

use damka_store::lease::Owned;
use damka_store::{Leases, StoreError};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// What the lease loop tells its node.
#[derive(Debug, PartialEq, Eq)]
pub enum NodeEvent {
    /// Tables of expired nodes, now this node's (with their new epochs).
    Took(Vec<Owned>),
    /// This node's lease is gone: stop every table and join again.
    Lost,
}

/// One node's lease.
#[derive(Clone, Debug)]
pub struct Node {
    /// The node's id (`nodes.id`).
    pub id: String,
    /// The lease's length.
    pub lease: Duration,
}

impl Node {
    /// Registers node `id`, reachable at `addr`, with a lease of `lease`.
    ///
    /// Fails if the id is taken or the database is out of reach.
    pub async fn join(
        leases: &Leases,
        id: &str,
        addr: &str,
        lease: Duration,
    ) -> Result<Node, StoreError> {
        leases.register(id, addr, millis(lease)).await?;
        Ok(Node {
            id: id.to_owned(),
            lease,
        })
    }

    /// Runs the lease loop until `stop` is cancelled (then returns) or the lease is lost
    /// (then reports [`NodeEvent::Lost`] and returns).
    pub async fn run(
        &self,
        leases: &Leases,
        events: mpsc::Sender<NodeEvent>,
        stop: CancellationToken,
    ) {
        let mut tick = tokio::time::interval(self.lease / 3);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut renewed = Instant::now();
        loop {
            tokio::select! {
                () = stop.cancelled() => return,
                _ = tick.tick() => {}
            }
            match leases.renew(&self.id, millis(self.lease)).await {
                Ok(true) => renewed = Instant::now(),
                Ok(false) => {
                    tracing::warn!(node = %self.id, "the node's lease is gone");
                    let _ = events.send(NodeEvent::Lost).await;
                    return;
                }
                Err(e) => {
                    tracing::warn!(node = %self.id, error = %e, "cannot renew the node's lease");
                    if renewed.elapsed() >= self.lease {
                        let _ = events.send(NodeEvent::Lost).await;
                        return;
                    }
                    continue;
                }
            }
            match leases.reap(&self.id).await {
                Ok(reaped) if !reaped.tables.is_empty() => {
                    tracing::info!(node = %self.id, gone = ?reaped.nodes, tables = reaped.tables.len(), "taking over the tables of expired nodes");
                    if events.send(NodeEvent::Took(reaped.tables)).await.is_err() {
                        return;
                    }
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(node = %self.id, error = %e, "cannot reap expired nodes"),
            }
        }
    }
}

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}
