//! What the writers measure about themselves, for `/metrics`: how many writes each
//! transaction carried, how long commits took, and (SQLite) the WAL checkpoints and how
//! long the writer was held for one. Prometheus metrics (`prometheus-client`), registered
//! by the server in its registry ([`StoreStats::register`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Upper bounds (seconds) of the commit and checkpoint histograms.
const DURATION_BUCKETS: [f64; 11] = [
    0.000_25, 0.000_5, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// Upper bounds of the batch-size histogram (writes per transaction).
const BATCH_BUCKETS: [f64; 10] = [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0];

/// A histogram with the largest value seen beside it (a gauge `<name>_max`: a mean and
/// buckets hide the one commit that took a second).
#[derive(Debug)]
pub struct Observed {
    /// The distribution.
    histogram: Histogram,
    /// The largest value so far.
    max: Gauge<f64, AtomicU64>,
    /// Values observed (the histogram keeps its count to itself).
    count: AtomicU64,
}

impl Observed {
    fn new(buckets: &[f64]) -> Observed {
        Observed {
            histogram: Histogram::new(buckets.iter().copied()),
            max: Gauge::default(),
            count: AtomicU64::new(0),
        }
    }

    /// One value.
    pub fn observe(&self, v: f64) {
        self.histogram.observe(v);
        self.count.fetch_add(1, Ordering::Relaxed);
        // f64 bits of non-negative numbers order like the numbers.
        self.max
            .inner()
            .fetch_max(v.max(0.0).to_bits(), Ordering::Relaxed);
    }

    /// Values observed so far.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// One duration, in seconds.
    pub fn observe_duration(&self, d: Duration) {
        self.observe(d.as_secs_f64());
    }

    fn register(&self, registry: &mut Registry, name: &str, help: &str) {
        registry.register(name, help, self.histogram.clone());
        registry.register(
            format!("{name}_max"),
            format!("The largest value of {name}"),
            self.max.clone(),
        );
    }
}

/// The store's counters (shared by the writer tasks and `/metrics`).
#[derive(Debug)]
pub struct StoreStats {
    /// Transactions committed.
    pub commits: Counter,
    /// Writes committed.
    pub writes: Counter,
    /// Transactions that failed (rolled back), batches and single writes alike.
    pub failed: Counter,
    /// Writes per committed transaction.
    pub batch: Observed,
    /// Time from taking a batch to its commit.
    pub commit: Observed,
    /// WAL checkpoints (SQLite), the whole run of one.
    pub checkpoint: Observed,
    /// Time the writer was held for the end of a checkpoint (SQLite).
    pub held: Observed,
}

impl Default for StoreStats {
    fn default() -> StoreStats {
        StoreStats {
            commits: Counter::default(),
            writes: Counter::default(),
            failed: Counter::default(),
            batch: Observed::new(&BATCH_BUCKETS),
            commit: Observed::new(&DURATION_BUCKETS),
            checkpoint: Observed::new(&DURATION_BUCKETS),
            held: Observed::new(&DURATION_BUCKETS),
        }
    }
}

impl StoreStats {
    /// A batch of `writes` was committed in `took`.
    pub fn committed(&self, writes: usize, took: Duration) {
        self.commits.inc();
        self.writes.inc_by(writes as u64);
        self.batch.observe(writes as f64);
        self.commit.observe_duration(took);
    }

    /// A transaction failed.
    pub fn failed(&self) {
        self.failed.inc();
    }

    /// Registers every metric (`damka_store_*`) in `registry`.
    pub fn register(&self, registry: &mut Registry) {
        registry.register(
            "damka_store_commits",
            "Transactions the writer committed",
            self.commits.clone(),
        );
        registry.register(
            "damka_store_writes",
            "Writes committed",
            self.writes.clone(),
        );
        registry.register(
            "damka_store_failed_transactions",
            "Transactions that failed",
            self.failed.clone(),
        );
        self.batch.register(
            registry,
            "damka_store_batch_writes",
            "Writes per committed transaction",
        );
        self.commit.register(
            registry,
            "damka_store_commit_seconds",
            "Time from taking a batch of writes to its commit",
        );
        self.checkpoint.register(
            registry,
            "damka_store_checkpoint_seconds",
            "SQLite WAL checkpoints, the whole run of one",
        );
        self.held.register(
            registry,
            "damka_store_checkpoint_held_seconds",
            "Time the SQLite writer waited for the end of a checkpoint",
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_metrics_render_as_prometheus_text() {
        let stats = StoreStats::default();
        stats.committed(3, Duration::from_micros(700));
        stats.committed(1, Duration::from_millis(30));
        let mut registry = Registry::default();
        stats.register(&mut registry);
        let mut text = String::new();
        prometheus_client::encoding::prometheus_text::encode(&mut text, &registry)
            .expect("encodes");
        for line in [
            "damka_store_commits_total 2\n",
            "damka_store_writes_total 4\n",
            "damka_store_commit_seconds_bucket{le=\"0.001\"} 1\n",
            "damka_store_commit_seconds_count 2\n",
            "damka_store_commit_seconds_max 0.03\n",
            "damka_store_batch_writes_max 3.0\n",
        ] {
            assert!(text.contains(line), "{line:?} in {text}");
        }
    }
}
