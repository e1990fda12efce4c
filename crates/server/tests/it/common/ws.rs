//! A WebSocket test client: JSON in and out, with timeouts so a missing event fails the
//! test instead of hanging it.
//!
//! Every message a table or room socket receives is decoded into the protocol's own types
//! (`damka_protocol::table::ServerMessage`, `damka_protocol::room::RoomServerMessage`),
//! so a message the protocol crate cannot read fails the test that received it. Tests
//! assert on those types where one exists ([`Ws::msg_t`], [`Ws::error_code`],
//! [`Ws::game_over`]); the raw JSON stays for what the types do not name (an unknown
//! field that must be absent, the order of keys).

use std::time::Duration;

use damka_protocol::room::RoomServerMessage;
use damka_protocol::table::{MovePlayed, ServerMessage, State};
use damka_protocol::{ClockView, EndReason, ErrorCode, GameResult, Side};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long to wait for an expected frame.
pub const TIMEOUT: Duration = Duration::from_secs(10);

/// What a socket speaks, from its path: which protocol type its messages must decode as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `/ws/tables/…`: [`ServerMessage`].
    Table,
    /// `/ws/rooms/…`: [`RoomServerMessage`].
    Room,
    /// Anything else: not checked.
    Other,
}

impl Kind {
    fn of(path: &str) -> Kind {
        if path.starts_with("/ws/tables/") {
            Kind::Table
        } else if path.starts_with("/ws/rooms/") {
            Kind::Room
        } else {
            Kind::Other
        }
    }

    /// Panics unless `v` decodes as this socket's message type.
    fn check(self, v: &Value) {
        let r = match self {
            Kind::Table => serde_json::from_value::<ServerMessage>(v.clone()).map(drop),
            Kind::Room => serde_json::from_value::<RoomServerMessage>(v.clone()).map(drop),
            Kind::Other => Ok(()),
        };
        if let Err(e) = r {
            panic!("a {self:?} socket received a message its protocol type cannot read ({e}): {v}");
        }
    }
}

/// A `game_over`, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct Over {
    /// The result (`None`: aborted).
    pub result: Option<GameResult>,
    /// Why.
    pub reason: EndReason,
    /// Whose action ended it.
    pub by: Option<Side>,
    /// The final clock.
    pub clock: ClockView,
    /// The message as sent.
    pub raw: Value,
}

/// An `error` message, typed.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The code.
    pub code: ErrorCode,
    /// The explanation.
    pub message: String,
    /// The failing message's `ack`.
    pub ack: Option<Value>,
    /// The legal moves, for `illegal_move`.
    pub legal: Option<Vec<String>>,
}

/// A connected socket.
pub struct Ws {
    /// The stream.
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Every JSON message received, in order (for version checks).
    pub log: Vec<Value>,
    /// Which protocol type every message must decode as.
    pub kind: Kind,
}

impl Ws {
    /// Connects to `path` with an optional cookie and `Origin`.
    pub async fn connect(addr: &str, path: &str, cookie: Option<&str>, origin: Option<&str>) -> Ws {
        Ws::try_connect(addr, path, cookie, origin, None)
            .await
            .expect("websocket connects")
    }

    /// Connects as a client at address `from` (an `X-Forwarded-For` entry, for a server
    /// that trusts it); `Err` with the refusal's HTTP status.
    pub async fn connect_from(
        addr: &str,
        path: &str,
        cookie: Option<&str>,
        from: &str,
    ) -> Result<Ws, u16> {
        Ws::try_connect(addr, path, cookie, None, Some(from)).await
    }

    async fn try_connect(
        addr: &str,
        path: &str,
        cookie: Option<&str>,
        origin: Option<&str>,
        from: Option<&str>,
    ) -> Result<Ws, u16> {
        let mut req = format!("ws://{addr}{path}")
            .into_client_request()
            .expect("request");
        if let Some(c) = cookie {
            req.headers_mut()
                .insert("cookie", c.parse().expect("cookie"));
        }
        if let Some(o) = origin {
            req.headers_mut()
                .insert("origin", o.parse().expect("origin"));
        }
        if let Some(ip) = from {
            req.headers_mut()
                .insert("x-forwarded-for", ip.parse().expect("address"));
        }
        match tokio_tungstenite::connect_async(req).await {
            Ok((stream, _)) => Ok(Ws {
                stream,
                log: Vec::new(),
                kind: Kind::of(path),
            }),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Err(r.status().as_u16()),
            Err(e) => panic!("websocket connect: {e}"),
        }
    }

    /// Sends a JSON message.
    pub async fn send(&mut self, v: Value) {
        self.stream
            .send(Message::Text(v.to_string().into()))
            .await
            .expect("send");
    }

    /// Sends raw text.
    pub async fn send_text(&mut self, t: &str) {
        self.stream
            .send(Message::Text(t.to_owned().into()))
            .await
            .expect("send");
    }

