//! One table of two guests under load (the bots bench's "people's tables"): players who
//! start games and play random legal moves, each as soon as the previous move is
//! acknowledged (paced to stay under the server's per-socket rate limit), timing every
//! move from send to `ack`.

use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A client WebSocket.
pub type Socket = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// How long any expected frame may take before the table counts as failed.
const FRAME_TIMEOUT: Duration = Duration::from_secs(15);

/// A guest with its open table socket.
pub struct Player {
    /// Guest id.
    pub id: String,
    /// The table socket.
    pub ws: Socket,
}

/// What one table did.
#[derive(Default)]
pub struct TableStats {
    /// Send → `ack` of every move, microseconds.
    pub rtt_us: Vec<u32>,
    /// Games that ended during the run.
    pub games_over: u64,
    /// Why the table stopped early, if it did.
    pub error: Option<String>,
}

/// Opens `ws://addr/path`, with the session cookie when given.
pub async fn connect(addr: &str, path: &str, cookie: Option<&str>) -> Result<Socket, String> {
    let mut req = format!("ws://{addr}{path}")
        .into_client_request()
        .map_err(|e| e.to_string())?;
    if let Some(c) = cookie {
        let value = c.parse().map_err(|_| "bad cookie".to_owned())?;
        req.headers_mut().insert("cookie", value);
    }
    let (ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .map_err(|e| format!("connect {path}: {e}"))?;
    Ok(ws)
}

/// The next JSON text frame.
async fn next_json(ws: &mut Socket) -> Result<Value, String> {
    loop {
        let frame = tokio::time::timeout(FRAME_TIMEOUT, ws.next())
            .await
            .map_err(|_| format!("no frame in {FRAME_TIMEOUT:?}"))?;
        match frame {
            Some(Ok(Message::Text(t))) => {
                return serde_json::from_str(&t).map_err(|e| format!("bad JSON {t}: {e}"));
            }
            Some(Ok(Message::Close(c))) => return Err(format!("closed by the server: {c:?}")),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
            None => return Err("socket ended".into()),
        }
    }
}

/// The next JSON message, whatever its type.
#[allow(dead_code)] // used by the bots bench, not by load
pub async fn recv_any(ws: &mut Socket) -> Result<Value, String> {
    next_json(ws).await
}

/// The next message of type `t`, skipping the others; an `error` fails.
pub async fn recv_t(ws: &mut Socket, t: &str) -> Result<Value, String> {
    loop {
        let v = next_json(ws).await?;
        if v["t"] == t {
            return Ok(v);
        }
        if v["t"] == "error" {
            return Err(format!("expected {t}, got {v}"));
        }
    }
}

/// Sends a JSON message.
pub async fn send(ws: &mut Socket, v: Value) -> Result<(), String> {
    ws.send(Message::Text(v.to_string().into()))
        .await
        .map_err(|e| e.to_string())
}

/// A small xorshift generator: the moves only need to vary, not to be unpredictable.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n.max(1) as u64) as usize
    }
}

/// Plays games at one table until `until`. `gap` is the least time between two moves of
/// the table, so that each player stays under the server's per-socket message rate.
pub async fn drive(players: [Player; 2], until: Instant, gap: Duration, seed: u64) -> TableStats {
    let mut stats = TableStats::default();
    let mut players = players;
    let mut rng = Rng(seed | 1);
    if let Err(e) = play_games(&mut players, until, gap, &mut rng, &mut stats).await {
        stats.error = Some(e);
    }
    stats
}

async fn play_games(
    players: &mut [Player; 2],
    until: Instant,
    gap: Duration,
    rng: &mut Rng,
    stats: &mut TableStats,
) -> Result<(), String> {
    while Instant::now() < until {
        for p in players.iter_mut() {
            send(&mut p.ws, json!({"t": "start"})).await?;
        }
        let started = recv_t(&mut players[0].ws, "game_started").await?;
        recv_t(&mut players[1].ws, "game_started").await?;
        // Colours swap from one game to the next: find who plays White.
        let white = usize::from(started["white"]["id"] != players[0].id.as_str());
        let mut turn = started["turn"].clone();
        let mut legal = started["legal"].clone();
        let mut ply = started["opening"].as_array().map_or(0, Vec::len) as u64;
        let mut last_send = Instant::now() - gap;
        loop {
            if Instant::now() >= until {
                return Ok(());
            }
            let moves = legal.as_array().ok_or("no legal list")?;
            let Some(mv) = moves.get(rng.below(moves.len())).cloned() else {
                return Err(format!("playing without a legal move: {legal}"));
            };
            let mover = if turn == "white" { white } else { 1 - white };
            tokio::time::sleep_until((last_send + gap).into()).await;
            ply += 1;
            last_send = Instant::now();
            let ws = &mut players[mover].ws;
            send(ws, json!({"t": "move", "move": mv, "ply": ply, "ack": ply})).await?;
            let ack = recv_t(ws, "ack").await?;
            let rtt = last_send.elapsed();
            if ack["ack"] != ply {
                return Err(format!("ack for ply {ply}: {ack}"));
            }
            stats
                .rtt_us
                .push(u32::try_from(rtt.as_micros()).unwrap_or(u32::MAX));
            let ev = recv_t(ws, "move").await?;
            recv_t(&mut players[1 - mover].ws, "move").await?;
            turn = ev["turn"].clone();
            legal = ev["legal"].clone();
            if legal.as_array().is_none_or(Vec::is_empty) {
                for p in players.iter_mut() {
                    recv_t(&mut p.ws, "game_over").await?;
                }
                stats.games_over += 1;
                break;
            }
        }
    }
    Ok(())
}
