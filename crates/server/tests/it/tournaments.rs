//! Tournaments over real sockets: a 4-player round-robin and a 7-player Swiss played to
//! the end by clients that move, resign and agree draws, with the standings and
//! tie-breaks checked against values worked out by hand (in the comments); a restart in
//! the middle of a round; a player who does not make their first move, one who leaves
//! (the rest forfeited); the computer filling places (and playing itself); a start at a
//! set time; what a tournament table refuses; a round-robin of micro-matches from a
//! ballot, restarted between the games of its matches.

use damka_protocol::micro_match::MatchStatus;
use damka_protocol::{ErrorCode, TableStatus};
use std::collections::HashMap;

use crate::common::{Backend, TestDb, TestServer, Ws, config};
use serde_json::{Value, json};

/// A guest with a room socket open (where `tournament_game` arrives).
struct Entrant {
    name: &'static str,
    cookie: String,
    id: String,
    room: Ws,
}

async fn entrant(s: &TestServer, name: &'static str) -> Entrant {
    let (cookie, me) = s.guest(name).await;
    let room = room_socket(s, &cookie).await;
    Entrant {
        name,
        cookie,
        id: me["id"].as_str().unwrap().to_owned(),
        room,
    }
}

async fn room_socket(s: &TestServer, cookie: &str) -> Ws {
    let mut room = Ws::connect(&s.addr, "/ws/rooms/russian", Some(cookie), None).await;
    room.recv_t("room").await;
    room
}

async fn create(s: &TestServer, by: &Entrant, body: Value) -> Value {
    let r = s
        .http(
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&by.cookie),
            Some(body),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.json()
}

async fn act(s: &TestServer, by: &Entrant, id: &str, what: &str) -> Value {
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{id}/{what}"),
            Some(&by.cookie),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{what}: {}", r.body);
    r.json()
}

async fn tournament(s: &TestServer, id: &str) -> Value {
    let r = s
        .http("GET", &format!("/api/tournaments/{id}"), None, None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

/// Waits on a room socket until tournament `id` is over; returns the tournament.
async fn finished(s: &TestServer, room: &mut Ws, id: &str) -> Value {
    loop {
        let ev = room.recv_t("tournament_updated").await;
        if ev["tournament"]["id"] == id && ev["tournament"]["status"] == "over" {
            return tournament(s, id).await;
        }
    }
}

/// The table of each of `who`'s next game, from their `tournament_game`.
async fn sent_to_tables(es: &mut [Entrant], who: &[usize], round: u64) -> HashMap<usize, String> {
    let mut tables = HashMap::new();
    for &i in who {
        let e = &mut es[i];
        let msg = e.room.recv_t("tournament_game").await;
        assert_eq!(msg["to"], e.id.as_str(), "only the paired player hears it");
        assert_eq!(msg["round"], round, "{}: {msg}", e.name);
        tables.insert(i, msg["table"].as_str().unwrap().to_owned());
    }
    tables
}

/// Both players at `table`: their sockets and the `state` White saw.
async fn sit_down(
    s: &TestServer,
    table: &str,
    white: &Entrant,
    black: &Entrant,
) -> (Ws, Ws, Value) {
    let mut w = s.table_ws(table, Some(&white.cookie)).await;
    let st = w.recv_t("state").await;
    assert_eq!(st["status"], "playing", "the game is started: {st}");
    assert_eq!(st["white"]["id"], white.id.as_str(), "{st}");
    assert_eq!(st["black"]["id"], black.id.as_str(), "{st}");
    assert!(st["table"]["tournament"]["id"].is_string(), "{st}");
    let mut b = s.table_ws(table, Some(&black.cookie)).await;
    b.state().await;
    (w, b, st)
}

/// Plays ply `ply` (the first legal move of `last`) from `mover`; returns the `move`.
async fn one_move(mover: &mut Ws, other: &mut Ws, last: &Value, ply: u64) -> Value {
    let mv = last["legal"][0].clone();
    mover
        .send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
        .await;
    mover.recv_t("ack").await;
    mover.moved().await;
    other.recv_t("move").await
}

/// Ends a game with `result` (`white`, `black`: the other resigns; `draw`: agreed).
async fn end(w: &mut Ws, b: &mut Ws, result: &str) -> Value {
    match result {
        "white" => b.send(json!({"t": "resign"})).await,
        "black" => w.send(json!({"t": "resign"})).await,
        _ => {
            w.send(json!({"t": "draw_offer"})).await;
            b.recv_t("draw_offered").await;
            b.send(json!({"t": "draw_accept"})).await;
        }
    }
    let over = w.recv_t("game_over").await;
    b.recv_t("game_over").await;
    let want = if result == "draw" { "draw" } else { result };
    assert_eq!(over["result"], want, "{over}");
    over
}

/// Plays a whole game at `table`: both first moves, then `result`.
async fn play(s: &TestServer, table: &str, white: &Entrant, black: &Entrant, result: &str) {
    let (mut w, mut b, st) = sit_down(s, table, white, black).await;
    let m1 = one_move(&mut w, &mut b, &st, 1).await;
    one_move(&mut b, &mut w, &m1, 2).await;
    end(&mut w, &mut b, result).await;
}

/// The boards of round `n` as (white name, black name), and the bye's name.
fn boards(
    t: &Value,
    n: usize,
    names: &HashMap<String, &'static str>,
) -> (Vec<(String, String)>, Option<String>) {
    let r = &t["rounds"][n - 1];
    assert_eq!(r["number"], n as u64);
    let name = |p: &Value| names[p["id"].as_str().unwrap()].to_owned();
    let boards = r["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (name(&p["white"]), name(&p["black"])))
        .collect();
    let bye = r["bye"].as_object().map(|_| name(&r["bye"]));
    (boards, bye)
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(w, b)| ((*w).to_owned(), (*b).to_owned()))
        .collect()
}

/// Checks the standings: (name, rank, points, games, Buchholz, Sonneborn-Berger, wins).
#[allow(clippy::type_complexity)]
fn check_standings(
    t: &Value,
    names: &HashMap<String, &'static str>,
    want: &[(&str, u64, u64, u64, u64, f64, u64)],
) {
    let got: Vec<(String, u64, u64, u64, u64, f64, u64)> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            (
                names[l["player"]["id"].as_str().unwrap()].to_owned(),
                l["rank"].as_u64().unwrap(),
                l["points"].as_u64().unwrap(),
                l["games"].as_u64().unwrap(),
                l["tiebreaks"]["buchholz"].as_u64().unwrap(),
                l["tiebreaks"]["sonneborn_berger"].as_f64().unwrap(),
                l["tiebreaks"]["wins"].as_u64().unwrap(),
            )
        })
        .collect();
    let want: Vec<(String, u64, u64, u64, u64, f64, u64)> = want
        .iter()
        .map(|&(n, r, p, g, b, sb, w)| (n.to_owned(), r, p, g, b, sb, w))
        .collect();
    assert_eq!(got, want, "{}", t["standings"]);
}

