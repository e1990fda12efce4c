//! Several equal nodes on one PostgreSQL and one NATS (`--cluster`; docs/scaling.md
//! "Beyond one machine").
//!
//! - the leases live in the store ([`damka_store::lease`]): each node's lease and the
//!   one owner of each table, with the epoch that fences the owner's writes
//!   ([`damka_store::fence`]);
//! - [`node`]: a node's lease loop (renew; take over the tables of expired nodes; tell
//!   when its own lease is lost);
//! - [`sync`]: the rooms' shared state over NATS (room facts, heartbeats, each node's
//!   part sent to a node that (re)joins);
//! - [`link`]: a table socket that lands on a node that does not own the table reaches
//!   the owner over NATS (a subject per table in, one per connection out);
//! - [`tables`]: leases wired to tables (claimed at creation, released at close, taken
//!   over through the restore path, handed over at a graceful stop);
//! - [`tournaments`]: tournament actions asked on a node that does not run the
//!   tournament, answered by the one that does.
//!
//! A node that loses its lease stops (fail-stop): its tables are someone else's by then,
//! and its writes are fenced anyway.

pub mod link;
pub mod node;
pub mod sync;
pub mod tables;
pub mod tournaments;

use crate::lock::lock;
use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use damka_store::Leases;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use tokio_util::sync::CancellationToken;

pub use node::{Node, NodeEvent};

/// How often a node says it is alive on NATS.
pub const HEARTBEAT: Duration = Duration::from_millis(1000);

/// A node not heard from on NATS for this long is taken for gone (its sockets' people
/// leave the rooms, sockets proxied to it are closed so their clients reconnect).
pub const PEER_SILENCE: Duration = Duration::from_millis(3500);

/// Why a node cannot join the cluster.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// `--cluster` with SQLite.
    #[error("--cluster needs a PostgreSQL --database-url shared by every node")]
    NotPostgres,
    /// NATS is out of reach.
    #[error("cannot connect to NATS: {0}")]
    Nats(String),
    /// The lease cannot be registered.
    #[error("cannot register the node: {0}")]
    Database(#[from] damka_store::StoreError),
}

/// This node's part of the cluster.
pub struct Cluster {
    /// The node's id and lease.
    pub node: Node,
    /// The NATS connection.
    pub nats: async_nats::Client,
    /// The first part of every subject.
    pub prefix: String,
    /// The leases, in the shared PostgreSQL.
    pub leases: Leases,
    /// Peers heard from on NATS, with when.
    peers: Mutex<HashMap<String, Instant>>,
    /// The rooms' shared state.
    pub sync: std::sync::Arc<sync::RoomSyncer>,
    /// Numbers this node's proxied connections.
    next_conn: AtomicU64,
    /// Set once a graceful stop began (readiness fails, no new tables come here).
    leaving: AtomicBool,
    /// Set when the lease was lost (the node stops).
    lost: AtomicBool,
    /// Stops the cluster's own tasks (after the hand-over, not with the tables).
    pub stop: CancellationToken,
    /// Metrics of the cluster's part of this node.
    pub metrics: ClusterMetrics,
    /// What the lease loop reports (taken over, lost), until `tables::run` takes it. The
    /// loop starts at the join: a node that takes long to start (restoring many tables,
    /// a loaded machine) keeps its lease meanwhile.
    events: Mutex<Option<tokio::sync::mpsc::Receiver<NodeEvent>>>,
}

/// The cluster's metrics on one node (`/metrics`, after the server's own).
#[derive(Default)]
pub struct ClusterMetrics {
    /// Sockets on this node proxied to a table on another node.
    pub proxied_sockets: Gauge,
    /// Sockets of other nodes proxied to tables of this node.
    pub bridged_sockets: Gauge,
    /// Tables and tournaments this node took over from a node gone, or was handed by a
    /// node that stopped, and restored.
    pub taken_over: Counter,
    /// Other nodes heard from on NATS lately (set at each scrape).
    peers: Gauge,
    /// 1 while the NATS connection is up (set at each scrape).
    nats_connected: Gauge,
}

impl Cluster {
    /// Connects to NATS at `url` and registers a node named after `name` (with a random
    /// part) reachable at `addr`, with a lease of `lease`.
    ///
    /// Fails if NATS or the database is out of reach.
    pub async fn join(
        leases: Leases,
        url: &str,
        name: &str,
        addr: &str,
        lease: Duration,
        prefix: &str,
    ) -> Result<Cluster, JoinError> {
        let id = format!("{}-{}", clean_name(name), crate::random::token_base36(6));
        let nats = async_nats::ConnectOptions::new()
            .name(format!("damka {id}"))
            .request_timeout(Some(Duration::from_secs(2)))
            // Room facts and table frames come in bursts; the default is plenty but a
            // subscriber that falls behind loses messages rather than stalling the node.
            .subscription_capacity(16 * 1024)
            .connect(url)
            .await
            .map_err(|e| JoinError::Nats(e.to_string()))?;
        let node = Node::join(&leases, &id, addr, lease).await?;
        tracing::info!(node = %id, nats = %crate::config::redact_url(url), "joined the cluster");
        let stop = CancellationToken::new();
        let (events_tx, events) = tokio::sync::mpsc::channel(8);
        let (looping, lease_store, loop_stop) = (node.clone(), leases.clone(), stop.clone());
        tokio::spawn(async move { looping.run(&lease_store, events_tx, loop_stop).await });
        Ok(Cluster {
            sync: std::sync::Arc::new(sync::RoomSyncer::new(id.clone())),
            node,
            nats,
            prefix: prefix.to_owned(),
            leases,
            peers: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            leaving: AtomicBool::new(false),
            lost: AtomicBool::new(false),
            stop,
            metrics: ClusterMetrics::default(),
            events: Mutex::new(Some(events)),
        })
    }

