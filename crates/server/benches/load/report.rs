//! The figures of one run, and the summary that sets each `damka` run against the relay
//! run of the same round and, for a cluster, each run of N nodes against the run of one
//! node of the same round.

use std::time::Duration;

use super::machine::{Cpu, cores};

/// What one run measured.
pub struct Run {
    /// `relay`, `damka sqlite` or `damka postgres`, with the number of nodes when the job
    /// compares several (`damka postgres, 3 nodes`).
    pub label: String,
    /// The label without the number of nodes (runs of one group differ only in it).
    pub group: String,
    /// Server processes: 1, or the nodes of a cluster.
    pub nodes: usize,
    /// Round number (from 1).
    pub round: usize,
    /// Tables playing (flag tables not included).
    pub tables: usize,
    /// Idle spectator sockets.
    pub spectators: usize,
    /// Least time between two moves of a player.
    pub period: Duration,
    /// The timed part of the run.
    pub measured: Duration,
    /// Send → ack of every timed move, microseconds, sorted.
    pub rtt_us: Vec<u32>,
    /// The same for the moves sent on a socket on the table's owner, sorted.
    pub local_us: Vec<u32>,
    /// The same for the moves sent on a socket proxied to the owner over NATS, sorted.
    pub proxied_us: Vec<u32>,
    /// Games that ended.
    pub games_over: u64,
    /// Why tables stopped early.
    pub failed: Vec<String>,
    /// CPU used during the timed part.
    pub cpu: Cpu,
    /// A cluster: the CPU `nats-server` used during the timed part (`None` when the run
    /// is of one node, or no `nats-server` process was found).
    pub nats_cpu: Option<Duration>,
    /// Load averages before and after the timed part.
    pub load: (String, String),
    /// Server RSS with the players, then with the spectators too, KiB (summed over the
    /// nodes).
    pub rss_kib: (u64, u64),
    /// Server peak RSS (`VmHWM`), KiB (summed over the nodes).
    pub peak_kib: u64,
    /// Frames and bytes the players received while timed.
    pub frames: u64,
    /// See `frames`.
    pub bytes: u64,
    /// Flag tables: how many there were and how many lost on time within the run.
    pub flags: (usize, usize),
    /// The server's `/metrics` after the run (empty for the relay; a cluster's nodes'
    /// merged, see [`merge_metrics`]).
    pub metrics: String,
    /// Per second of the timed part: (second, moves sent, p99 ms, max ms).
    pub timeline: Vec<(usize, usize, f64, f64)>,
    /// SQLite: the largest size of the WAL file seen during the timed part, bytes.
    pub wal_max: Option<u64>,
}

/// Groups round trips by the second they were sent in: (second, moves, p99 ms, max ms).
pub fn timeline(sent_ms: &[u32], rtt_us: &[u32]) -> Vec<(usize, usize, f64, f64)> {
    let mut seconds: Vec<Vec<u32>> = Vec::new();
    for (&at, &rtt) in sent_ms.iter().zip(rtt_us) {
        let s = (at / 1000) as usize;
        if seconds.len() <= s {
            seconds.resize(s + 1, Vec::new());
        }
        seconds[s].push(rtt);
    }
    seconds
        .into_iter()
        .enumerate()
        .map(|(s, mut v)| {
            v.sort_unstable();
            (s, v.len(), quantile(&v, 0.99), quantile(&v, 1.0))
        })
        .collect()
}

/// The `p` quantile of sorted values (nearest rank), in ms.
fn quantile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    f64::from(sorted[rank - 1]) / 1000.0
}

/// p50, p90, p99, p99.9 and max of sorted round trips, for a line of the report.
fn quantiles(sorted: &[u32]) -> String {
    format!(
        "p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
        quantile(sorted, 0.50),
        quantile(sorted, 0.90),
        quantile(sorted, 0.99),
        quantile(sorted, 0.999),
        quantile(sorted, 1.0)
    )
}

/// The same quantiles in one cell of the summary: `p50 / p90 / p99 / p99.9 / max`.
fn quantile_cell(sorted: &[u32]) -> String {
    if sorted.is_empty() {
        return "-".into();
    }
    [0.5, 0.9, 0.99, 0.999, 1.0]
        .iter()
        .map(|&p| format!("{:.2}", quantile(sorted, p)))
        .collect::<Vec<_>>()
        .join(" / ")
}

