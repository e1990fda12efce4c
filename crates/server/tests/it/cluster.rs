//! Three real `damka` nodes on loopback (`--cluster`), on one fresh PostgreSQL database
//! and the real NATS under a subject prefix of the test's own:
//!
//! - two players on different nodes play a game to its end while a spectator on the
//!   third sees every event in order; room lists, people and chat agree on all nodes;
//! - the owner of a running game is killed (SIGKILL): another node takes the table over
//!   within seconds, with every acknowledged move and the clocks as stored;
//! - the owner is stopped (SIGTERM): it hands the table over, and no clock jumps;
//! - the owner is frozen (SIGSTOP) until another node took its table: woken up, it
//!   cannot store (so cannot acknowledge) a move, and it stops (fencing).
//!
//! Needs `DAMKA_TEST_POSTGRES_URL` and NATS at `DAMKA_TEST_NATS_URL` (default
//! `nats://127.0.0.1:4222`); skipped without them, except under CI.

use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb, Ws, one_move_each};
use crate::damka::{Damka, Seat, free_port, start_game};
use serde_json::{Value, json};

/// The NATS URL for the tests, or `None` (with a notice) when NATS is not there.
pub(crate) fn nats_url() -> Option<String> {
    let url =
        std::env::var("DAMKA_TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_owned());
    let hostport = url.trim_start_matches("nats://").to_owned();
    if std::net::TcpStream::connect(&hostport).is_ok() {
        return Some(url);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI is set but NATS does not answer at {url}: the cluster tests must run"
    );
    eprintln!("no NATS at {url}: skipping a cluster test");
    None
}

/// Three nodes of one cluster.
struct Nodes {
    db: TestDb,
    nats: String,
    prefix: String,
    nodes: Vec<Option<Damka>>,
}

impl Nodes {
    /// Starts `n` nodes, or `None` when PostgreSQL or NATS are not configured.
    async fn start(n: usize) -> Option<Nodes> {
        crate::common::postgres_url()?;
        let nats = nats_url()?;
        let db = TestDb::new(Backend::Postgres).await;
        let prefix = format!(
            "damkatest{}x{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .subsec_nanos()
        );
        let mut nodes = Nodes {
            db,
            nats,
            prefix,
            nodes: Vec::new(),
        };
        for i in 0..n {
            let node = nodes.spawn(i);
            nodes.nodes.push(Some(node));
        }
        // Every node has heard every other (room facts flow) before the test begins.
        nodes.wait_agree().await;
        Some(nodes)
    }

    fn spawn(&self, i: usize) -> Damka {
        let name = format!("n{i}");
        Damka::spawn_with(
            &self.db.url,
            free_port(),
            &[
                "--cluster",
                &self.nats,
                "--nats-prefix",
                &self.prefix,
                "--node-name",
                &name,
                "--lease-ms",
                "1500",
                // Sockets a test does not read for a while (it waits on another) must
                // not be closed for a missing pong meanwhile.
                "--ws-ping-ms",
                "1000",
            ],
        )
    }

    fn node(&self, i: usize) -> &Damka {
        self.nodes[i].as_ref().expect("node running")
    }

    /// The room lists of every running node, as (id, white, black, status) per table.
    async fn lists(&self) -> Vec<Vec<(String, Value, Value, Value)>> {
        let mut all = Vec::new();
        for node in self.nodes.iter().flatten() {
            let r = node
                .http("GET", "/api/rooms/russian", None, Value::Null)
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            let room = r.json();
            let tables = room["tables"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    (
                        t["id"].as_str().unwrap().to_owned(),
                        t["seats"]["white"]["id"].clone(),
                        t["seats"]["black"]["id"].clone(),
                        t["game"]["status"].clone(),
                    )
                })
                .collect();
            all.push(tables);
        }
        all
    }

    /// Waits until every running node lists the same tables, and returns that list.
    async fn wait_agree(&self) -> Vec<(String, Value, Value, Value)> {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let lists = self.lists().await;
            if lists.windows(2).all(|w| w[0] == w[1]) {
                return lists.into_iter().next().unwrap_or_default();
            }
            assert!(Instant::now() < deadline, "room lists disagree: {lists:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the table's owner row names a node other than `old`; returns it.
    async fn new_owner(&self, table: &str, old: &str) -> String {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(&self.db.url).await.unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let owner: Option<String> =
                sqlx::query_scalar("SELECT node FROM table_owners WHERE table_id = $1")
                    .bind(table)
                    .fetch_optional(&mut conn)
                    .await
                    .unwrap();
            if let Some(o) = owner
                && !o.starts_with(old)
            {
                return o;
            }
            assert!(
                Instant::now() < deadline,
                "table {table} never changed owner"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// A guest per name, the i-th on node i, each with a room socket open there (its
    /// snapshot read): cookie, guest id, socket.
    async fn people(&self, names: &[&str]) -> Vec<(String, String, Ws)> {
        let mut people = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let node = self.node(i);
            let cookie = node.guest(name).await;
            let me = node
                .http("GET", "/api/me", Some(&cookie), Value::Null)
                .await
                .json();
            let mut room = Ws::connect(&node.addr, "/ws/rooms/russian", Some(&cookie), None).await;
            room.recv_t("room").await;
            people.push((cookie, me["id"].as_str().unwrap().to_owned(), room));
        }
        people
    }

    /// The node id (`n{i}-…`) owning `table`.
    async fn owner(&self, table: &str) -> String {
        use sqlx::Connection;
        let mut conn = sqlx::PgConnection::connect(&self.db.url).await.unwrap();
        sqlx::query_scalar("SELECT node FROM table_owners WHERE table_id = $1")
            .bind(table)
            .fetch_one(&mut conn)
            .await
            .unwrap()
    }
}

/// Plays `n` plies from `from` (an event with `turn` and `legal`), the first legal move
/// each time, starting at ply `first`; each acknowledged and seen by both. Returns the
/// last `move` event.
async fn play(white: &mut Seat, black: &mut Seat, from: &Value, first: u64, n: u64) -> Value {
    let mut last = from.clone();
    for ply in first..first + n {
        let mv = last["legal"][0].as_str().expect("a legal move").to_owned();
        let (mover, other) = if last["turn"] == "white" {
            (&mut *white, &mut *black)
        } else {
            (&mut *black, &mut *white)
        };
        let ack = format!("m{ply}");
        mover
            .ws
            .send(json!({"t": "move", "move": mv, "ply": ply, "ack": ack}))
            .await;
        assert_eq!(mover.ws.recv_t("ack").await["ack"], ack.as_str());
        let ev = mover.ws.recv_t("move").await;
        assert_eq!(other.ws.recv_t("move").await["ply"], ply);
        assert_eq!(ev["ply"], ply);
        last = ev;
    }
    last
}

/// Connects to the table on node `i` until it serves it (while it moves between nodes a
/// socket may be closed with 1013 or 1012); returns the socket and its `state`.
async fn reconnect(node: &Damka, table: &str, cookie: &str) -> (Ws, Value) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let mut ws = node.table_ws(table, cookie).await;
        let first = tokio::time::timeout(Duration::from_secs(5), async {
            use futures_util::StreamExt;
            loop {
                match ws.stream.next().await {
                    Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => {
                        let v: Value = serde_json::from_str(&t).unwrap();
                        if v["t"] == "state" {
                            return Some(v);
                        }
                    }
                    Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) | None => {
                        return None;
                    }
                    Some(Err(_)) => return None,
                    Some(Ok(_)) => {}
                }
            }
        })
        .await;
        if let Ok(Some(state)) = first {
            return (ws, state);
        }
        assert!(Instant::now() < deadline, "table {table} never came back");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// After a table moved to another node with 7 plies played (Black to move; Black back on
/// node 2 with `state`): White reconnects through node 1, Black's next move is
/// acknowledged and reaches White, and the surviving nodes list the table again.
async fn go_on(nodes: &Nodes, table: &str, state: &Value, black: &mut Ws, white_cookie: &str) {
    let (mut white, _) = reconnect(nodes.node(1), table, white_cookie).await;
    // Both back: the clock runs again, the next move is stored and acknowledged.
    let mv = state["legal"][0].as_str().unwrap().to_owned();
    black
        .send(json!({"t": "move", "move": mv, "ply": 8, "ack": "after"}))
        .await;
    assert_eq!(black.recv_t("ack").await["ack"], "after");
    assert_eq!(white.recv_t("move").await["ply"], 8);
    let list = nodes.wait_agree().await;
    assert!(list.iter().any(|t| t.0 == table), "{list:?}");
}

fn ms(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("not milliseconds: {v}"))
}

/// Two players on nodes 1 and 2 play a table owned by node 0 to the end; spectators on
/// node 2 (proxied) and node 0 (local) see every event in order; the rooms agree.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_different_nodes_play_to_the_end() {
    let Some(nodes) = Nodes::start(3).await else {
        return;
    };
    // Room sockets on every node, with a session each (people are shared).
    let mut rooms = Vec::new();
    let mut watchers = Vec::new();
    for i in 0..3 {
        let cookie = nodes.node(i).guest(&format!("Watcher{i}")).await;
        let ws = Ws::connect(
            &nodes.node(i).addr,
            "/ws/rooms/russian",
            Some(&cookie),
            None,
        )
        .await;
        watchers.push(cookie);
        rooms.push(ws);
    }
    // The table is owned by node 0; White plays through node 1, Black through node 2.
    let (table, game, mut white, mut black, started) =
        start_game(nodes.node(0), nodes.node(1), nodes.node(2), 2).await;
    assert!(nodes.owner(&table).await.starts_with("n0-"));
    // A spectator on node 2 as well (a second proxied socket there), and one on node 0.
    let spectator = nodes.node(2).guest("Widz").await;
    let mut spec = nodes.node(2).table_ws(&table, &spectator).await;
    let spec_state = spec.recv_t("state").await;
    let mut local_spec = nodes.node(0).table_ws(&table, &spectator).await;
    local_spec.state().await;

    let last = play(&mut white, &mut black, &started, 1, 10).await;
    // Black offers a draw, White accepts: the game ends through two proxies.
    assert_eq!(last["turn"], "white");
    black.ws.send(json!({"t": "draw_offer"})).await;
    white.ws.recv_t("draw_offered").await;
    white.ws.send(json!({"t": "draw_accept"})).await;
    let over = white.ws.recv_t("game_over").await;
    assert_eq!(over["result"], "draw", "{over}");
    assert_eq!(black.ws.recv_t("game_over").await["result"], "draw");

    // The spectators saw every event, versions without a gap, the same on both nodes.
    let mut seen = Vec::new();
    for ws in [&mut spec, &mut local_spec] {
        let mut events = Vec::new();
        loop {
            let ev = ws.recv().await;
            if ev["v"].is_u64() {
                events.push(ev.clone());
            }
            if ev["t"] == "game_over" {
                break;
            }
        }
        let moves: Vec<u64> = events
            .iter()
            .filter(|e| e["t"] == "move")
            .map(|e| ms(&e["ply"]))
            .collect();
        assert_eq!(moves, (1..=10).collect::<Vec<_>>(), "{events:?}");
        let versions: Vec<u64> = events.iter().map(|e| ms(&e["v"])).collect();
        assert!(
            versions.windows(2).all(|w| w[1] == w[0] + 1),
            "versions with a gap: {versions:?}"
        );
        seen.push(
            events
                .iter()
                .map(|e| (e["t"].clone(), e["v"].clone()))
                .collect::<Vec<_>>(),
        );
    }
    // Node 0's spectator joined later than node 2's: compare from its first version on.
    let from = seen[1][0].1.clone();
    let tail: Vec<_> = seen[0]
        .iter()
        .skip_while(|e| e.1 != from)
        .cloned()
        .collect();
    assert_eq!(tail, seen[1], "the two spectators saw different events");
    assert!(ms(&spec_state["v"]) < ms(&seen[0][0].1));

    // The nodes count the sockets: node 2 proxies Black's and the spectator's, node 1
    // White's; node 0 bridges all three to its table.
    let metric = |text: &str, name: &str| -> u64 {
        text.lines()
            .find_map(|l| l.strip_prefix(&format!("{name} ")))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("{name} missing: {text}"))
    };
    let metrics = |i: usize| {
        let node = nodes.node(i);
        async move { node.http("GET", "/metrics", None, Value::Null).await.body }
    };
    let (m0, m1, m2) = (metrics(0).await, metrics(1).await, metrics(2).await);
    assert_eq!(metric(&m2, "damka_cluster_proxied_sockets"), 2, "{m2}");
    assert_eq!(metric(&m1, "damka_cluster_proxied_sockets"), 1, "{m1}");
    assert_eq!(metric(&m0, "damka_cluster_bridged_sockets"), 3, "{m0}");
    assert_eq!(metric(&m0, "damka_cluster_proxied_sockets"), 0, "{m0}");
    assert_eq!(metric(&m0, "damka_cluster_peers"), 2, "{m0}");
    assert_eq!(metric(&m0, "damka_cluster_nats_connected"), 1, "{m0}");

    // Stored, and readable from any node.
    let record = nodes.node(2).game(&game).await;
    assert_eq!(record["result"], "draw", "{record}");
    assert_eq!(record["moves"].as_array().unwrap().len(), 10);

    // The rooms agree: the table with both seats and its finished game, on every node.
    let list = nodes.wait_agree().await;
    let row = list.iter().find(|t| t.0 == table).expect("table listed");
    assert_eq!(row.3, "over", "{list:?}");

    // People: every node's room shows the three watchers and the players at the table.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let mut counts = Vec::new();
        for i in 0..3 {
            let r = nodes
                .node(i)
                .http("GET", "/api/rooms/russian", None, Value::Null)
                .await;
            counts.push(r.json()["players"].clone());
        }
        if counts.iter().all(|c| c == &json!(6)) {
            break;
        }
        assert!(Instant::now() < deadline, "people counts: {counts:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // Chat posted through node 1 reaches the room sockets of nodes 0 and 2.
    rooms[1]
        .send(json!({"t": "chat", "text": "dzień dobry"}))
        .await;
    for i in [0, 2, 1] {
        let msg = rooms[i].recv_t("chat").await;
        assert_eq!(msg["text"], "dzień dobry", "node {i}: {msg}");
    }
    drop(nodes);
}

