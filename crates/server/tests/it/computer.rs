//! The computer opponent and one-screen tables over real sockets: a table with `"bot": N`
//! seats the engine, ready at once, and it plays every move on its own clock until the
//! game ends; the game is stored and replayable like any other and survives a restart. A
//! table with `"local": true` lets one guest play both sides.

use crate::common::{Backend, TestDb, TestServer, Ws, config};
use damka_protocol::{EndReason, ErrorCode, GameResult, Side, TableStatus};
use serde_json::{Value, json};

/// A Russian ending that is over in a few moves whatever the players do: three black
/// kings against two white men.
const SHORT_RUSSIAN: &str = "W:Wc3,e3:BKa7,Kd8,Kh4";

async fn server(backend: Backend, fen: Option<&str>) -> (TestDb, TestServer) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.test.test_start_fen = fen.map(str::to_owned);
    let s = TestServer::start(c).await;
    (db, s)
}

/// A guest at a new table in `room` created with `body`, its socket open and the first
/// game started: the guest's cookie, the table view, the socket and the `game_started`.
async fn started_table(s: &TestServer, room: &str, body: Value) -> (String, Value, Ws, Value) {
    let (cookie, _) = s.guest("Ala").await;
    let table = s.create_table(&cookie, room, body).await;
    let id = table["id"].as_str().unwrap();
    let mut ws = s.table_ws(id, Some(&cookie)).await;
    ws.state().await;
    ws.send(json!({"t": "start"})).await;
    let started = ws.recv_t("game_started").await;
    (cookie, table, ws, started)
}

/// Plays the guest's side (`me`) with its first legal move whenever it is to move, until
/// the game ends; returns the `game_over` and the number of plies the computer played.
async fn play_out(ws: &mut Ws, me: &str, start: &Value) -> (Value, u64) {
    let mut last = start.clone();
    let mut ply = start["opening"].as_array().map_or(0, Vec::len) as u64;
    let mut bot_plies = 0;
    loop {
        if last["turn"] == me && !last["legal"].as_array().unwrap().is_empty() {
            let mv = last["legal"][0].clone();
            ws.send(json!({"t": "move", "move": mv, "ply": ply + 1, "ack": ply + 1}))
                .await;
        }
        let ev = loop {
            let ev = ws.recv().await;
            match ev["t"].as_str().unwrap() {
                "move" | "game_over" => break ev,
                "error" => panic!("refused: {ev}"),
                _ => {}
            }
        };
        if ev["t"] == "game_over" {
            return (ev, bot_plies);
        }
        ply = ev["ply"].as_u64().unwrap();
        if ev["by"] != me {
            bot_plies += 1;
        }
        last = ev;
    }
}

async fn a_computer_game_is_played_to_the_end_and_stored(backend: Backend) {
    let (db, s) = server(backend, Some(SHORT_RUSSIAN)).await;
    let (cookie, me) = s.guest("Ala").await;
    let table = s
        .create_table(
            &cookie,
            "russian",
            json!({"minutes": 5, "increment": 3, "seat": "white", "bot": 1}),
        )
        .await;
    // The computer sits in the other seat, ready at once.
    assert_eq!(table["seats"]["black"]["id"], "bot-1", "{table}");
    assert_eq!(table["seats"]["black"]["bot"], 1);
    assert_eq!(table["ready"]["black"], true);
    assert_eq!(table["options"]["bot"], 1);
    assert!(table["seats"]["white"].get("bot").is_none());
    let id = table["id"].as_str().unwrap();
    let mut ws = s.table_ws(id, Some(&cookie)).await;
    let st = ws.state().await;
    assert!(st.presence.black, "the computer is always there");
    ws.send(json!({"t": "start"})).await;
    let started = ws.recv_t("game_started").await;
    assert_eq!(started["white"]["id"], me["id"]);
    assert_eq!(started["black"]["bot"], 1);
    let (over, bot_plies) = play_out(&mut ws, "white", &started).await;
    assert!(bot_plies >= 1, "the computer moved");
    let game = started["id"].as_str().unwrap();
    let g = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    assert_eq!(g["result"], over["result"], "{g}");
    assert_eq!(g["reason"], over["reason"], "{g}");
    assert_eq!(g["black"]["bot"], 1, "{g}");
    assert_eq!(g["options"]["bot"], 1, "{g}");
    let pdn = s
        .http("GET", &format!("/api/games/{game}/pdn"), None, None)
        .await;
    assert_eq!(pdn.status, 200);
    assert!(pdn.body.contains("Computer (level 1)"), "{}", pdn.body);
    s.stop().await;
    db.cleanup().await;
}

async fn the_computer_is_ready_for_the_next_game(backend: Backend) {
    let (db, s) = server(backend, Some(SHORT_RUSSIAN)).await;
    let (_, _, mut ws, first) = started_table(
        &s,
        "russian",
        json!({"minutes": 5, "increment": 0, "seat": "white", "bot": 2}),
    )
    .await;
    // The computer takes no draw offers.
    ws.send(json!({"t": "draw_offer"})).await;
    let refused = ws.error().await;
    assert_eq!(refused.code, ErrorCode::BadMessage, "{refused:?}");
    // Resigning before both have moved aborts the game.
    ws.send(json!({"t": "resign"})).await;
    let over = ws.game_over().await;
    assert_eq!(over.reason, EndReason::Aborted, "{over:?}");
    // One press starts the rematch: colours swap, so the computer now has White and
    // moves first.
    ws.send(json!({"t": "start"})).await;
    let second = ws.recv_t("game_started").await;
    assert_ne!(second["id"], first["id"]);
    assert_eq!(second["white"]["bot"], 2, "{second}");
    let mv = ws.moved().await;
    assert_eq!((mv.by, mv.ply), (Side::White, 1));
    s.stop().await;
    db.cleanup().await;
}

