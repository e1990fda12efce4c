//! Abuse limits and socket hardening (issue 7, items 3, 4, 5, 6, 8): big rooms, cross-site
//! requests, per-address caps, guest expiry, dead peers, the mover check, JSON errors and
//! security headers.

use damka_protocol::ErrorCode;
use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb, TestServer, Ws, config, request};
use damka_protocol::TableView;
use futures_util::StreamExt;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One raw HTTP/1.1 request with exactly the given headers (the common client always
/// declares JSON); returns the status line's code, the lower-cased head and the body.
async fn raw(addr: &str, head: &str, body: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).await.expect("connect");
    let req = format!(
        "{head}\r\nHost: {addr}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(req.as_bytes()).await.expect("write");
    let mut out = Vec::new();
    stream.read_to_end(&mut out).await.expect("read");
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// The error code of a JSON error body (panics on anything else).
fn code_of(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body}"));
    v["error"]["code"].as_str().expect("error code").to_owned()
}

// ---------------------------------------------------------------- item 3: big rooms

/// A room with 2,000 open tables sends all of them: a `room` message and `room_tables`
/// pages, every frame well under the write limit (before the fix the one snapshot frame
/// was over 64 KiB, silently dropped, and the page showed an empty room).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_with_2000_tables_arrives_whole() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (cookie, _) = s.guest("Ala").await;
    let real = s
        .create_table(&cookie, "russian", json!({"minutes": 5, "increment": 3}))
        .await;
    let room = s.server.state.core.rooms.get("russian").unwrap().clone();
    for i in 0..1999 {
        let mut v = real.clone();
        v["id"] = format!("tbulk{i:04}").into();
        let view: TableView = serde_json::from_value(v).unwrap();
        room.table_changed(view, true);
    }
    let mut ws = s.room_ws("russian").await;
    let first = ws.recv_t("room").await;
    let mut ids: Vec<String> = first["tables"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_str().unwrap().to_owned())
        .collect();
    let mut more = first["more"].as_bool().unwrap_or(false);
    let mut frames = 1;
    while more {
        let page = ws.recv_t("room_tables").await;
        frames += 1;
        ids.extend(
            page["tables"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["id"].as_str().unwrap().to_owned()),
        );
        more = page["more"].as_bool().unwrap();
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 2000, "every table arrives once");
    assert!(frames > 1, "a room this big comes in pages");
    let largest = ws
        .log
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(0);
    assert!(largest < 40 * 1024, "largest frame {largest} bytes");
    // Events after the snapshot still arrive.
    let (c2, _) = s.guest("Bolek").await;
    s.create_table(&c2, "russian", json!({"minutes": 5, "increment": 3}))
        .await;
    assert_eq!(ws.recv_t("table_added").await["t"], "table_added");
    s.stop().await;
}

// ---------------------------------------------------------- item 4: cross-site requests