    /// The lease loop's reports, once (`None` if taken already).
    pub fn take_events(&self) -> Option<tokio::sync::mpsc::Receiver<NodeEvent>> {
        lock(&self.events).take()
    }

    /// This node's id.
    pub fn id(&self) -> &str {
        &self.node.id
    }

    /// `{prefix}.{rest}`.
    pub fn subject(&self, rest: &str) -> String {
        format!("{}.{rest}", self.prefix)
    }

    /// Records that `node` was heard from (a heartbeat, a fact, a message of one of its
    /// proxied sockets).
    ///
    /// Never this node itself (a socket of a table it owns may reach it through the
    /// cluster's subjects after a takeover): it hears no heartbeat of its own, so it
    /// would find itself silent 3.5 s later and forget its own tables' part.
    pub fn heard(&self, node: &str) {
        if node == self.id() {
            return;
        }
        let now = Instant::now();
        let mut peers = lock(&self.peers);
        // Called for every proxied message: no allocation for a node already known.
        match peers.get_mut(node) {
            Some(seen) => *seen = now,
            None => drop(peers.insert(node.to_owned(), now)),
        }
    }

    /// Forgets a peer (it said goodbye).
    pub fn forget(&self, node: &str) {
        lock(&self.peers).remove(node);
    }

    /// Peers silent for longer than [`PEER_SILENCE`], now forgotten.
    pub fn silent_peers(&self) -> Vec<String> {
        let mut peers = lock(&self.peers);
        let gone: Vec<String> = peers
            .iter()
            .filter(|(_, seen)| seen.elapsed() > PEER_SILENCE)
            .map(|(id, _)| id.clone())
            .collect();
        for id in &gone {
            peers.remove(id);
        }
        gone
    }

    /// Whether `node` (this one, or a peer heard from lately) is alive.
    pub fn alive(&self, node: &str) -> bool {
        node == self.id()
            || lock(&self.peers)
                .get(node)
                .is_some_and(|seen| seen.elapsed() <= PEER_SILENCE)
    }

    /// A new id for a proxied connection: `{node}.{n}`.
    pub fn conn_id(&self) -> String {
        let n = self.next_conn.fetch_add(1, Ordering::Relaxed);
        format!("{}.{n}", self.id())
    }

    /// Whether a graceful stop began.
    pub fn is_leaving(&self) -> bool {
        self.leaving.load(Ordering::Relaxed)
    }

    /// Marks the node as stopping.
    pub fn set_leaving(&self) {
        self.leaving.store(true, Ordering::Relaxed);
    }

    /// Whether the node lost its lease.
    pub fn is_lost(&self) -> bool {
        self.lost.load(Ordering::Relaxed)
    }

    /// Marks the lease as lost.
    pub fn set_lost(&self) {
        self.lost.store(true, Ordering::Relaxed);
    }

    /// Registers the cluster's metrics (`damka_cluster_*`) in `registry`.
    pub fn register_metrics(&self, registry: &mut Registry) {
        let m = &self.metrics;
        registry.register(
            "damka_cluster_peers",
            "Other nodes heard from on NATS lately",
            m.peers.clone(),
        );
        registry.register(
            "damka_cluster_nats_connected",
            "1 while the NATS connection is up",
            m.nats_connected.clone(),
        );
        registry.register(
            "damka_cluster_proxied_sockets",
            "Table sockets here proxied to the table's owner on another node",
            m.proxied_sockets.clone(),
        );
        registry.register(
            "damka_cluster_bridged_sockets",
            "Table sockets of other nodes proxied to tables owned here",
            m.bridged_sockets.clone(),
        );
        registry.register(
            "damka_cluster_taken_over",
            "Tables and tournaments taken over from nodes gone or handed over by nodes that stopped, and restored here",
            m.taken_over.clone(),
        );
    }

    /// Sets the gauges read from the node's state (before a scrape).
    pub fn refresh_metrics(&self) {
        let peers = lock(&self.peers)
            .values()
            .filter(|seen| seen.elapsed() <= PEER_SILENCE)
            .count();
        self.metrics
            .peers
            .set(i64::try_from(peers).unwrap_or(i64::MAX));
        self.metrics
            .nats_connected
            .set(i64::from(self.nats_connected()));
    }

    /// Whether the NATS connection is up.
    pub fn nats_connected(&self) -> bool {
        self.nats.connection_state() == async_nats::connection::State::Connected
    }
}

/// A node name fit for NATS subjects and logs: letters, digits and `-` only.
fn clean_name(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .take(32)
        .collect();
    if cleaned.is_empty() {
        "node".to_owned()
    } else {
        cleaned
    }
}

/// The machine's host name (the default node name).
pub fn host_name() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "node".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_names_are_subject_safe() {
        assert_eq!(clean_name("web.1 a*>"), "web-1-a--");
        assert_eq!(clean_name(""), "node");
        assert_eq!(clean_name(&"x".repeat(50)).len(), 32);
    }
}
