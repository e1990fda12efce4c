//! Storage faults and restarts, against real databases: a SQLite database that runs out of
//! space and gets it back, game ends the database refuses, a PostgreSQL of the test's own
//! that is stopped and started again, and restarts that must not charge anybody's clock
//! for the time the players need to come back.

use damka_protocol::table::Paused;
use damka_protocol::{ErrorCode, TableStatus};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::common::{
    Backend, Match, PgCluster, TestDb, TestServer, Ws, config, play, play_first_moves, start_match,
    wait_ready,
};
use damka_server::Config;
use serde_json::{Value, json};
use sqlx::Connection;

const FIVE_PLUS_NOTHING: fn() -> Value = || json!({"minutes": 5, "increment": 0});

/// Runs SQL on the test database through a connection of the test's own.
async fn db_exec(url: &str, sql: &str) {
    if url.starts_with("sqlite:") {
        let mut c = sqlx::SqliteConnection::connect(url).await.unwrap();
        sqlx::raw_sql(sql).execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    } else {
        let mut c = sqlx::PgConnection::connect(url).await.unwrap();
        sqlx::raw_sql(sql).execute(&mut c).await.unwrap();
        c.close().await.unwrap();
    }
}

/// Makes the database refuse (or accept again) every write that marks a game over.
async fn refuse_game_ends(db: &TestDb, refuse: bool) {
    let sql = match (db.url.starts_with("sqlite:"), refuse) {
        (true, true) => {
            "CREATE TRIGGER refuse_end BEFORE UPDATE ON games WHEN NEW.status = 'over' \
             BEGIN SELECT RAISE(ABORT, 'game ends refused by the test'); END;"
        }
        (true, false) => "DROP TRIGGER refuse_end;",
        (false, true) => {
            "CREATE FUNCTION refuse_end() RETURNS trigger AS $$ BEGIN \
             IF NEW.status = 'over' THEN RAISE EXCEPTION 'game ends refused by the test'; \
             END IF; RETURN NEW; END $$ LANGUAGE plpgsql; \
             CREATE TRIGGER refuse_end BEFORE UPDATE ON games FOR EACH ROW \
             EXECUTE FUNCTION refuse_end();"
        }
        (false, false) => "DROP TRIGGER refuse_end ON games; DROP FUNCTION refuse_end();",
    };
    db_exec(&db.url, sql).await;
}

