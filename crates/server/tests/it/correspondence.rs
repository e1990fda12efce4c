//! Correspondence tables (issue 40, item 1): days per move, for accounts only. With fake
//! time: the first moves have the whole period (no 30 s abort), each move resets the
//! mover's time to the period, the period runs out and loses on time, an absent opponent
//! cannot be claimed against, and a restart in the middle of a 7-day game charges the
//! downtime to nobody and the time before it to the side that was thinking.

use damka_protocol::table::State;
use damka_protocol::{EndReason, ErrorCode, GameResult, Side, TableStatus};
use serde_json::{Value, json};

use crate::accounts::account;
use crate::common::{
    Backend, Match, TestDb, TestServer, config, play, play_first_moves, play_first_moves_from,
};

/// A day in milliseconds.
const DAY: u64 = 86_400_000;
/// An hour in milliseconds.
const HOUR: u64 = 3_600_000;

/// Two accounts, Ala (White) and Bolek (Black), at a correspondence table of `days` in
/// the Russian room, the game started.
async fn correspondence_match(s: &TestServer, days: u64) -> Match {
    correspondence_match_with(s, json!({"days": days, "seat": "white"})).await
}

/// [`correspondence_match`] with these table options.
async fn correspondence_match_with(s: &TestServer, options: Value) -> Match {
    let days = options["days"].clone();
    let (a, _) = account(s, "Ala", "ala ma kota").await;
    let (b, _) = account(s, "Bolek", "bolek i lolek").await;
    let table = s.create_table(&a, "russian", options).await;
    assert_eq!(table["options"]["days"], days, "{table}");
    let id = table["id"].as_str().unwrap().to_owned();
    let mut wa = s.table_ws(&id, Some(&a)).await;
    wa.state().await;
    let mut wb = s.table_ws(&id, Some(&b)).await;
    wb.state().await;
    wb.send(json!({"t": "sit", "seat": "black"})).await;
    wb.recv_t("seated").await;
    wa.send(json!({"t": "start"})).await;
    wb.send(json!({"t": "start"})).await;
    let started = wa.recv_t("game_started").await;
    wb.recv_t("game_started").await;
    Match {
        table: id,
        game: started["id"].as_str().unwrap().to_owned(),
        white: (wa, a),
        black: (wb, b),
        started,
    }
}

fn ms(v: &Value) -> u64 {
    v.as_u64().unwrap_or_else(|| panic!("not ms: {v}"))
}

async fn the_state(ws: &mut crate::common::ws::Ws) -> State {
    ws.send(json!({"t": "resync"})).await;
    ws.state().await
}

/// The conditional lines a state shows its reader.
fn lines_of(st: &State) -> Option<&Vec<Vec<String>>> {
    st.you
        .as_ref()
        .map(|y| &y.conditional)
        .filter(|c| !c.is_empty())
}

