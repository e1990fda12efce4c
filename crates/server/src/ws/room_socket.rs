//! `GET /ws/rooms/{room}`: the room's table list, people, chat and presence, live. With
//! a session cookie the guest counts among the room's people, may chat and invite, and
//! receives the invitations addressed to them.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use damka_protocol::Player;
use damka_protocol::room::{RoomClientMessage, RoomServerMessage};
use tokio::sync::broadcast::error::RecvError;
use tracing::Instrument;

use super::heartbeat::Heartbeat;
use super::inbound::{self, Received};
use super::rate_limit::RateLimiter;
use super::{close, error_frame, limit, origin_allowed, send_close, send_within};
use crate::app::AppState;
use crate::error::AppError;
use crate::limits::{RateKey, SocketPermit};
use crate::room::Room;
use crate::session::ClientIp;
use crate::session::session_of;
use crate::session_sockets::SocketSession;

/// Upgrades to a room socket (`404` for an unknown room, `429` when the address holds
/// as many sockets as it may).
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(room): Path<String>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let room = state.room(&room)?;
    let permit = super::admit(&state, ip)?;
    let origin_ok = origin_allowed(&headers, &state.core.config.allowed_origins);
    let signed = session_of(&state.core, &headers).await?;
    // Registered now: a session that ends from here on closes the socket.
    let watch = signed
        .as_ref()
        .map(|(g, hash)| state.core.sessions.register(hash, &g.id));
    if let Some((g, _)) = &signed {
        crate::fair_play::seen(&state.core, g, ip);
    }
    let guest = match signed {
        // Among the room's people with its rating in the room's variant.
        Some((g, _)) => Some(crate::ratings::shown(&state.core, g, room.config.variant).await?),
        None => None,
    };
    let span = tracing::info_span!("room_socket", room = %room.config.id);
    let tracker = state.core.tracker.clone();
    Ok(limit(ws).on_upgrade(move |mut socket| {
        tracker.track_future(
            async move {
                if origin_ok {
                    let from = From { ip, permit, watch };
                    session(socket, state, room, guest, from).await;
                } else {
                    tracing::info!("rejected origin");
                    send_close(&mut socket, close::POLICY, "origin not allowed").await;
                }
            }
            .instrument(span),
        )
    }))
}

fn encode(msg: &RoomServerMessage) -> Option<Message> {
    match serde_json::to_string(msg) {
        Ok(t) => Some(Message::Text(t.into())),
        Err(e) => {
            tracing::error!(error = %e, "cannot serialise a room message");
            None
        }
    }
}

/// A room chat message from `guest` at `ip`: cleaned, rate-limited (the guest's budget,
/// and the address's for all its guests), stored, then sent to the room.
///
/// Fails with `unauthorized`, `bad_message`, `rate_limited` or a storage error.
async fn chat(
    state: &AppState,
    room: &Room,
    guest: Option<&Player>,
    ip: RateKey,
    text: &str,
) -> Result<(), AppError> {
    let guest = guest.ok_or(AppError::Unauthorized)?;
    crate::chat::address_token(&state.core.limits, ip, &format!("room:{}", room.config.id))?;
    let text = room.chat_admit(&guest.id, text)?;
    let from = room.shown_player(guest);
    let row = crate::chat::new_row(&format!("room:{}", room.config.id), &from, text, false);
    state.core.store.save_chat(&row).await?;
    room.chat_posted(crate::chat::message(&row));
    Ok(())
}

/// Sends the room's snapshot, in pages; `false` if the socket is gone or too slow.
async fn send_snapshot(socket: &mut WebSocket, room: &Room, within: Duration) -> bool {
    let frames = match room.snapshot_frames() {
        Ok(frames) => frames,
        Err(e) => {
            tracing::error!(error = %e, "cannot serialise the room snapshot");
            return false;
        }
    };
    for frame in frames {
        if !send_within(socket, Message::Text(frame), within, "room snapshot").await {
            return false;
        }
    }
    true
}

