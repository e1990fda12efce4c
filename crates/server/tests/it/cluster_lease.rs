//! Node and table leases in a real PostgreSQL (`damka_store::lease`): an expired node is
//! marked gone and its tables taken over, with new epochs, by a live node in one step; a
//! node whose own lease lapsed can neither renew nor take anything; a node's lease loop
//! takes a dead node's tables within a few leases and tells a node that lost its own;
//! a node keeps its lease from its join, however long its start takes.

use std::time::{Duration, Instant};

use crate::common::{Backend, TestDb};
use damka_server::cluster::node::{Node, NodeEvent};
use damka_store::lease::{Owned, Reaped};
use damka_store::{Leases, Store};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

fn owned(table: &str, epoch: i64) -> Owned {
    Owned {
        table_id: table.into(),
        room: "russian".into(),
        epoch,
    }
}

/// Reaps for `me` until something is taken (the other lease expires by the database's
/// clock), at most 10 s.
async fn reap_until_taken(pool: &Leases, me: &str) -> Reaped {
    let began = Instant::now();
    loop {
        let reaped = pool.reap(me).await.unwrap();
        if !reaped.nodes.is_empty() {
            return reaped;
        }
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "no lease expired"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_node_s_tables_go_to_a_live_node_with_new_epochs() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let db = TestDb::new(Backend::Postgres).await;
    let store = Store::connect(&db.url).await.expect("store");
    let pool = store.leases().expect("postgres");
    pool.register("a", "127.0.0.1:1", 300).await.unwrap();
    pool.register("b", "127.0.0.1:2", 60_000).await.unwrap();
    assert!(pool.register("a", "127.0.0.1:3", 300).await.is_err());
    for t in ["t1", "t2"] {
        pool.claim_new("a", t, "russian").await.unwrap();
    }
    pool.claim_new("b", "t3", "russian").await.unwrap();
    assert_eq!(pool.live_peers("b").await.unwrap(), vec!["a"]);

    // a stops renewing (killed, frozen, cut off): once its lease is over, b takes its
    // tables, each with the next epoch; b's own table is untouched.
    let reaped = reap_until_taken(&pool, "b").await;
    assert_eq!(reaped.nodes, vec!["a"]);
    assert_eq!(reaped.tables, vec![owned("t1", 2), owned("t2", 2)]);
    assert_eq!(
        pool.owned("b").await.unwrap(),
        vec![owned("t1", 2), owned("t2", 2), owned("t3", 1)]
    );
    assert!(pool.owned("a").await.unwrap().is_empty());
    assert_eq!(pool.owner("t1").await.unwrap(), Some(("b".into(), 2)));
    // a comes back: its lease is gone for good, it cannot take anything, and it no
    // longer owns what it closes.
    assert!(!pool.renew("a", 60_000).await.unwrap());
    assert_eq!(pool.reap("a").await.unwrap(), Reaped::default());
    assert!(!pool.release("a", "t1").await.unwrap());
    assert!(pool.live_peers("b").await.unwrap().is_empty());
    // A second pass finds nothing more; b renews and releases what it closes.
    assert_eq!(pool.reap("b").await.unwrap(), Reaped::default());
    assert!(pool.renew("b", 60_000).await.unwrap());
    assert!(pool.release("b", "t3").await.unwrap());
    assert_eq!(pool.owner("t3").await.unwrap(), None);
    store.close().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_whose_own_lease_lapsed_takes_nothing() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let db = TestDb::new(Backend::Postgres).await;
    let store = Store::connect(&db.url).await.expect("store");
    let pool = store.leases().expect("postgres");
    pool.register("a", "127.0.0.1:1", 200).await.unwrap();
    pool.register("b", "127.0.0.1:2", 200).await.unwrap();
    pool.claim_new("b", "t1", "russian").await.unwrap();
    // Both leases lapse (a frozen node, b too); a, before renewing, must not reap b.
    let began = Instant::now();
    while !pool.live_peers("a").await.unwrap().is_empty() {
        assert!(
            began.elapsed() < Duration::from_secs(10),
            "b's lease never ended"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(pool.reap("a").await.unwrap(), Reaped::default());
    assert_eq!(pool.owner("t1").await.unwrap(), Some(("b".into(), 1)));
    // A lapsed lease that was not reaped cannot be renewed either: the node must rejoin.
    assert!(!pool.renew("a", 60_000).await.unwrap());
    // A stopping node is not a live peer.
    pool.register("c", "127.0.0.1:3", 60_000).await.unwrap();
    pool.register("d", "127.0.0.1:4", 60_000).await.unwrap();
    pool.leaving("d").await.unwrap();
    assert!(pool.live_peers("c").await.unwrap().is_empty());
    // c (live) reaps the lapsed a and b, and takes b's table.
    let reaped = reap_until_taken(&pool, "c").await;
    assert_eq!(reaped.nodes.len(), 2, "{reaped:?}");
    assert_eq!(reaped.tables, vec![owned("t1", 2)]);
    pool.gone("d").await.unwrap();
    store.close().await;
    db.cleanup().await;
}

/// Two nodes run their lease loops; a's loop stops (the process died): b's loop takes
/// a's tables once a's lease is over. a, come back with the same id, is told its lease
/// is lost at its first renewal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lease_loop_takes_a_dead_node_s_tables_and_a_returning_node_is_told() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let db = TestDb::new(Backend::Postgres).await;
    let store = Store::connect(&db.url).await.expect("store");
    let pool = store.leases().expect("postgres");
    let lease_len = Duration::from_millis(1500);
    let a = Node::join(&pool, "a", "127.0.0.1:1", lease_len)
        .await
        .unwrap();
    let b = Node::join(&pool, "b", "127.0.0.1:2", lease_len)
        .await
        .unwrap();
    pool.claim_new("a", "t1", "russian").await.unwrap();
    let (a_tx, mut a_rx) = mpsc::channel(4);
    let (b_tx, mut b_rx) = mpsc::channel(4);
    let (a_stop, b_stop) = (CancellationToken::new(), CancellationToken::new());
    let a_loop = {
        let (a, pool, stop) = (a.clone(), pool.clone(), a_stop.clone());
        tokio::spawn(async move { a.run(&pool, a_tx, stop).await })
    };
    let b_loop = {
        let (b, pool, stop) = (b.clone(), pool.clone(), b_stop.clone());
        tokio::spawn(async move { b.run(&pool, b_tx, stop).await })
    };
    // Both renew for two leases: nothing is taken while a lives.
    tokio::time::sleep(lease_len * 2).await;
    assert!(b_rx.try_recv().is_err(), "nothing to take while a renews");
    assert_eq!(pool.owner("t1").await.unwrap(), Some(("a".into(), 1)));

    // a dies: b takes t1 with the next epoch.
    a_stop.cancel();
    a_loop.await.unwrap();
    assert!(
        a_rx.try_recv().is_err(),
        "a stopped without losing its lease"
    );
    let took = tokio::time::timeout(Duration::from_secs(10), b_rx.recv())
        .await
        .expect("b takes a's tables")
        .expect("event");
    assert_eq!(took, NodeEvent::Took(vec![owned("t1", 2)]));

    // a comes back with its old lease: its first renewal is refused, its loop says so.
    let (a_tx, mut a_rx) = mpsc::channel(4);
    let back = tokio::spawn({
        let pool = pool.clone();
        async move { a.run(&pool, a_tx, CancellationToken::new()).await }
    });
    let lost = tokio::time::timeout(Duration::from_secs(10), a_rx.recv())
        .await
        .expect("a is told")
        .expect("event");
    assert_eq!(lost, NodeEvent::Lost);
    back.await.unwrap();
    b_stop.cancel();
    b_loop.await.unwrap();
    store.close().await;
    db.cleanup().await;
}

/// A node keeps its lease from the moment it joins, however long it then takes to start
/// (restoring many tables on a loaded machine): before, the loop began only once the
/// node had restored everything, and a start longer than one lease stopped the node.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_keeps_its_lease_while_it_starts() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let Some(nats) = crate::cluster::nats_url() else {
        return;
    };
    let db = TestDb::new(Backend::Postgres).await;
    let store = Store::connect(&db.url).await.expect("store");
    let pool = store.leases().expect("postgres");
    pool.register("watcher", "127.0.0.1:1", 60_000)
        .await
        .unwrap();
    let lease = Duration::from_millis(300);
    let prefix = format!("damkatest{}", std::process::id());
    let cluster = damka_server::cluster::Cluster::join(
        pool.clone(),
        &nats,
        "slow",
        "127.0.0.1:2",
        lease,
        &prefix,
    )
    .await
    .expect("joins");
    // The start takes five leases (the time passing is the point of the test).
    tokio::time::sleep(lease * 5).await;
    assert_eq!(
        pool.live_peers("watcher").await.unwrap(),
        vec![cluster.id().to_owned()],
        "still live"
    );
    assert!(pool.reap("watcher").await.unwrap().nodes.is_empty());
    let mut events = cluster.take_events().expect("the loop's reports");
    assert!(events.try_recv().is_err(), "the lease was not lost");
    cluster.stop.cancel();
    drop(store);
    db.cleanup().await;
}
