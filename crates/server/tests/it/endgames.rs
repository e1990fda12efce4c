//! The endgame tables of a running server: made on first use and saved, read back at the
//! next start (a damaged file made again), and used by the analysis board, which then
//! knows an ending is won where its search alone does not see that far.

use std::time::Duration;

use crate::common::{Backend, TestDb, TestServer, config};

/// American: two kings against one win, but far beyond a small search's horizon.
const TWO_KINGS: &str = "W%3AWK1%2CK3%3ABK32";

async fn ready(s: &TestServer, n: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    while s.server.state.core.computer.endgames().ready() < n {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the endgame tables are not ready"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn two_kings(s: &TestServer) -> serde_json::Value {
    let r = s
        .http(
            "GET",
            &format!("/api/analyse?variant=american&fen={TWO_KINGS}"),
            None,
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn made_on_first_use_read_back_and_probed_by_the_analysis() {
    let db = TestDb::new(Backend::Sqlite).await;
    let dir = std::env::temp_dir().join(format!("damka-endgames-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut c = config(&db);
    c.analysis.analysis_board_nodes = 2_000;
    // Without tables the small search sees no win.
    let s = TestServer::start(c.clone()).await;
    let before = two_kings(&s).await;
    assert!(before["eval"].is_i64(), "{before}");
    s.server.shutdown().await;

    c.computer.bitbases_dir = dir.clone();
    c.computer.bitbase_pieces = 3;
    // As fast as it can: on a machine busy with other tests an idle thread waits long.
    c.computer.bitbase_priority = damka_server::config::BuildPriority::Normal;
    let s = TestServer::start(c.clone()).await;
    ready(&s, 7).await;
    let with = two_kings(&s).await;
    assert_eq!(with["win"], "white", "{with}");
    s.server.shutdown().await;
    let file = dir.join("american-3.dbb");
    let made = std::fs::read(&file).expect("the table was saved");
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 7);

    // Damaged: found out by its checksum and made again; the others are read.
    let mut damaged = made.clone();
    damaged[made.len() / 2] ^= 0x55;
    std::fs::write(&file, &damaged).unwrap();
    let s = TestServer::start(c).await;
    ready(&s, 7).await;
    assert_eq!(two_kings(&s).await["win"], "white");
    s.server.shutdown().await;
    assert_eq!(std::fs::read(&file).unwrap(), made, "made again, the same");
    let _ = std::fs::remove_dir_all(&dir);
    db.cleanup().await;
}