/// A cross-site form (text/plain, foreign Origin, no cookie) cannot create a guest and
/// overwrite the player's cookie; neither can a cross-site `fetch`; the client's own
/// requests still work.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cross_site_form_cannot_replace_the_session() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (cookie, _) = s.guest("Ala").await;
    // The form of an attacking page: text/plain, Origin of the other site.
    let (status, head, body) = raw(
        &s.addr,
        "POST /api/guest HTTP/1.1\r\nContent-Type: text/plain\r\nOrigin: https://evil.example\r\nSec-Fetch-Site: cross-site",
        "{\"name\":\"Evil\"}",
    )
    .await;
    assert_eq!(status, 403, "{head}{body}");
    assert_eq!(code_of(&body), "forbidden");
    assert!(!head.contains("set-cookie"), "{head}");
    // The same without the browser's headers (an old browser): text/plain is refused.
    let (status, head, body) = raw(
        &s.addr,
        "POST /api/guest HTTP/1.1\r\nContent-Type: text/plain",
        "{}",
    )
    .await;
    assert_eq!(status, 415, "{head}{body}");
    assert_eq!(code_of(&body), "bad_message");
    assert!(!head.contains("set-cookie"), "{head}");
    // A cross-site fetch that declares JSON is refused by its Sec-Fetch-Site / Origin.
    for extra in [
        "Sec-Fetch-Site: cross-site",
        "Sec-Fetch-Site: same-site",
        "Origin: https://evil.example",
        "Origin: null",
    ] {
        let (status, _, body) = raw(
            &s.addr,
            &format!("POST /api/guest HTTP/1.1\r\nContent-Type: application/json\r\n{extra}"),
            "{}",
        )
        .await;
        assert_eq!(status, 403, "{extra}: {body}");
    }
    // Creating a table cross-site, with the victim's cookie (a Lax cookie is not sent on
    // a cross-site POST, but an old browser might): refused too.
    let (status, _, body) = raw(
        &s.addr,
        &format!("POST /api/rooms/russian/tables HTTP/1.1\r\nContent-Type: text/plain\r\nCookie: {cookie}\r\nOrigin: https://evil.example"),
        "{\"minutes\":5,\"increment\":3}",
    )
    .await;
    assert_eq!(status, 403, "{body}");
    // The client's own requests: same origin, JSON.
    let origin = format!("http://{}", s.addr);
    let (status, _, body) = raw(
        &s.addr,
        &format!("POST /api/guest HTTP/1.1\r\nContent-Type: application/json\r\nOrigin: {origin}\r\nSec-Fetch-Site: same-origin\r\nCookie: {cookie}"),
        "{}",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(serde_json::from_str::<Value>(&body).unwrap()["name"], "Ala");
    s.stop().await;

    // An origin the operator lists (another host of the same deployment) is accepted,
    // whatever Sec-Fetch-Site says.
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.allowed_origins = vec!["https://www.damka.example".into()];
    let s = TestServer::start(c).await;
    let (status, _, body) = raw(
        &s.addr,
        "POST /api/guest HTTP/1.1\r\nContent-Type: application/json\r\nOrigin: https://www.damka.example\r\nSec-Fetch-Site: same-site",
        "{}",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    s.stop().await;
}

// ---------------------------------------------------------- item 5: per-address caps

/// One address holds at most `max_sockets_per_address` sockets (room and table sockets
/// together); the next upgrade is refused with 429 `too_many_connections`, and a closed
/// socket frees its place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_at_most_its_socket_cap() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.limits.max_sockets_per_address = 5;
    let s = TestServer::start(c).await;
    let (cookie, _) = s.guest("Ala").await;
    let table = s
        .create_table(&cookie, "russian", json!({"minutes": 5, "increment": 3}))
        .await;
    let id = table["id"].as_str().unwrap();
    let mut open = Vec::new();
    for _ in 0..4 {
        let mut ws = s.room_ws("russian").await;
        ws.recv_t("room").await;
        open.push(ws);
    }
    let mut t = s.table_ws(id, Some(&cookie)).await;
    t.state().await;
    // The sixth: refused before the upgrade, with the JSON error shape.
    let (status, _, body) = raw(
        &s.addr,
        "GET /ws/rooms/russian HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "",
    )
    .await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(code_of(&body), "too_many_connections");
    let url = format!("ws://{}/ws/tables/{id}", s.addr);
    assert!(tokio_tungstenite::connect_async(url).await.is_err());
    // One closes: there is room for one more once the server has seen it go.
    let mut gone = open.pop().unwrap();
    gone.stream.close(None).await.unwrap();
    drop(gone);
    let ip = damka_server::limits::RateKey::new("127.0.0.1".parse().unwrap(), 64);
    let deadline = Instant::now() + crate::common::ws::TIMEOUT;
    while s.server.state.core.limits.sockets_of(ip) >= 5 {
        assert!(Instant::now() < deadline, "the closed socket is released");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let mut again = s.room_ws("russian").await;
    again.recv_t("room").await;
    s.stop().await;
}

/// A flood of guest creations from one address: the burst (30) goes through, the rest
/// is answered 429 `rate_limited` and stores nothing. Another address (through a trusted
/// proxy's X-Forwarded-For) has a bucket of its own; an untrusted X-Forwarded-For is
/// ignored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guest_creation_is_rate_limited_per_address() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut created = 0;
    let mut refused = 0;
    for i in 0..100 {
        // Spoofed addresses change nothing: the proxy is not trusted.
        let spoof = format!("10.1.0.{i}");
        let r = request(
            &s.addr,
            "POST",
            "/api/guest",
            None,
            Some("{}"),
            &[("X-Forwarded-For", spoof.as_str())],
        )
        .await;
        match r.status {
            200 => created += 1,
            429 => {
                assert_eq!(r.error_code(), "rate_limited");
                assert!(r.cookie().is_none());
                refused += 1;
            }
            other => panic!("status {other}: {}", r.body),
        }
    }
    assert_eq!((created, refused), (30, 70));
    assert_eq!(s.server.state.core.store.guest_count().await.unwrap(), 30);
    // The cookie's guest is returned even when the address is out of tokens.
    let r = request(&s.addr, "POST", "/api/guest", None, Some("{}"), &[]).await;
    assert_eq!(r.status, 429);
    s.stop().await;

    // Behind a trusted proxy every client address has its own bucket.
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.trust_forwarded_for = true;
    c.limits.guests_per_minute = 2;
    let s = TestServer::start(c).await;
    let statuses = async |xff: &str| {
        let mut out = Vec::new();
        for _ in 0..3 {
            let hdr = [("X-Forwarded-For", xff)];
            out.push(
                request(&s.addr, "POST", "/api/guest", None, Some("{}"), &hdr)
                    .await
                    .status,
            );
        }
        out
    };
    assert_eq!(statuses("198.51.100.7, 10.0.0.1").await, [200, 200, 429]);
    assert_eq!(statuses("10.0.0.2").await, [200, 200, 429]);
    s.stop().await;
}