/// The owner is killed mid-game: another node takes the table over within seconds,
/// with every acknowledged move, and the clocks as stored (the downtime charged to
/// nobody); the players reconnect to the nodes they were on and go on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_owners_tables_are_taken_over() {
    let Some(mut nodes) = Nodes::start(3).await else {
        return;
    };
    let (table, game, mut white, mut black, started) =
        start_game(nodes.node(0), nodes.node(1), nodes.node(2), 2).await;
    let last = play(&mut white, &mut black, &started, 1, 7).await;
    // White moved last: Black's clock runs.
    assert_eq!(last["turn"], "black");
    let killed = Instant::now();
    nodes.nodes[0].as_mut().unwrap().kill();
    nodes.nodes[0] = None;
    // The proxies notice the owner's silence and close the sockets for a reconnect.
    let codes = tokio::join!(white.ws.closed(), black.ws.closed());
    assert_eq!(codes, (Some(1012), Some(1012)));
    let owner = nodes.new_owner(&table, "n0-").await;
    let (mut bws, state) = reconnect(nodes.node(2), &table, &black.cookie).await;
    let back = killed.elapsed();
    eprintln!("taken over by {owner}; game back {back:?} after the kill");
    assert!(back < Duration::from_secs(15), "{back:?}");
    assert_eq!(state["status"], "playing", "{state}");
    assert_eq!(state["game_id"], game.as_str());
    assert_eq!(state["moves"].as_array().unwrap().len(), 7, "{state}");
    // Held until both are back; White's time exactly as after its move, Black's as
    // stored at White's move (the downtime not charged).
    assert_eq!(state["paused"], "restart", "{state}");
    assert_eq!(state["clock"]["white"], last["clock"]["white"], "{state}");
    let stored = nodes.node(1).game(&game).await["moves"][6]["clock"]["black"].clone();
    assert_eq!(state["clock"]["black"], stored, "{state}");
    let (event, now) = (ms(&last["clock"]["black"]), ms(&state["clock"]["black"]));
    assert!(now >= event && now - event < 2000, "{event} -> {now}");
    go_on(&nodes, &table, &state, &mut bws, &white.cookie).await;
    let record = nodes.node(1).game(&game).await;
    assert_eq!(record["moves"].as_array().unwrap().len(), 8, "{record}");
    let taker = if owner.starts_with("n1-") { 1 } else { 2 };
    let m = nodes
        .node(taker)
        .http("GET", "/metrics", None, Value::Null)
        .await
        .body;
    assert!(
        m.contains("damka_cluster_taken_over_total 1\n"),
        "the taker counts the table: {m}"
    );
}

