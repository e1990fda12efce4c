//! Micro-matches (issue 38, item 2): two games from one opening with the colours swapped,
//! scored together; the break between them, a restart between and during them, rated
//! micro-matches, the computer, and the PDN of a match's games.

use damka_protocol::micro_match::MatchStatus;
use damka_protocol::{ErrorCode, GameResult, TableStatus};
use serde_json::{Value, json};

use crate::common::{
    Backend, Match, TestDb, TestServer, Ws, config, play_first_moves, play_first_moves_from,
    start_match,
};

/// The match's break in the test configuration (the default), ms.
const BREAK_MS: u64 = 15_000;

/// Both players of `m` see `game_over`; returns it.
async fn both_see_over(m: &mut Match) -> Value {
    let over = m.white.0.recv_t("game_over").await;
    assert_eq!(m.black.0.recv_t("game_over").await, over);
    over
}

/// Both players of `m` see `game_started`; `m` follows (its White and Black swap when
/// the colours did: `m.started` always names the players of `m.white` and `m.black`).
/// Returns it.
async fn both_see_started(m: &mut Match) -> Value {
    let started = m.white.0.recv_t("game_started").await;
    assert_eq!(m.black.0.recv_t("game_started").await, started);
    if started["white"]["id"] != m.started["white"]["id"] {
        std::mem::swap(&mut m.white, &mut m.black);
    }
    m.game = started["id"].as_str().unwrap().to_owned();
    m.started = started.clone();
    started
}

/// Both players press start.
async fn both_start(m: &mut Match) {
    m.white.0.send(json!({"t": "start"})).await;
    m.black.0.send(json!({"t": "start"})).await;
}

/// Plays one move each, then the side to move offers a draw and the other accepts.
async fn agree_a_draw(m: &mut Match) -> Value {
    let last = play_first_moves(m, 2).await;
    let (offerer, accepter) = if last["turn"] == "white" {
        (&mut m.white.0, &mut m.black.0)
    } else {
        (&mut m.black.0, &mut m.white.0)
    };
    offerer.send(json!({"t": "draw_offer"})).await;
    accepter.recv_t("draw_offered").await;
    accepter.send(json!({"t": "draw_accept"})).await;
    both_see_over(m).await
}

/// Plays one move each, then `loser` ("white" or "black") resigns.
async fn resign_after_moves(m: &mut Match, loser: &str) -> Value {
    play_first_moves(m, 2).await;
    m.side(loser).send(json!({"t": "resign"})).await;
    both_see_over(m).await
}

