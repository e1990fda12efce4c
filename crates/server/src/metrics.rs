//! Prometheus metrics with `prometheus-client` (text format 0.0.4): the server's own
//! counters, gauges and histograms here, the store's ([`damka_store::StoreStats`]) and a
//! cluster node's ([`crate::cluster::ClusterMetrics`]) registered beside them in one
//! registry at start-up, encoded at every scrape of `/metrics`.
//!
//! A histogram comes with a `<name>_max` gauge (the largest value seen): buckets and a
//! mean hide the one move that took a second.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Upper bounds (seconds) of the move-latency histogram.
const LATENCY_BUCKETS: [f64; 11] = [
    0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 5.0,
];

/// Upper bounds (seconds) of the flag-lateness histogram: how late a loss on time is
/// ruled after the flag's deadline (a timer, the store, the broadcast).
const FLAG_BUCKETS: [f64; 13] = [
    0.000_5, 0.001, 0.002, 0.003, 0.005, 0.007_5, 0.01, 0.015, 0.025, 0.05, 0.1, 0.25, 1.0,
];

/// Upper bounds (seconds) of the game-analysis job histogram: from claiming a job to
/// storing its result.
const ANALYSIS_BUCKETS: [f64; 10] = [1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0];

/// A histogram in seconds with the largest value seen beside it.
#[derive(Debug)]
pub struct Timing {
    /// The distribution.
    histogram: Histogram,
    /// The largest value so far (f64 bits).
    max: Gauge<f64, AtomicU64>,
}

impl Timing {
    fn new(buckets: &[f64]) -> Timing {
        Timing {
            histogram: Histogram::new(buckets.iter().copied()),
            max: Gauge::default(),
        }
    }

