//! The figures of one run, and the summary that sets each `damka` run against the relay
//! run of the same round.

use std::time::Duration;

use super::machine::{Cpu, cores};

/// What one run measured.
pub struct Run {
    /// `relay`, `damka sqlite` or `damka postgres`.
    pub label: String,
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
    /// Games that ended.
    pub games_over: u64,
    /// Why tables stopped early.
    pub failed: Vec<String>,
    /// CPU used during the timed part.
    pub cpu: Cpu,
    /// Load averages before and after the timed part.
    pub load: (String, String),
    /// Server RSS with the players, then with the spectators too, KiB.
    pub rss_kib: (u64, u64),
    /// Server peak RSS (`VmHWM`), KiB.
    pub peak_kib: u64,
    /// Frames and bytes the players received while timed.
    pub frames: u64,
    /// See `frames`.
    pub bytes: u64,
    /// Flag tables: how many there were and how many lost on time within the run.
    pub flags: (usize, usize),
    /// The server's `/metrics` after the run (empty for the relay).
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

    /// Server CPU per timed move, µs.
    pub fn cpu_per_move_us(&self) -> f64 {
        self.cpu.server.as_secs_f64() * 1e6 / self.rtt_us.len().max(1) as f64
    }

    /// Database CPU per timed move, µs (PostgreSQL only).
    fn db_per_move_us(&self) -> f64 {
        self.cpu.database.as_secs_f64() * 1e6 / self.rtt_us.len().max(1) as f64
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
        println!(
            "move round trip (send -> ack): p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, p99.9 {:.2} ms, max {:.2} ms",
            quantile(r, 0.50),
            quantile(r, 0.90),
            quantile(r, 0.99),
            quantile(r, 0.999),
            quantile(r, 1.0)
        );
        println!(
            "CPU: server {:.1} s ({:.0}% of the machine, {:.1} us per move); clients {:.1} s ({:.0}%); \
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
        println!(
            "memory: RSS {} KiB with the players, {} KiB with the spectators, peak {} KiB",
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
}
