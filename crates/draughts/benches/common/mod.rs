//! What the engine benchmarks share: the run mode, the shared vectors, a
//! seeded generator for random games, and latency statistics.
//!
//! Each bench target includes this file with `mod common;` and uses only
//! part of it.
#![allow(dead_code)]

use serde_json::Value;
use std::time::{Duration, Instant};

/// The tests' seeded generator: the sample games must be the same on every
/// run so figures from two runs describe the same positions.
#[path = "../../tests/common/mod.rs"]
pub mod rng;

/// The test vectors, `vectors/` at the repository root (a copy of the shared ones).
const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors");

/// Whether this is a measuring run. `cargo bench` passes `--bench`; any other
/// start (`cargo test --benches`, `--all-targets`) is a smoke run that checks
/// the assertions on small inputs and times nothing worth reading.
pub fn measuring() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Reads one vectors file. Panics with the path when it is missing or broken:
/// a benchmark without its reference counts must not report anything.
pub fn load_vectors(name: &str) -> Value {
    let path = format!("{VECTORS}/{name}");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("benchmark vectors missing: cannot read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: invalid JSON: {e}"))
}

/// Latency figures of many timed calls, in nanoseconds.
pub struct Latency {
    /// Number of timed calls.
    pub samples: usize,
    /// Mean per call: the median over rounds of each round's mean, so that a
    /// round in which another process took the core does not count.
    pub mean: f64,
    /// Median call.
    pub p50: u64,
    /// 99th percentile.
    pub p99: u64,
    /// Slowest call (preemption by other processes shows here).
    pub max: u64,
}

impl Latency {
    /// Summarizes `ns`, the calls of `rounds` rounds of equal length in
    /// order. Panics when `ns` is empty or does not split into `rounds`
    /// equal rounds: the benchmark has a bug.
    pub fn of(mut ns: Vec<u64>, rounds: usize) -> Latency {
        assert!(
            !ns.is_empty() && rounds > 0 && ns.len().is_multiple_of(rounds),
            "{} timed calls do not make {rounds} rounds",
            ns.len()
        );
        let per_round = ns.len() / rounds;
        let mut round_means: Vec<f64> = ns
            .chunks(per_round)
            .map(|r| r.iter().sum::<u64>() as f64 / per_round as f64)
            .collect();
        let mean = median(&mut round_means);
        ns.sort_unstable();
        let at = |q: f64| ns[((ns.len() - 1) as f64 * q).round() as usize];
        Latency {
            samples: ns.len(),
            mean,
            p50: at(0.50),
            p99: at(0.99),
            max: ns[ns.len() - 1],
        }
    }
}

/// Nanoseconds in `d`, saturating (no timed call lasts 584 years).
pub fn nanos(d: Duration) -> u64 {
    u64::try_from(d.as_nanos()).unwrap_or(u64::MAX)
}

/// The median cost of reading the clock twice, which every per-call figure
/// includes; printed so the reader can judge the smallest figures.
pub fn timer_overhead_ns() -> u64 {
    let mut ns: Vec<u64> = (0..10_001)
        .map(|_| {
            let t = Instant::now();
            nanos(std::hint::black_box(t).elapsed())
        })
        .collect();
    ns.sort_unstable();
    ns[ns.len() / 2]
}

/// The middle value of `xs` (reordered in place).
pub fn median(xs: &mut [f64]) -> f64 {
    assert!(!xs.is_empty(), "no runs");
    xs.sort_unstable_by(f64::total_cmp);
    let mid = xs.len() / 2;
    if !xs.len().is_multiple_of(2) {
        xs[mid]
    } else {
        (xs[mid - 1] + xs[mid]) / 2.0
    }
}
