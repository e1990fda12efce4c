//! The analysis board (`GET /api/analyse`): the shot is the best move in every variant,
//! a bad FEN is a 400; and the analysis limits give 429 with `Retry-After`.

use draughts::{Position, Rules, Variant};

use crate::common::{Backend, TestDb, TestServer, config};

/// The same shot on any board, in display coordinates (x right, y down, White at the
/// bottom moving up): White gives a man at (3,3), Black must take it with (4,2) and
/// lands on (2,4), and White takes two with (1,5) over (2,4) and (2,2), leaving Black
/// nothing. (4,4) keeps the other Black man from taking instead, (0,6) the taker from
/// going on over (1,5). Shifted one column
/// where (2,4) is not a playing square.
const WHITE: [(u8, u8); 4] = [(2, 4), (1, 5), (4, 4), (0, 6)];
const BLACK: [(u8, u8); 2] = [(4, 2), (2, 2)];

/// The shot's position, its first move, and the position after it (Black's one legal
/// move, the forced capture).
fn shot(variant: Variant) -> (String, String, String) {
    let at = |x: u8, y: u8| {
        variant
            .squares()
            .find(|&sq| variant.square_xy(sq) == (x, y))
    };
    let dx = u8::from(at(2, 4).is_none());
    let name = |(x, y): (u8, u8)| variant.square_name(at(x + dx, y).expect("a playing square"));
    let list = |men: &[(u8, u8)]| men.iter().map(|&m| name(m)).collect::<Vec<_>>().join(",");
    let fen = format!("W:W{}:B{}", list(&WHITE), list(&BLACK));
    let pos = Position::from_fen(Rules::new(variant), &fen).expect("the shot's FEN parses");
    let from = at(2 + dx, 4).unwrap();
    let to = at(3 + dx, 3).unwrap();
    let mv = pos
        .legal_moves()
        .iter()
        .find(|m| m.from() == from && m.to() == to)
        .copied()
        .expect("the shot is legal");
    let mut after = pos.clone();
    after.play_unchecked(&mv);
    assert_eq!(
        after.legal_moves().len(),
        1,
        "{variant:?}: Black's capture is forced"
    );
    (pos.to_fen(), pos.move_to_string(&mv), after.to_fen())
}

fn query(s: &str) -> String {
    s.replace(':', "%3A").replace(',', "%2C")
}

/// `GET /api/analyse` of a position: the reply's JSON (a 200 is asserted).
async fn analyse(s: &TestServer, variant: Variant, fen: &str) -> serde_json::Value {
    let path = format!("/api/analyse?variant={}&fen={}", variant.name(), query(fen));
    let r = s.http("GET", &path, None, None).await;
    assert_eq!(r.status, 200, "{variant:?} {fen}: {}", r.body);
    r.json()
}

async fn the_shot_is_best_in_every_variant(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.analysis.analysis_board_nodes = 50_000;
    let s = TestServer::start(c).await;
    for variant in Variant::ALL {
        let (fen, best, forced) = shot(variant);
        let v = analyse(&s, variant, &fen).await;
        assert_eq!(v["best"], best, "{variant:?} {fen}: {v}");
        assert_eq!(v["win"], "white", "{variant:?}: {v}");
        assert_eq!(v["pv"][0], best);
        assert!(v["depth"].as_u64().is_some());
        // Black's forced capture is searched through, not scored by its material (a
        // man up for Black before White takes two).
        let v = analyse(&s, variant, &forced).await;
        assert_eq!(v["win"], "white", "{variant:?} {forced}: {v}");
        assert!(v["depth"].as_u64() > Some(0), "{variant:?}: {v}");
    }
    for bad in [
        "/api/analyse?variant=international&fen=W%3AW99%3AB1",
        "/api/analyse?variant=nope&fen=W%3AW31%3AB1",
        "/api/analyse?variant=international",
    ] {
        let r = s.http("GET", bad, None, None).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
    }
    // A bad square or a broken piece list is refused with its code, never searched as
    // a position with a side missing ("game over, depth 0").
    for bad in ["W:W31,51:B1", "W:Wc3:B1", "W:W31:31B", "W:W31:B1,x"] {
        let path = format!("/api/analyse?variant=international&fen={}", query(bad));
        let r = s.http("GET", &path, None, None).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(
            r.json()["error"]["code"],
            "bad_message",
            "{bad}: {}",
            r.body
        );
    }
    s.server.shutdown().await;
    db.cleanup().await;
}

