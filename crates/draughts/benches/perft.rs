//! Start-position perft of every variant: nodes per second, each count
//! checked against the published count in `vectors/perft.json`.
//!
//! `cargo bench -p draughts --bench perft` measures (8x8 at depth 9,
//! International at depth 9, five runs each, median and best); without
//! `--bench` (as `cargo test --benches` starts it) it only checks small
//! depths once.

mod common;

use common::{load_vectors, measuring, median};
use draughts::{Position, Rules, Variant, perft};
use std::hint::black_box;
use std::time::Instant;

/// Timed runs per variant in a measuring run.
const RUNS: usize = 5;

fn main() {
    let measuring = measuring();
    let vectors = load_vectors("perft.json");
    println!(
        "{:<14} {:>5} {:>12} {:>10} {:>10} {:>12}",
        "variant", "depth", "nodes", "median ms", "best ms", "Mnodes/s"
    );
    for variant in Variant::ALL {
        let depth: u32 = match (measuring, variant.board_size()) {
            (true, _) => 9,
            (false, 10) => 5,
            (false, _) => 7,
        };
        let expected = vectors["variants"][variant.name()]["perft"][depth.to_string()]
            .as_u64()
            .unwrap_or_else(|| panic!("perft.json has no {variant} perft({depth})"));
        let pos = Position::new(Rules::new(variant));
        let runs = if measuring { RUNS } else { 1 };
        let mut secs: Vec<f64> = (0..runs)
            .map(|_| {
                let start = Instant::now();
                let nodes = perft(black_box(&pos), black_box(depth));
                let elapsed = start.elapsed().as_secs_f64();
                assert_eq!(nodes, expected, "{variant} perft({depth})");
                elapsed
            })
            .collect();
        let best = secs.iter().copied().fold(f64::INFINITY, f64::min);
        let mid = median(&mut secs);
        println!(
            "{:<14} {:>5} {:>12} {:>10.1} {:>10.1} {:>12.1}",
            variant.name(),
            depth,
            expected,
            mid * 1e3,
            best * 1e3,
            expected as f64 / mid / 1e6
        );
    }
}
