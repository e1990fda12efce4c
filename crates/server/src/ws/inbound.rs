//! What both socket sessions do with what a client sends, up to a typed message: end on a
//! bad frame, a binary frame (1003) or a flood (1008), answer rate-limited messages, give
//! pongs to the heartbeat, answer a message that does not parse with `bad_message` (its
//! `ack` kept) ([`receive`]); and what both do at a ping tick ([`beat`]). Every frame a
//! client sends counts against the connection's one budget, control frames too: a ping
//! flood costs the server a pong each (written by the WebSocket library itself), so it is
//! closed like any other flood.

use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use damka_protocol::ErrorCode;

use super::heartbeat::{Beat, Heartbeat};
use super::rate_limit::{RateLimiter, Verdict};
use super::{close, error_frame, send_close, send_within};

/// A client's next message, as both sessions read it.
pub enum Received<M> {
    /// A message to handle, with its text (for its `ack`).
    Message(M, Utf8Bytes),
    /// Nothing more to do now: a pong given to the heartbeat, a ping (the library answers
    /// it), or a frame already answered with an `error`.
    Nothing,
    /// The session ends (closed, gone, a bad frame or a flood).
    End,
}

/// Reads what `socket.recv()` returned as a message of type `M` ([`sort`] first; a pong
/// goes to `heartbeat`; a message that does not parse is answered with `bad_message`
/// within `within`).
pub async fn receive<M: serde::de::DeserializeOwned>(
    socket: &mut WebSocket,
    incoming: Option<Result<Message, axum::Error>>,
    limiter: &mut RateLimiter,
    heartbeat: &mut Heartbeat,
    within: Duration,
) -> Received<M> {
    let text = match sort(socket, incoming, limiter).await {
        Inbound::Text(text) => text,
        Inbound::Pong(p) => {
            heartbeat.pong(&p);
            return Received::Nothing;
        }
        Inbound::Handled => return Received::Nothing,
        Inbound::End => return Received::End,
    };
    match serde_json::from_str::<M>(&text) {
        Ok(msg) => Received::Message(msg, text),
        Err(e) => {
            let frame = error_frame(ErrorCode::BadMessage, &e.to_string(), ack_of(&text));
            match send_within(socket, frame, within, "error").await {
                true => Received::Nothing,
                false => Received::End,
            }
        }
    }
}

/// A ping tick of a session: a ping sent (within `within`), nothing, or a dead peer's
/// socket closed (1008). Whether the session goes on.
pub async fn beat(socket: &mut WebSocket, heartbeat: &mut Heartbeat, within: Duration) -> bool {
    match heartbeat.tick(std::time::Instant::now()) {
        Beat::Ping(ping) => send_within(socket, ping, within, "ping").await,
        Beat::Wait => true,
        Beat::Dead => {
            tracing::info!(?within, "no pong; closing a dead socket");
            send_close(socket, close::POLICY, "no pong").await;
            false
        }
    }
}

/// One frame from a client, sorted by what the session does with it.
pub enum Inbound {
    /// A text message within the rate limit: the session parses and handles it.
    Text(Utf8Bytes),
    /// The answer to one of the session's pings.
    Pong(Bytes),
    /// Nothing left to do: a client ping (the library answers it), or a frame already
    /// answered with an `error`.
    Handled,
    /// The session ends: the client closed or went away, sent a bad or oversize frame
    /// (closed with 1008), a binary frame (1003), or kept flooding (closed with 1008).
    End,
}

/// Sorts what `socket.recv()` returned, closing or answering the socket where the frame
/// alone decides it.
pub async fn sort(
    socket: &mut WebSocket,
    incoming: Option<Result<Message, axum::Error>>,
    limiter: &mut RateLimiter,
) -> Inbound {
    let msg = match incoming {
        Some(Ok(msg)) => msg,
        Some(Err(e)) => {
            // Oversize messages and protocol violations end up here.
            tracing::debug!(error = %e, "socket read error");
            send_close(socket, close::POLICY, "bad frame or message too large").await;
            return Inbound::End;
        }
        None => return Inbound::End,
    };
    let text = match msg {
        Message::Text(t) => t,
        Message::Close(_) => return Inbound::End,
        Message::Binary(_) => {
            send_close(socket, close::UNSUPPORTED, "text frames only").await;
            return Inbound::End;
        }
        // Control frames: within the budget they are what they are (the library answers a
        // ping by itself); over it they are dropped, and a flood ends the connection.
        Message::Pong(p) => {
            return match limiter.check() {
                Verdict::Allow => Inbound::Pong(p),
                Verdict::Reject => Inbound::Handled,
                Verdict::Close => flooded(socket).await,
            };
        }
        Message::Ping(_) => {
            return match limiter.check() {
                Verdict::Allow | Verdict::Reject => Inbound::Handled,
                Verdict::Close => flooded(socket).await,
            };
        }
    };
    match limiter.check() {
        Verdict::Allow => Inbound::Text(text),
        Verdict::Reject => {
            let reply = error_frame(ErrorCode::RateLimited, "too many messages", ack_of(&text));
            answered(send_within(socket, reply, REPLY_WITHIN, "rate_limited").await)
        }
        Verdict::Close => flooded(socket).await,
    }
}

/// Closes a flooding connection (1008).
async fn flooded(socket: &mut WebSocket) -> Inbound {
    send_close(socket, close::POLICY, "rate limit").await;
    Inbound::End
}

/// How long a reply made here may take to go out: a client that floods without reading
/// must not hold its session in a send.
const REPLY_WITHIN: Duration = Duration::from_secs(10);

/// [`Inbound::Handled`] if the reply went out, [`Inbound::End`] if the socket is gone
/// (logged by [`send_within`]).
fn answered(sent: bool) -> Inbound {
    if sent { Inbound::Handled } else { Inbound::End }
}

/// The `ack` of a message, read without knowing its type (for errors about a message that
/// is rejected or fails to parse).
pub fn ack_of(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()?
        .get("ack")
        .cloned()
}
