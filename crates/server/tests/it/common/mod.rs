//! Test harness: a real server on 127.0.0.1:0 with a temporary SQLite file or a fresh
//! PostgreSQL database, a tiny HTTP/1.1 client, and WebSocket clients (tokio-tungstenite).
//!
//! PostgreSQL runs when `DAMKA_TEST_POSTGRES_URL` is set (e.g.
//! `postgres://postgres@127.0.0.1:5432/postgres`): every test gets its own database,
//! dropped afterwards. Without it the PostgreSQL variants print a notice and pass, unless
//! `CI` is set, in which case they fail.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used)]

pub mod http;
pub mod ws;

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

use damka_server::{Config, RunningServer};
use serde_json::Value;
use sqlx::Connection;

pub use http::{Response, request};
pub use ws::{Over, Refusal, Ws};

/// The database backends the storage and game tests run against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// A temporary SQLite file.
    Sqlite,
    /// A fresh PostgreSQL database.
    Postgres,
}

/// Generates `<name>_sqlite` and `<name>_postgres` tests from `async fn name(Backend)`.
#[macro_export]
macro_rules! both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name($crate::common::Backend::Sqlite).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    if $crate::common::postgres_url().is_none() {
                        return;
                    }
                    super::$name($crate::common::Backend::Postgres).await;
                }
            )*
        }
    };
}

/// The admin URL for PostgreSQL tests, or `None` (with a notice) when not configured.
///
/// # Panics
///
/// When `CI` is set and `DAMKA_TEST_POSTGRES_URL` is not: CI must test both backends.
pub fn postgres_url() -> Option<String> {
    match std::env::var("DAMKA_TEST_POSTGRES_URL") {
        Ok(url) if !url.is_empty() => Some(url),
        _ => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but DAMKA_TEST_POSTGRES_URL is not: the PostgreSQL tests must run"
            );
            eprintln!("DAMKA_TEST_POSTGRES_URL not set: skipping a PostgreSQL test");
            None
        }
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

fn unique(prefix: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    format!(
        "{prefix}_{}_{}_{nanos}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    )
}

/// A database that lives as long as the test: a temp SQLite file or a PostgreSQL db.
pub struct TestDb {
    /// The URL the server uses.
    pub url: String,
    /// The SQLite folder to remove.
    dir: Option<PathBuf>,
    /// The PostgreSQL admin URL and database name to drop.
    pg: Option<(String, String)>,
}

impl TestDb {
    /// Creates the database.
    pub async fn new(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = std::env::temp_dir().join(unique("damka_test"));
                std::fs::create_dir_all(&dir).unwrap();
                let url = format!("sqlite://{}/damka.db", dir.display());
                TestDb {
                    url,
                    dir: Some(dir),
                    pg: None,
                }
            }
            Backend::Postgres => {
                let admin = postgres_url().expect("postgres url");
                let name = unique("damka_test");
                let mut conn = sqlx::PgConnection::connect(&admin)
                    .await
                    .expect("connect to PostgreSQL");
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .await
                    .expect("create database");
                conn.close().await.ok();
                let base = admin
                    .rsplit_once('/')
                    .map(|(b, _)| b.to_owned())
                    .unwrap_or(admin.clone());
                TestDb {
                    url: format!("{base}/{name}"),
                    dir: None,
                    pg: Some((admin, name)),
                }
            }
        }
    }

    /// Drops the database (PostgreSQL) or removes the files (SQLite). Dropping the
    /// `TestDb` does the same, so a failing test cleans up too.
    pub async fn cleanup(self) {
        drop(self);
    }
}

impl Drop for TestDb {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some((admin, name)) = self.pg.take() {
            // Drop runs inside the test's runtime (or while a panic unwinds): do the async
            // work on a thread with a runtime of its own.
            let _ = std::thread::spawn(move || {
                let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                    .enable_all()
                    .build()
                else {
                    return;
                };
                rt.block_on(async {
                    if let Ok(mut conn) = sqlx::PgConnection::connect(&admin).await {
                        let _ =
                            sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                                .execute(&mut conn)
                                .await;
                        let _ = conn.close().await;
                    }
                });
            })
            .join();
        }
    }
}