async fn limits_give_429(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.analysis.analysis_board_nodes = 1_000;
    c.trust_forwarded_for = true;
    let s = TestServer::start(c).await;
    let fen = query(&Position::new(Rules::new(Variant::Russian)).to_fen());
    let path = format!("/api/analyse?variant=russian&fen={fen}");
    let mut limited = None;
    for i in 0..40 {
        let r = s.http_from("10.1.0.1", "GET", &path, None, None).await;
        if r.status == 429 {
            limited = Some((i, r));
            break;
        }
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let (i, r) = limited.expect("the board is limited per address");
    assert!(i >= 20, "limited after {i}");
    assert_eq!(r.error_code(), "rate_limited");
    assert!(r.header("retry-after").is_some());
    // Another address is not.
    assert_eq!(
        s.http_from("10.1.0.2", "GET", &path, None, None)
            .await
            .status,
        200
    );

    // Game analyses: per player (3 at once), then per address (5 at once).
    let (cookie, _) = s.guest_from("10.1.0.3", "Ala").await;
    let mut games = Vec::new();
    for _ in 0..7 {
        games.push(finished_game(&s).await);
    }
    for (i, g) in games.iter().enumerate() {
        let r = s
            .http_from(
                "10.1.0.3",
                "POST",
                &format!("/api/games/{g}/analysis"),
                Some(&cookie),
                None,
            )
            .await;
        if i < 3 {
            assert_eq!(r.status, 202, "{}", r.body);
        } else {
            assert_eq!(r.status, 429, "{}", r.body);
            assert!(r.header("retry-after").is_some());
        }
    }
    // A job that exists is free to ask about.
    let r = s
        .http_from(
            "10.1.0.3",
            "POST",
            &format!("/api/games/{}/analysis", games[0]),
            Some(&cookie),
            None,
        )
        .await;
    assert_eq!(r.status, 202);
    // Other players of the same address: two more, then the address is out.
    let (other, _) = s.guest_from("10.1.0.3", "Bolek").await;
    let statuses: Vec<u16> = {
        let mut v = Vec::new();
        for g in &games[3..6] {
            v.push(
                s.http_from(
                    "10.1.0.3",
                    "POST",
                    &format!("/api/games/{g}/analysis"),
                    Some(&other),
                    None,
                )
                .await
                .status,
            );
        }
        v
    };
    assert_eq!(statuses, [202, 202, 429]);
    s.server.shutdown().await;
    db.cleanup().await;
}

/// A finished game with no move (stored directly: quicker than playing one), numbered
/// apart from the analysis tests' games.
async fn finished_game(s: &TestServer) -> String {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(10_000);
    crate::analysis::store_game(s, Variant::Russian, &[], N.fetch_add(1, Ordering::Relaxed)).await
}

/// Waits (polling, with the socket timeout as the deadline) until `f` holds.
async fn until(what: &str, mut f: impl AsyncFnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + crate::common::ws::TIMEOUT;
    while !f().await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting: {what}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
}

/// The board's searches are bounded per node: past the bound a new position is refused
/// at once with 429 and `Retry-After` (today it queued without end); the position being
/// searched, asked again, waits for that one search, and later comes from the cache.
async fn the_board_is_bounded_and_cached(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.trust_forwarded_for = true;
    c.analysis.analysis_board_searches = 1;
    c.computer.bot_searches = 1;
    // Long enough that the next requests come while it runs, short enough for the
    // request timeout on a loaded machine (a debug build under a CPU hog).
    c.analysis.analysis_board_nodes = 1_000_000;
    c.analysis.analysis_depth = 64;
    let s = std::sync::Arc::new(TestServer::start(c).await);
    let metrics = &s.server.state.core.metrics;
    let start = Position::new(Rules::new(Variant::International)).to_fen();
    let path = |fen: &str| format!("/api/analyse?variant=international&fen={}", query(fen));
    let first = {
        let (s, path) = (s.clone(), path(&start));
        tokio::spawn(async move { s.http_from("10.2.0.1", "GET", &path, None, None).await })
    };
    until("the first search runs", async || {
        metrics.position_analyses_searching.get() == 1
    })
    .await;
    // Another position, from another address: refused at once.
    let (other, _, _) = shot(Variant::International);
    let r = s
        .http_from("10.2.0.2", "GET", &path(&other), None, None)
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    assert_eq!(r.error_code(), "rate_limited");
    assert_eq!(r.header("retry-after"), Some("2"));
    // The same position (spelt differently: the pieces in another order) waits for the
    // search under way instead of being refused or searched twice.
    let respelt = {
        let (w, b) = start[2..].split_once(":B").expect("W:W..:B..");
        let mut whites: Vec<&str> = w.trim_start_matches('W').split(',').collect();
        whites.reverse();
        format!("W:W{}:B{b}", whites.join(","))
    };
    assert_ne!(respelt, start);
    let second = s
        .http_from("10.2.0.3", "GET", &path(&respelt), None, None)
        .await;
    let first = first.await.expect("the first request");
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(second.status, 200, "{}", second.body);
    assert_eq!(first.json(), second.json());
    // And again: from the cache, with no search.
    let third = s
        .http_from("10.2.0.4", "GET", &path(&start), None, None)
        .await;
    assert_eq!(third.json(), first.json());
    assert_eq!(
        metrics.position_analyses.get(),
        1,
        "one search for three answers"
    );
    assert_eq!(metrics.position_analyses_cached.get(), 2);
    assert_eq!(metrics.position_analyses_refused.get(), 1);
    let s = std::sync::Arc::into_inner(s).expect("no other handle");
    s.server.shutdown().await;
    db.cleanup().await;
}

/// A person playing another person (or in a tournament) cannot ask the analysis board
/// (409 `in_game`), as lichess closes it during a game; their opponent of the computer
/// can, and so can they once the game is over.
async fn the_board_is_closed_during_ones_own_game(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.analysis.analysis_board_nodes = 1_000;
    let s = TestServer::start(c).await;
    let mut m = crate::common::start_match(
        &s,
        "russian",
        serde_json::json!({"minutes": 5, "increment": 3}),
    )
    .await;
    let fen = Position::new(Rules::new(Variant::Russian)).to_fen();
    let path = format!("/api/analyse?variant=russian&fen={}", query(&fen));
    for cookie in [m.white.1.clone(), m.black.1.clone()] {
        let r = s.http("GET", &path, Some(&cookie), None).await;
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.error_code(), "in_game");
    }
    // A spectator and a visitor without a cookie are not playing.
    let (spectator, _) = s.guest("Celina").await;
    assert_eq!(
        s.http("GET", &path, Some(&spectator), None).await.status,
        200
    );
    assert_eq!(s.http("GET", &path, None, None).await.status, 200);
    // Once the game is over the board opens again.
    m.white.0.send(serde_json::json!({"t": "resign"})).await;
    m.white.0.recv_t("game_over").await;
    let white = m.white.1.clone();
    until("the board opens after the game", async || {
        s.http("GET", &path, Some(&white), None).await.status == 200
    })
    .await;

    // Against the computer, the board stays open.
    let (solo, _) = s.guest("Darek").await;
    let table = s
        .create_table(
            &solo,
            "russian",
            serde_json::json!({"minutes": 5, "increment": 3, "seat": "white", "bot": 1}),
        )
        .await;
    let mut ws = s.table_ws(table["id"].as_str().unwrap(), Some(&solo)).await;
    ws.state().await;
    ws.send(serde_json::json!({"t": "start"})).await;
    ws.recv_t("game_started").await;
    assert_eq!(s.http("GET", &path, Some(&solo), None).await.status, 200);
    s.server.shutdown().await;
    db.cleanup().await;
}

