//! Chat over real sockets, on SQLite and PostgreSQL: at a table (delivery, plain text,
//! length, session needed, flood control, spectators kept apart during a game, history
//! on connect and after a restart) and in a room.

use crate::common::{Backend, TestDb, TestServer, Ws, config, play_first_moves, start_match};
use damka_protocol::{ChatMessage, ErrorCode};
use serde_json::{Value, json};

fn texts(chat: &Value) -> Vec<String> {
    chat.as_array()
        .unwrap()
        .iter()
        .map(|m| m["text"].as_str().unwrap().to_owned())
        .collect()
}

/// The texts of a table's chat lines.
fn table_texts(chat: &[ChatMessage]) -> Vec<&str> {
    chat.iter().map(|m| m.text.as_str()).collect()
}

async fn chat(ws: &mut Ws, text: &str, ack: u64) {
    ws.send(json!({"t": "chat", "text": text, "ack": ack}))
        .await;
}

async fn table_chat(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    play_first_moves(&mut m, 2).await;
    let (c, _) = s.guest("Celina").await;
    let mut spec = s.table_ws(&m.table, Some(&c)).await;
    spec.state().await;
    let mut anon = s.table_ws(&m.table, None).await;
    anon.state().await;

    // A session is needed.
    chat(&mut anon, "hi", 1).await;
    let e = anon.error().await;
    assert_eq!((e.code, e.ack), (ErrorCode::Unauthorized, Some(json!(1))));

    // A player's message reaches everybody, as plain text, trimmed, invisible
    // characters removed.
    chat(&mut m.white.0, "  cześć <b>x</b>\u{200B}\n ", 2).await;
    for ws in [&mut m.white.0, &mut m.black.0, &mut spec, &mut anon] {
        let c = ws.recv_t("chat").await;
        assert_eq!(c["text"], "cześć <b>x</b>", "{c}");
        assert_eq!(c["from"]["name"], "Ala");
        assert!(c.get("spectators").is_none(), "{c}");
        let at = c["at"].as_str().unwrap();
        assert!(at.contains('T') && at.ends_with('Z'), "{at}");
        assert!(c.get("v").is_none(), "chat is not versioned");
    }

    // A spectator's message during the game: spectators only.
    chat(&mut spec, "psst", 3).await;
    for ws in [&mut spec, &mut anon] {
        let c = ws.recv_t("chat").await;
        assert_eq!(
            (c["text"].as_str(), &c["spectators"]),
            (Some("psst"), &json!(true))
        );
    }
    chat(&mut m.black.0, "gl", 4).await;
    for ws in [&mut m.white.0, &mut m.black.0] {
        assert_eq!(
            ws.recv_t("chat").await["text"],
            "gl",
            "the players never see psst"
        );
    }
    assert_eq!(spec.recv_t("chat").await["text"], "gl");

    // Empty and too long.
    chat(&mut m.white.0, " \u{200B} ", 5).await;
    let e = m.white.0.error().await;
    assert_eq!((e.code, e.ack), (ErrorCode::BadMessage, Some(json!(5))));
    chat(&mut m.white.0, &"x".repeat(301), 6).await;
    assert_eq!(m.white.0.error_code().await, ErrorCode::BadMessage);
    chat(&mut m.white.0, &"ż".repeat(300), 7).await;
    assert_eq!(
        m.white.0.recv_t("chat").await["text"]
            .as_str()
            .unwrap()
            .chars()
            .count(),
        300
    );

    // History on connect: a player during the game does not see the spectators'.
    let mut w2 = s.table_ws(&m.table, Some(&m.white.1)).await;
    let st = w2.state().await;
    let long = "ż".repeat(300);
    assert_eq!(
        table_texts(&st.chat),
        ["cześć <b>x</b>", "gl", long.as_str()]
    );
    let mut s2 = s.table_ws(&m.table, None).await;
    let st = s2.state().await;
    assert_eq!(
        table_texts(&st.chat),
        ["cześć <b>x</b>", "psst", "gl", long.as_str()]
    );
    assert!(st.chat[1].spectators);

    // Flood control: a burst, then rate_limited.
    let mut limited = false;
    for i in 0..10 {
        chat(&mut spec, &format!("spam {i}"), 100 + i).await;
    }
    for _ in 0..10 {
        let v = spec.recv().await;
        if v["t"] == "error" {
            assert_eq!(v["code"], "rate_limited", "{v}");
            limited = true;
            break;
        }
    }
    assert!(limited, "ten messages at once are more than the burst");

    // Stored: a restart keeps the table's chat (the game is resumed with its table).
    let (table, cookie) = (m.table.clone(), m.white.1.clone());
    drop((m, spec, anon, w2, s2));
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let mut w = s.table_ws(&table, Some(&cookie)).await;
    let st = w.state().await;
    assert_eq!(&table_texts(&st.chat)[..2], ["cześć <b>x</b>", "gl"]);
    s.stop().await;
    db.cleanup().await;
}

async fn room_chat(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (a, _) = s.guest("Ala").await;
    let mut ra = Ws::connect(&s.addr, "/ws/rooms/russian", Some(&a), None).await;
    assert_eq!(ra.recv_t("room").await["chat"], json!([]));
    let mut anon = s.room_ws("russian").await;
    anon.recv_t("room").await;
    let mut other_room = s.room_ws("brazilian").await;
    other_room.recv_t("room").await;

    chat(&mut anon, "hi", 1).await;
    let e = anon.error().await;
    assert_eq!((e.code, e.ack), (ErrorCode::Unauthorized, Some(json!(1))));

    chat(&mut ra, " hello room ", 2).await;
    for ws in [&mut ra, &mut anon] {
        let c = ws.recv_t("chat").await;
        assert_eq!(
            (c["text"].as_str(), c["from"]["name"].as_str()),
            (Some("hello room"), Some("Ala"))
        );
    }
    chat(&mut ra, "", 3).await;
    let e = ra.error().await;
    assert_eq!((e.code, e.ack), (ErrorCode::BadMessage, Some(json!(3))));
    let mut limited = false;
    for i in 0..10 {
        chat(&mut ra, &format!("spam {i}"), 10 + i).await;
    }
    for _ in 0..20 {
        let v = ra.recv().await;
        if v["t"] == "error" {
            assert_eq!(v["code"], "rate_limited", "{v}");
            limited = true;
            break;
        }
    }
    assert!(limited);
    // Another room hears nothing of it.
    other_room.send(json!({"t": "ping", "ts": 1})).await;
    assert_eq!(other_room.recv_t("pong").await["ts"], 1);
    assert!(other_room.log.iter().all(|v| v["t"] != "chat"));

    // History on connect, and after a restart.
    let mut late = s.room_ws("russian").await;
    assert_eq!(texts(&late.recv_t("room").await["chat"])[0], "hello room");
    drop((ra, anon, other_room, late));
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let mut late = s.room_ws("russian").await;
    let chat = late.recv_t("room").await["chat"].clone();
    assert_eq!(texts(&chat)[0], "hello room");
    assert_eq!(chat[0]["from"]["name"], "Ala");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(table_chat, room_chat);
