//! Accounts and ratings (issue 23) over real sockets: a guest becomes an account keeping
//! its id and games; sessions (a second client, signing out one or all, a password change
//! ending the others); sign-in failures that look alike and are limited; rated tables for
//! accounts only; Glicko-2 changes exactly as the paper's formulas give them, stored with
//! the game's end; profiles and leaderboards.

use crate::common::{Backend, Response, TestDb, TestServer, Ws, config, one_move_each};
use damka_protocol::ErrorCode;
use damka_rating::{Glicko2, Outcome, Rating};
use damka_server::Config;
use serde_json::{Value, json};

/// A configuration that takes the client address from `X-Forwarded-For`.
pub(crate) fn cfg(db: &TestDb) -> Config {
    let mut c = config(db);
    c.trust_forwarded_for = true;
    c
}

/// A new guest made into an account `username` (password `password`); returns the
/// account's cookie and its `201` body.
pub(crate) async fn account(s: &TestServer, username: &str, password: &str) -> (String, Value) {
    let (guest, _) = s.guest(username).await;
    let r = s
        .http(
            "POST",
            "/api/account",
            Some(&guest),
            Some(json!({"username": username, "password": password})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    (r.cookie().expect("a new session cookie"), r.json())
}

/// Signs in; returns the response.
pub(crate) async fn sign_in(s: &TestServer, username: &str, password: &str) -> Response {
    s.http(
        "POST",
        "/api/session",
        None,
        Some(json!({"username": username, "password": password})),
    )
    .await
}

/// The status of `GET /api/me` with `cookie`.
pub(crate) async fn me_status(s: &TestServer, cookie: &str) -> u16 {
    s.http("GET", "/api/me", Some(cookie), None).await.status
}

/// A counter of `/metrics`.
pub(crate) async fn metric(s: &TestServer, name: &str) -> f64 {
    let text = s.http("GET", "/metrics", None, None).await.body;
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{name} ")))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

/// A rated table of `white` in the Russian room, `black` seated, the game started: the
/// table's id, the two sockets (White's, Black's) and `game_started`.
pub(crate) async fn rated_game(
    s: &TestServer,
    white: &str,
    black: &str,
) -> (String, Ws, Ws, Value) {
    let t = s
        .create_table(
            white,
            "russian",
            json!({"minutes": 5, "increment": 0, "rated": true, "seat": "white"}),
        )
        .await;
    assert_eq!(t["options"]["rated"], true, "{t}");
    let id = t["id"].as_str().unwrap();
    let mut w = s.table_ws(id, Some(white)).await;
    w.state().await;
    let mut b = s.table_ws(id, Some(black)).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    let seated = b.recv_t("seated").await;
    assert_eq!(seated["player"]["account"], true, "{seated}");
    assert_eq!(seated["player"]["rating"], 1500, "{seated}");
    assert_eq!(seated["player"]["provisional"], true, "{seated}");
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    (id.to_owned(), w, b, started)
}

/// White plays its first legal move, Black its, then White resigns: Black wins.
pub(crate) async fn black_wins(w: &mut Ws, b: &mut Ws, started: &Value) -> Value {
    one_move_each(w, b, started).await;
    w.send(json!({"t": "resign"})).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(b.recv_t("game_over").await, over);
    over
}

async fn a_guest_becomes_an_account_and_keeps_its_games(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    // A guest plays a game first.
    let mut m =
        crate::common::start_match(&s, "russian", json!({"minutes": 5, "increment": 0})).await;
    crate::common::play_first_moves(&mut m, 2).await;
    m.white.0.send(json!({"t": "resign"})).await;
    m.white.0.recv_t("game_over").await;
    let guest = m.white.1.clone();
    let me = s.http("GET", "/api/me", Some(&guest), None).await.json();
    let id = me["id"].as_str().unwrap().to_owned();
    // It becomes an account: the same id, a fresh session, the old one gone.
    let r = s
        .http(
            "POST",
            "/api/account",
            Some(&guest),
            Some(json!({"username": "Ala_K", "password": "correct horse"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let body = r.json();
    assert_eq!(body["id"], id.as_str());
    assert_eq!(body["name"], "Ala_K");
    assert_eq!(body["account"]["username"], "Ala_K");
    assert_eq!(body["ratings"]["russian"]["rating"], 1500);
    assert_eq!(body["ratings"].as_object().unwrap().len(), 7, "{body}");
    let cookie = r.cookie().unwrap();
    assert_ne!(cookie, guest);
    assert_eq!(
        me_status(&s, &guest).await,
        401,
        "the guest's token is retired"
    );
    let me = s.http("GET", "/api/me", Some(&cookie), None).await.json();
    assert_eq!(me["id"], id.as_str());
    assert_eq!(me["account"]["username"], "Ala_K");
    // Its games are its own: the profile lists the game.
    let p = s.http("GET", "/api/players/ala_k", None, None).await;
    assert_eq!(p.status, 200, "{}", p.body);
    let p = p.json();
    assert_eq!(p["id"], id.as_str());
    assert_eq!(p["recent"][0]["id"], m.game.as_str());
    assert_eq!(
        p["results"],
        json!({"wins": 0, "draws": 0, "losses": 1, "abandoned": 0})
    );
    let game = s
        .http("GET", &format!("/api/games/{}", m.game), None, None)
        .await
        .json();
    assert_eq!(game["white"]["id"], id.as_str());
    // Its PDN download has the game.
    let pdn = s.http("GET", "/api/players/Ala_K/pdn", None, None).await;
    assert_eq!(pdn.status, 200);
    assert!(pdn.body.contains("[Result \"0-1\"]"), "{}", pdn.body);
    // A name is taken case-insensitively and across look-alikes; the rules hold.
    let (other, _) = s.guest("Bolek").await;
    for (name, pass, code) in [
        ("ala_k", "another pass", "username_taken"),
        ("AIa_K", "another pass", "username_taken"),
        ("Ala K", "another pass", "invalid_username"),
        ("ab", "another pass", "invalid_username"),
        ("Komputer", "another pass", "invalid_username"),
        ("Bolek_2", "short", "weak_password"),
        ("Bolek_2", "bolek_2", "weak_password"),
    ] {
        let r = s
            .http(
                "POST",
                "/api/account",
                Some(&other),
                Some(json!({"username": name, "password": pass})),
            )
            .await;
        assert_eq!(r.error_code(), code, "{name}: {}", r.body);
    }
    let again = s
        .http(
            "POST",
            "/api/account",
            Some(&cookie),
            Some(json!({"username": "Ala_K2", "password": "correct horse"})),
        )
        .await;
    assert_eq!(
        (again.status, again.error_code().as_str()),
        (409, "already_account")
    );
    // An account's name is its username.
    let rename = s
        .http(
            "POST",
            "/api/guest",
            Some(&cookie),
            Some(json!({"name": "Zosia"})),
        )
        .await;
    assert_eq!(rename.status, 400);
    // No profile for a guest or nobody.
    assert_eq!(
        s.http("GET", "/api/players/Bolek", None, None).await.status,
        404
    );
    s.stop().await;
    db.cleanup().await;
}

async fn sessions_sign_in_and_out(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (first, _) = account(&s, "Reksio", "pies reksio 1").await;
    // A second client signs in: a session of its own.
    let r = sign_in(&s, "REKSIO", "pies reksio 1").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["account"]["username"], "Reksio");
    let second = r.cookie().unwrap();
    assert_ne!(first, second);
    assert_eq!(me_status(&s, &first).await, 200);
    assert_eq!(me_status(&s, &second).await, 200);
    // Signing in never keeps the token it came with.
    let r = s
        .http(
            "POST",
            "/api/session",
            Some(&second),
            Some(json!({"username": "Reksio", "password": "pies reksio 1"})),
        )
        .await;
    let third = r.cookie().unwrap();
    assert_ne!(third, second);
    // Signing out ends that session on the server, and only that one.
    let out = s.http("DELETE", "/api/session", Some(&second), None).await;
    assert_eq!(out.status, 204);
    assert!(out.header("set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(me_status(&s, &second).await, 401);
    assert_eq!(me_status(&s, &first).await, 200);
    assert_eq!(me_status(&s, &third).await, 200);
    // Everywhere: every session ends.
    let out = s
        .http("DELETE", "/api/session?all=true", Some(&first), None)
        .await;
    assert_eq!(out.status, 204);
    assert_eq!(me_status(&s, &first).await, 401);
    assert_eq!(me_status(&s, &third).await, 401);
    // A password change ends the others, not the one that made it.
    let a = sign_in(&s, "Reksio", "pies reksio 1")
        .await
        .cookie()
        .unwrap();
    let b = sign_in(&s, "Reksio", "pies reksio 1")
        .await
        .cookie()
        .unwrap();
    let wrong = s
        .http(
            "POST",
            "/api/account/password",
            Some(&a),
            Some(json!({"old": "not it at all", "new": "kot filemon 2"})),
        )
        .await;
    assert_eq!(
        (wrong.status, wrong.error_code().as_str()),
        (401, "bad_credentials")
    );
    let ok = s
        .http(
            "POST",
            "/api/account/password",
            Some(&a),
            Some(json!({"old": "pies reksio 1", "new": "kot filemon 2"})),
        )
        .await;
    assert_eq!(ok.status, 204, "{}", ok.body);
    assert_eq!(me_status(&s, &a).await, 200);
    assert_eq!(me_status(&s, &b).await, 401);
    assert_eq!(sign_in(&s, "Reksio", "pies reksio 1").await.status, 401);
    assert_eq!(sign_in(&s, "Reksio", "kot filemon 2").await.status, 200);
    // The session tokens are stored hashed: no cookie value is in the database.
    let token = a.split_once('=').unwrap().1;
    let stored: Vec<String> = match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
            sqlx::query_scalar("SELECT token_hash FROM sessions")
                .fetch_all(&pool)
                .await
                .unwrap()
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
            sqlx::query_scalar("SELECT token_hash FROM sessions")
                .fetch_all(&pool)
                .await
                .unwrap()
        }
    };
    assert!(!stored.is_empty() && stored.iter().all(|h| h != token));
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sign_in_failures_look_alike_and_are_limited() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    let (_, _) = account(&s, "Filemon", "kot filemon 1").await;
    let try_from = |ip: &'static str, user: &'static str, pass: &'static str| {
        let s = &s;
        async move {
            s.http_from(
                ip,
                "POST",
                "/api/session",
                None,
                Some(json!({"username": user, "password": pass})),
            )
            .await
        }
    };
    // A wrong password and an unknown username: the same answer after the same work (a
    // password check against a hash either way).
    let checks = metric(&s, "damka_password_checks_total").await;
    let wrong = try_from("10.1.0.1", "Filemon", "not the password").await;
    let unknown = try_from("10.1.0.1", "Bonifacy", "not the password").await;
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(unknown.status, 401);
    assert_eq!(wrong.error_code(), "bad_credentials");
    assert_eq!(
        metric(&s, "damka_password_checks_total").await,
        checks + 2.0
    );
    // Per address: a burst of 30 checks (of different names), then 429 with Retry-After
    // (one more every 2 s meanwhile, so a slow machine gets a few more through).
    let start = std::time::Instant::now();
    let mut through = 2;
    let limited = loop {
        let name: &'static str = Box::leak(format!("Nikt{through}").into_boxed_str());
        let r = try_from("10.1.0.1", name, "x").await;
        if r.status != 401 {
            break r;
        }
        through += 1;
        assert!(through < 200, "never limited");
    };
    let refilled = (start.elapsed().as_secs_f64() / 2.0).ceil() as usize;
    assert!(
        (30..=30 + refilled).contains(&through),
        "{through} through in {:?}",
        start.elapsed()
    );
    assert_eq!(
        (limited.status, limited.error_code().as_str()),
        (429, "rate_limited")
    );
    let retry: u64 = limited.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "{retry}");
    // Per username and address: 5 failed checks of one name from one address, then 429
    // there, even with the right password; from another address the owner signs in
    // (issue 34: a guesser no longer locks the owner out).
    for _ in 0..5 {
        assert_eq!(try_from("10.2.0.1", "Filemon", "guess").await.status, 401);
    }
    let limited = try_from("10.2.0.1", "filemon", "kot filemon 1").await;
    assert_eq!(limited.status, 429, "{}", limited.body);
    assert!(limited.header("retry-after").is_some());
    assert_eq!(
        try_from("10.2.0.5", "filemon", "kot filemon 1")
            .await
            .status,
        200
    );
    // Another name from a fresh address is not held back.
    assert_eq!(try_from("10.3.0.1", "Bonifacy", "x").await.status, 401);
    s.stop().await;
    db.cleanup().await;
}

async fn rated_tables_are_for_accounts(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (guest, _) = s.guest("Gucio").await;
    // Not with the computer, one screen, optional capture or a random opening.
    for extra in [
        json!({"bot": 1}),
        json!({"local": true}),
        json!({"capture_optional": true}),
        json!({"random_opening": true}),
    ] {
        let mut body = json!({"minutes": 5, "increment": 0, "rated": true});
        body.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        let r = s
            .http(
                "POST",
                "/api/rooms/russian/tables",
                Some(&ala),
                Some(body.clone()),
            )
            .await;
        assert_eq!(
            (r.status, r.error_code().as_str()),
            (400, "invalid_options"),
            "{body}"
        );
    }
    // A guest cannot make one, nor sit at one.
    let r = s
        .http(
            "POST",
            "/api/rooms/russian/tables",
            Some(&guest),
            Some(json!({"minutes": 5, "increment": 0, "rated": true})),
        )
        .await;
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (403, "rated_needs_account")
    );
    let t = s
        .create_table(
            &ala,
            "russian",
            json!({"minutes": 5, "increment": 0, "rated": true, "seat": "white",
                   "rating_range": {"min": 1600, "max": 2200}}),
        )
        .await;
    let id = t["id"].as_str().unwrap();
    assert_eq!(t["seats"]["white"]["rating"], 1500, "{t}");
    let mut g = s.table_ws(id, Some(&guest)).await;
    g.state().await;
    g.send(json!({"t": "sit", "seat": "black"})).await;
    assert_eq!(g.error_code().await, ErrorCode::RatedNeedsAccount);
    // An account outside the free seat's range cannot either.
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let mut b = s.table_ws(id, Some(&bolek)).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    assert_eq!(b.error_code().await, ErrorCode::RatingOutOfRange);
    // A range is for a rated table only.
    let r = s
        .http(
            "POST",
            "/api/rooms/russian/tables",
            Some(&ala),
            Some(json!({"minutes": 5, "increment": 0, "rating_range": {"min": 1, "max": 2}})),
        )
        .await;
    assert_eq!(r.error_code(), "invalid_options");
    // Rated tournaments too: accounts only, no computer places.
    let body = json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4, "rated": true});
    let r = s
        .http(
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&guest),
            Some(body.clone()),
        )
        .await;
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (403, "rated_needs_account")
    );
    let r = s
        .http(
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&ala),
            Some(body),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let tid = r.json()["id"].as_str().unwrap().to_owned();
    assert_eq!(r.json()["rated"], true);
    assert_eq!(r.json()["players"][0]["rating"], 1500);
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{tid}/join"),
            Some(&guest),
            None,
        )
        .await;
    assert_eq!(r.error_code(), "rated_needs_account");
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{tid}/join"),
            Some(&bolek),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.stop().await;
    db.cleanup().await;
}