fn names_of(es: &[Entrant]) -> HashMap<String, &'static str> {
    es.iter().map(|e| (e.id.clone(), e.name)).collect()
}

async fn a_four_player_round_robin_is_played_to_the_end(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut observer = s.room_ws("russian").await;
    observer.recv_t("room").await;
    let mut es = Vec::new();
    for name in ["Ala", "Bolek", "Celina", "Darek"] {
        es.push(entrant(&s, name).await);
    }
    let names = names_of(&es);
    let t = create(
        &s,
        &es[0],
        json!({"kind": "round_robin", "minutes": 5, "increment": 3, "max_players": 4,
               "starts_in_secs": null, "bots": false, "name": "Tuesday club"}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_owned();
    assert_eq!(t["status"], "open");
    assert_eq!(
        t["players"][0]["id"],
        es[0].id.as_str(),
        "the creator is in"
    );
    let added = observer.recv_t("tournament_added").await;
    assert_eq!(added["tournament"]["id"], id.as_str());
    // The room's snapshot lists it too.
    let mut late = s.room_ws("russian").await;
    let snapshot = late.recv_t("room").await;
    assert_eq!(snapshot["tournaments"][0]["id"], id.as_str(), "{snapshot}");
    act(&s, &es[1], &id, "join").await;
    act(&s, &es[2], &id, "join").await;
    // Leaving before the start frees the place; joining again takes it back.
    let left = act(&s, &es[2], &id, "leave").await;
    assert_eq!(left["players"].as_array().unwrap().len(), 2);
    act(&s, &es[2], &id, "join").await;
    let listed = s
        .http("GET", "/api/rooms/russian/tournaments", None, None)
        .await
        .json();
    assert_eq!(
        listed[0]["players"].as_array().unwrap().len(),
        3,
        "{listed}"
    );
    // The fourth fills it: it starts at once, round 1 paired.
    let started = act(&s, &es[3], &id, "join").await;
    assert_eq!(started["status"], "running", "{started}");
    assert_eq!(started["total_rounds"], 3);
    assert_eq!(started["round"], 1);
    // Berger tables for four (seeds in joining order): 1-4 2-3 / 4-3 1-2 / 2-4 3-1.
    // Results: A-D draw, B beats C; D beats C, A beats B; B beats D, C beats A.
    let schedule: [&[(&str, &str, &str)]; 3] = [
        &[("Ala", "Darek", "draw"), ("Bolek", "Celina", "white")],
        &[("Darek", "Celina", "white"), ("Ala", "Bolek", "white")],
        &[("Bolek", "Darek", "white"), ("Celina", "Ala", "white")],
    ];
    let index: HashMap<&str, usize> = es.iter().enumerate().map(|(i, e)| (e.name, i)).collect();
    let mut a_b_game = String::new();
    for (r, games) in schedule.iter().enumerate() {
        let round = r as u64 + 1;
        let tables = sent_to_tables(&mut es, &[0, 1, 2, 3], round).await;
        let t = tournament(&s, &id).await;
        let (got, bye) = boards(&t, r + 1, &names);
        let want: Vec<(&str, &str)> = games.iter().map(|g| (g.0, g.1)).collect();
        assert_eq!(got, pairs(&want), "round {round}");
        assert_eq!(bye, None);
        for &(white, black, result) in games.iter() {
            let (w, b) = (index[white], index[black]);
            assert_eq!(tables[&w], tables[&b], "{white} and {black} at one table");
            let table = s
                .http("GET", &format!("/api/tables/{}", tables[&w]), None, None)
                .await
                .json();
            assert_eq!(table["tournament"]["id"], id.as_str(), "{table}");
            assert_eq!(table["tournament"]["round"], round);
            play(&s, &tables[&w], &es[w], &es[b], result).await;
            if (white, black) == ("Ala", "Bolek") {
                let t = tournament(&s, &id).await;
                a_b_game = t["rounds"][1]["pairings"][1]["game"]
                    .as_str()
                    .unwrap()
                    .to_owned();
            }
        }
    }
    // The room hears the end.
    loop {
        let ev = observer.recv_t("tournament_updated").await;
        if ev["tournament"]["status"] == "over" {
            assert_eq!(ev["tournament"]["leader"]["id"], es[1].id.as_str());
            break;
        }
    }
    assert!(
        !observer.log.iter().any(|m| m["t"] == "tournament_game"),
        "a room socket without a session never gets someone's tournament_game"
    );
    let t = tournament(&s, &id).await;
    assert_eq!(t["status"], "over");
    // Points: A 1+2+0 = 3, B 2+0+2 = 4, C 0+0+2 = 2, D 1+2+0 = 3.
    // Sonneborn-Berger: A beat B (4), drew D (3/2): 5.5; B beat C (2) and D (3): 5;
    // C beat A (3): 3; D drew A (1.5), beat C (2): 3.5. A and D tie on 3: A first on SB.
    // Buchholz: A 3+4+2 = 9, B 2+3+3 = 8, C 4+3+3 = 10, D 3+2+4 = 9.
    check_standings(
        &t,
        &names,
        &[
            ("Bolek", 1, 4, 3, 8, 5.0, 2),
            ("Ala", 2, 3, 3, 9, 5.5, 1),
            ("Darek", 3, 3, 3, 9, 3.5, 1),
            ("Celina", 4, 2, 3, 10, 3.0, 1),
        ],
    );
    // Tournament games are ordinary stored games, with the tournament in their PDN.
    let g = s
        .http("GET", &format!("/api/games/{a_b_game}"), None, None)
        .await
        .json();
    assert_eq!(g["result"], "white");
    assert_eq!(g["tournament"]["id"], id.as_str(), "{g}");
    assert_eq!(g["tournament"]["round"], 2);
    let pdn = s
        .http("GET", &format!("/api/games/{a_b_game}/pdn"), None, None)
        .await;
    assert!(
        pdn.body.contains("[Event \"Tuesday club\"]"),
        "{}",
        pdn.body
    );
    assert!(pdn.body.contains("[Round \"2\"]"), "{}", pdn.body);
    // Over: still there after a restart, and no longer joinable.
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let again = tournament(&s, &id).await;
    assert_eq!(again["standings"], t["standings"]);
    assert_eq!(again["rounds"], t["rounds"]);
    let listed = s
        .http("GET", "/api/rooms/russian/tournaments", None, None)
        .await
        .json();
    assert_eq!(listed[0]["status"], "over", "{listed}");
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Some(&es[0].cookie),
            None,
        )
        .await;
    assert_eq!(r.error_code(), "bad_message", "{}", r.body);
    s.stop().await;
    db.cleanup().await;
}

/// The result of a Swiss game in this test: the lower seed (earlier joiner) wins.
fn lower_seed_wins(white: &str, black: &str) -> &'static str {
    if white < black { "white" } else { "black" }
}

