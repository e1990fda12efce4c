//! Claims against an opponent who left, takebacks and rematches over real sockets, on
//! SQLite and PostgreSQL (the claimed end and the takeback are stored).

use crate::common::{
    Backend, TestDb, TestServer, config, play_first_moves, play_first_moves_from, start_match,
};
use damka_protocol::{EndReason, ErrorCode, GameResult, Side};
use serde_json::{Value, json};

async fn game_json(s: &TestServer, id: &str) -> Value {
    s.http("GET", &format!("/api/games/{id}"), None, None)
        .await
        .json()
}

async fn claim(backend: Backend, minutes: u64, delay_ms: u64, draw: bool) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": minutes, "increment": 0})).await;
    // Before both players moved nobody can claim (the first-move window aborts).
    m.white.0.send(json!({"t": "claim_victory"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::BadMessage);
    play_first_moves(&mut m, 3).await;
    // Nobody is gone: nothing to claim.
    m.white.0.send(json!({"t": "claim_draw"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::BadMessage);
    m.white.0.send(json!({"t": "resync"})).await;
    assert_eq!(m.white.0.state().await.claim_at, None);

    // Black leaves (on its own turn: its clock runs meanwhile, far from flagging).
    m.black.0.stream.close(None).await.ok();
    let p = loop {
        let p = m.white.0.recv_t("presence").await;
        if p["black"] == false {
            break p;
        }
    };
    assert_eq!(p["claim_at"], delay_ms, "{p}");
    // Too early.
    s.advance(delay_ms / 2).await;
    let t = if draw { "claim_draw" } else { "claim_victory" };
    m.white.0.send(json!({"t": t})).await;
    let e = m.white.0.error().await;
    assert_eq!(e.code, ErrorCode::BadMessage, "{e:?}");
    m.white.0.send(json!({"t": "resync"})).await;
    assert_eq!(
        m.white.0.state().await.claim_at,
        Some(delay_ms - delay_ms / 2)
    );
    // After the delay.
    s.advance(delay_ms - delay_ms / 2).await;
    m.white.0.send(json!({"t": "resync"})).await;
    assert_eq!(m.white.0.state().await.claim_at, Some(0));
    m.white.0.send(json!({"t": t})).await;
    let over = m.white.0.game_over().await;
    let result = if draw {
        GameResult::Draw
    } else {
        GameResult::White
    };
    assert_eq!(
        (over.result, over.reason),
        (Some(result), EndReason::Abandoned)
    );
    assert_eq!(over.by, Some(Side::White), "the claimer: {over:?}");
    let g = game_json(&s, &m.game).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some(result.as_str()), Some("abandoned")),
        "{g}"
    );
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
    s.stop().await;
    db.cleanup().await;
}

async fn claim_victory_after_a_minute(backend: Backend) {
    claim(backend, 5, 60_000, false).await;
}

async fn claim_draw_after_30_s_on_a_short_clock(backend: Backend) {
    claim(backend, 2, 30_000, true).await;
}

async fn takeback_offer_decline_accept(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.tables.draw_offer_plies = 2;
    let s = TestServer::start(c.clone()).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    // The first moves cannot be taken back.
    let after2 = play_first_moves(&mut m, 2).await;
    m.black.0.send(json!({"t": "takeback_offer"})).await;
    assert_eq!(m.black.0.error_code().await, ErrorCode::BadMessage);
    let last = play_first_moves_from(&mut m, &after2, 2, 2).await;
    assert_eq!(last["turn"], "white");

    // White asks (its move 3 and Black's reply 4 would go); Black declines.
    m.white.0.send(json!({"t": "takeback_offer"})).await;
    for ws in [&mut m.white.0, &mut m.black.0] {
        assert_eq!(ws.recv_t("takeback_offered").await["by"], "white");
    }
    m.white.0.send(json!({"t": "resync"})).await;
    assert_eq!(m.white.0.state().await.takeback_offer, Some(Side::White));
    m.black.0.send(json!({"t": "takeback_decline"})).await;
    for ws in [&mut m.white.0, &mut m.black.0] {
        assert_eq!(ws.recv_t("takeback_declined").await["by"], "black");
    }
    // Requests are limited like draw offers; answering without a request is refused.
    m.white.0.send(json!({"t": "takeback_offer"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::RateLimited);
    m.white.0.send(json!({"t": "takeback_accept"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::BadMessage);

    // Black asks for its move 4 back (White has not replied); White accepts.
    m.black.0.send(json!({"t": "takeback_offer"})).await;
    assert_eq!(m.white.0.recv_t("takeback_offered").await["by"], "black");
    m.white.0.send(json!({"t": "takeback_accept"})).await;
    let mut states = Vec::new();
    for ws in [&mut m.white.0, &mut m.black.0] {
        let tb = ws.recv_t("takeback").await;
        assert_eq!(
            (tb["by"].as_str(), &tb["plies"], &tb["ply"]),
            (Some("black"), &json!(1), &json!(3)),
            "{tb}"
        );
        let st = ws.recv_t("state").await;
        assert_eq!(
            st["v"], tb["v"],
            "the fresh state carries the takeback's version"
        );
        states.push(st);
    }
    let st = states.swap_remove(0);
    assert_eq!(st["moves"].as_array().unwrap().len(), 3);
    assert_eq!(st["turn"], "black");
    assert_eq!(st["takeback_offer"], Value::Null);
    assert_eq!(st["clock"]["running"], "black");
    assert_eq!(
        st["clock"]["black"], st["moves"][2]["clock"]["black"],
        "{st}"
    );
    // Durable: the stored game has lost the move.
    let g = game_json(&s, &m.game).await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 3, "{g}");
    // The game goes on from ply 4.
    let ev = play_first_moves_from(&mut m, &st, 3, 3).await;
    assert_eq!(
        (&ev["ply"], ev["turn"].as_str()),
        (&json!(6), Some("white"))
    );
    // A move cancels a standing request: Black asks, White moves instead.
    m.black.0.send(json!({"t": "takeback_offer"})).await;
    assert_eq!(m.white.0.recv_t("takeback_offered").await["by"], "black");
    let ev = play_first_moves_from(&mut m, &ev, 6, 1).await;
    assert_eq!(ev["ply"], 7);
    // (Announced just before the move, which `play` waited for.)
    let declined = m
        .black
        .0
        .log
        .iter()
        .rev()
        .find(|v| v["t"] == "takeback_declined");
    assert_eq!(declined.map(|v| &v["by"]), Some(&json!("white")));
    m.white.0.send(json!({"t": "takeback_accept"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::BadMessage);

    // After a restart the game goes on from the stored moves, the taken-back one gone.
    let (table, cookie, game) = (m.table.clone(), m.white.1.clone(), m.game.clone());
    drop(m);
    s.stop().await;
    let s = TestServer::start(c).await;
    let mut w = s.table_ws(&table, Some(&cookie)).await;
    let st = w.state().await;
    assert_eq!(st.moves.len(), 7, "{st:?}");
    let g = game_json(&s, &game).await;
    assert_eq!(g["moves"][3]["move"], st.moves[3].mv);
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    claim_victory_after_a_minute,
    claim_draw_after_30_s_on_a_short_clock,
    takeback_offer_decline_accept
);

/// After a game, one player's start is seen by the other as `ready` (a rematch
/// request); the other's start begins a new game with the colours swapped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_ready_is_seen_and_swaps_colours() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    let (white_id, black_id) = (
        m.started["white"]["id"].clone(),
        m.started["black"]["id"].clone(),
    );
    play_first_moves(&mut m, 2).await;
    m.black.0.send(json!({"t": "resign"})).await;
    m.white.0.recv_t("game_over").await;
    m.black.0.recv_t("game_over").await;
    m.white.0.send(json!({"t": "start"})).await;
    assert_eq!(m.black.0.recv_t("ready").await["seat"], "white");
    m.black.0.send(json!({"t": "resync"})).await;
    assert_eq!(m.black.0.recv_t("state").await["ready"]["white"], true);
    m.black.0.send(json!({"t": "start"})).await;
    let g = m.black.0.recv_t("game_started").await;
    assert_eq!(
        (&g["white"]["id"], &g["black"]["id"]),
        (&black_id, &white_id)
    );
    assert_ne!(g["id"], json!(m.game));
    assert_eq!(m.white.0.recv_t("game_started").await["id"], g["id"]);
    s.stop().await;
    db.cleanup().await;
}

/// Against the computer there is nobody to claim against, and no takebacks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_claims_or_takebacks_against_the_computer() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (a, _) = s.guest("Ala").await;
    let table = s
        .create_table(
            &a,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "white", "bot": 1}),
        )
        .await;
    let id = table["id"].as_str().unwrap();
    let mut w = s.table_ws(id, Some(&a)).await;
    w.state().await;
    w.send(json!({"t": "start"})).await;
    let mut last = w.recv_t("game_started").await;
    for ply in 1..=4u64 {
        if last["turn"] == "white" {
            let mv = last["legal"][0].as_str().unwrap().to_owned();
            w.send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
                .await;
        }
        last = w.recv_t("move").await;
    }
    w.send(json!({"t": "takeback_offer"})).await;
    assert_eq!(w.error_code().await, ErrorCode::BadMessage);
    w.send(json!({"t": "claim_victory"})).await;
    assert_eq!(w.error_code().await, ErrorCode::BadMessage);
    w.send(json!({"t": "resync"})).await;
    assert_eq!(w.state().await.claim_at, None);
    s.stop().await;
    db.cleanup().await;
}
