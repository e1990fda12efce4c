//! Hostile and unlucky clients: foreign origins, floods, oversize messages, slow readers,
//! laggy connections, headers trickled in to hold a connection.

use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb, TestServer, Ws, config, play, play_first_moves, start_match};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_finishes_its_headers_is_cut_off() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.header_read_timeout_secs = 1;
    let s = TestServer::start(c).await;
    let mut tcp = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
    tcp.write_all(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n")
        .await
        .unwrap();
    let started = Instant::now();
    let mut buf = Vec::new();
    // The server closes the connection (perhaps after a 408): the read reaches its end.
    tokio::time::timeout(Duration::from_secs(5), tcp.read_to_end(&mut buf))
        .await
        .expect("closed by the header-read timeout")
        .ok();
    assert!(started.elapsed() >= Duration::from_millis(900), "{buf:?}");
    // A complete request is answered as before.
    let rooms = s.http("GET", "/api/rooms", None, None).await;
    assert_eq!(rooms.status, 200);
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn foreign_origin_is_closed_with_1008() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.allowed_origins = vec!["https://damka.example".into()];
    let s = TestServer::start(c).await;
    let mut evil = Ws::connect(
        &s.addr,
        "/ws/rooms/russian",
        None,
        Some("https://evil.example"),
    )
    .await;
    assert_eq!(evil.closed().await, Some(1008));
    // The server's own origin and the allowed list are fine.
    let own = format!("http://{}", s.addr);
    let mut ws = Ws::connect(&s.addr, "/ws/rooms/russian", None, Some(&own)).await;
    assert_eq!(ws.recv().await["t"], "room");
    let mut ws = Ws::connect(
        &s.addr,
        "/ws/rooms/russian",
        None,
        Some("https://damka.example"),
    )
    .await;
    assert_eq!(ws.recv().await["t"], "room");
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_rate_limited_then_closed_with_1008() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (a, _) = s.guest("Ala").await;
    let t = s
        .create_table(&a, "russian", json!({"minutes": 5, "increment": 0}))
        .await;
    let id = t["id"].as_str().unwrap();
    let mut calm = s.table_ws(id, None).await;
    calm.state().await;
    let mut ws = s.table_ws(id, Some(&a)).await;
    ws.state().await;
    // Send in small batches and read the answers in between, so the client stops
    // writing once the server has closed (writing on would reset the connection and
    // could lose the close frame).
    let mut code = None;
    'flood: for batch in 0..10 {
        for i in 0..10 {
            let text = json!({"t": "ping", "ts": batch * 10 + i}).to_string();
            if ws.stream.send(Message::Text(text.into())).await.is_err() {
                break 'flood;
            }
        }
        loop {
            match tokio::time::timeout(Duration::from_millis(100), ws.stream.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => ws.log.push(serde_json::from_str(&t).unwrap()),
                Ok(Some(Ok(Message::Close(f)))) => {
                    code = f.map(|f| u16::from(f.code));
                    break 'flood;
                }
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(_)) | None) => break 'flood,
                Err(_) => break,
            }
        }
    }
    assert_eq!(code, Some(1008));
    let pongs = ws.log.iter().filter(|m| m["t"] == "pong").count();
    let limited = ws
        .log
        .iter()
        .filter(|m| m["code"] == "rate_limited")
        .count();
    assert!(
        (20..=25).contains(&pongs),
        "a burst of about 20 is allowed, got {pongs}"
    );
    assert!(limited >= 10, "then errors: {limited}");
    // The table and its other sockets are unaffected.
    calm.send(json!({"t": "ping", "ts": 1})).await;
    assert_eq!(calm.recv_t("pong").await["ts"], 1);
    assert_eq!(
        s.http("GET", &format!("/api/tables/{id}"), None, None)
            .await
            .status,
        200
    );
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversize_message_closes_with_1008() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut ws = s.room_ws("russian").await;
    ws.recv_t("room").await;
    ws.send(json!({"t": "ping", "ts": 1, "pad": "x".repeat(8 * 1024)}))
        .await;
    assert_eq!(ws.closed().await, Some(1008));
    s.stop().await;
    db.cleanup().await;
}