async fn a_seven_player_swiss_survives_a_restart_and_is_played_to_the_end(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut es = Vec::new();
    for name in ["Ada", "Bea", "Cyd", "Dan", "Eve", "Fay", "Gus"] {
        es.push(entrant(&s, name).await);
    }
    let names = names_of(&es);
    let index: HashMap<&str, usize> = es.iter().enumerate().map(|(i, e)| (e.name, i)).collect();
    let t = create(
        &s,
        &es[0],
        json!({"kind": "swiss", "rounds": 4, "minutes": 3, "increment": 2, "max_players": 7}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_owned();
    for e in &es[1..] {
        act(&s, e, &id, "join").await;
    }
    // Worked out by hand (docs/tournaments.md): ranked by points then seed; the bye to
    // the lowest-ranked player without one; from the top, the closest score, the colour
    // each is due, then S1 against S2 of the score group.
    // R1: A-D E-B C-F, bye G.  (all 0; A meets the middle of the group)
    // R2: B-A G-C D-E, bye F.  (A meets B: both get their colour; C-G on 2, D-E on 0)
    // R3: A-C F-B D-G, bye E.  (A and C on 4; B meets F for the colours)
    // R4: E-A C-B G-F, bye D.  (E, F, G had byes; C must have White)
    let schedule: [(&[(&str, &str)], &str); 4] = [
        (&[("Ada", "Dan"), ("Eve", "Bea"), ("Cyd", "Fay")], "Gus"),
        (&[("Bea", "Ada"), ("Gus", "Cyd"), ("Dan", "Eve")], "Fay"),
        (&[("Ada", "Cyd"), ("Fay", "Bea"), ("Dan", "Gus")], "Eve"),
        (&[("Eve", "Ada"), ("Cyd", "Bea"), ("Gus", "Fay")], "Dan"),
    ];
    let mut s = s;
    for (r, (games, bye)) in schedule.iter().enumerate() {
        let round = r as u64 + 1;
        let playing: Vec<usize> = games
            .iter()
            .flat_map(|(w, b)| [index[w], index[b]])
            .collect();
        let tables = sent_to_tables(&mut es, &playing, round).await;
        let t = tournament(&s, &id).await;
        let (got, got_bye) = boards(&t, r + 1, &names);
        assert_eq!(got, pairs(games), "round {round}");
        assert_eq!(got_bye.as_deref(), Some(*bye), "round {round}");
        for (k, &(white, black)) in games.iter().enumerate() {
            let (w, b) = (index[white], index[black]);
            let result = lower_seed_wins(white, black);
            if round == 3 && k == 1 {
                // In the middle of round 3 (one game over, this one begun, one not
                // begun) the server restarts.
                let (mut ws, mut bs, st) = sit_down(&s, &tables[&w], &es[w], &es[b]).await;
                one_move(&mut ws, &mut bs, &st, 1).await;
                drop((ws, bs));
                s.stop().await;
                s = TestServer::start(config(&db)).await;
                for e in es.iter_mut() {
                    e.room = room_socket(&s, &e.cookie).await;
                }
                let t = tournament(&s, &id).await;
                assert_eq!(t["status"], "running");
                assert_eq!(t["round"], 3);
                let results: Vec<&Value> = t["rounds"][2]["pairings"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| &p["result"])
                    .collect();
                assert_eq!(results, [&json!("white"), &Value::Null, &Value::Null]);
                let (mut ws, mut bs, st) = sit_down(&s, &tables[&w], &es[w], &es[b]).await;
                assert_eq!(st["moves"].as_array().unwrap().len(), 1, "the move is kept");
                let m2 = one_move(&mut bs, &mut ws, &st, 2).await;
                assert_eq!(m2["ply"], 2);
                end(&mut ws, &mut bs, result).await;
                continue;
            }
            play(&s, &tables[&w], &es[w], &es[b], result).await;
        }
    }
    let t = finished(&s, &mut es[0].room, &id).await;
    assert_eq!(t["rounds"].as_array().unwrap().len(), 4);
    // Points: A 8; B 6 (lost only to A); D 6 (beat E and G, a bye); C 4; F 4 (a bye, beat
    // G); E 2 and G 2 (their byes).
    // Buchholz (opponents' points, a bye adds nothing): A D6+B6+C4+E2 = 18, B E2+A8+F4+C4
    // = 18, D A8+E2+G2 = 12, C F4+G2+A8+B6 = 20, F C4+B6+G2 = 12, E B6+D6+A8 = 20,
    // G C4+D6+F4 = 14. It splits B/D, C/F and E/G.
    // Sonneborn-Berger (beaten opponents' points): A 6+6+4+2 = 18, B 2+4+4 = 10,
    // D 2+2 = 4, C 4+2 = 6, F 2, E 0, G 0.
    check_standings(
        &t,
        &names,
        &[
            ("Ada", 1, 8, 4, 18, 18.0, 4),
            ("Bea", 2, 6, 4, 18, 10.0, 3),
            ("Dan", 3, 6, 3, 12, 4.0, 2),
            ("Cyd", 4, 4, 4, 20, 6.0, 2),
            ("Fay", 5, 4, 3, 12, 2.0, 1),
            ("Eve", 6, 2, 3, 20, 0.0, 0),
            ("Gus", 7, 2, 3, 14, 0.0, 0),
        ],
    );
    s.stop().await;
    db.cleanup().await;
}

async fn no_show_and_leaving_lose_and_forfeit_the_rest(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut es = Vec::new();
    for name in ["Ala", "Bolek", "Celina", "Darek"] {
        es.push(entrant(&s, name).await);
    }
    let names = names_of(&es);
    let t = create(
        &s,
        &es[0],
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_owned();
    for e in &es[1..] {
        act(&s, e, &id, "join").await;
    }
    // Round 1: Ala-Darek and Bolek-Celina.
    let tables = sent_to_tables(&mut es, &[0, 1, 2, 3], 1).await;
    let (mut a, mut d, st) = sit_down(&s, &tables[&0], &es[0], &es[3]).await;
    // A tournament table plays only its game: no abort, no takeback, no seats.
    a.send(json!({"t": "abort"})).await;
    assert_eq!(a.error_code().await, ErrorCode::GameInProgress);
    a.send(json!({"t": "stand"})).await;
    assert_eq!(a.error_code().await, ErrorCode::BadMessage);
    let m1 = one_move(&mut a, &mut d, &st, 1).await;
    one_move(&mut d, &mut a, &m1, 2).await;
    d.send(json!({"t": "takeback_offer"})).await;
    assert_eq!(d.error_code().await, ErrorCode::BadMessage);
    // Darek leaves the tournament during his game: it is resigned for him.
    let left = act(&s, &es[3], &id, "leave").await;
    assert!(
        left["standings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|l| l["withdrawn"] == true),
        "{left}"
    );
    let over = a.recv_t("game_over").await;
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("white"), Some("resign"))
    );
    // No rematch at a tournament table.
    a.send(json!({"t": "start"})).await;
    assert_eq!(a.error_code().await, ErrorCode::BadMessage);
    // Bolek (White) never makes his first move: when the window closes he loses.
    let (mut b, mut c, _) = sit_down(&s, &tables[&1], &es[1], &es[2]).await;
    s.advance(30_001).await;
    let over = c.recv_t("game_over").await;
    assert_eq!(
        (over["result"].as_str(), over["reason"].as_str()),
        (Some("black"), Some("abandoned")),
        "{over}"
    );
    b.recv_t("game_over").await;
    // Round 2: Darek-Celina is forfeited (no table), Ala-Bolek is played.
    let tables = sent_to_tables(&mut es, &[0, 1], 2).await;
    let t = tournament(&s, &id).await;
    let forfeit = &t["rounds"][1]["pairings"][0];
    assert_eq!(forfeit["white"]["id"], es[3].id.as_str());
    assert_eq!(
        (
            forfeit["table"].clone(),
            forfeit["result"].clone(),
            forfeit["reason"].clone()
        ),
        (Value::Null, json!("black"), json!("forfeit"))
    );
    play(&s, &tables[&0], &es[0], &es[1], "white").await;
    // Round 3: Bolek-Darek forfeited, Celina-Ala drawn.
    let tables = sent_to_tables(&mut es, &[2, 0], 3).await;
    play(&s, &tables[&2], &es[2], &es[0], "draw").await;
    let t = finished(&s, &mut es[0].room, &id).await;
    assert_eq!(t["rounds"][2]["pairings"][0]["reason"], "forfeit");
    // Ala: beat Darek (0), beat Bolek (2), drew Celina (5): 5 points, SB 2 + 2.5.
    // Celina: beat Bolek (2) by his no-show, Darek (0) by forfeit, drew Ala (5): the same.
    // Equal on points, SB and wins: they share first place.
    check_standings(
        &t,
        &names,
        &[
            ("Ala", 1, 5, 3, 7, 4.5, 2),
            ("Celina", 1, 5, 3, 7, 4.5, 2),
            ("Bolek", 3, 2, 3, 10, 0.0, 1),
            ("Darek", 4, 0, 3, 12, 0.0, 0),
        ],
    );
    assert_eq!(t["standings"][3]["withdrawn"], true);
    s.stop().await;
    db.cleanup().await;
}

/// An account entering tournaments.
async fn account_entrant(s: &TestServer, name: &'static str) -> Entrant {
    let (cookie, me) = crate::accounts::account(s, name, "a long password").await;
    let room = room_socket(s, &cookie).await;
    Entrant {
        name,
        cookie,
        id: me["id"].as_str().unwrap().to_owned(),
        room,
    }
}

/// A rated round-robin shows every player's rating as it stands (issue 34, item 8): the
/// second round's seats after the first round's rated games, and the tournament after a
/// restart (its stored entrants carry no rating: they were shown without any).
async fn a_rated_tournament_shows_ratings_as_they_stand_across_a_restart(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut s = TestServer::start(config(&db)).await;
    let mut es = Vec::new();
    for name in ["Ada", "Bea", "Cyd", "Dan"] {
        es.push(account_entrant(&s, name).await);
    }
    let body = json!({"kind": "round_robin", "minutes": 3, "increment": 2, "max_players": 4,
                      "rated": true});
    let id = create(&s, &es[0], body).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    // The fourth to join fills it: it starts.
    for e in &es[1..] {
        act(&s, e, &id, "join").await;
    }
    let index: HashMap<String, usize> = es
        .iter()
        .enumerate()
        .map(|(i, e)| (e.id.clone(), i))
        .collect();
    let round_boards = |t: &Value, n: usize| -> Vec<(usize, usize)> {
        t["rounds"][n - 1]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| {
                (
                    index[p["white"]["id"].as_str().unwrap()],
                    index[p["black"]["id"].as_str().unwrap()],
                )
            })
            .collect()
    };
    // Round 1: White wins both games (rated: both players moved).
    let tables = sent_to_tables(&mut es, &[0, 1, 2, 3], 1).await;
    let t = tournament(&s, &id).await;
    for (w, b) in round_boards(&t, 1) {
        play(&s, &tables[&w], &es[w], &es[b], "white").await;
    }
    // Round 2's seats show the ratings after round 1.
    let tables = sent_to_tables(&mut es, &[0, 1, 2, 3], 2).await;
    let t = tournament(&s, &id).await;
    for (w, b) in round_boards(&t, 2) {
        let (_, _, st) = sit_down(&s, &tables[&w], &es[w], &es[b]).await;
        for (side, i) in [("white", w), ("black", b)] {
            let me = s
                .http("GET", "/api/me", Some(&es[i].cookie), None)
                .await
                .json();
            let now = &me["ratings"]["russian"]["rating"];
            assert_ne!(now, 1500, "{} played a rated game: {me}", es[i].name);
            assert_eq!(&st["seats"][side]["rating"], now, "{side}: {st}");
        }
    }
    // A restart in round 2: the tournament, its players and standings keep showing them.
    s.stop().await;
    s = TestServer::start(config(&db)).await;
    let t = tournament(&s, &id).await;
    assert_eq!(t["round"], 2, "{t}");
    for e in &es {
        let me = s.http("GET", "/api/me", Some(&e.cookie), None).await.json();
        let now = &me["ratings"]["russian"]["rating"];
        let player = t["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["id"] == e.id.as_str())
            .unwrap();
        assert_eq!(&player["rating"], now, "{}: {t}", e.name);
        assert_eq!(player["account"], true);
        let line = t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|l| l["player"]["id"] == e.id.as_str())
            .unwrap();
        assert_eq!(&line["player"]["rating"], now, "{}", t["standings"]);
    }
    s.stop().await;
    db.cleanup().await;
}

/// The ballot of the micro-match tournament below (an FMJD-64 opening of Russian).
const BALLOT: &str = "fmjd64-07-13";

/// The micro-match break of the test configuration (the server's default).
const MATCH_BREAK_MS: u64 = 15_000;

/// A pairing's second game at its table: both players see it start, colours swapped;
/// returns their sockets (its White's first) and the `game_started`.
async fn second_game(
    mut first_white: Ws,
    mut first_black: Ws,
    white: &Entrant,
    black: &Entrant,
) -> (Ws, Ws, Value) {
    let started = first_white.recv_t("game_started").await;
    assert_eq!(first_black.recv_t("game_started").await, started);
    assert_eq!(
        started["white"]["id"],
        black.id.as_str(),
        "swapped: {started}"
    );
    assert_eq!(
        started["black"]["id"],
        white.id.as_str(),
        "swapped: {started}"
    );
    assert_eq!(started["ballot"]["id"], BALLOT, "{started}");
    assert_eq!(started["match"]["games"].as_array().unwrap().len(), 2);
    (first_black, first_white, started)
}

/// Plays the first moves of a started game, then ends it with `result`.
async fn finish_game(w: &mut Ws, b: &mut Ws, started: &Value, result: &str) -> Value {
    let m1 = one_move(w, b, started, 1).await;
    one_move(b, w, &m1, 2).await;
    end(w, b, result).await
}

/// Round `n`'s boards as (game, match game, result, reason), and its opening's id.
fn micro_boards(t: &Value, n: usize) -> (Vec<(Value, Value, Value, Value)>, Value) {
    let r = &t["rounds"][n - 1];
    let boards = r["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["game"].clone(),
                p["match_game"].clone(),
                p["result"].clone(),
                p["reason"].clone(),
            )
        })
        .collect();
    (boards, r["opening"]["id"].clone())
}

