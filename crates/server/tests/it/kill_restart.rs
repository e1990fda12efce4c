//! Restart safety with the real `damka` binary: a game is played over real sockets, the
//! process is killed (SIGKILL right after an `ack`) or stopped (SIGTERM), started again on
//! the same database and port, and the game must be all there and go on:
//!
//! - `GET /api/games/{id}` has every acknowledged move, with consistent clocks;
//! - the table socket's `state` has the same moves and side to move, and the clocks as
//!   stored: the side that just moved exactly, the running side resumed at start-up from
//!   its stored time, so the downtime (a deliberate pause between stop and start) is
//!   charged to nobody;
//! - the next move is accepted and acknowledged;
//! - a move in flight at the kill (sent, its `ack` not read: stored or not) is resent for
//!   the same ply and is then in the game exactly once.
//!
//! Each scenario runs on SQLite and, when `DAMKA_TEST_POSTGRES_URL` is set, on a fresh
//! PostgreSQL database (see `common`).

use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb};
use crate::damka::{Damka, Seat, free_port, start_game};
use serde_json::{Value, json};

/// Time between stopping the server and starting it again. A restart that charged the
/// downtime to the running side would be off by at least this much.
const DOWNTIME: Duration = Duration::from_secs(2);

/// Plies played before the stop: odd, so White moved last and Black's clock runs; past
/// the first two plies, so the clock is running (not the first-move window).
const PLIES: u64 = 7;

/// Increment in seconds: makes the stored clocks differ from a plain countdown.
const INCREMENT_S: u64 = 2;

/// How the server is stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stop {
    /// SIGKILL right after the last move's `ack`.
    Kill,
    /// SIGTERM after the last move: graceful shutdown.
    Term,
}

/// What was played before the stop.
struct Played {
    /// The moves acknowledged, in ply order.
    moves: Vec<String>,
    /// The `move` events seen (one per ply, except the last when killed right after its ack).
    events: Vec<Value>,
    /// When the last move was sent.
    last_sent: Instant,
}

/// Plays `PLIES` moves (the first legal move each time), each acknowledged. The last one's
/// events are read only if `read_last` (a SIGKILL comes right after its ack instead).
async fn play(white: &mut Seat, black: &mut Seat, started: &Value, read_last: bool) -> Played {
    let mut legal = started["legal"].clone();
    let mut turn = started["turn"].as_str().expect("turn").to_owned();
    let mut played = Played {
        moves: Vec::new(),
        events: Vec::new(),
        last_sent: Instant::now(),
    };
    for ply in 1..=PLIES {
        let mv = legal[0].as_str().expect("a legal move").to_owned();
        let (mover, other) = if turn == "white" {
            (&mut *white, &mut *black)
        } else {
            (&mut *black, &mut *white)
        };
        played.last_sent = Instant::now();
        let ack = format!("m{ply}");
        mover
            .ws
            .send(json!({"t": "move", "move": mv, "ply": ply, "ack": ack}))
            .await;
        assert_eq!(mover.ws.recv_t("ack").await["ack"], ack.as_str());
        played.moves.push(mv);
        if ply == PLIES && !read_last {
            break;
        }
        let ev = mover.ws.recv_t("move").await;
        assert_eq!(other.ws.recv_t("move").await["ply"], ply);
        assert_eq!(ev["ply"], ply);
        turn = ev["turn"].as_str().expect("turn").to_owned();
        legal = ev["legal"].clone();
        played.events.push(ev);
    }
    played
}

fn ms(v: &Value) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("not milliseconds: {v}"))
}