/// `POST /api/analyse/pdn`: a pasted game comes back with the position after each move
/// (a body past the API's usual 4 KiB too); a game that does not replay is a 400.
async fn a_pasted_pdn_replays(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let long_comment = "x".repeat(6_000);
    let pdn = format!(
        "[White \"Ala\"]\n[Black \"Bolek\"]\n[Result \"*\"]\n1. c3-d4 {{{long_comment}}} f6-g5 2. d4-c5 b6xd4 3. e3xc5 *\n"
    );
    let r = s
        .http(
            "POST",
            "/api/analyse/pdn",
            None,
            Some(serde_json::json!({"pdn": pdn, "variant": "russian"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let v = r.json();
    assert_eq!(v["variant"], "russian");
    assert_eq!(v["white"], "Ala");
    assert_eq!(v["result"], serde_json::Value::Null);
    let moves: Vec<&str> = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["c3-d4", "f6-g5", "d4-c5", "b6xd4", "e3xc5"]);
    assert_eq!(v["moves"][4]["ply"], 5);
    assert!(
        v["moves"][4]["fen"].as_str().unwrap().starts_with("B:"),
        "{v}"
    );
    for bad in [
        serde_json::json!({"pdn": "1. c3-d4 f6-g5 2. c1-d2 *", "variant": "russian"}),
        serde_json::json!({"pdn": "", "variant": "russian"}),
        serde_json::json!({"pdn": "1. 32-28 *", "variant": "chess"}),
        serde_json::json!({"text": "1. 32-28 *"}),
    ] {
        let r = s
            .http("POST", "/api/analyse/pdn", None, Some(bad.clone()))
            .await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(r.json()["error"]["code"], "bad_message", "{bad}");
    }
    s.server.shutdown().await;
    db.cleanup().await;
}

both_backends!(
    a_pasted_pdn_replays,
    the_shot_is_best_in_every_variant,
    limits_give_429,
    the_board_is_bounded_and_cached,
    the_board_is_closed_during_ones_own_game
);
