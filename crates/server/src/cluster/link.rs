//! Table sockets across nodes: a socket that lands on a node that does not own its table
//! reaches the owner over NATS.
//!
//! - The owner runs a [`bridge`] beside each table actor, subscribed to
//!   `{prefix}.t.{table}`. A proxied connection opens with a request there (headers
//!   `k: open`, `c: {conn}`; the guest as JSON), answered with the owner's node id; then
//!   each client message is published there (`k: msg`, `l`: the lag estimate; the
//!   client's JSON as it came), and `k: close` when the socket closes.
//! - Everything the table sends the connection goes to `{prefix}.c.{conn}` exactly as
//!   the table serialised it; a close is a message with a `close` header (`code`).
//! - The proxy's session ([`crate::ws::table_socket`]) is the one a local socket has: it
//!   parses, rate-limits, answers `ping`, measures the round trip and writes out frames;
//!   only where messages go differs. Versions, acks and `resync` are the table's own, so
//!   they work exactly as on one node.
//!
//! Liveness: the proxy closes the socket with 1012 (the client reconnects and resyncs)
//! when the owner falls silent on NATS or closes the link; the owner drops connections of
//! a proxy node that fell silent. Subjects are per table, not per node, so after a
//! takeover the same subject reaches the new owner.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_nats::HeaderMap;
use axum::extract::ws::Utf8Bytes;
use bytes::Bytes;
use damka_protocol::Player;
use damka_protocol::table::ClientMessage;
use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot};

use super::Cluster;
use crate::table::{Command, Outgoing, SOCKET_QUEUE};

/// Close code: the table moves to another node (the client reconnects).
pub const MOVING: u16 = damka_protocol::close::MOVING;

/// Frames a proxied connection buffers from NATS before it counts as too slow.
const PROXY_QUEUE: usize = 512;

/// Why a proxied connection could not open.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// No node answers for the table (it closed, or is being taken over).
    #[error("no node answers for the table")]
    NoOwner,
    /// NATS failed.
    #[error("nats: {0}")]
    Nats(String),
}

/// A socket's link to a table owned by another node.
pub struct RemoteConn {
    cluster: Arc<Cluster>,
    /// `{prefix}.t.{table}`.
    subject: String,
    /// The connection id.
    conn: String,
    /// The owner's node id (as it answered the open).
    pub owner: String,
}

impl RemoteConn {
    /// Opens a link to table `table` for a socket of `guest`; returns it with the queue
    /// of what the table sends (the same queue a local socket gets).
    ///
    /// Fails with [`OpenError::NoOwner`] when no node answers for the table.
    pub async fn open(
        cluster: &Arc<Cluster>,
        table: &str,
        guest: Option<&Player>,
    ) -> Result<(RemoteConn, mpsc::Receiver<Outgoing>), OpenError> {
        let conn = cluster.conn_id();
        let nats = &cluster.nats;
        let mut out = nats
            .subscribe(cluster.subject(&format!("c.{conn}")))
            .await
            .map_err(|e| OpenError::Nats(e.to_string()))?;
        let subject = cluster.subject(&format!("t.{table}"));
        let mut headers = HeaderMap::new();
        headers.insert("k", "open");
        headers.insert("c", conn.as_str());
        let payload = match guest {
            Some(g) => serde_json::to_vec(g).unwrap_or_default().into(),
            None => Bytes::new(),
        };
        let reply = match nats
            .request_with_headers(subject.clone(), headers, payload)
            .await
        {
            Ok(reply) => reply,
            Err(e) => {
                if e.kind() == async_nats::client::RequestErrorKind::TimedOut {
                    // An owner too slow to answer may still have joined the connection:
                    // tell it the socket is gone, or it would count a phantom spectator.
                    let mut headers = HeaderMap::new();
                    headers.insert("k", "close");
                    headers.insert("c", conn.as_str());
                    let _ = nats
                        .publish_with_headers(subject, headers, Bytes::new())
                        .await;
                }
                return Err(match e.kind() {
                    async_nats::client::RequestErrorKind::NoResponders
                    | async_nats::client::RequestErrorKind::TimedOut => OpenError::NoOwner,
                    _ => OpenError::Nats(e.to_string()),
                });
            }
        };
        let owner = String::from_utf8_lossy(&reply.payload).into_owned();
        // It just answered: alive, even if its first heartbeat has not come yet.
        cluster.heard(&owner);
        let (tx, rx) = mpsc::channel(PROXY_QUEUE);
        tokio::spawn(async move {
            loop {
                let msg = tokio::select! {
                    () = tx.closed() => break,
                    msg = out.next() => msg,
                };
                let Some(msg) = msg else { break };
                let outgoing = match msg.headers.as_ref().and_then(|h| h.get("close")) {
                    Some(code) => Outgoing::Close(
                        code.as_str().parse().unwrap_or(MOVING),
                        reason_of(code.as_str()),
                    ),
                    None => match Utf8Bytes::try_from(msg.payload) {
                        Ok(text) => Outgoing::Text(text),
                        Err(_) => continue,
                    },
                };
                let close = matches!(outgoing, Outgoing::Close(..));
                if tx.try_send(outgoing).is_err() {
                    // Too slow a reader (or gone): ending the link closes the socket, and
                    // the client reconnects and resyncs.
                    tracing::info!("proxied socket too slow; closing it");
                    break;
                }
                if close {
                    break;
                }
            }
        });
        cluster.metrics.proxied_sockets.inc();
        Ok((
            RemoteConn {
                cluster: cluster.clone(),
                subject,
                conn,
                owner,
            },
            rx,
        ))
    }

