//! The store's writers against real databases: many tables' writes share transactions
//! on both backends (and a bad write fails alone), and on SQLite the write-ahead log
//! starts over while the writer never stops committing (checkpoints beside the writer
//! must not let it grow without end), and on PostgreSQL a write fenced by a table's lease
//! is stored only while the lease holds.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb};
use damka_store::fence::{self, Fence};
use damka_store::{ClockRow, GameRow, MoveRow, NewGame, Store, StoreOptions};

fn row(ply: i64) -> MoveRow {
    MoveRow {
        ply,
        mv: format!("m{ply}"),
        fen_after: "W:W1,2,3,4,5,6,7,8,9,10,11,12:B21,22,23,24,25,26,27,28,29,30,31,32".into(),
        white_ms: 1000,
        black_ms: 1000,
        used_ms: 0,
    }
}

/// A game row `id` between guests `w` and `b`.
fn game(id: &str) -> NewGame {
    NewGame {
        row: GameRow {
            id: id.into(),
            table_id: "t".into(),
            room: "russian".into(),
            variant: "russian".into(),
            minutes: 1,
            increment_s: 0,
            days: None,
            random_opening: false,
            capture_optional: false,
            rated: false,
            white_id: "w".into(),
            white_name: "W".into(),
            black_id: "b".into(),
            black_name: "B".into(),
            initial_fen: "W:W1:B2".into(),
            opening_plies: 0,
            ballot: None,
            ballot_random: false,
            micro_match: None,
            status: damka_protocol::GameStatus::Playing,
            result: None,
            reason: None,
            clock: ClockRow {
                white_ms: 60_000,
                black_ms: 60_000,
                ply: 0,
            },
            started_at: 0,
            ended_at: None,
        },
        opening: Vec::new(),
    }
}

async fn store_with_games(db: &TestDb, options: StoreOptions, games: usize) -> Store {
    let store = Store::connect_with(&db.url, options).await.expect("store");
    store.create_guest("w", "W", "hw", 0).await.expect("guest");
    store.create_guest("b", "B", "hb", 0).await.expect("guest");
    for g in 0..games {
        store
            .insert_game(&game(&format!("g{g}")))
            .await
            .expect("game");
    }
    store
}

/// 200 tables' moves at once, and a duplicate ply among them: every good move is stored,
/// the duplicate alone is refused, and the writes took far fewer transactions than writes.
async fn concurrent_moves_share_transactions(backend: Backend) {
    let db = TestDb::new(backend).await;
    let store = store_with_games(&db, StoreOptions::default(), 201).await;
    store
        .append_move("g200", &row(1))
        .await
        .expect("first move");
    let before = store.stats().commits.get();
    let mut tasks = Vec::new();
    for g in 0..200 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move {
            for ply in 1..=5 {
                s.append_move(&format!("g{g}"), &row(ply)).await?;
            }
            Ok::<(), damka_store::StoreError>(())
        }));
    }
    let s = store.clone();
    let duplicate = tokio::spawn(async move { s.append_move("g200", &row(1)).await });
    for t in tasks {
        t.await.expect("task").expect("stored");
    }
    assert!(
        duplicate.await.expect("task").is_err(),
        "the duplicate ply is refused"
    );
    for g in [0, 99, 199] {
        assert_eq!(store.moves(&format!("g{g}")).await.expect("moves").len(), 5);
    }
    assert_eq!(store.moves("g200").await.expect("moves").len(), 1);
    let commits = store.stats().commits.get() - before;
    assert!(
        commits < 1000 / 2,
        "1,001 writes in {commits} transactions: not grouped"
    );
    let mut registry = prometheus_client::registry::Registry::default();
    store.stats().register(&mut registry);
    let mut metrics = String::new();
    prometheus_client::encoding::prometheus_text::encode(&mut metrics, &registry).unwrap();
    assert!(metrics.contains("damka_store_commits_total "), "{metrics}");
    store.close().await;
    db.cleanup().await;
}

/// SQLite under writes that never pause: the log still starts over (the checkpointer
/// holds the writer for a short last step once the log passes its limit, here 200
/// pages), so the log file stays far below what was written through it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sqlite_log_starts_over_under_steady_writes() {
    let db = TestDb::new(Backend::Sqlite).await;
    let options = StoreOptions {
        sqlite_wal_limit_pages: Some(200),
        ..StoreOptions::default()
    };
    let store = store_with_games(&db, options, 100).await;
    let wal = db
        .url
        .strip_prefix("sqlite://")
        .map(|p| format!("{p}-wal"))
        .expect("sqlite path");
    // 100 writers, each a table making moves as fast as they are stored, for 3 s (a
    // dozen checkpoints) and at least 10,000 moves.
    let began = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..100 {
        let s = store.clone();
        tasks.push(tokio::spawn(async move {
            let mut ply = 0;
            loop {
                let writes = s.stats().writes.get();
                let elapsed = began.elapsed();
                if elapsed > Duration::from_secs(60)
                    || (elapsed > Duration::from_secs(3) && writes >= 10_000)
                {
                    break;
                }
                ply += 1;
                s.append_move(&format!("g{g}"), &row(ply)).await?;
            }
            Ok::<(), damka_store::StoreError>(())
        }));
    }
    let mut largest = 0;
    while tasks.iter().any(|t| !t.is_finished()) {
        tokio::time::sleep(Duration::from_millis(20)).await;
        largest = largest.max(std::fs::metadata(&wal).map_or(0, |m| m.len()));
    }
    for t in tasks {
        t.await.expect("task").expect("stored");
    }
    let writes = store.stats().writes.get();
    // Each move changes at least one page (the index entry of its game), 4 KiB in the log.
    let written = writes * 4096;
    let held = store.stats().held.count();
    eprintln!("{writes} writes (>= {written} bytes of log), largest log {largest}, held {held}");
    assert!(writes >= 10_000, "only {writes} writes in 60 s");
    assert!(
        held > 0,
        "the writer was never held for the end of a checkpoint"
    );
    assert!(
        largest * 4 < written,
        "the log file reached {largest} bytes of the {written} written through it"
    );
    store.close().await;
    db.cleanup().await;
}