/// A stored game as the API shows it.
async fn game_json(s: &TestServer, id: &str) -> Value {
    let r = s.http("GET", &format!("/api/games/{id}"), None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// The table's status code and its game's status (`None` when the table is gone).
async fn table_game(s: &TestServer, table: &str) -> Option<Value> {
    let r = s
        .http("GET", &format!("/api/tables/{table}"), None, None)
        .await;
    (r.status == 200).then(|| r.json()["game"]["status"].clone())
}

/// Both players back at a restarted server: white's socket first, and the `state`s.
async fn rejoin(s: &TestServer, table: &str, cookies: &(String, String)) -> (Ws, Ws, Value) {
    let mut w = s.table_ws(table, Some(&cookies.0)).await;
    let st = w.recv_t("state").await;
    let mut b = s.table_ws(table, Some(&cookies.1)).await;
    b.state().await;
    (w, b, st)
}

fn rematch(table: &str, game: &str, w: Ws, b: Ws, cookies: &(String, String), st: &Value) -> Match {
    Match {
        table: table.to_owned(),
        game: game.to_owned(),
        white: (w, cookies.0.clone()),
        black: (b, cookies.1.clone()),
        started: st.clone(),
    }
}

/// Sends a move and returns the first reply to the mover (`ack` or `error`).
async fn try_move(ws: &mut Ws, mv: &str, ply: u64) -> Value {
    ws.send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
        .await;
    loop {
        let v = ws.recv().await;
        if v["t"] == "ack" || v["t"] == "error" {
            return v;
        }
    }
}

/// The next `state` whose `paused` is `paused`.
async fn state_paused(ws: &mut Ws, paused: Value) -> Value {
    loop {
        let st = ws.recv_t("state").await;
        if st["paused"] == paused {
            return st;
        }
    }
}

// ---------------------------------------------------------------------------------------
// 1. SQLite out of space.

/// The database file is full (SQLite's `SQLITE_FULL`, made by lowering `max_page_count`
/// on the writer's connection): writes fail with `storage_unavailable`, `/readyz` answers
/// 503, the move is neither acknowledged nor stored and the mover's clock is held. Once
/// space is back, everything works again without a restart, and the outage was charged
/// to nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_disk_full_recovers_by_itself() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limit = Arc::new(AtomicU64::new(0));
    let mut c = config(&db);
    // The test fills the database with guests from one address.
    c.limits.guests_per_minute = 0;
    c.test.test_sqlite_max_page_count = Some(limit.clone());
    let s = TestServer::start(c).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    let last = play_first_moves(&mut m, 2).await;
    assert_eq!(last["clock"]["running"], "white");
    let white_left = last["clock"]["white"].as_u64().unwrap();

    // The disk fills up: new guests are stored until one no longer fits.
    let pages: (i64,) = {
        let mut conn = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
        sqlx::query_as("PRAGMA page_count")
            .fetch_one(&mut conn)
            .await
            .unwrap()
    };
    limit.store(u64::try_from(pages.0).unwrap(), Ordering::SeqCst);
    let mut refused = None;
    for i in 0..5_000 {
        let r = s
            .http(
                "POST",
                "/api/guest",
                None,
                Some(json!({"name": format!("g{i}")})),
            )
            .await;
        if r.status != 200 {
            refused = Some(r);
            break;
        }
    }
    let r = refused.expect("the database fills up");
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (503, "storage_unavailable")
    );
    let ready = s.http("GET", "/readyz", None, None).await;
    assert_eq!(
        ready.status, 503,
        "not ready while writes fail: {}",
        ready.body
    );

    // A move now is refused at once and not acknowledged; the clock stops.
    let mv = last["legal"][0].as_str().unwrap().to_owned();
    let e = try_move(&mut m.white.0, &mv, 3).await;
    assert_eq!(
        (e["t"].as_str(), e["code"].as_str()),
        (Some("error"), Some("storage_unavailable")),
        "{e}"
    );
    assert_eq!(e["ack"], 3);
    let st = state_paused(&mut m.black.0, json!("storage")).await;
    assert_eq!(st["clock"]["running"], Value::Null, "{st}");
    assert_eq!(st["moves"].as_array().unwrap().len(), 2);
    // A move already stored is still acknowledged again when resent.
    let resent = try_move(&mut m.black.0, last["move"].as_str().unwrap(), 2).await;
    assert_eq!(resent["t"], "ack", "{resent}");
    // A minute of outage on the clock, charged to nobody.
    s.advance(60_000).await;
    let again = try_move(&mut m.white.0, &mv, 3).await;
    assert_eq!(again["code"], "storage_unavailable", "{again}");

    // Space is back: readiness, the clock and writes come back by themselves.
    limit.store(0, Ordering::SeqCst);
    wait_ready(&s, 200).await;
    let st = state_paused(&mut m.black.0, Value::Null).await;
    assert_eq!(st["clock"]["running"], "white", "{st}");
    assert_eq!(st["clock"]["white"], white_left, "{st}");
    state_paused(&mut m.white.0, Value::Null).await;
    let ev = play(&mut m, "white", &mv, 3).await;
    assert_eq!(ev["clock"]["white"], white_left, "{ev}");
    // Every later write works, whichever pooled connection it gets.
    for i in 0..20 {
        let r = s
            .http(
                "POST",
                "/api/guest",
                None,
                Some(json!({"name": format!("later{i}")})),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    // Exactly the acknowledged moves are stored.
    let g = game_json(&s, &m.game).await;
    assert_eq!(g["moves"].as_array().unwrap().len(), 3, "{g}");
    s.stop().await;
    db.cleanup().await;
}

// ---------------------------------------------------------------------------------------
// 2. A game end the database refuses.

/// A resignation whose end cannot be stored is refused (the player is told), not
/// announced; a restart finds the game still playing, and once stored the end is
/// announced and stays.
async fn an_end_that_cannot_be_stored_is_not_announced(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    play_first_moves(&mut m, 2).await;
    refuse_game_ends(&db, true).await;
    m.black.0.send(json!({"t": "resign"})).await;
    let e = m.black.0.error().await;
    assert_eq!(e.code, ErrorCode::Internal, "{e:?}");
    m.white.0.silent(300).await;
    m.white.0.send(json!({"t": "resync"})).await;
    assert_eq!(m.white.0.state().await.status, TableStatus::Playing);

    let (table, game) = (m.table.clone(), m.game.clone());
    let cookies = (m.white.1.clone(), m.black.1.clone());
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    assert_eq!(table_game(&s, &table).await, Some(json!("playing")));
    let (mut w, mut b, _) = rejoin(&s, &table, &cookies).await;
    refuse_game_ends(&db, false).await;
    b.send(json!({"t": "resign"})).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("white"), Some("resign"))
    );
    s.stop().await;

    let s = TestServer::start(config(&db)).await;
    assert_ne!(table_game(&s, &table).await, Some(json!("playing")));
    let g = game_json(&s, &game).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("white"), Some("resign")),
        "{g}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// A flag whose end cannot be stored is not announced; the end is tried again and