    /// Forwards a client message (its JSON as received) with the lag estimate; `false`
    /// if NATS refused it.
    pub async fn client(&self, text: &str, lag_ms: u64) -> bool {
        let mut headers = HeaderMap::new();
        headers.insert("k", "msg");
        headers.insert("c", self.conn.as_str());
        headers.insert("l", lag_ms.to_string().as_str());
        self.cluster
            .nats
            .publish_with_headers(
                self.subject.clone(),
                headers,
                Bytes::copy_from_slice(text.as_bytes()),
            )
            .await
            .is_ok()
    }

    /// Whether the owner is still heard from.
    pub fn owner_alive(&self) -> bool {
        self.cluster.alive(&self.owner)
    }

    /// Tells the owner the socket closed.
    pub async fn leave(self) {
        let mut headers = HeaderMap::new();
        headers.insert("k", "close");
        headers.insert("c", self.conn.as_str());
        if let Err(e) = self
            .cluster
            .nats
            .publish_with_headers(self.subject.clone(), headers, Bytes::new())
            .await
        {
            tracing::debug!(error = %e, "cannot tell the owner a proxied socket closed");
        }
    }
}

impl Drop for RemoteConn {
    fn drop(&mut self) {
        self.cluster.metrics.proxied_sockets.dec();
    }
}

/// The reason shown with a close code that came over NATS.
fn reason_of(code: &str) -> &'static str {
    match code {
        "1000" => "table closed",
        "1001" => "server shutting down",
        "1008" => "too slow",
        "1012" => "table moving",
        _ => "closed",
    }
}

/// One proxied connection, on the owner's side.
struct Bridged {
    /// Its subscriber id at the table.
    sub: u64,
}