    /// The next JSON message.
    pub async fn recv(&mut self) -> Value {
        let deadline = tokio::time::Instant::now() + TIMEOUT;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.stream.next())
                .await
                .unwrap_or_else(|_| {
                    let tail: Vec<_> = self.log.iter().rev().take(5).collect();
                    panic!("no frame before the timeout; last received: {tail:?}")
                })
                .expect("socket open")
                .expect("frame ok");
            match frame {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(&t).expect("JSON");
                    self.kind.check(&v);
                    self.log.push(v.clone());
                    return v;
                }
                Message::Close(c) => panic!("socket closed: {c:?}"),
                _ => continue,
            }
        }
    }

    /// The next message of type `t`, or an `error` (whichever comes first).
    pub async fn recv_t_or_error(&mut self, t: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["t"] == t || v["t"] == "error" {
                return v;
            }
        }
    }

    /// Every JSON message that arrives within `window` (a rate measurement: how much a
    /// client is sent in that time); stops early if the socket closes.
    pub async fn drain_for(&mut self, window: Duration) -> Vec<Value> {
        let deadline = tokio::time::Instant::now() + window;
        let mut out = Vec::new();
        while let Ok(frame) = tokio::time::timeout_at(deadline, self.stream.next()).await {
            match frame {
                Some(Ok(Message::Text(t))) => {
                    if let Ok(v) = serde_json::from_str::<Value>(&t) {
                        self.kind.check(&v);
                        self.log.push(v.clone());
                        out.push(v);
                    }
                }
                Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
        out
    }

    /// The next message of type `t`, skipping others (e.g. `presence`).
    pub async fn recv_t(&mut self, t: &str) -> Value {
        loop {
            let v = self.recv().await;
            if v["t"] == t {
                return v;
            }
            assert!(
                !(v["t"] == "error" && t != "error"),
                "expected {t}, got an error: {v}"
            );
        }
    }

    /// The next table message of type `t` (skipping others, as [`Ws::recv_t`]), typed.
    pub async fn msg_t(&mut self, t: &str) -> ServerMessage {
        let v = self.recv_t(t).await;
        serde_json::from_value(v).expect("a table message")
    }

    /// The next `state` on a table socket, typed.
    pub async fn state(&mut self) -> State {
        match self.msg_t("state").await {
            ServerMessage::State(s) => *s,
            other => panic!("a state: {other:?}"),
        }
    }

    /// The next `move` on a table socket, typed.
    pub async fn moved(&mut self) -> MovePlayed {
        match self.msg_t("move").await {
            ServerMessage::Move(m) => *m,
            other => panic!("a move: {other:?}"),
        }
    }

    /// The next `error` on a table or room socket, typed.
    pub async fn error(&mut self) -> Refusal {
        let v = self.recv_t("error").await;
        let refusal = match self.kind {
            Kind::Room => match serde_json::from_value(v.clone()) {
                Ok(RoomServerMessage::Error { code, message, ack }) => Some(Refusal {
                    code,
                    message,
                    ack,
                    legal: None,
                }),
                _ => None,
            },
            _ => match serde_json::from_value(v.clone()) {
                Ok(ServerMessage::Error {
                    code,
                    message,
                    ack,
                    legal,
                }) => Some(Refusal {
                    code,
                    message,
                    ack,
                    legal,
                }),
                _ => None,
            },
        };
        refusal.unwrap_or_else(|| panic!("an error message: {v}"))
    }

    /// The code of the next `error` on a table or room socket.
    pub async fn error_code(&mut self) -> ErrorCode {
        self.error().await.code
    }

    /// The next `game_over` on a table socket, typed.
    pub async fn game_over(&mut self) -> Over {
        let raw = self.recv_t("game_over").await;
        match serde_json::from_value(raw.clone()) {
            Ok(ServerMessage::GameOver {
                result,
                reason,
                by,
                clock,
                ..
            }) => Over {
                result,
                reason,
                by,
                clock,
                raw,
            },
            _ => panic!("a game_over: {raw}"),
        }
    }

    /// Reads until the socket closes; returns the close code (`None` if closed without one).
    pub async fn closed(&mut self) -> Option<u16> {
        loop {
            match tokio::time::timeout(TIMEOUT, self.stream.next())
                .await
                .expect("closes before the timeout")
            {
                Some(Ok(Message::Close(frame))) => {
                    return frame.map(|f: CloseFrame| u16::from(f.code));
                }
                Some(Ok(Message::Text(t))) => {
                    if let Ok(v) = serde_json::from_str::<Value>(&t) {
                        self.kind.check(&v);
                        self.log.push(v);
                    }
                }
                Some(Ok(_)) => {}
                Some(Err(_)) | None => return None,
            }
        }
    }

    /// Asserts nothing arrives within `ms` (besides pings).
    pub async fn silent(&mut self, ms: u64) {
        let r = tokio::time::timeout(Duration::from_millis(ms), async {
            loop {
                match self.stream.next().await {
                    Some(Ok(Message::Text(t))) => return Some(t),
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                    _ => {}
                }
            }
        })
        .await;
        if let Ok(Some(t)) = r {
            panic!("unexpected message: {t}");
        }
    }
}
