//! `draughts tune selfplay|fit`: the Texel tuning pipeline of the evaluation
//! (docs/engine.md, "Learned evaluation").
//!
//! - `selfplay` plays the engine against itself at a fixed depth from random
//!   openings and writes the quiet positions (no capture for the side to
//!   move) with the game's result for the side to move, one `FEN RESULT`
//!   line each.
//! - `fit` reads such a file, fits the scale `K` of the score-to-result
//!   curve for the committed weights, then the weights, and writes a weight
//!   file for `crates/bot/weights/`.
//!
//! Both are deterministic for the same arguments.

use crate::Failure;
use bot::texel::{self, FitOptions, Sampler};
use bot::{Engine, Limits};
use clap::{Args, Subcommand};
use draughts::{Game, Position, Rules, Variant};
use std::fmt::Write as _;
use std::io::Write as _;
use std::sync::atomic::AtomicBool;

/// `draughts tune`.
#[derive(Debug, Args)]
pub(crate) struct TuneArgs {
    /// The step.
    #[command(subcommand)]
    pub step: TuneStep,
}

/// The steps of the pipeline.
#[derive(Debug, Subcommand)]
pub(crate) enum TuneStep {
    /// Self-play games at a fixed depth; writes quiet positions with results.
    Selfplay(SelfplayArgs),
    /// Fits the evaluation's weights to a data file; writes a weight file.
    Fit(FitArgs),
}

/// `draughts tune selfplay`.
#[derive(Debug, Args)]
pub(crate) struct SelfplayArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// Games to play.
    #[arg(long, default_value_t = 100)]
    pub games: u64,
    /// Search depth of every move (plies).
    #[arg(long, default_value_t = 4)]
    pub depth: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Random plies after the balanced four-ply opening (captures allowed).
    #[arg(long, default_value_t = 4)]
    pub random_plies: usize,
    /// A game this long is adjudicated a draw.
    #[arg(long, default_value_t = 300)]
    pub max_plies: usize,
    /// The output file.
    #[arg(long)]
    pub out: String,
}

/// `draughts tune fit`.
#[derive(Debug, Args)]
pub(crate) struct FitArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// Data files written by `selfplay` (comma-separated).
    #[arg(long, value_delimiter = ',', required = true)]
    pub data: Vec<String>,
    /// The weight file to write.
    #[arg(long)]
    pub out: String,
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 400)]
    pub epochs: usize,
    /// Adam's step size (hundredths of a man).
    #[arg(long, default_value_t = 1.0)]
    pub rate: f64,
    /// Ridge pull towards the committed weights.
    #[arg(long, default_value_t = 1e-7)]
    pub lambda: f64,
    /// Ridge pull on the pattern (diamond) weights (default: `--lambda`).
    #[arg(long)]
    pub pattern_lambda: Option<f64>,
    /// Weights kept as they are (`NAME.opening` or `NAME.endgame`, comma-separated;
    /// `PREFIX*` names every weight that starts with PREFIX, so `dia*` leaves
    /// the patterns out); the man's opening weight fixes the unit.
    #[arg(long, value_delimiter = ',', default_value = "man.opening")]
    pub freeze: Vec<String>,
    /// Hold out the last games' positions, one in this many, for the
    /// validation loss (the files are in game order, so whole games).
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
}

pub(crate) fn run(opts: &TuneArgs) -> Result<(), Failure> {
    match &opts.step {
        TuneStep::Selfplay(a) => selfplay(a),
        TuneStep::Fit(a) => fit(a),
    }
}

/// One self-play game: its quiet positions (FEN, side to move is the
/// first mover) and the result for the first mover, or `None` when the
/// random opening already ended it.
fn one_game(
    rules: Rules,
    seed: u64,
    opts: &SelfplayArgs,
    out: &mut Vec<(String, bool)>,
) -> Option<f64> {
    let mut game = Game::new(Position::new(rules));
    let mut rng = draughts::SplitMix64::new(seed);
    for m in draughts::random_opening(rules, seed) {
        game.play(&m).ok()?;
    }
    for _ in 0..opts.random_plies {
        let moves = game.position().legal_moves();
        if moves.is_empty() || game.outcome().is_some() {
            return None;
        }
        let m = moves[rng.below(moves.len() as u64) as usize];
        game.play(&m).ok()?;
    }
    let first = rules.variant.first_mover();
    let mut engine = Engine::new(16);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(opts.depth),
        ..Limits::default()
    };
    let mut plies = 0;
    while game.outcome().is_none() && plies < opts.max_plies {
        let pos = game.position();
        if !pos.has_capture() {
            out.push((pos.to_fen(), pos.turn() == first));
        }
        let r = engine.search(&game, &limits, &stop)?;
        game.play(&r.mv).ok()?;
        plies += 1;
    }
    Some(match game.outcome().and_then(|o| o.winner) {
        Some(c) if c == first => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    })
}