/// One address may have `max_tables_per_address` open tables, whichever guests made
/// them; the next is 429 `too_many_tables`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_tables_are_capped_per_address() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.limits.max_tables_per_address = 4;
    let s = TestServer::start(c).await;
    let opts = json!({"minutes": 5, "increment": 3});
    let (a, _) = s.guest("Ala").await;
    let (b, _) = s.guest("Bolek").await;
    for _ in 0..3 {
        s.create_table(&a, "russian", opts.clone()).await;
    }
    s.create_table(&b, "russian", opts.clone()).await;
    let r = s
        .http("POST", "/api/rooms/russian/tables", Some(&b), Some(opts))
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.error_code(), "too_many_tables");
    assert_eq!(s.server.state.tables.len(), 4);
    s.stop().await;
}

/// The sweep deletes guests who never played, hold no seat and have not been seen for
/// `guest_expiry_days`; a guest with a game, a seated guest and a guest seen since are
/// kept, and the seen time of a guest who made a request is written.
async fn idle_guests_expire_but_never_players_or_seated_ones(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (idle, _) = s.guest("Idle").await;
    let (seated, _) = s.guest("Seated").await;
    s.create_table(&seated, "russian", json!({"minutes": 5, "increment": 3}))
        .await;
    let mut m =
        crate::common::start_match(&s, "russian", json!({"minutes": 5, "increment": 3})).await;
    crate::common::play_first_moves(&mut m, 2).await;
    // The game ends: its players hold no seat any more, but they have a game.
    m.white.0.send(json!({"t": "resign"})).await;
    m.white.0.recv_t("game_over").await;
    for w in [&mut m.white.0, &mut m.black.0] {
        w.stream.close(None).await.ok();
    }
    let (recent, _) = s.guest("Recent").await;
    // The seen times so far are written...
    damka_server::sweep::sweep_guests(&s.server.state.core)
        .await
        .unwrap();
    // ...then everybody was last seen long ago...
    sql(&db, "UPDATE guests SET seen_at = 0").await;
    // ...except one, seen now (any request with the cookie).
    assert_eq!(
        s.http("GET", "/api/me", Some(&recent), None).await.status,
        200
    );
    let sweep = damka_server::sweep::sweep_guests(&s.server.state.core)
        .await
        .unwrap();
    assert_eq!(sweep.expired, 1, "{sweep:?}");
    assert!(sweep.seen >= 1, "{sweep:?}");
    assert_eq!(
        s.http("GET", "/api/me", Some(&idle), None).await.status,
        401
    );
    for kept in [&seated, &m.white.1, &m.black.1, &recent] {
        assert_eq!(s.http("GET", "/api/me", Some(kept), None).await.status, 200);
    }
    // A second sweep finds nothing more (the kept ones were seen just now anyway).
    let again = damka_server::sweep::sweep_guests(&s.server.state.core)
        .await
        .unwrap();
    assert_eq!(again.expired, 0);
    let seen = sql(
        &db,
        "SELECT MIN(seen_at) FROM guests WHERE id NOT LIKE 'bot-%'",
    )
    .await;
    assert!(seen > 0, "every kept guest was seen");
    // The computer's seats are never expired, though nobody "sees" them.
    let bots = sql(&db, "SELECT COUNT(*) FROM guests WHERE id LIKE 'bot-%'").await;
    assert_eq!(bots, 3, "the computer's seats stay");
    s.stop().await;
}