/// A round-robin of micro-matches from one FMJD-64 ballot, over real sockets: each
/// pairing plays two games at one table from the ballot, colours swapped; a restart
/// between the two games of every match of round 1 resumes them; a player who leaves
/// during a match loses its second game (forfeited, no game) and both games of the
/// next match; the standings count games (worked out by hand below).
async fn a_micro_match_round_robin_from_a_ballot(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let mut es = Vec::new();
    for name in ["Ala", "Bolek", "Celina", "Darek"] {
        es.push(entrant(&s, name).await);
    }
    let names = names_of(&es);
    let t = create(
        &s,
        &es[0],
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4,
               "ballot": BALLOT, "micro_match": true}),
    )
    .await;
    assert_eq!(
        (&t["ballot"], &t["micro_match"]),
        (&json!(BALLOT), &json!(true))
    );
    let id = t["id"].as_str().unwrap().to_owned();
    for e in &es[1..] {
        act(&s, e, &id, "join").await;
    }

    // Round 1: Ala-Darek and Bolek-Celina, each a match at one table.
    let tables = sent_to_tables(&mut es, &[0, 1, 2, 3], 1).await;
    let t = tournament(&s, &id).await;
    let (boards, opening) = micro_boards(&t, 1);
    assert_eq!(opening, BALLOT);
    assert_eq!(boards.len(), 4, "two games per pairing: {}", t["rounds"][0]);
    for k in [0, 2] {
        let g1 = boards[k].0.as_str().unwrap();
        assert_eq!(boards[k + 1].0, format!("{g1}b"), "the second game's id");
        assert_eq!((&boards[k].1, &boards[k + 1].1), (&json!(1), &json!(2)));
    }
    let pairings = &t["rounds"][0]["pairings"];
    assert_eq!(
        pairings[1]["white"]["id"],
        es[3].id.as_str(),
        "Darek has White in game 2"
    );
    assert_eq!(pairings[2]["white"]["id"], es[1].id.as_str());
    // Ala beats Darek, Bolek beats Celina, both with White.
    let (mut a, mut d, st) = sit_down(&s, &tables[&0], &es[0], &es[3]).await;
    assert_eq!(st["ballot"]["id"], BALLOT, "{st}");
    assert_eq!(st["options"]["micro_match"], true, "{st}");
    let over = finish_game(&mut a, &mut d, &st, "white").await;
    assert_eq!(over["match"]["status"], "break", "{over}");
    let (mut b, mut c, st) = sit_down(&s, &tables[&1], &es[1], &es[2]).await;
    finish_game(&mut b, &mut c, &st, "white").await;
    // Both first games reach the tournament before the restart (else it reads them
    // from the store when it comes back: the same).
    loop {
        let t = tournament(&s, &id).await;
        let results: Vec<Value> = micro_boards(&t, 1).0.into_iter().map(|b| b.2).collect();
        if results == [json!("white"), Value::Null, json!("white"), Value::Null] {
            break;
        }
        es[0].room.recv_t("tournament_updated").await;
    }
    drop((a, d, b, c));
    s.stop().await;

    // Restarted between the games: both matches come back in their break.
    let s = TestServer::start(config(&db)).await;
    for e in es.iter_mut() {
        e.room = room_socket(&s, &e.cookie).await;
    }
    let t = tournament(&s, &id).await;
    let results: Vec<Value> = micro_boards(&t, 1).0.into_iter().map(|b| b.2).collect();
    assert_eq!(
        results,
        [json!("white"), Value::Null, json!("white"), Value::Null]
    );
    let mut sockets = Vec::new();
    for (table, white, black) in [(&tables[&0], 0, 3), (&tables[&1], 1, 2)] {
        let mut w = s.table_ws(table, Some(&es[white].cookie)).await;
        let st = w.state().await;
        assert_eq!(st.status, TableStatus::Over, "{st:?}");
        assert_eq!(
            st.micro_match.as_ref().map(|m| m.status),
            Some(MatchStatus::Break),
            "{st:?}"
        );
        assert_eq!(
            st.table.tournament.as_ref().map(|t| t.id.as_str()),
            Some(id.as_str()),
            "{st:?}"
        );
        let mut b = s.table_ws(table, Some(&es[black].cookie)).await;
        b.state().await;
        sockets.push((w, b));
    }
    s.advance(MATCH_BREAK_MS).await;
    let (bc, ad) = (sockets.pop().unwrap(), sockets.pop().unwrap());
    // Game 2: Darek (White) and Ala draw; Celina (White) beats Bolek.
    let (mut d, mut a, st) = second_game(ad.0, ad.1, &es[0], &es[3]).await;
    let over = finish_game(&mut d, &mut a, &st, "draw").await;
    assert_eq!(over["match"]["status"], "over", "{over}");
    assert_eq!(
        over["match"]["score"],
        json!({"white_first": 1.5, "black_first": 0.5})
    );
    let (mut c, mut b, st) = second_game(bc.0, bc.1, &es[1], &es[2]).await;
    finish_game(&mut c, &mut b, &st, "white").await;
    drop((a, b, c, d));

    // Round 2: Darek-Celina and Ala-Bolek. Darek leaves in his first game: it is
    // resigned for him, the match's second game forfeited.
    let tables = sent_to_tables(&mut es, &[0, 1, 2, 3], 2).await;
    let (mut d, mut c, st) = sit_down(&s, &tables[&3], &es[3], &es[2]).await;
    let m1 = one_move(&mut d, &mut c, &st, 1).await;
    one_move(&mut c, &mut d, &m1, 2).await;
    act(&s, &es[3], &id, "leave").await;
    let over = c.recv_t("game_over").await;
    assert_eq!(
        (&over["result"], &over["reason"]),
        (&json!("black"), &json!("resign"))
    );
    // The match is over at once: no second game, no break.
    loop {
        let st = c.state().await;
        if st.micro_match.map(|m| m.status) == Some(MatchStatus::Over) {
            break;
        }
    }
    // Ala beats Bolek with both colours.
    let (mut a, mut b, st) = sit_down(&s, &tables[&0], &es[0], &es[1]).await;
    finish_game(&mut a, &mut b, &st, "white").await;
    s.advance(MATCH_BREAK_MS).await;
    let (mut b, mut a, st) = second_game(a, b, &es[0], &es[1]).await;
    finish_game(&mut b, &mut a, &st, "black").await;
    drop((a, b, c, d));

    // Round 3: Bolek-Darek forfeited (both games), Celina and Ala draw twice.
    let tables = sent_to_tables(&mut es, &[2, 0], 3).await;
    let (mut c, mut a, st) = sit_down(&s, &tables[&2], &es[2], &es[0]).await;
    finish_game(&mut c, &mut a, &st, "draw").await;
    s.advance(MATCH_BREAK_MS).await;
    let (mut a, mut c, st) = second_game(c, a, &es[2], &es[0]).await;
    finish_game(&mut a, &mut c, &st, "draw").await;

    let t = finished(&s, &mut es[0].room, &id).await;
    let (r2, _) = micro_boards(&t, 2);
    assert_eq!(
        (&r2[1].0, &r2[1].2, &r2[1].3),
        (&Value::Null, &json!("white"), &json!("forfeit")),
        "Darek's second game (Celina White) is forfeited, not played: {}",
        t["rounds"][1]
    );
    let (r3, opening) = micro_boards(&t, 3);
    assert_eq!(opening, BALLOT);
    let forfeits: Vec<(Value, Value)> =
        r3[..2].iter().map(|b| (b.2.clone(), b.3.clone())).collect();
    assert_eq!(
        forfeits,
        [
            (json!("white"), json!("forfeit")),
            (json!("black"), json!("forfeit"))
        ],
        "Bolek wins both games of his match with Darek: {}",
        t["rounds"][2]
    );
    // Points by games (win 2, draw 1): Ala 3 (win, draw) + 4 (two wins) + 2 (two draws)
    // = 9; Celina 2 (loss, win) + 4 (resigned, forfeit) + 2 = 8; Bolek 2 (win, loss) + 0
    // + 4 (two forfeits) = 6; Darek 1 (loss, draw).
    // Buchholz, per game (each opponent counts twice): Ala 2x1 + 2x6 + 2x8 = 30; Celina
    // 2x6 + 2x1 + 2x9 = 32; Bolek 2x8 + 2x9 + 2x1 = 36; Darek 2x9 + 2x8 + 2x6 = 46.
    // Sonneborn-Berger, per game (a win the opponent's points, a draw half): Ala
    // 1 + ½ + 2x6 + 2x4 = 21.5; Celina 6 + 2x1 + 2x4.5 = 17; Bolek 8 + 2x1 = 10;
    // Darek 4.5. Wins: Ala 3, Celina 3, Bolek 3, Darek 0.
    check_standings(
        &t,
        &names,
        &[
            ("Ala", 1, 9, 6, 30, 21.5, 3),
            ("Celina", 2, 8, 6, 32, 17.0, 3),
            ("Bolek", 3, 6, 6, 36, 10.0, 3),
            ("Darek", 4, 1, 6, 46, 4.5, 0),
        ],
    );
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    a_four_player_round_robin_is_played_to_the_end,
    a_seven_player_swiss_survives_a_restart_and_is_played_to_the_end,
    no_show_and_leaving_lose_and_forfeit_the_rest,
    a_rated_tournament_shows_ratings_as_they_stand_across_a_restart,
    a_micro_match_round_robin_from_a_ballot,
);