/// The `/metrics` texts of a cluster's nodes as one: each sample (name and labels) summed
/// over the nodes, but the largest value of a `_max` gauge. Counters, histogram buckets
/// and counts add up, so the quantiles read from the result are the cluster's.
pub fn merge_metrics(texts: &[String]) -> String {
    let mut order: Vec<String> = Vec::new();
    let mut values: std::collections::HashMap<String, f64> = std::collections::HashMap::new();
    for text in texts {
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let Some((key, value)) = line.rsplit_once(' ') else {
                continue;
            };
            let Ok(value) = value.trim().parse::<f64>() else {
                continue;
            };
            let is_max = key.split('{').next().is_some_and(|n| n.ends_with("_max"));
            match values.get_mut(key) {
                Some(v) if is_max => *v = v.max(value),
                Some(v) => *v += value,
                None => {
                    order.push(key.to_owned());
                    values.insert(key.to_owned(), value);
                }
            }
        }
    }
    order
        .iter()
        .map(|key| format!("{key} {}\n", values.get(key).copied().unwrap_or(0.0)))
        .collect()
}

/// A metric's value from the Prometheus text.
pub fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// The `p` quantile of a Prometheus histogram as the upper bound of its bucket, in ms
/// (`None` when it is empty).
fn histogram_quantile(text: &str, name: &str, p: f64) -> Option<f64> {
    let prefix = format!("{name}_bucket{{le=\"");
    let buckets: Vec<(f64, f64)> = text
        .lines()
        .filter_map(|l| {
            let rest = l.strip_prefix(&prefix)?;
            let (le, count) = rest.split_once("\"} ")?;
            let le = if le == "+Inf" {
                f64::INFINITY
            } else {
                le.parse().ok()?
            };
            Some((le, count.trim().parse().ok()?))
        })
        .collect();
    let total = buckets.last()?.1;
    if total == 0.0 {
        return None;
    }
    let rank = (p * total).ceil().max(1.0);
    buckets
        .iter()
        .find(|(_, c)| *c >= rank)
        .map(|(le, _)| le * 1000.0)
}

impl Run {
    /// Timed moves per second.
    pub fn rate(&self) -> f64 {
        self.rtt_us.len() as f64 / self.measured.as_secs_f64()
    }

    /// A CPU time per timed move, µs.
    fn per_move_us(&self, t: Duration) -> f64 {
        t.as_secs_f64() * 1e6 / self.rtt_us.len().max(1) as f64
    }

    /// Server CPU per timed move (every node's), µs.
    pub fn cpu_per_move_us(&self) -> f64 {
        self.per_move_us(self.cpu.server)
    }

    /// Database CPU per timed move, µs (PostgreSQL only).
    fn db_per_move_us(&self) -> f64 {
        self.per_move_us(self.cpu.database)
    }

    /// `nats-server` CPU per timed move, µs (a cluster whose `nats-server` was found).
    fn nats_per_move_us(&self) -> Option<f64> {
        self.nats_cpu.map(|t| self.per_move_us(t))
    }

    /// Share of the whole machine (all cores) a CPU time is over the timed part.
    fn share(&self, t: Duration) -> f64 {
        100.0 * t.as_secs_f64() / (self.measured.as_secs_f64() * cores() as f64)
    }