/// A test configuration: random port, manual time, the given database.
pub fn config(db: &TestDb) -> Config {
    let mut c = Config::defaults();
    c.bind = "127.0.0.1:0".parse().unwrap();
    c.database_url = db.url.clone();
    c.test.manual_time = true;
    c.shutdown_timeout_secs = 5;
    // Rounds follow each other at once (the break has its own test).
    c.tournaments.round_break_secs = 0;
    // Correspondence tables stay loaded (parking has its own test).
    c.tables.correspondence_park_secs = 0;
    // No endgame tables (their own test makes small ones).
    c.computer.bitbase_pieces = 0;
    // No puzzles from analysed games (a debug build's deep verification; its own test
    // asks for a shallow one).
    c.analysis.game_puzzle_depth = 0;
    c
}

/// A running test server.
pub struct TestServer {
    /// The server.
    pub server: RunningServer,
    /// `host:port`.
    pub addr: String,
}

impl TestServer {
    /// Starts a server.
    pub async fn start(config: Config) -> TestServer {
        // Server logs in test output (shown for failing tests); RUST_LOG filters.
        let _ = tracing_subscriber::fmt()
            .with_env_filter(
                tracing_subscriber::EnvFilter::try_from_default_env()
                    .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn")),
            )
            .with_test_writer()
            .try_init();
        let server = damka_server::start(config).await.expect("server starts");
        let addr = server.addr.to_string();
        TestServer { server, addr }
    }

    /// Moves the server's manual clock forward and lets the actors react.
    pub async fn advance(&self, ms: u64) {
        self.server.state.core.time.advance(ms);
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }

