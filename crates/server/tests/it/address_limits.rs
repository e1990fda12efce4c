//! Limits per guest and per address: what one guest, or one address with many guests,
//! could take from everybody else. Each test plays the attack over real sockets and
//! checks the limit; clients of different addresses are simulated with `X-Forwarded-For`
//! on a server that trusts it (the address the limits count is the same either way).
//!
//! 1. the computer: a beginner's game is answered at once beside strong tables and a
//!    computer-filled tournament of another address;
//! 2. tournaments: open ones per address, cancelled when not started in time or when the
//!    creator left; their tables count against the creator's address;
//! 3. chat: one budget per address; history kept bounded, a closed table's chat deleted;
//! 4. room events coalesced; socket opens and seat changes limited per address;
//! 5. invitations: limited per invitee, refused to a player in a game;
//! 6. names: look-alikes (UTS #39), the computer's names, stacked marks;
//! 7. chat text cleaned by Unicode category, nothing visible refused;
//! 8. binary frames and ping floods close the socket;
//! 9. renames throttled; text logs without colour codes when not on a terminal.

use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb, TestServer, Ws, config};
use damka_server::Config;
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;

/// The attacking address and a few honest ones.
const ATTACKER: &str = "10.9.0.1";
const VICTIM: &str = "10.9.0.2";
const OTHER: &str = "10.9.0.3";

/// A test configuration that takes the client address from `X-Forwarded-For`.
fn cfg(db: &TestDb) -> Config {
    let mut c = config(db);
    c.trust_forwarded_for = true;
    c
}

/// Creates a table from `ip`; returns its id.
async fn table_from(s: &TestServer, ip: &str, cookie: &str, body: Value) -> String {
    let r = s
        .http_from(
            ip,
            "POST",
            "/api/rooms/russian/tables",
            Some(cookie),
            Some(body),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()["id"].as_str().unwrap().to_owned()
}

/// A socket of `cookie`'s guest at `path`, from `ip`.
async fn ws_from(s: &TestServer, path: &str, cookie: Option<&str>, ip: &str) -> Ws {
    Ws::connect_from(&s.addr, path, cookie, ip)
        .await
        .unwrap_or_else(|status| panic!("socket refused with {status}"))
}

// ------------------------------------------------------------- 1: the computer for all

/// Plays Black at a table against the computer for as long as the task lives: every time
/// the computer has moved, the first legal reply.
fn keep_replying(mut ws: Ws) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        while let Some(Ok(frame)) = ws.stream.next().await {
            let Message::Text(t) = frame else { continue };
            let Ok(v) = serde_json::from_str::<Value>(&t) else {
                continue;
            };
            if v["t"] == "move" && v["turn"] == "black" {
                let ply = v["ply"].as_u64().unwrap_or(0) + 1;
                if let Some(mv) = v["legal"].get(0) {
                    let msg = json!({"t": "move", "move": mv, "ply": ply});
                    if ws
                        .stream
                        .send(Message::Text(msg.to_string().into()))
                        .await
                        .is_err()
                    {
                        break;
                    }
                }
            }
        }
    })
}

/// Waits for the computer's next move at `ws`; returns it.
async fn computer_move(ws: &mut Ws) -> Value {
    loop {
        let v = ws.recv().await;
        if v["t"] == "move" && v["turn"] == "black" {
            return v;
        }
    }
}

