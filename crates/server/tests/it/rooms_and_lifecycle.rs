//! Room sockets, table lifetimes, restarts and graceful shutdown.

use crate::common::{Backend, TestDb, TestServer, config, play, play_first_moves, start_match};
use damka_protocol::table::Paused;
use damka_protocol::{ErrorCode, Side};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_socket_sees_tables_appear_change_and_disappear() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    // `players` counts people: guests with a session on a room socket (or at a table).
    let (a, me) = s.guest("Ala").await;
    let (c, _) = s.guest("Celina").await;
    let mut anonymous = s.room_ws("czech").await;
    anonymous.recv_t("room").await;
    let mut room = crate::common::Ws::connect(&s.addr, "/ws/rooms/czech", Some(&a), None).await;
    let hello = room.recv_t("room").await;
    assert_eq!(hello["room"]["id"], "czech");
    assert_eq!(hello["tables"], json!([]));
    assert_eq!(room.recv_t("presence").await["players"], 1);
    let mut other = crate::common::Ws::connect(&s.addr, "/ws/rooms/czech", Some(&c), None).await;
    other.recv_t("room").await;
    assert_eq!(room.recv_t("presence").await["players"], 2);
    other.stream.close(None).await.ok();
    assert_eq!(room.recv_t("presence").await["players"], 1);
    // A ping is answered.
    room.send(json!({"t": "ping", "ts": 123.5})).await;
    assert_eq!(room.recv_t("pong").await["ts"], 123.5);
    room.send_text("hello").await;
    assert_eq!(room.error_code().await, ErrorCode::BadMessage);
    // A table appears at once, with its seats.
    let t = s
        .create_table(
            &a,
            "czech",
            json!({"minutes": 2, "increment": 1, "seat": "black"}),
        )
        .await;
    let added = room.recv_t("table_added").await;
    assert_eq!(added["table"], t);
    assert_eq!(added["table"]["seats"]["black"], me);
    // Someone sits down: updated.
    let (b, _) = s.guest("Bolek").await;
    let id = t["id"].as_str().unwrap();
    let mut wb = s.table_ws(id, Some(&b)).await;
    wb.state().await;
    wb.send(json!({"t": "sit", "seat": "white"})).await;
    loop {
        let u = room.recv_t("table_updated").await;
        if u["table"]["seats"]["white"]["name"] == "Bolek" {
            break;
        }
    }
    // Everybody leaves: after the grace period the table is removed.
    wb.stream.close(None).await.ok();
    // The server has answered the close (its session is ending); give the table a moment
    // to see the socket go before the manual clock moves.
    wb.closed().await;
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    s.advance(29_000).await;
    assert!(
        s.http("GET", &format!("/api/tables/{id}"), None, None)
            .await
            .status
            == 200
    );
    s.advance(1_000).await;
    let removed = room.recv_t("table_removed").await;
    assert_eq!(removed["table"]["id"], id);
    assert_eq!(
        s.http("GET", &format!("/api/tables/{id}"), None, None)
            .await
            .status,
        404
    );
    assert_eq!(
        s.http("GET", "/api/rooms/czech", None, None).await.json()["tables"],
        json!([])
    );
    s.stop().await;
    db.cleanup().await;
}

/// A new server on the same database finds the running game and continues it, with
/// the clocks exactly as they were.
async fn restart_resumes_games(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 3, "increment": 2})).await;
    play_first_moves(&mut m, 2).await;
    s.advance(4_000).await;
    let last = play_first_moves_more(&mut m, 3).await;
    let clock_before = last["clock"].clone();
    s.advance(1_500).await; // White thinks for 1.5 s before the shutdown.
    let table = m.table.clone();
    let (wcookie, bcookie) = (m.white.1.clone(), m.black.1.clone());
    s.stop().await;
    // The old sockets were told the server is going away.
    assert_eq!(m.white.0.closed().await, Some(1001));
    let s = TestServer::start(config(&db)).await;
    let t = s
        .http("GET", &format!("/api/tables/{table}"), None, None)
        .await;
    assert_eq!(t.status, 200, "the table is back");
    assert_eq!(t.json()["game"]["status"], "playing");
    let mut w = s.table_ws(&table, Some(&wcookie)).await;
    let st = w.state().await;
    assert_eq!(st.moves.len(), 5);
    assert_eq!(st.you.as_ref().and_then(|y| y.seat), Some(Side::White));
    // The clock waits for both players to be back.
    assert_eq!(st.paused, Some(Paused::Restart), "{st:?}");
    assert_eq!(st.clock.running, None, "{st:?}");
    // The downtime is charged to nobody; the 1.5 s before the shutdown are.
    let (turn, left) = match st.turn {
        Side::White => ("white", st.clock.white),
        Side::Black => ("black", st.clock.black),
    };
    let expected = clock_before[turn].as_u64().unwrap() - 1_500;
    assert_eq!(left, expected, "{st:?}");
    let mut b = s.table_ws(&table, Some(&bcookie)).await;
    b.state().await;
    // Both are back: the clock runs again, from the same time.
    let st = loop {
        let st = w.recv_t("state").await;
        if st["paused"].is_null() {
            break st;
        }
    };
    assert_eq!(st["clock"]["running"], st["turn"], "{st}");
    assert_eq!(st["clock"][turn].as_u64().unwrap(), expected, "{st}");
    let mut m2 = crate::common::Match {
        table: table.clone(),
        game: m.game.clone(),
        white: (w, wcookie),
        black: (b, bcookie),
        started: st.clone(),
    };
    let mv = st["legal"][0].as_str().unwrap().to_owned();
    let ev = play(&mut m2, turn, &mv, 6).await;
    assert_eq!(ev["ply"], 6);
    let g = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(g["moves"].as_array().unwrap().len(), 6);
    s.stop().await;
    db.cleanup().await;
}