/// SIGTERM of the owner hands its table to another node: the sockets are closed for a
/// reconnect, the game comes back at once with its clocks exactly as stopped (no jump),
/// and the stopped node exits cleanly.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_hands_the_tables_over() {
    let Some(mut nodes) = Nodes::start(3).await else {
        return;
    };
    let (table, game, mut white, mut black, started) =
        start_game(nodes.node(0), nodes.node(1), nodes.node(2), 2).await;
    let last = play(&mut white, &mut black, &started, 1, 7).await;
    assert_eq!(last["turn"], "black");
    let since_last = Instant::now();
    nodes.node(0).signal("TERM");
    let codes = tokio::join!(white.ws.closed(), black.ws.closed());
    assert_eq!(
        codes,
        (Some(1012), Some(1012)),
        "both proxied sockets told to reconnect"
    );
    let stopped = nodes.nodes[0]
        .as_mut()
        .unwrap()
        .exited(Duration::from_secs(15))
        .await;
    assert!(stopped.success(), "{stopped}");
    let ran = since_last.elapsed();
    nodes.nodes[0] = None;
    let owner = nodes.new_owner(&table, "n0-").await;
    let (mut bws, state) = reconnect(nodes.node(2), &table, &black.cookie).await;
    eprintln!("handed over to {owner}");
    assert_eq!(state["game_id"], game.as_str());
    assert_eq!(state["moves"].as_array().unwrap().len(), 7);
    assert_eq!(state["paused"], "restart", "{state}");
    // White's time exactly as after its move; Black's ran only until the stop.
    assert_eq!(state["clock"]["white"], last["clock"]["white"], "{state}");
    let (before, now) = (ms(&last["clock"]["black"]), ms(&state["clock"]["black"]));
    let allowed = u64::try_from(ran.as_millis()).unwrap();
    assert!(
        now <= before && before - now <= allowed,
        "black's clock {before} -> {now}: at most {allowed} ms may have run"
    );
    go_on(&nodes, &table, &state, &mut bws, &white.cookie).await;
}