/// A micro-match from a ballot: game 1 from the ballot, a draw (½–½), the break (no seat
/// changes), game 2 from the same ballot with the colours swapped, won by the first
/// game's White (1½–½); `state`, `game_started` and `game_over` show the match; then a
/// rematch is a new match.
async fn a_micro_match_plays_two_games_with_swapped_colours(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(
        &s,
        "russian",
        json!({"minutes": 5, "increment": 0, "ballot": "fmjd64-07-13", "micro_match": true}),
    )
    .await;
    let g1 = m.game.clone();
    let first = m.started.clone();
    let (ala, bolek) = (first["white"].clone(), first["black"].clone());
    assert_eq!(first["ballot"]["id"], "fmjd64-07-13", "{first}");
    let mm = &first["match"];
    assert_eq!(mm["games"], json!([g1]), "{first}");
    assert_eq!(mm["status"], "playing");
    assert_eq!(mm["score"], json!({"white_first": 0.0, "black_first": 0.0}));
    assert_eq!(mm["players"]["white_first"]["id"], ala["id"]);
    assert_eq!(mm["players"]["black_first"]["id"], bolek["id"]);

    // Game 1: a draw. game_over carries the match in its break.
    let over = agree_a_draw(&mut m).await;
    assert_eq!(over["result"], "draw");
    let mm = &over["match"];
    assert_eq!(mm["status"], "break", "{over}");
    assert_eq!(mm["score"], json!({"white_first": 0.5, "black_first": 0.5}));
    assert_eq!(mm["next_game_in"], BREAK_MS, "{over}");
    // Nobody leaves a seat in the break; a spectator sees the break in the state.
    m.white.0.send(json!({"t": "stand"})).await;
    let e = m.white.0.error().await;
    assert_eq!(e.code, ErrorCode::GameInProgress, "{e:?}");
    let mut spectator = s.table_ws(&m.table, None).await;
    let st = spectator.state().await;
    let mm = st.micro_match.as_ref().expect("a match");
    assert_eq!(mm.status, MatchStatus::Break, "{st:?}");
    assert_eq!(mm.games, [g1.as_str()]);
    assert!(st.options.micro_match);

    // Both press start: game 2 at once, from the same ballot, colours swapped.
    both_start(&mut m).await;
    let second = both_see_started(&mut m).await;
    let g2 = m.game.clone();
    assert_ne!(g2, g1);
    assert_eq!(second["white"]["id"], bolek["id"], "{second}");
    assert_eq!(second["black"]["id"], ala["id"], "{second}");
    assert_eq!(second["initial_fen"], first["initial_fen"]);
    assert_eq!(second["ballot"], first["ballot"]);
    assert_eq!(second["match"]["games"], json!([g1, g2]));
    assert_eq!(second["match"]["status"], "playing");
    assert_eq!(second["match"]["score"]["white_first"], 0.5);

    // Game 2: Bolek (White now) resigns: Ala wins the match 1½–½.
    let over = resign_after_moves(&mut m, "white").await;
    assert_eq!(over["result"], "black");
    let mm = &over["match"];
    assert_eq!(mm["status"], "over", "{over}");
    assert_eq!(mm["games"], json!([g1, g2]));
    assert_eq!(mm["score"], json!({"white_first": 1.5, "black_first": 0.5}));
    assert!(mm.get("next_game_in").is_none(), "{over}");
    spectator.send(json!({"t": "resync"})).await;
    let st = spectator.state().await;
    assert_eq!(
        st.micro_match.map(|m| m.status),
        Some(MatchStatus::Over),
        "the match is over"
    );

    // The stored games know their match.
    for (id, n) in [(&g1, 1), (&g2, 2)] {
        let g = s
            .http("GET", &format!("/api/games/{id}"), None, None)
            .await
            .json();
        assert_eq!(g["match"], json!({"id": g1, "game": n}), "{g}");
        assert_eq!(g["options"]["micro_match"], true);
    }

    // After the match the seats are free again, and a rematch is a new match.
    both_start(&mut m).await;
    let third = both_see_started(&mut m).await;
    assert_eq!(third["match"]["games"], json!([third["id"]]), "{third}");
    assert_eq!(third["match"]["status"], "playing");
    assert_eq!(
        third["match"]["score"],
        json!({"white_first": 0.0, "black_first": 0.0})
    );
    s.stop().await;
    db.cleanup().await;
}

/// Game 2 starts by itself after the break from the first game's random opening (the
/// same plies), and an aborted game ends the match.
async fn the_second_game_starts_after_the_break(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(
        &s,
        "russian",
        json!({"minutes": 5, "increment": 0, "random_opening": true, "micro_match": true}),
    )
    .await;
    let first = m.started.clone();
    assert!(!first["opening"].as_array().unwrap().is_empty(), "{first}");
    let over = resign_after_moves(&mut m, "black").await;
    assert_eq!(over["match"]["score"]["white_first"], 1.0, "{over}");
    // Only one presses start: the break still ends by itself.
    m.white.0.send(json!({"t": "start"})).await;
    m.white.0.recv_t("ready").await;
    s.advance(BREAK_MS).await;
    let second = both_see_started(&mut m).await;
    assert_eq!(
        second["opening"], first["opening"],
        "the same opening plies"
    );
    assert_eq!(second["fen"], first["fen"]);
    assert_eq!(second["white"]["id"], first["black"]["id"]);
    // Nobody moves: the first-move window aborts game 2, and the match is over 1–0.
    let window = second["first_move_deadline"].as_u64().unwrap();
    s.advance(window).await;
    let over = both_see_over(&mut m).await;
    assert_eq!(over["reason"], "aborted", "{over}");
    assert_eq!(over["match"]["status"], "over", "{over}");
    assert_eq!(
        over["match"]["score"],
        json!({"white_first": 1.0, "black_first": 0.0})
    );
    s.stop().await;
    db.cleanup().await;
}