both_backends!(concurrent_moves_share_transactions);

/// SQLite out of space while 100 tables write at once: every write fails, and at once:
/// a batch that failed for want of space is not retried write by write (each retry would
/// meet the same outage; against a database out of reach, a connect timeout each), so
/// the writer made a few transactions, not one per write. Once space is back, writes
/// are stored again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_that_meets_a_full_disk_fails_whole() {
    let db = TestDb::new(Backend::Sqlite).await;
    let limit = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(0));
    let options = StoreOptions {
        sqlite_max_page_count: Some(limit.clone()),
        ..StoreOptions::default()
    };
    let store = store_with_games(&db, options, 100).await;
    let pages: i64 = {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&db.url).await.unwrap();
        sqlx::query_scalar("PRAGMA page_count")
            .fetch_one(&mut conn)
            .await
            .unwrap()
    };
    limit.store(u64::try_from(pages).unwrap(), Ordering::SeqCst);
    // Rows of 5 KB: each needs an overflow page, which the file has no room for.
    let big = |ply| MoveRow {
        mv: "x".repeat(5000),
        ..row(ply)
    };
    let failed_before = store.stats().failed.get();
    let mut tasks = Vec::new();
    for g in 0..100 {
        let (s, mv) = (store.clone(), big(1));
        tasks.push(tokio::spawn(async move {
            s.append_move(&format!("g{g}"), &mv).await
        }));
    }
    for t in tasks {
        let e = t.await.expect("task").expect_err("no space");
        assert!(e.is_outage(), "{e}");
    }
    let failed = store.stats().failed.get() - failed_before;
    assert!(
        (1..20).contains(&failed),
        "100 writes made {failed} failed transactions: retried one by one"
    );
    assert!(store.moves("g0").await.unwrap().is_empty());
    // Space is back: the store takes writes again (once its breaker's probe succeeds).
    limit.store(0, Ordering::SeqCst);
    let began = Instant::now();
    while store.append_move("g0", &big(1)).await.is_err() {
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "writes never came back"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(store.moves("g0").await.unwrap().len(), 1);
    store.close().await;
    db.cleanup().await;
}

fn fence(table: &str, node: &str, epoch: i64) -> Fence {
    Fence {
        table: table.into(),
        node: node.into(),
        epoch,
    }
}

/// Fencing (PostgreSQL): node a owns tables g0 and g1 and writes their moves; g0 is
/// handed to node b (a new epoch). From then a's fenced write for g0 is refused (and
/// stores nothing) while its write for g1, sent at the same moment, and b's for g0 are
/// stored; a refused fence is not an outage (the breaker stays closed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_fenced_by_a_lost_lease_is_refused() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let db = TestDb::new(Backend::Postgres).await;
    let store = store_with_games(&db, StoreOptions::default(), 2).await;
    let pool = store.leases().expect("postgres");
    pool.register("a", "127.0.0.1:1", 60_000).await.unwrap();
    pool.register("b", "127.0.0.1:2", 60_000).await.unwrap();
    assert_eq!(pool.claim_new("a", "g0", "russian").await.unwrap(), 1);
    assert_eq!(pool.claim_new("a", "g1", "russian").await.unwrap(), 1);
    assert!(pool.claim_new("b", "g1", "russian").await.is_err());

    fence::scope(fence("g0", "a", 1), store.append_move("g0", &row(1)))
        .await
        .expect("a owns g0");
    assert_eq!(pool.hand_over("a", "g0", "b").await.unwrap(), Some(2));
    assert_eq!(pool.hand_over("a", "g0", "b").await.unwrap(), None);

    let (second, first) = (row(2), row(1));
    let (old, other, plain) = tokio::join!(
        fence::scope(fence("g0", "a", 1), store.append_move("g0", &second)),
        fence::scope(fence("g1", "a", 1), store.append_move("g1", &first)),
        store.append_move("g1", &second),
    );
    let e = old.expect_err("a no longer owns g0");
    assert!(e.is_fenced(), "{e}");
    other.expect("a still owns g1");
    plain.expect("an unfenced write is not checked");
    assert!(
        store.breaker().healthy(),
        "a refused fence is not an outage"
    );
    assert_eq!(
        store.moves("g0").await.unwrap().len(),
        1,
        "nothing of a's stored"
    );

    fence::scope(fence("g0", "b", 2), store.append_move("g0", &row(2)))
        .await
        .expect("b owns g0 now");
    assert_eq!(store.moves("g0").await.unwrap().len(), 2);
    assert_eq!(store.moves("g1").await.unwrap().len(), 2);
    store.close().await;
    db.cleanup().await;
}
