//! Leases wired to tables and tournaments: the cluster is where their actors run
//! ([`Leased`], a [`Placement`]).
//!
//! - A new table (or tournament) is claimed by the node that creates it before its actor
//!   runs; the actor then runs inside its fence ([`damka_store::fence::scope`]), so every
//!   write it makes is refused once another node owns it.
//! - A closed table's lease is released.
//! - Tables taken over (from an expired node, by the lease loop; or handed over by a node
//!   that stops) come back through the restart path: the game is replayed from the store
//!   with every acknowledged move, and its clock is held until both players are back.
//! - A node that stops hands everything it owns to one live peer (tournaments stay with
//!   their tables), after its actors stored their clocks; the peer is told over NATS and
//!   restores them at once.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Arc;

use futures_util::StreamExt;
use futures_util::future::BoxFuture;
use serde::{Deserialize, Serialize};

use super::{Cluster, NodeEvent};
use crate::placement::{Actor, Placement};
use crate::table::{Command, Tables};
use crate::tournament::{self, Tournaments};
use damka_store::fence::{self, Fence};
use damka_store::lease::Owned;

/// What this node runs, as the cluster sees it: the tables and tournaments it places,
/// restores and hands over.
#[derive(Clone)]
pub struct Local {
    /// The tables.
    pub tables: Arc<Tables>,
    /// The tournaments.
    pub tournaments: Arc<Tournaments>,
}

/// The cluster as the place actors run in: each table or tournament actor runs as the
/// owner of its lease ([`Placement`]).
pub struct Leased(pub Arc<Cluster>);

impl Placement<Command> for Leased {
    /// Claims the table if new, starts the NATS bridge for sockets on other nodes, and
    /// runs the actor inside its fence.
    fn run(&self, actor: Actor<Command>) -> BoxFuture<'static, ()> {
        let cluster = self.0.clone();
        Box::pin(async move {
            let epoch = claim(&cluster, &actor.id, &actor.room, actor.epoch).await;
            tokio::spawn(super::link::bridge(
                cluster.clone(),
                actor.id.clone(),
                actor.commands,
            ));
            run_fenced(&cluster, actor.id, epoch, actor.run).await;
        })
    }

    fn release(&self, id: &str) {
        release(&self.0, id);
    }
}

impl Placement<tournament::Command> for Leased {
    /// Claims the tournament if new, answers the actions asked on other nodes, and runs
    /// the actor inside its fence.
    fn run(&self, actor: Actor<tournament::Command>) -> BoxFuture<'static, ()> {
        let cluster = self.0.clone();
        Box::pin(async move {
            let epoch = claim(&cluster, &actor.id, &actor.room, actor.epoch).await;
            tokio::spawn(super::tournaments::bridge(
                cluster.clone(),
                actor.id.clone(),
                actor.commands,
            ));
            run_fenced(&cluster, actor.id, epoch, actor.run).await;
        })
    }

    fn release(&self, id: &str) {
        release(&self.0, id);
    }
}

/// The epoch to run at: the lease held already, or a new one claimed now.
async fn claim(cluster: &Cluster, id: &str, room: &str, epoch: Option<i64>) -> Option<i64> {
    if epoch.is_some() {
        return epoch;
    }
    match cluster.leases.claim_new(cluster.id(), id, room).await {
        Ok(epoch) => Some(epoch),
        Err(e) => {
            // Runs unfenced: nobody else can own an id this node just made up, and a
            // game it stores without an owner is adopted at the next start.
            tracing::error!(error = %e, id, "cannot claim a new table; running it unfenced");
            None
        }
    }
}

async fn run_fenced(
    cluster: &Cluster,
    id: String,
    epoch: Option<i64>,
    run: impl Future<Output = ()>,
) {
    match epoch {
        Some(epoch) => {
            let fence = Fence {
                table: id,
                node: cluster.id().to_owned(),
                epoch,
            };
            fence::scope(fence, run).await;
        }
        None => run.await,
    }
}

/// Releases the lease of a table that closed (in the background).
fn release(cluster: &Arc<Cluster>, table: &str) {
    let cluster = cluster.clone();
    let table = table.to_owned();
    tokio::spawn(async move {
        if let Err(e) = cluster.leases.release(cluster.id(), &table).await {
            tracing::warn!(error = %e, %table, "cannot release a closed table's lease");
        }
    });
}