/// A frozen owner (SIGSTOP) loses its table to another node; woken up (SIGCONT) with a
/// move waiting in its socket, it cannot store it (the write is fenced), so the move is
/// never acknowledged, and the node stops. The move then goes through the new owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frozen_owner_cannot_write() {
    let Some(mut nodes) = Nodes::start(3).await else {
        return;
    };
    // White's socket is on the owner itself.
    let (table, game, mut white, mut black, started) =
        start_game(nodes.node(0), nodes.node(0), nodes.node(1), 2).await;
    let last = play(&mut white, &mut black, &started, 1, 6).await;
    assert_eq!(last["turn"], "white");
    nodes.node(0).signal("STOP");
    let owner = nodes.new_owner(&table, "n0-").await;
    eprintln!("taken from the frozen node by {owner}");
    // Black (proxied through node 1) is moved to the new owner.
    let (bws, state) = reconnect(nodes.node(1), &table, &black.cookie).await;
    assert_eq!(state["moves"].as_array().unwrap().len(), 6);
    // White's move reaches the frozen node's socket, then the node wakes up.
    let mv = last["legal"][0].as_str().unwrap().to_owned();
    white
        .ws
        .send(json!({"t": "move", "move": mv, "ply": 7, "ack": "stale"}))
        .await;
    nodes.node(0).signal("CONT");
    // No ack for it: an error, or the socket closes as the node stops.
    loop {
        use futures_util::StreamExt;
        match tokio::time::timeout(Duration::from_secs(20), white.ws.stream.next())
            .await
            .expect("the old owner answers or closes")
        {
            Some(Ok(tokio_tungstenite::tungstenite::Message::Text(t))) => {
                let v: Value = serde_json::from_str(&t).unwrap();
                assert_ne!(
                    v["t"], "ack",
                    "the fenced-out node acknowledged a move: {v}"
                );
                assert_ne!(v["t"], "move", "the fenced-out node played a move: {v}");
            }
            Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_))) | None | Some(Err(_)) => {
                break;
            }
            Some(Ok(_)) => {}
        }
    }
    let status = nodes.nodes[0]
        .as_mut()
        .unwrap()
        .exited(Duration::from_secs(20))
        .await;
    assert_eq!(status.code(), Some(75), "{status}");
    nodes.nodes[0] = None;
    let record = nodes.node(2).game(&game).await;
    assert_eq!(
        record["moves"].as_array().unwrap().len(),
        6,
        "the fenced-out node stored a move: {record}"
    );
    // The move goes through the new owner, once. A client whose socket is closed with
    // 1012 ("table moving": under load the table may change hands again) reopens it and
    // resends for the same ply, as the web client does; the ply makes the resend safe.
    drop(bws);
    loop {
        let (mut wws, state) = reconnect(nodes.node(2), &table, &white.cookie).await;
        if state["moves"].as_array().unwrap().len() == 7 {
            break; // applied by an attempt whose ack the closed socket lost
        }
        wws.send(json!({"t": "move", "move": mv, "ply": 7, "ack": "fresh"}))
            .await;
        if let Some(ack) = until_closed(&mut wws, "ack").await {
            assert_eq!(ack["ack"], "fresh");
            break;
        }
    }
    let record = nodes.node(2).game(&game).await;
    assert_eq!(record["moves"].as_array().unwrap().len(), 7, "{record}");
    assert_eq!(record["moves"][6]["move"], mv.as_str(), "{record}");
}