    /// One duration.
    pub fn observe(&self, d: Duration) {
        let secs = d.as_secs_f64();
        self.histogram.observe(secs);
        // The bits of non-negative floats order like the floats.
        self.max
            .inner()
            .fetch_max(secs.to_bits(), Ordering::Relaxed);
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

/// The server's metrics.
#[derive(Debug)]
pub struct Metrics {
    /// Open tables.
    pub tables: Gauge,
    /// Parked correspondence tables (not in memory: loaded when opened or due).
    pub tables_parked: Gauge,
    /// Open room sockets.
    pub room_connections: Gauge,
    /// Open table sockets.
    pub table_connections: Gauge,
    /// Games started.
    pub games_started: Counter,
    /// Games finished.
    pub games_finished: Counter,
    /// Moves stored and acknowledged.
    pub moves: Counter,
    /// From receiving a move to acknowledging it (stored).
    pub move_latency: Timing,
    /// From a flag's deadline to the loss on time stored and announced.
    pub flag_late: Timing,
    /// Sockets disconnected for not reading their events.
    pub lagging_dropped: Counter,
    /// Passwords checked against a hash (sign-ins and password changes; an unknown
    /// username is checked against a decoy hash and counts too).
    pub password_checks: Counter,
    /// Sign-ins refused (a wrong password or an unknown username).
    pub sign_ins_refused: Counter,
    /// Game analysis jobs running on this node.
    pub analyses_running: Gauge,
    /// Game analysis jobs this node finished and stored.
    pub analyses_done: Counter,
    /// Game analyses refused because the queue was full.
    pub analyses_refused: Counter,
    /// Positions searched for game analyses (a search stopped for a live game and run
    /// again counts twice).
    pub analysis_positions: Counter,
    /// Game analysis searches stopped for a live game's search (and run again).
    pub analysis_preempted: Counter,
    /// Positions of the analysis board answered.
    pub position_analyses: Counter,
    /// Positions of the analysis board answered from its cache (or by another request's
    /// search of the same position).
    pub position_analyses_cached: Counter,
    /// Requests of the analysis board refused because its searches were all taken.
    pub position_analyses_refused: Counter,
    /// Analysis-board searches waiting for the computer's threads or running.
    pub position_analyses_searching: Gauge,
    /// Web Push messages a push service took.
    pub pushes_sent: Counter,
    /// Web Push messages that failed (refused, timed out, a bad subscription).
    pub pushes_failed: Counter,
    /// Web Push subscriptions a push service said are gone (and were deleted).
    pub pushes_gone: Counter,
    /// Web Push notifications dropped because too many were being sent.
    pub pushes_dropped: Counter,
    /// From claiming a game analysis job to storing its result.
    pub analysis_job: Timing,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics {
            tables: Gauge::default(),
            tables_parked: Gauge::default(),
            room_connections: Gauge::default(),
            table_connections: Gauge::default(),
            games_started: Counter::default(),
            games_finished: Counter::default(),
            moves: Counter::default(),
            move_latency: Timing::new(&LATENCY_BUCKETS),
            flag_late: Timing::new(&FLAG_BUCKETS),
            lagging_dropped: Counter::default(),
            password_checks: Counter::default(),
            sign_ins_refused: Counter::default(),
            analyses_running: Gauge::default(),
            analyses_done: Counter::default(),
            analyses_refused: Counter::default(),
            analysis_positions: Counter::default(),
            analysis_preempted: Counter::default(),
            position_analyses: Counter::default(),
            position_analyses_cached: Counter::default(),
            position_analyses_refused: Counter::default(),
            position_analyses_searching: Gauge::default(),
            pushes_sent: Counter::default(),
            pushes_failed: Counter::default(),
            pushes_gone: Counter::default(),
            pushes_dropped: Counter::default(),
            analysis_job: Timing::new(&ANALYSIS_BUCKETS),
        }
    }
}

impl Metrics {
    /// Registers every metric (`damka_*`) in `registry`.
    pub fn register(&self, registry: &mut Registry) {
        registry.register("damka_tables", "Open tables", self.tables.clone());
        registry.register(
            "damka_tables_parked",
            "Parked correspondence tables (loaded when opened or due)",
            self.tables_parked.clone(),
        );
        registry.register(
            "damka_room_connections",
            "Open room sockets",
            self.room_connections.clone(),
        );
        registry.register(
            "damka_table_connections",
            "Open table sockets",
            self.table_connections.clone(),
        );
        registry.register(
            "damka_games_started",
            "Games started",
            self.games_started.clone(),
        );
        registry.register(
            "damka_password_checks",
            "Passwords checked against an Argon2id hash (an unknown username against a decoy)",
            self.password_checks.clone(),
        );
        registry.register(
            "damka_sign_ins_refused",
            "Sign-ins refused for a wrong username or password",
            self.sign_ins_refused.clone(),
        );
        registry.register(
            "damka_games_finished",
            "Games finished",
            self.games_finished.clone(),
        );
        registry.register(
            "damka_moves",
            "Moves stored and acknowledged",
            self.moves.clone(),
        );
        registry.register(
            "damka_lagging_subscribers_dropped",
            "Sockets disconnected for not reading their events",
            self.lagging_dropped.clone(),
        );
        self.move_latency.register(
            registry,
            "damka_move_latency_seconds",
            "Time from receiving a move to acknowledging it (stored)",
        );
        self.flag_late.register(
            registry,
            "damka_flag_late_seconds",
            "Time from a flag's deadline to the loss on time stored and announced",
        );
        registry.register(
            "damka_analyses_running",
            "Game analysis jobs running on this node",
            self.analyses_running.clone(),
        );
        registry.register(
            "damka_analyses_done",
            "Game analysis jobs this node finished and stored",
            self.analyses_done.clone(),
        );
        registry.register(
            "damka_analyses_refused",
            "Game analyses refused because the queue was full",
            self.analyses_refused.clone(),
        );
        registry.register(
            "damka_analysis_positions",
            "Positions searched for game analyses (a preempted search counts again)",
            self.analysis_positions.clone(),
        );
        registry.register(
            "damka_analysis_searches_preempted",
            "Game analysis searches stopped for a live game's search and run again",
            self.analysis_preempted.clone(),
        );
        registry.register(
            "damka_position_analyses",
            "Positions of the analysis board answered",
            self.position_analyses.clone(),
        );
        registry.register(
            "damka_position_analyses_cached",
            "Positions of the analysis board answered from the cache",
            self.position_analyses_cached.clone(),
        );
        registry.register(
            "damka_position_analyses_refused",
            "Analysis board requests refused (all its searches taken)",
            self.position_analyses_refused.clone(),
        );
        registry.register(
            "damka_position_analyses_searching",
            "Analysis board searches waiting for the computer's threads or running",
            self.position_analyses_searching.clone(),
        );
        registry.register(
            "damka_pushes_sent",
            "Web Push messages a push service took",
            self.pushes_sent.clone(),
        );
        registry.register(
            "damka_pushes_failed",
            "Web Push messages that failed",
            self.pushes_failed.clone(),
        );
        registry.register(
            "damka_push_subscriptions_gone",
            "Web Push subscriptions a push service said are gone (deleted)",
            self.pushes_gone.clone(),
        );
        registry.register(
            "damka_pushes_dropped",
            "Web Push notifications dropped (too many sends under way)",
            self.pushes_dropped.clone(),
        );
        self.analysis_job.register(
            registry,
            "damka_analysis_job_seconds",
            "Time from claiming a game analysis job to storing its result",
        );
    }
}

/// The text of a registry, as `/metrics` serves it.
pub fn encode(registry: &Registry) -> String {
    let mut text = String::new();
    if let Err(e) = prometheus_client::encoding::prometheus_text::encode(&mut text, registry) {
        tracing::error!(error = %e, "cannot encode the metrics");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histograms_are_cumulative_and_keep_their_maximum() {
        let m = Metrics::default();
        m.move_latency.observe(Duration::from_micros(500)); // first bucket
        m.move_latency.observe(Duration::from_millis(7)); // le=0.01
        m.move_latency.observe(Duration::from_secs(9)); // +Inf only
        m.moves.inc();
        let mut registry = Registry::default();
        m.register(&mut registry);
        let text = encode(&registry);
        for line in [
            "damka_move_latency_seconds_bucket{le=\"0.001\"} 1\n",
            "damka_move_latency_seconds_bucket{le=\"0.01\"} 2\n",
            "damka_move_latency_seconds_bucket{le=\"+Inf\"} 3\n",
            "damka_move_latency_seconds_count 3\n",
            "damka_move_latency_seconds_max 9.0\n",
            "damka_moves_total 1\n",
            "# TYPE damka_tables gauge\n",
        ] {
            assert!(text.contains(line), "{line:?} in {text}");
        }
    }

    /// What one histogram observation costs (against the per-move work it measures):
    /// `cargo test -p damka-server --release --lib
    /// observe_cost -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement"]
    fn observe_cost() {
        let t = Timing::new(&LATENCY_BUCKETS);
        let n = 10_000_000u32;
        let started = std::time::Instant::now();
        for i in 0..n {
            t.observe(Duration::from_micros(u64::from(i % 3_000)));
        }
        let per = started.elapsed() / n;
        println!("one observation: {per:?}");
    }
}
