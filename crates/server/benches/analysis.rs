//! How long a game's analysis takes, per variant: `cargo bench -p damka-server --bench
//! analysis [-- --nodes N --plies P --games G]`.
//!
//! For each variant it makes `G` games of `P` plies (the engine against itself at a small
//! budget, with a seeded random move one ply in six so the games differ), then analyses
//! each one as the server does (every position searched alone to the budget, one after the
//! other: one search thread), and prints the wall time per game and per position, the
//! nodes per second and the mean depth reached. Figures in `docs/performance.md`.
//!
//! `-- --fit G` instead plays `G` games per variant of the engine against itself to the
//! end (a small budget, a seeded random move in the first plies only, at most 300 plies),
//! records each position's score for White and the game's result, and fits the scale of
//! the logistic curve `E(s) = 1 / (1 + e^(-s / scale))` by maximum likelihood (20 to
//! 2,000, with a 90% bootstrap interval over games): a check of the scales `Curve::of` in
//! `analysis/judge.rs` takes from the evaluation's weight files. `--variants
//! V,V` limits the fit to those variants (wire ids); `--fit-nodes N` sets the self-play's
//! budget a move (20,000).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::print_stdout)]

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use damka_server::analysis::{Budget, search_position};
use draughts::{Game, Position, Rules, Variant};

fn arg(name: &str, default: u64) -> u64 {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let defaults = damka_server::config::Config::defaults();
    let budget = Budget {
        nodes: arg("--nodes", defaults.analysis.analysis_nodes),
        depth: u32::try_from(arg("--depth", u64::from(defaults.analysis.analysis_depth))).unwrap(),
    };
    let plies = arg("--plies", 60) as usize;
    let games = arg("--games", 2);
    let stop = AtomicBool::new(false);
    let fit_games = arg("--fit", 0);
    if fit_games > 0 {
        fit(fit_games, &stop);
        return;
    }
    println!(
        "budget {} per position, {games} games of up to {plies} plies per variant",
        budget.describe()
    );
    println!(
        "{:<14} {:>6} {:>10} {:>12} {:>10} {:>9}",
        "variant", "plies", "s/game", "ms/position", "Mnodes/s", "depth"
    );
    for variant in Variant::ALL {
        let (mut secs, mut positions, mut nodes, mut depth, mut played) =
            (0.0, 0u64, 0u64, 0u64, 0);
        for g in 0..games {
            let game = make_game(variant, plies, g, &stop);
            played += game.moves().len();
            // The game after each ply, as the job replays it.
            let mut states = vec![Game::new(game.initial().clone())];
            for m in game.moves() {
                let mut next = states.last().unwrap().clone();
                next.play(m).unwrap();
                states.push(next);
            }
            let t = Instant::now();
            for s in &states {
                let found = search_position(s, budget, &stop);
                nodes += found.nodes;
                depth += u64::from(found.depth);
                positions += 1;
            }
            secs += t.elapsed().as_secs_f64();
        }
        println!(
            "{:<14} {:>6.1} {:>10.2} {:>12.1} {:>10.2} {:>9.1}",
            variant.name(),
            played as f64 / games as f64,
            secs / games as f64,
            secs * 1000.0 / positions as f64,
            nodes as f64 / secs / 1e6,
            depth as f64 / positions as f64
        );
    }
}