/// One address plays six level-3 tables (two guests, 15+10: the computer may think for
/// seconds a move) and runs a Swiss where the computer fills 14 places at level 3; a
/// beginner's game of another address is answered well inside the first-move window at
/// every move. Before the fix the beginner waited behind every queued search (17-21 s a
/// move with six level-3 tables; the first move aborted behind a computer tournament).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_beginner_game_is_answered_beside_strong_tables_and_a_computer_tournament() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    c.test.manual_time = false;
    c.computer.bot_searches = 1;
    let s = TestServer::start(c).await;
    let mut attack = Vec::new();
    let mut cookies = Vec::new();
    for name in ["Atak Jeden", "Atak Dwa"] {
        let (cookie, _) = s.guest_from(ATTACKER, name).await;
        for _ in 0..3 {
            let id = table_from(
                &s,
                ATTACKER,
                &cookie,
                json!({"minutes": 15, "increment": 10, "seat": "black", "bot": 3}),
            )
            .await;
            let mut ws = ws_from(&s, &format!("/ws/tables/{id}"), Some(&cookie), ATTACKER).await;
            ws.state().await;
            ws.send(json!({"t": "start"})).await;
            attack.push(keep_replying(ws));
        }
        cookies.push(cookie);
    }
    // The same address's Swiss: two people and the computer in 14 places, at level 3.
    let r = s
        .http_from(
            ATTACKER,
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&cookies[0]),
            Some(
                json!({"kind": "swiss", "rounds": 3, "minutes": 15, "increment": 10,
                        "max_players": 16, "bots": true, "bot_level": 3}),
            ),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let tid = r.json()["id"].as_str().unwrap().to_owned();
    for (who, what) in [(1, "join"), (0, "start")] {
        let r = s
            .http_from(
                ATTACKER,
                "POST",
                &format!("/api/tournaments/{tid}/{what}"),
                Some(&cookies[who]),
                None,
            )
            .await;
        assert_eq!(r.status, 200, "{what}: {}", r.body);
    }
    // The searches pile up: the six strong tables' and the tournament's computer boards
    // wait behind the one search slot.
    let deadline = Instant::now() + Duration::from_secs(60);
    while s.server.state.core.computer.pending() < 7 {
        assert!(
            Instant::now() < deadline,
            "only {} searches waiting",
            s.server.state.core.computer.pending()
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }

    // A beginner's game of another address: the computer (White) moves first.
    let (victim, _) = s.guest_from(VICTIM, "Ofiara").await;
    let id = table_from(
        &s,
        VICTIM,
        &victim,
        json!({"minutes": 5, "increment": 0, "seat": "black", "bot": 1}),
    )
    .await;
    let mut ws = ws_from(&s, &format!("/ws/tables/{id}"), Some(&victim), VICTIM).await;
    ws.state().await;
    let mut replies = Vec::new();
    let mut asked = Instant::now();
    ws.send(json!({"t": "start"})).await;
    for _ in 0..4 {
        let mv = computer_move(&mut ws).await;
        replies.push(asked.elapsed());
        let ply = mv["ply"].as_u64().unwrap() + 1;
        asked = Instant::now();
        ws.send(json!({"t": "move", "move": mv["legal"][0], "ply": ply, "ack": ply}))
            .await;
    }
    println!("level-1 replies beside the attack: {replies:?}");
    for (i, r) in replies.iter().enumerate() {
        assert!(
            *r < Duration::from_secs(5),
            "reply {i} took {r:?} (all: {replies:?})"
        );
    }
    assert!(
        s.server.state.core.computer.cuts() > 0,
        "the strong searches gave up their slot to the beginner's"
    );
    for task in attack {
        task.abort();
    }
    s.stop().await;
    db.cleanup().await;
}

// ------------------------------------------------------------------ 2: tournaments

fn tournament_body() -> Value {
    json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4})
}

async fn tournament_status(s: &TestServer, id: &str) -> Value {
    s.http("GET", &format!("/api/tournaments/{id}"), None, None)
        .await
        .json()
}

