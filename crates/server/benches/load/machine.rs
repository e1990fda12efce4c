//! What the rest of the machine did during a run, from `/proc`: the load average, the
//! CPU time all processes used, and the PostgreSQL processes' share (the database works
//! outside the server's process, so its CPU is not in the server's figure).
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

/// CPU time so far of the PostgreSQL processes that work for the bench: the background
/// processes (WAL writer, checkpointer, ...) and the backends connected to database
/// `db` (other people's tests may use the same PostgreSQL at the same time). Backends
/// that exited take their time with them; the server's connections stay open for the
/// whole run, so that does not happen while measuring.
pub fn postgres_cpu(db: &str) -> Duration {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    dir.filter_map(Result::ok)
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|name| name.bytes().all(|b| b.is_ascii_digit()))
        .filter(|pid| {
            std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .is_ok_and(|c| c.trim() == "postgres")
        })
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
#[derive(Clone, Copy, Default)]
pub struct Cpu {
    /// The server's process.
    pub server: Duration,
    /// This process (the clients).
    pub client: Duration,
    /// Every `postgres` process.
    pub database: Duration,
    /// The whole machine.
    pub machine: Duration,
}

impl Cpu {
    /// Reads the counters now; `db` is the PostgreSQL database of the run, if any.
    pub fn now(server_pid: u32, db: Option<&str>) -> Cpu {
        Cpu {
            server: cpu_time_of(&server_pid.to_string()),
            client: cpu_time_of("self"),
            database: db.map_or(Duration::ZERO, postgres_cpu),
            machine: busy_time(),
        }
    }

    /// What was used between `self` (earlier) and `later`.
    pub fn until(&self, later: &Cpu) -> Cpu {
        Cpu {
            server: later.server.saturating_sub(self.server),
            client: later.client.saturating_sub(self.client),
            database: later.database.saturating_sub(self.database),
            machine: later.machine.saturating_sub(self.machine),
        }
    }

    /// What the rest of the machine used (other engineers' work): everything but the
    /// server, the clients and the database.
    pub fn others(&self) -> Duration {
        self.machine
            .saturating_sub(self.server)
            .saturating_sub(self.client)
            .saturating_sub(self.database)
    }
}