/// Plays `n` more first-legal moves after the ones already played (resync for the state).
async fn play_first_moves_more(m: &mut crate::common::Match, n: u64) -> serde_json::Value {
    m.white.0.send(json!({"t": "resync"})).await;
    let st = m.white.0.recv_t("state").await;
    let ply = st["moves"].as_array().unwrap().len() as u64;
    crate::common::play_first_moves_from(m, &st, ply, n).await
}

/// Both players back at a restarted server: their sockets and the `state` each got.
async fn rejoin(
    s: &TestServer,
    table: &str,
    cookies: &(String, String),
) -> (crate::common::Ws, crate::common::Ws, serde_json::Value) {
    let mut w = s.table_ws(table, Some(&cookies.0)).await;
    let st = w.recv_t("state").await;
    let mut b = s.table_ws(table, Some(&cookies.1)).await;
    assert_eq!(b.recv_t("state").await["draw_offer"], st["draw_offer"]);
    (w, b, st)
}

/// A draw offer the players saw is still there after a restart, with the offer rate
/// limit; one declined before the restart is not.
async fn restart_keeps_a_standing_draw_offer(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 3, "increment": 2})).await;
    play_first_moves(&mut m, 4).await;
    // White offers on its own turn, then moves: the offer stands for Black.
    m.white.0.send(json!({"t": "draw_offer"})).await;
    assert_eq!(m.black.0.recv_t("draw_offered").await["by"], "white");
    play_first_moves_more(&mut m, 1).await;
    let table = m.table.clone();
    let cookies = (m.white.1.clone(), m.black.1.clone());
    s.stop().await;

    let s = TestServer::start(config(&db)).await;
    let (mut w, mut b, st) = rejoin(&s, &table, &cookies).await;
    assert_eq!(st["draw_offer"], "white", "{st}");
    assert_eq!(st["moves"].as_array().unwrap().len(), 5);
    // The rate limit was restored too: no second offer from White yet.
    w.send(json!({"t": "draw_offer"})).await;
    assert_eq!(w.error_code().await, ErrorCode::RateLimited);
    // Black declines; the decline is stored.
    b.send(json!({"t": "draw_decline"})).await;
    assert_eq!(w.recv_t("draw_declined").await["by"], "black");
    s.stop().await;

    let s = TestServer::start(config(&db)).await;
    let (mut w, mut b, st) = rejoin(&s, &table, &cookies).await;
    assert!(st["draw_offer"].is_null(), "{st}");
    // Black offers, the server restarts, White accepts the standing offer.
    b.send(json!({"t": "draw_offer"})).await;
    assert_eq!(w.recv_t("draw_offered").await["by"], "black");
    s.stop().await;

    let s = TestServer::start(config(&db)).await;
    let (mut w, _b, st) = rejoin(&s, &table, &cookies).await;
    assert_eq!(st["draw_offer"], "black", "{st}");
    w.send(json!({"t": "draw_accept"})).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(over["result"], "draw", "{over}");
    assert_eq!(over["reason"], "agreement", "{over}");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(restart_resumes_games, restart_keeps_a_standing_draw_offer);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn graceful_shutdown_closes_sockets_with_1001() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "italian", json!({"minutes": 1, "increment": 0})).await;
    let mut room = s.room_ws("italian").await;
    room.recv_t("room").await;
    let ready = s.http("GET", "/readyz", None, None).await;
    assert_eq!(ready.status, 200);
    s.stop().await;
    assert_eq!(m.white.0.closed().await, Some(1001));
    assert_eq!(m.black.0.closed().await, Some(1001));
    assert_eq!(room.closed().await, Some(1001));
    db.cleanup().await;
}
