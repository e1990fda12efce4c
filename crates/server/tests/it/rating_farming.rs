//! Rating farming (issue 34, item 6): a game is rated only once both players have moved
//! (a resignation before is an abort, a draw cannot be agreed), and two accounts rate a
//! bounded number of games a day against each other (the rest casual, and the table
//! says so).

use damka_protocol::ErrorCode;
use serde_json::{Value, json};

use crate::accounts::{account, black_wins, rated_game};
use crate::common::{Backend, TestDb, TestServer, config};

/// The `game_over` both sockets see after `resigner` resigns.
async fn resign(resigner: &mut crate::common::ws::Ws, other: &mut crate::common::ws::Ws) -> Value {
    resigner.send(json!({"t": "resign"})).await;
    let over = resigner.recv_t("game_over").await;
    assert_eq!(other.recv_t("game_over").await, over);
    over
}

async fn nothing_is_rated_before_both_players_moved(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (table, mut w, mut b, started) = rated_game(&s, &ala, &bolek).await;

    // A draw cannot be agreed before a move; resigning at once aborts the game.
    w.send(json!({"t": "draw_offer"})).await;
    assert_eq!(w.error_code().await, ErrorCode::NoGame);
    let over = resign(&mut w, &mut b).await;
    assert_eq!(
        (&over["result"], &over["reason"], &over["by"]),
        (&Value::Null, &json!("aborted"), &json!("white")),
        "{over}"
    );
    assert!(over.get("ratings").is_none(), "{over}");
    let game = started["id"].as_str().unwrap();
    let record = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    assert_eq!(record["reason"], "aborted", "{record}");

    // The next game (Bolek has White): White moves, then Black resigns before his first
    // move: still aborted.
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = b.recv_t("game_started").await;
    w.recv_t("game_started").await;
    let mv = started["legal"][0].as_str().unwrap();
    b.send(json!({"t": "move", "move": mv, "ply": 1, "ack": 1}))
        .await;
    b.recv_t("ack").await;
    w.moved().await;
    let over = resign(&mut w, &mut b).await;
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&Value::Null, &json!("aborted"))
    );

    // Once both have moved, a resignation is a result, and rated.
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    let over = black_wins(&mut w, &mut b, &started).await;
    assert_eq!(over["reason"], "resign");
    assert!(over["ratings"]["white"]["after"].is_i64(), "{over}");
    let me = s.http("GET", "/api/me", Some(&ala), None).await.json();
    assert_eq!(
        me["ratings"]["russian"]["games"], 1,
        "one rated game of three: {me}"
    );
    drop(table);
    s.stop().await;
    db.cleanup().await;
}

async fn two_accounts_rate_a_bounded_number_of_games_a_day(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.tables.rated_games_per_pair = 2;
    let s = TestServer::start(c).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (table, mut w, mut b, started) = rated_game(&s, &ala, &bolek).await;
    assert!(started.get("unrated").is_none(), "{started}");
    let over = black_wins(&mut w, &mut b, &started).await;
    assert!(over.get("ratings").is_some(), "{over}");
    // (Colours swap: the second game's first mover is Bolek.)
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    assert!(started.get("unrated").is_none(), "{started}");
    let over = black_wins(&mut b, &mut w, &started).await;
    assert!(over.get("ratings").is_some(), "{over}");

    // The third of the day: casual, and both the event and the table's state say why.
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    assert_eq!(started["unrated"], "pair_limit", "{started}");
    let state = s.table_ws(&table, None).await.recv_t("state").await;
    assert_eq!(state["unrated"], "pair_limit");
    assert_eq!(
        state["options"]["rated"], true,
        "the table stays a rated table"
    );
    let over = black_wins(&mut w, &mut b, &started).await;
    assert_eq!(over["reason"], "resign");
    assert!(over.get("ratings").is_none(), "{over}");
    let game = started["id"].as_str().unwrap();
    let record = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    assert_ne!(
        record["options"]["rated"], true,
        "stored as casual: {record}"
    );
    let me = s.http("GET", "/api/me", Some(&ala), None).await.json();
    assert_eq!(me["ratings"]["russian"]["games"], 2, "{me}");

    // Ala against somebody else is rated as before.
    let (cezary, _) = account(&s, "Cezary", "cezary ma psa").await;
    let (_, mut w2, mut b2, started) = rated_game(&s, &ala, &cezary).await;
    assert!(started.get("unrated").is_none(), "{started}");
    let over = black_wins(&mut w2, &mut b2, &started).await;
    assert!(over.get("ratings").is_some(), "{over}");

    // The operator's report: Ala and Bolek, two rated games (the casual one is not
    // counted), both quick, both seen at one address (all of this test's clients are).
    let store = &s.server.state.core.store;
    let deadline = tokio::time::Instant::now() + crate::common::ws::TIMEOUT;
    let report = loop {
        let report = damka_server::operator_fair_play::pairs(store, 1, 2)
            .await
            .unwrap();
        if report.contains("yes") || tokio::time::Instant::now() > deadline {
            break report;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    };
    let line = report
        .lines()
        .find(|l| l.starts_with("Ala") || l.starts_with("Bolek"))
        .unwrap_or_else(|| panic!("the pair is listed: {report}"));
    let cols: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&cols[2..], ["2", "1", "1", "2", "yes"], "{report}");
    assert!(
        !report.contains("Cezary"),
        "one game is no pattern: {report}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// Sets a player's stored rating in Russian (as weeks of rated games would).
async fn set_rating(db: &TestDb, backend: Backend, player: &str, rating: f64) {
    let sql = "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, rated_at) \
               VALUES ($1, 'russian', $2, 60.0, 0.06, 40, $3)";
    let now = damka_server::time::unix_ms();
    match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
            sqlx::query(sql)
                .bind(player)
                .bind(rating)
                .bind(now)
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
            sqlx::query(sql)
                .bind(player)
                .bind(rating)
                .bind(now)
                .execute(&pool)
                .await
                .unwrap();
            pool.close().await;
        }
    }
}

/// A rated table's range is checked against the rating as it is when the player sits,
/// not as it was when their socket opened (issue 34, item 8: a 1775 player sat at a
/// 1400–1600 seat with a socket opened at 1500).
async fn the_range_is_checked_against_the_rating_at_the_sit(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, me) = account(&s, "Bolek", "bolek i lolek").await;
    let t = s
        .create_table(
            &ala,
            "russian",
            json!({"minutes": 5, "increment": 0, "rated": true, "seat": "white",
                   "rating_range": {"min": 1400, "max": 1600}}),
        )
        .await;
    let id = t["id"].as_str().unwrap();
    // Bolek's socket opens while he is 1500, then his rating becomes 1775.
    let mut b = s.table_ws(id, Some(&bolek)).await;
    b.state().await;
    set_rating(&db, backend, me["id"].as_str().unwrap(), 1775.0).await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    let refused = b.error().await;
    assert_eq!(refused.code, ErrorCode::RatingOutOfRange, "{refused:?}");
    assert!(refused.message.contains("1775"), "{refused:?}");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    nothing_is_rated_before_both_players_moved,
    two_accounts_rate_a_bounded_number_of_games_a_day,
    the_range_is_checked_against_the_rating_at_the_sit
);
