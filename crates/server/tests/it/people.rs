//! People in a room over real sockets: who is on the room page, at a table or playing,
//! kept current with `people_joined` / `people_left` / `people_updated`, counted in
//! `players`; names that look alike are tagged; English guests get English names.

use crate::common::{Backend, TestDb, TestServer, Ws, config, request};
use serde_json::{Value, json};

/// The next people event on `ws` (skipping table events, presence and chat).
async fn people_event(ws: &mut Ws) -> Value {
    people_event_noting(ws, &mut None).await
}

/// [`people_event`], noting the player count of each `presence` passed on the way (it is
/// coalesced: it may come before or after the people events of the same change).
async fn people_event_noting(ws: &mut Ws, players: &mut Option<u64>) -> Value {
    loop {
        let v = ws.recv().await;
        if v["t"] == "presence" {
            *players = v["players"].as_u64();
        }
        if v["t"].as_str().is_some_and(|t| t.starts_with("people_")) {
            return v;
        }
    }
}

async fn rooms_players(s: &TestServer, room: &str) -> Value {
    let rooms = s.http("GET", "/api/rooms", None, None).await.json();
    rooms
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == room)
        .unwrap()["players"]
        .clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn people_join_sit_play_and_leave() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut watch = s.room_ws("russian").await;
    let room = watch.recv_t("room").await;
    assert_eq!((&room["people"], &room["players"]), (&json!([]), &json!(0)));

    // Ala on the room page.
    let (a, ala) = s.guest("Ala").await;
    let mut ra = Ws::connect(&s.addr, "/ws/rooms/russian", Some(&a), None).await;
    let snap = ra.recv_t("room").await;
    assert_eq!(snap["people"][0]["name"], "Ala", "{snap}");
    let e = people_event(&mut watch).await;
    assert_eq!(e["t"], "people_joined");
    assert_eq!(
        e["person"],
        json!({"id": ala["id"], "name": "Ala", "where": "room", "table": null})
    );

    // Ala creates a table and opens it: at the table.
    let table = s
        .create_table(
            &a,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "white"}),
        )
        .await;
    let tid = table["id"].as_str().unwrap().to_owned();
    let mut wa = s.table_ws(&tid, Some(&a)).await;
    wa.state().await;
    let e = people_event(&mut watch).await;
    assert_eq!(
        (e["t"].as_str(), e["person"]["where"].as_str()),
        (Some("people_updated"), Some("table"))
    );
    assert_eq!(e["person"]["table"], tid.as_str());

    // Bolek comes straight to the table (no room socket): joins the room's people.
    let (b, bolek) = s.guest("Bolek").await;
    let mut wb = s.table_ws(&tid, Some(&b)).await;
    wb.state().await;
    let e = people_event(&mut watch).await;
    assert_eq!(e["t"], "people_joined");
    assert_eq!(
        e["person"],
        json!({"id": bolek["id"], "name": "Bolek", "where": "table", "table": tid})
    );
    assert_eq!(
        rooms_players(&s, "russian").await,
        2,
        "people at tables count"
    );

    // A game: both playing.
    wb.send(json!({"t": "sit", "seat": "black"})).await;
    wb.recv_t("seated").await;
    wa.send(json!({"t": "start"})).await;
    wb.send(json!({"t": "start"})).await;
    wa.recv_t("game_started").await;
    let mut playing = Vec::new();
    for _ in 0..2 {
        let e = people_event(&mut watch).await;
        assert_eq!(
            (e["t"].as_str(), e["person"]["where"].as_str()),
            (Some("people_updated"), Some("playing")),
            "{e}"
        );
        playing.push(e["person"]["id"].clone());
    }
    playing.sort_by_key(|v| v.as_str().unwrap().to_owned());
    let mut ids = vec![ala["id"].clone(), bolek["id"].clone()];
    ids.sort_by_key(|v| v.as_str().unwrap().to_owned());
    assert_eq!(playing, ids);
    // A late room socket sees everyone in its snapshot.
    let mut late = s.room_ws("russian").await;
    let snap = late.recv_t("room").await;
    assert_eq!(snap["players"], 2);
    let wheres: Vec<&str> = snap["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["where"].as_str().unwrap())
        .collect();
    assert_eq!(wheres, ["playing", "playing"]);

    // Bolek closes his table socket: he leaves the room's people.
    let mut players = None;
    wb.stream.close(None).await.ok();
    let e = people_event_noting(&mut watch, &mut players).await;
    assert_eq!(
        (e["t"].as_str(), &e["id"]),
        (Some("people_left"), &bolek["id"])
    );
    // Ala closes both: she leaves too.
    wa.stream.close(None).await.ok();
    let e = people_event_noting(&mut watch, &mut players).await;
    assert_eq!(
        (e["t"].as_str(), e["person"]["where"].as_str()),
        (Some("people_updated"), Some("room"))
    );
    ra.stream.close(None).await.ok();
    let e = people_event_noting(&mut watch, &mut players).await;
    assert_eq!(
        (e["t"].as_str(), &e["id"]),
        (Some("people_left"), &ala["id"])
    );
    // The count follows (presence is coalesced: under load its last change may have come
    // before the people events).
    while players != Some(0) {
        players = watch.recv_t("presence").await["players"].as_u64();
    }
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn look_alike_names_are_refused_or_tagged() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    // A word mixing Latin and Cyrillic is refused; full-width letters are normalised.
    let r = s
        .http(
            "POST",
            "/api/guest",
            None,
            Some(json!({"name": "B\u{043E}lek"})),
        )
        .await;
    assert_eq!(
        (r.status, r.error_code()),
        (400, "invalid_name".to_owned()),
        "{}",
        r.body
    );
    let (_, g) = s.guest("\u{FF21}la").await;
    assert_eq!(g["name"], "Ala");

    let (a, bolek) = s.guest("Bolek").await;
    let (b, b0lek) = s.guest("B0lek").await;
    let tag = |p: &Value| format!("#{}", &p["id"].as_str().unwrap()[..3]);
    let mut watch = s.room_ws("russian").await;
    watch.recv_t("room").await;
    let mut ra = Ws::connect(&s.addr, "/ws/rooms/russian", Some(&a), None).await;
    ra.recv_t("room").await;
    assert_eq!(people_event(&mut watch).await["person"]["name"], "Bolek");
    let mut rb = Ws::connect(&s.addr, "/ws/rooms/russian", Some(&b), None).await;
    let snap = rb.recv_t("room").await;
    let mut names: Vec<String> = snap["people"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_owned())
        .collect();
    names.sort();
    let mut want = vec![
        format!("B0lek {}", tag(&b0lek)),
        format!("Bolek {}", tag(&bolek)),
    ];
    want.sort();
    assert_eq!(names, want, "both tagged");
    // The watcher: Bolek renamed in place, B0lek joins tagged.
    let mut seen = Vec::new();
    for _ in 0..2 {
        let e = people_event(&mut watch).await;
        seen.push((
            e["t"].as_str().unwrap().to_owned(),
            e["person"]["name"].as_str().unwrap().to_owned(),
        ));
    }
    seen.sort();
    assert_eq!(
        seen,
        [
            ("people_joined".to_owned(), format!("B0lek {}", tag(&b0lek))),
            (
                "people_updated".to_owned(),
                format!("Bolek {}", tag(&bolek))
            ),
        ]
    );
    // Seats and chat show the tagged names too.
    let table = s
        .create_table(
            &b,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "black"}),
        )
        .await;
    assert_eq!(
        table["seats"]["black"]["name"],
        format!("B0lek {}", tag(&b0lek))
    );
    rb.send(json!({"t": "chat", "text": "hi"})).await;
    let c = ra.recv_t("chat").await;
    assert_eq!(c["from"]["name"], format!("B0lek {}", tag(&b0lek)));
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn english_guests_get_english_names() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    const EN: [&str; 12] = [
        "Quick", "Clever", "Quiet", "Brave", "Wise", "Merry", "Nimble", "Calm", "Sharp", "Bold",
        "Alert", "Red",
    ];
    for _ in 0..8 {
        let r = request(
            &s.addr,
            "POST",
            "/api/guest",
            None,
            None,
            &[("Accept-Language", "en-GB,en;q=0.9")],
        )
        .await;
        let name = r.json()["name"].as_str().unwrap().to_owned();
        let first = name.split(' ').next().unwrap();
        assert!(first == "Guest" || EN.contains(&first), "{name}");
        let r = request(
            &s.addr,
            "POST",
            "/api/guest",
            None,
            None,
            &[("Accept-Language", "pl-PL,pl;q=0.9,en;q=0.5")],
        )
        .await;
        let name = r.json()["name"].as_str().unwrap().to_owned();
        let first = name.split(' ').next().unwrap();
        assert!(first != "Guest" && !EN.contains(&first), "{name}");
    }
    s.stop().await;
    db.cleanup().await;
}
