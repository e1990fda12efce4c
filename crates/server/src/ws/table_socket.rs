//! `GET /ws/tables/{id}`: one session per socket between the client and the table actor.
//!
//! The session parses and rate-limits what the client sends, answers `ping` itself,
//! forwards the rest to the actor, and writes out what the actor queues for it. It also
//! measures the connection's round trip with WebSocket pings: half of it is the lag
//! compensation passed along with every move.

use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use damka_protocol::table::ClientMessage;
use damka_protocol::{ErrorCode, Player};
use tokio::sync::{mpsc, oneshot};
use tracing::Instrument;

use super::heartbeat::Heartbeat;
use super::inbound::{self, Received, ack_of};
use super::rate_limit::RateLimiter;
use super::{close, error_frame, limit, origin_allowed, send_all_within, send_close, send_within};
use crate::app::AppState;
use crate::cluster::link::RemoteConn;
use crate::error::AppError;
use crate::session::ClientIp;
use crate::session::session_of;
use crate::session_sockets::SocketSession;
use crate::table::{Command, Outgoing, SOCKET_QUEUE, TableHandle};

/// How long a socket waits for the owner of a table on another node to answer before it
/// is told to try again (1013).
const OWNER_WAIT: Duration = Duration::from_secs(2);

/// How long the `not_found` answer may take to go out.
const CLOSE_WITHIN: Duration = Duration::from_secs(2);

/// Whether an id from a URL is well-formed (tables are `t` and base-36, games hex): only
/// such ids are looked up or logged.
pub fn valid_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// Upgrades to a table socket. An unknown table gets an `error` (`not_found`) and a
/// normal close, so a reconnecting client stops trying.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let permit = super::admit(&state, ip)?;
    let origin_ok = origin_allowed(&headers, &state.core.config.allowed_origins);
    let signed = session_of(&state.core, &headers).await?;
    // Registered now: a session that ends from here on closes the socket.
    let watch = signed
        .as_ref()
        .map(|(g, hash)| state.core.sessions.register(hash, &g.id));
    let guest = signed.map(|(g, _)| g);
    if let Some(g) = &guest {
        crate::fair_play::seen(&state.core, g, ip);
    }
    // The id comes from the URL: only a well-formed one is looked up or logged, so a
    // crafted id cannot forge log lines.
    let valid = valid_id(&id);
    // A parked correspondence table is loaded for whoever opens it.
    let handle = if valid {
        state.tables.get_or_load(&id).await
    } else {
        None
    };
    // An account sits with its rating in the table's variant (the room's).
    let room = match (&handle, &state.cluster) {
        (Some(h), _) => Some(h.room_id.clone()),
        (None, Some(cluster)) if valid && guest.as_ref().is_some_and(|g| g.account) => {
            cluster.leases.room_of(&id).await?
        }
        _ => None,
    };
    let variant = room
        .and_then(|r| state.core.rooms.get(&r).cloned())
        .map(|r| r.config.variant);
    let guest = match (guest, variant) {
        (Some(g), Some(v)) => Some(crate::ratings::shown(&state.core, g, v).await?),
        (g, _) => g,
    };
    let logged_id = if valid { id.as_str() } else { "(invalid)" };
    let span = tracing::info_span!("table_socket", table = %logged_id, guest = guest.as_ref().map_or("", |g| g.id.as_str()));
    let tracker = state.core.tracker.clone();
    Ok(limit(ws).on_upgrade(move |mut socket| {
        tracker.track_future(
            async move {
                if !origin_ok {
                    tracing::info!("rejected origin");
                    send_close(&mut socket, close::POLICY, "origin not allowed").await;
                    return;
                }
                state.core.metrics.table_connections.inc();
                let joined = match handle {
                    Some(handle) => match join_local(handle, guest.clone()).await {
                        // Parked just as it was found: loaded again for this socket.
                        Joined::Closed => match state.tables.get_or_load(&id).await {
                            Some(handle) => join_local(handle, guest).await,
                            None => Joined::Closed,
                        },
                        joined => joined,
                    },
                    None if state.cluster.is_some() && valid => {
                        join_remote(&state, &id, guest.as_ref()).await
                    }
                    None => Joined::NotFound,
                };
                match joined {
                    Joined::Yes(link, rx) => {
                        let from = From {
                            ip,
                            scope: format!("table:{id}"),
                        };
                        session(socket, &state, link, rx, &from, watch.as_ref()).await;
                    }
                    Joined::NotFound => {
                        let frame = error_frame(ErrorCode::NotFound, "no such table", None);
                        if send_within(&mut socket, frame, CLOSE_WITHIN, "not found").await {
                            send_close(&mut socket, close::NORMAL, "no such table").await;
                        }
                    }
                    Joined::Closed => send_close(&mut socket, close::NORMAL, "table closed").await,
                    Joined::Later => {
                        send_close(&mut socket, close::TRY_AGAIN, "table moving").await
                    }
                }
                state.core.metrics.table_connections.dec();
                drop(permit);
            }
            .instrument(span),
        )
    }))
}

