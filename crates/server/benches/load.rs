//! Load benchmark (not a test): the real `damka` binary on loopback with a temporary
//! database, many tables whose two players play random legal moves at a set pace, and,
//! in the same job and alternating with it, a bare WebSocket relay (`load/relay.rs`: the
//! same stack with no rules, clocks or storage) driven by the same players, so every
//! figure can be read against the floor of this design on this machine.
//!
//! Reports, per run: moves per second, the move round trip (send → `ack`, which against
//! `damka` includes the durable write) at p50/p90/p99/p99.9/max, the server's CPU per
//! move (from `/proc` of its process), the database's CPU (PostgreSQL runs outside the
//! server), the clients' own CPU and what the rest of the machine used, peak RSS, the load
//! average, and how late the server ruled the flag of the flag tables (games nobody moves
//! in, lost on time under the load; `damka_flag_late_seconds` of `/metrics`). Then a
//! summary with each `damka` run's ratios to the relay run of its round.
//!
//! ```text
//! cargo bench -p damka-server --bench load                       # the small default
//! cargo bench -p damka-server --bench load -- --preset 2000      # 2,000 tables, 1 move/s per player
//! cargo bench -p damka-server --bench load -- --preset 5000      # 5,000 tables, 1 move per 2 s per player
//! cargo bench -p damka-server --bench load -- --preset saturate  # closed loop: the ceiling
//! cargo bench -p damka-server --bench load -- --preset 5000 --postgres postgres://postgres@127.0.0.1:5432/postgres
//! ```
//!
//! Pacing (`--period MS`): a player moves when it is its turn (the previous move's event
//! reached its socket, its own last move is acknowledged), but never sooner than `period`
//! after its own previous move; so with a period well above the round trip each player
//! moves once per period and a table plays two moves per period, spread evenly (see
//! `load/players.rs`). Presets:
//!
//! | preset | tables | period | spectators | flag tables | timed |
//! |---|---|---|---|---|---|
//! | `small` (default) | 200 | 125 ms (8 moves/s per player: closed loop under the 10/s socket limit) | 1,000 | 0 | 20 s after 2 s |
//! | `2000` | 2,000 (4,000 players, 4,000 moves/s) | 1 s | 0 | 20 | 85 s after 5 s |
//! | `5000` | 5,000 (10,000 players, 5,000 moves/s) | 2 s | 0 | 50 | 85 s after 5 s |
//! | `saturate` | 3,000 (offered 48,000 moves/s) | 125 ms | 0 | 0 | 25 s after 5 s |
//!
//! Flags override a preset: `--tables`, `--spectators`, `--period` (ms), `--secs` (the
//! whole run, warm-up included), `--warmup` (s), `--flag-tables`, `--rounds` (relay and
//! `damka` alternate this many times, 1), `--backends` (`sqlite,postgres`; PostgreSQL only
//! with a URL), `--no-relay`, `--pad` (bytes of padding in the relay's move frame, 280:
//! about the size of `damka`'s move event), `--damka-args "..."` (more server flags, e.g.
//! `--ws-ping-ms 30000`), `--before-bin PATH` (another `damka` binary, e.g. a build of an
//! older commit, run before this build's on each backend, so before and after are
//! measured in the same job), `--wrap "CMD ARGS"` (run the server under a command, e.g.
//! `valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out`), `--postgres URL` (`DAMKA_LOAD_POSTGRES_URL`, else
//! `DAMKA_TEST_POSTGRES_URL`: an admin URL; a fresh database is made there per run).
//! The per-address and per-guest limits of the server are lifted (0) for the run: every
//! client is on 127.0.0.1.

#[path = "load/client.rs"]
mod client;
#[path = "load/machine.rs"]
mod machine;
#[path = "load/players.rs"]
mod players;
#[path = "load/relay.rs"]
mod relay;
#[path = "load/report.rs"]
mod report;
#[path = "load/server.rs"]
mod server;
#[path = "load/setup.rs"]
mod setup;

use std::time::{Duration, Instant};