/// Opens both players' sockets again after a restart; returns them and White's `state`.
async fn reconnect(s: &TestServer, m: &Match) -> (Ws, Ws, Value) {
    let mut w = s.table_ws(&m.table, Some(&m.white.1)).await;
    let st = w.recv_t("state").await;
    let mut b = s.table_ws(&m.table, Some(&m.black.1)).await;
    b.state().await;
    (w, b, st)
}

/// A restart between the two games resumes the match in its break (the first game shown
/// over); a restart during the second game resumes it with the first game's result.
async fn a_restart_between_the_games_resumes_the_match(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(
        &s,
        "american",
        json!({"minutes": 5, "increment": 0, "ballot": "3move-004", "micro_match": true}),
    )
    .await;
    let g1 = m.game.clone();
    let first = m.started.clone();
    let over = resign_after_moves(&mut m, "black").await;
    assert_eq!(over["match"]["status"], "break");
    s.stop().await;

    // Restarted in the break.
    let s = TestServer::start(config(&db)).await;
    let (w, b, st) = reconnect(&s, &m).await;
    m.white.0 = w;
    m.black.0 = b;
    assert_eq!(st["status"], "over", "{st}");
    assert_eq!(st["game_id"], g1.as_str());
    assert_eq!(st["result"], "white");
    let mm = &st["match"];
    assert_eq!(mm["status"], "break", "{st}");
    assert_eq!(mm["games"], json!([g1]));
    assert_eq!(mm["score"], json!({"white_first": 1.0, "black_first": 0.0}));
    assert_eq!(mm["players"]["white_first"]["id"], first["white"]["id"]);
    assert_eq!(st["options"]["micro_match"], true);
    assert_eq!(st["options"]["ballot"], "3move-004");
    // The break ends by itself: game 2 from the same ballot, colours swapped.
    s.advance(BREAK_MS).await;
    let second = both_see_started(&mut m).await;
    let g2 = m.game.clone();
    assert_eq!(second["white"]["id"], first["black"]["id"], "{second}");
    assert_eq!(second["initial_fen"], first["initial_fen"]);
    assert_eq!(second["ballot"]["id"], "3move-004");
    assert_eq!(second["match"]["games"], json!([g1, g2]));
    play_first_moves(&mut m, 2).await;
    s.stop().await;

    // Restarted during game 2.
    let s = TestServer::start(config(&db)).await;
    let (w, b, st) = reconnect(&s, &m).await;
    m.white.0 = w;
    m.black.0 = b;
    assert_eq!(st["status"], "playing", "{st}");
    assert_eq!(st["game_id"], g2.as_str());
    assert_eq!(st["match"]["games"], json!([g1, g2]), "{st}");
    assert_eq!(st["match"]["status"], "playing");
    assert_eq!(st["match"]["score"]["white_first"], 1.0);
    // Game 2 goes on and ends: the first game's White loses it, 1–1.
    let st = loop {
        let st = m.white.0.recv_t("state").await;
        if st["paused"].is_null() {
            break st;
        }
    };
    play_first_moves_from(&mut m, &st, 2, 1).await;
    // White of game 2 (Black of game 1) wins: Black of game 2 resigns.
    m.black.0.send(json!({"t": "resign"})).await;
    let over = both_see_over(&mut m).await;
    assert_eq!(over["result"], "white");
    assert_eq!(over["match"]["status"], "over", "{over}");
    assert_eq!(
        over["match"]["score"],
        json!({"white_first": 1.0, "black_first": 1.0})
    );
    // Over: nothing to resume at the next start.
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let r = s
        .http("GET", &format!("/api/tables/{}", m.table), None, None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    s.stop().await;
    db.cleanup().await;
}

/// A rated micro-match rates each game as it ends, from a start a rated table plays only
/// in a micro-match (Damka's own ballots); outside one it stays refused.
async fn a_rated_micro_match_rates_each_game(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = crate::accounts::account(&s, "alamatch", "a-long-password").await;
    let (ola, _) = crate::accounts::account(&s, "olamatch", "a-long-password").await;
    for extra in [json!({"ballot": "random"}), json!({"random_opening": true})] {
        let mut body = json!({"minutes": 5, "increment": 0, "rated": true});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let r = s
            .http(
                "POST",
                "/api/rooms/czech/tables",
                Some(&ala),
                Some(body.clone()),
            )
            .await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert_eq!(r.json()["error"]["code"], "invalid_options");
        body["micro_match"] = true.into();
        let r = s
            .http(
                "POST",
                "/api/rooms/czech/tables",
                Some(&ala),
                Some(body.clone()),
            )
            .await;
        assert_eq!(r.status, 201, "{body}: {}", r.body);
        assert_eq!(r.json()["options"]["rated"], true);
    }
    let t = s
        .create_table(
            &ala,
            "czech",
            json!({"minutes": 5, "increment": 0, "rated": true, "ballot": "random",
                   "micro_match": true, "seat": "white"}),
        )
        .await;
    let table = t["id"].as_str().unwrap().to_owned();
    let mut w = s.table_ws(&table, Some(&ala)).await;
    w.state().await;
    let mut b = s.table_ws(&table, Some(&ola)).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    b.recv_t("seated").await;
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    assert!(started.get("unrated").is_none(), "{started}");
    let mut m = Match {
        table,
        game: started["id"].as_str().unwrap().to_owned(),
        white: (w, ala.clone()),
        black: (b, ola.clone()),
        started,
    };
    // Game 1: Ala (White) wins; rated at once.
    let over = resign_after_moves(&mut m, "black").await;
    let r1 = over["ratings"].clone();
    assert_eq!(r1["white"]["before"], 1500, "{over}");
    assert!(r1["white"]["after"].as_i64() > Some(1500), "{over}");
    assert!(r1["black"]["after"].as_i64() < Some(1500), "{over}");
    // Game 2 (colours swapped, from the same ballot): Ola (White) wins; rated from the
    // ratings game 1 left.
    both_start(&mut m).await;
    let second = both_see_started(&mut m).await;
    assert_eq!(second["white"]["rating"], r1["black"]["after"], "{second}");
    assert!(second.get("unrated").is_none(), "{second}");
    let over = resign_after_moves(&mut m, "black").await;
    let r2 = &over["ratings"];
    assert_eq!(r2["white"]["before"], r1["black"]["after"], "{over}");
    assert_eq!(r2["black"]["before"], r1["white"]["after"], "{over}");
    assert!(r2["white"]["after"].as_i64() > r2["white"]["before"].as_i64());
    assert_eq!(
        over["match"]["score"],
        json!({"white_first": 1.0, "black_first": 1.0})
    );
    // Both games are stored rated, one match.
    for id in over["match"]["games"].as_array().unwrap() {
        let g = s
            .http(
                "GET",
                &format!("/api/games/{}", id.as_str().unwrap()),
                None,
                None,
            )
            .await
            .json();
        assert_eq!(g["options"]["rated"], true, "{g}");
        assert!(g["ratings"].is_object(), "{g}");
    }
    // The profiles count the match: drawn 1–1 for both (issue 38 item 4).
    for name in ["alamatch", "olamatch"] {
        let p = s
            .http("GET", &format!("/api/players/{name}"), None, None)
            .await
            .json();
        assert_eq!(
            p["micro_matches"],
            json!({"won": 0, "drawn": 1, "lost": 0}),
            "{name}: {p}"
        );
        assert_eq!(p["results"]["wins"], 1, "{p}");
    }
    s.stop().await;
    db.cleanup().await;
}

/// The computer plays a micro-match: the second game starts when the person presses
/// start (the computer is always ready), with the colours swapped.
async fn the_computer_plays_a_micro_match(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = s.guest("Ala").await;
    let t = s
        .create_table(
            &ala,
            "russian",
            json!({"minutes": 5, "increment": 0, "bot": 1, "micro_match": true,
                   "ballot": "random", "seat": "white"}),
        )
        .await;
    let table = t["id"].as_str().unwrap();
    let mut w = s.table_ws(table, Some(&ala)).await;
    w.state().await;
    w.send(json!({"t": "start"})).await;
    let first = w.recv_t("game_started").await;
    assert_eq!(first["white"]["id"], t["seats"]["white"]["id"], "{first}");
    assert_eq!(first["match"]["status"], "playing");
    w.send(json!({"t": "abort"})).await;
    let over = w.recv_t("game_over").await;
    // An aborted first game ends the match: the next start is a new match.
    assert_eq!(over["match"]["status"], "over", "{over}");
    w.send(json!({"t": "start"})).await;
    let again = w.recv_t("game_started").await;
    assert_eq!(again["match"]["games"], json!([again["id"]]), "{again}");
    // The computer is White now (the colours swap from game to game). A move each, in
    // the order the ballot's position asks (its side to move may be either), then the
    // person resigns.
    let person = if again["white"]["id"] == t["seats"]["white"]["id"] {
        "white"
    } else {
        "black"
    };
    assert_eq!(person, "black", "{again}");
    let mut last = again.clone();
    let mut ply = 0;
    let (mut person_moved, mut computer_moved) = (false, false);
    while !(person_moved && computer_moved) {
        ply += 1;
        if last["turn"] == person {
            let mv = last["legal"][0].as_str().unwrap().to_owned();
            w.send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
                .await;
            w.recv_t("ack").await;
            last = w.recv_t("move").await;
            person_moved = true;
        } else {
            last = w.recv_t("move").await;
            computer_moved = true;
        }
        assert_eq!(last["ply"], ply, "{last}");
    }
    w.send(json!({"t": "resign"})).await;
    let over = loop {
        let ev = w.recv().await;
        if ev["t"] == "game_over" {
            break ev;
        }
    };
    assert_eq!(over["result"], "white", "{over}");
    assert_eq!(over["match"]["status"], "break");
    w.send(json!({"t": "start"})).await;
    let second = w.recv_t("game_started").await;
    assert_eq!(second["white"]["id"], again["black"]["id"], "{second}");
    assert_eq!(second["initial_fen"], again["initial_fen"]);
    assert_eq!(second["match"]["games"].as_array().unwrap().len(), 2);
    s.stop().await;
    db.cleanup().await;
}

/// The PDN of a match's games carries the match (Event and Round 1 / 2) besides the
/// ballot's FEN, SetUp and Opening, and reads back to the same start.
async fn the_pdn_of_a_match_game_names_the_match(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(
        &s,
        "american",
        json!({"minutes": 5, "increment": 0, "ballot": "3move-004", "micro_match": true}),
    )
    .await;
    let g1 = m.game.clone();
    resign_after_moves(&mut m, "white").await;
    both_start(&mut m).await;
    both_see_started(&mut m).await;
    let g2 = m.game.clone();
    resign_after_moves(&mut m, "white").await;
    let fen = m.started["initial_fen"].as_str().unwrap().to_owned();
    for (id, round) in [(&g1, "1"), (&g2, "2")] {
        let r = s
            .http("GET", &format!("/api/games/{id}/pdn"), None, None)
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let pdn = &r.body;
        assert!(
            pdn.contains(&format!("[Event \"Damka micro-match {g1}\"]")),
            "{pdn}"
        );
        assert!(pdn.contains(&format!("[Round \"{round}\"]")), "{pdn}");
        assert!(pdn.contains("[SetUp \"1\"]"), "{pdn}");
        assert!(pdn.contains(&format!("[FEN \"{fen}\"]")), "{pdn}");
        assert!(pdn.contains("[Opening \"ACF 3-move 004\"]"), "{pdn}");
        let games = draughts::pdn::parse(pdn);
        assert_eq!(games[0].tag("Round"), Some(round));
        let replayed = games[0].replay(None).expect("replays");
        assert_eq!(replayed.start.to_fen(), fen);
        assert_eq!(replayed.moves.len(), 2);
    }
    s.stop().await;
    db.cleanup().await;
}

/// The real `damka` binary killed (SIGKILL) in the break: started again on the same
/// database, it brings the match back in its break, and game 2 starts from the same
/// ballot with the colours swapped when both press start.
async fn a_crash_in_the_break_resumes_the_match(backend: Backend) {
    use crate::damka::{Damka, free_port};
    let db = TestDb::new(backend).await;
    let port = free_port();
    let mut server = Damka::spawn(&db.url, port);
    let a = server.guest("Ala").await;
    let b = server.guest("Bolek").await;
    let r = server
        .http(
            "POST",
            "/api/rooms/russian/tables",
            Some(&a),
            json!({"minutes": 5, "increment": 0, "ballot": "fmjd64-07-13",
                   "micro_match": true, "seat": "white"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let table = r.json()["id"].as_str().unwrap().to_owned();
    let mut w = server.table_ws(&table, &a).await;
    w.state().await;
    let mut bk = server.table_ws(&table, &b).await;
    bk.state().await;
    bk.send(json!({"t": "sit", "seat": "black"})).await;
    bk.recv_t("seated").await;
    w.send(json!({"t": "start"})).await;
    bk.send(json!({"t": "start"})).await;
    let first = w.recv_t("game_started").await;
    bk.recv_t("game_started").await;
    crate::common::one_move_each(&mut w, &mut bk, &first).await;
    // Black resigns: Ala (White) wins game 1, and the server dies in the break.
    bk.send(json!({"t": "resign"})).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(over["match"]["status"], "break", "{over}");
    server.kill();
    drop(server);

    let server = Damka::spawn(&db.url, port);
    let mut w = server.table_ws(&table, &a).await;
    let st = w.state().await;
    assert_eq!(st.status, TableStatus::Over, "{st:?}");
    assert_eq!(st.result, Some(GameResult::White));
    let mm = st.micro_match.as_ref().expect("a match");
    assert_eq!(mm.status, MatchStatus::Break, "{st:?}");
    assert_eq!(json!(mm.games), json!([first["id"]]));
    assert_eq!(
        (
            f64::from(mm.score.white_first),
            f64::from(mm.score.black_first)
        ),
        (1.0, 0.0)
    );
    let mut bk = server.table_ws(&table, &b).await;
    bk.state().await;
    w.send(json!({"t": "start"})).await;
    bk.send(json!({"t": "start"})).await;
    let second = w.recv_t("game_started").await;
    assert_eq!(second["white"]["id"], first["black"]["id"], "{second}");
    assert_eq!(second["initial_fen"], first["initial_fen"]);
    assert_eq!(second["ballot"]["id"], "fmjd64-07-13");
    assert_eq!(second["match"]["games"], json!([first["id"], second["id"]]));
    drop(server);
    db.cleanup().await;
}

crate::both_backends!(
    a_crash_in_the_break_resumes_the_match,
    a_micro_match_plays_two_games_with_swapped_colours,
    the_second_game_starts_after_the_break,
    a_restart_between_the_games_resumes_the_match,
    a_rated_micro_match_rates_each_game,
    the_computer_plays_a_micro_match,
    the_pdn_of_a_match_game_names_the_match,
);
