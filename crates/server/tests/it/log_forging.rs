//! Log lines cannot be forged through ids in URLs (issue 7, item 8): a table id with a
//! newline reaches no log line as is. A test binary of its own, since it installs the
//! process's log subscriber to read what the server logs.

use std::io::Write;
use std::sync::{Arc, Mutex};

use crate::common::{Backend, TestDb, TestServer, Ws, config};

/// Everything logged, as text.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_id_cannot_forge_log_lines() {
    let captured = Captured::default();
    let writer = captured.clone();
    tracing_subscriber::fmt()
        .with_env_filter("info")
        .with_ansi(false)
        .with_writer(move || writer.clone())
        .init();
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    // A foreign origin is logged ("rejected origin") inside the socket's span, which
    // names the table.
    let forged = "/ws/tables/t1%0A2026-12-01T00:00:00Z%20ERROR%20FORGED%20admin%20logged%20in";
    let mut ws = Ws::connect(&s.addr, forged, None, Some("https://evil.example")).await;
    assert_eq!(ws.closed().await, Some(1008));
    s.stop().await;
    let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains("rejected origin"), "{text}");
    for line in text.lines() {
        assert!(
            !line.contains("ERROR FORGED"),
            "a forged line: {line:?}\n{text}"
        );
    }
}
