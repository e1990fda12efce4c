//! `draughts bench [--variant V,...] [--movetime MS | --depth D] [--threads N]`:
//! the search's speed and depth at a fixed time per position (or its nodes
//! to a fixed depth) over a fixed set per variant (the start and the first
//! three stored match openings with more than one legal move), a fresh
//! engine (table of 2^20 entries, 16 MiB) per position.

use crate::Failure;
use bot::{Engine, Limits};
use draughts::{Game, Position, Rules, Variant};
use std::sync::atomic::AtomicBool;

/// Positions per variant: the start and this many openings.
const OPENINGS: usize = 3;

/// The bench positions of `variant` as games from the start.
fn games(variant: Variant) -> Result<Vec<Game>, Failure> {
    let start = Position::new(Rules::new(variant));
    let mut games = vec![Game::new(start.clone())];
    for opening in crate::openings::load(variant).map_err(Failure::input)? {
        let mut g = Game::new(start.clone());
        for m in &opening {
            g.play(m).map_err(|e| Failure::input(e.to_string()))?;
        }
        // A single legal move is answered without a search.
        if g.position().legal_moves().len() > 1 {
            games.push(g);
        }
        if games.len() > OPENINGS {
            break;
        }
    }
    Ok(games)
}

/// CPU time of the process (all its threads) in milliseconds (Linux
/// `/proc/self/stat`, 10 ms ticks); `None` elsewhere. On a busy machine
/// nodes per CPU second say more than nodes per wall second.
fn process_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which is in parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) * 10)
}

pub(crate) fn run(opts: &crate::args::BenchArgs) -> Result<(), Failure> {
    let variants = if opts.variant.is_empty() {
        Variant::ALL.to_vec()
    } else {
        opts.variant.clone()
    };
    let (movetime, depth) = (opts.movetime, opts.depth);
    let stop = AtomicBool::new(false);
    // A fixed depth counts the nodes the search needs to reach it (the
    // same on any machine, whatever its load); else the time per position.
    let limits = match depth {
        Some(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        None => Limits {
            movetime_ms: Some(movetime),
            ..Limits::default()
        },
    };
    let (mut all_nodes, mut all_ms, mut all_cpu) = (0u64, 0u64, 0u64);
    println!(
        "variant        positions        nodes  nodes/s(wall)  nodes/CPU-s  mean depth  (depths)"
    );
    for variant in variants {
        let (mut nodes, mut ms, mut depths) = (0u64, 0u64, Vec::new());
        let cpu_before = process_cpu_ms().unwrap_or(0);
        for game in games(variant)? {
            let mut engine = Engine::new(20);
            engine.set_threads(usize::from(opts.threads));
            let r = engine
                .search(&game, &limits, &stop)
                .ok_or_else(|| Failure::input("no move"))?;
            nodes += r.nodes;
            ms += r.time_ms.max(1);
            depths.push(r.depth);
        }
        let cpu = process_cpu_ms()
            .unwrap_or(0)
            .saturating_sub(cpu_before)
            .max(1);
        let mean = f64::from(depths.iter().sum::<u32>()) / depths.len() as f64;
        println!(
            "{:<14} {:>9}  {nodes:>11}  {:>13}  {:>11}  {mean:>10.2}  {depths:?}",
            variant.name(),
            depths.len(),
            nodes * 1000 / ms,
            nodes * 1000 / cpu
        );
        all_nodes += nodes;
        all_ms += ms;
        all_cpu += cpu;
    }
    println!(
        "total nodes {all_nodes} in {all_ms} ms ({all_cpu} ms CPU): {} nodes/s wall, {} nodes per CPU second",
        all_nodes * 1000 / all_ms.max(1),
        all_nodes * 1000 / all_cpu.max(1)
    );
    Ok(())
}
