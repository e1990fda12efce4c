//! The benchmark's side of a socket, made cheap enough for 10,000 of them in one process on
//! the server's own cores: small buffers, and messages read by scanning their text for the
//! few fields a player needs instead of parsing the JSON (every server message starts
//! with its `"t"`, serde's tag).

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpStream;
use tokio_tungstenite::WebSocketStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;

/// A client socket.
pub type Socket = WebSocketStream<TcpStream>;

/// How long a frame expected during setup may take.
const SETUP_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(30);

/// Opens `ws://addr/path` (with the session cookie when given): `TCP_NODELAY`, a 4 KiB
/// read buffer and no write buffer, as the server's sockets.
pub async fn connect(addr: &str, path: &str, cookie: Option<&str>) -> Result<Socket, String> {
    let mut req = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(c) = cookie {
        let value = c.parse().map_err(|_| "bad cookie".to_owned())?;
        req.headers_mut().insert("cookie", value);
    }
    let tcp = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {path}: {e}"))?;
    tcp.set_nodelay(true).map_err(|e| e.to_string())?;
    let config = WebSocketConfig::default()
        .read_buffer_size(4096)
        .write_buffer_size(0);
    let (ws, _) = tokio_tungstenite::client_async_with_config(req, tcp, Some(config))
        .await
        .map_err(|e| format!("handshake {path}: {e}"))?;
    Ok(ws)
}

/// Sends a text frame.
pub async fn send(ws: &mut Socket, text: String) -> Result<(), String> {
    ws.send(Message::Text(text.into()))
        .await
        .map_err(|e| e.to_string())
}

/// Setup only: the next message of kind `t` (others skipped); an `error` fails.
pub async fn recv_kind(ws: &mut Socket, t: &str) -> Result<String, String> {
    loop {
        let frame = tokio::time::timeout(SETUP_TIMEOUT, ws.next())
            .await
            .map_err(|_| format!("no {t} in {SETUP_TIMEOUT:?}"))?;
        match frame {
            Some(Ok(Message::Text(text))) => {
                let k = kind(&text);
                if k == t {
                    return Ok(text.as_str().to_owned());
                }
                if k == "error" {
                    return Err(format!("expected {t}, got {text}"));
                }
            }
            Some(Ok(Message::Close(c))) => return Err(format!("closed: {c:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("socket ended".into()),
        }
    }
}

/// The kind of a server message: the value of its leading `"t"`.
pub fn kind(text: &str) -> &str {
    text.strip_prefix(r#"{"t":""#)
        .and_then(|rest| rest.split('"').next())
        .unwrap_or("")
}

/// The first string field `name` (`"name":"value"`).
pub fn str_field<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let at = find_key(text, name)?;
    let rest = text[at..].strip_prefix('"')?;
    rest.split('"').next()
}

/// The first number field `name` (`"name":123`).
pub fn num_field(text: &str, name: &str) -> Option<u64> {
    let at = find_key(text, name)?;
    let rest = &text[at..];
    let end = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// The strings of the first array field `name` (`"name":["a","b"]`); move texts hold no
/// quotes or commas, so no unescaping is needed.
pub fn str_array<'a>(text: &'a str, name: &str) -> impl Iterator<Item = &'a str> {
    let body = find_key(text, name)
        .and_then(|at| text[at..].strip_prefix('['))
        .and_then(|rest| rest.split(']').next())
        .unwrap_or("");
    body.split(',')
        .map(|s| s.trim_matches('"'))
        .filter(|s| !s.is_empty())
}

/// The id of White in a `game_started` (its first `"white":{"id":"..."`).
pub fn white_id(text: &str) -> Option<&str> {
    let key = r#""white":{"id":""#;
    let at = text.find(key)? + key.len();
    text[at..].split('"').next()
}

/// Where the value of the first `"name":` begins.
fn find_key(text: &str, name: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = text[from..].find(name) {
        let start = from + i;
        let end = start + name.len();
        if start > 0 && text.as_bytes()[start - 1] == b'"' && text[end..].starts_with("\":") {
            return Some(end + 2);
        }
        from = end;
    }
    None
}
