//! What the server tells the clients so they need not guess: when each player may next
//! offer a draw or ask for a takeback (for whatever `--draw-offer-plies` is), in `state`
//! and in the offer events; and who ended a game (`game_over.by`, `state.ended_by`) for a
//! resignation and an abort, seen by players and spectators alike.

use crate::common::{
    Backend, TestDb, TestServer, config, one_move_each, play_first_moves, play_first_moves_from,
    start_match,
};
use damka_protocol::table::{OfferLimits, SidePlies};
use damka_protocol::{ErrorCode, Side};
use serde_json::{Value, json};

async fn offer_limits_follow_the_configured_plies(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.tables.draw_offer_plies = 4;
    let s = TestServer::start(c).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    m.white.0.send(json!({"t": "resync"})).await;
    let st = m.white.0.state().await;
    let none = SidePlies { white: 0, black: 0 };
    assert_eq!(
        st.offer_limits,
        OfferLimits {
            plies: 4,
            draw: none,
            takeback: none
        }
    );
    let last = play_first_moves(&mut m, 4).await;

    // White offers a draw after 4 plies: again from 8 plies on.
    m.white.0.send(json!({"t": "draw_offer"})).await;
    for ws in [&mut m.white.0, &mut m.black.0] {
        let ev = ws.recv_t("draw_offered").await;
        assert_eq!(
            (&ev["by"], &ev["next"]),
            (&json!("white"), &json!(8)),
            "{ev}"
        );
    }
    m.black.0.send(json!({"t": "draw_decline"})).await;
    m.white.0.recv_t("draw_declined").await;
    // White asks for a takeback at the same point: again from 8 plies on too.
    m.white.0.send(json!({"t": "takeback_offer"})).await;
    for ws in [&mut m.white.0, &mut m.black.0] {
        let ev = ws.recv_t("takeback_offered").await;
        assert_eq!(
            (&ev["by"], &ev["next"]),
            (&json!("white"), &json!(8)),
            "{ev}"
        );
    }
    m.black.0.send(json!({"t": "takeback_decline"})).await;
    m.white.0.recv_t("takeback_declined").await;
    // A reconnecting client reads the same from `state`.
    m.black.0.send(json!({"t": "resync"})).await;
    let st = m.black.0.state().await;
    let white_at_8 = SidePlies { white: 8, black: 0 };
    assert_eq!(
        st.offer_limits,
        OfferLimits {
            plies: 4,
            draw: white_at_8,
            takeback: white_at_8
        }
    );
    // The server holds to it: refused at 7 plies, allowed at 8.
    let last = play_first_moves_from(&mut m, &last, 4, 3).await;
    m.white.0.send(json!({"t": "draw_offer"})).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::RateLimited);
    play_first_moves_from(&mut m, &last, 7, 1).await;
    m.white.0.send(json!({"t": "draw_offer"})).await;
    assert_eq!(m.white.0.recv_t("draw_offered").await["next"], 12);
    s.stop().await;
    db.cleanup().await;
}

both_backends!(offer_limits_follow_the_configured_plies);

/// `game_over.by` and `state.ended_by` name who resigned or aborted, for the players and
/// a spectator; a timeout names nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_end_says_who_resigned_or_aborted() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 1, "increment": 0})).await;
    let mut spectator = s.table_ws(&m.table, None).await;
    spectator.state().await;

    // Black aborts before both have moved.
    play_first_moves(&mut m, 1).await;
    m.black.0.send(json!({"t": "abort"})).await;
    for ws in [&mut m.white.0, &mut m.black.0, &mut spectator] {
        let over = ws.recv_t("game_over").await;
        assert_eq!(
            (&over["result"], &over["reason"], &over["by"]),
            (&Value::Null, &json!("aborted"), &json!("black")),
            "{over}"
        );
    }
    spectator.send(json!({"t": "resync"})).await;
    assert_eq!(spectator.state().await.ended_by, Some(Side::Black));

    // The next game (colours swapped: Ala is Black now): White (Bolek) resigns.
    m.white.0.send(json!({"t": "start"})).await;
    m.black.0.send(json!({"t": "start"})).await;
    let started = spectator.recv_t("game_started").await;
    spectator.send(json!({"t": "resync"})).await;
    assert_eq!(spectator.state().await.ended_by, None);
    // Bolek's socket (`black` of the match) now plays White; a move each (before both
    // have moved a resignation is an abort).
    m.started = started;
    one_move_each(&mut m.black.0, &mut m.white.0, &m.started).await;
    m.black.0.send(json!({"t": "resign"})).await;
    let over = spectator.recv_t("game_over").await;
    assert_eq!(
        (&over["result"], &over["reason"], &over["by"]),
        (&json!("black"), &json!("resign"), &json!("white")),
        "{over}"
    );

    // A third game ends on time: nobody's action.
    m.white.0.send(json!({"t": "start"})).await;
    m.black.0.send(json!({"t": "start"})).await;
    let started = spectator.recv_t("game_started").await;
    // Ala (the match's `white` socket) plays White again.
    assert_eq!(started["white"]["name"], "Ala");
    m.started = started;
    play_first_moves(&mut m, 2).await;
    s.advance(61_000).await;
    let over = spectator.recv_t("game_over").await;
    assert_eq!(over["reason"], "timeout");
    assert!(over.get("by").is_none(), "{over}");
    s.stop().await;
    db.cleanup().await;
}