use machine::Cpu;
use players::{Plan, TableStats, Target};
use report::Run;
use server::{Db, Server, http};
use tokio::sync::watch;

/// What to run.
struct Settings {
    tables: usize,
    spectators: usize,
    period: Duration,
    secs: u64,
    warmup: u64,
    flag_tables: usize,
    rounds: usize,
    backends: Vec<String>,
    relay: bool,
    pad: usize,
    damka_args: Vec<String>,
    postgres: Option<String>,
    /// Another `damka` binary run too, alternating with this build's.
    before_bin: Option<String>,
    /// A command the server runs under (e.g. valgrind).
    wrap: Vec<String>,
}

impl Settings {
    /// The preset, then flags.
    fn parse() -> Result<Settings, String> {
        let env = |name: &str| std::env::var(name).ok().filter(|v| !v.is_empty());
        let mut flags: Vec<(String, String)> = Vec::new();
        let mut relay = true;
        let mut args = std::env::args().skip(1);
        while let Some(arg) = args.next() {
            // `cargo bench` passes `--bench` to every bench binary.
            if arg == "--bench" {
                continue;
            }
            if arg == "--no-relay" {
                relay = false;
                continue;
            }
            let name = arg.strip_prefix("--").ok_or(format!("unexpected {arg}"))?;
            let value = args.next().ok_or(format!("{arg} needs a value"))?;
            flags.push((name.to_owned(), value));
        }
        let get = |name: &str| {
            flags
                .iter()
                .rev()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone())
        };
        for (name, _) in &flags {
            let known = [
                "preset",
                "tables",
                "spectators",
                "period",
                "secs",
                "warmup",
                "flag-tables",
                "rounds",
                "backends",
                "pad",
                "damka-args",
                "postgres",
                "before-bin",
                "wrap",
            ];
            if !known.contains(&name.as_str()) {
                return Err(format!("unknown flag --{name}"));
            }
        }
        // tables, spectators, period ms, secs, warm-up s, flag tables
        let preset = get("preset").unwrap_or_else(|| "small".into());
        let (tables, spectators, period, secs, warmup, flag_tables) = match preset.as_str() {
            "small" => (200, 1000, 125, 22, 2, 0),
            "2000" => (2000, 0, 1000, 90, 5, 20),
            "5000" => (5000, 0, 2000, 90, 5, 50),
            "saturate" => (3000, 0, 125, 30, 5, 0),
            other => return Err(format!("unknown preset {other}")),
        };
        let num = |name: &str, default: u64| -> Result<u64, String> {
            get(name).map_or(Ok(default), |v| {
                v.parse()
                    .map_err(|_| format!("--{name}: not a number: {v}"))
            })
        };
        let settings = Settings {
            tables: num("tables", tables)? as usize,
            spectators: num("spectators", spectators)? as usize,
            period: Duration::from_millis(num("period", period)?),
            secs: num("secs", secs)?,
            warmup: num("warmup", warmup)?,
            flag_tables: num("flag-tables", flag_tables)? as usize,
            rounds: num("rounds", 1)? as usize,
            backends: get("backends")
                .unwrap_or_else(|| "sqlite,postgres".into())
                .split(',')
                .map(str::to_owned)
                .collect(),
            relay,
            pad: num("pad", 280)? as usize,
            damka_args: get("damka-args")
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_owned)
                .collect(),
            postgres: get("postgres")
                .or_else(|| env("DAMKA_LOAD_POSTGRES_URL"))
                .or_else(|| env("DAMKA_TEST_POSTGRES_URL")),
            before_bin: get("before-bin"),
            wrap: get("wrap")
                .unwrap_or_default()
                .split_whitespace()
                .map(str::to_owned)
                .collect(),
        };
        if settings.tables == 0 || settings.secs <= settings.warmup {
            return Err("--tables must be positive and --secs above --warmup".into());
        }
        Ok(settings)
    }
}

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let mut args = std::env::args().skip(1);
    if args.next().as_deref() == Some("--serve-relay") {
        let addr = args.next().unwrap_or_else(|| "127.0.0.1:0".into());
        return relay::serve(&addr).await;
    }
    let settings = match Settings::parse() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("load: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut runs = Vec::new();
    let mut ok = true;
    for round in 1..=settings.rounds {
        // (label, backend, binary): the relay, then per backend the other binary (if
        // any) and this build's.
        let mut jobs: Vec<(String, &str, Option<&str>)> = Vec::new();
        if settings.relay {
            jobs.push(("relay".into(), "", None));
        }
        let this = env!("CARGO_BIN_EXE_damka");
        for b in &settings.backends {
            if b == "postgres" && settings.postgres.is_none() {
                eprintln!("load: no PostgreSQL URL: skipping postgres");
                continue;
            }
            if b != "sqlite" && b != "postgres" {
                eprintln!("load: unknown backend {b}");
                continue;
            }
            if let Some(before) = &settings.before_bin {
                jobs.push((format!("before {b}"), b, Some(before)));
            }
            jobs.push((format!("damka {b}"), b, Some(this)));
        }
        for (label, backend, bin) in jobs {
            eprintln!("load: round {round}, {label}");
            let db = match backend {
                "postgres" => Db::postgres(settings.postgres.as_deref().unwrap_or(""))
                    .await
                    .map(Some),
                "sqlite" => Db::sqlite().map(Some),
                _ => Ok(None),
            };
            let result = match db {
                Ok(db) => {
                    let r = run(&settings, round, &label, bin, db.as_ref()).await;
                    if let Some(db) = db {
                        db.remove().await;
                    }
                    r
                }
                Err(e) => Err(e),
            };
            match result {
                Ok(r) => {
                    r.print();
                    runs.push(r);
                }
                Err(e) => {
                    eprintln!("load ({label}): {e}");
                    ok = false;
                }
            }
        }
    }
    report::summary(&runs);
    if ok && runs.iter().all(|r| r.failed.is_empty()) {
        std::process::ExitCode::SUCCESS
    } else {
        std::process::ExitCode::FAILURE
    }
}