/// Waits until tournament `id` is over (the actor reacts to time moved by the test).
async fn cancelled(s: &TestServer, id: &str) {
    for _ in 0..200 {
        let t = tournament_status(s, id).await;
        if t["status"] == "over" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("not cancelled: {}", tournament_status(s, id).await);
}

/// Ten guests of one address could fill a room's twenty open-tournament places; now one
/// address holds two. An open tournament is cancelled when its creator leaves it, when it
/// has not started within the hour, or when its creator has been away for five minutes.
/// Its tables count against its creator's address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_two_open_tournaments_that_do_not_last_forever() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    c.limits.max_tables_per_address = 4;
    let s = TestServer::start(c).await;
    let mut created = Vec::new();
    let mut refused = 0;
    for i in 0..10 {
        let (cookie, _) = s.guest_from(ATTACKER, &format!("Gracz {i}")).await;
        let r = s
            .http_from(
                ATTACKER,
                "POST",
                "/api/rooms/russian/tournaments",
                Some(&cookie),
                Some(tournament_body()),
            )
            .await;
        match r.status {
            201 => created.push((cookie, r.json()["id"].as_str().unwrap().to_owned())),
            _ => {
                assert_eq!(r.error_code(), "too_many_tables", "{}", r.body);
                refused += 1;
            }
        }
    }
    println!("open tournaments one address holds: {}", created.len());
    assert_eq!((created.len(), refused), (2, 8));

    // The creator leaves: cancelled, and the address may open another.
    let (cookie, id) = &created[0];
    let r = s
        .http_from(
            ATTACKER,
            "POST",
            &format!("/api/tournaments/{id}/leave"),
            Some(cookie),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    cancelled(&s, id).await;

    // Not started within the hour (its creator stays on the room page): cancelled.
    let (keeper, _) = s.guest_from(OTHER, "Wytrwały").await;
    let _page = ws_from(&s, "/ws/rooms/russian", Some(&keeper), OTHER).await;
    let r = s
        .http_from(
            OTHER,
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&keeper),
            Some(tournament_body()),
        )
        .await;
    let kept = r.json()["id"].as_str().unwrap().to_owned();
    // The attacker's second one: its creator has no page open.
    let away = created[1].1.clone();
    s.advance(301_000).await;
    cancelled(&s, &away).await;
    assert_eq!(tournament_status(&s, &kept).await["status"], "open");
    s.advance(3_300_000).await;
    cancelled(&s, &kept).await;

    // Eight boards would pass the creator's address cap of four tables.
    let (a, _) = s.guest_from(VICTIM, "Ala").await;
    let (b, _) = s.guest_from(VICTIM, "Bolek").await;
    let _pages = [
        ws_from(&s, "/ws/rooms/russian", Some(&a), VICTIM).await,
        ws_from(&s, "/ws/rooms/russian", Some(&b), VICTIM).await,
    ];
    let r = s
        .http_from(
            VICTIM,
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&a),
            Some(
                json!({"kind": "swiss", "rounds": 3, "minutes": 5, "increment": 0,
                        "max_players": 16, "bots": true}),
            ),
        )
        .await;
    let big = r.json()["id"].as_str().unwrap().to_owned();
    let r = s
        .http_from(
            VICTIM,
            "POST",
            &format!("/api/tournaments/{big}/join"),
            Some(&b),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s
        .http_from(
            VICTIM,
            "POST",
            &format!("/api/tournaments/{big}/start"),
            Some(&a),
            None,
        )
        .await;
    assert_eq!(r.error_code(), "too_many_tables", "{}", r.body);
    assert_eq!(s.server.state.tables.len(), 0, "no table was opened");
    s.stop().await;
    db.cleanup().await;
}

// ------------------------------------------------------------------------ 3: chat

/// Sends `n` chat messages on a room socket and waits for each one's fate; returns how
/// many went through (echoed back) and how many were refused.
async fn chat_burst(ws: &mut Ws, tag: &str, n: u64) -> (u64, u64) {
    for k in 0..n {
        ws.send(json!({"t": "chat", "text": format!("{tag}-{k}"), "ack": k}))
            .await;
    }
    let (mut ok, mut refused) = (0, 0);
    while ok + refused < n {
        let v = ws.recv().await;
        match v["t"].as_str() {
            Some("chat")
                if v["text"]
                    .as_str()
                    .is_some_and(|t| t.starts_with(&format!("{tag}-"))) =>
            {
                ok += 1;
            }
            Some("error") => {
                assert_eq!(v["code"], "rate_limited", "{v}");
                refused += 1;
            }
            _ => {}
        }
    }
    (ok, refused)
}

