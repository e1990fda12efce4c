//! The actor with sockets simulated by bare queues: a socket that stops reading is skipped
//! and later refreshed with a `state`, while the others get every event. And the
//! per-guest table limit holds when two seats are requested at once.

use std::sync::Arc;
use std::time::Duration;

use damka_protocol::table::ClientMessage;
use damka_protocol::{CreateTable, Options, Player, SeatChoice, Side};
use tokio::sync::{mpsc, oneshot};
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use super::{Command, Outgoing, SOCKET_QUEUE, Tables};
use crate::config::Config;
use crate::core::Core;
use crate::metrics;
use crate::room::{Rooms, default_rooms};
use crate::time::TimeSource;
use damka_store::Store;

fn player(id: &str) -> Player {
    Player::guest(id, id)
}

async fn join(
    tx: &mpsc::Sender<Command>,
    guest: Option<Player>,
) -> (u64, mpsc::Receiver<Outgoing>) {
    let (out, rx) = mpsc::channel(SOCKET_QUEUE + 1);
    let (reply, sub) = oneshot::channel();
    tx.send(Command::Join {
        guest,
        tx: out,
        reply,
    })
    .await
    .expect("actor alive");
    (sub.await.expect("subscribed"), rx)
}

fn json(out: Outgoing) -> serde_json::Value {
    match out {
        Outgoing::Text(t) => serde_json::from_str(t.as_str()).expect("json"),
        Outgoing::Close(code, _) => panic!("closed with {code}"),
    }
}

/// The tables of a server on a fresh SQLite file (no listener): remove the directory at
/// the end.
async fn test_tables(name: &str, config: Config) -> (Arc<Tables>, std::path::PathBuf) {
    let dir = std::env::temp_dir().join(format!("damka_{name}_{}", std::process::id()));
    let url = format!("sqlite://{}/t.db", dir.display());
    let store = Store::connect(&url).await.expect("store");
    let push = crate::push::Push::load(&store, &config)
        .await
        .expect("push key");
    let core = Arc::new(Core {
        config,
        store,
        rooms: Rooms::new(default_rooms()),
        computer: crate::computer::Computer::new(1, std::time::Duration::from_millis(500)),
        metrics: metrics::Metrics::default(),
        limits: crate::limits::Limits::default(),
        passwords: crate::accounts::Passwords::default(),
        sessions: crate::session_sockets::SessionSockets::default(),
        push,
        time: TimeSource::manual(),
        shutdown: CancellationToken::new(),
        tracker: TaskTracker::new(),
    });
    (Tables::new(core), dir)
}

/// Stops the tables' actors and removes the directory.
async fn stop(tables: &Tables, dir: std::path::PathBuf) {
    let core = tables.core();
    core.shutdown.cancel();
    core.tracker.close();
    core.tracker.wait().await;
    let _ = std::fs::remove_dir_all(dir);
}

