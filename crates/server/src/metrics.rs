//! Prometheus metrics, hand-rolled on atomics: a handful of counters and gauges and one
//! histogram do not justify a metrics framework.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds (ms) of the move-latency histogram buckets.
const LATENCY_BUCKETS_MS: [u64; 11] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 5000];

/// The server's metrics.
#[derive(Default)]
pub struct Metrics {
    /// Open tables (gauge).
    pub tables: AtomicU64,
    /// Open room sockets (gauge).
    pub room_connections: AtomicU64,
    /// Open table sockets (gauge).
    pub table_connections: AtomicU64,
    /// Games started.
    pub games_started: AtomicU64,
    /// Games finished (any reason, aborts included).
    pub games_finished: AtomicU64,
    /// Moves played (stored and acknowledged).
    pub moves: AtomicU64,
    /// Move latency histogram: per-bucket counts (not cumulative), last = +Inf.
    latency_buckets: [AtomicU64; LATENCY_BUCKETS_MS.len() + 1],
    /// Sum of move latencies in microseconds.
    latency_sum_us: AtomicU64,
    /// Subscribers dropped for lagging.
    pub lagging_dropped: AtomicU64,
}

impl Metrics {
    /// Records one move's latency: from receiving it to acknowledging it (incl. storing).
    pub fn observe_move_latency(&self, micros: u64) {
        let ms = micros / 1000;
        let i = LATENCY_BUCKETS_MS
            .iter()
            .position(|&b| ms < b)
            .unwrap_or(LATENCY_BUCKETS_MS.len());
        self.latency_buckets[i].fetch_add(1, Ordering::Relaxed);
        self.latency_sum_us.fetch_add(micros, Ordering::Relaxed);
    }

    /// Adds to a gauge.
    pub fn inc(gauge: &AtomicU64) {
        gauge.fetch_add(1, Ordering::Relaxed);
    }

    /// Subtracts from a gauge.
    pub fn dec(gauge: &AtomicU64) {
        gauge.fetch_sub(1, Ordering::Relaxed);
    }

    /// The Prometheus text exposition.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let mut metric = |name: &str, kind: &str, help: &str, value: u64| {
            let _ = writeln!(
                out,
                "# HELP {name} {help}\n# TYPE {name} {kind}\n{name} {value}"
            );
        };
        metric("damka_tables", "gauge", "Open tables.", get(&self.tables));
        metric(
            "damka_room_connections",
            "gauge",
            "Open room sockets.",
            get(&self.room_connections),
        );
        metric(
            "damka_table_connections",
            "gauge",
            "Open table sockets.",
            get(&self.table_connections),
        );
        metric(
            "damka_games_started_total",
            "counter",
            "Games started.",
            get(&self.games_started),
        );
        metric(
            "damka_games_finished_total",
            "counter",
            "Games finished.",
            get(&self.games_finished),
        );
        metric(
            "damka_moves_total",
            "counter",
            "Moves stored and acknowledged.",
            get(&self.moves),
        );
        metric(
            "damka_lagging_subscribers_dropped_total",
            "counter",
            "Sockets disconnected for not reading their events.",
            get(&self.lagging_dropped),
        );
        let name = "damka_move_latency_seconds";
        let _ = writeln!(
            out,
            "# HELP {name} Time from receiving a move to acknowledging it (stored).\n# TYPE {name} histogram"
        );
        let mut cumulative = 0;
        for (i, bound) in LATENCY_BUCKETS_MS.iter().enumerate() {
            cumulative += get(&self.latency_buckets[i]);
            let le = *bound as f64 / 1000.0;
            let _ = writeln!(out, "{name}_bucket{{le=\"{le}\"}} {cumulative}");
        }
        cumulative += get(&self.latency_buckets[LATENCY_BUCKETS_MS.len()]);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let sum = get(&self.latency_sum_us) as f64 / 1_000_000.0;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {cumulative}");
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_is_cumulative() {
        let m = Metrics::default();
        m.observe_move_latency(500); // 0.5 ms → first bucket
        m.observe_move_latency(7_000); // 7 ms → le=0.01
        m.observe_move_latency(9_000_000); // 9 s → +Inf only
        let text = m.render();
        assert!(
            text.contains("damka_move_latency_seconds_bucket{le=\"0.001\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_move_latency_seconds_bucket{le=\"0.01\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_move_latency_seconds_bucket{le=\"5\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_move_latency_seconds_bucket{le=\"+Inf\"} 3\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_move_latency_seconds_count 3\n"),
            "{text}"
        );
    }
}
