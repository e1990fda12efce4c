//! What the rest of the machine did during a run, from `/proc`: the load average, the
//! CPU time all processes used, and the shares of the PostgreSQL processes and, for a
//! cluster, of `nats-server` (both work outside the server's processes, so their CPU is
//! not in the server's figure).
//!
//! The machine is shared with other engineers' builds and tests, so every run reports
//! how busy it was besides the server and the bench.

use std::time::Duration;

use super::server::cpu_time_of;

/// The 1-, 5- and 15-minute load averages as `/proc/loadavg` writes them.
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "?".into())
}

/// CPU time every process of the machine has used since boot (all cores; idle and I/O
/// wait left out), from the first line of `/proc/stat`.
pub fn busy_time() -> Duration {
    let stat = std::fs::read_to_string("/proc/stat").unwrap_or_default();
    let ticks: u64 = stat
        .lines()
        .next()
        .unwrap_or("")
        .split_whitespace()
        .skip(1)
        .enumerate()
        // user nice system idle iowait irq softirq steal: idle (3) and iowait (4) are not
        // work; guest time is already counted in user.
        .filter(|(i, _)| *i < 8 && *i != 3 && *i != 4)
        .filter_map(|(_, v)| v.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10)
}

/// Cores of the machine.
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// The ids of the processes whose name (`/proc/<pid>/comm`) is `comm`; none where
/// `/proc` is missing.
pub fn pids_named(comm: &str) -> Vec<String> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.bytes().all(|b| b.is_ascii_digit()))
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm")).is_ok_and(|c| c.trim() == comm)
        })
        .collect()
}

/// CPU time so far of the PostgreSQL processes that work for the bench: the background
/// processes (WAL writer, checkpointer, ...) and the backends connected to database
/// `db` (other people's tests may use the same PostgreSQL at the same time). Backends
/// that exited take their time with them; the server's connections stay open for the
/// whole run, so that does not happen while measuring.
pub fn postgres_cpu(db: &str) -> Duration {
    pids_named("postgres")
        .into_iter()
        .filter(|pid| {
            // A backend's title is "postgres: user database host(port) state".
            let title = std::fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
            let title = String::from_utf8_lossy(&title);
            !title.contains('(') || title.contains(db)
        })
        .map(|pid| cpu_time_of(&pid))
        .sum()
}

/// A snapshot of the CPU counters a run compares.
#[derive(Clone, Default)]
pub struct Cpu {
    /// The server's processes (every node of a cluster), together.
    pub server: Duration,
    /// Each server process on its own, in node order.
    pub nodes: Vec<Duration>,
    /// This process (the clients).
    pub client: Duration,
    /// Every `postgres` process.
    pub database: Duration,
    /// The `nats-server` processes given (zero when none).
    pub nats: Duration,
    /// The whole machine.
    pub machine: Duration,
}

impl Cpu {
    /// Reads the counters now: the server processes `servers`, the PostgreSQL database
    /// `db` of the run if any, the `nats-server` processes `nats` (none: not measured).
    pub fn now(servers: &[u32], db: Option<&str>, nats: &[String]) -> Cpu {
        let nodes: Vec<Duration> = servers
            .iter()
            .map(|pid| cpu_time_of(&pid.to_string()))
            .collect();
        Cpu {
            server: nodes.iter().sum(),
            nodes,
            client: cpu_time_of("self"),
            database: db.map_or(Duration::ZERO, postgres_cpu),
            nats: nats.iter().map(|pid| cpu_time_of(pid)).sum(),
            machine: busy_time(),
        }
    }

    /// What was used between `self` (earlier) and `later`.
    pub fn until(&self, later: &Cpu) -> Cpu {
        Cpu {
            server: later.server.saturating_sub(self.server),
            nodes: later
                .nodes
                .iter()
                .zip(&self.nodes)
                .map(|(l, e)| l.saturating_sub(*e))
                .collect(),
            client: later.client.saturating_sub(self.client),
            database: later.database.saturating_sub(self.database),
            nats: later.nats.saturating_sub(self.nats),
            machine: later.machine.saturating_sub(self.machine),
        }
    }

    /// What the rest of the machine used (other engineers' work): everything but the
    /// server, the clients, the database and NATS.
    pub fn others(&self) -> Duration {
        self.machine
            .saturating_sub(self.server)
            .saturating_sub(self.client)
            .saturating_sub(self.database)
            .saturating_sub(self.nats)
    }
}
