//! Load benchmark (not a test): the real `damka` binary on loopback with a temporary
//! database, many tables whose two players play random legal moves as fast as the acks
//! come back (paced under the server's per-socket rate limit), and idle spectators.
//!
//! Reports moves per second, the move round trip (send → `ack`, which includes the durable
//! write) at p50/p90/p99/max, and the server's memory per idle connection (its `VmRSS`
//! before and after opening the spectators, divided by their number).
//!
//! ```text
//! cargo bench -p damka-server --bench load
//! cargo bench -p damka-server --bench load -- --tables 50 --spectators 200 --secs 10
//! DAMKA_LOAD_POSTGRES_URL=postgres://postgres@127.0.0.1:5432/postgres cargo bench -p damka-server --bench load
//! ```
//!
//! Flags (or environment variables): `--tables` (`DAMKA_LOAD_TABLES`, 200), `--spectators`
//! (`DAMKA_LOAD_SPECTATORS`, 1000, spread over the tables), `--secs` (`DAMKA_LOAD_SECS`,
//! 20), `--rate` (`DAMKA_LOAD_RATE`, moves per second per player, 8: the server allows 10
//! messages per second per socket), `--postgres URL` (`DAMKA_LOAD_POSTGRES_URL`, else
//! `DAMKA_TEST_POSTGRES_URL`: also run against a fresh database there).

#[path = "load/server.rs"]
mod server;
#[path = "load/table.rs"]
mod table;

use std::time::{Duration, Instant};

use serde_json::json;
use server::{Db, Server, http};
use table::{Player, TableStats};

/// What to run.
struct Settings {
    tables: usize,
    spectators: usize,
    secs: u64,
    rate: f64,
    postgres: Option<String>,
}

impl Settings {
    /// Defaults, then environment variables, then flags.
    fn parse() -> Result<Settings, String> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let mut raw: Vec<(String, Option<String>)> = vec![
            ("tables".into(), env("DAMKA_LOAD_TABLES")),
            ("spectators".into(), env("DAMKA_LOAD_SPECTATORS")),
            ("secs".into(), env("DAMKA_LOAD_SECS")),
            ("rate".into(), env("DAMKA_LOAD_RATE")),
            (
                "postgres".into(),
                env("DAMKA_LOAD_POSTGRES_URL").or_else(|| env("DAMKA_TEST_POSTGRES_URL")),
            ),
        ];
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            // `cargo bench` passes `--bench` to every bench binary.
            if arg == "--bench" {
                continue;
            }
            let name = arg.strip_prefix("--").ok_or(format!("unexpected {arg}"))?;
            let slot = raw
                .iter_mut()
                .find(|(n, _)| n == name)
                .ok_or(format!("unknown flag {arg}"))?;
            slot.1 = Some(args.next().ok_or(format!("{arg} needs a value"))?);
        }
        let get = |name: &str| {
            raw.iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| v.clone())
        };
        let num = |name: &str, default: f64| -> Result<f64, String> {
            get(name).map_or(Ok(default), |v| {
                v.parse()
                    .map_err(|_| format!("--{name}: not a number: {v}"))
            })
        };
        let settings = Settings {
            tables: num("tables", 200.0)? as usize,
            spectators: num("spectators", 1000.0)? as usize,
            secs: num("secs", 20.0)? as u64,
            rate: num("rate", 8.0)?,
            postgres: get("postgres"),
        };
        if settings.tables == 0 || settings.rate <= 0.0 || settings.secs == 0 {
            return Err("--tables, --rate and --secs must be positive".into());
        }
        Ok(settings)
    }
}

