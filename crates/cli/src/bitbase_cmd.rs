//! `draughts bitbase --variant V[,V..] --pieces N --out DIR`: generates the
//! endgame tables of each variant (every position of up to N pieces) into
//! DIR as `<variant>-<N>.dbb`, with their sizes, build times and counts.
//! `--probe FEN` (one variant) looks a position up in DIR's table instead,
//! and with `--search MS` also searches it for MS milliseconds without and
//! with the tables (nodes, bitbase hits, score, move). `--verify [--threads
//! N]` checks every entry of DIR's tables against its children's entries.

use crate::Failure;
use crate::args::BitbaseArgs;
use bot::{Bitbases, Engine, Limits, Table};
use draughts::{Game, Position, Rules};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

pub(crate) fn run(args: &BitbaseArgs) -> Result<(), Failure> {
    if let Some(fen) = &args.probe {
        let [variant] = args.variant[..] else {
            return Err(Failure::usage("--probe takes exactly one --variant"));
        };
        let pos = Position::from_fen(Rules::new(variant), fen)
            .map_err(|e| Failure::input(e.to_string()))?;
        let tables = Bitbases::load_dir(&args.out).map_err(|e| Failure::input(e.to_string()))?;
        match tables.probe_dtc(&pos) {
            Some(p) => println!("{:?} dtc {}", p.wdl, p.dtc),
            None => println!("not in the tables"),
        }
        if let Some(ms) = args.search {
            let tables = Arc::new(tables);
            for with in [false, true] {
                let mut engine = Engine::new(20);
                engine.set_bitbases(with.then(|| Arc::clone(&tables)));
                let limits = Limits {
                    movetime_ms: Some(ms),
                    ..Limits::default()
                };
                let game = Game::new(pos.clone());
                let stop = AtomicBool::new(false);
                let Some(r) = engine.search(&game, &limits, &stop) else {
                    println!("game over");
                    break;
                };
                println!(
                    "{} tables: depth {} nodes {} bitbase hits {} ({:.1}%) score {} move {}",
                    if with { "with" } else { "without" },
                    r.depth,
                    r.nodes,
                    r.bitbase_hits,
                    100.0 * r.bitbase_hits as f64 / r.nodes.max(1) as f64,
                    bot::centimen(pos.variant(), r.score),
                    pos.move_to_string(&r.mv)
                );
            }
        }
        return Ok(());
    }
    if args.verify {
        return verify(args);
    }
    let pieces = args
        .pieces
        .ok_or_else(|| Failure::usage("--pieces is required to generate"))?;
    if !(2..=bot::bitbase::MAX_PIECES).contains(&pieces) {
        return Err(Failure::usage(format!(
            "--pieces must be 2..={}",
            bot::bitbase::MAX_PIECES
        )));
    }
    for &variant in &args.variant {
        let start = Instant::now();
        let table = Table::generate_with(variant, pieces, &mut |m, len| {
            if args.verbose {
                eprintln!("  {variant} {m}: {len} positions, {:.1?}", start.elapsed());
            }
        });
        let secs = start.elapsed().as_secs_f64();
        let path = table
            .save(&args.out)
            .map_err(|e| Failure::input(e.to_string()))?;
        let s = table.stats();
        println!(
            "{variant} {pieces} pieces: {:.2} s, {} bytes, {} positions ({} wins, {} draws, {} losses), longest conversion {} plies{} -> {}",
            secs,
            table.bytes(),
            s.positions,
            s.wins,
            s.draws,
            s.losses,
            s.max_dtc,
            if s.saturated > 0 {
                format!(" ({} cut to 127)", s.saturated)
            } else {
                String::new()
            },
            path.display()
        );
    }
    Ok(())
}

/// `--verify`: every entry of each variant's table in `--out` against its
/// children's entries; fails on the first wrong one.
fn verify(args: &BitbaseArgs) -> Result<(), Failure> {
    let tables = Bitbases::load_dir(&args.out).map_err(|e| Failure::input(e.to_string()))?;
    for &variant in &args.variant {
        let table = tables.table(variant).ok_or_else(|| {
            Failure::input(format!("no {variant} table in {}", args.out.display()))
        })?;
        let start = Instant::now();
        let checked = table
            .verify(args.threads, &mut |m, len| {
                if args.verbose {
                    eprintln!("  {variant} {m}: {len} indices, {:.1?}", start.elapsed());
                }
            })
            .map_err(|e| Failure::input(format!("{variant}: {e}")))?;
        println!(
            "{variant} {} pieces: every entry right, {checked} positions checked in {:.2} s on {} threads",
            table.max_pieces(),
            start.elapsed().as_secs_f64(),
            args.threads
        );
    }
    Ok(())
}
