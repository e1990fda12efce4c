//! Two guests play a game to each possible end, on SQLite and on PostgreSQL; every end is
//! announced to both players and stored with its moves, result and reason.

use damka_protocol::{EndReason, ErrorCode, GameResult, Side};
use std::collections::HashSet;

use crate::common::{
    Backend, Match, Over, TestDb, TestServer, config, play, play_first_moves, start_match,
};
use draughts::{Position, Rules, Variant};
use serde_json::{Value, json};

const FIVE_PLUS_THREE: fn() -> Value = || json!({"minutes": 5, "increment": 3});

/// Both players receive the same `game_over`; returns it.
async fn game_over(m: &mut Match) -> Over {
    let a = m.white.0.game_over().await;
    let b = m.black.0.game_over().await;
    assert_eq!(a, b);
    a
}

/// The stored game, checked against what the players saw.
async fn stored(s: &TestServer, game: &str, result: Value, reason: &str, plies: usize) -> Value {
    let g = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    assert_eq!(g["result"], result, "{g}");
    assert_eq!(g["reason"], reason, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), plies, "{g}");
    assert!(g["ended_at"].as_str().unwrap().ends_with('Z'));
    g
}

async fn server_with_fen(backend: Backend, fen: Option<&str>) -> (TestDb, TestServer) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.test.test_start_fen = fen.map(str::to_owned);
    let s = TestServer::start(c).await;
    (db, s)
}

async fn resign(backend: Backend) {
    let (db, s) = server_with_fen(backend, None).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_THREE()).await;
    assert_eq!(m.started["turn"], "white");
    assert_eq!(
        m.started["clock"],
        json!({"white": 300_000, "black": 300_000, "running": null})
    );
    play_first_moves(&mut m, 3).await;
    m.black.0.send(json!({"t": "resign"})).await;
    let over = game_over(&mut m).await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::White), EndReason::Resign)
    );
    let g = stored(&s, &m.game, json!("white"), "resign", 3).await;
    assert_eq!(g["white"]["name"], "Ala");
    assert_eq!(g["options"]["increment"], 3);
    // PDN from the engine's writer, and the room's recent games.
    let pdn = s
        .http("GET", &format!("/api/games/{}/pdn", m.game), None, None)
        .await;
    assert_eq!(pdn.status, 200);
    assert!(
        pdn.body.contains("[White \"Ala\"]") && pdn.body.contains("[Result \"1-0\"]"),
        "{}",
        pdn.body
    );
    assert!(
        pdn.body.contains(g["moves"][0]["move"].as_str().unwrap()),
        "{}",
        pdn.body
    );
    let recent = s
        .http("GET", "/api/rooms/russian/games?limit=5", None, None)
        .await
        .json();
    assert_eq!(recent[0]["id"], m.game.as_str());
    assert_eq!(recent[0]["plies"], 3);
    assert_eq!(
        s.http("GET", "/api/rooms/russian/games?limit=0", None, None)
            .await
            .status,
        400
    );
    let metrics = s.http("GET", "/metrics", None, None).await.body;
    for line in [
        "damka_tables 1",
        "damka_table_connections 2",
        "damka_games_started_total 1",
        "damka_games_finished_total 1",
        "damka_moves_total 3",
        "damka_move_latency_seconds_count 3",
    ] {
        assert!(metrics.lines().any(|l| l == line), "{line} in\n{metrics}");
    }
    // The table stays, and the next game swaps colours.
    m.white.0.send(json!({"t": "start"})).await;
    m.black.0.send(json!({"t": "start"})).await;
    let next = m.white.0.recv_t("game_started").await;
    assert_eq!(next["white"]["name"], "Bolek");
    assert_eq!(next["seats"]["white"]["name"], "Bolek");
    s.stop().await;
    db.cleanup().await;
}