/// Checks the stored game: every acknowledged move, and clocks that follow from each
/// other and from the `move` events.
fn check_stored(record: &Value, played: &Played) -> Vec<Value> {
    let moves = record["moves"].as_array().expect("moves").clone();
    let texts: Vec<&str> = moves.iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(texts, played.moves, "stored moves: {record}");
    for (i, m) in moves.iter().enumerate() {
        let ply = i as u64 + 1;
        assert_eq!(m["ply"], ply);
        let (mover, other) = if ply % 2 == 1 {
            ("white", "black")
        } else {
            ("black", "white")
        };
        if ply >= 3 {
            // The side not moving was stopped during this ply; the mover paid what it used
            // and got the increment.
            let prev = &moves[i - 1]["clock"];
            assert_eq!(m["clock"][other], prev[other], "ply {ply}: {record}");
            assert_eq!(
                ms(&m["clock"][mover]) + ms(&m["used_ms"]),
                ms(&prev[mover]) + INCREMENT_S * 1000,
                "ply {ply}: {record}"
            );
        }
        if let Some(ev) = played.events.get(i) {
            // The event is the same clock, read a moment later (after the write): exact
            // for the mover, at most a little lower for the side now running.
            assert_eq!(ev["clock"][mover], m["clock"][mover], "ply {ply}");
            let (stored, shown) = (ms(&m["clock"][other]), ms(&ev["clock"][other]));
            assert!(
                shown <= stored && stored - shown < 2000,
                "ply {ply}: {ev} vs {m}"
            );
        }
    }
    moves
}

/// The whole scenario on one backend.
async fn scenario(backend: Backend, stop: Stop) {
    let db = TestDb::new(backend).await;
    let port = free_port();
    let mut server = Damka::spawn(&db.url, port);
    let (table, game, mut white, mut black, started) =
        start_game(&server, &server, &server, INCREMENT_S).await;
    let played = play(&mut white, &mut black, &started, stop == Stop::Term).await;

    // Charged to the running side between its last stored time and the stop.
    let before_stop = match stop {
        Stop::Kill => {
            server.kill();
            Duration::ZERO
        }
        Stop::Term => {
            server.terminate();
            assert_eq!(white.ws.closed().await, Some(1001), "white's close code");
            assert_eq!(black.ws.closed().await, Some(1001), "black's close code");
            let status = server.exited(Duration::from_secs(10)).await;
            assert!(status.success(), "exit status after SIGTERM: {status}");
            played.last_sent.elapsed()
        }
    };
    drop(server);
    tokio::time::sleep(DOWNTIME).await;

    let spawned = Instant::now();
    let server = Damka::spawn(&db.url, port);
    let record = server.game(&game).await;
    assert_eq!(record["result"], Value::Null, "{record}");
    let stored = check_stored(&record, &played);
    let last = &stored[stored.len() - 1]["clock"];

    let mut black_ws = server.table_ws(&table, &black.cookie).await;
    let state = black_ws.recv_t("state").await;
    let since_start = spawned.elapsed();
    assert_eq!(state["status"], "playing", "{state}");
    assert_eq!(state["game_id"], game.as_str());
    assert_eq!(state["you"]["seat"], "black");
    let shown: Vec<&str> = state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(shown, played.moves, "{state}");
    for (m, s) in state["moves"].as_array().unwrap().iter().zip(&stored) {
        assert_eq!(
            m["clock"], s["clock"],
            "state move clock vs stored: {state}"
        );
    }
    // PLIES is odd: White moved last, Black is to move. Black's clock waits for White to
    // come back too (or for the restart grace), so it is held, charged to nobody; Black's
    // move below runs it again.
    assert_eq!(state["turn"], "black", "{state}");
    assert_eq!(state["paused"], "restart", "{state}");
    assert_eq!(state["clock"]["running"], Value::Null, "{state}");
    assert_eq!(
        state["clock"]["white"], last["white"],
        "the mover's time: {state}"
    );
    let (black_stored, black_now) = (ms(&last["black"]), ms(&state["clock"]["black"]));
    let allowed = u64::try_from((before_stop + since_start).as_millis()).unwrap();
    eprintln!(
        "{stop:?}: black's clock stored {black_stored} ms, shown {black_now} ms after the \
         restart (at most {allowed} ms may have run; downtime {DOWNTIME:?})"
    );
    assert!(
        black_now <= black_stored && black_stored - black_now <= allowed,
        "black's clock: stored {black_stored} ms, shown {black_now} ms after restart; \
         at most {allowed} ms may have run (the {DOWNTIME:?} downtime must not count)"
    );
    if stop == Stop::Kill {
        // The last `move` event seen (ply PLIES-1, Black's move) showed Black's time after
        // that move: the time Black's clock started from and resumes from.
        let ev = &played.events[played.events.len() - 1];
        assert_eq!(ev["by"], "black");
        assert_eq!(ms(&ev["clock"]["black"]), black_stored, "{ev}");
    }

    // The game goes on: the next move is stored and acknowledged.
    let mv = state["legal"][0].as_str().expect("a legal move").to_owned();
    let next = PLIES + 1;
    black_ws
        .send(json!({"t": "move", "move": mv, "ply": next, "ack": "after-restart"}))
        .await;
    assert_eq!(black_ws.recv_t("ack").await["ack"], "after-restart");
    let ev = black_ws.recv_t("move").await;
    assert_eq!(ev["ply"], next);
    assert_eq!(ev["turn"], "white");
    let record = server.game(&game).await;
    assert_eq!(
        record["moves"].as_array().map(Vec::len),
        Some(next as usize)
    );
    // White's seat survived the restart too.
    let mut white_ws = server.table_ws(&table, &white.cookie).await;
    let state = white_ws.recv_t("state").await;
    assert_eq!(state["you"]["seat"], "white");
    assert_eq!(state["turn"], "white");

    drop(server);
    db.cleanup().await;
}