/// Restores tables and tournaments now owned by this node; returns how many came back.
pub async fn restore(local: &Local, cluster: &Cluster, owned: Vec<Owned>) -> usize {
    if owned.is_empty() {
        return 0;
    }
    let (tournaments, tables): (Vec<Owned>, Vec<Owned>) =
        owned.into_iter().partition(|o| o.table_id.starts_with('u'));
    let mut restored = 0;
    // Tournaments first: a restored table whose game ends reports to its tournament.
    for t in &tournaments {
        match tournament::restore_one(&local.tournaments, &t.table_id, t.epoch).await {
            Ok(true) => restored += 1,
            Ok(false) => release_now(cluster, &t.table_id).await,
            Err(e) => {
                tracing::error!(error = %e, tournament = %t.table_id, "cannot restore a tournament taken over")
            }
        }
    }
    let epochs: HashMap<String, i64> = tables
        .iter()
        .map(|o| (o.table_id.clone(), o.epoch))
        .collect();
    match crate::table::restore_owned(&local.tables, &epochs).await {
        Ok((n, idle)) => {
            restored += n;
            // Tables without a game to resume (none started, or it ended) have nothing
            // to restore: their leases go.
            for table in idle {
                release_now(cluster, &table).await;
            }
        }
        Err(e) => tracing::error!(error = %e, "cannot restore tables taken over"),
    }
    restored
}

async fn release_now(cluster: &Cluster, id: &str) {
    if let Err(e) = cluster.leases.release(cluster.id(), id).await {
        tracing::warn!(error = %e, id, "cannot release a lease");
    }
}

/// A message on `{prefix}.n.{node}`: orders for one node.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
enum Order {
    /// These are yours now (handed over by a node that stops).
    Take {
        /// From which node.
        from: String,
        /// What, with the new epochs.
        owned: Vec<Owned>,
    },
}

/// Acts on the node's lease loop (started at the join): tables taken over are restored; a lost
/// lease stops the node. Also takes the tables handed to this node over NATS.
pub async fn run(local: Local, cluster: Arc<Cluster>) {
    let Some(mut events) = cluster.take_events() else {
        tracing::error!("the lease loop's reports are taken already");
        return;
    };
    let mut orders = match cluster
        .nats
        .subscribe(cluster.subject(&format!("n.{}", cluster.id())))
        .await
    {
        Ok(sub) => Some(sub),
        Err(e) => {
            tracing::error!(error = %e, "cannot subscribe to the node's orders");
            None
        }
    };
    loop {
        tokio::select! {
            () = cluster.stop.cancelled() => break,
            event = events.recv() => match event {
                Some(NodeEvent::Took(owned)) => {
                    let n = owned.len();
                    let restored = restore(&local, &cluster, owned).await;
                    cluster.metrics.taken_over.inc_by(restored as u64);
                    tracing::info!(taken = n, restored, "took over the tables of a node gone");
                }
                Some(NodeEvent::Lost) => {
                    tracing::error!("this node's lease is lost: its tables belong to other nodes now; stopping");
                    cluster.set_lost();
                    local.tables.core().shutdown.cancel();
                    break;
                }
                None => break,
            },
            msg = async { match orders.as_mut() { Some(o) => o.next().await, None => std::future::pending().await } } => {
                let Some(msg) = msg else { break };
                match serde_json::from_slice::<Order>(&msg.payload) {
                    Ok(Order::Take { from, owned }) => {
                        let n = owned.len();
                        let restored = restore(&local, &cluster, owned).await;
                        cluster.metrics.taken_over.inc_by(restored as u64);
                        tracing::info!(%from, handed = n, restored, "took the tables of a node that stopped");
                    }
                    Err(e) => tracing::warn!(error = %e, "bad order"),
                }
            }
        }
    }
}

/// A graceful stop's last step, once every actor stored its clock: hands all this node
/// owns to one live peer (telling it over NATS), or, with no peer, leaves it for the
/// next node that starts; then marks the node gone.
pub async fn hand_over(cluster: &Cluster) {
    let me = cluster.id();
    let result: Result<(), damka_store::StoreError> = async {
        let owned = cluster.leases.owned(me).await?;
        let peers = cluster.leases.live_peers(me).await?;
        let to = peers.iter().find(|p| cluster.alive(p)).or(peers.first());
        match to {
            Some(to) if !owned.is_empty() => {
                let mut moved = Vec::with_capacity(owned.len());
                for o in owned {
                    if let Some(epoch) = cluster.leases.hand_over(me, &o.table_id, to).await? {
                        moved.push(Owned { epoch, ..o });
                    }
                }
                tracing::info!(to = %to, tables = moved.len(), "handing the tables over");
                let order = Order::Take {
                    from: me.to_owned(),
                    owned: moved,
                };
                match serde_json::to_vec(&order) {
                    Ok(bytes) => {
                        if let Err(e) = cluster
                            .nats
                            .publish(cluster.subject(&format!("n.{to}")), bytes.into())
                            .await
                        {
                            // The peer's reaping takes them anyway (the node is gone).
                            tracing::warn!(error = %e, "cannot tell the peer to take the tables");
                        }
                    }
                    Err(e) => tracing::error!(error = %e, "cannot serialise the hand-over"),
                }
            }
            Some(_) => {}
            None if owned.is_empty() => {}
            None => tracing::info!(
                tables = owned.len(),
                "no live peer: the tables wait for the next node"
            ),
        }
        cluster.leases.gone(me).await
    }
    .await;
    if let Err(e) = result {
        tracing::error!(error = %e, "hand-over failed: the tables are taken over when the lease expires");
    }
}