async fn agreement(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.tables.draw_offer_plies = 2;
    let s = TestServer::start(c).await;
    let mut m = start_match(&s, "brazilian", FIVE_PLUS_THREE()).await;
    play_first_moves(&mut m, 2).await;
    // An offer, declined by a move of the opponent.
    m.white.0.send(json!({"t": "draw_offer"})).await;
    assert_eq!(m.black.0.recv_t("draw_offered").await["by"], "white");
    // A second offer so soon is rate-limited.
    m.white.0.send(json!({"t": "draw_offer"})).await;
    let e = m.white.0.error().await;
    assert_eq!(e.code, ErrorCode::RateLimited, "{e:?}");
    // White's own move keeps White's offer; Black's move declines it.
    play_first_moves_from(&mut m, "white", 3).await;
    m.black.0.send(json!({"t": "resync"})).await;
    assert_eq!(m.black.0.state().await.draw_offer, Some(Side::White));
    play_first_moves_from(&mut m, "black", 4).await;
    let declined = m
        .white
        .0
        .log
        .iter()
        .find(|e| e["t"] == "draw_declined")
        .cloned();
    assert_eq!(declined.map(|d| d["by"].clone()), Some(json!("black")));
    // Black offers, white declines explicitly; black's later offer is accepted.
    m.black.0.send(json!({"t": "draw_offer"})).await;
    m.white.0.recv_t("draw_offered").await;
    m.white.0.send(json!({"t": "draw_decline"})).await;
    assert_eq!(m.black.0.recv_t("draw_declined").await["by"], "white");
    m.white.0.send(json!({"t": "draw_accept"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::BadMessage);
    m.white.0.send(json!({"t": "draw_offer"})).await;
    m.black.0.recv_t("draw_offered").await;
    m.black.0.send(json!({"t": "draw_accept"})).await;
    let over = game_over(&mut m).await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::Draw), EndReason::Agreement)
    );
    stored(&s, &m.game, json!("draw"), "agreement", 4).await;
    s.stop().await;
    db.cleanup().await;
}

/// Plays one move for `color` using the legal moves from its latest state: the first legal.
async fn play_first_moves_from(m: &mut Match, color: &str, ply: u64) -> Value {
    m.side(color).send(json!({"t": "resync"})).await;
    let st = m.side(color).recv_t("state").await;
    let mv = st["legal"][0].as_str().unwrap().to_owned();
    play(m, color, &mv, ply).await
}

async fn threefold(backend: Backend) {
    // Two kings far apart on a Russian board: repeating a short shuffle.
    let (db, s) = server_with_fen(backend, Some("W:WKc1:BKf8")).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_THREE()).await;
    let shuffle = [
        ("white", "c1-d2"),
        ("black", "f8-g7"),
        ("white", "d2-c1"),
        ("black", "g7-f8"),
    ];
    let mut last = Value::Null;
    for (i, (color, mv)) in shuffle.iter().chain(shuffle.iter()).enumerate() {
        last = play(&mut m, color, mv, i as u64 + 1).await;
    }
    assert_eq!(last["legal"], json!([]));
    let over = game_over(&mut m).await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::Draw), EndReason::Threefold)
    );
    stored(&s, &m.game, json!("draw"), "threefold", 8).await;
    s.stop().await;
    db.cleanup().await;
}

/// A move for the side to move that repeats no position and offers no capture.
fn quiet_new_move(fen: &str, seen: &mut HashSet<String>) -> String {
    let pos = Position::from_fen(Rules::new(Variant::Russian), fen).unwrap();
    for mv in pos.legal_moves().iter() {
        let next = pos.play(mv).unwrap();
        let key = next.to_fen();
        if !seen.contains(&key) && !next.legal_moves().iter().any(|r| r.is_capture()) {
            seen.insert(key);
            return pos.move_to_string(mv);
        }
    }
    panic!("no quiet new move in {fen}");
}

async fn move_limit(backend: Backend) {
    // King against king: drawn after five moves each (FMJD-64 7.2.8), with the counter live.
    let fen = "W:WKc1:BKf8";
    let (db, s) = server_with_fen(backend, Some(fen)).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_THREE()).await;
    let counters = m.started["counters"].as_array().unwrap().clone();
    assert!(
        !counters.is_empty(),
        "a live counter from the start: {}",
        m.started
    );
    let mut seen = HashSet::from([m.started["fen"].as_str().unwrap().to_owned()]);
    let mut fen = m.started["fen"].as_str().unwrap().to_owned();
    let mut turn = "white".to_owned();
    let mut ply = 0;
    loop {
        ply += 1;
        let mv = quiet_new_move(&fen, &mut seen);
        let ev = play(&mut m, &turn, &mv, ply).await;
        if ev["legal"] == json!([]) {
            break;
        }
        assert!(ply < 40, "no move limit reached");
        fen = ev["fen"].as_str().unwrap().to_owned();
        turn = ev["turn"].as_str().unwrap().to_owned();
    }
    let over = game_over(&mut m).await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::Draw), EndReason::MoveLimit)
    );
    assert_eq!(ply, 10, "five moves each");
    stored(&s, &m.game, json!("draw"), "move_limit", 10).await;
    s.stop().await;
    db.cleanup().await;
}

