//! The public lookups (issue 34, items 2 and 3): a player's games and a room's games page
//! through every game exactly once, a player's PDN streams all of them (not the latest
//! 1,000), one address's flood of lookups is refused past its budget, a full lookups'
//! pool keeps lookups out and nothing else (sessions, new guests, sign-in, table sockets
//! and moves go on), and one guest sweep deletes every idle guest, a batch at a time.
//! The games and guests are written behind the server's back (SQL), thousands at once.

use std::collections::HashSet;

use serde_json::{Value, json};

use crate::common::{Backend, TestDb, TestServer, config};
use damka_server::Config;

/// A configuration that takes the client address from `X-Forwarded-For`.
fn cfg(db: &TestDb) -> Config {
    let mut c = config(db);
    c.trust_forwarded_for = true;
    c
}

/// Runs statements on the test's database (behind the server's back).
async fn exec(db: &TestDb, statements: &[String]) {
    use sqlx::Connection;
    if db.url.starts_with("sqlite") {
        let mut c = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
        for s in statements {
            sqlx::query(s).execute(&mut c).await.unwrap();
        }
    } else {
        let mut c = sqlx::PgConnection::connect(&db.url).await.unwrap();
        for s in statements {
            sqlx::query(s).execute(&mut c).await.unwrap();
        }
    }
}

/// `INSERT`s of `rows` (value lists) into `table (columns)`, 200 rows a statement.
fn inserts(table: &str, columns: &str, rows: &[String]) -> Vec<String> {
    rows.chunks(200)
        .map(|chunk| {
            format!(
                "INSERT INTO {table} ({columns}) VALUES {}",
                chunk.join(", ")
            )
        })
        .collect()
}

/// The value list of a finished Russian game `id` of `white` against `black`, ended at
/// `ended_at` (Unix ms), aborted or played.
fn game_row(
    id: &str,
    white: (&str, &str),
    black: (&str, &str),
    ended_at: i64,
    aborted: bool,
) -> String {
    let fen = draughts::Variant::Russian.start_fen();
    let (result, reason) = if aborted {
        ("NULL", "'aborted'")
    } else {
        ("'white'", "'resign'")
    };
    format!(
        "('{id}', 't-{id}', 'russian', 'russian', 5, 3, 0, 0, '{}', '{}', '{}', '{}', '{fen}', 0, \
         'over', {result}, {reason}, 1000, 1000, 2, {}, {ended_at}, 0)",
        white.0,
        white.1,
        black.0,
        black.1,
        ended_at - 1000
    )
}

const GAME_COLUMNS: &str = "id, table_id, room, variant, minutes, increment_s, random_opening, \
    capture_optional, white_id, white_name, black_id, black_name, initial_fen, opening_plies, \
    status, result, reason, white_ms, black_ms, clock_ply, started_at, ended_at, rated";

const MOVE_COLUMNS: &str = "game_id, ply, mv, fen_after, white_ms, black_ms, used_ms";

/// Writes `n` played games of `player` (White in even ones) against `other`, two moves
/// each, ending a millisecond apart (some at the same time, so ids break the ties), plus
/// `aborted` aborted ones and one game the player played against themself (one screen).
async fn seed_games(
    db: &TestDb,
    player: (&str, &str),
    other: (&str, &str),
    n: usize,
    aborted: usize,
) {
    let mut games = Vec::new();
    let mut moves = Vec::new();
    for i in 0..n {
        let id = format!("g{i:05}");
        let (w, b) = if i % 2 == 0 {
            (player, other)
        } else {
            (other, player)
        };
        // Pairs of games end at the same millisecond.
        games.push(game_row(&id, w, b, 1_000_000 + (i / 2) as i64, false));
        for (ply, mv) in [(1, "c3-d4"), (2, "f6-e5")] {
            moves.push(format!("('{id}', {ply}, '{mv}', 'W:W1:B2', 1000, 1000, 5)"));
        }
    }
    for i in 0..aborted {
        games.push(game_row(
            &format!("a{i:05}"),
            player,
            other,
            1_000_500 + i as i64,
            true,
        ));
    }
    games.push(game_row("solo", player, player, 999_000, false));
    let mut statements = inserts("games", GAME_COLUMNS, &games);
    statements.extend(inserts("moves", MOVE_COLUMNS, &moves));
    exec(db, &statements).await;
}