async fn a_rated_game_rates_both_players_as_glicko_2_says(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (table, mut w, mut b, started) = rated_game(&s, &ala, &bolek).await;
    let game = started["id"].as_str().unwrap().to_owned();
    let over = black_wins(&mut w, &mut b, &started).await;
    // Two new players: 1500/350/0.06 each, τ 0.75; Black won.
    let g = Glicko2::default();
    let (wa, ba) = g.game(Rating::NEW, Rating::NEW, Outcome::Loss);
    let round = |r: f64| r.round() as i64;
    assert_eq!(
        over["ratings"],
        json!({"white": {"before": 1500, "after": round(wa.rating), "provisional": true},
               "black": {"before": 1500, "after": round(ba.rating), "provisional": true}}),
        "{over}"
    );
    assert_eq!(round(ba.rating), 1662);
    // As stored: /api/me, the game's record, the profile's history.
    let me = s.http("GET", "/api/me", Some(&bolek), None).await.json();
    assert_eq!(me["ratings"]["russian"]["rating"], round(ba.rating));
    assert_eq!(me["ratings"]["russian"]["rd"], round(ba.rd));
    assert_eq!(me["ratings"]["russian"]["games"], 1);
    assert_eq!(me["ratings"]["russian"]["provisional"], true);
    assert_eq!(me["ratings"]["american"]["games"], 0);
    let record = s
        .http("GET", &format!("/api/games/{game}"), None, None)
        .await
        .json();
    // The record keeps no RD: before and after only.
    assert_eq!(
        record["ratings"],
        json!({"white": {"before": 1500, "after": round(wa.rating)},
               "black": {"before": 1500, "after": round(ba.rating)}})
    );
    assert_eq!(record["options"]["rated"], true);
    let p = s.http("GET", "/api/players/Ala", None, None).await.json();
    assert_eq!(p["ratings"]["russian"]["rating"], round(wa.rating));
    assert_eq!(p["history"]["russian"][0]["rating"], round(wa.rating));
    assert_eq!(p["history"]["russian"][0]["game"], game.as_str());
    // The next game between them (colours swapped: Bolek has White) starts from the
    // stored ratings, and its seats show them.
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    assert_eq!(started["white"]["name"], "Bolek", "{started}");
    let st = s.table_ws(&table, None).await.recv_t("state").await;
    assert_eq!(st["seats"]["white"]["rating"], round(ba.rating), "{st}");
    assert_eq!(st["seats"]["black"]["rating"], round(wa.rating), "{st}");
    // Ala (Black now) wins.
    let over2 = black_wins(&mut b, &mut w, &started).await;
    // Stored exactly (not rounded) between games; a few seconds of RD growth are far
    // below rounding.
    let (bolek2, ala2) = g.game(ba, wa, Outcome::Loss);
    assert_eq!(over2["ratings"]["white"]["before"], round(ba.rating));
    assert_eq!(over2["ratings"]["white"]["after"], round(bolek2.rating));
    assert_eq!(over2["ratings"]["black"]["after"], round(ala2.rating));
    // Nobody is established after two games: nobody above the line, both below it,
    // best first (issue 39: a small server's board is not empty for weeks).
    let board = s
        .http("GET", "/api/leaderboard/russian", None, None)
        .await
        .json();
    assert_eq!(board["players"], json!([]), "{board}");
    let below = board["provisional"].as_array().expect("provisional list");
    let names: Vec<&str> = below
        .iter()
        .map(|e| e["username"].as_str().unwrap())
        .collect();
    let mut want = [("Ala", ala2.rating), ("Bolek", bolek2.rating)];
    want.sort_by(|a, b| b.1.total_cmp(&a.1));
    assert_eq!(names, want.map(|w| w.0), "{board}");
    assert_eq!(below[0]["games"], 2, "{board}");
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_aborted_rated_game_changes_nothing() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (_, mut w, _b, _) = rated_game(&s, &ala, &bolek).await;
    // Nobody moves: the first-move window closes, the game is aborted.
    s.advance(31_000).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(over["reason"], "aborted", "{over}");
    assert!(over.get("ratings").is_none(), "{over}");
    let me = s.http("GET", "/api/me", Some(&ala), None).await.json();
    assert_eq!(
        me["ratings"]["russian"],
        json!({"rating": 1500, "rd": 350, "games": 0, "provisional": true})
    );
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_leaderboard_lists_established_accounts_best_first() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut ids = Vec::new();
    for name in ["Ala", "Bolek", "Cezary", "Dorota"] {
        let (_, body) = account(&s, name, "a long password").await;
        ids.push(body["id"].as_str().unwrap().to_owned());
    }
    let now = damka_server::time::unix_ms();
    let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
    // Ala 1800/60, Bolek 2100/80 but a year away (its RD has grown past 110), Cezary
    // 1700/40, Dorota provisional (RD 150), Ewa a rating row without a rated game.
    let (_, body) = account(&s, "Ewa", "a long password").await;
    ids.push(body["id"].as_str().unwrap().to_owned());
    for (id, rating, rd, at, games) in [
        (&ids[0], 1800.0, 60.0, now, 30),
        (&ids[1], 2100.0, 80.0, now - 365 * 86_400_000, 30),
        (&ids[2], 1700.0, 40.0, now, 30),
        (&ids[3], 2000.0, 150.0, now, 30),
        (&ids[4], 1400.0, 350.0, now, 0),
    ] {
        sqlx::query(
            "INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, rated_at) \
             VALUES (?, 'international', ?, ?, 0.06, ?, ?)",
        )
        .bind(id)
        .bind(rating)
        .bind(rd)
        .bind(games)
        .bind(at)
        .execute(&pool)
        .await
        .unwrap();
    }
    let board = s
        .http("GET", "/api/leaderboard/international", None, None)
        .await
        .json();
    assert_eq!(board["variant"], "international");
    assert_eq!(
        board["players"],
        json!([
            {"username": "Ala", "rating": 1800, "rd": 60, "games": 30},
            {"username": "Cezary", "rating": 1700, "rd": 40, "games": 30},
        ])
    );
    // Below the line, best first: Bolek (provisional again after a year away, his RD
    // grown to now) and Dorota; not Ewa, who has no rated game.
    let below = board["provisional"].as_array().expect("provisional list");
    assert_eq!(below.len(), 2, "{board}");
    assert_eq!(below[0]["username"], "Bolek");
    assert_eq!(below[0]["rating"], 2100);
    let rd = below[0]["rd"].as_i64().unwrap();
    assert!(rd > 110 && rd < 350, "{board}");
    assert_eq!(
        below[1],
        json!({"username": "Dorota", "rating": 2000, "rd": 150, "games": 30})
    );
    assert_eq!(
        s.http("GET", "/api/leaderboard/chess", None, None)
            .await
            .status,
        404
    );
    // The profile shows the RD as it stands now (grown for Bolek's year away).
    let p = s.http("GET", "/api/players/Bolek", None, None).await.json();
    let rd = p["ratings"]["international"]["rd"].as_i64().unwrap();
    assert!(rd > 110 && rd < 350, "{p}");
    assert_eq!(p["ratings"]["international"]["provisional"], true);
    pool.close().await;
    s.stop().await;
    db.cleanup().await;
}

