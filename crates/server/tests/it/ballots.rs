//! Opening ballots at a table (issue 38, item 2): a table's `"ballot"` option, the games
//! that start from it, the refusals, a restart, and the stored game's PDN.

use serde_json::{Value, json};

use crate::common::{
    Backend, TestDb, TestServer, config, play_first_moves, play_first_moves_from, start_match,
};

/// The ballot `id` of `variant` as `GET /api/ballots/{variant}` lists it.
async fn listed(s: &TestServer, variant: &str, id: &str) -> Value {
    let r = s
        .http("GET", &format!("/api/ballots/{variant}"), None, None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("{variant} lists {id}"))
}

/// A table with `"ballot": ID` starts its game from the ballot's position, and both
/// players and a spectator see which ballot it is.
async fn a_ballot_table_starts_from_the_ballot(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let ballot = listed(&s, "russian", "fmjd64-07-13").await;
    let m = start_match(
        &s,
        "russian",
        json!({"minutes": 5, "increment": 0, "ballot": "fmjd64-07-13"}),
    )
    .await;
    let fen = ballot["fen"].as_str().unwrap();
    assert_ne!(fen, draughts::Variant::Russian.start_fen());
    let started = &m.started;
    assert_eq!(started["initial_fen"], fen, "{started}");
    assert_eq!(started["fen"], fen, "{started}");
    assert_eq!(
        started["opening"],
        json!([]),
        "ballot moves are not plies of the game"
    );
    let shown = json!({
        "id": "fmjd64-07-13",
        "name": "FMJD-64 7-XIII",
        "moves": ["e3-f4", "b6-a5", "d2-e3", "a7-b6", "c3-d4", "d6-c5"],
    });
    assert_eq!(started["ballot"], shown, "{started}");
    // Six plies from the start: White to move, with White's moves of that position.
    assert_eq!(started["turn"], "white");
    let pos = draughts::Position::from_fen(draughts::Rules::new(draughts::Variant::Russian), fen)
        .unwrap();
    let legal: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|mv| pos.move_to_string(mv))
        .collect();
    let mut sent: Vec<String> = serde_json::from_value(started["legal"].clone()).unwrap();
    sent.sort();
    let mut legal = legal;
    legal.sort();
    assert_eq!(sent, legal);
    // A spectator's state shows the ballot and its position; the table its option.
    let mut spectator = s.table_ws(&m.table, None).await;
    let st = spectator.recv_t("state").await;
    assert_eq!(st["ballot"], shown, "{st}");
    assert_eq!(st["initial_fen"], fen);
    assert_eq!(st["options"]["ballot"], "fmjd64-07-13");
    let t = s
        .http("GET", &format!("/api/tables/{}", m.table), None, None)
        .await
        .json();
    assert_eq!(t["options"]["ballot"], "fmjd64-07-13", "{t}");
    s.stop().await;
    db.cleanup().await;
}

