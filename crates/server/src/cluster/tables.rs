//! Leases wired to tables and tournaments.
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
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{Cluster, NodeEvent};
use crate::AppState;
use crate::table::Command;
use damka_store::fence::{self, Fence};
use damka_store::lease::Owned;

/// What a table or tournament actor starts with in a cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lease {
    /// A new one: claim it first.
    New,
    /// Held already (adopted, taken over or handed over), at this epoch.
    Held(i64),
}

/// Runs a table actor (`run`) as the owner of `table`: claims it if new, starts the NATS
/// bridge for sockets on other nodes, and runs the actor inside its fence.
pub async fn run_table(
    cluster: Arc<Cluster>,
    table: String,
    room: String,
    lease: Lease,
    tx: mpsc::Sender<Command>,
    run: impl Future<Output = ()>,
) {
    let epoch = claim(&cluster, &table, &room, lease).await;
    tokio::spawn(super::link::bridge(cluster.clone(), table.clone(), tx));
    run_fenced(&cluster, table, epoch, run).await;
}

/// Runs a tournament actor (`run`) as the owner of `id` (claimed if new), in its fence,
/// answering the actions asked on other nodes.
pub async fn run_tournament(
    cluster: Arc<Cluster>,
    id: String,
    room: String,
    lease: Lease,
    tx: mpsc::Sender<crate::tournament::Command>,
    run: impl Future<Output = ()>,
) {
    let epoch = claim(&cluster, &id, &room, lease).await;
    tokio::spawn(super::tournaments::bridge(cluster.clone(), id.clone(), tx));
    run_fenced(&cluster, id, epoch, run).await;
}

async fn claim(cluster: &Cluster, id: &str, room: &str, lease: Lease) -> Option<i64> {
    match lease {
        Lease::Held(epoch) => Some(epoch),
        Lease::New => match cluster.leases.claim_new(cluster.id(), id, room).await {
            Ok(epoch) => Some(epoch),
            Err(e) => {
                // Runs unfenced: nobody else can own an id this node just made up, and a
                // game it stores without an owner is adopted at the next start.
                tracing::error!(error = %e, id, "cannot claim a new table; running it unfenced");
                None
            }
        },
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
pub fn release(state: &AppState, table: &str) {
    let Some(cluster) = state.cluster.clone() else {
        return;
    };
    let table = table.to_owned();
    tokio::spawn(async move {
        if let Err(e) = cluster.leases.release(cluster.id(), &table).await {
            tracing::warn!(error = %e, %table, "cannot release a closed table's lease");
        }
    });
}

/// Restores tables and tournaments now owned by this node; returns how many came back.
pub async fn restore(state: &AppState, owned: Vec<Owned>) -> usize {
    if owned.is_empty() {
        return 0;
    }
    let (tournaments, tables): (Vec<Owned>, Vec<Owned>) =
        owned.into_iter().partition(|o| o.table_id.starts_with('u'));
    let mut restored = 0;
    // Tournaments first: a restored table whose game ends reports to its tournament.
    for t in &tournaments {
        match crate::tournament::restore_one(state, &t.table_id, t.epoch).await {
            Ok(true) => restored += 1,
            Ok(false) => release_now(state, &t.table_id).await,
            Err(e) => {
                tracing::error!(error = %e, tournament = %t.table_id, "cannot restore a tournament taken over")
            }
        }
    }
    let epochs: HashMap<String, i64> = tables
        .iter()
        .map(|o| (o.table_id.clone(), o.epoch))
        .collect();
    match crate::table::restore_owned(state, &epochs).await {
        Ok((n, idle)) => {
            restored += n;
            // Tables without a game to resume (none started, or it ended) have nothing
            // to restore: their leases go.
            for table in idle {
                release_now(state, &table).await;
            }
        }
        Err(e) => tracing::error!(error = %e, "cannot restore tables taken over"),
    }
    restored
}

async fn release_now(state: &AppState, id: &str) {
    if let Some(cluster) = &state.cluster
        && let Err(e) = cluster.leases.release(cluster.id(), id).await
    {
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

/// Runs the node's lease loop and acts on it: tables taken over are restored; a lost
/// lease stops the node. Also takes the tables handed to this node over NATS.
pub async fn run(state: AppState, cluster: Arc<Cluster>) {
    let (events_tx, mut events) = mpsc::channel(8);
    let node = cluster.node.clone();
    let leases = cluster.leases.clone();
    let stop = cluster.stop.clone();
    tokio::spawn(async move { node.run(&leases, events_tx, stop).await });
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
                    let restored = restore(&state, owned).await;
                    cluster.metrics.taken_over.inc_by(restored as u64);
                    tracing::info!(taken = n, restored, "took over the tables of a node gone");
                }
                Some(NodeEvent::Lost) => {
                    tracing::error!("this node's lease is lost: its tables belong to other nodes now; stopping");
                    cluster.set_lost();
                    state.shutdown.cancel();
                    break;
                }
                None => break,
            },
            msg = async { match orders.as_mut() { Some(o) => o.next().await, None => std::future::pending().await } } => {
                let Some(msg) = msg else { break };
                match serde_json::from_slice::<Order>(&msg.payload) {
                    Ok(Order::Take { from, owned }) => {
                        let n = owned.len();
                        let restored = restore(&state, owned).await;
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