/// Figures of one run.
struct Report {
    backend: &'static str,
    moves: usize,
    secs: f64,
    rtt_us: Vec<u32>,
    games_over: u64,
    failed: Vec<String>,
    spectator_messages: u64,
    rss_before_kib: u64,
    rss_idle_kib: u64,
    rss_end_kib: u64,
    peak_kib: u64,
    server_metrics: String,
    /// CPU the server used during the load phase.
    server_cpu: Duration,
    /// CPU this process (the clients) used during the load phase.
    bench_cpu: Duration,
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let settings = match Settings::parse() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("load: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut backends = vec![("sqlite", None)];
    if let Some(url) = &settings.postgres {
        backends.push(("postgres", Some(url.clone())));
    }
    let mut ok = true;
    for (name, admin) in backends {
        let db = match &admin {
            None => Db::sqlite(),
            Some(url) => Db::postgres(url).await,
        };
        let result = match db {
            Ok(db) => {
                let r = run(&settings, name, &db).await;
                db.remove().await;
                r
            }
            Err(e) => Err(e),
        };
        match result {
            Ok(report) => print_report(&settings, &report),
            Err(e) => {
                eprintln!("load ({name}): {e}");
                ok = false;
            }
        }
    }
    if ok {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

/// One run against one database.
async fn run(s: &Settings, backend: &'static str, db: &Db) -> Result<Report, String> {
    let server = Server::spawn(&db.url())?;
    let addr = server.addr.clone();
    eprintln!("load ({backend}): {} tables on {addr}", s.tables);

    // Setup: two guests per table, the first creates the table (White), the second sits.
    let mut seated = Vec::with_capacity(s.tables);
    let mut table_ids = Vec::with_capacity(s.tables);
    for i in 0..s.tables {
        let a = guest(&addr, &format!("Biały {i}")).await?;
        let b = guest(&addr, &format!("Czarny {i}")).await?;
        let opts = json!({"minutes": 15, "increment": 0, "random_opening": false,
                          "capture_optional": false, "seat": "white"});
        let r = http(
            &addr,
            "POST",
            "/api/rooms/russian/tables",
            Some(&a.1),
            Some(&opts),
        )
        .await?;
        if r.status != 201 {
            return Err(format!("create table: {} {}", r.status, r.body));
        }
        let id = r.json()?["id"].as_str().ok_or("no table id")?.to_owned();
        let path = format!("/ws/tables/{id}");
        let mut wa = table::connect(&addr, &path, Some(&a.1)).await?;
        table::recv_t(&mut wa, "state").await?;
        let mut wb = table::connect(&addr, &path, Some(&b.1)).await?;
        table::recv_t(&mut wb, "state").await?;
        table::send(&mut wb, json!({"t": "sit", "seat": "black"})).await?;
        table::recv_t(&mut wb, "seated").await?;
        seated.push([Player { id: a.0, ws: wa }, Player { id: b.0, ws: wb }]);
        table_ids.push(id);
    }

    // Memory per connection: the server's RSS before and after the idle spectators.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let rss_before_kib = server.rss_kib();
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let mut spectators = Vec::with_capacity(s.spectators);
    for i in 0..s.spectators {
        let path = format!("/ws/tables/{}", table_ids[i % table_ids.len()]);
        let mut ws = table::connect(&addr, &path, None).await?;
        table::recv_t(&mut ws, "state").await?;
        spectators.push(tokio::spawn(table::spectate(ws, stop_rx.clone())));
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_idle_kib = server.rss_kib();

    // The load: every table plays until the deadline.
    let gap = Duration::from_secs_f64(1.0 / (2.0 * s.rate));
    let server_cpu_before = server.cpu_time();
    let bench_cpu_before = server::cpu_time_of("self");
    let began = Instant::now();
    let until = began + Duration::from_secs(s.secs);
    let drivers: Vec<_> = seated
        .into_iter()
        .enumerate()
        .map(|(i, players)| tokio::spawn(table::drive(players, until, gap, i as u64 + 1)))
        .collect();
    let mut all = TableStats::default();
    let mut failed = Vec::new();
    for d in drivers {
        let t = d.await.map_err(|e| format!("table task: {e}"))?;
        all.rtt_us.extend(t.rtt_us);
        all.games_over += t.games_over;
        failed.extend(t.error);
    }
    let secs = began.elapsed().as_secs_f64();
    let server_cpu = server.cpu_time().saturating_sub(server_cpu_before);
    let bench_cpu = server::cpu_time_of("self").saturating_sub(bench_cpu_before);
    let rss_end_kib = server.rss_kib();
    let peak_kib = server.peak_rss_kib();
    let metrics = http(&addr, "GET", "/metrics", None, None).await?.body;
    let _ = stop_tx.send(true);
    let mut spectator_messages = 0;
    for t in spectators {
        spectator_messages += t.await.unwrap_or(0);
    }
    if !server.stop().await {
        failed.push("the server did not exit cleanly on SIGTERM".into());
    }
    Ok(Report {
        backend,
        moves: all.rtt_us.len(),
        secs,
        rtt_us: all.rtt_us,
        games_over: all.games_over,
        failed,
        spectator_messages,
        rss_before_kib,
        rss_idle_kib,
        rss_end_kib,
        peak_kib,
        server_metrics: metrics,
        server_cpu,
        bench_cpu,
    })
}

/// A new guest: `(id, cookie)`.
async fn guest(addr: &str, name: &str) -> Result<(String, String), String> {
    let r = http(
        addr,
        "POST",
        "/api/guest",
        None,
        Some(&json!({"name": name})),
    )
    .await?;
    let id = r.json()?["id"].as_str().ok_or("no guest id")?.to_owned();
    Ok((id, r.cookie.ok_or("no session cookie")?))
}

/// The `p` quantile of sorted values (nearest rank).
fn quantile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1]) / 1000.0
}

/// A metric's value from the Prometheus text.
fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

fn print_report(s: &Settings, r: &Report) {
    let mut rtt = r.rtt_us.clone();
    rtt.sort_unstable();
    let players = 2 * s.tables;
    let per_conn = (r.rss_idle_kib.saturating_sub(r.rss_before_kib) * 1024) as f64
        / s.spectators.max(1) as f64;
    let server_moves = metric(&r.server_metrics, "damka_moves_total").unwrap_or(f64::NAN);
    let lat_sum = metric(&r.server_metrics, "damka_move_latency_seconds_sum").unwrap_or(f64::NAN);
    let lat_n = metric(&r.server_metrics, "damka_move_latency_seconds_count").unwrap_or(f64::NAN);
    println!("== damka load, {} ==", r.backend);
    println!(
        "tables {}, player sockets {players}, spectator sockets {}, {:.1} s, pace {} moves/s per player",
        s.tables, s.spectators, r.secs, s.rate
    );
    println!(
        "moves acked {} ({:.0} moves/s); games finished {}; tables failed {}",
        r.moves,
        r.moves as f64 / r.secs,
        r.games_over,
        r.failed.len()
    );
    println!(
        "move round trip (send -> ack, stored): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        quantile(&rtt, 0.50),
        quantile(&rtt, 0.90),
        quantile(&rtt, 0.99),
        quantile(&rtt, 1.0)
    );
    println!(
        "server: damka_moves_total {server_moves}, mean receive -> ack {:.2} ms",
        lat_sum / lat_n * 1000.0
    );
    println!(
        "memory: RSS {} KiB with the players, {} KiB with {} idle spectators more \
         ({per_conn:.0} bytes per connection); {} KiB at the end, peak {} KiB",
        r.rss_before_kib, r.rss_idle_kib, s.spectators, r.rss_end_kib, r.peak_kib
    );
    println!(
        "CPU during the load: server {:.1} s ({:.0}% of one core, {:.0} us per move), \
         clients {:.1} s",
        r.server_cpu.as_secs_f64(),
        100.0 * r.server_cpu.as_secs_f64() / r.secs,
        r.server_cpu.as_secs_f64() * 1e6 / r.moves.max(1) as f64,
        r.bench_cpu.as_secs_f64()
    );
    println!("spectator messages received: {}", r.spectator_messages);
    for f in r.failed.iter().take(5) {
        println!("failed: {f}");
    }
}