    /// An HTTP request.
    pub async fn http(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> Response {
        request(
            &self.addr,
            method,
            path,
            cookie,
            body.map(|b| b.to_string()).as_deref(),
            &[],
        )
        .await
    }

    /// An HTTP request from a client at address `ip` (an `X-Forwarded-For` entry: the
    /// server must be configured to trust it).
    pub async fn http_from(
        &self,
        ip: &str,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Option<Value>,
    ) -> Response {
        request(
            &self.addr,
            method,
            path,
            cookie,
            body.map(|b| b.to_string()).as_deref(),
            &[("X-Forwarded-For", ip)],
        )
        .await
    }

    /// A new guest of a client at address `ip`: its cookie and player object.
    pub async fn guest_from(&self, ip: &str, name: &str) -> (String, Value) {
        let r = self
            .http_from(
                ip,
                "POST",
                "/api/guest",
                None,
                Some(serde_json::json!({"name": name})),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let cookie = r.cookie().expect("session cookie");
        (cookie, r.json())
    }

    /// A new guest: its cookie and player object.
    pub async fn guest(&self, name: &str) -> (String, Value) {
        let r = self
            .http(
                "POST",
                "/api/guest",
                None,
                Some(serde_json::json!({"name": name})),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let cookie = r.cookie().expect("session cookie");
        (cookie, r.json())
    }

    /// Creates a table; returns its view.
    pub async fn create_table(&self, cookie: &str, room: &str, body: Value) -> Value {
        let r = self
            .http(
                "POST",
                &format!("/api/rooms/{room}/tables"),
                Some(cookie),
                Some(body),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        r.json()
    }

    /// Opens a table socket.
    pub async fn table_ws(&self, table: &str, cookie: Option<&str>) -> Ws {
        Ws::connect(&self.addr, &format!("/ws/tables/{table}"), cookie, None).await
    }

    /// Opens a room socket.
    pub async fn room_ws(&self, room: &str) -> Ws {
        Ws::connect(&self.addr, &format!("/ws/rooms/{room}"), None, None).await
    }

    /// Graceful shutdown.
    pub async fn stop(self) {
        self.server.shutdown().await;
    }
}

/// Two players at one table with a game started.
pub struct Match {
    /// Table id.
    pub table: String,
    /// Game id.
    pub game: String,
    /// The white player's socket and cookie.
    pub white: (Ws, String),
    /// The black player's socket and cookie.
    pub black: (Ws, String),
    /// The `game_started` event.
    pub started: Value,
}

impl Match {
    /// The socket of the side to move in `event` (`turn`).
    pub fn side(&mut self, color: &str) -> &mut Ws {
        if color == "white" {
            &mut self.white.0
        } else {
            &mut self.black.0
        }
    }
}

/// Two guests, a table in `room` with `options`, both seated and started.
pub async fn start_match(s: &TestServer, room: &str, options: Value) -> Match {
    let (a, _) = s.guest("Ala").await;
    let (b, _) = s.guest("Bolek").await;
    let mut opts = options;
    opts["seat"] = "white".into();
    let table = s.create_table(&a, room, opts).await;
    let id = table["id"].as_str().unwrap().to_owned();
    let mut wa = s.table_ws(&id, Some(&a)).await;
    let st = wa.recv_t("state").await;
    assert_eq!(st["you"]["seat"], "white");
    let mut wb = s.table_ws(&id, Some(&b)).await;
    wb.recv_t("state").await;
    wb.send(serde_json::json!({"t": "sit", "seat": "black"}))
        .await;
    wb.recv_t("seated").await;
    wa.send(serde_json::json!({"t": "start"})).await;
    wb.send(serde_json::json!({"t": "start"})).await;
    let started = wa.recv_t("game_started").await;
    wb.recv_t("game_started").await;
    let game = started["id"].as_str().unwrap().to_owned();
    Match {
        table: id,
        game,
        white: (wa, a),
        black: (wb, b),
        started,
    }
}

/// Plays `mv` for ply `ply` from the side to move and returns the `move` event seen by the
/// mover (after its `ack`).
pub async fn play(m: &mut Match, color: &str, mv: &str, ply: u64) -> Value {
    let ws = m.side(color);
    ws.send(serde_json::json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
        .await;
    let ack = ws.recv_t("ack").await;
    assert_eq!(ack["ack"], ply);
    let ev = ws.recv_t("move").await;
    let other = if color == "white" { "black" } else { "white" };
    let seen = m.side(other).recv_t("move").await;
    assert_eq!(seen["ply"], ev["ply"]);
    ev
}

/// Plays the first legal move `n` times from the `game_started` event; returns the last
/// `move` event.
pub async fn play_first_moves(m: &mut Match, n: u64) -> Value {
    let ply = m.started["opening"].as_array().map_or(0, Vec::len) as u64;
    let start = m.started.clone();
    play_first_moves_from(m, &start, ply, n).await
}

/// Plays the first legal move `n` times from `from` (a `game_started`, `state` or `move`
/// with `turn` and `legal`), after `ply` plies; returns the last `move` event (`from` if
/// `n` is 0).
pub async fn play_first_moves_from(m: &mut Match, from: &Value, ply: u64, n: u64) -> Value {
    let mut last = from.clone();
    for ply in ply + 1..=ply + n {
        let turn = last["turn"].as_str().unwrap().to_owned();
        let mv = last["legal"][0].as_str().unwrap().to_owned();
        last = play(m, &turn, &mv, ply).await;
    }
    last
}

/// One move each from `started` (a `game_started`): the first mover's socket plays its
/// first legal move, the other socket its first legal reply, each acknowledged and seen
/// by both; for tests whose two players are plain sockets rather than a [`Match`].
pub async fn one_move_each(first: &mut Ws, second: &mut Ws, started: &Value) {
    let mv = started["legal"][0].as_str().unwrap();
    first
        .send(serde_json::json!({"t": "move", "move": mv, "ply": 1, "ack": 1}))
        .await;
    first.recv_t("ack").await;
    assert_eq!(first.recv_t("move").await["ply"], 1);
    let seen = second.recv_t("move").await;
    let mv = seen["legal"][0].as_str().unwrap();
    second
        .send(serde_json::json!({"t": "move", "move": mv, "ply": 2, "ack": 2}))
        .await;
    second.recv_t("ack").await;
    assert_eq!(second.recv_t("move").await["ply"], 2);
    assert_eq!(first.recv_t("move").await["ply"], 2);
}

/// Polls `/readyz` until it answers `status` (the server's storage state changes in the
/// background); panics after [`ws::TIMEOUT`].
pub async fn wait_ready(s: &TestServer, status: u16) {
    let deadline = tokio::time::Instant::now() + ws::TIMEOUT;
    loop {
        let r = s.http("GET", "/readyz", None, None).await;
        if r.status == status {
            return;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "/readyz still answers {} ({}), not {status}",
            r.status,
            r.body
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A PostgreSQL cluster of the test's own (initdb + pg_ctl in a temp folder, on a free
/// port), which the test can stop and start again; never the shared service. Removed on
/// drop.
pub struct PgCluster {
    /// The folder with the data directory, the socket and the log.
    dir: PathBuf,
    /// The folder with `initdb`, `pg_ctl`.
    bin: PathBuf,
    /// The port it listens on (127.0.0.1).
    pub port: u16,
    /// Whether commands run as the `postgres` user (the test runs as root).
    as_postgres: bool,
}

impl PgCluster {
    /// Creates and starts a cluster; `None` (with a notice) when the PostgreSQL binaries
    /// are not installed.
    ///
    /// # Panics
    ///
    /// When `CI` is set and the binaries are missing, or initdb / pg_ctl fail.
    pub fn start() -> Option<PgCluster> {
        let mut bins: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .map(|d| {
                d.flatten()
                    .map(|e| e.path().join("bin"))
                    .filter(|b| b.join("initdb").exists() && b.join("pg_ctl").exists())
                    .collect()
            })
            .unwrap_or_default();
        bins.sort();
        let Some(bin) = bins.pop() else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI is set but no PostgreSQL binaries under /usr/lib/postgresql/*/bin"
            );
            eprintln!(
                "no PostgreSQL binaries under /usr/lib/postgresql/*/bin: skipping a test that \
                 needs a PostgreSQL of its own"
            );
            return None;
        };
        let dir = std::env::temp_dir().join(unique("damka_pg"));
        std::fs::create_dir_all(&dir).unwrap();
        let root = std::process::Command::new("id")
            .arg("-u")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
        if root {
            // initdb refuses to run as root: the cluster belongs to `postgres`.
            let ok = std::process::Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(&dir)
                .status()
                .is_ok_and(|s| s.success());
            assert!(ok, "chown the cluster folder to postgres");
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .unwrap();
        let cluster = PgCluster {
            dir,
            bin,
            port,
            as_postgres: root,
        };
        let data = cluster.dir.join("data");
        cluster.run(
            "initdb",
            &[
                "-D",
                &data.display().to_string(),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
            ],
        );
        cluster.resume();
        Some(cluster)
    }

    /// The URL of its `postgres` database.
    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/postgres", self.port)
    }

    /// Starts the (stopped) cluster again and waits until it accepts connections.
    pub fn resume(&self) {
        let data = self.dir.join("data").display().to_string();
        let log = self.dir.join("log").display().to_string();
        let opts = format!(
            "-p {} -k {} -c listen_addresses=127.0.0.1 -c fsync=off",
            self.port,
            self.dir.display()
        );
        self.run(
            "pg_ctl",
            &["-D", &data, "-l", &log, "-o", &opts, "-w", "start"],
        );
    }

    /// Stops the cluster (fast: open connections are cut) and waits until it is down.
    pub fn stop(&self) {
        let data = self.dir.join("data").display().to_string();
        self.run("pg_ctl", &["-D", &data, "-m", "fast", "-w", "stop"]);
    }

    fn command(&self, tool: &str, args: &[&str]) -> std::process::Command {
        let path = self.bin.join(tool);
        let mut c = if self.as_postgres {
            let mut c = std::process::Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            std::process::Command::new(path)
        };
        c.args(args);
        c
    }

    fn run(&self, tool: &str, args: &[&str]) {
        let out = self
            .command(tool, args)
            .output()
            .expect("run a PostgreSQL tool");
        assert!(
            out.status.success(),
            "{tool} {args:?} failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let data = self.dir.join("data").display().to_string();
        let _ = self
            .command("pg_ctl", &["-D", &data, "-m", "immediate", "-w", "stop"])
            .output();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