fn selfplay(opts: &SelfplayArgs) -> Result<(), Failure> {
    let rules = Rules::new(opts.variant);
    let file = std::fs::File::create(&opts.out)
        .map_err(|e| Failure::input(format!("{}: {e}", opts.out)))?;
    let mut file = std::io::BufWriter::new(file);
    let started = std::time::Instant::now();
    let (mut positions, mut score, mut played) = (0usize, 0.0, 0u64);
    let write_err = |e: std::io::Error| Failure::input(format!("{}: {e}", opts.out));
    writeln!(
        file,
        "# draughts tune selfplay --variant {} --games {} --depth {} --seed {} --random-plies {} --max-plies {}",
        opts.variant.name(),
        opts.games,
        opts.depth,
        opts.seed,
        opts.random_plies,
        opts.max_plies
    )
    .map_err(write_err)?;
    for g in 0..opts.games {
        let seed = opts.seed.wrapping_mul(0x100_0000_01B3).wrapping_add(g);
        let mut fens = Vec::new();
        let Some(result) = one_game(rules, seed, opts, &mut fens) else {
            continue;
        };
        played += 1;
        score += result;
        for (fen, first_to_move) in &fens {
            let r = if *first_to_move { result } else { 1.0 - result };
            writeln!(file, "{fen} {r}").map_err(write_err)?;
        }
        positions += fens.len();
        if (g + 1) % 50 == 0 {
            eprintln!(
                "{} games, {positions} positions, {:.0} s",
                g + 1,
                started.elapsed().as_secs_f64()
            );
        }
    }
    file.flush().map_err(write_err)?;
    println!(
        "{}: {played} games ({:.1}% for the first mover), {positions} positions in {:.0} s",
        opts.variant.name(),
        100.0 * score / played.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Reads data files into samples.
fn read_samples(variant: Variant, files: &[String]) -> Result<Vec<texel::Sample>, Failure> {
    let rules = Rules::new(variant);
    let sampler = Sampler::new(variant);
    let mut samples = Vec::new();
    for path in files {
        let text =
            std::fs::read_to_string(path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
        for (i, line) in text.lines().enumerate() {
            if line.starts_with('#') || line.trim().is_empty() {
                continue;
            }
            let bad = |what: String| Failure::input(format!("{path}:{}: {what}", i + 1));
            let (fen, result) = line
                .rsplit_once(' ')
                .ok_or_else(|| bad("no result".into()))?;
            let result: f64 = result
                .parse()
                .map_err(|_| bad(format!("result {result:?}")))?;
            let pos = Position::from_fen(rules, fen).map_err(|e| bad(e.to_string()))?;
            samples.push(sampler.sample(&pos, result));
        }
    }
    Ok(samples)
}

fn fit(opts: &FitArgs) -> Result<(), Failure> {
    let variant = opts.variant;
    let samples = read_samples(variant, &opts.data)?;
    if samples.len() < 10 {
        return Err(Failure::input("fewer than 10 positions"));
    }
    let held = samples.len() / opts.holdout.max(2);
    let (train, valid) = samples.split_at(samples.len() - held);
    println!(
        "{}: {} positions ({} to fit, {} held out)",
        variant.name(),
        samples.len(),
        train.len(),
        valid.len()
    );
    let (w0, _) = texel::committed(variant);
    let k0 = texel::fit_k(train, &w0);
    let before = (texel::loss(train, &w0, k0), texel::loss(valid, &w0, k0));
    println!(
        "committed weights: K {k0:.1}, loss {:.5} (held out {:.5})",
        before.0, before.1
    );
    let names = texel::weight_names();
    let mut frozen = Vec::new();
    for f in &opts.freeze {
        let matches = |n: &String| match f.strip_suffix('*') {
            Some(prefix) => n.starts_with(prefix),
            None => n == f,
        };
        let before = frozen.len();
        frozen.extend((0..names.len()).filter(|&j| matches(&names[j])));
        if frozen.len() == before {
            return Err(Failure::usage(format!("no weight named {f:?}")));
        }
    }
    let fit_opts = FitOptions {
        epochs: opts.epochs,
        rate: opts.rate,
        lambda: opts.lambda,
        pattern_lambda: opts.pattern_lambda.unwrap_or(opts.lambda),
        frozen,
    };
    let w = texel::fit(train, &w0, k0, &fit_opts, |epoch, loss| {
        if epoch % 50 == 0 {
            eprintln!("epoch {epoch}: loss {loss:.5}");
        }
    });
    let (w_rounded, k1) = {
        let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
        let k = texel::fit_k(train, &rounded);
        (rounded, k)
    };
    let after = (
        texel::loss(train, &w_rounded, k1),
        texel::loss(valid, &w_rounded, k1),
    );
    println!(
        "fitted weights:    K {k1:.1}, loss {:.5} (held out {:.5})",
        after.0, after.1
    );
    let mut changes: Vec<(f64, String)> = names
        .into_iter()
        .enumerate()
        .map(|(j, name)| {
            (
                (w_rounded[j] - w0[j]).abs(),
                format!("{name} {} -> {}", w0[j], w_rounded[j]),
            )
        })
        .filter(|(d, _)| *d > 0.0)
        .collect();
    changes.sort_by(|a, b| b.0.total_cmp(&a.0));
    println!("largest changes:");
    for (_, line) in changes.iter().take(15) {
        println!("  {line}");
    }
    let mut header = String::new();
    let _ = writeln!(
        header,
        "{}: fitted by `draughts tune fit --variant {} --epochs {} --rate {} --lambda {:e} --pattern-lambda {:e} --freeze {}`",
        variant.name(),
        variant.name(),
        opts.epochs,
        opts.rate,
        opts.lambda,
        opts.pattern_lambda.unwrap_or(opts.lambda),
        opts.freeze.join(",")
    );
    let _ = writeln!(
        header,
        "on {} positions ({} held out); loss {:.5} -> {:.5}, held out {:.5} -> {:.5}",
        samples.len(),
        valid.len(),
        before.0,
        after.0,
        before.1,
        after.1
    );
    let _ = write!(
        header,
        "name, opening weight, endgame weight (hundredths of a man); k: the scale K of 1/(1+exp(-score/K))"
    );
    let text = texel::weight_file(variant, &w_rounded, k1, &header);
    std::fs::write(&opts.out, text).map_err(|e| Failure::input(format!("{}: {e}", opts.out)))?;
    println!("wrote {}", opts.out);
    Ok(())
}