async fn no_moves(backend: Backend) {
    // White captures Black's last piece: Black has no move and loses.
    let (db, s) = server_with_fen(backend, Some("W:Wc3:Bd4")).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_THREE()).await;
    assert_eq!(m.started["legal"], json!(["c3xe5"]));
    let ev = play(&mut m, "white", "c3xe5", 1).await;
    assert_eq!(ev["captures"], json!(["d4"]));
    let over = game_over(&mut m).await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::White), EndReason::NoMoves)
    );
    stored(&s, &m.game, json!("white"), "no_moves", 1).await;
    s.stop().await;
    db.cleanup().await;
}

async fn timeout(backend: Backend) {
    let (db, s) = server_with_fen(backend, None).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 1, "increment": 0})).await;
    // The clock starts after both first moves; then White's minute runs out with no
    // message from anyone.
    let ev = play_first_moves(&mut m, 2).await;
    assert_eq!(ev["clock"]["running"], "white");
    // The room's copy of the table follows the moves (updated in place on each move).
    let t = s
        .http("GET", &format!("/api/tables/{}", m.table), None, None)
        .await
        .json();
    assert_eq!(
        (t["game"]["ply"].as_u64(), t["game"]["turn"].as_str()),
        (Some(2), Some("white")),
        "{t}"
    );
    s.advance(59_999).await;
    m.black.0.silent(100).await;
    // The flag waits for White's measured lag (at most its 1.17 s quota) on top.
    s.advance(1_170).await;
    let over = game_over(&mut m).await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::Black), EndReason::Timeout)
    );
    assert_eq!((over.clock.white, over.clock.running), (0, None));
    stored(&s, &m.game, json!("black"), "timeout", 2).await;
    // How late the flag was ruled is measured (the bench reads it under load).
    let metrics = s.http("GET", "/metrics", None, None).await.body;
    assert!(
        metrics.contains("damka_flag_late_seconds_count 1\n"),
        "{metrics}"
    );
    assert!(metrics.contains("damka_store_commits_total "), "{metrics}");
    s.stop().await;
    db.cleanup().await;
}

async fn abort_and_first_move_window(backend: Backend) {
    let (db, s) = server_with_fen(backend, None).await;
    // Abort before both players moved.
    let mut m = start_match(&s, "czech", FIVE_PLUS_THREE()).await;
    assert_eq!(m.started["first_move_deadline"], 30_000);
    play_first_moves(&mut m, 1).await;
    m.black.0.send(json!({"t": "abort"})).await;
    let over = game_over(&mut m).await;
    assert_eq!((over.result, over.reason), (None, EndReason::Aborted));
    stored(&s, &m.game, json!(null), "aborted", 1).await;
    // Abort after both moved is refused.
    m.white.0.send(json!({"t": "start"})).await;
    m.black.0.send(json!({"t": "start"})).await;
    let started = m.white.0.recv_t("game_started").await;
    m.black.0.recv_t("game_started").await;
    m.started = started;
    let resigned = m.started["id"].clone();
    // After the swap the first mover (White) is Bolek, who holds socket "black" of the Match.
    std::mem::swap(&mut m.white, &mut m.black);
    play_first_moves(&mut m, 2).await;
    m.white.0.send(json!({"t": "abort"})).await;
    let e = m.white.0.error().await;
    assert_eq!(e.code, ErrorCode::GameInProgress, "{e:?}");
    m.white.0.send(json!({"t": "resign"})).await;
    game_over(&mut m).await;
    // The first-move window: the second mover does not move in 30 s.
    m.white.0.send(json!({"t": "start"})).await;
    m.black.0.send(json!({"t": "start"})).await;
    let started = m.white.0.recv_t("game_started").await;
    m.black.0.recv_t("game_started").await;
    std::mem::swap(&mut m.white, &mut m.black);
    m.started = started;
    let ev = play_first_moves(&mut m, 1).await;
    assert_eq!(ev["first_move_deadline"], 30_000);
    assert_eq!(ev["clock"]["running"], json!(null));
    s.advance(29_000).await;
    m.white.0.send(json!({"t": "resync"})).await;
    let st = m.white.0.state().await;
    assert_eq!(st.first_move_deadline, Some(1_000));
    s.advance(1_000).await;
    let over = game_over(&mut m).await;
    assert_eq!((over.result, over.reason), (None, EndReason::Aborted));
    // The room's recent games are the played ones: the two aborted games are left out
    // (each is still stored and served by id).
    let recent = s
        .http("GET", "/api/rooms/czech/games", None, None)
        .await
        .json();
    let ids: Vec<&Value> = recent
        .as_array()
        .unwrap()
        .iter()
        .map(|g| &g["id"])
        .collect();
    assert_eq!(ids, [&resigned], "{recent}");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    resign,
    agreement,
    threefold,
    move_limit,
    no_moves,
    timeout,
    abort_and_first_move_window
);
