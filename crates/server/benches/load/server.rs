//! The server under load: the real `damka` binary as a child process (so its memory can be
//! read from `/proc`), a temporary database, and the few HTTP calls the bench needs.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use serde_json::Value;
use sqlx::Connection;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// A temporary database: a SQLite file in a fresh folder, or a fresh PostgreSQL database.
pub enum Db {
    /// The folder holding the SQLite file.
    Sqlite(std::path::PathBuf),
    /// The admin URL and the database's name.
    Postgres(String, String),
}

impl Db {
    /// A new SQLite file under the system's temp folder.
    pub fn sqlite() -> Result<Db, String> {
        let dir = std::env::temp_dir().join(format!("damka_load_{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(Db::Sqlite(dir))
    }

    /// A new database on the PostgreSQL server of `admin_url`.
    pub async fn postgres(admin_url: &str) -> Result<Db, String> {
        let name = format!("damka_load_{}", std::process::id());
        let mut conn = sqlx::PgConnection::connect(admin_url)
            .await
            .map_err(|e| format!("PostgreSQL: {e}"))?;
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .map_err(|e| format!("create database: {e}"))?;
        let _ = conn.close().await;
        Ok(Db::Postgres(admin_url.to_owned(), name))
    }

    /// The URL the server is given.
    pub fn url(&self) -> String {
        match self {
            Db::Sqlite(dir) => format!("sqlite://{}/damka.db", dir.display()),
            Db::Postgres(admin, name) => {
                let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
                format!("{base}/{name}")
            }
        }
    }

    /// Removes the files or drops the database.
    pub async fn remove(self) {
        match self {
            Db::Sqlite(dir) => {
                let _ = std::fs::remove_dir_all(dir);
            }
            Db::Postgres(admin, name) => {
                if let Ok(mut conn) = sqlx::PgConnection::connect(&admin).await {
                    let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
                    let _ = sqlx::query(&sql).execute(&mut conn).await;
                }
            }
        }
    }
}

/// The `damka` binary, running.
pub struct Server {
    child: Child,
    /// `127.0.0.1:port`.
    pub addr: String,
}

impl Server {
    /// Starts `damka` on a free loopback port and waits until it listens.
    #[allow(dead_code)] // the bots bench's
    pub fn spawn(database_url: &str) -> Result<Server, String> {
        Server::spawn_with(database_url, &[])
    }

    /// [`Server::spawn`] with more flags.
    pub fn spawn_with(database_url: &str, extra: &[String]) -> Result<Server, String> {
        Server::spawn_bin(env!("CARGO_BIN_EXE_damka"), &[], database_url, extra)
    }

    /// [`Server::spawn_with`] with another `damka` binary (e.g. an older build, to compare
    /// in the same job), run under `wrap` (e.g. `valgrind --tool=callgrind`) if not empty.
    pub fn spawn_bin(
        bin: &str,
        wrap: &[String],
        database_url: &str,
        extra: &[String],
    ) -> Result<Server, String> {
        let addr = free_addr()?;
        let mut cmd = match wrap.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(bin);
                c
            }
            None => Command::new(bin),
        };
        cmd.args(["--bind", &addr, "--database-url", database_url])
            // A long first-move window: a table that is slow to get going under load must
            // not be aborted, the bench measures moves.
            .args(["--first-move-secs", "300"])
            // Every simulated client is on 127.0.0.1: lift the per-address limits (0 lifts
            // a limit).
            .args(["--max-sockets-per-address", "0", "--guests-per-minute", "0"])
            .args(["--max-tables-per-address", "0"])
            // Limits newer than some `--before-bin` builds: by environment, which an
            // older binary ignores where it would refuse an unknown flag.
            .env("DAMKA_SOCKET_OPENS_PER_SECOND", "0")
            .env("DAMKA_SEAT_CHANGES_PER_SECOND", "0")
            .args(extra)
            .env_remove("DAMKA_ROOMS")
            // DAMKA_LOAD_SERVER_LOG: the server's RUST_LOG (default: warnings only).
            .env(
                "RUST_LOG",
                std::env::var("DAMKA_LOAD_SERVER_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .env("NO_COLOR", "1");
        Server::start(cmd, addr, "damka listening on")
    }

    /// Starts this bench's own executable as the bare relay (`--serve-relay ADDR`, see
    /// `relay.rs`) on a free loopback port.
    #[allow(dead_code)] // the load bench's, not the bots bench's
    pub fn spawn_relay() -> Result<Server, String> {
        let addr = free_addr()?;
        let exe = std::env::current_exe().map_err(|e| format!("no executable path: {e}"))?;
        let mut cmd = Command::new(exe);
        cmd.args(["--serve-relay", &addr]);
        Server::start(cmd, addr, "relay listening on")
    }

    /// Runs `cmd` and waits for the line starting with `ready` on its standard output.
    fn start(mut cmd: Command, addr: String, ready: &'static str) -> Result<Server, String> {
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start the server: {e}"))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        // Drained for the server's whole life: a full pipe would stall it.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line.clone()).is_err() {
                    eprintln!("[server] {line}");
                }
            }
        });
        // Long enough for a server started under valgrind.
        let deadline = Instant::now() + Duration::from_secs(120);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) if line.starts_with(ready) => break,
                Ok(line) => eprintln!("[server] {line}"),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err("the server exited before it listened (see its log above)".into());
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    return Err("the server did not start listening in 120 s".into());
                }
            }
        }
        Ok(Server { child, addr })
    }

    /// The server's process id.
    #[allow(dead_code)] // the load bench's, not the bots bench's
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident memory in KiB (`VmRSS`), or 0 where `/proc` is missing.
    pub fn rss_kib(&self) -> u64 {
        self.proc_status("VmRSS:")
    }

    /// The server's peak resident memory in KiB (`VmHWM`).
    pub fn peak_rss_kib(&self) -> u64 {
        self.proc_status("VmHWM:")
    }

    /// CPU time the server has used so far (user + system), from `/proc/<pid>/stat`.
    #[allow(dead_code)] // the bots bench's
    pub fn cpu_time(&self) -> Duration {
        cpu_time_of(&self.child.id().to_string())
    }

    fn proc_status(&self, field: &str) -> u64 {
        let path = format!("/proc/{}/status", self.child.id());
        let text = std::fs::read_to_string(path).unwrap_or_default();
        text.lines()
            .find_map(|l| l.strip_prefix(field))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .unwrap_or(0)
    }

    /// Graceful stop (SIGTERM); returns whether it exited successfully within 20 s.
    pub async fn stop(mut self) -> bool {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status();
        if !sent.is_ok_and(|s| s.success()) {
            let _ = self.child.kill();
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status.success();
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        false
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// A free `127.0.0.1:port` (bound and released: another process could take it in
/// between, which on a bench machine does not happen in practice).
fn free_addr() -> Result<String, String> {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    Ok(format!("127.0.0.1:{port}"))
}

/// CPU time (user + system) of process `pid` (`self` for this one), or zero where
/// `/proc` is missing. Assumes the usual 100 clock ticks per second.
pub fn cpu_time_of(pid: &str) -> Duration {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    // Split after the command name, which may hold spaces: the state (field 3) comes
    // first, so utime (field 14) and stime (field 15) are at 11 and 12.
    let fields: Vec<&str> = stat
        .rsplit_once(')')
        .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
    let ticks = |i: usize| {
        fields
            .get(i)
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
    };
    Duration::from_millis((ticks(11) + ticks(12)) * 10)
}

/// An HTTP answer: status, the `Set-Cookie` pair if any, and the body.
pub struct Reply {
    /// Status code.
    pub status: u16,
    /// `name=value` of `Set-Cookie`.
    pub cookie: Option<String>,
    /// The body.
    pub body: String,
}

impl Reply {
    /// The body as JSON.
    pub fn json(&self) -> Result<Value, String> {
        serde_json::from_str(&self.body).map_err(|e| format!("{e}: {}", self.body))
    }
}

/// One HTTP/1.1 request with `Connection: close` (setup calls only: not on the hot path).
pub async fn http(
    addr: &str,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&Value>,
) -> Result<Reply, String> {
    let mut stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let body = body.map(Value::to_string).unwrap_or_default();
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n",
        body.len()
    );
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: {c}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(&body);
    stream
        .write_all(req.as_bytes())
        .await
        .map_err(|e| format!("write: {e}"))?;
    let mut raw = Vec::new();
    stream
        .read_to_end(&mut raw)
        .await
        .map_err(|e| format!("read: {e}"))?;
    let text = String::from_utf8_lossy(&raw);
    let (head, body) = text.split_once("\r\n\r\n").ok_or("no response head")?;
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or("no status line")?;
    let mut cookie = None;
    let mut chunked = false;
    for (name, value) in lines.filter_map(|l| l.split_once(':')) {
        let name = name.trim().to_ascii_lowercase();
        if name == "set-cookie" {
            cookie = value.trim().split(';').next().map(str::to_owned);
        } else if name == "transfer-encoding" && value.contains("chunked") {
            chunked = true;
        }
    }
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Ok(Reply {
        status,
        cookie,
        body,
    })
}

/// Joins the chunks of a chunked body.
fn dechunk(mut s: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = s.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        s = rest[n..].trim_start_matches("\r\n");
    }
    out
}
