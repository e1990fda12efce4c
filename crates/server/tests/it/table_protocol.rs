//! The table socket: versions, spectators, reconnects, resent moves and every error code
//! a socket can produce.

use crate::common::{
    Backend, Refusal, TestDb, TestServer, Ws, config, play, play_first_moves, start_match,
};
use damka_protocol::table::{MovePlayed, PresenceView};
use damka_protocol::{ErrorCode, Side, TableStatus};
use serde_json::{Value, json};

/// Versions of broadcast events in a log are contiguous from the first one seen.
fn assert_contiguous(log: &[Value], from: u64) {
    let mut expected = from;
    for e in log
        .iter()
        .filter(|e| e.get("v").is_some() && e["t"] != "state")
    {
        expected += 1;
        assert_eq!(e["v"], expected, "event out of sequence: {e}");
    }
}

async fn spectator_sees_every_move_and_reconnect_restores_state(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "international", json!({"minutes": 3, "increment": 2})).await;
    // A spectator without a session.
    let mut spec = s.table_ws(&m.table, None).await;
    let st = spec.state().await;
    assert_eq!(st.you, None);
    assert_eq!(st.status, TableStatus::Playing);
    assert_eq!(
        st.presence,
        PresenceView {
            white: true,
            black: true,
            spectators: 1,
            watchers: vec![]
        }
    );
    let v0 = st.v;
    // A spectator with a session is named (issue 39), once however many sockets it
    // watches from; the one without a session is only counted.
    let (wanda, _) = s.guest("Wanda").await;
    let mut w1 = s.table_ws(&m.table, Some(&wanda)).await;
    let sw = w1.state().await;
    assert_eq!(sw.presence.spectators, 2, "{sw:?}");
    assert_eq!(sw.presence.watchers[0].name, "Wanda", "{sw:?}");
    let mut w2 = s.table_ws(&m.table, Some(&wanda)).await;
    w2.state().await;
    loop {
        let p = m.white.0.recv_t("presence").await;
        if p["spectators"] == 3 {
            assert_eq!(p["watchers"].as_array().map(Vec::len), Some(1), "{p}");
            assert_eq!(p["watchers"][0]["name"], "Wanda", "{p}");
            break;
        }
    }
    w1.stream.close(None).await.ok();
    w2.stream.close(None).await.ok();
    loop {
        let p = m.white.0.recv_t("presence").await;
        if p["spectators"] == 1 {
            assert_eq!(p["watchers"], json!([]), "{p}");
            break;
        }
    }

    let last = play_first_moves(&mut m, 6).await;
    for ply in 1..=6 {
        assert_eq!(spec.moved().await.ply, ply);
    }
    assert_contiguous(&spec.log[1..], v0);
    // Spectators cannot act.
    spec.send(json!({"t": "sit", "seat": "white"})).await;
    assert_eq!(spec.error_code().await, ErrorCode::Unauthorized);
    // Black drops and comes back: the opponent sees it, the state is complete.
    let (ws, cookie) = (&mut m.black.0, m.black.1.clone());
    ws.stream.close(None).await.ok();
    let p = m.white.0.recv_t("presence").await;
    assert_eq!(
        (p["white"].as_bool(), p["black"].as_bool()),
        (Some(true), Some(false))
    );
    let mut back = s.table_ws(&m.table, Some(&cookie)).await;
    let st = back.state().await;
    let last: MovePlayed = serde_json::from_value(last).expect("a move");
    assert_eq!(st.you.and_then(|y| y.seat), Some(Side::Black));
    assert_eq!(st.moves.len(), 6);
    assert_eq!(
        (&st.fen, &st.legal, st.turn),
        (&last.fen, &last.legal, last.turn)
    );
    assert_eq!(st.clock.running, Some(Side::White));
    assert_eq!(st.clock.white, last.clock.white);
    assert_eq!(st.game_id.as_deref(), Some(m.game.as_str()));
    assert!(st.presence.black);
    m.black.0 = back;
    // Play on after the reconnect.
    play(&mut m, "white", &last.legal[0], 7).await;
    s.stop().await;
    db.cleanup().await;
}

