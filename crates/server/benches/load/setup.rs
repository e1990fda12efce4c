//! Setting up a run's tables, many at once: against `damka` two guests, a table, both
//! sockets, the second player seated and the first game started; against the relay two
//! sockets on a table id. Each table's players task is spawned as soon as its table is
//! ready, so its sockets are read (and the server's pings answered) while the others are
//! being set up.
//!
//! On a cluster the first player's guest, the table and its socket are on the node that
//! is to own the table, the second player's guest and socket on another node (its socket
//! proxied to the owner over NATS).

use std::future::Future;

use futures_util::StreamExt;
use serde_json::json;

use super::client::{self, Socket, recv_kind, send};
use super::players::Seat;
use super::server::http;

/// How many tables are set up at once.
const CONCURRENCY: usize = 48;

/// A table ready to play.
pub struct Ready {
    /// The two players (White first at the first game).
    pub seats: [Seat; 2],
    /// The first game's `game_started` (empty against the relay).
    pub started: String,
    /// The table socket's path (for spectators).
    pub path: String,
}

/// Runs `make(i)` for `i` in `0..n`, [`CONCURRENCY`] at a time, in order of completion.
///
/// Fails with the first table that could not be set up.
pub async fn many<T, F, Fut>(n: usize, make: F) -> Result<Vec<T>, String>
where
    F: Fn(usize) -> Fut,
    Fut: Future<Output = Result<T, String>>,
{
    let mut made = Vec::with_capacity(n);
    let mut stream = futures_util::stream::iter(0..n)
        .map(make)
        .buffer_unordered(CONCURRENCY);
    while let Some(r) = stream.next().await {
        made.push(r?);
        if made.len() % 1000 == 0 {
            eprintln!("  {} of {n} set up", made.len());
        }
    }
    Ok(made)
}

/// A new guest: `(id, cookie)`.
async fn guest(addr: &str, name: &str) -> Result<(String, String), String> {
    let r = http(
        addr,
        "POST",
        "/api/guest",
        None,
        Some(&json!({"name": name})),
    )
    .await?;
    let id = r.json()?["id"].as_str().ok_or("no guest id")?.to_owned();
    Ok((id, r.cookie.ok_or("no session cookie")?))
}

/// A `damka` table of Russian draughts at `minutes` + 0 whose first game has started,
/// created on the node at `owner` with White's socket there and Black's on the node at
/// `other` (the same address on one node).
pub async fn damka_table(
    owner: &str,
    other: &str,
    i: usize,
    minutes: u32,
) -> Result<Ready, String> {
    let (a_id, a_cookie) = guest(owner, &format!("Biały {i}")).await?;
    let (b_id, b_cookie) = guest(other, &format!("Czarny {i}")).await?;
    let opts = json!({"minutes": minutes, "increment": 0, "random_opening": false,
                      "capture_optional": false, "seat": "white"});
    let r = http(
        owner,
        "POST",
        "/api/rooms/russian/tables",
        Some(&a_cookie),
        Some(&opts),
    )
    .await?;
    if r.status != 201 {
        return Err(format!("create table: {} {}", r.status, r.body));
    }
    let id = r.json()?["id"].as_str().ok_or("no table id")?.to_owned();
    let path = format!("/ws/tables/{id}");
    let mut a = client::connect(owner, &path, Some(&a_cookie)).await?;
    recv_kind(&mut a, "state").await?;
    let mut b = client::connect(other, &path, Some(&b_cookie)).await?;
    recv_kind(&mut b, "state").await?;
    send(&mut b, r#"{"t":"sit","seat":"black"}"#.into()).await?;
    recv_kind(&mut b, "seated").await?;
    for ws in [&mut a, &mut b] {
        send(ws, r#"{"t":"start"}"#.into()).await?;
    }
    let started = recv_kind(&mut a, "game_started").await?;
    recv_kind(&mut b, "game_started").await?;
    Ok(Ready {
        seats: [
            Seat {
                id: a_id,
                ws: a,
                proxied: false,
            },
            Seat {
                id: b_id,
                ws: b,
                proxied: owner != other,
            },
        ],
        started,
        path,
    })
}

/// Two sockets on relay table `i`.
pub async fn relay_table(addr: &str, i: usize) -> Result<Ready, String> {
    let path = format!("/ws/relay/t{i}");
    let a = client::connect(addr, &path, None).await?;
    let b = client::connect(addr, &path, None).await?;
    Ok(Ready {
        seats: [
            Seat {
                id: String::new(),
                ws: a,
                proxied: false,
            },
            Seat {
                id: String::new(),
                ws: b,
                proxied: false,
            },
        ],
        started: String::new(),
        path,
    })
}

/// An idle spectator of the table at `path` (after its `state`, against `damka`).
pub async fn spectator(addr: &str, path: &str, relay: bool) -> Result<Socket, String> {
    let mut ws = client::connect(addr, path, None).await?;
    if !relay {
        recv_kind(&mut ws, "state").await?;
    }
    Ok(ws)
}