/// A Russian ending over in a few moves: three black kings against two white men.
const SHORT_RUSSIAN: &str = "W:Wc3,e3:BKa7,Kd8,Kh4";

/// Resigns, for the person in it, every unfinished game of the current round that a
/// person plays (White's person when both are); returns the tournament once over.
async fn resign_every_game_of_people(s: &TestServer, es: &[Entrant], id: &str) -> Value {
    let mut resigned = std::collections::HashSet::new();
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        let t = tournament(s, id).await;
        if t["status"] == "over" {
            return t;
        }
        assert!(tokio::time::Instant::now() < deadline, "not over: {t}");
        let round = t["rounds"]
            .as_array()
            .unwrap()
            .last()
            .cloned()
            .unwrap_or_default();
        for p in round["pairings"].as_array().into_iter().flatten() {
            let Some(table) = p["table"].as_str() else {
                continue;
            };
            if !p["result"].is_null() || resigned.contains(table) {
                continue;
            }
            let person = [&p["white"], &p["black"]]
                .into_iter()
                .find_map(|pl| es.iter().find(|e| pl["id"] == e.id.as_str()));
            if let Some(e) = person {
                let mut ws = s.table_ws(table, Some(&e.cookie)).await;
                ws.state().await;
                ws.send(json!({"t": "resign"})).await;
                ws.recv_t("game_over").await;
                resigned.insert(table.to_owned());
            }
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// The computer fills the empty places of a tournament of two people and plays its own
/// boards (cheaply: the beginner's search, whatever level was chosen for the people's
/// opponents).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_fills_places_and_plays_itself() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.test.test_start_fen = Some(SHORT_RUSSIAN.into());
    let s = TestServer::start(c).await;
    let es = vec![entrant(&s, "Ala").await, entrant(&s, "Bolek").await];
    let t = create(
        &s,
        &es[0],
        json!({"kind": "round_robin", "minutes": 1, "increment": 0, "max_players": 5,
               "bots": true, "bot_level": 3}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_owned();
    // Alone, it cannot start: the computer does not play a tournament for one person.
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&es[0].cookie),
            None,
        )
        .await;
    assert_eq!(r.error_code(), "bad_message", "{}", r.body);
    act(&s, &es[1], &id, "join").await;
    // Only the creator may start it early.
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&es[1].cookie),
            None,
        )
        .await;
    assert_eq!(r.error_code(), "bad_message");
    let started = act(&s, &es[0], &id, "start").await;
    let players = started["players"].as_array().unwrap();
    assert_eq!(players.len(), 5, "{started}");
    let bots: Vec<&Value> = players.iter().filter(|p| p["bot"].is_u64()).collect();
    assert_eq!(bots.len(), 3, "{started}");
    assert!(bots.iter().all(|p| p["bot"] == 3), "{started}");
    assert_ne!(
        bots[0]["id"], bots[1]["id"],
        "computer players, distinct ids"
    );
    let t = resign_every_game_of_people(&s, &es, &id).await;
    // Every board has a result; the computer's own boards were played out.
    let mut own = 0;
    for round in t["rounds"].as_array().unwrap() {
        for p in round["pairings"].as_array().unwrap() {
            assert!(p["result"].is_string(), "{p}");
            if p["white"]["bot"].is_u64() && p["black"]["bot"].is_u64() {
                own += 1;
                let g = s
                    .http(
                        "GET",
                        &format!("/api/games/{}", p["game"].as_str().unwrap()),
                        None,
                        None,
                    )
                    .await
                    .json();
                assert_ne!(g["white"]["id"], g["black"]["id"]);
                assert!(g["moves"].as_array().unwrap().len() >= 2, "{g}");
            }
        }
    }
    assert_eq!(own, 3, "three computer players meet each other once each");
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_set_start_time_starts_or_cancels() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let mut es = vec![entrant(&s, "Ala").await, entrant(&s, "Bolek").await];
    let lonely = create(
        &s,
        &es[0],
        json!({"kind": "swiss", "rounds": 3, "minutes": 5, "increment": 0, "max_players": 8,
               "starts_in_secs": 60}),
    )
    .await;
    assert!(
        lonely["starts_in_ms"].as_u64().unwrap() > 59_000,
        "{lonely}"
    );
    let filled = create(
        &s,
        &es[1],
        json!({"kind": "swiss", "rounds": 3, "minutes": 5, "increment": 0, "max_players": 4,
               "starts_in_secs": 120, "bots": true}),
    )
    .await;
    act(&s, &es[1], lonely["id"].as_str().unwrap(), "join").await;
    act(&s, &es[0], filled["id"].as_str().unwrap(), "join").await;
    s.advance(60_000).await;
    // Two players and no computer: cancelled at its time.
    let mut t = tournament(&s, lonely["id"].as_str().unwrap()).await;
    for _ in 0..100 {
        if t["status"] == "over" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        t = tournament(&s, lonely["id"].as_str().unwrap()).await;
    }
    assert_eq!(
        (t["status"].as_str(), t["cancelled"].as_bool()),
        (Some("over"), Some(true))
    );
    // The other starts at its time with two computer players.
    s.advance(60_000).await;
    let tables = sent_to_tables(&mut es, &[0, 1], 1).await;
    assert_ne!(tables[&0], tables[&1], "each plays the computer in round 1");
    let t = tournament(&s, filled["id"].as_str().unwrap()).await;
    assert_eq!(t["status"], "running");
    assert_eq!(t["players"].as_array().unwrap().len(), 4);
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_requests_are_refused() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let e = entrant(&s, "Ala").await;
    for body in [
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 13}),
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 2}),
        json!({"kind": "swiss", "minutes": 5, "increment": 0, "max_players": 8}),
        json!({"kind": "swiss", "rounds": 3, "minutes": 5, "increment": 0, "max_players": 65}),
        json!({"kind": "swiss", "rounds": 3, "minutes": 0, "increment": 0, "max_players": 8}),
        json!({"kind": "swiss", "rounds": 3, "minutes": 5, "increment": 11, "max_players": 8}),
        json!({"kind": "swiss", "rounds": 3, "minutes": 5, "increment": 0, "max_players": 8,
               "starts_in_secs": 5}),
        json!({"kind": "arena", "minutes": 5, "increment": 0, "max_players": 8}),
        // Micro-match rounds: a round-robin of 11 would be 110 games for each player.
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 11,
               "micro_match": true}),
    ] {
        let r = s
            .http(
                "POST",
                "/api/rooms/russian/tournaments",
                Some(&e.cookie),
                Some(body.clone()),
            )
            .await;
        assert_eq!(r.status, 400, "{body}: {}", r.body);
        assert_eq!(r.error_code(), "invalid_options", "{body}");
    }
    // A ballot of another variant, or none at all.
    for ballot in ["3move-004", "nope"] {
        let body = json!({"kind": "round_robin", "minutes": 5, "increment": 0,
                          "max_players": 4, "ballot": ballot, "micro_match": true});
        let r = s
            .http(
                "POST",
                "/api/rooms/russian/tournaments",
                Some(&e.cookie),
                Some(body),
            )
            .await;
        assert_eq!(r.status, 400, "{ballot}: {}", r.body);
        assert_eq!(r.error_code(), "unknown_ballot", "{ballot}");
    }
    let r = s
        .http(
            "POST",
            "/api/rooms/russian/tournaments",
            None,
            Some(json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4})),
        )
        .await;
    assert_eq!(r.status, 401);
    let t = create(
        &s,
        &e,
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4}),
    )
    .await;
    let id = t["id"].as_str().unwrap();
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{id}/join"),
            Some(&e.cookie),
            None,
        )
        .await;
    assert_eq!(r.error_code(), "bad_message", "already in");
    let r = s
        .http(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&e.cookie),
            None,
        )
        .await;
    assert_eq!(
        r.error_code(),
        "bad_message",
        "one player is too few: {}",
        r.body
    );
    let r = s.http("GET", "/api/tournaments/nope", None, None).await;
    assert_eq!(r.status, 404);
    s.stop().await;
    db.cleanup().await;
}

