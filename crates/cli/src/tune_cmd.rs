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
//! - `regions` fits the region patterns (crates/bot/src/regions.rs) on top of
//!   the committed evaluation to such files, and writes a region weight file.
//!
//! All are deterministic for the same arguments.

use crate::Failure;
use bot::regions::{self, Layout, RegionFit, RegionSample, RegionSampler};
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
    /// Fits the region patterns on top of the evaluation; writes a region weight file.
    Regions(RegionsArgs),
}

/// `draughts tune regions`.
#[derive(Debug, Args)]
pub(crate) struct RegionsArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// Data files written by `selfplay` (comma-separated).
    #[arg(long, value_delimiter = ',', required = true)]
    pub data: Vec<String>,
    /// The region weight file to write.
    #[arg(long)]
    pub out: String,
    /// Passes over the positions.
    #[arg(long, default_value_t = 8)]
    pub epochs: usize,
    /// Adam's step size (the evaluation's units).
    #[arg(long, default_value_t = 0.5)]
    pub rate: f64,
    /// Ridge pull of every region weight towards 0.
    #[arg(long, default_value_t = 1e-4)]
    pub lambda: f64,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    pub batch: usize,
    /// Hold out the last files' positions, one in this many.
    #[arg(long, default_value_t = 10)]
    pub holdout: usize,
    /// The share of the search score in a position's target (the rest is the game's
    /// result), for files with scores (`selfplay --scores`).
    #[arg(long, default_value_t = 0.75)]
    pub score_weight: f64,
    /// Fit the search scores themselves (least squares in the evaluation's units)
    /// instead of results, leaving out the positions scored beyond ±LIMIT; needs scored
    /// files.
    #[arg(long, value_name = "LIMIT")]
    pub scores: Option<i32>,
    /// The scale of the search score's winning chance, `1 / (1 + exp(-score / K))`
    /// (default: the committed weight file's `k`).
    #[arg(long)]
    pub score_k: Option<f64>,
    /// Which 4x4 windows: `even` (corners on even rows and columns), `centre` (also
    /// odd rows and odd columns) or `all`.
    #[arg(long, default_value = "even", value_parser = layout)]
    pub layout: Layout,
    /// Give every window a second table, read on the kings (the men as empty).
    #[arg(long)]
    pub kings: bool,
    /// Start from this region weight file (of the same layout) instead of zero: its
    /// measure on the data is printed first.
    #[arg(long, value_name = "FILE")]
    pub from: Option<String>,
}

fn layout(name: &str) -> Result<Layout, String> {
    Layout::from_name(name).ok_or_else(|| format!("{name:?}: even, centre or all"))
}

/// A position's target: the game's `result` mixed with the winning chance of the
/// search `score`, `weight` of it.
fn mix(result: f64, score: Option<i32>, weight: f64, k: f64) -> f64 {
    match score {
        Some(s) => {
            let chance = 1.0 / (1.0 + (-f64::from(s) / k).exp());
            weight * chance + (1.0 - weight) * result
        }
        None => result,
    }
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
    /// Write each position's search score (for the side to move, the
    /// evaluation's units) after its result: `FEN RESULT SCORE`.
    #[arg(long)]
    pub scores: bool,
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
        TuneStep::Regions(a) => regions(a),
    }
}

/// One line of a data file: the position, the result for its side to move and,
/// when the file has them, the search score.
type DataLine = (Position, f64, Option<i32>);

/// The `FEN RESULT [SCORE]` lines of `path`, parsed.
fn read_positions(rules: Rules, path: &str) -> Result<Vec<DataLine>, Failure> {
    let text = std::fs::read_to_string(path).map_err(|e| Failure::input(format!("{path}: {e}")))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let bad = |what: String| Failure::input(format!("{path}:{}: {what}", i + 1));
        let mut parts = line.split_whitespace();
        let (Some(fen), Some(result)) = (parts.next(), parts.next()) else {
            return Err(bad("no result".into()));
        };
        let result: f64 = result
            .parse()
            .map_err(|_| bad(format!("result {result:?}")))?;
        let score = match parts.next() {
            Some(s) => Some(s.parse().map_err(|_| bad(format!("score {s:?}")))?),
            None => None,
        };
        let pos = Position::from_fen(rules, fen).map_err(|e| bad(e.to_string()))?;
        out.push((pos, result, score));
    }
    Ok(out)
}