/// Thirty guests of one address share one chat budget in a room (before: 5 each, 150 in
/// a burst); the room keeps its last messages and no old ones; a closed table's chat
/// goes with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_shares_a_chat_budget_and_chat_is_kept_bounded() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    c.chat.chat_history = 10;
    c.chat.chat_sweep_secs = 1;
    let s = TestServer::start(c).await;
    let started = Instant::now();
    let mut sent = 0;
    for i in 0..30 {
        let (cookie, _) = s.guest_from(ATTACKER, &format!("Spam {i}")).await;
        let mut ws = ws_from(&s, "/ws/rooms/russian", Some(&cookie), ATTACKER).await;
        ws.recv_t("room").await;
        sent += chat_burst(&mut ws, &format!("s{i}"), 5).await.0;
    }
    let secs = started.elapsed().as_secs();
    println!("chat messages one address got through: {sent} of 150 in {secs} s");
    assert!(
        sent <= 10 + secs + 1,
        "{sent} messages in {secs} s from one address"
    );
    // Another address still talks.
    let (other, _) = s.guest_from(OTHER, "Inny").await;
    let mut ws = ws_from(&s, "/ws/rooms/russian", Some(&other), OTHER).await;
    ws.recv_t("room").await;
    assert_eq!(chat_burst(&mut ws, "other", 3).await, (3, 0));

    // Bounded: the last ten of the room, nothing older than the maximum age.
    let store = &s.server.state.core.store;
    let old = damka_store::ChatRow {
        id: "ancient".into(),
        scope: "room:english".into(),
        from_id: "x".into(),
        from_name: "Old".into(),
        text: "from long ago".into(),
        spectators: false,
        at: 1_000,
    };
    store.save_chat(&old).await.unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let room = store.chat_count("room:russian").await.unwrap();
        let ancient = store.chat_count("room:english").await.unwrap();
        if room <= 10 && ancient == 0 {
            break;
        }
        assert!(Instant::now() < deadline, "{room} kept, {ancient} ancient");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // A table's chat goes when the table closes.
    let (cookie, _) = s.guest_from(VICTIM, "Stolik").await;
    let id = table_from(&s, VICTIM, &cookie, json!({"minutes": 5, "increment": 0})).await;
    let mut t = ws_from(&s, &format!("/ws/tables/{id}"), Some(&cookie), VICTIM).await;
    t.state().await;
    t.send(json!({"t": "chat", "text": "anyone?"})).await;
    t.recv_t("chat").await;
    let scope = format!("table:{id}");
    assert_eq!(store.chat_count(&scope).await.unwrap(), 1);
    t.send(json!({"t": "stand"})).await;
    t.recv_t("stood").await;
    drop(t);
    let deadline = Instant::now() + Duration::from_secs(20);
    while s.server.state.tables.get(&id).is_some() || store.chat_count(&scope).await.unwrap() > 0 {
        assert!(
            Instant::now() < deadline,
            "the table or its chat is still there"
        );
        s.advance(31_000).await;
    }
    s.stop().await;
    db.cleanup().await;
}

// ------------------------------------------------------- 4: room events and churn

/// Five tables of one address change their seats twenty times each in a burst: a lobby
/// visitor gets a few `table_updated` per table, not one per change (before: 20 each).
/// Twenty guests opening and closing a room socket at once cost the visitor next to no
/// people events (before: a `people_joined` and a `people_left` each).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_visitor_gets_coalesced_events() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    c.limits.seat_changes_per_second = 0.0;
    c.limits.socket_opens_per_second = 0.0;
    let s = TestServer::start(c).await;
    let mut visitor = ws_from(&s, "/ws/rooms/russian", None, VICTIM).await;
    visitor.recv_t("room").await;
    let mut tables = Vec::new();
    let mut sockets = Vec::new();
    for g in 0..2 {
        let (cookie, _) = s.guest_from(ATTACKER, &format!("Krzesło {g}")).await;
        for _ in 0..[3, 2][g] {
            let id = table_from(
                &s,
                ATTACKER,
                &cookie,
                json!({"minutes": 5, "increment": 0, "seat": "white"}),
            )
            .await;
            let mut ws = ws_from(&s, &format!("/ws/tables/{id}"), Some(&cookie), ATTACKER).await;
            ws.state().await;
            tables.push(id);
            sockets.push(ws);
        }
    }
    // Let the tables' own `table_added` go by.
    visitor.drain_for(Duration::from_millis(500)).await;
    for ws in &mut sockets {
        for k in 0..10 {
            let _ = k;
            ws.send(json!({"t": "stand"})).await;
            ws.send(json!({"t": "sit", "seat": "white"})).await;
        }
    }
    // Every change went through (the table broadcasts each one).
    for ws in &mut sockets {
        let mut seated = 0;
        while seated < 10 {
            if ws.recv().await["t"] == "seated" {
                seated += 1;
            }
        }
    }
    let events = visitor.drain_for(Duration::from_millis(600)).await;
    let updates = events.iter().filter(|e| e["t"] == "table_updated").count();
    println!("table_updated a visitor got for 100 seat changes at 5 tables: {updates}");
    assert!(updates <= 5 * 4, "{updates} updates for 100 changes");
    assert!(updates >= 5, "every table's last state is announced");

    // Twenty people come and go at once.
    let mut guests = Vec::new();
    for i in 0..20 {
        guests.push(s.guest_from(ATTACKER, &format!("Wpad {i}")).await.0);
    }
    for cookie in &guests {
        let ws = ws_from(&s, "/ws/rooms/russian", Some(cookie), ATTACKER).await;
        drop(ws);
    }
    let events = visitor.drain_for(Duration::from_millis(800)).await;
    let people = events
        .iter()
        .filter(|e| e["t"] == "people_joined" || e["t"] == "people_left")
        .count();
    println!("people events a visitor got for 20 people coming and going: {people}");
    assert!(people <= 20, "{people} people events for 20 visits");
    s.stop().await;
    db.cleanup().await;
}