fn create_request() -> CreateTable {
    CreateTable {
        options: Options::default(),
        seat: SeatChoice::White,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_seat_waits_for_the_first_to_be_counted() {
    let mut config = Config::defaults();
    config.test.manual_time = true;
    config.limits.max_tables_per_guest = 1;
    let (tables, dir) = test_tables("seat_limit_test", config).await;
    let room = tables.core().rooms.get("russian").expect("room").clone();
    let view = tables
        .create(&room, player("a"), &create_request())
        .expect("table");
    let mut with_b = view.clone();
    with_b.seats.black = Some(player("b"));
    // Guest b's second seat is requested while the first is being taken: it must wait
    // for the first to show in the room, then be refused.
    let second = std::thread::scope(|scope| {
        let pending = tables
            .seat_within_limit("b", || {
                let second = scope.spawn(|| tables.seat_within_limit("b", || ()).is_ok());
                // Without the lock, the second request counts (zero tables) in this time.
                std::thread::sleep(Duration::from_millis(100));
                room.table_changed(with_b, false);
                second
            })
            .expect("the first seat is within the limit");
        pending.join().expect("no panic")
    });
    assert!(!second, "the second seat exceeds the limit of one table");
    assert_eq!(tables.core().rooms.seated_tables("b"), 1);
    // And creating a table counts the same way.
    assert!(
        tables
            .create(&room, player("b"), &create_request())
            .is_err()
    );
    stop(&tables, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_table_limit_per_guest_with_zero() {
    let mut config = Config::defaults();
    config.test.manual_time = true;
    config.limits.max_tables_per_guest = 0;
    let (tables, dir) = test_tables("no_seat_limit_test", config).await;
    let room = tables.core().rooms.get("russian").expect("room").clone();
    // Far past the default of three: 0 lifts the limit (the load bench seats thousands).
    for _ in 0..5 {
        tables
            .create(&room, player("a"), &create_request())
            .expect("no limit");
    }
    assert_eq!(tables.core().rooms.seated_tables("a"), 5);
    stop(&tables, dir).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_queue_is_skipped_then_refreshed_with_state() {
    let mut config = Config::defaults();
    config.test.manual_time = true;
    let (tables, dir) = test_tables("actor_test", config).await;
    let room = tables.core().rooms.get("russian").expect("room").clone();
    let view = tables
        .create(&room, player("a"), &create_request())
        .expect("table");
    let tx = tables.get(&view.id).expect("handle").tx;
    let (fast_sub, mut fast) = join(&tx, Some(player("b"))).await;
    let (_, mut slow) = join(&tx, None).await;
    // 200 sit/stand rounds: several hundred events, far more than a queue holds. The
    // fast socket reads each round's events before the next round.
    let mut last_v = 0;
    let mut count = 0;
    for _ in 0..200 {
        for msg in [
            ClientMessage::Sit { seat: Side::Black },
            ClientMessage::Stand,
        ] {
            let cmd = Command::Client {
                sub: fast_sub,
                msg,
                lag_ms: 0,
                received: std::time::Instant::now(),
            };
            tx.send(cmd).await.expect("actor alive");
        }
        loop {
            let out = tokio::time::timeout(Duration::from_secs(5), fast.recv())
                .await
                .expect("the fast socket gets its events")
                .expect("subscribed");
            let v = json(out);
            count += 1;
            let n = v["v"].as_u64().expect("versioned");
            if v["t"] != "state" {
                assert_eq!(n, last_v + 1, "the fast socket misses nothing: {v}");
            }
            last_v = n;
            if v["t"] == "stood" {
                break;
            }
        }
    }
    assert!(
        count > SOCKET_QUEUE * 4 && last_v >= 400,
        "{count} events, v {last_v}"
    );
    // The slow socket holds a queue's worth: its state, then contiguous events. Reading
    // them drains the queue, so the actor's next stale check may already slip the fresh
    // state in behind them: take exactly a queue's worth here.
    let mut held = Vec::new();
    while held.len() < SOCKET_QUEUE {
        let out = slow.try_recv().expect("a full queue is held");
        held.push(json(out));
    }
    assert_eq!(held[0]["t"], "state");
    let first = held[0]["v"].as_u64().expect("versioned");
    for (i, v) in held.iter().enumerate().skip(1) {
        assert_eq!(v["v"].as_u64(), Some(first + i as u64), "contiguous: {v}");
    }
    // Now that it has drained, it gets a fresh state instead of the events it missed.
    let refreshed = tokio::time::timeout(Duration::from_secs(10), slow.recv())
        .await
        .expect("a refresh")
        .expect("still subscribed");
    let refreshed = json(refreshed);
    assert_eq!(refreshed["t"], "state");
    assert!(
        refreshed["v"].as_u64().is_some_and(|v| v >= last_v),
        "{refreshed}"
    );
    // Falling behind again and staying behind: disconnected after MAX_STALE.
    for _ in 0..SOCKET_QUEUE {
        let cmd = Command::Client {
            sub: fast_sub,
            msg: ClientMessage::Sit { seat: Side::Black },
            lag_ms: 0,
            received: std::time::Instant::now(),
        };
        tx.send(cmd).await.expect("actor alive");
        let cmd = Command::Client {
            sub: fast_sub,
            msg: ClientMessage::Stand,
            lag_ms: 0,
            received: std::time::Instant::now(),
        };
        tx.send(cmd).await.expect("actor alive");
    }
    // Reading now would drain the queue and earn a refresh, so wait without reading until
    // the actor lets go of the socket (no fixed margin: a loaded machine only makes it late).
    let started = std::time::Instant::now();
    while !slow.is_closed() {
        assert!(
            started.elapsed() < super::subscribers::MAX_STALE * 4,
            "a stale socket is dropped"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(
        started.elapsed() >= super::subscribers::MAX_STALE - Duration::from_secs(1),
        "not before MAX_STALE: {:?}",
        started.elapsed()
    );
    let mut rest = Vec::new();
    while let Some(out) = slow.recv().await {
        rest.push(out);
    }
    assert_eq!(
        rest.len(),
        SOCKET_QUEUE + 1,
        "a queue's worth, then the close"
    );
    assert!(
        matches!(rest.last(), Some(Outgoing::Close(1008, _))),
        "told to close with 1008"
    );
    stop(&tables, dir).await;
}

// Takebacks at tournament tables are refused: `tests/it/tournaments.rs` plays a tournament
// game over real sockets and asks for one.