/// The scale `K` of the result curve that fits `samples` best with weights `w`
/// (golden section on the loss).
fn region_k(samples: &[RegionSample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (20.0f64, 2000.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if regions::region_loss(samples, w, c) < regions::region_loss(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// How a region fit is judged: its name in the output and the measure of a sample set
/// under weights.
struct Measure<'a> {
    what: String,
    of: &'a dyn Fn(&[RegionSample], &[f64]) -> f64,
}

/// Fits the region weights `w` on `train` with `fit`, prints `measure` on both sets
/// before and after, and writes the rounded weights with a header naming the command's
/// options (`flags`).
fn fit_and_write(
    opts: &RegionsArgs,
    train: &[RegionSample],
    valid: &[RegionSample],
    w: &mut [f64],
    fit: &RegionFit,
    measure: &Measure<'_>,
    flags: &str,
) -> Result<(), Failure> {
    let started = std::time::Instant::now();
    let variant = opts.variant;
    let what = &measure.what;
    let before = ((measure.of)(train, w), (measure.of)(valid, w));
    let start = opts.from.as_deref().unwrap_or("without regions");
    println!("{start}: {what} {:.5} (held out {:.5})", before.0, before.1);
    regions::fit(train, w, fit, |epoch, w| {
        eprintln!(
            "epoch {epoch}: held out {:.5} ({:.0} s)",
            (measure.of)(valid, w),
            started.elapsed().as_secs_f64()
        );
    });
    let rounded: Vec<f64> = w.iter().map(|x| x.round()).collect();
    let after = ((measure.of)(train, &rounded), (measure.of)(valid, &rounded));
    println!(
        "with regions:    {what} {:.5} (held out {:.5}); {} weights set",
        after.0,
        after.1,
        rounded.iter().filter(|x| **x != 0.0).count()
    );
    let header = format!(
        "{v}: fitted by `draughts tune regions --variant {v} --layout {}{}{} {flags} --epochs {} --rate {} --lambda {:e} --batch {}`\n\
         on {} positions ({} held out) from {} files; {what} {:.5} -> {:.5}, held out {:.5} -> {:.5}\n\
         window config opening endgame (the evaluation's units)",
        opts.layout.name(),
        if opts.kings { " --kings" } else { "" },
        opts.from
            .as_ref()
            .map_or(String::new(), |f| format!(" --from {f}")),
        opts.epochs,
        opts.rate,
        opts.lambda,
        opts.batch,
        train.len() + valid.len(),
        valid.len(),
        opts.data.len(),
        before.0,
        after.0,
        before.1,
        after.1,
        v = variant.name(),
    );
    std::fs::write(&opts.out, regions::region_file(variant, &rounded, &header))
        .map_err(|e| Failure::input(format!("{}: {e}", opts.out)))?;
    println!("wrote {}", opts.out);
    Ok(())
}

fn regions(opts: &RegionsArgs) -> Result<(), Failure> {
    let variant = opts.variant;
    let rules = Rules::new(variant);
    let started = std::time::Instant::now();
    let score_k = opts.score_k.unwrap_or_else(|| texel::committed(variant).1);
    // The files are read and sampled on every core, each file whole, in file order.
    let threads = std::thread::available_parallelism().map_or(1, usize::from);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut parts: Vec<(usize, Result<Vec<RegionSample>, Failure>)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let sampler = RegionSampler::with_tables(variant, opts.layout, opts.kings);
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(path) = opts.data.get(i) else { break };
                        let r = read_positions(rules, path).map(|ps| {
                            ps.iter()
                                .filter(|(_, _, score)| match (opts.scores, score) {
                                    (None, _) => true,
                                    // Decisive scores (a tactic the search saw) are left out.
                                    (Some(limit), Some(s)) => s.abs() <= limit,
                                    (Some(_), None) => false,
                                })
                                .map(|(p, r, score)| match (opts.scores, score) {
                                    (Some(clamp), Some(s)) => {
                                        regions::with_score_target(sampler.sample(p, *r), *s, clamp)
                                    }
                                    _ => sampler
                                        .sample(p, mix(*r, *score, opts.score_weight, score_k)),
                                })
                                .collect()
                        });
                        done.push((i, r));
                    }
                    done
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a sampling thread"))
            .collect()
    });
    parts.sort_by_key(|(i, _)| *i);
    let mut samples = Vec::new();
    for (_, part) in parts {
        samples.extend(part?);
    }
    let (train, valid) = split_held_out(variant, &samples, opts.holdout)?;
    println!("read in {:.0} s", started.elapsed().as_secs_f64());
    let windows = RegionSampler::with_tables(variant, opts.layout, opts.kings).windows();
    let mut w = match &opts.from {
        None => regions::zero_weights(windows),
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::input(format!("{path}: {e}")))?;
            let w = regions::weights_of_file(variant, &text)
                .map_err(|e| Failure::input(format!("{path}: {e}")))?;
            if w.len() != regions::zero_weights(windows).len() {
                return Err(Failure::usage(format!(
                    "{path}: not of the {} layout{}",
                    opts.layout.name(),
                    if opts.kings { " with kings" } else { "" }
                )));
            }
            w
        }
    };
    let fit = |k, linear| RegionFit {
        epochs: opts.epochs,
        rate: opts.rate,
        lambda: opts.lambda,
        batch: opts.batch,
        k,
        linear,
    };
    if let Some(limit) = opts.scores {
        // Least squares on the search scores.
        let measure = Measure {
            what: "score error".into(),
            of: &regions::score_error,
        };
        let flags = format!("--scores {limit}");
        return fit_and_write(
            opts,
            train,
            valid,
            &mut w,
            &fit(1.0, true),
            &measure,
            &flags,
        );
    }
    let k = region_k(train, &w);
    let loss = move |s: &[RegionSample], w: &[f64]| regions::region_loss(s, w, k);
    let measure = Measure {
        what: format!("K {k:.1}, loss"),
        of: &loss,
    };
    let flags = format!("--score-weight {} --score-k {score_k}", opts.score_weight);
    fit_and_write(opts, train, valid, &mut w, &fit(k, false), &measure, &flags)
}