/// announced once the database takes it.
async fn a_timeout_that_cannot_be_stored_is_retried(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", json!({"minutes": 1, "increment": 0})).await;
    play_first_moves(&mut m, 2).await;
    refuse_game_ends(&db, true).await;
    s.advance(61_000).await;
    m.black.0.silent(300).await;
    refuse_game_ends(&db, false).await;
    let over = m.black.0.recv_t("game_over").await;
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("black"), Some("timeout"))
    );
    let (table, game) = (m.table.clone(), m.game.clone());
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    assert_ne!(table_game(&s, &table).await, Some(json!("playing")));
    assert_eq!(game_json(&s, &game).await["reason"], "timeout");
    s.stop().await;
    db.cleanup().await;
}

/// The move that ends a game is stored together with the end: when the end cannot be
/// stored, the move is neither acknowledged nor shown, and a restart resumes the game
/// before it; played again, move and end arrive and stay.
async fn a_game_ending_move_is_stored_with_its_end(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.test.test_start_fen = Some("W:Wc3:Bd4".into());
    let s = TestServer::start(c.clone()).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    refuse_game_ends(&db, true).await;
    let e = try_move(&mut m.white.0, "c3xe5", 1).await;
    assert_eq!(
        (e["t"].as_str(), e["code"].as_str()),
        (Some("error"), Some("internal")),
        "{e}"
    );
    m.black.0.silent(300).await;
    let (table, game) = (m.table.clone(), m.game.clone());
    let cookies = (m.white.1.clone(), m.black.1.clone());
    s.stop().await;

    let s = TestServer::start(c.clone()).await;
    assert_eq!(table_game(&s, &table).await, Some(json!("playing")));
    assert_eq!(game_json(&s, &game).await["moves"], json!([]));
    let (w, b, st) = rejoin(&s, &table, &cookies).await;
    let mut m = rematch(&table, &game, w, b, &cookies, &st);
    refuse_game_ends(&db, false).await;
    play(&mut m, "white", "c3xe5", 1).await;
    let over = m.black.0.recv_t("game_over").await;
    assert_eq!(over["reason"], "no_moves");
    s.stop().await;

    let s = TestServer::start(c).await;
    assert_ne!(table_game(&s, &table).await, Some(json!("playing")));
    let g = game_json(&s, &game).await;
    assert_eq!(
        (g["reason"].as_str(), g["moves"].as_array().unwrap().len()),
        (Some("no_moves"), 1)
    );
    s.stop().await;
    db.cleanup().await;
}

/// A game whose stored moves end it but whose end was lost (as the server before this
/// fix could leave it) is marked over at start-up, never resumed.
async fn a_restart_never_resumes_an_ended_game(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.test.test_start_fen = Some("W:Wc3:Bd4".into());
    let s = TestServer::start(c.clone()).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    play(&mut m, "white", "c3xe5", 1).await;
    m.black.0.recv_t("game_over").await;
    let (table, game) = (m.table.clone(), m.game.clone());
    s.stop().await;
    db_exec(
        &db.url,
        &format!(
            "UPDATE games SET status = 'playing', result = NULL, reason = NULL, \
             ended_at = NULL WHERE id = '{game}'"
        ),
    )
    .await;
    let s = TestServer::start(c).await;
    assert_eq!(
        table_game(&s, &table).await,
        None,
        "the ended game is not resumed"
    );
    let g = game_json(&s, &game).await;
    assert_eq!(
        (g["result"].as_str(), g["reason"].as_str()),
        (Some("white"), Some("no_moves")),
        "{g}"
    );
    s.stop().await;
    db.cleanup().await;
}

// ---------------------------------------------------------------------------------------
// 7. A database outage (a PostgreSQL of the test's own, stopped and started again).

