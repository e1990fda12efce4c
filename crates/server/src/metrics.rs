//! Prometheus metrics, hand-rolled on atomics: a handful of counters and gauges and two
//! histograms do not justify a metrics framework.

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU64, Ordering};

/// Upper bounds (µs) of the move-latency histogram buckets.
const LATENCY_BUCKETS_US: &[u64] = &[
    1_000, 2_000, 5_000, 10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 1_000_000, 5_000_000,
];

/// Upper bounds (µs) of the flag-lateness histogram buckets: fine around the 10 ms the
/// flag must be ruled within.
const FLAG_BUCKETS_US: &[u64] = &[
    500, 1_000, 2_000, 3_000, 5_000, 7_500, 10_000, 15_000, 25_000, 50_000, 100_000, 250_000,
    1_000_000,
];

/// A Prometheus histogram of durations on atomics, with its largest value.
pub struct Histogram {
    /// Upper bounds of the buckets, µs.
    bounds: &'static [u64],
    /// Per-bucket counts (not cumulative), one more than `bounds` (+Inf).
    buckets: Vec<AtomicU64>,
    /// Sum of the values, µs.
    sum_us: AtomicU64,
    /// Largest value, µs.
    max_us: AtomicU64,
}

impl Histogram {
    /// An empty histogram with these bucket bounds (µs, ascending).
    pub fn new(bounds: &'static [u64]) -> Histogram {
        Histogram {
            bounds,
            buckets: (0..=bounds.len()).map(|_| AtomicU64::new(0)).collect(),
            sum_us: AtomicU64::new(0),
            max_us: AtomicU64::new(0),
        }
    }

    /// Records one value.
    pub fn observe(&self, micros: u64) {
        let i = self
            .bounds
            .iter()
            .position(|&b| micros <= b)
            .unwrap_or(self.bounds.len());
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
        self.sum_us.fetch_add(micros, Ordering::Relaxed);
        self.max_us.fetch_max(micros, Ordering::Relaxed);
    }

    /// How many values were recorded.
    pub fn count(&self) -> u64 {
        self.buckets.iter().map(|b| b.load(Ordering::Relaxed)).sum()
    }

    /// Records one count (a histogram of sizes rather than durations).
    pub fn observe_count(&self, n: u64) {
        self.observe(n);
    }

    /// Writes a histogram of durations (in seconds) and its largest value.
    pub fn render_to(&self, out: &mut String, name: &str, help: &str) {
        self.render_scaled(out, name, help, 1e6);
    }

    /// Writes a histogram of counts and its largest value.
    pub fn render_counts(&self, out: &mut String, name: &str, help: &str) {
        self.render_scaled(out, name, help, 1.0);
    }

    /// Writes the histogram (values divided by `scale`) and, as `<name>_max`, its largest
    /// value.
    fn render_scaled(&self, out: &mut String, name: &str, help: &str, scale: f64) {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} histogram");
        let mut cumulative = 0;
        for (i, bound) in self.bounds.iter().enumerate() {
            cumulative += self.buckets[i].load(Ordering::Relaxed);
            let le = *bound as f64 / scale;
            let _ = writeln!(out, "{name}_bucket{{le=\"{le}\"}} {cumulative}");
        }
        cumulative += self.buckets[self.bounds.len()].load(Ordering::Relaxed);
        let _ = writeln!(out, "{name}_bucket{{le=\"+Inf\"}} {cumulative}");
        let sum = self.sum_us.load(Ordering::Relaxed) as f64 / scale;
        let _ = writeln!(out, "{name}_sum {sum}\n{name}_count {cumulative}");
        let max = self.max_us.load(Ordering::Relaxed) as f64 / scale;
        let _ = writeln!(
            out,
            "# HELP {name}_max The largest value of {name}.\n# TYPE {name}_max gauge\n{name}_max {max}"
        );
    }
}

/// The server's metrics.
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
    /// From receiving a move to acknowledging it (stored).
    pub move_latency: Histogram,
    /// From a flag's deadline (the clock run out, plus the lag the mover is forgiven) to
    /// the loss on time being stored and announced.
    pub flag_late: Histogram,
    /// Subscribers dropped for lagging.
    pub lagging_dropped: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            tables: AtomicU64::new(0),
            room_connections: AtomicU64::new(0),
            table_connections: AtomicU64::new(0),
            games_started: AtomicU64::new(0),
            games_finished: AtomicU64::new(0),
            moves: AtomicU64::new(0),
            move_latency: Histogram::new(LATENCY_BUCKETS_US),
            flag_late: Histogram::new(FLAG_BUCKETS_US),
            lagging_dropped: AtomicU64::new(0),
        }
    }
}

impl Metrics {
    /// Records one move's latency: from receiving it to acknowledging it (incl. storing).
    pub fn observe_move_latency(&self, micros: u64) {
        self.move_latency.observe(micros);
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
        self.move_latency.render_to(
            &mut out,
            "damka_move_latency_seconds",
            "Time from receiving a move to acknowledging it (stored).",
        );
        self.flag_late.render_to(
            &mut out,
            "damka_flag_late_seconds",
            "Time from a flag's deadline to the loss on time stored and announced.",
        );
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

    #[test]
    fn the_flag_histogram_keeps_its_largest_value() {
        let m = Metrics::default();
        m.flag_late.observe(800);
        m.flag_late.observe(12_000);
        let text = m.render();
        assert!(
            text.contains("damka_flag_late_seconds_bucket{le=\"0.001\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_flag_late_seconds_bucket{le=\"0.01\"} 1\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_flag_late_seconds_bucket{le=\"0.015\"} 2\n"),
            "{text}"
        );
        assert!(
            text.contains("damka_flag_late_seconds_max 0.012\n"),
            "{text}"
        );
    }
}