both_backends!(idle_guests_expire_but_never_players_or_seated_ones);

/// Runs one statement on the test's database (behind the server's back); returns the
/// first column of the first row for a query, 0 otherwise.
async fn sql(db: &TestDb, statement: &str) -> i64 {
    use sqlx::Connection;
    if db.url.starts_with("sqlite") {
        let mut c = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
        if statement.starts_with("SELECT") {
            sqlx::query_scalar(statement)
                .fetch_one(&mut c)
                .await
                .unwrap()
        } else {
            sqlx::query(statement).execute(&mut c).await.unwrap();
            0
        }
    } else {
        let mut c = sqlx::PgConnection::connect(&db.url).await.unwrap();
        if statement.starts_with("SELECT") {
            sqlx::query_scalar(statement)
                .fetch_one(&mut c)
                .await
                .unwrap()
        } else {
            sqlx::query(statement).execute(&mut c).await.unwrap();
            0
        }
    }
}

// ---------------------------------------------------------------- item 6: dead peers

/// A table socket whose client stops answering pings (it never reads again) is closed
/// within two ping periods, and the other players see its presence go.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_table_peer_is_noticed_within_two_ping_periods() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.tables.ws_ping_ms = 300;
    let s = TestServer::start(c).await;
    let (a, _) = s.guest("Ala").await;
    let (b, _) = s.guest("Bolek").await;
    let table = s
        .create_table(
            &a,
            "russian",
            json!({"minutes": 5, "increment": 3, "seat": "white"}),
        )
        .await;
    let id = table["id"].as_str().unwrap();
    let mut watcher = s.table_ws(id, Some(&b)).await;
    watcher.state().await;
    // White connects, then goes silent: the socket is never read again, so the client
    // answers no ping.
    let silent = s.table_ws(id, Some(&a)).await;
    let p = watcher.recv_t("presence").await;
    assert_eq!(p["white"], true);
    let since = Instant::now();
    let p = watcher.recv_t("presence").await;
    let noticed = since.elapsed();
    assert_eq!(p["white"], false, "{p}");
    eprintln!("dead table peer noticed after {noticed:?} (ping period 300 ms)");
    assert!(noticed < Duration::from_secs(5), "{noticed:?}");
    drop(silent);
    s.stop().await;
}

/// Room sockets are pinged too: a silent one is closed and the room's presence drops.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_room_peer_is_noticed_within_two_ping_periods() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.tables.ws_ping_ms = 300;
    let s = TestServer::start(c).await;
    // `players` counts people (guests with a session), so both sockets have one.
    let (a, _) = s.guest("Ala").await;
    let (b, _) = s.guest("Bolek").await;
    let mut watcher =
        crate::common::Ws::connect(&s.addr, "/ws/rooms/russian", Some(&a), None).await;
    watcher.recv_t("room").await;
    let silent = crate::common::Ws::connect(&s.addr, "/ws/rooms/russian", Some(&b), None).await;
    while watcher.recv_t("presence").await["players"] != 2 {}
    let since = Instant::now();
    while watcher.recv_t("presence").await["players"] != 1 {}
    let noticed = since.elapsed();
    eprintln!("dead room peer noticed after {noticed:?} (ping period 300 ms)");
    assert!(noticed < Duration::from_secs(5), "{noticed:?}");
    drop(silent);
    s.stop().await;
}

/// A peer that answers pings stays connected however long it is idle.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_live_idle_peer_stays() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.tables.ws_ping_ms = 100;
    let s = TestServer::start(c).await;
    let mut ws = s.room_ws("russian").await;
    ws.recv_t("room").await;
    // Reading answers the pings; ten dead-peer bounds pass and the socket stays open.
    let open_for = tokio::time::timeout(Duration::from_secs(2), async {
        loop {
            match ws.stream.next().await {
                Some(Ok(tokio_tungstenite::tungstenite::Message::Close(c))) => {
                    panic!("closed: {c:?}")
                }
                Some(Ok(_)) => {}
                other => panic!("socket ended: {other:?}"),
            }
        }
    })
    .await;
    assert!(open_for.is_err(), "still reading after two seconds");
    ws.send(json!({"t": "ping", "ts": 7})).await;
    assert_eq!(ws.recv_t("pong").await["ts"], 7);
    s.stop().await;
}

// ---------------------------------------------------------------- item 8: smaller ones