/// Where a room socket comes from: its address (with its place among the address's
/// sockets) and its session, if it has one.
struct From {
    /// The client's address.
    ip: RateKey,
    /// One of the address's sockets, given back when the session ends.
    permit: SocketPermit,
    /// The session's registration: its end closes the socket.
    watch: Option<SocketSession>,
}

async fn session(
    mut socket: WebSocket,
    state: AppState,
    room: Arc<Room>,
    guest: Option<Player>,
    from: From,
) {
    let From { ip, permit, watch } = from;
    state.core.metrics.room_connections.inc();
    let mut events = room.subscribe();
    room.socket_joined(true);
    if let Some(g) = &guest {
        room.person_socket(g, true);
    }
    let mut limiter = RateLimiter::default();
    let period = Duration::from_millis(state.core.config.tables.ws_ping_ms.max(10));
    let mut heartbeat = Heartbeat::new(period);
    // A send may take as long as a pong: a peer that stops reading is as dead as one
    // that stops answering.
    let within = heartbeat.dead_after();
    // The first ping after one period (a room socket measures no round trip, and a
    // ping racing a close at connect would only get in the way).
    let mut pings = tokio::time::interval_at(tokio::time::Instant::now() + period, period);
    let mut alive = send_snapshot(&mut socket, &room, within).await;
    // One wait for shutdown for the whole session (see `table_socket`).
    let shutdown = state.core.shutdown.cancelled();
    tokio::pin!(shutdown);
    let ended = super::session_ended(watch.as_ref());
    tokio::pin!(ended);
    while alive {
        tokio::select! {
            biased;
            () = &mut shutdown => {
                send_close(&mut socket, close::GOING_AWAY, "server shutting down").await;
                break;
            }
            // Before anything the client sent is read (see `table_socket`).
            () = &mut ended => {
                send_close(&mut socket, close::SIGNED_OUT, "signed out").await;
                break;
            }
            event = events.recv() => match event {
                Ok(event) => {
                    if event.is_for(guest.as_ref().map(|g| g.id.as_str())) {
                        alive = send_within(&mut socket, Message::Text(event.text), within, "room event").await;
                    }
                }
                // Fell behind: a fresh snapshot replaces the missed events.
                Err(RecvError::Lagged(_)) => {
                    alive = send_snapshot(&mut socket, &room, within).await;
                }
                Err(RecvError::Closed) => break,
            },
            incoming = socket.recv() => {
                let received = inbound::receive(&mut socket, incoming, &mut limiter, &mut heartbeat, within);
                let msg = match received.await {
                    Received::Message(msg, _) => msg,
                    Received::Nothing => continue,
                    Received::End => break,
                };
                let reply = match msg {
                    RoomClientMessage::Ping { ts } => encode(&RoomServerMessage::Pong { ts }),
                    RoomClientMessage::Chat { text, ack } => {
                        match chat(&state, &room, guest.as_ref(), ip, &text).await {
                            Ok(()) => None,
                            Err(e) => Some(error_frame(e.code(), &e.client_message(), ack)),
                        }
                    }
                    RoomClientMessage::Invite { to, table, ack } => {
                        let sent = guest
                            .as_ref()
                            .ok_or(AppError::Unauthorized)
                            .and_then(|g| room.invite(g, &to, &table));
                        match sent {
                            Ok(()) => None,
                            Err(e) => Some(error_frame(e.code(), &e.client_message(), ack)),
                        }
                    }
                };
                if let Some(reply) = reply {
                    alive = send_within(&mut socket, reply, within, "room reply").await;
                }
            }
            _ = pings.tick() => alive = inbound::beat(&mut socket, &mut heartbeat, within).await,
        }
    }
    if let Some(g) = &guest {
        room.person_socket(g, false);
    }
    room.socket_joined(false);
    state.core.metrics.room_connections.dec();
    drop(permit);
}