/// With real time and the usual start position, two computer players meet and their
/// game ends by itself (on the board or on their clocks).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_computer_players_play_a_whole_game_on_their_clocks() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.test.manual_time = false;
    let s = TestServer::start(c).await;
    let e = entrant(&s, "Ala").await;
    let b = entrant(&s, "Bolek").await;
    let t = create(
        &s,
        &e,
        json!({"kind": "round_robin", "minutes": 1, "increment": 0, "max_players": 5,
               "bots": true}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_owned();
    act(&s, &b, &id, "join").await;
    act(&s, &e, &id, "start").await;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(180);
    let first = loop {
        let t = tournament(&s, &id).await;
        let first = t["rounds"][0]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["white"]["bot"].is_u64() && p["black"]["bot"].is_u64())
            .cloned()
            .expect("two computer players meet in round 1");
        if first["result"].is_string() || first["reason"].is_string() {
            break first;
        }
        assert!(tokio::time::Instant::now() < deadline, "still playing: {t}");
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    };
    let g = s
        .http(
            "GET",
            &format!("/api/games/{}", first["game"].as_str().unwrap()),
            None,
            None,
        )
        .await
        .json();
    assert!(
        g["white"]["id"].as_str().unwrap().starts_with("bot-1-"),
        "{g}"
    );
    assert!(
        g["black"]["id"].as_str().unwrap().starts_with("bot-1-"),
        "{g}"
    );
    assert_eq!(g["reason"], first["reason"], "{g}");
    assert!(
        g["moves"].as_array().unwrap().len() > 10,
        "a whole game: {g}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// The break between rounds (`--round-break-secs`): when a round's last game ends the
/// next round is shown paired, with the time left, and nobody is sent to a table; when
/// the break is over the games start, each with a whole first-move window.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rounds_are_separated_by_a_break() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.tournaments.round_break_secs = 10;
    let s = TestServer::start(c).await;
    let mut es = vec![
        entrant(&s, "Ala").await,
        entrant(&s, "Bolek").await,
        entrant(&s, "Celina").await,
    ];
    let names = names_of(&es);
    let t = create(
        &s,
        &es[0],
        json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 3}),
    )
    .await;
    let id = t["id"].as_str().unwrap().to_owned();
    act(&s, &es[1], &id, "join").await;
    // The last place taken: round 1 starts at once, with no break before it.
    let started = act(&s, &es[2], &id, "join").await;
    assert!(started["next_round"].is_null(), "{started}");
    let (r1, bye) = boards(&started, 1, &names);
    let order: Vec<&'static str> = es.iter().map(|e| e.name).collect();
    let index = |name: &str| order.iter().position(|n| *n == name).unwrap();
    let (w, b) = (index(&r1[0].0), index(&r1[0].1));
    let sitting_out = index(&bye.unwrap());
    let tables = sent_to_tables(&mut es, &[w, b], 1).await;
    let (mut ws, mut bs, _) = sit_down(&s, &tables[&w], &es[w], &es[b]).await;
    end(&mut ws, &mut bs, "white").await;
    // The round is over: round 2 is shown paired, ten seconds ahead; no table yet.
    let mut t = tournament(&s, &id).await;
    for _ in 0..100 {
        if !t["next_round"].is_null() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
        t = tournament(&s, &id).await;
    }
    assert_eq!(t["next_round"]["number"], 2, "{t}");
    // (Counted on the wall clock, like a start time; the test's server clock is manual.)
    let left = t["next_round_in_ms"].as_u64().unwrap();
    assert!((8_000..=10_000).contains(&left), "{t}");
    assert_eq!(
        t["rounds"].as_array().unwrap().len(),
        1,
        "not stored yet: {t}"
    );
    let next = &t["next_round"]["pairings"][0];
    assert!(next["table"].is_null(), "{t}");
    let (w2, b2) = (
        index(names[next["white"]["id"].as_str().unwrap()]),
        index(names[next["black"]["id"].as_str().unwrap()]),
    );
    assert!(
        [w2, b2].contains(&sitting_out),
        "who sat out plays round 2: {t}"
    );
    for i in [w2, b2] {
        let sent = tokio::time::timeout(
            std::time::Duration::from_millis(300),
            es[i].room.recv_t("tournament_game"),
        )
        .await;
        assert!(sent.is_err(), "nobody is sent to a table during the break");
    }
    s.advance(9_000).await;
    assert_eq!(tournament(&s, &id).await["next_round"]["number"], 2);
    // The break is over: the same pairing, tables opened, players sent there, each
    // first-move window whole.
    s.advance(1_000).await;
    let tables = sent_to_tables(&mut es, &[w2, b2], 2).await;
    let (_ws2, _bs2, st) = sit_down(&s, &tables[&w2], &es[w2], &es[b2]).await;
    assert_eq!(st["first_move_deadline"], 30_000, "{st}");
    let t = tournament(&s, &id).await;
    assert!(t["next_round"].is_null(), "{t}");
    assert!(t["next_round_in_ms"].is_null(), "{t}");
    assert_eq!(
        boards(&t, 2, &names).0,
        pairs(&[(es[w2].name, es[b2].name)])
    );
    s.stop().await;
    db.cleanup().await;
}