/// Issue 39: an account keeps its client language on the server; it comes with `/api/me`
/// and the sign-in answer on any device, survives a restart, and only accounts may set
/// it, to a language the client speaks.
async fn an_account_keeps_its_language(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (cookie, made) = account(&s, "Jirka", "jirka a ja").await;
    assert_eq!(made["account"]["language"], Value::Null, "none chosen yet");
    let set = |lang: Value| {
        let cookie = cookie.clone();
        let s = &s;
        async move {
            s.http(
                "PUT",
                "/api/account/language",
                Some(&cookie),
                Some(json!({ "language": lang })),
            )
            .await
        }
    };
    let r = set(json!("cs")).await;
    assert_eq!(r.status, 204, "{}", r.body);
    let me = s.http("GET", "/api/me", Some(&cookie), None).await.json();
    assert_eq!(me["account"]["language"], "cs");
    // A language the client does not speak, or not a string: refused, nothing changed.
    for bad in [json!("de"), json!(""), json!("CS"), json!(7)] {
        let r = set(bad.clone()).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.body);
        assert_eq!(r.json()["error"]["code"], "bad_message");
    }
    // A guest has nothing to keep it in.
    let (guest, _) = s.guest("Host").await;
    let r = s
        .http(
            "PUT",
            "/api/account/language",
            Some(&guest),
            Some(json!({"language": "pl"})),
        )
        .await;
    assert_eq!(r.status, 401, "{}", r.body);
    s.stop().await;

    // Another device after a restart: signing in brings the language along.
    let s = TestServer::start(config(&db)).await;
    let r = sign_in(&s, "jirka", "jirka a ja").await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["account"]["language"], "cs");
    // `null` goes back to the browser's language.
    let other = r.cookie().unwrap();
    let r = s
        .http(
            "PUT",
            "/api/account/language",
            Some(&other),
            Some(json!({"language": null})),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let me = s.http("GET", "/api/me", Some(&cookie), None).await.json();
    assert_eq!(me["account"]["language"], Value::Null);
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    an_account_keeps_its_language,
    a_guest_becomes_an_account_and_keeps_its_games,
    sessions_sign_in_and_out,
    rated_tables_are_for_accounts,
    a_rated_game_rates_both_players_as_glicko_2_says,
);