/// A new account `username` from address `ip`: its cookie and id.
async fn account(s: &TestServer, ip: &str, username: &str) -> (String, String) {
    let (guest, player) = s.guest_from(ip, username).await;
    let r = s
        .http_from(
            ip,
            "POST",
            "/api/account",
            Some(&guest),
            Some(json!({"username": username, "password": "a long password"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = player["id"].as_str().unwrap().to_owned();
    (r.cookie().unwrap(), id)
}

/// Every game of a list endpoint (`path` takes `?limit=&before=` after it), page by page.
async fn page_through(s: &TestServer, path: &str, limit: usize) -> Vec<Value> {
    let mut all: Vec<Value> = Vec::new();
    loop {
        let before = all
            .last()
            .map(|g| format!("&before={}", g["id"].as_str().unwrap()))
            .unwrap_or_default();
        let r = s
            .http_from(
                "10.1.0.1",
                "GET",
                &format!("{path}?limit={limit}{before}"),
                None,
                None,
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let page = r.json().as_array().unwrap().clone();
        assert!(page.len() <= limit);
        let done = page.len() < limit;
        all.extend(page);
        if done {
            return all;
        }
    }
}

/// A player's games and a room's games page through every played game exactly once,
/// newest first; the player's PDN holds every one of them (past the old cap of 1,000).
async fn games_page_through_and_the_pdn_holds_every_one(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = cfg(&db);
    c.limits.lookups_per_minute = 0.0;
    let s = TestServer::start(c).await;
    let (_, alice) = account(&s, "10.1.0.2", "alice").await;
    let (_, bob) = s.guest_from("10.1.0.3", "Bob").await;
    let bob = bob["id"].as_str().unwrap().to_owned();
    seed_games(&db, (&alice, "alice"), (&bob, "Bob"), 1_203, 7).await;

    let games = page_through(&s, "/api/players/alice/games", 100).await;
    let ids: Vec<&str> = games.iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(
        ids.len(),
        1_204,
        "1,203 games and the one-screen game, once each"
    );
    assert_eq!(
        ids.iter().collect::<HashSet<_>>().len(),
        ids.len(),
        "no game twice"
    );
    assert!(ids.iter().all(|id| !id.starts_with('a')), "no aborted game");
    // Newest first: pairs ending together come in descending id order.
    assert_eq!(&ids[..3], &["g01202", "g01201", "g01200"]);
    assert_eq!(ids.last(), Some(&"solo"));
    assert_eq!(games[0]["plies"], 2);

    let room = page_through(&s, "/api/rooms/russian/games", 100).await;
    assert_eq!(room.len(), 1_204);
    assert_eq!(
        room.iter().map(|g| &g["id"]).collect::<Vec<_>>(),
        games.iter().map(|g| &g["id"]).collect::<Vec<_>>()
    );

    let profile = s
        .http_from("10.1.0.1", "GET", "/api/players/alice", None, None)
        .await;
    assert_eq!(profile.status, 200, "{}", profile.body);
    let recent = profile.json()["recent"].as_array().unwrap().len();
    assert_eq!(recent, 20);
    assert_eq!(
        profile.json()["results"]["wins"],
        602 + 1,
        "{}",
        profile.body
    );

    let pdn = s
        .http_from("10.1.0.1", "GET", "/api/players/alice/pdn", None, None)
        .await;
    assert_eq!(pdn.status, 200);
    assert_eq!(pdn.body.matches("[Event \"Damka\"]").count(), 1_204);
    assert_eq!(pdn.body.matches("1. c3-d4 f6-e5").count(), 1_203);
    // Newest first, as the list.
    let first = pdn.body.find("t-g01202").unwrap();
    assert!(first < pdn.body.find("t-g01201").unwrap());
    // Compressed as a browser asks (gzip): the stream ends properly, with its last chunk
    // (the compression layer polls the body once more after its end: it was cut off).
    for encoding in ["gzip", "br"] {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let mut conn = tokio::net::TcpStream::connect(&s.addr).await.unwrap();
        let req = format!(
            "GET /api/players/alice/pdn HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 10.1.0.7\r\n\
             Accept-Encoding: {encoding}\r\nConnection: close\r\n\r\n"
        );
        conn.write_all(req.as_bytes()).await.unwrap();
        let mut raw = Vec::new();
        conn.read_to_end(&mut raw).await.unwrap();
        let head = String::from_utf8_lossy(&raw[..raw.len().min(600)]).to_ascii_lowercase();
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(
            head.contains(&format!("content-encoding: {encoding}")),
            "{head}"
        );
        assert!(raw.len() > 2_000, "{encoding}: {} bytes", raw.len());
        assert!(
            raw.ends_with(b"\r\n0\r\n\r\n"),
            "{encoding}: the last chunk is missing"
        );
    }

    // A cursor that is no finished game is refused.
    let bad = s
        .http_from(
            "10.1.0.1",
            "GET",
            "/api/players/alice/games?before=nope",
            None,
            None,
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.body);
    s.stop().await;
}

/// One address's flood of lookups is refused past its budget (`429` and `Retry-After`),
/// and another address is not; while every lookups' connection is taken, a lookup is
/// answered `429` at once and nothing of the game path waits: sessions, new guests,
/// sign-in, a table socket and its moves.
async fn a_flood_of_lookups_leaves_the_game_path_alone(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = cfg(&db);
    c.db.db_lookup_connections = 1;
    // A budget of one lookup, refilled every 100 s: the test never sees it refill.
    c.limits.lookups_per_minute = 0.6;
    let s = TestServer::start(c).await;
    let (alice_cookie, _) = account(&s, "10.2.0.1", "alice").await;
    let mut statuses = Vec::new();
    for _ in 0..20 {
        let r = s
            .http_from("10.2.0.9", "GET", "/api/players/alice", None, None)
            .await;
        if r.status == 429 {
            assert_eq!(r.error_code(), "rate_limited");
            assert!(r.header("retry-after").is_some());
        }
        statuses.push(r.status);
    }
    assert_eq!(statuses[0], 200);
    assert!(statuses[1..].iter().all(|&st| st == 429), "{statuses:?}");
    let other = s
        .http_from("10.2.0.8", "GET", "/api/leaderboard/russian", None, None)
        .await;
    assert_eq!(other.status, 200, "another address has its own budget");

    let held = s.server.state.core.store.hold_lookups().await.unwrap();
    // Each from an address of its own: the budgets are not what is tested here.
    for (n, path) in [
        "/api/players/alice",
        "/api/rooms/russian/games",
        "/api/leaderboard/russian",
    ]
    .into_iter()
    .enumerate()
    {
        let r = s
            .http_from(&format!("10.2.1.{n}"), "GET", path, None, None)
            .await;
        assert_eq!(r.status, 429, "{path}: {}", r.body);
        assert_eq!(r.header("retry-after"), Some("1"));
    }
    // The game path keeps its connections.
    assert_eq!(
        s.http("GET", "/api/me", Some(&alice_cookie), None)
            .await
            .status,
        200
    );
    let signed_in = s
        .http_from(
            "10.2.0.6",
            "POST",
            "/api/session",
            None,
            Some(json!({"username": "alice", "password": "a long password"})),
        )
        .await;
    assert_eq!(signed_in.status, 200, "{}", signed_in.body);
    let mut m =
        crate::common::start_match(&s, "russian", json!({"minutes": 5, "increment": 3})).await;
    crate::common::play_first_moves(&mut m, 2).await;
    drop(held);
    assert_eq!(
        s.http_from("10.2.0.7", "GET", "/api/players/alice", None, None)
            .await
            .status,
        200,
        "the lookups are served again"
    );
    s.stop().await;
}

/// A player's whole PDN streams one download at a time per address.
async fn one_pdn_download_at_a_time_per_address(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(cfg(&db)).await;
    let (_, alice) = account(&s, "10.3.0.1", "alice").await;
    let (_, bob) = s.guest_from("10.3.0.2", "Bob").await;
    let bob = bob["id"].as_str().unwrap().to_owned();
    seed_games(&db, (&alice, "alice"), (&bob, "Bob"), 10, 0).await;
    let permit = s
        .server
        .state
        .core
        .limits
        .downloads
        .open(
            damka_server::limits::RateKey::new("10.3.0.9".parse().unwrap(), 64),
            1,
            0,
        )
        .unwrap();
    let r = s
        .http_from("10.3.0.9", "GET", "/api/players/alice/pdn", None, None)
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    let other = s
        .http_from("10.3.0.8", "GET", "/api/players/alice/pdn", None, None)
        .await;
    assert_eq!(other.status, 200);
    assert_eq!(other.body.matches("[Event ").count(), 11);
    drop(permit);
    let again = s
        .http_from("10.3.0.9", "GET", "/api/players/alice/pdn", None, None)
        .await;
    assert_eq!(again.status, 200);
    assert_eq!(
        s.server.state.core.limits.downloads.running(),
        0,
        "every place given back"
    );
    s.stop().await;
}

/// One sweep deletes every idle guest (here 1,234: more than one batch and more than a
/// sweep deleted before), and keeps those who played, the accounts and the computer's.
async fn one_sweep_deletes_every_idle_guest(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(cfg(&db)).await;
    let (_, alice) = account(&s, "10.4.0.1", "alice").await;
    let guests: Vec<String> = (0..1_534)
        .map(|i| format!("('x{i:05}', 'X', 'h{i:05}', 0, {})", i % 50))
        .collect();
    exec(
        &db,
        &inserts(
            "guests",
            "id, name, token_hash, created_at, seen_at",
            &guests,
        ),
    )
    .await;
    // The last 300 played a game each.
    let games: Vec<String> = (1_234..1_534)
        .map(|i| {
            game_row(
                &format!("p{i:05}"),
                (&format!("x{i:05}"), "X"),
                (&alice, "alice"),
                5_000,
                false,
            )
        })
        .collect();
    let mut statements = inserts("games", GAME_COLUMNS, &games);
    statements.push("UPDATE guests SET seen_at = 0".into());
    exec(&db, &statements).await;
    let before = s.server.state.core.store.guest_count().await.unwrap();
    let sweep = damka_server::sweep::sweep_guests(&s.server.state.core)
        .await
        .unwrap();
    assert_eq!(sweep.expired, 1_234, "{sweep:?}");
    let after = s.server.state.core.store.guest_count().await.unwrap();
    assert_eq!(before - after, 1_234);
    assert_eq!(after, 300 + 1, "the players and the account stay");
    let again = damka_server::sweep::sweep_guests(&s.server.state.core)
        .await
        .unwrap();
    assert_eq!(again.expired, 0);
    s.stop().await;
}

/// The lookups' short wait is for the other lookups' connections only: the time to open a
/// connection (slow on a loaded machine) is not counted against it. Here the wait is 1 ms,
/// far less than opening a connection takes, and every lookup of a fresh server (its
/// lookups' pool still empty) is answered; found by the suite under a CPU hog, where a
/// lone replay got `429` while its connection was being opened.
async fn opening_a_lookups_connection_is_not_waiting_for_one(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.db.db_lookup_connections = 2;
    c.db.db_lookup_wait_ms = 1;
    let s = TestServer::start(c).await;
    for (n, path) in [
        "/api/leaderboard/russian",
        "/api/rooms/russian/games",
        "/api/players/nobody_here",
    ]
    .into_iter()
    .enumerate()
    {
        let r = s
            .http_from(&format!("10.3.0.{n}"), "GET", path, None, None)
            .await;
        assert_ne!(r.status, 429, "{path}: {}", r.body);
    }
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    opening_a_lookups_connection_is_not_waiting_for_one,
    games_page_through_and_the_pdn_holds_every_one,
    a_flood_of_lookups_leaves_the_game_path_alone,
    one_pdn_download_at_a_time_per_address,
    one_sweep_deletes_every_idle_guest,
);