/// With the database down, a move fails fast with `storage_unavailable` (the first within
/// about the acquire timeout, later ones at once), `/readyz` answers 503, the mover's
/// clock is held; once the database is back everything recovers by itself and the outage
/// was charged to nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn database_outage_fails_fast_keeps_clocks_fair_and_recovers() {
    let Some(pg) = PgCluster::start() else {
        return;
    };
    let mut c = Config::defaults();
    c.bind = "127.0.0.1:0".parse().unwrap();
    c.database_url = pg.url();
    c.test.manual_time = true;
    c.shutdown_timeout_secs = 5;
    c.computer.bitbase_pieces = 0;
    let s = TestServer::start(c).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    let last = play_first_moves(&mut m, 2).await;
    s.advance(3_000).await; // White thinks for 3 s: that is charged.
    let white_left = last["clock"]["white"].as_u64().unwrap() - 3_000;
    let mv = last["legal"][0].as_str().unwrap().to_owned();

    pg.stop();
    let t = Instant::now();
    let e = try_move(&mut m.white.0, &mv, 3).await;
    let first = t.elapsed();
    assert_eq!(
        (e["t"].as_str(), e["code"].as_str()),
        (Some("error"), Some("storage_unavailable")),
        "{e}"
    );
    assert_eq!(e["ack"], 3);
    let st = state_paused(&mut m.black.0, json!("storage")).await;
    assert_eq!(st["clock"]["running"], Value::Null, "{st}");
    assert_eq!(st["clock"]["white"], white_left, "{st}");
    let t = Instant::now();
    let again = try_move(&mut m.white.0, &mv, 3).await;
    let second = t.elapsed();
    assert_eq!(again["code"], "storage_unavailable", "{again}");
    let t = Instant::now();
    let r = s
        .http("POST", "/api/guest", None, Some(json!({"name": "Cezary"})))
        .await;
    let guest = t.elapsed();
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (503, "storage_unavailable")
    );
    assert_eq!(s.http("GET", "/readyz", None, None).await.status, 503);
    eprintln!("outage: first refused move {first:?}, next {second:?}, guest {guest:?}");
    assert!(
        first < Duration::from_secs(3),
        "the first failure took {first:?}"
    );
    assert!(
        second < Duration::from_millis(500),
        "a later failure took {second:?}"
    );
    // Ten minutes of outage on the clock: more than White has.
    s.advance(600_000).await;

    pg.resume();
    let t = Instant::now();
    wait_ready(&s, 200).await;
    eprintln!("outage: ready again {:?} after the database", t.elapsed());
    let st = state_paused(&mut m.black.0, Value::Null).await;
    assert_eq!(st["clock"]["running"], "white", "{st}");
    assert_eq!(st["clock"]["white"], white_left, "{st}");
    assert_eq!(st["status"], "playing");
    state_paused(&mut m.white.0, Value::Null).await;
    let ev = play(&mut m, "white", &mv, 3).await;
    assert_eq!(ev["clock"]["white"], white_left, "{ev}");
    let r = s
        .http("POST", "/api/guest", None, Some(json!({"name": "Cezary"})))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        game_json(&s, &m.game).await["moves"]
            .as_array()
            .unwrap()
            .len(),
        3
    );
    s.stop().await;
}

// ---------------------------------------------------------------------------------------
// 11. Restarts: the clock waits for the players.

/// Three plies played, Black to move and thinking for 2 s when the server stops
/// gracefully; returns the restarted server, the table, the game, the cookies and Black's
/// time left.
async fn restarted_with_black_to_move(
    db: &TestDb,
) -> (TestServer, String, String, (String, String), u64) {
    let s = TestServer::start(config(db)).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    let last = play_first_moves(&mut m, 3).await;
    assert_eq!(last["clock"]["running"], "black");
    s.advance(2_000).await;
    let black_left = last["clock"]["black"].as_u64().unwrap() - 2_000;
    let cookies = (m.white.1.clone(), m.black.1.clone());
    let (table, game) = (m.table.clone(), m.game.clone());
    s.stop().await;
    let s = TestServer::start(config(db)).await;
    (s, table, game, cookies, black_left)
}

