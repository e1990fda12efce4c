//! `GET /api/featured` (issue 39, "spectators and the lobby"): the featured game of each
//! variant is the best game in progress, kept until a clearly better one comes (a rated
//! game of two 1500 accounts beats two guests, counted at 1400), shown for a while after
//! its end with its result, then the next; its position is the stored one; one answer
//! serves everybody for two seconds.

use serde_json::{Value, json};

use crate::accounts::{account, black_wins, rated_game};
use crate::common::{Backend, TestDb, TestServer, config, play_first_moves, start_match};
use damka_server::featured::{LINGER_MS, REFRESH_MS};

async fn featured(s: &TestServer) -> Vec<Value> {
    let r = s.http("GET", "/api/featured", None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json().as_array().unwrap().clone()
}

/// The featured list after the last answer has run out.
async fn featured_now(s: &TestServer) -> Vec<Value> {
    s.advance(REFRESH_MS).await;
    featured(s).await
}

/// The position a spectator of `table` sees now.
async fn fen_of(s: &TestServer, table: &str) -> Value {
    let mut ws = s.table_ws(table, None).await;
    ws.recv_t("state").await["fen"].clone()
}

async fn the_best_game_in_progress_is_featured_per_variant(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    assert!(featured(&s).await.is_empty(), "no game, nothing featured");

    // Two guests play in the Russian room: featured, at the stored position.
    let mut first = start_match(&s, "russian", json!({"minutes": 5, "increment": 3})).await;
    play_first_moves(&mut first, 2).await;
    let list = featured_now(&s).await;
    assert_eq!(list.len(), 1, "{list:?}");
    let f = &list[0];
    assert_eq!(
        (&f["variant"], &f["table"], &f["game"], &f["status"]),
        (
            &json!("russian"),
            &json!(first.table),
            &json!(first.game),
            &json!("playing")
        )
    );
    assert_eq!(f["fen"], fen_of(&s, &first.table).await);
    assert_eq!(
        (&f["white"]["name"], &f["black"]["name"]),
        (&json!("Ala"), &json!("Bolek"))
    );
    assert_eq!(
        (&f["minutes"], &f["increment"], &f["rated"]),
        (&json!(5), &json!(3), &json!(false))
    );

    // Another game of two guests: no better, the featured one stays.
    let second = start_match(&s, "russian", json!({"minutes": 3, "increment": 0})).await;
    assert_eq!(featured_now(&s).await[0]["table"], json!(first.table));

    // A rated game of two new accounts (1500 each, 100 above two guests): clearly
    // better, featured at once.
    let (ala, _) = account(&s, "Agata", "agata ma kota").await;
    let (bolek, _) = account(&s, "Bartek", "bartek i lolek").await;
    let (rated, mut w, mut b, started) = rated_game(&s, &ala, &bolek).await;
    let list = featured_now(&s).await;
    assert_eq!(list[0]["table"], json!(rated), "{list:?}");
    assert_eq!(list[0]["white"]["rating"], 1500);
    assert_eq!(list[0]["rated"], true);

    // It ends: shown over, with its result, for a while; then the next best.
    black_wins(&mut w, &mut b, &started).await;
    let list = featured_now(&s).await;
    assert_eq!(
        (&list[0]["table"], &list[0]["status"]),
        (&json!(rated), &json!("over"))
    );
    assert_eq!(list[0]["result"], "black", "{list:?}");
    s.advance(LINGER_MS).await;
    let list = featured(&s).await;
    assert_eq!(list[0]["status"], "playing", "{list:?}");
    assert!(
        [json!(first.table), json!(second.table)].contains(&list[0]["table"]),
        "{list:?}"
    );

    // A crowd at the start page: everyone gets the same answer.
    let answers = futures_util::future::join_all((0..200).map(|_| featured(&s))).await;
    assert!(answers.iter().all(|a| *a == list), "one answer for all");
    s.stop().await;
    db.cleanup().await;
}

crate::both_backends!(the_best_game_in_progress_is_featured_per_variant);