/// A move resent for an already played ply by the player who did not play it is
/// refused (`not_your_turn`), not acknowledged.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resent_move_from_the_wrong_player_is_refused() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut m =
        crate::common::start_match(&s, "russian", json!({"minutes": 5, "increment": 3})).await;
    let first = crate::common::play_first_moves(&mut m, 1).await;
    let mv = first["move"].as_str().unwrap().to_owned();
    let ply = first["ply"].as_u64().unwrap();
    let mover = m.started["turn"].as_str().unwrap().to_owned();
    let not_mover = if mover == "white" { "black" } else { "white" };
    // The player who did not play that ply resends its move.
    let ws = m.side(not_mover);
    ws.send(json!({"t": "move", "move": mv, "ply": ply, "ack": "x"}))
        .await;
    let reply = loop {
        let v = ws.recv().await;
        if v["t"] == "ack" || v["t"] == "error" {
            break v;
        }
    };
    assert_eq!(reply["t"], "error", "{reply}");
    assert_eq!(reply["code"], "not_your_turn");
    // The mover's own resend is still acknowledged.
    let ws = m.side(&mover);
    ws.send(json!({"t": "move", "move": mv, "ply": ply, "ack": "y"}))
        .await;
    assert_eq!(ws.recv_t("ack").await["ack"], "y");
    s.stop().await;
}

/// The errors answered outside the handlers have the JSON error shape too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_http_error_is_json() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let big = format!("{{\"name\":\"{}\"}}", "x".repeat(10_000));
    let cases: Vec<(u16, crate::common::Response)> = vec![
        (
            413,
            request(&s.addr, "POST", "/api/guest", None, Some(&big), &[]).await,
        ),
        (405, s.http("GET", "/api/guest", None, None).await),
        (405, s.http("DELETE", "/api/rooms", None, None).await),
        (
            400,
            s.http("GET", "/api/rooms/russian/games?limit=abc", None, None)
                .await,
        ),
        (404, s.http("GET", "/api/nothing/here", None, None).await),
        (
            404,
            s.http("POST", "/api/nothing", None, Some(json!({}))).await,
        ),
        (400, s.http("GET", "/api/tables/%FF", None, None).await),
    ];
    for (status, r) in cases {
        assert_eq!(r.status, status, "{}", r.body);
        assert!(
            r.header("content-type")
                .is_some_and(|c| c.starts_with("application/json")),
            "{status}: {:?} {}",
            r.headers,
            r.body
        );
        assert!(!r.error_code().is_empty(), "{}", r.body);
    }
    s.stop().await;
}

/// Every response carries the security headers; the CSP allows only the server itself
/// and forbids framing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn responses_carry_the_security_headers() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    for path in ["/", "/js/app.js", "/api/rooms", "/api/nothing"] {
        let r = s.http("GET", path, None, None).await;
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("default-src 'self'"), "{path}: {csp}");
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(r.header("referrer-policy"), Some("same-origin"), "{path}");
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
    }
    s.stop().await;
}

/// `/metrics` is on the main port by default; with `metrics_bind` it moves to its own
/// address and the main port no longer serves it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_can_have_their_own_address() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let r = s.http("GET", "/metrics", None, None).await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("damka_"), "{}", r.body);
    assert!(s.server.metrics_addr.is_none());
    s.stop().await;

    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.metrics_bind = Some("127.0.0.1:0".parse().unwrap());
    let s = TestServer::start(c).await;
    let r = s.http("GET", "/metrics", None, None).await;
    assert_eq!(r.status, 404, "{}", r.body);
    let maddr = s.server.metrics_addr.expect("metrics address").to_string();
    let r = request(&maddr, "GET", "/metrics", None, None, &[]).await;
    assert_eq!(r.status, 200);
    assert!(r.body.contains("damka_"), "{}", r.body);
    // Nothing else is served there.
    let r = request(&maddr, "GET", "/api/rooms", None, None, &[]).await;
    assert_eq!(r.status, 404);
    s.stop().await;
}

/// A table socket for an id that is not one (here with a newline) is answered
/// `not_found` like any unknown table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_table_id_is_not_found() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut ws = Ws::connect(&s.addr, "/ws/tables/t1%0AFORGED", None, None).await;
    assert_eq!(ws.error_code().await, ErrorCode::NotFound);
    assert_eq!(ws.closed().await, Some(1000));
    // The raw stream is done.
    assert!(ws.stream.next().await.is_none_or(|f| f.is_err()));
    s.stop().await;
}