async fn resent_moves_apply_once(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    let first = m.started["legal"][0].as_str().unwrap().to_owned();
    let other = m.started["legal"][1].as_str().unwrap().to_owned();
    play(&mut m, "white", &first, 1).await;
    // The same move for ply 1 again (a resend after a lost ack): acknowledged, not replayed.
    m.white
        .0
        .send(json!({"t": "move", "move": first, "ply": 1, "ack": "again"}))
        .await;
    assert_eq!(m.white.0.recv_t("ack").await["ack"], "again");
    // A different move for ply 1: stale.
    m.white
        .0
        .send(json!({"t": "move", "move": other, "ply": 1, "ack": 9}))
        .await;
    let e = m.white.0.error().await;
    assert_eq!((e.code, e.ack), (ErrorCode::StalePly, Some(json!(9))));
    m.black.0.silent(200).await;
    let g = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(g["moves"].as_array().unwrap().len(), 1);
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    spectator_sees_every_move_and_reconnect_restores_state,
    resent_moves_apply_once
);

async fn error_of(ws: &mut Ws, msg: Value) -> Refusal {
    ws.send(msg).await;
    ws.error().await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_socket_error_code() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (a, _) = s.guest("Ala").await;
    let (b, _) = s.guest("Bolek").await;
    let (c, _) = s.guest("Celina").await;
    let table = s
        .create_table(
            &a,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "white"}),
        )
        .await;
    let id = table["id"].as_str().unwrap();
    let mut wa = s.table_ws(id, Some(&a)).await;
    wa.state().await;
    let mut wb = s.table_ws(id, Some(&b)).await;
    wb.state().await;
    let mut wc = s.table_ws(id, Some(&c)).await;
    wc.state().await;
    // bad_message: not JSON, unknown type, missing field, binary; the socket stays open.
    wb.send_text("{not json").await;
    assert_eq!(wb.error_code().await, ErrorCode::BadMessage);
    let e = error_of(&mut wb, json!({"t": "teleport", "ack": 5})).await;
    assert_eq!((e.code, e.ack), (ErrorCode::BadMessage, Some(json!(5))));
    assert_eq!(
        error_of(&mut wb, json!({"t": "sit"})).await.code,
        ErrorCode::BadMessage
    );
    // not_seated, no_game, seat_taken.
    assert_eq!(
        error_of(&mut wb, json!({"t": "stand"})).await.code,
        ErrorCode::NotSeated
    );
    assert_eq!(
        error_of(&mut wb, json!({"t": "start"})).await.code,
        ErrorCode::NotSeated
    );
    assert_eq!(
        error_of(&mut wb, json!({"t": "resign"})).await.code,
        ErrorCode::NoGame
    );
    let e = error_of(
        &mut wb,
        json!({"t": "move", "move": "c3-d4", "ply": 1, "ack": 1}),
    )
    .await;
    assert_eq!((e.code, e.ack), (ErrorCode::NoGame, Some(json!(1))));
    assert_eq!(
        error_of(&mut wb, json!({"t": "sit", "seat": "white"}))
            .await
            .code,
        ErrorCode::SeatTaken
    );
    wb.send(json!({"t": "sit", "seat": "black"})).await;
    wb.recv_t("seated").await;
    assert_eq!(
        error_of(&mut wc, json!({"t": "sit", "seat": "black"}))
            .await
            .code,
        ErrorCode::SeatTaken
    );
    wa.send(json!({"t": "start"})).await;
    wb.send(json!({"t": "start"})).await;
    let started = wa.recv_t("game_started").await;
    // game_in_progress, not_your_turn, illegal_move (with the legal moves), stale_ply.
    assert_eq!(
        error_of(&mut wa, json!({"t": "stand"})).await.code,
        ErrorCode::GameInProgress
    );
    assert_eq!(
        error_of(&mut wa, json!({"t": "start"})).await.code,
        ErrorCode::GameInProgress
    );
    let e = error_of(
        &mut wb,
        json!({"t": "move", "move": "b6-a5", "ply": 1, "ack": 2}),
    )
    .await;
    assert_eq!(e.code, ErrorCode::NotYourTurn);
    let e = error_of(
        &mut wa,
        json!({"t": "move", "move": "c3-c4", "ply": 1, "ack": 3}),
    )
    .await;
    assert_eq!(e.code, ErrorCode::IllegalMove);
    assert_eq!(
        Some(Value::from(e.legal.unwrap())),
        started.get("legal").cloned()
    );
    let e = error_of(
        &mut wa,
        json!({"t": "move", "move": "c3-d4", "ply": 5, "ack": 4}),
    )
    .await;
    assert_eq!(e.code, ErrorCode::StalePly);
    // A spectator with a session is not a player of the game.
    assert_eq!(
        error_of(&mut wc, json!({"t": "resign"})).await.code,
        ErrorCode::NotSeated
    );
    assert_eq!(
        error_of(&mut wc, json!({"t": "draw_offer"})).await.code,
        ErrorCode::NotSeated
    );
    // None of this disturbed the game.
    wa.send(json!({"t": "move", "move": "c3-d4", "ply": 1, "ack": 6}))
        .await;
    assert_eq!(wa.recv_t("ack").await["ack"], 6);
    assert_eq!(wb.moved().await.mv, "c3-d4");
    // not_found on a socket; too_many_tables when sitting down.
    let mut gone = s.table_ws("t0000000", Some(&a)).await;
    assert_eq!(gone.error_code().await, ErrorCode::NotFound);
    assert_eq!(gone.closed().await, Some(1000));
    let opts = json!({"minutes": 5, "increment": 0});
    for room in ["russian", "czech", "italian"] {
        s.create_table(&c, room, opts.clone()).await;
    }
    let (d, _) = s.guest("Darek").await;
    let t2 = s
        .create_table(
            &d,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "white"}),
        )
        .await;
    let mut wc2 = s.table_ws(t2["id"].as_str().unwrap(), Some(&c)).await;
    wc2.state().await;
    let e = error_of(&mut wc2, json!({"t": "sit", "seat": "black"})).await;
    assert_eq!(e.code, ErrorCode::TooManyTables);
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn internal_error_when_the_store_fails() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    // Break the database under the server: the move cannot be stored, so it is neither
    // acknowledged nor played, and the client gets a generic `internal` error.
    // Behind the server's back, on a connection of the test's own.
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
    sqlx::query("DROP TABLE moves")
        .execute(&mut conn)
        .await
        .unwrap();
    let mv = m.started["legal"][0].as_str().unwrap().to_owned();
    m.white
        .0
        .send(json!({"t": "move", "move": mv, "ply": 1, "ack": 1}))
        .await;
    let e = m.white.0.error().await;
    assert_eq!(
        (e.code, e.message.as_str(), e.ack),
        (ErrorCode::Internal, "internal error", Some(json!(1)))
    );
    m.black.0.silent(200).await;
    m.white.0.send(json!({"t": "resync"})).await;
    let st = m.white.0.state().await;
    assert!(st.moves.is_empty());
    assert_eq!(st.turn, Side::White);
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_opening_is_played_stored_and_marked() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let opts = json!({"minutes": 5, "increment": 0, "random_opening": true});
    let mut m = start_match(&s, "spanish", opts).await;
    let opening = m.started["opening"].as_array().unwrap().clone();
    assert_eq!(opening.len(), 4, "{}", m.started);
    assert_ne!(m.started["fen"], m.started["initial_fen"]);
    m.white.0.send(json!({"t": "resync"})).await;
    let st = m.white.0.state().await;
    assert_eq!(st.opening_plies, 4);
    assert_eq!(st.moves.len(), 4);
    assert_eq!(st.first_move_deadline, Some(30_000));
    // The first real move is ply 5, by the side to move after the opening.
    let ev = play_first_moves(&mut m, 1).await;
    assert_eq!(ev["ply"], 5);
    let g = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(g["opening_plies"], 4);
    let stored: Vec<_> = g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].clone())
        .collect();
    assert_eq!(&stored[..4], opening.as_slice());
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn capture_optional_tables_offer_quiet_moves_too() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.test.test_start_fen = Some("W:Wc3:Bd4".into());
    let s = TestServer::start(c).await;
    let forced = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    assert_eq!(forced.started["legal"], json!(["c3xe5"]));
    let opts = json!({"minutes": 5, "increment": 0, "capture_optional": true});
    let free = start_match(&s, "russian", opts).await;
    let mut legal: Vec<String> = free.started["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    legal.sort();
    assert_eq!(legal, ["c3-b4", "c3xe5"]);
    s.stop().await;
    db.cleanup().await;
}