/// One address may open ten sockets a second (after a burst of fifty) and change seats
/// twice a second (after a burst of ten), over all its guests.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn socket_opens_and_seat_changes_are_limited_per_address() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    let mut open = Vec::new();
    let mut refused = 0;
    for _ in 0..80 {
        match Ws::connect_from(&s.addr, "/ws/rooms/russian", None, ATTACKER).await {
            Ok(ws) => open.push(ws),
            Err(status) => {
                assert_eq!(status, 429);
                refused += 1;
            }
        }
    }
    println!(
        "sockets opened in a burst: {}, refused: {refused}",
        open.len()
    );
    assert!(refused > 0 && open.len() < 70, "{} opened", open.len());
    // Another address is not affected.
    ws_from(&s, "/ws/rooms/russian", None, OTHER).await;
    drop(open);

    let (cookie, _) = s.guest_from(VICTIM, "Wiercipięta").await;
    let id = table_from(&s, VICTIM, &cookie, json!({"minutes": 5, "increment": 0})).await;
    let mut ws = ws_from(&s, &format!("/ws/tables/{id}"), Some(&cookie), VICTIM).await;
    let st = ws.recv_t("state").await;
    let seat = if st["seats"]["white"].is_null() {
        "black"
    } else {
        "white"
    };
    let mut limited = 0;
    for ack in 0..20 {
        let msg = if ack % 2 == 0 {
            json!({"t": "stand", "ack": ack})
        } else {
            json!({"t": "sit", "seat": seat, "ack": ack})
        };
        ws.send(msg).await;
    }
    for v in ws.drain_for(Duration::from_millis(500)).await {
        if v["t"] == "error" && v["code"] == "rate_limited" {
            limited += 1;
        }
    }
    assert!(limited >= 5, "{limited} of 20 seat changes limited");
    s.stop().await;
    db.cleanup().await;
}

// ------------------------------------------------------------------ 5: invitations

/// Six people invite one: she receives three; nobody can invite a person in a game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invitations_are_limited_per_invitee_and_spare_players() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    let (v, vic) = s.guest_from(VICTIM, "Wiktoria").await;
    let mut vroom = ws_from(&s, "/ws/rooms/russian", Some(&v), VICTIM).await;
    vroom.recv_t("room").await;
    let mut refused = 0;
    for i in 0..6 {
        let ip = format!("10.9.1.{i}");
        let (c, _) = s.guest_from(&ip, &format!("Zapraszający {i}")).await;
        let t = table_from(&s, &ip, &c, json!({"minutes": 5, "increment": 0})).await;
        let mut ws = ws_from(&s, "/ws/rooms/russian", Some(&c), &ip).await;
        ws.recv_t("room").await;
        ws.send(json!({"t": "invite", "to": vic["id"], "table": t, "ack": i}))
            .await;
        let v = ws.recv_t_or_error("invited").await;
        if v["t"] == "error" {
            assert_eq!(v["code"], "rate_limited", "{v}");
            refused += 1;
        }
    }
    let received = vroom
        .drain_for(Duration::from_millis(500))
        .await
        .iter()
        .filter(|e| e["t"] == "invited")
        .count();
    println!("invitations one person received from 6 inviters: {received}");
    assert_eq!((received, refused), (3, 3));

    // Bob plays a game (against the computer): no invitation reaches him.
    let (b, bob) = s.guest_from(OTHER, "Bob").await;
    let mut broom = ws_from(&s, "/ws/rooms/russian", Some(&b), OTHER).await;
    broom.recv_t("room").await;
    let bt = table_from(
        &s,
        OTHER,
        &b,
        json!({"minutes": 5, "increment": 0, "bot": 1, "seat": "white"}),
    )
    .await;
    let mut bws = ws_from(&s, &format!("/ws/tables/{bt}"), Some(&b), OTHER).await;
    bws.state().await;
    bws.send(json!({"t": "start"})).await;
    bws.recv_t("game_started").await;
    let (c, _) = s.guest_from("10.9.2.1", "Cezary").await;
    let ct = table_from(&s, "10.9.2.1", &c, json!({"minutes": 5, "increment": 0})).await;
    let mut cws = ws_from(&s, "/ws/rooms/russian", Some(&c), "10.9.2.1").await;
    cws.recv_t("room").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        cws.send(json!({"t": "invite", "to": bob["id"], "table": ct, "ack": 1}))
            .await;
        let v = cws.recv_t_or_error("invited").await;
        if v["t"] == "error" && v["code"] == "game_in_progress" {
            break;
        }
        // Until the room hears that Bob plays (a tick), he is only at a table.
        assert!(Instant::now() < deadline, "Bob was invited in a game: {v}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    s.stop().await;
    db.cleanup().await;
}