/// An unknown ballot, one of another variant, a ballot with a random opening, and a
/// rated table from Damka's own ballots are refused; a rated table from a federation's
/// ballot is created.
async fn bad_ballots_are_refused(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (cookie, _) = s.guest("Ala").await;
    let create = |room: &'static str, body: Value| {
        let cookie = cookie.clone();
        let s = &s;
        async move {
            s.http(
                "POST",
                &format!("/api/rooms/{room}/tables"),
                Some(&cookie),
                Some(body),
            )
            .await
        }
    };
    for (room, id) in [
        ("russian", "fmjd64-99-01"),
        ("russian", "3move-004"),
        ("american", "fmjd64-07-13"),
        // Left out of the Brazilian table (docs/ballots.md).
        ("brazilian", "fmjd64-01-09"),
        ("czech", ""),
    ] {
        let r = create(room, json!({"minutes": 5, "increment": 0, "ballot": id})).await;
        assert_eq!(r.status, 400, "{room} {id}: {}", r.body);
        assert_eq!(r.json()["error"]["code"], "unknown_ballot", "{room} {id}");
    }
    let r = create(
        "russian",
        json!({"minutes": 5, "increment": 0, "ballot": "random", "random_opening": true}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.body);
    assert_eq!(r.json()["error"]["code"], "invalid_options");
    // Rated: the federations' tables yes, Damka's own sets no.
    let (account, _) = crate::accounts::account(&s, "ballotrated", "a-long-password").await;
    let rated = |room: &'static str, ballot: &'static str| {
        let account = account.clone();
        let s = &s;
        async move {
            s.http(
                "POST",
                &format!("/api/rooms/{room}/tables"),
                Some(&account),
                Some(json!({"minutes": 5, "increment": 0, "rated": true, "ballot": ballot})),
            )
            .await
        }
    };
    for (room, ballot) in [
        ("czech", "random"),
        ("czech", "damka-001"),
        ("american", "2move-01"),
    ] {
        let r = rated(room, ballot).await;
        assert_eq!(r.status, 400, "{room} {ballot}: {}", r.body);
        assert_eq!(
            r.json()["error"]["code"],
            "invalid_options",
            "{room} {ballot}"
        );
    }
    for (room, ballot) in [("russian", "random"), ("american", "3move-004")] {
        let r = rated(room, ballot).await;
        assert_eq!(r.status, 201, "{room} {ballot}: {}", r.body);
        assert_eq!(r.json()["options"]["rated"], true);
        assert_eq!(r.json()["options"]["ballot"], ballot);
    }
    // What the list says a rated table may play.
    assert_eq!(listed(&s, "russian", "idf150-01-10").await["rated"], true);
    assert_eq!(listed(&s, "american", "2move-01").await["rated"], false);
    assert_eq!(listed(&s, "czech", "damka-001").await["rated"], false);
    s.stop().await;
    db.cleanup().await;
}

/// `"ballot": "random"` draws from the variant's default set, and each game at the table
/// draws again.
async fn random_draws_a_ballot_for_each_game(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(
        &s,
        "american",
        json!({"minutes": 5, "increment": 0, "ballot": "random"}),
    )
    .await;
    let mut seen = Vec::new();
    let mut started = m.started.clone();
    for game in 0..4 {
        let id = started["ballot"]["id"].as_str().unwrap().to_owned();
        assert!(id.starts_with("3move-"), "{started}");
        let b = listed(&s, "american", &id).await;
        assert_eq!(started["initial_fen"], b["fen"], "{started}");
        assert_eq!(started["ballot"]["moves"], b["moves"]);
        seen.push(id);
        if game == 3 {
            break;
        }
        // Aborted at once; both press start again (the colours swap).
        m.white.0.send(json!({"t": "abort"})).await;
        m.white.0.recv_t("game_over").await;
        m.black.0.recv_t("game_over").await;
        m.white.0.send(json!({"t": "start"})).await;
        m.black.0.send(json!({"t": "start"})).await;
        started = m.white.0.recv_t("game_started").await;
        m.black.0.recv_t("game_started").await;
        std::mem::swap(&mut m.white, &mut m.black);
    }
    // Four draws of 156 all the same: once in 3.8 million runs.
    seen.dedup();
    assert!(seen.len() > 1, "a new ballot for each game: {seen:?}");
    s.stop().await;
    db.cleanup().await;
}