/// A game of the engine against itself (a small budget; a seeded random move one ply in
/// six), up to `plies` plies or its end.
fn make_game(variant: Variant, plies: usize, seed: u64, stop: &AtomicBool) -> Game {
    let quick = Budget {
        nodes: 5_000,
        depth: 8,
    };
    let mut game = Game::new(Position::new(Rules::new(variant)));
    let mut rng = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    for ply in 0..plies {
        if game.outcome().is_some() {
            break;
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        let legal = game.position().legal_moves();
        let mv = if ply % 6 == 3 {
            legal[(rng % legal.len() as u64) as usize]
        } else {
            search_position(&game, quick, stop).best.unwrap()
        };
        game.play(&mv).unwrap();
    }
    game
}

/// Self-play to the end, then the scale that best explains the results.
fn fit(games: u64, stop: &AtomicBool) {
    let budget = Budget {
        nodes: arg("--fit-nodes", 20_000),
        depth: 24,
    };
    let mut all: Vec<Vec<(f64, f64)>> = Vec::new();
    let args: Vec<String> = std::env::args().collect();
    let only: Vec<Variant> = args
        .iter()
        .position(|a| a == "--variants")
        .and_then(|i| args.get(i + 1))
        .map(|list| {
            list.split(',')
                .map(|v| v.parse().expect("a variant's wire id"))
                .collect()
        })
        .unwrap_or_else(|| Variant::ALL.to_vec());
    for variant in only {
        let mut samples: Vec<Vec<(f64, f64)>> = Vec::new();
        let (mut w, mut d, mut l) = (0, 0, 0);
        for g in 0..games {
            let mut game = Game::new(Position::new(Rules::new(variant)));
            let mut rng = (g + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut scores = Vec::new();
            while game.outcome().is_none() && game.moves().len() < 300 {
                let found = search_position(&game, budget, stop);
                let white = match found.value {
                    damka_server::analysis::Value::Score(s) => f64::from(s),
                    damka_server::analysis::Value::Win(c) => {
                        if c == draughts::Color::White {
                            3000.0
                        } else {
                            -3000.0
                        }
                    }
                };
                if game.moves().len() >= 8 {
                    scores.push(white);
                }
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                let legal = game.position().legal_moves();
                let mv = if game.moves().len() < 6 && rng % 2 == 0 {
                    legal[(rng % legal.len() as u64) as usize]
                } else {
                    found.best.unwrap()
                };
                game.play(&mv).unwrap();
            }
            let result = match game.outcome().and_then(|o| o.winner) {
                Some(draughts::Color::White) => {
                    w += 1;
                    1.0
                }
                Some(draughts::Color::Black) => {
                    l += 1;
                    0.0
                }
                None => {
                    d += 1;
                    0.5
                }
            };
            samples.push(
                scores
                    .into_iter()
                    .filter(|s| s.abs() < 2000.0)
                    .map(|s| (s, result))
                    .collect::<Vec<_>>(),
            );
        }
        let refs: Vec<&[(f64, f64)]> = samples.iter().map(Vec::as_slice).collect();
        let (scale, ll) = best_scale(&refs);
        let (low, high) = interval(&samples);
        println!(
            "{:<14} games {games} (+{w} ={d} -{l}), {} positions, scale {scale:.0} (90% {low:.0}-{high:.0}, log-likelihood {ll:.1}, current {:.0})",
            variant.name(),
            refs.iter().map(|g| g.len()).sum::<usize>(),
            damka_server::analysis::Curve::of(variant).scale()
        );
        all.extend(samples);
    }
    let refs: Vec<&[(f64, f64)]> = all.iter().map(Vec::as_slice).collect();
    let (scale, _) = best_scale(&refs);
    println!(
        "all variants: {} positions, scale {scale:.0}",
        refs.iter().map(|g| g.len()).sum::<usize>()
    );
}

/// The log-likelihood of the results under the curve of this scale (a draw counts as half
/// a win and half a loss).
fn log_likelihood<'a>(samples: impl Iterator<Item = &'a (f64, f64)>, scale: f64) -> f64 {
    samples
        .map(|&(s, r)| {
            let e = (1.0 / (1.0 + (-s / scale).exp())).clamp(1e-9, 1.0 - 1e-9);
            r * e.ln() + (1.0 - r) * (1.0 - e).ln()
        })
        .sum()
}

/// The scale (20 to 2,000) of the curve that gives the games' results the highest
/// likelihood, and that likelihood: a ternary search (the likelihood has one maximum).
fn best_scale(games: &[&[(f64, f64)]]) -> (f64, f64) {
    let ll = |scale: f64| log_likelihood(games.iter().flat_map(|g| g.iter()), scale);
    let (mut lo, mut hi) = (20.0f64, 2000.0f64);
    while hi - lo > 0.5 {
        let (a, b) = (lo + (hi - lo) / 3.0, hi - (hi - lo) / 3.0);
        if ll(a) < ll(b) {
            lo = a;
        } else {
            hi = b;
        }
    }
    let scale = (lo + hi) / 2.0;
    (scale, ll(scale))
}

/// A 90% interval of the fitted scale by a bootstrap over whole games (the positions of
/// one game are far from independent): 200 resamples of the games with replacement.
fn interval(games: &[Vec<(f64, f64)>]) -> (f64, f64) {
    let mut rng = 0x2545_F491_4F6C_DD1Du64;
    let mut fits: Vec<f64> = (0..200)
        .map(|_| {
            let pick: Vec<&[(f64, f64)]> = (0..games.len())
                .map(|_| {
                    rng ^= rng << 13;
                    rng ^= rng >> 7;
                    rng ^= rng << 17;
                    games[(rng % games.len() as u64) as usize].as_slice()
                })
                .collect();
            best_scale(&pick).0
        })
        .collect();
    fits.sort_by(f64::total_cmp);
    (fits[10], fits[189])
}