// ------------------------------------------------------------------------ 6: names

/// Look-alikes of other scripts, the computer's names and stacked marks are refused;
/// names that look alike in one room are tagged, Greek capitals included.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_cannot_pose_as_others_or_the_computer() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    for name in [
        "B\u{0585}lek",                  // Armenian o among Latin letters
        "\u{04BB}enio",                  // Cyrillic shha among Latin letters
        "\u{A4D0}\u{A4F3}\u{A4E1}",      // Lisu
        "\u{1D0F}\u{029F}\u{1D00}",      // small capitals
        "Computer level 3",              // the computer, in English
        "Komputer poziom 3",             // and in Polish
        "K0mputer",                      // with a zero
        "Zal\u{0363}\u{0364}\u{0365}go", // three marks on a letter
    ] {
        let r = s
            .http("POST", "/api/guest", None, Some(json!({"name": name})))
            .await;
        assert_eq!(r.status, 400, "{name}: {}", r.body);
        assert_eq!(r.error_code(), "invalid_name", "{name}");
    }
    // Greek capitals that read as a Latin name: both people tagged.
    let (a, _) = s.guest("HENIO").await;
    let (b, _) = s.guest("\u{0397}\u{0395}\u{039D}\u{0399}\u{039F}").await;
    let _pages = [
        ws_from(&s, "/ws/rooms/russian", Some(&a), VICTIM).await,
        ws_from(&s, "/ws/rooms/russian", Some(&b), OTHER).await,
    ];
    let mut visitor = s.room_ws("russian").await;
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let room = visitor.recv_t("room").await;
        let names: Vec<&str> = room["people"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|p| p["name"].as_str())
            .collect();
        if names.len() == 2 {
            assert!(names.iter().all(|n| n.contains(" #")), "{names:?}");
            break;
        }
        assert!(Instant::now() < deadline, "{names:?}");
        visitor = s.room_ws("russian").await;
    }
    s.stop().await;
    db.cleanup().await;
}

// -------------------------------------------------------------------- 7: chat text

/// Tags, interlinear annotation, musical format characters go; line and paragraph
/// separators become spaces; marks are bounded; a message of braille blanks is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_text_is_cleaned_by_category() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    let (cookie, _) = s.guest("Pisarz").await;
    let mut ws = ws_from(&s, "/ws/rooms/russian", Some(&cookie), VICTIM).await;
    ws.recv_t("room").await;
    let cases = [
        ("a\u{E0041}\u{E0042}b\u{FFF9}c\u{FFFB}d\u{1D173}e", "abcde"),
        ("one\u{2028}two\u{2029}three", "one two three"),
    ];
    for (sent, shown) in cases {
        ws.send(json!({"t": "chat", "text": sent})).await;
        assert_eq!(ws.recv_t("chat").await["text"], shown);
    }
    ws.send(json!({"t": "chat", "text": format!("x{}", "\u{0301}".repeat(290))}))
        .await;
    let zalgo = ws.recv_t("chat").await;
    assert_eq!(zalgo["text"].as_str().unwrap().chars().count(), 4);
    ws.send(json!({"t": "chat", "text": "\u{2800}\u{2800}\u{2800}", "ack": 9}))
        .await;
    let err = ws.recv_t_or_error("chat").await;
    assert_eq!(
        (&err["t"], &err["code"], &err["ack"]),
        (&json!("error"), &json!("bad_message"), &json!(9))
    );
    s.stop().await;
    db.cleanup().await;
}