/// After a restart the clock of the side to move waits until both players are back: the
/// time before that is charged to nobody.
async fn restart_holds_the_clock_until_both_players_are_back(backend: Backend) {
    let db = TestDb::new(backend).await;
    let (s, table, game, cookies, black_left) = restarted_with_black_to_move(&db).await;
    // White (waiting for Black's move) is back first.
    let mut w = s.table_ws(&table, Some(&cookies.0)).await;
    let st = w.state().await;
    assert_eq!(st.paused, Some(Paused::Restart), "{st:?}");
    assert_eq!(st.clock.running, None, "{st:?}");
    assert_eq!(st.clock.black, black_left, "{st:?}");
    s.advance(5_000).await;
    w.send(json!({"t": "resync"})).await;
    assert_eq!(w.state().await.clock.black, black_left);
    // Black is back: its clock runs from now.
    let mut b = s.table_ws(&table, Some(&cookies.1)).await;
    let st = state_paused(&mut w, Value::Null).await;
    assert_eq!(st["clock"]["running"], "black", "{st}");
    assert_eq!(st["clock"]["black"], black_left, "{st}");
    let st = state_paused(&mut b, Value::Null).await;
    s.advance(1_000).await;
    let mut m = rematch(&table, &game, w, b, &cookies, &st);
    let mv = st["legal"][0].as_str().unwrap().to_owned();
    let ev = play(&mut m, "black", &mv, 4).await;
    // Charged the second since both were back, less the lag compensation (a few ms of
    // measured network delay), never the 5 s before.
    let charged = black_left - ev["clock"]["black"].as_u64().unwrap();
    assert!(
        (500..=1_000).contains(&charged),
        "charged {charged} ms: {ev}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// A player who does not come back does not stop the clock for long: after the restart
/// grace (20 s by default) it runs again, the grace itself charged to nobody.
async fn restart_grace_starts_the_clock_without_them(backend: Backend) {
    let db = TestDb::new(backend).await;
    let (s, table, _, cookies, black_left) = restarted_with_black_to_move(&db).await;
    let mut w = s.table_ws(&table, Some(&cookies.0)).await;
    assert_eq!(w.state().await.paused, Some(Paused::Restart));
    s.advance(19_000).await;
    w.send(json!({"t": "resync"})).await;
    assert_eq!(w.state().await.paused, Some(Paused::Restart));
    s.advance(1_000).await;
    let st = state_paused(&mut w, Value::Null).await;
    assert_eq!(st["clock"]["running"], "black", "{st}");
    assert_eq!(st["clock"]["black"], black_left, "{st}");
    s.advance(4_000).await;
    w.send(json!({"t": "resync"})).await;
    assert_eq!(w.state().await.clock.black, black_left - 4_000);
    s.stop().await;
    db.cleanup().await;
}

/// The first-move window keeps what was left of it at a graceful shutdown, and it too
/// waits for the players.
async fn restart_keeps_the_first_move_window(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(&s, "russian", FIVE_PLUS_NOTHING()).await;
    let ev = play_first_moves(&mut m, 1).await;
    assert_eq!(ev["first_move_deadline"], 30_000, "Black's window opens");
    s.advance(10_000).await;
    let (table, game) = (m.table.clone(), m.game.clone());
    let cookies = (m.white.1.clone(), m.black.1.clone());
    s.stop().await;

    let s = TestServer::start(config(&db)).await;
    let mut w = s.table_ws(&table, Some(&cookies.0)).await;
    let st = w.state().await;
    assert_eq!(st.first_move_deadline, Some(20_000), "{st:?}");
    s.advance(7_000).await;
    let mut b = s.table_ws(&table, Some(&cookies.1)).await;
    let st = state_paused(&mut b, Value::Null).await;
    assert_eq!(st["first_move_deadline"], 20_000, "{st}");
    state_paused(&mut w, Value::Null).await;
    s.advance(19_000).await;
    w.send(json!({"t": "resync"})).await;
    let st = w.state().await;
    assert_eq!(
        (st.status, st.first_move_deadline),
        (TableStatus::Playing, Some(1_000))
    );
    s.advance(1_000).await;
    let over = b.recv_t("game_over").await;
    assert_eq!(over["reason"], "aborted");
    assert_eq!(game_json(&s, &game).await["reason"], "aborted");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    an_end_that_cannot_be_stored_is_not_announced,
    a_timeout_that_cannot_be_stored_is_retried,
    a_game_ending_move_is_stored_with_its_end,
    a_restart_never_resumes_an_ended_game,
    restart_holds_the_clock_until_both_players_are_back,
    restart_grace_starts_the_clock_without_them,
    restart_keeps_the_first_move_window,
);