/// One run: a fresh server (the relay, or the `damka` binary `bin` on `db`), its tables,
/// the timed play.
async fn run(
    s: &Settings,
    round: usize,
    label: &str,
    bin: Option<&str>,
    db: Option<&Db>,
) -> Result<Run, String> {
    let (server, target) = match (bin, db) {
        (Some(bin), Some(db)) => {
            // A limit no run reaches rather than 0 (which lifts it now): an older binary
            // given with `--before-bin` took 0 literally and refused every table.
            let mut extra = vec!["--max-tables-per-guest".to_owned(), "1000000".to_owned()];
            extra.extend(s.damka_args.iter().cloned());
            let server = Server::spawn_bin(bin, &s.wrap, &db.url(), &extra)?;
            (server, Target::Damka)
        }
        _ => (Server::spawn_relay()?, Target::Relay),
    };
    let addr = server.addr.clone();
    let relay = target == Target::Relay;
    let (plan_tx, plan_rx) = watch::channel::<Option<Plan>>(None);
    let setup_began = Instant::now();

    // The playing tables, each with its players task waiting for the plan.
    let tables = setup::many(s.tables, |i| {
        let (addr, plans) = (addr.clone(), plan_rx.clone());
        async move {
            let ready = if relay {
                setup::relay_table(&addr, i).await?
            } else {
                setup::damka_table(&addr, i, 15).await?
            };
            let seed = i as u64 + 1;
            let task = tokio::spawn(players::drive(ready.seats, ready.started, plans, seed));
            Ok((task, ready.path))
        }
    })
    .await?;
    // The flag tables (1-minute games nobody plays after the first two moves), their
    // clocks started at points spread over the first part of the run.
    let flag_window = s.secs.saturating_sub(70) as f64;
    let flags = if relay {
        Vec::new()
    } else {
        setup::many(s.flag_tables, |i| {
            let (addr, plans) = (addr.clone(), plan_rx.clone());
            let after = Duration::from_secs_f64(flag_window * i as f64 / s.flag_tables as f64);
            async move {
                let ready = setup::damka_table(&addr, s.tables + i, 1).await?;
                Ok(tokio::spawn(players::flag(
                    ready.seats,
                    ready.started,
                    plans,
                    after,
                )))
            }
        })
        .await?
    };
    eprintln!(
        "load: {} tables set up in {:.1} s",
        tables.len() + flags.len(),
        setup_began.elapsed().as_secs_f64()
    );
    let rss_players = server.rss_kib();
    let (stop_tx, stop_rx) = watch::channel(false);
    let spectators = setup::many(s.spectators, |i| {
        let (addr, path, stop) = (
            addr.clone(),
            tables[i % tables.len()].1.clone(),
            stop_rx.clone(),
        );
        async move {
            let ws = setup::spectator(&addr, &path, relay).await?;
            Ok(tokio::spawn(players::spectate(ws, stop)))
        }
    })
    .await?;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let rss_idle = server.rss_kib();

    // The timed play.
    let began = Instant::now() + Duration::from_millis(500);
    let plan = Plan {
        target,
        began,
        measure_from: began + Duration::from_secs(s.warmup),
        until: began + Duration::from_secs(s.secs),
        period: s.period,
        pad: s.pad,
    };
    let _ = plan_tx.send(Some(plan));
    let pg_db = match db {
        Some(Db::Postgres(_, name)) => Some(name.as_str()),
        _ => None,
    };
    tokio::time::sleep_until(plan.measure_from.into()).await;
    let load_before = machine::loadavg();
    let cpu_before = Cpu::now(server.pid(), pg_db);
    // The largest the SQLite WAL file gets (checkpoints must keep it from growing).
    let wal = match db {
        Some(Db::Sqlite(dir)) => Some(dir.join("damka.db-wal")),
        _ => None,
    };
    let mut wal_max = 0;
    while Instant::now() < plan.until {
        let next = (Instant::now() + Duration::from_millis(500)).min(plan.until);
        tokio::time::sleep_until(next.into()).await;
        if let Some(meta) = wal.as_ref().and_then(|p| std::fs::metadata(p).ok()) {
            wal_max = wal_max.max(meta.len());
        }
    }
    let cpu = cpu_before.until(&Cpu::now(server.pid(), pg_db));
    let load_after = machine::loadavg();

    let mut all = TableStats::default();
    let mut failed = Vec::new();
    for (task, _) in tables {
        let t = task.await.map_err(|e| format!("table task: {e}"))?;
        all.rtt_us.extend(t.rtt_us);
        all.sent_ms.extend(t.sent_ms);
        all.games_over += t.games_over;
        all.frames += t.frames;
        all.bytes += t.bytes;
        failed.extend(t.error);
    }
    let mut flagged = 0;
    let flag_count = flags.len();
    for task in flags {
        match task.await.map_err(|e| format!("flag task: {e}"))? {
            Ok(true) => flagged += 1,
            Ok(false) => {}
            Err(e) => failed.push(format!("flag table: {e}")),
        }
    }
    let peak_kib = server.peak_rss_kib();
    let metrics = if relay {
        String::new()
    } else {
        http(&addr, "GET", "/metrics", None, None).await?.body
    };
    let _ = stop_tx.send(true);
    for t in spectators {
        let _ = t.await;
    }
    if !server.stop().await {
        failed.push("the server did not exit cleanly on SIGTERM".into());
    }
    let timeline = report::timeline(&all.sent_ms, &all.rtt_us);
    all.rtt_us.sort_unstable();
    Ok(Run {
        label: label.to_owned(),
        round,
        tables: s.tables,
        spectators: s.spectators,
        period: s.period,
        measured: plan.until - plan.measure_from,
        rtt_us: all.rtt_us,
        games_over: all.games_over,
        failed,
        cpu,
        load: (load_before, load_after),
        rss_kib: (rss_players, rss_idle),
        peak_kib,
        frames: all.frames,
        bytes: all.bytes,
        flags: (flag_count, flagged),
        metrics,
        timeline,
        wal_max: wal.map(|_| wal_max),
    })
}