/// Where a socket's messages go: the table's actor on this node, or its owner on
/// another node over NATS ([`crate::cluster::link`]).
enum Link {
    /// The actor is here.
    Local {
        /// The actor.
        handle: TableHandle,
        /// The socket's subscriber id there.
        sub: u64,
    },
    /// The table is another node's.
    Remote(RemoteConn),
}

impl Link {
    /// Passes a client message on; `false` once the table is gone.
    async fn client(&self, msg: ClientMessage, text: &str, lag_ms: u64) -> bool {
        match self {
            Link::Local { handle, sub } => {
                let cmd = Command::Client {
                    sub: *sub,
                    msg,
                    lag_ms,
                    received: Instant::now(),
                };
                handle.tx.send(cmd).await.is_ok()
            }
            Link::Remote(remote) => remote.client(text, lag_ms).await,
        }
    }

    /// Whether the table's owner is still there (a remote one may fall silent).
    fn owner_alive(&self) -> bool {
        match self {
            Link::Local { .. } => true,
            Link::Remote(remote) => remote.owner_alive(),
        }
    }

    /// The socket closed.
    async fn leave(self) {
        match self {
            Link::Local { handle, sub } => {
                // The actor may be gone (table closed or shutting down): nothing left to
                // tell it then.
                if handle.tx.send(Command::Leave { sub }).await.is_err() {
                    tracing::debug!("table gone before the socket's leave");
                }
            }
            Link::Remote(remote) => remote.leave().await,
        }
    }
}

/// How joining a table went.
enum Joined {
    /// Joined: the link and the queue of what the table sends.
    Yes(Link, mpsc::Receiver<Outgoing>),
    /// No such table.
    NotFound,
    /// It closed meanwhile.
    Closed,
    /// It exists but no node serves it right now (being taken over): try again.
    Later,
}

async fn join_local(handle: TableHandle, guest: Option<Player>) -> Joined {
    let (tx, rx) = mpsc::channel(SOCKET_QUEUE + 1);
    let (reply_tx, reply_rx) = oneshot::channel();
    let sent = handle
        .tx
        .send(Command::Join {
            guest,
            tx,
            reply: reply_tx,
        })
        .await
        .is_ok();
    match reply_rx.await {
        Ok(sub) if sent => Joined::Yes(Link::Local { handle, sub }, rx),
        _ => Joined::Closed,
    }
}

/// Joins a table this node does not run: through its owner, over NATS.
async fn join_remote(state: &AppState, id: &str, guest: Option<&Player>) -> Joined {
    let Some(cluster) = &state.cluster else {
        return Joined::NotFound;
    };
    let deadline = Instant::now() + OWNER_WAIT;
    loop {
        let e = match RemoteConn::open(cluster, id, guest).await {
            Ok((remote, rx)) => return Joined::Yes(Link::Remote(remote), rx),
            Err(e) => e,
        };
        // Nobody answers: the table may be starting on another node (created a moment
        // ago, its lease and link being set up) or between nodes (taken over right
        // now): ask again for a while. Then a table with an owner is still moving (the
        // client tries again later); one without is closed or never was.
        if Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(50)).await;
            continue;
        }
        match cluster.leases.owner(id).await {
            Ok(Some(_)) => {
                tracing::info!(error = %e, "table has an owner that does not answer yet");
                return Joined::Later;
            }
            Ok(None) => return Joined::NotFound,
            Err(db) => {
                tracing::warn!(error = %db, "cannot look up a table's owner");
                return Joined::Later;
            }
        }
    }
}

/// Where a socket's messages come from: the client's address and the table's chat
/// scope, for the limits one address shares across its guests and sockets.
struct From {
    ip: crate::limits::RateKey,
    scope: String,
}

/// The per-address limits a client message meets before it goes to the table: seat
/// changes (`sit`, `stand`) and chat (one budget per address at each table).
///
/// Fails with `rate_limited`.
fn address_limits(state: &AppState, from: &From, msg: &ClientMessage) -> Result<(), AppError> {
    match msg {
        ClientMessage::Sit { .. } | ClientMessage::Stand => {
            let rate = state.core.config.limits.seat_changes_per_second;
            if state
                .core
                .limits
                .seat_changes
                .take(from.ip, rate * 5.0, rate)
            {
                Ok(())
            } else {
                Err(AppError::game(
                    ErrorCode::RateLimited,
                    "too many seat changes from your address: wait a little",
                ))
            }
        }
        ClientMessage::Chat { .. } => {
            crate::chat::address_token(&state.core.limits, from.ip, &from.scope).map_err(Into::into)
        }
        _ => Ok(()),
    }
}

