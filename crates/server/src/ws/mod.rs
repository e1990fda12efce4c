//! WebSockets: the upgrade (origin check, size limits, small buffers) and one session task
//! per socket ([`room_socket`], [`table_socket`]).

pub mod inbound;
pub mod rate_limit;
pub mod room_socket;
pub mod table_socket;

use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};
use damka_protocol::ErrorCode;

/// Largest message and frame accepted: every client message is well under 1 KiB.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// Initial read buffer of a socket.
const READ_BUFFER: usize = 1024;

/// Close codes of the protocol.
pub mod close {
    /// The table closed.
    pub const NORMAL: u16 = 1000;
    /// The server is shutting down.
    pub const GOING_AWAY: u16 = 1001;
    /// Policy: rate-limit abuse, oversize message, bad origin, too slow a reader.
    pub const POLICY: u16 = 1008;
    /// Internal error.
    pub const INTERNAL: u16 = 1011;
}

/// Applies the limits: small messages and frames, and small buffers so an idle
/// connection costs a few KiB (tungstenite's defaults are 128 KiB buffers).
pub fn limit(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        // Client messages are a few dozen bytes; the buffer grows for a rare bigger one.
        .read_buffer_size(READ_BUFFER)
        // 0: every message is flushed at once (moves must not wait in a buffer).
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
}

/// Whether the upgrade's `Origin` may open a socket: no `Origin` (not a browser), the
/// server's own host, or one of the allowed origins.
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else {
        return headers.get(ORIGIN).is_none();
    };
    if allowed
        .iter()
        .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(origin))
    {
        return true;
    }
    let origin_host = origin
        .strip_prefix("https://")
        .or_else(|| origin.strip_prefix("http://"))
        .unwrap_or("");
    let host = headers
        .get(HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    !origin_host.is_empty() && origin_host.eq_ignore_ascii_case(host)
}

/// Sends a close frame (errors ignored: the peer may be gone already).
pub async fn send_close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    let _ = socket.send(Message::Close(Some(frame))).await;
}

/// A JSON error frame for replies the session makes itself (no table involved).
pub fn error_frame(code: ErrorCode, message: &str, ack: Option<serde_json::Value>) -> Message {
    let mut obj = serde_json::json!({"t": "error", "code": code, "message": message});
    if let (Some(ack), Some(map)) = (ack, obj.as_object_mut()) {
        map.insert("ack".into(), ack);
    }
    Message::Text(obj.to_string().into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(HOST, host.parse().expect("host"));
        if let Some(o) = origin {
            h.insert(ORIGIN, o.parse().expect("origin"));
        }
        h
    }

    #[test]
    fn origins() {
        let allowed = vec!["https://damka.example".to_owned()];
        assert!(origin_allowed(&headers(None, "127.0.0.1:8080"), &allowed));
        assert!(origin_allowed(
            &headers(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"),
            &allowed
        ));
        assert!(origin_allowed(
            &headers(Some("https://damka.example"), "10.0.0.1"),
            &allowed
        ));
        assert!(!origin_allowed(
            &headers(Some("https://evil.example"), "127.0.0.1:8080"),
            &allowed
        ));
        assert!(!origin_allowed(
            &headers(Some("null"), "127.0.0.1:8080"),
            &allowed
        ));
    }
}