/// The owner's side of the links to table `table`: until the actor ends (`tx` closes),
/// opens, forwards and closes proxied connections. At the end every link still open is
/// closed with [`MOVING`], so its client reconnects (to wherever the table is then).
pub async fn bridge(cluster: Arc<Cluster>, table: String, tx: mpsc::Sender<Command>) {
    let mut sub = match cluster
        .nats
        .subscribe(cluster.subject(&format!("t.{table}")))
        .await
    {
        Ok(sub) => sub,
        Err(e) => {
            tracing::error!(error = %e, "cannot subscribe to the table's link subject");
            return;
        }
    };
    let mut conns: HashMap<String, Bridged> = HashMap::new();
    let mut check = tokio::time::interval(Duration::from_secs(1));
    loop {
        tokio::select! {
            () = tx.closed() => break,
            _ = check.tick() => {
                // Connections of proxy nodes gone silent: their sockets are gone.
                let dead: Vec<String> = conns
                    .keys()
                    .filter(|c| !cluster.alive(node_of(c)))
                    .cloned()
                    .collect();
                for conn in dead {
                    if let Some(b) = conns.remove(&conn) {
                        bridged(&cluster, -1);
                        tracing::info!(%conn, "proxy node gone: dropping its socket");
                        if tx.send(Command::Leave { sub: b.sub }).await.is_err() {
                            break;
                        }
                    }
                }
            }
            msg = sub.next() => {
                let Some(msg) = msg else { break };
                let header = |name: &str| {
                    msg.headers
                        .as_ref()
                        .and_then(|h| h.get(name))
                        .map(|v| v.as_str().to_owned())
                };
                let (Some(kind), Some(conn)) = (header("k"), header("c")) else {
                    continue;
                };
                // The proxy node is alive: it just spoke.
                cluster.heard(node_of(&conn));
                match kind.as_str() {
                    "open" => {
                        let guest: Option<Player> = serde_json::from_slice(&msg.payload).ok();
                        let Some(sub_id) = join(&cluster, &tx, &conn, guest).await else {
                            break;
                        };
                        if conns.insert(conn, Bridged { sub: sub_id }).is_none() {
                            bridged(&cluster, 1);
                        }
                        if let Some(reply) = msg.reply
                            && let Err(e) = cluster
                                .nats
                                .publish(reply, Bytes::copy_from_slice(cluster.id().as_bytes()))
                                .await
                        {
                            tracing::warn!(error = %e, "cannot answer a proxied open");
                        }
                    }
                    "msg" => {
                        let Some(b) = conns.get(&conn) else { continue };
                        let Ok(client) = serde_json::from_slice::<ClientMessage>(&msg.payload) else {
                            continue;
                        };
                        let lag_ms = header("l").and_then(|l| l.parse().ok()).unwrap_or(0);
                        let cmd = Command::Client {
                            sub: b.sub,
                            msg: client,
                            lag_ms,
                            received: Instant::now(),
                        };
                        if tx.send(cmd).await.is_err() {
                            break;
                        }
                    }
                    "close" => {
                        if let Some(b) = conns.remove(&conn) {
                            bridged(&cluster, -1);
                            if tx.send(Command::Leave { sub: b.sub }).await.is_err() {
                                break;
                            }
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    drop(sub);
    for conn in conns.keys() {
        bridged(&cluster, -1);
        close_link(&cluster, conn, MOVING).await;
    }
}

/// Counts a bridged socket in (`1`) or out (`-1`).
fn bridged(cluster: &Cluster, by: i64) {
    if by > 0 {
        cluster.metrics.bridged_sockets.inc();
    } else {
        cluster.metrics.bridged_sockets.dec();
    }
}

/// Joins a proxied connection to the table and starts forwarding what the table sends
/// it; `None` once the table is gone.
async fn join(
    cluster: &Arc<Cluster>,
    tx: &mpsc::Sender<Command>,
    conn: &str,
    guest: Option<Player>,
) -> Option<u64> {
    let (out_tx, mut out_rx) = mpsc::channel(SOCKET_QUEUE + 1);
    let (reply_tx, reply_rx) = oneshot::channel();
    tx.send(Command::Join {
        guest,
        tx: out_tx,
        reply: reply_tx,
    })
    .await
    .ok()?;
    let sub = reply_rx.await.ok()?;
    let cluster = cluster.clone();
    let subject = cluster.subject(&format!("c.{conn}"));
    let conn = conn.to_owned();
    tokio::spawn(async move {
        while let Some(out) = out_rx.recv().await {
            match out {
                Outgoing::Text(text) => {
                    if let Err(e) = cluster
                        .nats
                        .publish(subject.clone(), Bytes::from(text))
                        .await
                    {
                        tracing::debug!(error = %e, "cannot forward a table frame");
                    }
                }
                Outgoing::Close(code, _) => {
                    close_link(&cluster, &conn, code).await;
                    return;
                }
            }
        }
        // The table let go of the connection without a word (it ended, or the bridge
        // dropped it): the proxy closes the socket and the client reconnects.
        close_link(&cluster, &conn, MOVING).await;
    });
    Some(sub)
}

/// Tells the proxy of `conn` to close its socket with `code`.
async fn close_link(cluster: &Cluster, conn: &str, code: u16) {
    let mut headers = HeaderMap::new();
    headers.insert("close", code.to_string().as_str());
    if let Err(e) = cluster
        .nats
        .publish_with_headers(cluster.subject(&format!("c.{conn}")), headers, Bytes::new())
        .await
    {
        tracing::debug!(error = %e, "cannot close a proxied socket");
    }
}

/// The node part of a connection id (`{node}.{n}`).
fn node_of(conn: &str) -> &str {
    conn.rsplit_once('.').map_or(conn, |(node, _)| node)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connection_ids_name_their_node() {
        assert_eq!(node_of("web-1-ab12cd.17"), "web-1-ab12cd");
        assert_eq!(reason_of("1012"), "table moving");
    }
}