/// A socket whose queue fills is skipped, then refreshed with a `state` or disconnected;
/// meanwhile the players' moves are as fast as ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_reader_does_not_slow_the_table() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "international", json!({"minutes": 15, "increment": 0})).await;
    // A spectator with a tiny receive window that never reads.
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(1024).unwrap();
    let tcp = socket.connect(s.addr.parse().unwrap()).await.unwrap();
    let url = format!("ws://{}/ws/tables/{}", s.addr, m.table);
    let (mut slow, _) = tokio_tungstenite::client_async(url, tcp).await.unwrap();
    // The slow socket asks for the full state now and then (big messages that fill its
    // TCP window), and never reads.
    let mut turn = m.started["turn"].as_str().unwrap().to_owned();
    let mut legal = m.started["legal"].clone();
    let mut worst = Duration::ZERO;
    let mut seed: u64 = 7;
    let mut ply = 0;
    while ply < 120 {
        ply += 1;
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let options = legal.as_array().unwrap();
        let mv = options[(seed >> 33) as usize % options.len()]
            .as_str()
            .unwrap()
            .to_owned();
        // Human speed: each player stays under the per-connection message rate.
        tokio::time::sleep(Duration::from_millis(60)).await;
        if ply > 20 && ply % 2 == 0 {
            let resync = Message::Text(json!({"t": "resync"}).to_string().into());
            let _ = tokio::time::timeout(Duration::from_millis(50), slow.send(resync)).await;
        }
        let started = Instant::now();
        let ev: Value = play(&mut m, &turn, &mv, ply).await;
        worst = worst.max(started.elapsed());
        if ev["legal"] == json!([]) {
            break;
        }
        turn = ev["turn"].as_str().unwrap().to_owned();
        legal = ev["legal"].clone();
    }
    assert!(ply >= 40, "a long enough game: {ply} plies");
    assert!(worst < Duration::from_millis(500), "a move took {worst:?}");
    // The slow socket fell behind: it was refreshed with a state or dropped (1008).
    let mut texts = Vec::new();
    let mut close = None;
    while let Ok(Some(frame)) = tokio::time::timeout(Duration::from_secs(15), slow.next()).await {
        match frame {
            Ok(Message::Text(t)) => texts.push(serde_json::from_str::<Value>(&t).unwrap()),
            Ok(Message::Close(f)) => {
                close = f.map(|f| u16::from(f.code));
                break;
            }
            Ok(_) => {}
            Err(_) => break,
        }
        if texts
            .last()
            .is_some_and(|t| t["t"] == "move" && t["ply"] == ply)
        {
            break;
        }
    }
    // Loopback buffers are large, so the socket may or may not have fallen behind its
    // queue (the skipping itself is unit-tested in `table::subscribers`); either way it
    // got the last move, or a 1008 close for not keeping up.
    let states = texts.iter().filter(|t| t["t"] == "state").count();
    let dropped = metrics_value(&s, "damka_lagging_subscribers_dropped_total").await;
    eprintln!(
        "slow reader: {} messages, {states} states, close {close:?}, dropped {dropped}",
        texts.len()
    );
    let got_last = texts.iter().any(|t| t["t"] == "move" && t["ply"] == ply)
        || texts.iter().any(|t| {
            t["t"] == "state" && t["moves"].as_array().is_some_and(|m| m.len() as u64 == ply)
        });
    assert!(
        got_last || close == Some(1008),
        "{} messages, close {close:?}",
        texts.len()
    );
    // Whatever it received is consistent: each state is followed by contiguous versions.
    let mut v = None;
    for t in &texts {
        if t["t"] == "state" {
            v = t["v"].as_u64();
        } else if let (Some(prev), Some(cur)) = (v, t["v"].as_u64()) {
            assert_eq!(cur, prev + 1, "a gap without a state: {t}");
            v = Some(cur);
        }
    }
    s.stop().await;
    db.cleanup().await;
}

/// The measured round trip is forgiven: half of it comes off the mover's clock.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lag_compensation_uses_the_measured_round_trip() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    // Pings every second: a pong may be up to two periods (2 s) late before the socket
    // counts as dead, so the late one below is measured, not punished.
    c.tables.ws_ping_ms = 1000;
    let s = TestServer::start(c).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    play_first_moves(&mut m, 2).await;
    // White stops reading for 1.5 s: the ping sent meanwhile (within a period of its
    // last read) is answered 0.5 to 1.5 s late.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    m.white.0.silent(20).await; // reads the ping; the pong goes out with the next frame
    s.advance(5_000).await;
    m.white.0.send(json!({"t": "resync"})).await;
    let st = m.white.0.recv_t("state").await;
    let mv = st["legal"][0].as_str().unwrap().to_owned();
    let ev = play(&mut m, "white", &mv, 3).await;
    let white = ev["clock"]["white"].as_u64().unwrap();
    let charged = 300_000 - white;
    // The smoothed round trip takes a quarter of the late sample: 60 to 190 ms are
    // forgiven, within the quota.
    assert!(
        charged <= 4_980,
        "some lag was forgiven: charged {charged} ms"
    );
    assert!(
        charged >= 4_000,
        "but no more than the quota: charged {charged} ms"
    );
    s.stop().await;
    db.cleanup().await;
}

async fn metrics_value(s: &TestServer, name: &str) -> u64 {
    let body = s.http("GET", "/metrics", None, None).await.body;
    body.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|v| v.trim().parse().ok()))
        .unwrap_or(0)
}
