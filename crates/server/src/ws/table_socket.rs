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

use super::inbound::{self, Inbound, ack_of};
use super::rate_limit::RateLimiter;
use super::{close, error_frame, limit, origin_allowed, send_close};
use crate::AppState;
use crate::error::AppError;
use crate::http::auth::guest_of;
use crate::metrics::Metrics;
use crate::table::{Command, Outgoing, SOCKET_QUEUE, TableHandle};

/// A ping unanswered for this long is given up (a new one is sent).
const PONG_TIMEOUT: Duration = Duration::from_secs(30);

/// Upgrades to a table socket. An unknown table gets an `error` (`not_found`) and a
/// normal close, so a reconnecting client stops trying.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let origin_ok = origin_allowed(&headers, &state.config.allowed_origins);
    let guest = guest_of(&state, &headers).await?;
    let handle = state.tables.get(&id);
    let span = tracing::info_span!("table_socket", table = %id, guest = guest.as_ref().map_or("", |g| g.id.as_str()));
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
                    let _ = socket
                        .send(error_frame(ErrorCode::NotFound, "no such table", None))
                        .await;
                    send_close(&mut socket, close::NORMAL, "no such table").await;
                    return;
                };
                session(socket, state, handle, guest).await;
            }
            .instrument(span),
        )
    }))
}

/// Round-trip measurement from WebSocket ping/pong frames.
#[derive(Default)]
struct Latency {
    /// The pending ping's payload and send time.
    pending: Option<(u64, Instant)>,
    /// Smoothed round trip, ms.
    rtt_ms: Option<u64>,
    /// Payload counter.
    seq: u64,
}

impl Latency {
    /// A new ping, unless one is still awaiting its pong (a slow pong is exactly the
    /// delay to measure, so it is not replaced).
    fn ping(&mut self) -> Option<Message> {
        if self
            .pending
            .is_some_and(|(_, sent)| sent.elapsed() < PONG_TIMEOUT)
        {
            return None;
        }
        self.seq += 1;
        self.pending = Some((self.seq, Instant::now()));
        Some(Message::Ping(self.seq.to_be_bytes().to_vec().into()))
    }

    fn pong(&mut self, payload: &[u8]) {
        let Some((seq, sent)) = self.pending else {
            return;
        };
        if payload == seq.to_be_bytes() {
            let sample = u64::try_from(sent.elapsed().as_millis()).unwrap_or(u64::MAX);
            // Smoothed like TCP's SRTT, so one slow sample does not swing the estimate.
            self.rtt_ms = Some(self.rtt_ms.map_or(sample, |r| (r * 3 + sample) / 4));
            self.pending = None;
        }
    }

    /// One-way delay estimate for lag compensation.
    fn lag_ms(&self) -> u64 {
        self.rtt_ms.unwrap_or(0) / 2
    }
}

async fn session(
    mut socket: WebSocket,
    state: AppState,
    handle: TableHandle,
    guest: Option<Player>,
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
    let mut latency = Latency::default();
    let mut pings = tokio::time::interval(Duration::from_millis(state.config.ws_ping_ms.max(10)));
    loop {
        tokio::select! {
            biased;
            () = state.shutdown.cancelled() => {
                send_close(&mut socket, close::GOING_AWAY, "server shutting down").await;
                break;
            }
            out = rx.recv() => match out {
                Some(Outgoing::Text(text)) => {
                    if socket.send(Message::Text(text)).await.is_err() {
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
                        latency.pong(&p);
                        continue;
                    }
                    Inbound::Handled => continue,
                    Inbound::End => break,
                };
                let msg = match serde_json::from_str::<ClientMessage>(&text) {
                    Ok(msg) => msg,
                    Err(e) => {
                        let frame = error_frame(ErrorCode::BadMessage, &e.to_string(), ack_of(&text));
                        if socket.send(frame).await.is_err() {
                            break;
                        }
                        continue;
                    }
                };
                // Answered here: a latency probe must not queue behind table work.
                if let ClientMessage::Ping { ts } = msg {
                    let pong = serde_json::json!({"t": "pong", "ts": ts}).to_string();
                    if socket.send(Message::Text(pong.into())).await.is_err() {
                        break;
                    }
                    continue;
                }
                let cmd = Command::Client { sub, msg, lag_ms: latency.lag_ms(), received: Instant::now() };
                if handle.tx.send(cmd).await.is_err() {
                    send_close(&mut socket, close::NORMAL, "table closed").await;
                    break;
                }
            }
            _ = pings.tick() => {
                if let Some(ping) = latency.ping()
                    && socket.send(ping).await.is_err() {
                        break;
                    }
            }
        }
    }
    // The actor may be gone (table closed or shutting down): nothing left to tell it then.
    let _ = handle.tx.send(Command::Leave { sub }).await;
    Metrics::dec(&state.metrics.table_connections);
}
