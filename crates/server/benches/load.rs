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
//! Cluster (`--nodes N`, N > 1; PostgreSQL only): N `damka` processes of the same build
//! on the run's one fresh database, each a node of one cluster (`--cluster` on `--nats`,
//! a `--nats-prefix` of the run's own, `--node-name n0`, `n1`, ...) with the same flags
//! as a single server. Table i is created on node i % N, where White's socket is (local);
//! Black's socket is on node (i + 1) % N (proxied to the owner over NATS), so half the
//! moves cross NATS under the same total load; spectators are spread over the nodes.
//! Reported besides the usual figures (CPU, RSS and `/metrics` summed over the nodes): the
//! round trip of local and of proxied sockets apart (p50/p90/p99/p99.9/max; the NATS hop
//! is proxied minus local), the CPU per move of each node and of all, and the CPU of
//! `nats-server` (found by its name in `/proc`; left out, with a notice, when not found)
//! over the same timed window. `--nodes 1,3` runs one node (a plain server, as without
//! the flag) and then three, in every round on the same settings; a last table sets each
//! run against the run of one node of its round: (server + NATS CPU) / 1-node CPU per
//! move, with and without the database.
//!
//! ```text
//! cargo bench -p damka-server --bench load                       # the small default
//! cargo bench -p damka-server --bench load -- --preset 2000      # 2,000 tables, 1 move/s per player
//! cargo bench -p damka-server --bench load -- --preset 5000      # 5,000 tables, 1 move per 2 s per player
//! cargo bench -p damka-server --bench load -- --preset saturate  # closed loop: the ceiling
//! cargo bench -p damka-server --bench load -- --preset 5000 --postgres postgres://postgres@127.0.0.1:5432/postgres
//! cargo bench -p damka-server --bench load -- --preset 5000 --backends postgres --nodes 1,3 --postgres postgres://...
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
//! `valgrind --tool=callgrind --callgrind-out-file=/tmp/cg.out`; every node under it),
//! `--postgres URL` (`DAMKA_LOAD_POSTGRES_URL`, else `DAMKA_TEST_POSTGRES_URL`: an admin
//! URL; a fresh database is made there per run), `--nodes N[,N...]` (`damka` processes
//! per run, 1; several numbers run in turn, in every round; above 1 needs `--backends
//! postgres`), `--nats URL` (`DAMKA_LOAD_NATS_URL`, else `nats://127.0.0.1:4222`: the
//! cluster's NATS, with JetStream). The relay stays one process whatever `--nodes` says.
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

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

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
    /// How many `damka` nodes to run, each number in turn (1: one plain server; more: a
    /// cluster on PostgreSQL and NATS).
    nodes: Vec<usize>,
    /// The NATS server of a cluster.
    nats: String,
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
                "nodes",
                "nats",
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
            nodes: get("nodes")
                .unwrap_or_else(|| "1".into())
                .split(',')
                .map(|n| match n.trim().parse::<usize>() {
                    Ok(n) if n > 0 => Ok(n),
                    _ => Err(format!("--nodes: not a positive number: {n}")),
                })
                .collect::<Result<_, _>>()?,
            nats: get("nats")
                .or_else(|| env("DAMKA_LOAD_NATS_URL"))
                .unwrap_or_else(|| "nats://127.0.0.1:4222".into()),
        };
        if settings.tables == 0 || settings.secs <= settings.warmup {
            return Err("--tables must be positive and --secs above --warmup".into());
        }
        if settings.nodes.iter().any(|&n| n > 1) {
            // A cluster's nodes share one PostgreSQL database: no SQLite, no skipping.
            if settings.backends.iter().any(|b| b != "postgres") {
                return Err(format!(
                    "--nodes above 1 runs a cluster, which needs PostgreSQL only: add \
                     --backends postgres (got --backends {})",
                    settings.backends.join(",")
                ));
            }
            if settings.postgres.is_none() {
                let e = "--nodes above 1 runs a cluster, which needs PostgreSQL: give \
                         --postgres URL or DAMKA_LOAD_POSTGRES_URL";
                return Err(e.into());
            }
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
    // Labels name the number of nodes when the job compares numbers of nodes.
    let several = settings.nodes.iter().any(|&n| n != 1);
    for round in 1..=settings.rounds {
        // The relay, then per backend and number of nodes the other binary (if any) and
        // this build's.
        let mut jobs: Vec<Job<'_>> = Vec::new();
        if settings.relay {
            jobs.push(Job {
                label: "relay".into(),
                group: "relay".into(),
                backend: "",
                bin: None,
                nodes: 1,
            });
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
            for &nodes in &settings.nodes {
                let bins = settings
                    .before_bin
                    .iter()
                    .map(|before| ("before", before.as_str()))
                    .chain([("damka", this)]);
                for (name, bin) in bins {
                    let group = format!("{name} {b}");
                    let label = match nodes {
                        _ if !several => group.clone(),
                        1 => format!("{group}, 1 node"),
                        n => format!("{group}, {n} nodes"),
                    };
                    jobs.push(Job {
                        label,
                        group,
                        backend: b,
                        bin: Some(bin),
                        nodes,
                    });
                }
            }
        }
        for job in jobs {
            eprintln!("load: round {round}, {}", job.label);
            let db = match job.backend {
                "postgres" => Db::postgres(settings.postgres.as_deref().unwrap_or(""))
                    .await
                    .map(Some),
                "sqlite" => Db::sqlite().map(Some),
                _ => Ok(None),
            };
            let result = match db {
                Ok(db) => {
                    let r = run(&settings, round, &job, db.as_ref()).await;
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
                    eprintln!("load ({}): {e}", job.label);
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

/// One run of a round: what serves, on which database, on how many nodes.
struct Job<'a> {
    /// The run's name in the report.
    label: String,
    /// The label without the number of nodes.
    group: String,
    /// `sqlite`, `postgres`, or empty for the relay.
    backend: &'a str,
    /// The `damka` binary (`None`: the relay).
    bin: Option<&'a str>,
    /// Server processes: 1, or the nodes of a cluster.
    nodes: usize,
}

/// Starts `bin` on the database at `url` with the flags `extra`: one plain server for one
/// node, else `nodes` nodes of one cluster on `--nats` under a subject prefix of the
/// run's own, each started once the previous one listens.
fn spawn_nodes(
    s: &Settings,
    round: usize,
    bin: &str,
    url: &str,
    extra: &[String],
    nodes: usize,
) -> Result<Vec<Server>, String> {
    if nodes == 1 {
        return Ok(vec![Server::spawn_bin(bin, &s.wrap, url, extra)?]);
    }
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let prefix = format!("damkaload{}r{round}x{nanos}", std::process::id());
    let mut servers = Vec::with_capacity(nodes);
    for i in 0..nodes {
        let name = format!("n{i}");
        let mut args: Vec<String> = [
            "--cluster",
            &s.nats,
            "--nats-prefix",
            &prefix,
            "--node-name",
            &name,
        ]
        .into_iter()
        .map(str::to_owned)
        .collect();
        args.extend(extra.iter().cloned());
        // A node that fails to start stops the ones already running (dropped).
        let server =
            Server::spawn_bin(bin, &s.wrap, url, &args).map_err(|e| format!("node n{i}: {e}"))?;
        servers.push(server);
    }
    Ok(servers)
}

/// One run: fresh servers (the relay, or `job.nodes` processes of the `damka` binary on
/// `db`), their tables, the timed play.
async fn run(s: &Settings, round: usize, job: &Job<'_>, db: Option<&Db>) -> Result<Run, String> {
    let (servers, target) = match (job.bin, db) {
        (Some(bin), Some(db)) => {
            // A limit no run reaches rather than 0 (which lifts it now): an older binary
            // given with `--before-bin` took 0 literally and refused every table.
            let mut extra = vec!["--max-tables-per-guest".to_owned(), "1000000".to_owned()];
            extra.extend(s.damka_args.iter().cloned());
            let servers = spawn_nodes(s, round, bin, &db.url(), &extra, job.nodes)?;
            (servers, Target::Damka)
        }
        _ => (vec![Server::spawn_relay()?], Target::Relay),
    };
    let addrs: Vec<String> = servers.iter().map(|s| s.addr.clone()).collect();
    let n = addrs.len();
    // Table i is owned by node i % n, where White's socket is; Black's socket is on the
    // next node (proxied to the owner over NATS; the same node when there is one).
    let nodes_of = |i: usize| (addrs[i % n].clone(), addrs[(i + 1) % n].clone());
    let relay = target == Target::Relay;
    let (plan_tx, plan_rx) = watch::channel::<Option<Plan>>(None);
    let setup_began = Instant::now();

    // The playing tables, each with its players task waiting for the plan.
    let tables = setup::many(s.tables, |i| {
        let ((owner, other), plans) = (nodes_of(i), plan_rx.clone());
        async move {
            let ready = if relay {
                setup::relay_table(&owner, i).await?
            } else {
                setup::damka_table(&owner, &other, i, 15).await?
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
            let ((owner, other), plans) = (nodes_of(s.tables + i), plan_rx.clone());
            let after = Duration::from_secs_f64(flag_window * i as f64 / s.flag_tables as f64);
            async move {
                let ready = setup::damka_table(&owner, &other, s.tables + i, 1).await?;
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
    let rss = || servers.iter().map(Server::rss_kib).sum::<u64>();
    let rss_players = rss();
    let (stop_tx, stop_rx) = watch::channel(false);
    // Spectators spread over the nodes as well.
    let spectators = setup::many(s.spectators, |i| {
        let (addr, path, stop) = (
            addrs[i % n].clone(),
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
    let rss_idle = rss();

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
    let pids: Vec<u32> = servers.iter().map(Server::pid).collect();
    // A cluster's NATS works for the run too (on a shared NATS, other users' traffic is
    // counted with it).
    let nats_pids = if n > 1 {
        machine::pids_named("nats-server")
    } else {
        Vec::new()
    };
    if n > 1 && nats_pids.is_empty() {
        eprintln!("load: no nats-server process in /proc: its CPU is left out");
    }
    tokio::time::sleep_until(plan.measure_from.into()).await;
    let load_before = machine::loadavg();
    let cpu_before = Cpu::now(&pids, pg_db, &nats_pids);
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
    let cpu = cpu_before.until(&Cpu::now(&pids, pg_db, &nats_pids));
    let load_after = machine::loadavg();

    let mut all = TableStats::default();
    let mut failed = Vec::new();
    for (task, _) in tables {
        let t = task.await.map_err(|e| format!("table task: {e}"))?;
        all.rtt_us.extend(t.rtt_us);
        all.sent_ms.extend(t.sent_ms);
        all.proxied.extend(t.proxied);
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
    let peak_kib = servers.iter().map(Server::peak_rss_kib).sum();
    let metrics = if relay {
        String::new()
    } else {
        let mut texts = Vec::with_capacity(n);
        for addr in &addrs {
            texts.push(http(addr, "GET", "/metrics", None, None).await?.body);
        }
        if n == 1 {
            texts.pop().unwrap_or_default()
        } else {
            report::merge_metrics(&texts)
        }
    };
    let _ = stop_tx.send(true);
    for t in spectators {
        let _ = t.await;
    }
    // Every node at once: a node stopped alone would hand its tables to the others.
    let stopped = futures_util::future::join_all(servers.into_iter().map(Server::stop)).await;
    for (i, clean) in stopped.into_iter().enumerate() {
        if !clean {
            failed.push(if n == 1 {
                "the server did not exit cleanly on SIGTERM".into()
            } else {
                format!("node n{i} did not exit cleanly on SIGTERM")
            });
        }
    }
    let timeline = report::timeline(&all.sent_ms, &all.rtt_us);
    let (mut local_us, mut proxied_us) = (Vec::new(), Vec::new());
    for (&rtt, &proxied) in all.rtt_us.iter().zip(&all.proxied) {
        if proxied {
            proxied_us.push(rtt);
        } else {
            local_us.push(rtt);
        }
    }
    local_us.sort_unstable();
    proxied_us.sort_unstable();
    all.rtt_us.sort_unstable();
    Ok(Run {
        label: job.label.clone(),
        group: job.group.clone(),
        nodes: n,
        round,
        tables: s.tables,
        spectators: s.spectators,
        period: s.period,
        measured: plan.until - plan.measure_from,
        rtt_us: all.rtt_us,
        local_us,
        proxied_us,
        games_over: all.games_over,
        failed,
        nats_cpu: (!nats_pids.is_empty()).then_some(cpu.nats),
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
