//! What both socket sessions do with a frame a client sent before they look at its
//! content: end on a bad frame or a flood, answer binary frames and rate-limited messages.

use axum::body::Bytes;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket};
use damka_protocol::ErrorCode;

use super::rate_limit::{RateLimiter, Verdict};
use super::{close, error_frame, send_close};

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
    /// (closed with 1008), or kept flooding (closed with 1008).
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
        Message::Pong(p) => return Inbound::Pong(p),
        Message::Close(_) => return Inbound::End,
        Message::Binary(_) => {
            let reply = error_frame(ErrorCode::BadMessage, "text frames only", None);
            return answered(socket.send(reply).await);
        }
        Message::Ping(_) => return Inbound::Handled,
    };
    match limiter.check() {
        Verdict::Allow => Inbound::Text(text),
        Verdict::Reject => {
            let reply = error_frame(ErrorCode::RateLimited, "too many messages", ack_of(&text));
            answered(socket.send(reply).await)
        }
        Verdict::Close => {
            send_close(socket, close::POLICY, "rate limit").await;
            Inbound::End
        }
    }
}

/// [`Inbound::Handled`] if the reply went out, [`Inbound::End`] if the socket is gone.
fn answered(sent: Result<(), axum::Error>) -> Inbound {
    if sent.is_ok() {
        Inbound::Handled
    } else {
        Inbound::End
    }
}

/// The `ack` of a message, read without knowing its type (for errors about a message that
/// is rejected or fails to parse).
pub fn ack_of(text: &str) -> Option<serde_json::Value> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()?
        .get("ack")
        .cloned()
}
