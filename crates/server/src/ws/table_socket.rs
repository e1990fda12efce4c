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

use super::heartbeat::{Beat, Heartbeat};
use super::inbound::{self, Inbound, ack_of};
use super::rate_limit::RateLimiter;
use super::{close, error_frame, limit, origin_allowed, send_all_within, send_close, send_within};
use crate::AppState;
use crate::error::AppError;
use crate::http::auth::guest_of;
use crate::limits::{ClientIp, SocketPermit};
use crate::metrics::Metrics;
use crate::table::{Command, Outgoing, SOCKET_QUEUE, TableHandle};

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
    let max = state.config.max_sockets_per_address;
    let Some(permit) = state.limits.open_socket(ip, max) else {
        tracing::info!(%ip, max, "socket refused: too many from one address");
        return Err(AppError::TooManyConnections(max));
    };
    let origin_ok = origin_allowed(&headers, &state.config.allowed_origins);
    let guest = guest_of(&state, &headers).await?;
    // The id comes from the URL: only a well-formed one is looked up or logged, so a
    // crafted id cannot forge log lines.
    let (handle, logged_id) = if valid_id(&id) {
        (state.tables.get(&id), id.as_str())
    } else {
        (None, "(invalid)")
    };
    let span = tracing::info_span!("table_socket", table = %logged_id, guest = guest.as_ref().map_or("", |g| g.id.as_str()));
    let tracker = state.tracker.clone();
    Ok(limit(ws).on_upgrade(move |mut socket| {
        tracker.track_future(
            async move {
                if !origin_ok {
                    tracing::info!("rejected origin");
                    send_close(&mut socket, close::POLICY, "origin not allowed").await;
                    return;
                }
                let Some(handle) = handle else {
                    let frame = error_frame(ErrorCode::NotFound, "no such table", None);
                    if send_within(&mut socket, frame, CLOSE_WITHIN, "not found").await {
                        send_close(&mut socket, close::NORMAL, "no such table").await;
                    }
                    return;
                };
                session(socket, state, handle, guest, permit).await;
            }
            .instrument(span),
        )
    }))
}

async fn session(
    mut socket: WebSocket,
    state: AppState,
    handle: TableHandle,
    guest: Option<Player>,
    permit: SocketPermit,
) {
    Metrics::inc(&state.metrics.table_connections);
    let (tx, mut rx) = mpsc::channel(SOCKET_QUEUE + 1);
    let (reply_tx, reply_rx) = oneshot::channel();
    let joined = handle
        .tx
        .send(Command::Join {
            guest,
            tx,
            reply: reply_tx,
        })
        .await
        .is_ok();
    let sub = match reply_rx.await {
        Ok(sub) if joined => sub,
        _ => {
            send_close(&mut socket, close::NORMAL, "table closed").await;
            Metrics::dec(&state.metrics.table_connections);
            return;
        }
    };
    let mut limiter = RateLimiter::default();
    let period = Duration::from_millis(state.config.ws_ping_ms.max(10));
    let mut heartbeat = Heartbeat::new(period);
    // A send may take as long as a pong: a peer that stops reading is as dead as one
    // that stops answering.
    let within = heartbeat.dead_after();
    let mut pings = tokio::time::interval(period);
    // One wait for shutdown for the whole session: a new one per turn of the loop would
    // register with the server-wide token (behind its lock) for every frame.
    let shutdown = state.shutdown.cancelled();
    tokio::pin!(shutdown);
    let mut alive = true;
    while alive {
        tokio::select! {
            biased;
            () = &mut shutdown => {
                send_close(&mut socket, close::GOING_AWAY, "server shutting down").await;
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
                // The table ended without a word (it always says why otherwise): a bug.
                None => {
                    tracing::error!("table task ended unexpectedly");
                    send_close(&mut socket, close::INTERNAL, "internal error").await;
                    break;
                }
            },
            incoming = socket.recv() => {
                let text = match inbound::sort(&mut socket, incoming, &mut limiter).await {
                    Inbound::Text(text) => text,
                    Inbound::Pong(p) => {
                        heartbeat.pong(&p);
                        continue;
                    }
                    Inbound::Handled => continue,
                    Inbound::End => break,
                };
                let msg = match serde_json::from_str::<ClientMessage>(&text) {
                    Ok(msg) => msg,
                    Err(e) => {
                        let frame = error_frame(ErrorCode::BadMessage, &e.to_string(), ack_of(&text));
                        alive = send_within(&mut socket, frame, within, "error").await;
                        continue;
                    }
                };
                // Answered here: a latency probe must not queue behind table work.
                if let ClientMessage::Ping { ts } = msg {
                    let pong = serde_json::json!({"t": "pong", "ts": ts}).to_string();
                    alive = send_within(&mut socket, Message::Text(pong.into()), within, "pong").await;
                    continue;
                }
                let cmd = Command::Client { sub, msg, lag_ms: heartbeat.lag_ms(), received: Instant::now() };
                if handle.tx.send(cmd).await.is_err() {
                    send_close(&mut socket, close::NORMAL, "table closed").await;
                    break;
                }
            }
            _ = pings.tick() => match heartbeat.tick(Instant::now()) {
                Beat::Ping(ping) => alive = send_within(&mut socket, ping, within, "ping").await,
                Beat::Wait => {}
                Beat::Dead => {
                    tracing::info!(?within, "no pong; closing a dead table socket");
                    send_close(&mut socket, close::POLICY, "no pong").await;
                    break;
                }
            },
        }
    }
    // The actor may be gone (table closed or shutting down): nothing left to tell it then.
    if handle.tx.send(Command::Leave { sub }).await.is_err() {
        tracing::debug!("table gone before the socket's leave");
    }
    Metrics::dec(&state.metrics.table_connections);
    drop(permit);
}
