//! What the writers measure about themselves, for `/metrics`: how many writes each
//! transaction carried, how long commits took, and (SQLite) the WAL checkpoints and how
//! long the writer was held for one.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::metrics::Histogram;

/// Upper bounds (µs) of the commit and checkpoint histograms.
const DURATION_BUCKETS_US: &[u64] = &[
    250, 500, 1_000, 2_000, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 1_000_000,
];

/// Upper bounds of the batch-size histogram (writes per transaction; as µs-style integers).
const BATCH_BUCKETS: &[u64] = &[1, 2, 4, 8, 16, 32, 64, 128, 256, 512];

/// The store's counters (shared by the writer tasks and `/metrics`).
pub struct StoreStats {
    /// Transactions committed.
    pub commits: AtomicU64,
    /// Writes committed.
    pub writes: AtomicU64,
    /// Transactions that failed (rolled back), batches and single writes alike.
    pub failed: AtomicU64,
    /// Writes per committed transaction.
    pub batch: Histogram,
    /// Time from taking a batch to its commit.
    pub commit: Histogram,
    /// WAL checkpoints (SQLite), the whole run of one.
    pub checkpoint: Histogram,
    /// Time the writer was held for the end of a checkpoint (SQLite).
    pub held: Histogram,
}

impl Default for StoreStats {
    fn default() -> StoreStats {
        StoreStats {
            commits: AtomicU64::new(0),
            writes: AtomicU64::new(0),
            failed: AtomicU64::new(0),
            batch: Histogram::new(BATCH_BUCKETS),
            commit: Histogram::new(DURATION_BUCKETS_US),
            checkpoint: Histogram::new(DURATION_BUCKETS_US),
            held: Histogram::new(DURATION_BUCKETS_US),
        }
    }
}

impl std::fmt::Debug for StoreStats {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StoreStats")
            .field("commits", &self.commits.load(Ordering::Relaxed))
            .field("writes", &self.writes.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl StoreStats {
    /// A batch of `writes` was committed in `micros`.
    pub fn committed(&self, writes: usize, micros: u64) {
        self.commits.fetch_add(1, Ordering::Relaxed);
        self.writes.fetch_add(writes as u64, Ordering::Relaxed);
        self.batch.observe_count(writes as u64);
        self.commit.observe(micros);
    }

    /// A transaction failed.
    pub fn failed(&self) {
        self.failed.fetch_add(1, Ordering::Relaxed);
    }

    /// Appends the Prometheus text.
    pub fn render(&self, out: &mut String) {
        use std::fmt::Write as _;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let _ = writeln!(
            out,
            "# HELP damka_store_commits_total Transactions the writer committed.\n\
             # TYPE damka_store_commits_total counter\ndamka_store_commits_total {}\n\
             # HELP damka_store_writes_total Writes committed.\n\
             # TYPE damka_store_writes_total counter\ndamka_store_writes_total {}\n\
             # HELP damka_store_failed_transactions_total Transactions that failed.\n\
             # TYPE damka_store_failed_transactions_total counter\n\
             damka_store_failed_transactions_total {}",
            get(&self.commits),
            get(&self.writes),
            get(&self.failed)
        );
        self.batch.render_counts(
            out,
            "damka_store_batch_writes",
            "Writes per committed transaction.",
        );
        self.commit.render_to(
            out,
            "damka_store_commit_seconds",
            "Time from taking a batch of writes to its commit.",
        );
        self.checkpoint.render_to(
            out,
            "damka_store_checkpoint_seconds",
            "SQLite WAL checkpoints, the whole run of one.",
        );
        self.held.render_to(
            out,
            "damka_store_checkpoint_held_seconds",
            "Time the SQLite writer waited for the end of a checkpoint.",
        );
    }
}