/// SIGKILL while a move is in flight (sent, its `ack` not read by the client): killed at
/// once (usually before the server stored it) or, with `stored_first`, once
/// `GET /api/games/{id}` shows it stored. After the restart the client resends it for the
/// same ply, gets its `ack`, and the move is in the game exactly once.
async fn in_flight(backend: Backend, stored_first: bool) {
    let db = TestDb::new(backend).await;
    let port = free_port();
    let mut server = Damka::spawn(&db.url, port);
    let (table, game, mut white, mut black, started) =
        start_game(&server, &server, &server, INCREMENT_S).await;
    let played = play(&mut white, &mut black, &started, true).await;
    let last = &played.events[played.events.len() - 1];
    assert_eq!(last["turn"], "black");
    let mv = last["legal"][0].as_str().expect("a legal move").to_owned();
    let next = PLIES + 1;
    let msg = json!({"t": "move", "move": mv, "ply": next, "ack": "in-flight"});
    black.ws.send(msg.clone()).await;
    if stored_first {
        let deadline = Instant::now() + Duration::from_secs(10);
        while server.game(&game).await["moves"].as_array().map(Vec::len) != Some(next as usize) {
            assert!(Instant::now() < deadline, "the move was never stored");
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    }
    server.kill();
    drop(server);

    let server = Damka::spawn(&db.url, port);
    let stored = server.game(&game).await["moves"].as_array().unwrap().len();
    if stored_first {
        assert_eq!(stored, next as usize);
    } else {
        assert!(
            stored == PLIES as usize || stored == next as usize,
            "{stored} moves stored"
        );
    }
    let mut ws = server.table_ws(&table, &black.cookie).await;
    ws.state().await;
    let mut resent = msg;
    resent["ack"] = "resent".into();
    ws.send(resent).await;
    assert_eq!(ws.recv_t("ack").await["ack"], "resent");
    let record = server.game(&game).await;
    let moves = record["moves"].as_array().unwrap();
    assert_eq!(moves.len(), next as usize, "{record}");
    assert_eq!(moves[moves.len() - 1]["move"], mv.as_str());
    ws.send(json!({"t": "resync"})).await;
    let state = ws.recv_t("state").await;
    assert_eq!(state["turn"], "white");
    assert_eq!(state["moves"].as_array().map(Vec::len), Some(next as usize));
    drop(server);
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_in_flight_sqlite() {
    in_flight(Backend::Sqlite, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_stored_unread_ack_sqlite() {
    in_flight(Backend::Sqlite, true).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_in_flight_postgres() {
    if crate::common::postgres_url().is_some() {
        in_flight(Backend::Postgres, false).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_stored_unread_ack_postgres() {
    if crate::common::postgres_url().is_some() {
        in_flight(Backend::Postgres, true).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_sqlite() {
    scenario(Backend::Sqlite, Stop::Kill).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_sqlite() {
    scenario(Backend::Sqlite, Stop::Term).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_postgres() {
    if crate::common::postgres_url().is_some() {
        scenario(Backend::Postgres, Stop::Kill).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_postgres() {
    if crate::common::postgres_url().is_some() {
        scenario(Backend::Postgres, Stop::Term).await;
    }
}