async fn one_guest_plays_both_sides_of_a_local_table(backend: Backend) {
    let (db, s) = server(backend, None).await;
    let (cookie, me) = s.guest("Ala").await;
    let table = s
        .create_table(
            &cookie,
            "international",
            json!({"minutes": 3, "increment": 2, "local": true}),
        )
        .await;
    assert_eq!(table["seats"]["white"]["id"], me["id"], "{table}");
    assert_eq!(table["seats"]["black"]["id"], me["id"], "{table}");
    assert_eq!(table["options"]["local"], true);
    let id = table["id"].as_str().unwrap();
    let mut ws = s.table_ws(id, Some(&cookie)).await;
    ws.state().await;
    // One press readies both seats.
    ws.send(json!({"t": "start"})).await;
    let started = ws.recv_t("game_started").await;
    let mut last = started.clone();
    for ply in 1..=6u64 {
        let mv = last["legal"][0].clone();
        ws.send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
            .await;
        assert_eq!(ws.recv_t("ack").await["ack"], ply);
        last = ws.recv_t("move").await;
        let by = if ply % 2 == 1 { "white" } else { "black" };
        assert_eq!(last["by"], by);
    }
    // The clock runs for each side in turn, as at any table.
    assert_eq!(last["clock"]["running"], "white");
    // Resigning resigns for the side to move.
    ws.send(json!({"t": "resign"})).await;
    let over = ws.game_over().await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::Black), EndReason::Resign)
    );
    let game = started["id"].as_str().unwrap();
    let g = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    assert_eq!(g["options"]["local"], true, "{g}");
    assert_eq!(g["moves"].as_array().unwrap().len(), 6);
    s.stop().await;
    db.cleanup().await;
}

async fn a_computer_game_resumes_after_a_restart(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (cookie, table, mut ws, started) = started_table(
        &s,
        "russian",
        json!({"minutes": 5, "increment": 3, "seat": "white", "bot": 1}),
    )
    .await;
    let id = table["id"].as_str().unwrap().to_owned();
    let mv = started["legal"][0].clone();
    ws.send(json!({"t": "move", "move": mv, "ply": 1, "ack": 1}))
        .await;
    ws.recv_t("ack").await;
    let reply = loop {
        let ev = ws.recv_t("move").await;
        if ev["by"] == "black" {
            break ev;
        }
    };
    assert_eq!(reply["ply"], 2);
    drop(ws);
    s.stop().await;

    let s = TestServer::start(config(&db)).await;
    let mut ws = s.table_ws(&id, Some(&cookie)).await;
    let st = ws.state().await;
    assert_eq!(st.status, TableStatus::Playing, "{st:?}");
    assert_eq!(
        st.black.as_ref().and_then(|p| p.bot),
        Some(1),
        "the computer's seat is restored: {st:?}"
    );
    assert_eq!(st.options.bot, Some(1));
    let mv = &st.legal[0];
    ws.send(json!({"t": "move", "move": mv, "ply": 3, "ack": 3}))
        .await;
    ws.recv_t("ack").await;
    let reply = loop {
        let ev = ws.recv_t("move").await;
        if ev["by"] == "black" {
            break ev;
        }
    };
    assert_eq!(reply["ply"], 4, "the computer answers after the restart");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    a_computer_game_is_played_to_the_end_and_stored,
    the_computer_is_ready_for_the_next_game,
    one_guest_plays_both_sides_of_a_local_table,
    a_computer_game_resumes_after_a_restart,
);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_computer_options_are_refused() {
    let (db, s) = server(Backend::Sqlite, None).await;
    let (cookie, _) = s.guest("Ala").await;
    for body in [
        json!({"minutes": 5, "increment": 0, "bot": 4}),
        json!({"minutes": 5, "increment": 0, "bot": 0}),
        json!({"minutes": 5, "increment": 0, "bot": 1, "local": true}),
    ] {
        let r = s
            .http(
                "POST",
                "/api/rooms/russian/tables",
                Some(&cookie),
                Some(body.clone()),
            )
            .await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert_eq!(r.error_code(), "invalid_options");
    }
    s.stop().await;
    db.cleanup().await;
}

/// With real time, the computer's thinking is on its clock like a person's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computers_thinking_is_on_its_clock() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.test.manual_time = false;
    let s = TestServer::start(c).await;
    let (_, _, mut ws, mut last) = started_table(
        &s,
        "international",
        json!({"minutes": 1, "increment": 0, "seat": "white", "bot": 3}),
    )
    .await;
    // Ply 1 and 2 are the first moves (not on the clock); from ply 3 the clock runs.
    for ply in [1u64, 3, 5] {
        let mv = last["legal"][0].clone();
        ws.send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
            .await;
        last = loop {
            let ev = ws.recv_t("move").await;
            if ev["by"] == "black" {
                break ev;
            }
        };
    }
    let black = last["clock"]["black"].as_u64().unwrap();
    assert!(
        black < 60_000,
        "the computer's thinking was charged: {last}"
    );
    assert_eq!(last["clock"]["running"], "white");
    s.stop().await;
    db.cleanup().await;
}
