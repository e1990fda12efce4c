//! `draughts puzzles`: finds and verifies puzzles (shots) in self-play games of the engine
//! (`bot::puzzle`, docs/puzzles.md), one JSON object a line on standard output:
//! `{"variant", "fen", "line", "solver_moves", "themes", "rating", "expected", "source"}`.
//! Deterministic for a seed; progress on standard error.

use crate::Failure;
use bot::Engine;
use bot::puzzle::{self, PuzzleOptions};
use clap::Args;
use draughts::{Position, Rules, SplitMix64, Variant, ballot};
use std::collections::HashSet;
use std::io::Write as _;
use std::time::Instant;

/// `draughts puzzles`.
#[derive(Debug, Args)]
pub(crate) struct PuzzlesArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// Self-play games to scan.
    #[arg(long, default_value_t = 20)]
    pub games: u32,
    /// Stop after this many puzzles.
    #[arg(long, default_value_t = u32::MAX)]
    pub max: u32,
    /// The self-play games' seed (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Depth of the self-play moves.
    #[arg(long, default_value_t = 4)]
    pub play_depth: u32,
    /// How often a self-play move is not the best (0 to 1).
    #[arg(long, default_value_t = 0.15)]
    pub err: f64,
    /// Depth of the scan for candidates.
    #[arg(long, default_value_t = PuzzleOptions::default().scan_depth)]
    pub scan_depth: u32,
    /// Depth of the verification.
    #[arg(long, default_value_t = PuzzleOptions::default().verify_depth)]
    pub verify_depth: u32,
    /// Instead of making puzzles: reads puzzles (this command's JSON lines) from this
    /// file and prints those that stay puzzles, with the same first move, when verified
    /// again at each of `--recheck-depths`.
    #[arg(long, value_name = "FILE")]
    pub recheck: Option<std::path::PathBuf>,
    /// The depths of `--recheck`.
    #[arg(long, value_delimiter = ',', default_value = "13,14")]
    pub recheck_depths: Vec<u32>,
}

/// `--recheck`: the puzzles of a file that hold at deeper searches.
fn recheck(a: &PuzzlesArgs, file: &std::path::Path) -> Result<(), Failure> {
    let text = std::fs::read_to_string(file).map_err(|e| Failure::input(e.to_string()))?;
    let rules = Rules::new(a.variant);
    let mut engine = Engine::new(20);
    let mut out = std::io::stdout().lock();
    let (mut kept, mut dropped) = (0, 0);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let p: serde_json::Value =
            serde_json::from_str(line).map_err(|e| Failure::input(e.to_string()))?;
        let fen = p["fen"].as_str().unwrap_or_default();
        let pos = Position::from_fen(rules, fen).map_err(|e| Failure::input(e.to_string()))?;
        let first = p["line"][0].as_str().unwrap_or_default();
        let holds = a.recheck_depths.iter().all(|&d| {
            let o = PuzzleOptions {
                verify_depth: d,
                ..PuzzleOptions::default()
            };
            puzzle::verify(&mut engine, &draughts::Game::new(pos.clone()), &o)
                .is_ok_and(|again| again.line.first().map(String::as_str) == Some(first))
        });
        if holds {
            writeln!(out, "{line}").map_err(|e| Failure::input(e.to_string()))?;
            kept += 1;
        } else {
            dropped += 1;
        }
    }
    eprintln!("{kept} kept, {dropped} dropped");
    Ok(())
}

pub(crate) fn run(a: &PuzzlesArgs) -> Result<(), Failure> {
    if let Some(file) = &a.recheck {
        return recheck(a, file);
    }
    if !(0.0..=1.0).contains(&a.err) {
        return Err(Failure::usage("--err must be 0 to 1"));
    }
    let o = PuzzleOptions {
        scan_depth: a.scan_depth,
        verify_depth: a.verify_depth,
        ..PuzzleOptions::default()
    };
    let rules = Rules::new(a.variant);
    let mut engine = Engine::new(20);
    let mut seen = HashSet::new();
    let mut found = 0;
    let started = Instant::now();
    let mut out = std::io::stdout().lock();
    'games: for i in 0..a.games {
        let seed = a.seed.wrapping_add(u64::from(i));
        // From one of the variant's ballots (varied, balanced openings).
        let b = ballot::random(a.variant, SplitMix64::new(seed).next_u64());
        let start =
            Position::from_fen(rules, b.fen()).map_err(|e| Failure::input(e.to_string()))?;
        let game = puzzle::self_play(&mut engine, start, a.play_depth, a.err, 200, seed);
        for (ply, p) in puzzle::puzzles_of(&mut engine, &game, &o) {
            if !seen.insert(p.fen.clone()) {
                continue;
            }
            let line = serde_json::json!({
                "variant": a.variant.name(),
                "fen": p.fen,
                "line": p.line,
                "solver_moves": p.solver_moves,
                "themes": p.themes.iter().map(|t| t.name()).collect::<Vec<_>>(),
                "rating": p.rating,
                "expected": (p.expected * 1000.0).round() / 1000.0,
                "source": format!("self-play seed {seed} ply {ply} ballot {}", b.id()),
            });
            writeln!(out, "{line}").map_err(|e| Failure::input(e.to_string()))?;
            found += 1;
            if found >= a.max {
                break 'games;
            }
        }
        eprintln!(
            "game {}/{}: {} plies, {found} puzzles, {:.0} s",
            i + 1,
            a.games,
            game.moves().len(),
            started.elapsed().as_secs_f64()
        );
    }
    Ok(())
}
