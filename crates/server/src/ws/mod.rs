//! WebSockets: the upgrade (origin check, size limits, small buffers) and one session task
//! per socket ([`room_socket`], [`table_socket`]).

pub mod heartbeat;
pub mod inbound;
pub mod rate_limit;
pub mod room_socket;
pub mod table_socket;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::http::HeaderMap;
use axum::http::header::{HOST, ORIGIN};
use damka_protocol::ErrorCode;
use futures_util::SinkExt;

use crate::error::AppError;
use crate::limits::SocketPermit;

/// Largest message and frame accepted: every client message is well under 1 KiB.
pub const MAX_MESSAGE: usize = 4 * 1024;

/// Largest frame the server writes. Room snapshots come in pages of about 32 KiB, and
/// a table's `state` of a very long game (hundreds of plies with long captures) is
/// around 100 KiB; sends wait until a frame is out (`write_buffer_size(0)`), so this is
/// also the most a socket buffers for a slow reader.
pub const MAX_OUTGOING: usize = 1024 * 1024;

/// Initial read buffer of a socket.
const READ_BUFFER: usize = 1024;

/// Bytes of frames a socket holds before writing them out, when a session queues several
/// at once ([`send_all_within`]); every send still ends with a flush, so nothing waits in
/// the buffer.
const WRITE_BUFFER: usize = 4 * 1024;

/// Close codes of the protocol.
pub use damka_protocol::close;

/// Admits one more socket from `ip`: within the address's rate of socket opens
/// (`--socket-opens-per-second`, a burst of five seconds' worth) and its count of open
/// sockets (`--max-sockets-per-address`).
///
/// Fails with `rate_limited` (opening too fast) or `too_many_connections`.
pub fn admit(
    state: &crate::app::AppState,
    ip: crate::limits::RateKey,
) -> Result<SocketPermit, AppError> {
    let rate = state.core.config.limits.socket_opens_per_second;
    if !state.core.limits.socket_opens.take(ip, rate * 5.0, rate) {
        tracing::info!(%ip, rate, "socket refused: opened too fast from one address");
        return Err(AppError::RateLimited);
    }
    let max = state.core.config.limits.max_sockets_per_address;
    state.core.limits.open_socket(ip, max).ok_or_else(|| {
        tracing::info!(%ip, max, "socket refused: too many from one address");
        AppError::TooManyConnections(max)
    })
}

/// Completes when the socket's session ends ([`crate::session_sockets`]); never for a
/// socket without one.
pub async fn session_ended(watch: Option<&crate::session_sockets::SocketSession>) {
    match watch {
        Some(w) => w.ended().await,
        None => std::future::pending().await,
    }
}

/// Applies the limits: small messages and frames, and small buffers so an idle
/// connection costs a few KiB (tungstenite's defaults are 128 KiB buffers).
pub fn limit(ws: WebSocketUpgrade) -> WebSocketUpgrade {
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        // Client messages are a few dozen bytes; the buffer grows for a rare bigger one.
        .read_buffer_size(READ_BUFFER)
        // Frames queued together (a move's `ack` and its event) leave in one write; every
        // send flushes, so moves never wait in the buffer.
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(MAX_OUTGOING)
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

/// Sends a close frame. A failure is only logged (at debug): the peer may be gone
/// already, and the session ends either way.
pub async fn send_close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    match tokio::time::timeout(CLOSE_TIMEOUT, socket.send(Message::Close(Some(frame)))).await {
        Ok(Ok(())) => {}
        Ok(Err(e)) => tracing::debug!(error = %e, code, "close frame not sent"),
        Err(_) => tracing::debug!(code, "close frame not sent in time"),
    }
}

/// How long a close frame may take to go out.
const CLOSE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends a frame, waiting at most `within` (a peer that stopped reading fills the TCP
/// buffers and would hold the send forever). `false` (logged, with what was being sent)
/// when the socket is gone, too slow, or the frame is over [`MAX_OUTGOING`]: the
/// session then ends.
pub async fn send_within(
    socket: &mut WebSocket,
    msg: Message,
    within: std::time::Duration,
    what: &'static str,
) -> bool {
    if let Message::Text(t) = &msg
        && t.len() + 16 > MAX_OUTGOING
    {
        // A bug: every message the server builds is meant to fit.
        tracing::error!(what, bytes = t.len(), "frame over the write limit; closing");
        return false;
    }
    let sent = tokio::time::timeout(within, socket.send(msg)).await;
    went_out(sent.map(|r| r.map(|()| true)), within, what)
}

/// Whether a bounded send went out; logs why not (the peer is gone, or not reading
/// within `within`).
fn went_out(
    sent: Result<Result<bool, axum::Error>, tokio::time::error::Elapsed>,
    within: std::time::Duration,
    what: &'static str,
) -> bool {
    match sent {
        Ok(Ok(sent)) => sent,
        Ok(Err(e)) => {
            tracing::debug!(error = %e, what, "send failed; closing the socket");
            false
        }
        Err(_) => {
            tracing::info!(what, ?within, "peer not reading; closing the socket");
            false
        }
    }
}

/// Sends `first` and then every text frame `more` yields (after `ping`, if any), in one
/// write where they fit the write buffer (a move's `ack` and its event go out together:
/// one system call, one packet), waiting at most `within` in all, as [`send_within`] does
/// for one frame.
pub async fn send_all_within(
    socket: &mut WebSocket,
    first: Utf8Bytes,
    mut more: impl FnMut() -> Option<Utf8Bytes>,
    ping: Option<Message>,
    within: std::time::Duration,
    what: &'static str,
) -> bool {
    let feed_all = async {
        if let Some(ping) = ping {
            socket.feed(ping).await?;
        }
        let mut next = Some(first);
        while let Some(text) = next.take() {
            if text.len() + 16 > MAX_OUTGOING {
                // A bug: every message the server builds is meant to fit.
                tracing::error!(
                    what,
                    bytes = text.len(),
                    "frame over the write limit; closing"
                );
                return Ok(false);
            }
            socket.feed(Message::Text(text)).await?;
            next = more();
        }
        socket.flush().await.map(|()| true)
    };
    went_out(tokio::time::timeout(within, feed_all).await, within, what)
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

    /// The `state` of a very long International game (1,000 plies, each a nine-piece
    /// capture with its clock) fits in one frame with room to spare; the old 64 KiB
    /// limit would have dropped it.
    #[test]
    fn a_long_games_state_fits_in_a_frame() {
        use damka_protocol::ClockTimes;
        use damka_protocol::table::PlayedMove;
        let path = ["46", "37", "28", "19", "10", "4", "15", "24", "33", "42"];
        let moves: Vec<PlayedMove> = (1..=1000)
            .map(|ply| PlayedMove {
                ply,
                mv: path.join("x"),
                captures: ["41", "32", "23", "14", "9", "20", "29", "38", "47"]
                    .map(str::to_owned)
                    .to_vec(),
                clock: ClockTimes {
                    white: 899_999,
                    black: 899_999,
                },
            })
            .collect();
        let bytes = serde_json::to_string(&moves).map_or(usize::MAX, |t| t.len());
        // The rest of a `state` (table, seats, FENs, legal moves) is a few KiB.
        let state = bytes + 16 * 1024;
        assert!(state > 64 * 1024, "{state}");
        assert!(state * 4 < MAX_OUTGOING, "{state}");
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
