//! `GET /ws/rooms/{room}`: the room's table list, people, chat and presence, live. With
//! a session cookie the guest counts among the room's people and may chat.

use std::sync::Arc;

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::response::Response;
use damka_protocol::room::{RoomClientMessage, RoomServerMessage};
use damka_protocol::{ErrorCode, Player};
use tokio::sync::broadcast::error::RecvError;
use tracing::Instrument;

use super::inbound::{self, Inbound};
use super::rate_limit::RateLimiter;
use super::{close, error_frame, limit, origin_allowed, send_close};
use crate::AppState;
use crate::error::AppError;
use crate::http::auth::guest_of;
use crate::metrics::Metrics;
use crate::room::Room;

/// Upgrades to a room socket (`404` for an unknown room).
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    Path(room): Path<String>,
    headers: HeaderMap,
) -> Result<Response, AppError> {
    let room = state
        .rooms
        .get(&room)
        .ok_or(AppError::NotFound("room"))?
        .clone();
    let origin_ok = origin_allowed(&headers, &state.config.allowed_origins);
    let guest = guest_of(&state, &headers).await?;
    let span = tracing::info_span!("room_socket", room = %room.config.id);
    let tracker = state.tracker.clone();
    Ok(limit(ws).on_upgrade(move |mut socket| {
        tracker.track_future(
            async move {
                if origin_ok {
                    session(socket, state, room, guest).await;
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
    serde_json::to_string(msg)
        .ok()
        .map(|t| Message::Text(t.into()))
}

/// A room chat message from `guest`: cleaned, rate-limited, stored, then sent to the
/// room.
///
/// Fails with `unauthorized`, `bad_message`, `rate_limited` or a storage error.
async fn chat(
    state: &AppState,
    room: &Room,
    guest: Option<&Player>,
    text: &str,
) -> Result<(), AppError> {
    let guest = guest.ok_or(AppError::Unauthorized)?;
    let text = crate::chat::clean(text)?;
    room.chat_token(&guest.id)?;
    let from = room.shown_player(guest);
    let row = crate::chat::new_row(&format!("room:{}", room.config.id), &from, text, false);
    state.store.save_chat(&row).await?;
    room.chat_posted(crate::chat::message(&row));
    Ok(())
}

async fn session(mut socket: WebSocket, state: AppState, room: Arc<Room>, guest: Option<Player>) {
    Metrics::inc(&state.metrics.room_connections);
    let mut events = room.subscribe();
    room.socket_joined(true);
    if let Some(g) = &guest {
        room.person_socket(g, true);
    }
    let mut limiter = RateLimiter::default();
    if let Some(snapshot) = encode(&room.snapshot()) {
        let _ = socket.send(snapshot).await;
    }
    loop {
        tokio::select! {
            biased;
            () = state.shutdown.cancelled() => {
                send_close(&mut socket, close::GOING_AWAY, "server shutting down").await;
                break;
            }
            event = events.recv() => match event {
                Ok(text) => {
                    if socket.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                // Fell behind: a fresh snapshot replaces the missed events.
                Err(RecvError::Lagged(_)) => {
                    if let Some(snapshot) = encode(&room.snapshot())
                        && socket.send(snapshot).await.is_err() {
                            break;
                        }
                }
                Err(RecvError::Closed) => break,
            },
            incoming = socket.recv() => {
                let text = match inbound::sort(&mut socket, incoming, &mut limiter).await {
                    Inbound::Text(text) => text,
                    Inbound::Pong(_) | Inbound::Handled => continue,
                    Inbound::End => break,
                };
                let reply = match serde_json::from_str::<RoomClientMessage>(&text) {
                    Ok(RoomClientMessage::Ping { ts }) => encode(&RoomServerMessage::Pong { ts }),
                    Ok(RoomClientMessage::Chat { text, ack }) => {
                        match chat(&state, &room, guest.as_ref(), &text).await {
                            Ok(()) => None,
                            Err(e) => Some(error_frame(e.code(), &e.client_message(), ack)),
                        }
                    }
                    Err(e) => Some(error_frame(ErrorCode::BadMessage, &e.to_string(), None)),
                };
                if let Some(reply) = reply
                    && socket.send(reply).await.is_err() {
                        break;
                    }
            }
        }
    }
    if let Some(g) = &guest {
        room.person_socket(g, false);
    }
    room.socket_joined(false);
    Metrics::dec(&state.metrics.room_connections);
}