/// One self-play game: its quiet positions (FEN, side to move is the
/// first mover) and the result for the first mover, or `None` when the
/// random opening already ended it.
fn one_game(
    rules: Rules,
    seed: u64,
    opts: &SelfplayArgs,
    out: &mut Vec<(String, bool, Option<i32>)>,
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
        let quiet = (!pos.has_capture()).then(|| (pos.to_fen(), pos.turn() == first));
        let r = engine.search(&game, &limits, &stop)?;
        if let Some((fen, first_to_move)) = quiet {
            out.push((fen, first_to_move, opts.scores.then_some(r.score)));
        }
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
        "# draughts tune selfplay --variant {} --games {} --depth {} --seed {} --random-plies {} --max-plies {}{}",
        opts.variant.name(),
        opts.games,
        opts.depth,
        opts.seed,
        opts.random_plies,
        opts.max_plies,
        if opts.scores { " --scores" } else { "" }
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
        for (fen, first_to_move, score) in &fens {
            let r = if *first_to_move { result } else { 1.0 - result };
            match score {
                Some(s) => writeln!(file, "{fen} {r} {s}"),
                None => writeln!(file, "{fen} {r}"),
            }
            .map_err(write_err)?;
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
        for (pos, result, _) in read_positions(rules, path)? {
            samples.push(sampler.sample(&pos, result));
        }
    }
    Ok(samples)
}

/// Splits the samples into the part to fit and the last `1/holdout` held out (at least
/// 10 samples in all), and says so.
fn split_held_out<T>(
    variant: Variant,
    samples: &[T],
    holdout: usize,
) -> Result<(&[T], &[T]), Failure> {
    if samples.len() < 10 {
        return Err(Failure::input("fewer than 10 positions"));
    }
    let held = samples.len() / holdout.max(2);
    let (train, valid) = samples.split_at(samples.len() - held);
    println!(
        "{}: {} positions ({} to fit, {} held out)",
        variant.name(),
        samples.len(),
        train.len(),
        valid.len()
    );
    Ok((train, valid))
}

fn fit(opts: &FitArgs) -> Result<(), Failure> {
    let variant = opts.variant;
    let samples = read_samples(variant, &opts.data)?;
    let (train, valid) = split_held_out(variant, &samples, opts.holdout)?;
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