/// The next message of type `t`, or `None` when the socket closes first (a table that
/// moves closes its sockets with 1012); panics on an error message or after 20 s.
async fn until_closed(ws: &mut Ws, t: &str) -> Option<Value> {
    use futures_util::StreamExt;
    loop {
        match tokio::time::timeout(Duration::from_secs(20), ws.stream.next())
            .await
            .expect("an answer or a close")
        {
            Some(Ok(tokio_tungstenite::tungstenite::Message::Text(text))) => {
                let v: Value = serde_json::from_str(&text).unwrap();
                assert_ne!(v["t"], "error", "{v}");
                if v["t"] == t {
                    return Some(v);
                }
            }
            Some(Ok(tokio_tungstenite::tungstenite::Message::Close(_)) | Err(_)) | None => {
                return None;
            }
            Some(Ok(_)) => {}
        }
    }
}

/// A tournament created on node 0 is listed on every node, joined through nodes 1 and 2
/// and started by its creator; each player's `tournament_game` reaches their room
/// socket on their own node, and a round's table is played across nodes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_spans_the_nodes() {
    let Some(nodes) = Nodes::start(3).await else {
        return;
    };
    let mut players = nodes.people(&["Ala", "Bolek", "Celina"]).await;
    let r = nodes
        .node(0)
        .http(
            "POST",
            "/api/rooms/russian/tournaments",
            Some(&players[0].0),
            json!({"kind": "round_robin", "minutes": 5, "increment": 0, "max_players": 4,
                   "bots": false, "name": "Klub"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.json()["id"].as_str().unwrap().to_owned();
    // Listed everywhere.
    for (i, p) in players.iter_mut().enumerate() {
        let added = p.2.recv_t("tournament_added").await;
        assert_eq!(added["tournament"]["id"], id.as_str(), "node {i}");
    }
    // Joined through the other nodes: the actor on node 0 answers.
    for i in [1, 2] {
        let r = nodes
            .node(i)
            .http(
                "POST",
                &format!("/api/tournaments/{id}/join"),
                Some(&players[i].0),
                Value::Null,
            )
            .await;
        assert_eq!(r.status, 200, "join on node {i}: {}", r.body);
    }
    // A refusal comes back as the actor's error: only the creator may start early.
    let r = nodes
        .node(1)
        .http(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&players[1].0),
            Value::Null,
        )
        .await;
    assert_eq!(r.error_code(), "bad_message", "{}", r.body);
    let r = nodes
        .node(2)
        .http(
            "POST",
            &format!("/api/tournaments/{id}/start"),
            Some(&players[0].0),
            Value::Null,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    // Round 1 of three players: two play, one has a bye. The two paired hear of their
    // table on their own node's room socket.
    let mut tables = std::collections::HashMap::new();
    let deadline = Instant::now() + Duration::from_secs(10);
    while tables.len() < 2 {
        assert!(Instant::now() < deadline, "tournament games: {tables:?}");
        for (i, p) in players.iter_mut().enumerate() {
            if tables.contains_key(&i) {
                continue;
            }
            if let Ok(msg) =
                tokio::time::timeout(Duration::from_millis(200), p.2.recv_t("tournament_game"))
                    .await
            {
                assert_eq!(msg["to"], p.1.as_str());
                tables.insert(i, msg["table"].as_str().unwrap().to_owned());
            }
        }
    }
    let mut ids: Vec<&String> = tables.values().collect();
    ids.dedup();
    assert_eq!(ids.len(), 1, "one table for the pair: {tables:?}");
    let table = ids[0].clone();
    // Each paired player opens the table on their own node; both seats are theirs.
    for &i in tables.keys() {
        let mut ws = nodes.node(i).table_ws(&table, &players[i].0).await;
        let state = ws.recv_t("state").await;
        assert!(state["you"]["seat"].is_string(), "{state}");
    }
}

/// An invitation made on one node reaches the invited person's room socket on another
/// (the people and the addressed event are shared), and nobody else's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_crosses_nodes() {
    let Some(nodes) = Nodes::start(3).await else {
        return;
    };
    let mut people = nodes.people(&["Ala", "Ola", "Ela"]).await;
    let opts = json!({"minutes": 5, "increment": 0, "random_opening": false,
                      "capture_optional": false, "seat": "white"});
    let r = nodes
        .node(0)
        .http(
            "POST",
            "/api/rooms/russian/tables",
            Some(&people[0].0),
            opts,
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let table = r.json()["id"].as_str().unwrap().to_owned();
    // Ola's room socket on node 1 is known on node 0 once her socket's fact arrived.
    let ola = people[1].1.clone();
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        people[0]
            .2
            .send(json!({"t": "invite", "to": ola, "table": table, "ack": 1}))
            .await;
        let v = loop {
            let v = people[0].2.recv().await;
            if v["t"] == "invited" || v["t"] == "error" {
                break v;
            }
        };
        if v["t"] == "invited" {
            break;
        }
        assert!(Instant::now() < deadline, "never invited: {v}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let inv = people[1].2.recv_t("invited").await;
    assert_eq!(inv["to"]["id"], ola.as_str(), "{inv}");
    assert_eq!(inv["table"]["id"], table.as_str(), "{inv}");
    // Ela (node 2) hears nothing of it; a chat line through node 2 comes first.
    people[2].2.send(json!({"t": "chat", "text": "hej"})).await;
    let next = loop {
        let v = people[2].2.recv().await;
        if v["t"] == "invited" || v["t"] == "chat" {
            break v;
        }
    };
    assert_eq!(next["t"], "chat", "{next}");
}

/// A rated game between accounts made on different nodes, played through a third: the
/// owner stores the end and both ratings once, every node then shows the same ratings,
/// and the history holds one row per player.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_across_nodes_updates_once() {
    use damka_rating::{Glicko2, Outcome, Rating};
    let Some(nodes) = Nodes::start(3).await else {
        return;
    };
    let account = |i: usize, name: &'static str| {
        let node = nodes.node(i);
        async move {
            let guest = node.guest(name).await;
            let r = node
                .http(
                    "POST",
                    "/api/account",
                    Some(&guest),
                    json!({"username": name, "password": "haslo haslo"}),
                )
                .await;
            assert_eq!(r.status, 201, "{}", r.body);
            r.cookie().expect("the account's cookie")
        }
    };
    let ala = account(0, "Ala").await;
    let bolek = account(2, "Bolek").await;
    let r = nodes
        .node(0)
        .http(
            "POST",
            "/api/rooms/russian/tables",
            Some(&ala),
            json!({"minutes": 5, "increment": 0, "rated": true, "seat": "white"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let table = r.json()["id"].as_str().unwrap().to_owned();
    // White's socket on node 1, Black's on node 2; the table lives on node 0.
    let mut w = nodes.node(1).table_ws(&table, &ala).await;
    assert_eq!(w.recv_t("state").await["you"]["seat"], "white");
    let mut b = nodes.node(2).table_ws(&table, &bolek).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    let seated = b.recv_t("seated").await;
    assert_eq!(seated["player"]["rating"], 1500, "{seated}");
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    one_move_each(&mut w, &mut b, &started).await;
    w.send(json!({"t": "resign"})).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(b.recv_t("game_over").await, over);
    let (wa, ba) = Glicko2::default().game(Rating::NEW, Rating::NEW, Outcome::Loss);
    let round = |r: f64| r.round() as i64;
    assert_eq!(
        over["ratings"],
        json!({"white": {"before": 1500, "after": round(wa.rating), "provisional": true},
               "black": {"before": 1500, "after": round(ba.rating), "provisional": true}}),
        "{over}"
    );
    // Every node reads the same ratings back.
    for i in 0..3 {
        let me = nodes
            .node(i)
            .http("GET", "/api/me", Some(&bolek), Value::Null)
            .await
            .json();
        assert_eq!(me["ratings"]["russian"]["rating"], round(ba.rating), "{me}");
        assert_eq!(me["ratings"]["russian"]["games"], 1, "node {i}: {me}");
    }
    // Once: one history row per player, one rated game each.
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(&nodes.db.url).await.unwrap();
    let rows: i64 = sqlx::query_scalar("SELECT count(*) FROM rating_history")
        .fetch_one(&mut conn)
        .await
        .unwrap();
    assert_eq!(rows, 2);
    let games: Vec<i64> =
        sqlx::query_scalar("SELECT games::BIGINT FROM ratings WHERE variant = 'russian'")
            .fetch_all(&mut conn)
            .await
            .unwrap();
    assert_eq!(games, vec![1, 1]);
}