    /// Prints the run.
    pub fn print(&self) {
        let r = &self.rtt_us;
        println!("== round {}: {} ==", self.round, self.label);
        println!(
            "tables {} ({} player sockets), spectators {}, each player moves at most every {} ms; timed {:.1} s",
            self.tables,
            2 * self.tables,
            self.spectators,
            self.period.as_millis(),
            self.measured.as_secs_f64()
        );
        println!(
            "moves acked {} ({:.0} moves/s); games finished {}; tables failed {}",
            r.len(),
            self.rate(),
            self.games_over,
            self.failed.len()
        );
        if self.nodes > 1 {
            println!(
                "nodes {}: table i owned by node i % {0} (White's socket there), Black's socket on the next \
                 node (proxied over NATS); spectators spread over the nodes",
                self.nodes
            );
        }
        println!("move round trip (send -> ack): {}", quantiles(r));
        if self.nodes > 1 {
            println!(
                "  local sockets ({} moves): {}",
                self.local_us.len(),
                quantiles(&self.local_us)
            );
            println!(
                "  proxied sockets ({} moves): {}",
                self.proxied_us.len(),
                quantiles(&self.proxied_us)
            );
            println!(
                "  NATS hop (proxied - local): p50 {:+.2} ms, p90 {:+.2} ms, p99 {:+.2} ms",
                hop(self, 0.5),
                hop(self, 0.9),
                hop(self, 0.99)
            );
        }
        let server = if self.nodes > 1 {
            let each: Vec<String> = self
                .cpu
                .nodes
                .iter()
                .map(|t| format!("{:.1}", t.as_secs_f64()))
                .collect();
            format!("server ({} nodes: {} s)", self.nodes, each.join(" + "))
        } else {
            "server".to_owned()
        };
        println!(
            "CPU: {server} {:.1} s ({:.0}% of the machine, {:.1} us per move); clients {:.1} s ({:.0}%); \
             database {:.1} s ({:.1} us per move); others {:.1} s ({:.0}%)",
            self.cpu.server.as_secs_f64(),
            self.share(self.cpu.server),
            self.cpu_per_move_us(),
            self.cpu.client.as_secs_f64(),
            self.share(self.cpu.client),
            self.cpu.database.as_secs_f64(),
            self.db_per_move_us(),
            self.cpu.others().as_secs_f64(),
            self.share(self.cpu.others()),
        );
        if self.nodes > 1 {
            match (self.nats_cpu, self.nats_per_move_us()) {
                (Some(t), Some(per)) => println!(
                    "  nats-server {:.1} s ({:.0}% of the machine, {:.1} us per move); server + NATS {:.1} us per move",
                    t.as_secs_f64(),
                    self.share(t),
                    per,
                    self.cpu_per_move_us() + per
                ),
                _ => println!(
                    "  nats-server: no process named nats-server found in /proc; its CPU is left out"
                ),
            }
        }
        let summed = if self.nodes > 1 {
            " (summed over the nodes)"
        } else {
            ""
        };
        println!(
            "memory{summed}: RSS {} KiB with the players, {} KiB with the spectators, peak {} KiB",
            self.rss_kib.0, self.rss_kib.1, self.peak_kib
        );
        if self.spectators > 0 {
            let per = (self.rss_kib.1.saturating_sub(self.rss_kib.0) * 1024) as f64
                / self.spectators as f64;
            println!("  {per:.0} bytes per idle spectator socket");
        }
        println!(
            "players received {} frames, {:.0} bytes per frame; load average {} -> {}",
            self.frames,
            self.bytes as f64 / self.frames.max(1) as f64,
            self.load.0,
            self.load.1
        );
        if self.flags.0 > 0 {
            let m = &self.metrics;
            let name = "damka_flag_late_seconds";
            let fmt = |v: Option<f64>| v.map_or("-".into(), |v| format!("{v:.1} ms"));
            println!(
                "flags: {} of {} flag tables lost on time in the run; server: time from the flag to \
                 the stored and announced game_over p50 <= {}, p99 <= {}, max {} ({} flags)",
                self.flags.1,
                self.flags.0,
                fmt(histogram_quantile(m, name, 0.5)),
                fmt(histogram_quantile(m, name, 0.99)),
                fmt(metric(m, &format!("{name}_max")).map(|s| s * 1000.0)),
                metric(m, &format!("{name}_count")).unwrap_or(0.0)
            );
        }
        let slow: Vec<_> = self.timeline.iter().filter(|t| t.2 > 10.0).collect();
        let mut worst: Vec<_> = self.timeline.iter().collect();
        worst.sort_by(|a, b| b.2.total_cmp(&a.2));
        println!(
            "seconds with a p99 over 10 ms: {} of {}; worst: {}",
            slow.len(),
            self.timeline.len(),
            worst
                .iter()
                .take(5)
                .map(|t| format!("{}s ({} moves) p99 {:.1} max {:.1}", t.0, t.1, t.2, t.3))
                .collect::<Vec<_>>()
                .join("; ")
        );
        if !self.metrics.is_empty() {
            let m = &self.metrics;
            let v = |name: &str| metric(m, name).unwrap_or(f64::NAN);
            let ms = |name: &str, p: f64| {
                histogram_quantile(m, name, p).map_or("-".into(), |v| format!("{v:.1}"))
            };
            println!(
                "store: {} commits, {:.1} writes per commit (max {}); commit p50 <= {} ms, p99 <= {} ms, max {:.1} ms; \
                 checkpoints {} (p99 <= {} ms, max {:.1} ms), writer held {} times (p99 <= {} ms, max {:.1} ms)",
                v("damka_store_commits_total"),
                v("damka_store_writes_total") / v("damka_store_commits_total"),
                v("damka_store_batch_writes_max"),
                ms("damka_store_commit_seconds", 0.5),
                ms("damka_store_commit_seconds", 0.99),
                v("damka_store_commit_seconds_max") * 1000.0,
                v("damka_store_checkpoint_seconds_count"),
                ms("damka_store_checkpoint_seconds", 0.99),
                v("damka_store_checkpoint_seconds_max") * 1000.0,
                v("damka_store_checkpoint_held_seconds_count"),
                ms("damka_store_checkpoint_held_seconds", 0.99),
                v("damka_store_checkpoint_held_seconds_max") * 1000.0,
            );
            if let Some(wal) = self.wal_max {
                println!("  largest WAL file: {:.1} MiB", wal as f64 / 1048576.0);
            }
        }
        for f in self.failed.iter().take(5) {
            println!("failed: {f}");
        }
    }
}

