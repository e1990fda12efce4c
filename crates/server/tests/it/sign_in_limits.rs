//! Sign-in limits (issue 34, item 4): checks counted before they run, so parallel
//! guesses cannot overrun a username's budget; that budget kept per address, so a
//! guesser cannot lock the owner out; the password gate that refuses at once when its
//! line is full; and IPv6 addresses counted by their network for every per-address
//! limit.

use std::net::IpAddr;

use damka_server::limits::RateKey;
use serde_json::json;

use crate::accounts::{account, cfg, metric};
use crate::common::{Backend, Response, TestDb, TestServer};

/// A sign-in from address `ip`.
async fn sign_in_from(s: &TestServer, ip: &str, username: &str, password: &str) -> Response {
    s.http_from(
        ip,
        "POST",
        "/api/session",
        None,
        Some(json!({"username": username, "password": password})),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_guesses_are_counted_before_they_are_checked() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    account(&s, "Filemon", "kot filemon 1").await;
    let before = metric(&s, "damka_password_checks_total").await;
    // 120 guesses at once from four addresses: each address may fail 5 times on this
    // name, so 20 checks at most run (before: 87 did, and one found the password).
    let guesses = (0..120).map(|i| {
        let ip = format!("10.4.0.{}", i % 4 + 1);
        let s = &s;
        async move { sign_in_from(s, &ip, "Filemon", &format!("guess {i}")).await }
    });
    let answers = futures_util::future::join_all(guesses).await;
    let mut statuses: Vec<u16> = answers.iter().map(|r| r.status).collect();
    statuses.sort_unstable();
    statuses.dedup();
    assert!(
        statuses.iter().all(|s| [401, 429].contains(s)),
        "{statuses:?}"
    );
    let checks = metric(&s, "damka_password_checks_total").await - before;
    assert!(checks <= 20.0, "{checks} password checks ran");
    let failed = answers.iter().filter(|r| r.status == 401).count();
    assert_eq!(failed as f64, checks, "every check that ran was a failure");
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guesser_cannot_lock_the_owner_out() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(cfg(&db)).await;
    account(&s, "Filemon", "kot filemon 1").await;
    // The guesser spends its budget for the name, then waits (one more every 30 s).
    for _ in 0..5 {
        let r = sign_in_from(&s, "10.5.0.1", "Filemon", "guess").await;
        assert_eq!(r.status, 401, "{}", r.body);
    }
    let r = sign_in_from(&s, "10.5.0.1", "Filemon", "guess").await;
    assert_eq!(r.status, 429, "{}", r.body);
    // The owner, from elsewhere, signs in (before: 429 for 30 s after every guess).
    let r = sign_in_from(&s, "10.5.0.2", "filemon", "kot filemon 1").await;
    assert_eq!(r.status, 200, "{}", r.body);
    // And signing in again and again costs the owner nothing.
    for _ in 0..10 {
        let r = sign_in_from(&s, "10.5.0.2", "Filemon", "kot filemon 1").await;
        assert_eq!(r.status, 200, "{}", r.body);
    }
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_password_gate_answers_429_at_once() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    // One check at a time, one waiting.
    c.limits.password_hashes = 1;
    c.limits.password_queue = 1;
    let s = TestServer::start(c).await;
    account(&s, "Filemon", "kot filemon 1").await;
    let core = s.server.state.core.clone();
    let gate = core.passwords.gate();
    // The test holds the one slot, as a long check would.
    let held = gate
        .enter(RateKey::new(IpAddr::from([10, 6, 0, 9]), 64))
        .await
        .expect("a free slot");
    let checks = metric(&s, "damka_password_checks_total").await;
    let waiting = {
        let addr = s.addr.clone();
        tokio::spawn(async move {
            crate::common::request(
                &addr,
                "POST",
                "/api/session",
                None,
                Some(r#"{"username": "Filemon", "password": "kot filemon 1"}"#),
                &[("X-Forwarded-For", "10.6.0.1")],
            )
            .await
        })
    };
    let deadline = tokio::time::Instant::now() + crate::common::ws::TIMEOUT;
    while gate.waiting() < 1 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the sign-in never queued"
        );
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
    // The line is full: the next check is refused while the slot is still held (so at
    // once, not after waiting), with Retry-After, and nothing ran.
    let refused = sign_in_from(&s, "10.6.0.2", "Filemon", "kot filemon 1").await;
    assert_eq!(
        (refused.status, refused.error_code().as_str()),
        (429, "rate_limited"),
        "{}",
        refused.body
    );
    assert_eq!(refused.header("retry-after"), Some("1"));
    assert_eq!(gate.running(), 1);
    assert_eq!(metric(&s, "damka_password_checks_total").await, checks);
    // A refused check spent none of its budgets: the address signs in five times more
    // once there is room (each success costs nothing either).
    drop(held);
    let served = waiting.await.unwrap();
    assert_eq!(served.status, 200, "{}", served.body);
    for _ in 0..5 {
        let r = sign_in_from(&s, "10.6.0.2", "Filemon", "wrong").await;
        assert_eq!(r.status, 401, "{}", r.body);
    }
    let r = sign_in_from(&s, "10.6.0.2", "Filemon", "wrong").await;
    assert_eq!(
        r.status, 429,
        "five failures, then the name's budget is spent"
    );
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ipv6_addresses_of_one_network_share_a_limit() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    c.limits.guests_per_minute = 3;
    let s = TestServer::start(c).await;
    let new_guest = |ip: &'static str| {
        let s = &s;
        async move {
            s.http_from(ip, "POST", "/api/guest", None, Some(json!({})))
                .await
                .status
        }
    };
    // Three addresses of one /64, then a fourth of it: one client, refused.
    for ip in ["2001:db8:1:2::1", "2001:db8:1:2::2", "2001:db8:1:2:aaaa::3"] {
        assert_eq!(new_guest(ip).await, 200, "{ip}");
    }
    assert_eq!(new_guest("2001:db8:1:2:ffff:ffff:ffff:ffff").await, 429);
    // Another /64 is another client.
    assert_eq!(new_guest("2001:db8:1:3::1").await, 200);
    // An IPv4-mapped address is its IPv4 address.
    for _ in 0..3 {
        assert_eq!(new_guest("::ffff:10.7.0.1").await, 200);
    }
    assert_eq!(new_guest("10.7.0.1").await, 429);
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ipv6_prefix_is_configurable() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = cfg(&db);
    c.limits.guests_per_minute = 1;
    c.limits.ipv6_prefix = 48;
    let s = TestServer::start(c).await;
    let status = |ip: &'static str| {
        let s = &s;
        async move {
            s.http_from(ip, "POST", "/api/guest", None, Some(json!({})))
                .await
                .status
        }
    };
    assert_eq!(status("2001:db8:1:2::1").await, 200);
    assert_eq!(status("2001:db8:1:9::1").await, 429, "the same /48");
    assert_eq!(status("2001:db8:2::1").await, 200);
    s.stop().await;
    db.cleanup().await;
}
