//! The `damka` binary as a child process for the restart tests: started on a given port
//! and database, its output drained (and shown with a failing test), stopped with SIGKILL
//! or SIGTERM, and a few HTTP and WebSocket helpers bound to its address.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::common::{Response, Ws, request};

/// The `damka` binary running as a child process.
pub struct Damka {
    child: Child,
    /// `127.0.0.1:port`.
    pub addr: String,
}

impl Damka {
    /// Starts `damka` on `port` with `database_url` and waits for its "listening" line.
    pub fn spawn(database_url: &str, port: u16) -> Damka {
        Damka::spawn_with(database_url, port, &[])
    }

    /// [`Damka::spawn`] with more flags.
    pub fn spawn_with(database_url: &str, port: u16, extra: &[&str]) -> Damka {
        let addr = format!("127.0.0.1:{port}");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_damka"));
        // Only the flags below configure it: nothing inherited from the environment.
        for var in [
            "DATABASE_URL",
            "DAMKA_BIND",
            "DAMKA_ALLOWED_ORIGINS",
            "DAMKA_ROOMS",
            "DAMKA_LOG_FORMAT",
            "DAMKA_FIRST_MOVE_SECS",
            "DAMKA_EMPTY_TABLE_GRACE_SECS",
            "DAMKA_MAX_TABLES_PER_GUEST",
            "DAMKA_DRAW_OFFER_PLIES",
            "DAMKA_SHUTDOWN_TIMEOUT_SECS",
            "DAMKA_CLUSTER",
            "DAMKA_NODE_NAME",
            "DAMKA_LEASE_MS",
            "DAMKA_NATS_PREFIX",
            "DAMKA_WS_PING_MS",
        ] {
            cmd.env_remove(var);
        }
        // No endgame tables: made on first use, they would take a core for minutes.
        cmd.env("DAMKA_BITBASE_PIECES", "0");
        let mut child = cmd
            .args(["--bind", &addr, "--database-url", database_url])
            .args(["--shutdown-timeout-secs", "5"])
            .args(extra)
            .env("RUST_LOG", "info")
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("damka starts");
        let (tx, rx) = mpsc::channel();
        // Both pipes are drained for the whole life of the process (a full pipe would
        // block the server); the lines show up in the output of a failing test.
        let stdout = child.stdout.take().expect("stdout");
        let stderr = child.stderr.take().expect("stderr");
        let out_tx = tx.clone();
        std::thread::spawn(move || forward(BufReader::new(stdout), &out_tx));
        std::thread::spawn(move || forward(BufReader::new(stderr), &tx));
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) if line.starts_with("damka listening on") => break,
                Ok(_) => {}
                Err(e) => {
                    let status = child.try_wait();
                    panic!("damka did not report listening ({e}); exit status {status:?}");
                }
            }
        }
        Damka { child, addr }
    }

    /// SIGKILL (what `Child::kill` sends on Unix), then reaps the process.
    pub fn kill(&mut self) {
        self.child.kill().expect("SIGKILL");
        self.child.wait().expect("reaped");
    }

    /// Sends SIGTERM with the `kill` command.
    pub fn terminate(&self) {
        self.signal("TERM");
    }

    /// Sends signal `name` (`TERM`, `STOP`, `CONT`) with the `kill` command.
    pub fn signal(&self, name: &str) {
        let status = Command::new("kill")
            .args([&format!("-{name}"), &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill -{name} failed: {status}");
    }

    /// Waits up to `limit` for the process to exit.
    pub async fn exited(&mut self, limit: Duration) -> ExitStatus {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().expect("try_wait") {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "damka still running {limit:?} after SIGTERM"
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// An HTTP request to the server (`Value::Null`: no body).
    pub async fn http(
        &self,
        method: &str,
        path: &str,
        cookie: Option<&str>,
        body: Value,
    ) -> Response {
        let body = (!body.is_null()).then(|| body.to_string());
        request(&self.addr, method, path, cookie, body.as_deref(), &[]).await
    }

    /// A new guest named `name`; returns its session cookie.
    pub async fn guest(&self, name: &str) -> String {
        let r = self
            .http("POST", "/api/guest", None, json!({"name": name}))
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.cookie().expect("session cookie")
    }

    /// `GET /api/games/{id}`, which must answer 200.
    pub async fn game(&self, id: &str) -> Value {
        let r = self
            .http("GET", &format!("/api/games/{id}"), None, Value::Null)
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        r.json()
    }

    /// Opens a table socket as the guest of `cookie`.
    pub async fn table_ws(&self, table: &str, cookie: &str) -> Ws {
        Ws::connect(
            &self.addr,
            &format!("/ws/tables/{table}"),
            Some(cookie),
            None,
        )
        .await
    }
}

impl Drop for Damka {
    fn drop(&mut self) {
        // A failed test must not leave a server behind.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// One player's socket and cookie.
pub struct Seat {
    /// The table socket.
    pub ws: Ws,
    /// The guest's session cookie.
    pub cookie: String,
}

/// A new Russian table at 5 min + `increment` s created on `on` by a guest made there,
/// who sits as White with a socket on `white_on`; a second guest, made on `black_on`,
/// sits as Black with a socket there; both press start. Returns the table, the game id,
/// the seats and White's `game_started`. On one server all three are the same.
pub async fn start_game(
    on: &Damka,
    white_on: &Damka,
    black_on: &Damka,
    increment: u64,
) -> (String, String, Seat, Seat, Value) {
    let a = on.guest("Ala").await;
    let b = black_on.guest("Bolek").await;
    let opts = json!({"minutes": 5, "increment": increment, "random_opening": false,
                      "capture_optional": false, "seat": "white"});
    let r = on
        .http("POST", "/api/rooms/russian/tables", Some(&a), opts)
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let table = r.json()["id"].as_str().expect("table id").to_owned();
    let mut wa = white_on.table_ws(&table, &a).await;
    assert_eq!(wa.recv_t("state").await["you"]["seat"], "white");
    let mut wb = black_on.table_ws(&table, &b).await;
    wb.state().await;
    wb.send(json!({"t": "sit", "seat": "black"})).await;
    wb.recv_t("seated").await;
    wa.send(json!({"t": "start"})).await;
    wb.send(json!({"t": "start"})).await;
    let started = wa.recv_t("game_started").await;
    wb.recv_t("game_started").await;
    let game = started["id"].as_str().expect("game id").to_owned();
    let white = Seat { ws: wa, cookie: a };
    let black = Seat { ws: wb, cookie: b };
    (table, game, white, black, started)
}

/// Copies a child's output lines to the test output and to `tx`.
fn forward(reader: impl BufRead, tx: &mpsc::Sender<String>) {
    for line in reader.lines().map_while(Result::ok) {
        eprintln!("[damka] {line}");
        let _ = tx.send(line);
    }
}

/// A port nobody listens on right now.
pub fn free_port() -> u16 {
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind :0");
    l.local_addr().expect("addr").port()
}
