//! `GET /api/me/games` (issue 40, "my games"): the asker's games in progress, the ones
//! where it is their move first; a finished game leaves the list; nobody else's game is
//! in it.

use serde_json::{Value, json};

use crate::common::{Backend, TestDb, TestServer, config, play_first_moves, start_match};

async fn my_games(s: &TestServer, cookie: &str) -> Vec<Value> {
    let r = s.http("GET", "/api/me/games", Some(cookie), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["games"].as_array().unwrap().clone()
}

async fn the_games_in_progress_your_move_first(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    // Ala plays two games: one as White (her move), one as Black where White moved.
    let mut first = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    let ala = first.white.1.clone();
    let (stranger, _) = s.guest("Celina").await;
    assert!(my_games(&s, &stranger).await.is_empty());
    // Without a session, or with one that no longer works: an empty list, not 401 (a
    // start page refreshing it while its account was signed out elsewhere).
    let r = s.http("GET", "/api/me/games", None, None).await;
    assert_eq!(
        (r.status, r.json()["games"].clone()),
        (200, json!([])),
        "{}",
        r.body
    );
    let r = s
        .http(
            "GET",
            "/api/me/games",
            Some("damka_session=nothing-valid"),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);

    let list = my_games(&s, &ala).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(
        (
            &list[0]["id"],
            &list[0]["table"],
            &list[0]["color"],
            &list[0]["my_move"]
        ),
        (
            &json!(first.game),
            &json!(first.table),
            &json!("white"),
            &json!(true)
        )
    );
    assert_eq!(list[0]["opponent"]["name"], "Bolek");
    let bolek = first.black.1.clone();
    assert_eq!(my_games(&s, &bolek).await[0]["my_move"], false);

    // After White's move it is Black's.
    play_first_moves(&mut first, 1).await;
    let list = my_games(&s, &ala).await;
    assert_eq!(
        (&list[0]["my_move"], &list[0]["plies"]),
        (&json!(false), &json!(1))
    );
    assert_eq!(my_games(&s, &bolek).await[0]["my_move"], true);

    // A second game where it is her move comes first.
    let t = s
        .create_table(
            &bolek,
            "brazilian",
            json!({"minutes": 3, "increment": 2, "seat": "white"}),
        )
        .await;
    let id = t["id"].as_str().unwrap();
    let mut wb = s.table_ws(id, Some(&bolek)).await;
    wb.state().await;
    let mut wa = s.table_ws(id, Some(&ala)).await;
    wa.state().await;
    wa.send(json!({"t": "sit", "seat": "black"})).await;
    wa.recv_t("seated").await;
    wb.send(json!({"t": "start"})).await;
    wa.send(json!({"t": "start"})).await;
    let started = wb.recv_t("game_started").await;
    wa.recv_t("game_started").await;
    let mv = started["legal"][0].as_str().unwrap();
    wb.send(json!({"t": "move", "move": mv, "ply": 1, "ack": 1}))
        .await;
    wb.recv_t("ack").await;
    wa.moved().await;
    let list = my_games(&s, &ala).await;
    let order: Vec<(&Value, &Value, &Value)> = list
        .iter()
        .map(|g| (&g["variant"], &g["color"], &g["my_move"]))
        .collect();
    assert_eq!(
        order,
        [
            (&json!("brazilian"), &json!("black"), &json!(true)),
            (&json!("russian"), &json!("white"), &json!(false)),
        ]
    );

    // A finished game leaves the list.
    first.white.0.send(json!({"t": "resign"})).await;
    first.white.0.recv_t("game_over").await;
    let list = my_games(&s, &ala).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["variant"], "brazilian");
    s.stop().await;
    db.cleanup().await;
}

crate::both_backends!(the_games_in_progress_your_move_first);