async fn session(
    mut socket: WebSocket,
    state: &AppState,
    link: Link,
    mut rx: mpsc::Receiver<Outgoing>,
    from: &From,
    watch: Option<&SocketSession>,
) {
    let mut limiter = RateLimiter::default();
    let period = Duration::from_millis(state.core.config.tables.ws_ping_ms.max(10));
    let mut heartbeat = Heartbeat::new(period);
    // A send may take as long as a pong: a peer that stops reading is as dead as one
    // that stops answering.
    let within = heartbeat.dead_after();
    let mut pings = tokio::time::interval(period);
    // One wait for shutdown for the whole session: a new one per turn of the loop would
    // register with the server-wide token (behind its lock) for every frame.
    let shutdown = state.core.shutdown.cancelled();
    tokio::pin!(shutdown);
    let ended = super::session_ended(watch);
    tokio::pin!(ended);
    let mut alive = true;
    while alive {
        tokio::select! {
            biased;
            () = &mut shutdown => {
                send_close(&mut socket, close::GOING_AWAY, "server shutting down").await;
                break;
            }
            // Before anything the client sent is read: nothing it sends after its
            // session ended reaches the table.
            () = &mut ended => {
                send_close(&mut socket, close::SIGNED_OUT, "signed out").await;
                break;
            }
            out = rx.recv() => match out {
                Some(Outgoing::Text(text)) => {
                    // Whatever else the table queued meanwhile goes out in the same write
                    // (a `Close` stays queued for the next turn of the loop).
                    let mut closing = None;
                    let more = || match rx.try_recv() {
                        Ok(Outgoing::Text(t)) => Some(t),
                        Ok(close) => {
                            closing = Some(close);
                            None
                        }
                        Err(_) => None,
                    };
                    let ping = heartbeat.ride_along(Instant::now());
                    if ping.is_some() {
                        // Pinged now: the interval need not wake the session for a period.
                        pings.reset();
                    }
                    alive = send_all_within(&mut socket, text, more, ping, within, "table message").await;
                    if let (true, Some(Outgoing::Close(code, reason))) = (alive, closing) {
                        send_close(&mut socket, code, reason).await;
                        break;
                    }
                }
                Some(Outgoing::Close(code, reason)) => {
                    send_close(&mut socket, code, reason).await;
                    break;
                }
                // A remote table's link ended (its owner stopped, or this socket was
                // too slow for it): the client reconnects and resyncs.
                None if matches!(link, Link::Remote(_)) => {
                    send_close(&mut socket, crate::cluster::link::MOVING, "table moving").await;
                    break;
                }
                // The table ended without a word (it always says why otherwise): a bug.
                None => {
                    tracing::error!("table task ended unexpectedly");
                    send_close(&mut socket, close::INTERNAL, "internal error").await;
                    break;
                }
            },
            incoming = socket.recv() => {
                let received = inbound::receive(&mut socket, incoming, &mut limiter, &mut heartbeat, within);
                let (msg, text) = match received.await {
                    Received::Message(msg, text) => (msg, text),
                    Received::Nothing => continue,
                    Received::End => break,
                };
                // Answered here: a latency probe must not queue behind table work.
                if let ClientMessage::Ping { ts } = msg {
                    let pong = serde_json::json!({"t": "pong", "ts": ts}).to_string();
                    alive = send_within(&mut socket, Message::Text(pong.into()), within, "pong").await;
                    continue;
                }
                if let Err(e) = address_limits(state, from, &msg) {
                    let frame = error_frame(e.code(), &e.client_message(), ack_of(&text));
                    alive = send_within(&mut socket, frame, within, "error").await;
                    continue;
                }
                if !link.client(msg, &text, heartbeat.lag_ms()).await {
                    send_close(&mut socket, close::NORMAL, "table closed").await;
                    break;
                }
            }
            _ = pings.tick() => {
                if !link.owner_alive() {
                    tracing::info!("the table's node fell silent; closing so the client reconnects");
                    send_close(&mut socket, crate::cluster::link::MOVING, "table moving").await;
                    break;
                }
                alive = inbound::beat(&mut socket, &mut heartbeat, within).await;
            }
        }
    }
    link.leave().await;
}