/// Prints every run of the job in one table, each `damka` run with its ratios to the
/// relay run of the same round.
pub fn summary(runs: &[Run]) {
    println!();
    println!("== summary (ratios against the relay of the same round) ==");
    println!(
        "| round | run | moves/s | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | server CPU us/move | server % of machine | clients % | database us/move | peak RSS MiB | load before -> after |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    for run in runs {
        let relay = runs
            .iter()
            .find(|r| r.round == run.round && r.label == "relay" && run.label != "relay");
        let ratio = |v: f64, of: fn(&Run) -> f64| match relay {
            Some(r) => format!("{v:.2} ({:.1}x)", v / of(r)),
            None => format!("{v:.2}"),
        };
        let r = &run.rtt_us;
        println!(
            "| {} | {} | {:.0} | {} | {} | {} | {} | {} | {} | {:.0}% | {:.0}% | {:.1} | {:.1} | {} -> {} |",
            run.round,
            run.label,
            run.rate(),
            ratio(quantile(r, 0.5), |x| quantile(&x.rtt_us, 0.5)),
            ratio(quantile(r, 0.9), |x| quantile(&x.rtt_us, 0.9)),
            ratio(quantile(r, 0.99), |x| quantile(&x.rtt_us, 0.99)),
            ratio(quantile(r, 0.999), |x| quantile(&x.rtt_us, 0.999)),
            ratio(quantile(r, 1.0), |x| quantile(&x.rtt_us, 1.0)),
            ratio(run.cpu_per_move_us(), Run::cpu_per_move_us),
            run.share(run.cpu.server),
            run.share(run.cpu.client),
            run.db_per_move_us(),
            run.peak_kib as f64 / 1024.0,
            run.load.0,
            run.load.1
        );
    }
    if runs.iter().any(|r| r.nodes > 1) {
        nodes_summary(runs);
    }
}

/// The NATS hop at quantile `p`: proxied minus local round trip, ms.
fn hop(run: &Run, p: f64) -> f64 {
    quantile(&run.proxied_us, p) - quantile(&run.local_us, p)
}

/// The runs of a job comparing numbers of nodes: round trips of local and proxied
/// sockets, and CPU per move against the run of one node of the same group and round.
fn nodes_summary(runs: &[Run]) {
    println!();
    println!(
        "== nodes (round trips of local and proxied sockets, p50 / p90 / p99 / p99.9 / max ms; CPU against 1 node of the same round) =="
    );
    println!(
        "| round | run | moves/s | local sockets | proxied sockets | hop p50 / p99 ms | server CPU us/move | NATS us/move | database us/move | (server + NATS) / 1 node | (server + NATS + database) / 1 node |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for run in runs.iter().filter(|r| r.label != "relay") {
        let one = runs
            .iter()
            .find(|r| r.round == run.round && r.group == run.group && r.nodes == 1);
        let nats = run.nats_per_move_us();
        let own = run.cpu_per_move_us() + nats.unwrap_or(0.0);
        let ratio = |with_db: f64, one_with_db: f64| match one {
            Some(o) if run.nodes > 1 => format!(
                "{:.2}x{}",
                (own + with_db) / (o.cpu_per_move_us() + one_with_db),
                if nats.is_none() {
                    " (NATS left out)"
                } else {
                    ""
                }
            ),
            _ => "-".into(),
        };
        let hop_cell = if run.nodes > 1 {
            format!("{:+.2} / {:+.2}", hop(run, 0.5), hop(run, 0.99))
        } else {
            "-".into()
        };
        println!(
            "| {} | {} | {:.0} | {} | {} | {} | {:.1} | {} | {:.1} | {} | {} |",
            run.round,
            run.label,
            run.rate(),
            quantile_cell(&run.local_us),
            quantile_cell(&run.proxied_us),
            hop_cell,
            run.cpu_per_move_us(),
            nats.map_or("-".into(), |v| format!("{v:.1}")),
            run.db_per_move_us(),
            ratio(0.0, 0.0),
            ratio(run.db_per_move_us(), one.map_or(0.0, Run::db_per_move_us)),
        );
    }
}