/// "My games" of `cookie`.
async fn my_games(s: &TestServer, cookie: &str) -> Vec<Value> {
    let r = s.http("GET", "/api/me/games", Some(cookie), None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["games"].as_array().unwrap().clone()
}

/// The only game of `cookie`'s list once its deadline is `left` ms from now (wall clock,
/// within a minute). Polled: the table saves its clock just after a move or a restart's
/// end, its own business after the event the test saw (until then the list shows the
/// previous save).
async fn listed_due_in(s: &TestServer, cookie: &str, left: u64) -> Value {
    let off = |g: &Value| {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64;
        g["deadline"].as_i64().map(|d| d - now - left as i64)
    };
    let mut last = Vec::new();
    for _ in 0..100 {
        last = my_games(s, cookie).await;
        if let Some(g) = last.first()
            && off(g).is_some_and(|d| d.abs() < 60_000)
        {
            return g.clone();
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    panic!("no deadline {left} ms from now: {last:?}");
}

async fn only_accounts_and_the_listed_periods(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (guest, _) = s.guest("Gość").await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let create = |cookie: String, body: Value| {
        let s = &s;
        async move {
            s.http(
                "POST",
                "/api/rooms/russian/tables",
                Some(&cookie),
                Some(body),
            )
            .await
        }
    };
    // A guest cannot start one: the game would be lost with the cookie.
    let r = create(guest.clone(), json!({"days": 3})).await;
    assert_eq!(
        (r.status, r.error_code()),
        (403, "correspondence_needs_account".into()),
        "{}",
        r.body
    );
    // Periods outside the list, days with minutes, against the computer: refused.
    for body in [
        json!({"days": 4}),
        json!({"days": 0}),
        json!({"days": 3, "minutes": 5, "increment": 0}),
        json!({"days": 3, "bot": 1}),
        json!({"days": 3, "local": true}),
        json!({"days": 3, "micro_match": true}),
        // Neither days nor minutes: no clock at all.
        json!({"increment": 2}),
    ] {
        let r = create(ala.clone(), body.clone()).await;
        assert_eq!(
            (r.status, r.error_code()),
            (400, "invalid_options".into()),
            "{body}: {}",
            r.body
        );
    }
    let r = create(ala.clone(), json!({"days": 14, "seat": "white"})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let table = r.json();
    assert_eq!(
        (&table["options"]["days"], &table["options"]["minutes"]),
        (&json!(14), &json!(0)),
        "{table}"
    );
    // A guest cannot sit at one either.
    let id = table["id"].as_str().unwrap();
    let mut g = s.table_ws(id, Some(&guest)).await;
    let st = g.state().await;
    assert_eq!(st.clock.white, 14 * DAY, "a waiting table shows its period");
    g.send(json!({"t": "sit", "seat": "black"})).await;
    let e = g.error().await;
    assert_eq!(e.code, ErrorCode::CorrespondenceNeedsAccount, "{e:?}");
    s.stop().await;
    db.cleanup().await;
}

async fn each_move_resets_the_period_and_running_out_loses(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = correspondence_match(&s, 1).await;
    assert_eq!(m.started["clock"]["white"], DAY, "{}", m.started);
    // The first move has the period, not 30 s.
    assert_eq!(m.started["first_move_deadline"], DAY, "{}", m.started);
    s.advance(20 * HOUR).await;
    let ev = play_first_moves(&mut m, 1).await;
    assert_eq!(ev["first_move_deadline"], DAY, "Black's whole period: {ev}");
    s.advance(23 * HOUR).await;
    let ev = play_first_moves_from(&mut m, &ev, 1, 1).await;
    assert_eq!(ev["clock"]["running"], "white", "{ev}");
    // White thinks 20 hours: its move gives it a whole day again.
    s.advance(20 * HOUR).await;
    assert_eq!(
        the_state(&mut m.black.0).await.clock.white,
        4 * HOUR,
        "the period runs down"
    );
    let ev = play_first_moves_from(&mut m, &ev, 2, 1).await;
    assert_eq!(
        (ms(&ev["clock"]["white"]), ms(&ev["clock"]["black"])),
        (DAY, DAY),
        "{ev}"
    );
    assert_eq!(ev["clock"]["running"], "black");
    let game = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(game["moves"][2]["used_ms"], 20 * HOUR, "{game}");
    assert_eq!(game["options"]["days"], 1, "{game}");
    let pdn = s
        .http("GET", &format!("/api/games/{}/pdn", m.game), None, None)
        .await;
    assert!(pdn.body.contains("[TimeControl \"-\"]"), "{}", pdn.body);

    // Black goes away on its move: away is normal by correspondence, nothing to claim.
    m.black.0.stream.close(None).await.ok();
    while m.white.0.recv_t("presence").await["black"] != false {}
    s.advance(2 * HOUR).await;
    m.white.0.send(json!({"t": "claim_victory"})).await;
    let e = m.white.0.error().await;
    assert_eq!(e.code, ErrorCode::BadMessage, "{e:?}");
    let st = the_state(&mut m.white.0).await;
    assert_eq!(st.claim_at, None, "{st:?}");
    assert_eq!(st.status, TableStatus::Playing);
    // A millisecond before the period ends Black may still move; then it loses on time.
    s.advance(DAY - 2 * HOUR - 1).await;
    let st = the_state(&mut m.white.0).await;
    assert_eq!((st.status, st.clock.black), (TableStatus::Playing, 1));
    s.advance(1).await;
    let over = m.white.0.game_over().await;
    assert_eq!(
        (over.result, over.reason),
        (Some(GameResult::White), EndReason::Timeout),
        "{over:?}"
    );
    s.stop().await;
    db.cleanup().await;
}

async fn a_restart_charges_the_downtime_to_nobody(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = correspondence_match(&s, 7).await;
    let ev = play_first_moves(&mut m, 3).await;
    assert_eq!(ev["clock"]["running"], "black", "{ev}");
    // Black thinks three days; the server stops and starts again.
    s.advance(3 * DAY).await;
    let (game, table) = (m.game.clone(), m.table.clone());
    let (ala, bolek) = (m.white.1.clone(), m.black.1.clone());
    drop(m);
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let mut b = s.table_ws(&table, Some(&bolek)).await;
    let st = b.state().await;
    assert_eq!(st.game_id.as_deref(), Some(game.as_str()), "{st:?}");
    assert_eq!(st.options.days, Some(7), "{st:?}");
    assert_eq!(
        (st.clock.white, st.clock.black),
        (7 * DAY, 4 * DAY),
        "three days charged, the downtime not: {st:?}"
    );
    // Both back: the clock runs again from where it stopped; my games shows it.
    let mut w = s.table_ws(&table, Some(&ala)).await;
    w.state().await;
    // The release sends everyone a fresh state.
    while b.state().await.paused.is_some() {}
    let g = listed_due_in(&s, &bolek, 4 * DAY).await;
    assert_eq!(
        (&g["days"], &g["my_move"], &g["plies"]),
        (&json!(7), &json!(true), &json!(3)),
        "{g}"
    );
    s.advance(DAY).await;
    let st = the_state(&mut b).await;
    assert_eq!((&st.paused, st.clock.black), (&None, 3 * DAY), "{st:?}");
    // Black's move gives it seven days again; White's seven days run.
    let mv = &st.legal[0];
    b.send(json!({"t": "move", "move": mv, "ply": 4, "ack": 4}))
        .await;
    b.recv_t("ack").await;
    let ev = b.moved().await;
    assert_eq!(
        (ev.clock.white, ev.clock.black),
        (7 * DAY, 7 * DAY),
        "{ev:?}"
    );
    let g = listed_due_in(&s, &ala, 7 * DAY).await;
    assert_eq!(
        (&g["my_move"], &g["plies"]),
        (&json!(true), &json!(4)),
        "{g}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// A live game lists no days and no deadline.
async fn a_live_game_has_no_deadline(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m =
        crate::common::start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    let turn = m.started["turn"].as_str().unwrap().to_owned();
    let mv = m.started["legal"][0].as_str().unwrap().to_owned();
    play(&mut m, &turn, &mv, 1).await;
    let list = my_games(&s, &m.white.1).await;
    assert_eq!(list.len(), 1);
    assert!(list[0].get("days").is_none() && list[0].get("deadline").is_none());
    assert_eq!(m.started["first_move_deadline"], 30_000);
    s.stop().await;
    db.cleanup().await;
}

/// A first move not made within the period aborts the game, as the 30 s window does in
/// live play.
async fn a_missed_first_move_aborts_after_the_period(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = correspondence_match(&s, 2).await;
    s.advance(2 * DAY - 1).await;
    let st = the_state(&mut m.black.0).await;
    assert_eq!(
        (st.status, st.first_move_deadline),
        (TableStatus::Playing, Some(1)),
        "{st:?}"
    );
    s.advance(1).await;
    let over = m.black.0.game_over().await;
    assert_eq!(
        (over.result, over.reason),
        (None, EndReason::Aborted),
        "{over:?}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// Issue 40 item 5: a player's running correspondence game is not analysed (its position,
/// nor one move from it: `409 in_game`), while the analysis board stays open to them for
/// anything else (a correspondence game lasts weeks); the opponent likewise; after the
/// game, its positions are analysed like any other.
async fn the_analysis_board_refuses_the_running_game_only(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = correspondence_match(&s, 3).await;
    let last = play_first_moves(&mut m, 2).await;
    let fen = last["fen"].as_str().unwrap().to_owned();
    let ask = |cookie: Option<String>, fen: String| {
        let s = &s;
        async move {
            let q: String = url_encode(&fen);
            s.http(
                "GET",
                &format!("/api/analyse?variant=russian&fen={q}"),
                cookie.as_deref(),
                None,
            )
            .await
        }
    };
    let (ala, bolek) = (m.white.1.clone(), m.black.1.clone());
    for who in [&ala, &bolek] {
        let r = ask(Some(who.clone()), fen.clone()).await;
        assert_eq!(
            (r.status, r.error_code()),
            (409, "in_game".into()),
            "{}",
            r.body
        );
    }
    // One move on (the replies White is weighing): refused too.
    let reply = last["legal"][0].as_str().unwrap();
    let next = {
        let rules = draughts::Rules::new(draughts::Variant::Russian);
        let pos = draughts::Position::from_fen(rules, &fen).unwrap();
        let mv = pos.parse_move(reply).unwrap();
        pos.play(&mv).unwrap().to_fen()
    };
    let r = ask(Some(ala.clone()), next).await;
    assert_eq!(r.status, 409, "{}", r.body);
    // The start position, another variant's: analysed.
    let start = draughts::Variant::Russian.start_fen().to_owned();
    let r = ask(Some(ala.clone()), start).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Someone else: analysed.
    let (other, _) = s.guest("Celina").await;
    let r = ask(Some(other), fen.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The game over: analysed for its players too.
    m.white.0.send(json!({"t": "resign"})).await;
    m.white.0.recv_t("game_over").await;
    let r = ask(Some(ala), fen).await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.stop().await;
    db.cleanup().await;
}

/// Conditional moves (issue 40, item 4): White prepares replies while Black thinks; the
/// line Black's move matches is answered at once (both sockets see the two moves), what
/// is left survives a restart, a move no line expected cancels them, and only their owner
/// ever sees them. Lines the rules refuse, the side to move, someone else: refused.
async fn conditional_moves_are_played_and_cancelled(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = correspondence_match(&s, 3).await;
    play(&mut m, "white", "c3-d4", 1).await;
    let (ala, bolek) = (m.white.1.clone(), m.black.1.clone());
    let path = format!("/api/games/{}/conditional", m.game);
    let set = |cookie: Option<String>, body: Value| {
        let (s, path) = (&s, path.clone());
        async move { s.http("POST", &path, cookie.as_deref(), Some(body)).await }
    };
    let lines = json!({"lines": [["f6-g5", "g3-h4", "g7-f6", "h2-g3"], ["b6-a5", "b2-c3"]]});
    // Refused: no session, the side to move, someone else, lines the rules refuse, an
    // unknown game.
    let r = set(None, lines.clone()).await;
    assert_eq!(r.status, 401, "{}", r.body);
    let r = set(Some(bolek.clone()), json!({"lines": [["c3-b4", "b6-a5"]]})).await;
    assert_eq!(r.status, 400, "{}", r.body);
    let (celina, _) = account(&s, "Celina", "celina ma psa").await;
    let r = set(Some(celina), lines.clone()).await;
    assert_eq!(r.error_code(), "not_seated", "{}", r.body);
    for bad in [
        json!({"lines": [["f6-g5", "a1-h8"]]}),
        json!({"lines": [["f6-g5"]]}),
        json!({"lines": [["f6-g5", "g3-h4"], ["f6-g5", "e3-f4"]]}),
        json!({"lines": "f6-g5"}),
    ] {
        let r = set(Some(ala.clone()), bad.clone()).await;
        assert_eq!(
            (r.status, r.error_code()),
            (400, "bad_message".into()),
            "{bad}: {}",
            r.body
        );
    }
    let r = s
        .http(
            "POST",
            "/api/games/nope/conditional",
            Some(&ala),
            Some(lines.clone()),
        )
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    // Set: answered with the lines, told to White's socket, in White's state only.
    let r = set(Some(ala.clone()), lines.clone()).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json(), lines);
    assert_eq!(
        m.white.0.recv_t("conditional").await["lines"],
        lines["lines"]
    );
    assert_eq!(
        lines_of(&the_state(&mut m.white.0).await).map(|l| json!(l)),
        Some(lines["lines"].clone())
    );
    assert_eq!(lines_of(&the_state(&mut m.black.0).await), None);
    // Black plays into the first line: White's reply follows at once.
    m.black
        .0
        .send(json!({"t": "move", "move": "f6-g5", "ply": 2, "ack": 2}))
        .await;
    m.black.0.recv_t("ack").await;
    assert_eq!(m.black.0.moved().await.ply, 2);
    let reply = m.black.0.moved().await;
    assert_eq!(
        (reply.ply, reply.mv.as_str(), reply.by),
        (3, "g3-h4", Side::White),
        "{reply:?}"
    );
    assert_eq!(m.white.0.moved().await.ply, 2);
    assert_eq!(m.white.0.moved().await.mv, "g3-h4");
    // White was told what is left (stored before the reply was played, so told first).
    let left = json!([["g7-f6", "h2-g3"]]);
    let told = m.white.0.log.iter().rev().find(|v| v["t"] == "conditional");
    assert_eq!(told.map(|v| &v["lines"]), Some(&left));
    assert!(
        !m.black.0.log.iter().any(|v| v["t"] == "conditional"),
        "the opponent never sees them"
    );
    // What is left survives a restart.
    let (game, table) = (m.game.clone(), m.table.clone());
    drop(m);
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let mut w = s.table_ws(&table, Some(&ala)).await;
    let st = w.state().await;
    assert_eq!(st.game_id.as_deref(), Some(game.as_str()));
    assert_eq!(lines_of(&st).map(|l| json!(l)), Some(left), "{st:?}");
    let mut b = s.table_ws(&table, Some(&bolek)).await;
    let st = b.state().await;
    // A move no line expected: no reply, the lines are gone (and White is told).
    let other = st
        .legal
        .iter()
        .find(|m| *m != "g7-f6")
        .expect("another move");
    b.send(json!({"t": "move", "move": other, "ply": 4, "ack": 4}))
        .await;
    b.recv_t("ack").await;
    let ev = b.moved().await;
    assert_eq!((ev.ply, ev.turn), (4, Side::White), "{ev:?}");
    assert_eq!(w.recv_t("conditional").await["lines"], json!([]));
    let st = the_state(&mut w).await;
    assert_eq!(lines_of(&st), None, "{st:?}");
    assert_eq!(st.moves.len(), 4, "{st:?}");
    s.stop().await;
    db.cleanup().await;
}

/// A rated correspondence game (issue 40, item 1) counts in the variant's correspondence
/// rating, apart from the live one: the profile lists it under its own name, its
/// leaderboard has the players, the live one has nobody.
async fn a_rated_correspondence_game_has_its_own_rating(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m =
        correspondence_match_with(&s, json!({"days": 2, "seat": "white", "rated": true})).await;
    play_first_moves(&mut m, 2).await;
    m.white.0.send(json!({"t": "resign"})).await;
    let over = m.white.0.game_over().await;
    assert_eq!(over.result, Some(GameResult::Black), "{over:?}");
    let r = s.http("GET", "/api/players/Bolek", None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let ratings = &r.json()["ratings"];
    assert_eq!(ratings["russian_correspondence"]["games"], 1, "{ratings}");
    assert!(
        ratings["russian_correspondence"]["rating"]
            .as_i64()
            .unwrap()
            > 1500,
        "{ratings}"
    );
    assert!(
        ratings.get("russian").is_none(),
        "the live rating untouched: {ratings}"
    );
    let board = s
        .http("GET", "/api/leaderboard/russian_correspondence", None, None)
        .await;
    assert_eq!(board.status, 200, "{}", board.body);
    let names: Vec<String> = board.json()["provisional"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["username"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(names, ["Bolek", "Ala"], "{}", board.body);
    let live = s.http("GET", "/api/leaderboard/russian", None, None).await;
    assert_eq!(live.json()["provisional"], json!([]), "{}", live.body);
    let bad = s
        .http("GET", "/api/leaderboard/chess_correspondence", None, None)
        .await;
    assert_eq!(bad.status, 404);
    s.stop().await;
    db.cleanup().await;
}

fn url_encode(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Moves the time on a minute at a time until table `id` is parked (polling the
/// registry: parking is the table's own business after the time it was given); returns
/// the minutes it took.
async fn park_after_minutes(s: &TestServer, id: &str) -> u64 {
    for minute in 1..=30 {
        s.advance(60_000).await;
        // Not before ten minutes: looked at once; from then on, given time to happen.
        let polls = if minute < 10 { 1 } else { 80 };
        for _ in 0..polls {
            if s.server.state.tables.get(id).is_none() {
                return minute;
            }
            tokio::time::sleep(std::time::Duration::from_millis(25)).await;
        }
    }
    panic!("table {id} never parked");
}

/// Whether the room lists table `id`.
async fn listed(s: &TestServer, id: &str) -> bool {
    let r = s.http("GET", "/api/rooms/russian", None, None).await.json();
    r["tables"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["id"] == id)
}

/// A waiting correspondence game costs no memory (issue 40, item 2): ten minutes after
/// the last socket left, its table is parked (out of the registry and the room's list);
/// opening it loads it again with the parked time charged to the side to move; a restart
/// parks it straight from the store and charges the downtime to nobody; and a parked game
/// whose time runs out is loaded by its timer and lost on time with nobody watching.
async fn a_waiting_game_is_parked_and_loaded_again(backend: Backend) {
    let db = TestDb::new(backend).await;
    let parking = || {
        let mut c = config(&db);
        c.tables.correspondence_park_secs = 600;
        c
    };
    let s = TestServer::start(parking()).await;
    let mut m = correspondence_match(&s, 7).await;
    let ev = play_first_moves(&mut m, 3).await;
    assert_eq!(ev["clock"]["running"], "black", "{ev}");
    let (game, table) = (m.game.clone(), m.table.clone());
    let (ala, bolek) = (m.white.1.clone(), m.black.1.clone());
    drop(m);
    // Nobody watches: parked after ten minutes (the sockets' leaving is noticed within
    // the first), not before.
    let k = park_after_minutes(&s, &table).await;
    assert!((10..=11).contains(&k), "parked after {k} minutes");
    assert_eq!(s.server.state.tables.parked(), 1);
    assert!(!listed(&s, &table).await, "a parked table is not listed");
    // Two days parked; the game is still in "my games".
    s.advance(2 * DAY).await;
    assert!(
        s.server.state.tables.get(&table).is_none(),
        "no timer due yet"
    );
    assert_eq!(my_games(&s, &bolek).await[0]["id"], game.as_str());
    // Bolek opens it: loaded, the two days and ten minutes charged to him.
    let mut b = s.table_ws(&table, Some(&bolek)).await;
    let st = b.state().await;
    assert_eq!(st.game_id.as_deref(), Some(game.as_str()), "{st:?}");
    assert_eq!(st.paused, None, "the clock runs: {st:?}");
    assert_eq!(
        (st.clock.white, st.clock.black),
        (7 * DAY, 5 * DAY - k * 60_000),
        "the time since the move charged, parked or not: {st:?}"
    );
    assert_eq!(st.moves.len(), 3, "{st:?}");
    assert!(listed(&s, &table).await, "listed again");
    assert_eq!(s.server.state.tables.parked(), 0);
    // He leaves; after ten minutes it is parked again; the server restarts.
    drop(b);
    let k2 = park_after_minutes(&s, &table).await;
    s.stop().await;

    let s = TestServer::start(parking()).await;
    // Parked at start-up from its row, not restored.
    assert_eq!(s.server.state.tables.parked(), 1);
    assert!(s.server.state.tables.get(&table).is_none());
    // A conditional-moves request loads a parked table too (Ala, not to move, prepares
    // nothing: an empty set).
    let r = s
        .http(
            "POST",
            &format!("/api/games/{game}/conditional"),
            Some(&ala),
            Some(json!({"lines": []})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(s.server.state.tables.get(&table).is_some(), "loaded by it");
    s.advance(HOUR).await;
    let mut b = s.table_ws(&table, Some(&bolek)).await;
    let st = b.state().await;
    assert_eq!(
        st.clock.black,
        5 * DAY - (k + k2) * 60_000 - HOUR,
        "the downtime charged to nobody, the hour since the start to Bolek: {st:?}"
    );
    // His move: Ala's seven days run; both leave.
    let mv = &st.legal[0];
    b.send(json!({"t": "move", "move": mv, "ply": 4, "ack": 4}))
        .await;
    b.recv_t("ack").await;
    drop(b);
    park_after_minutes(&s, &table).await;
    // Ala never comes back: her timer loads the table and she loses on time.
    s.advance(7 * DAY).await;
    let mut over = Value::Null;
    for _ in 0..400 {
        over = s
            .http("GET", &format!("/api/games/{game}"), None, None)
            .await
            .json();
        if over["result"].is_string() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("black"), Some("timeout")),
        "{over}"
    );
    assert!(my_games(&s, &ala).await.is_empty());
    s.stop().await;
    db.cleanup().await;
}

crate::both_backends!(
    a_waiting_game_is_parked_and_loaded_again,
    a_rated_correspondence_game_has_its_own_rating,
    conditional_moves_are_played_and_cancelled,
    the_analysis_board_refuses_the_running_game_only,
    only_accounts_and_the_listed_periods,
    a_missed_first_move_aborts_after_the_period,
    each_move_resets_the_period_and_running_out_loses,
    a_restart_charges_the_downtime_to_nobody,
    a_live_game_has_no_deadline,
);