// ------------------------------------------------------------------ 8: frames

/// A binary frame closes the socket (1003) instead of earning an error reply each; a
/// ping flood is closed (1008) after a few pongs instead of being answered in full.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn binary_frames_and_ping_floods_close_the_socket() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    let mut ws = s.room_ws("russian").await;
    ws.recv_t("room").await;
    ws.stream
        .send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(ws.closed().await, Some(1003));

    let (cookie, _) = s.guest("Pinger").await;
    let id = s
        .create_table(&cookie, "russian", json!({"minutes": 5, "increment": 0}))
        .await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    for path in ["/ws/rooms/russian".to_owned(), format!("/ws/tables/{id}")] {
        let mut ws = Ws::connect(&s.addr, &path, Some(&cookie), None).await;
        let (mut sink, mut stream) = ws.stream.split();
        let flood = tokio::spawn(async move {
            for _ in 0..2_000 {
                if sink.send(Message::Ping(vec![0; 100].into())).await.is_err() {
                    break;
                }
            }
        });
        let mut pongs = 0;
        let code = loop {
            match tokio::time::timeout(Duration::from_secs(10), stream.next()).await {
                Ok(Some(Ok(Message::Pong(_)))) => pongs += 1,
                Ok(Some(Ok(Message::Close(frame)))) => break frame.map(|f| u16::from(f.code)),
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(_)) | None) => break None,
                Err(_) => panic!("a ping flood on {path} was not closed ({pongs} pongs)"),
            }
        };
        flood.abort();
        println!("{path}: {pongs} pongs for a flood of 2,000 pings, closed with {code:?}");
        // Closed with 1008; or, when the flood was still being written as the server
        // closed, reset before the close frame could be read.
        assert!(matches!(code, Some(1008) | None), "{path}: {code:?}");
        assert!(pongs <= 60, "{path}: {pongs} pongs");
        ws = Ws::connect(&s.addr, "/ws/rooms/russian", None, None).await;
        ws.recv_t("room").await;
    }
    s.stop().await;
    db.cleanup().await;
}

// ---------------------------------------------------------------- 9: the rest

/// A guest renames a few times in a row, then once in a while (before: 2,709 renames a
/// second, each a database write).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renames_are_throttled() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    let (cookie, _) = s.guest("Zmienny").await;
    let mut statuses = Vec::new();
    for i in 0..10 {
        let r = s
            .http(
                "POST",
                "/api/guest",
                Some(&cookie),
                Some(json!({"name": format!("Zmienny {i}")})),
            )
            .await;
        statuses.push(r.status);
    }
    assert_eq!(&statuses[..3], &[200, 200, 200], "{statuses:?}");
    assert!(statuses[3..].iter().all(|&s| s == 429), "{statuses:?}");
    s.stop().await;
    db.cleanup().await;
}

/// The `text` log format writes no colour codes into a pipe or a file (only a terminal
/// gets them).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn text_logs_have_no_colour_codes_off_a_terminal() {
    use std::io::{BufRead, BufReader};
    let dir = std::env::temp_dir().join(format!("damka-ansi-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}/d.db", dir.display());
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["--bind", "127.0.0.1:0", "--database-url", &db])
        .args(["--log-format", "text", "--bitbase-pieces", "0"])
        .env_remove("NO_COLOR")
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("damka starts");
    let out = BufReader::new(child.stdout.take().unwrap());
    let mut lines = Vec::new();
    for line in out.lines() {
        let line = line.unwrap();
        let done = line.starts_with("damka listening on");
        lines.push(line);
        if done {
            break;
        }
    }
    child.kill().ok();
    child.wait().ok();
    std::fs::remove_dir_all(&dir).ok();
    assert!(lines.len() > 1, "{lines:?}");
    assert!(
        lines.iter().all(|l| !l.contains('\u{1b}')),
        "colour codes in a pipe: {lines:?}"
    );
}