/// A game from a ballot is restored after a restart with its ballot, and its table goes
/// on drawing ballots.
async fn the_ballot_survives_a_restart(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut m = start_match(
        &s,
        "russian",
        json!({"minutes": 5, "increment": 0, "ballot": "random"}),
    )
    .await;
    let ballot = m.started["ballot"].clone();
    let initial = m.started["initial_fen"].clone();
    assert!(
        ballot["id"].as_str().unwrap().starts_with("fmjd64-"),
        "{ballot}"
    );
    play_first_moves(&mut m, 2).await;
    let (table, game) = (m.table.clone(), m.game.clone());
    let cookies = (m.white.1.clone(), m.black.1.clone());
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let mut w = s.table_ws(&table, Some(&cookies.0)).await;
    let st = w.recv_t("state").await;
    assert_eq!(st["game_id"], game.as_str());
    assert_eq!(st["ballot"], ballot, "{st}");
    assert_eq!(st["initial_fen"], initial, "{st}");
    assert_eq!(st["moves"].as_array().unwrap().len(), 2);
    assert_eq!(st["options"]["ballot"], "random", "{st}");
    // The game goes on from where it was.
    let mut b = s.table_ws(&table, Some(&cookies.1)).await;
    b.state().await;
    let st = loop {
        let st = w.recv_t("state").await;
        if st["paused"].is_null() {
            break st;
        }
    };
    let mut m2 = crate::common::Match {
        table,
        game: game.clone(),
        white: (w, cookies.0),
        black: (b, cookies.1),
        started: st.clone(),
    };
    play_first_moves_from(&mut m2, &st, 2, 1).await;
    let g = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    assert_eq!(g["ballot"], ballot, "{g}");
    assert_eq!(g["initial_fen"], initial);
    assert_eq!(g["moves"].as_array().unwrap().len(), 3);
    s.stop().await;
    db.cleanup().await;
}

/// The PDN of a game from a ballot starts from the ballot's position and names it; the
/// stored game (the replay) has the ballot and its position.
async fn the_pdn_names_the_ballot(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let ballot = listed(&s, "american", "3move-004").await;
    let mut m = start_match(
        &s,
        "american",
        json!({"minutes": 5, "increment": 0, "ballot": "3move-004"}),
    )
    .await;
    let last = play_first_moves(&mut m, 2).await;
    let resigner = last["turn"].as_str().unwrap().to_owned();
    m.side(&resigner).send(json!({"t": "resign"})).await;
    m.white.0.recv_t("game_over").await;
    let r = s
        .http("GET", &format!("/api/games/{}/pdn", m.game), None, None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let fen = ballot["fen"].as_str().unwrap();
    assert!(r.body.contains("[SetUp \"1\"]"), "{}", r.body);
    assert!(r.body.contains(&format!("[FEN \"{fen}\"]")), "{}", r.body);
    assert!(
        r.body.contains("[Opening \"ACF 3-move 004\"]"),
        "{}",
        r.body
    );
    // The PDN replays from the ballot: the engine reads it back to the same start.
    let games = draughts::pdn::parse(&r.body);
    let replayed = games[0].replay(None).expect("replays");
    assert_eq!(replayed.start.to_fen(), fen);
    assert_eq!(replayed.moves.len(), 2);
    let g = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(g["initial_fen"], fen, "{g}");
    assert_eq!(g["ballot"]["name"], "ACF 3-move 004", "{g}");
    assert_eq!(g["ballot"]["moves"], ballot["moves"]);
    assert_eq!(g["options"]["ballot"], "3move-004");
    s.stop().await;
    db.cleanup().await;
}

/// A game from the start position names no opening and has no ballot.
async fn a_plain_game_has_no_ballot(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let m = start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    assert_eq!(m.started["ballot"], Value::Null);
    let r = s
        .http("GET", &format!("/api/games/{}/pdn", m.game), None, None)
        .await;
    assert!(!r.body.contains("[Opening"), "{}", r.body);
    assert!(!r.body.contains("[FEN"), "{}", r.body);
    let g = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(g["ballot"], Value::Null, "{g}");
    assert!(g["options"].get("ballot").is_none(), "{g}");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    a_ballot_table_starts_from_the_ballot,
    bad_ballots_are_refused,
    random_draws_a_ballot_for_each_game,
    the_ballot_survives_a_restart,
    the_pdn_names_the_ballot,
    a_plain_game_has_no_ballot,
);
