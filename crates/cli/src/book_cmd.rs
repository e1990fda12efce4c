//! `draughts book make`: the opening book of a variant, made by our own
//! deep searches (docs/engine.md, "Opening book").
//!
//! The starts are the variant's initial position (where a game without a
//! ballot begins), the positions after every ballot of the variant's default
//! set and after every stored match opening. From each start the book takes
//! the position itself and every position one move later (so the book side
//! is covered whichever colour it plays), then, level by level up to
//! `--plies`, every reply to the book's own move. Each position is searched
//! to a fixed depth by a fresh engine, so the same arguments make the same
//! file whatever the number of threads.

use crate::Failure;
use bot::book::{Book, Entry};
use bot::{Engine, Limits};
use clap::{Args, Subcommand};
use draughts::{Game, Position, Rules, Variant, ballot};
use std::collections::HashSet;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

/// `draughts book`.
#[derive(Debug, Args)]
pub(crate) struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: BookAction,
}

/// The book subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum BookAction {
    /// Makes a variant's opening book (the file `crates/bot/books/VARIANT.book`).
    Make(MakeArgs),
}

/// `draughts book make`.
#[derive(Debug, Args)]
pub(crate) struct MakeArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// The depth every position is searched to.
    #[arg(long, default_value_t = 18)]
    pub depth: u32,
    /// How many plies past each start the book reaches (1: the start and
    /// every position one move later; 2: also every reply to the book's
    /// move at the start; and so on).
    #[arg(long, default_value_t = 2)]
    pub plies: u32,
    /// Leave out the ballots: the starts are the initial position and the
    /// match openings only (for a variant whose ballot set is too large to
    /// search deeply).
    #[arg(long)]
    pub no_ballots: bool,
    /// Only the first N starts (for a quick book or a test).
    #[arg(long, value_name = "N")]
    pub starts: Option<usize>,
    /// Search threads (the result does not depend on them).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    pub out: std::path::PathBuf,
    /// One line per position searched (on standard error).
    #[arg(long)]
    pub verbose: bool,
}

pub(crate) fn run(a: &BookArgs) -> Result<(), Failure> {
    match &a.action {
        BookAction::Make(m) => make(m),
    }
}

/// The start positions: the initial position, the default ballot set, then
/// the match openings, without repeats.
fn starts(variant: Variant, ballots: bool) -> Result<Vec<Position>, Failure> {
    let mut seen = HashSet::new();
    let initial = Position::new(Rules::new(variant));
    seen.insert(initial.clone());
    let mut out = vec![initial];
    if ballots {
        for b in ballot::default_set(variant).ballots(variant) {
            let pos = b.position();
            if seen.insert(pos.clone()) {
                out.push(pos);
            }
        }
    }
    for line in crate::openings::load(variant).map_err(Failure::input)? {
        let mut pos = Position::new(Rules::new(variant));
        for m in &line {
            pos.play_unchecked(m);
        }
        if seen.insert(pos.clone()) {
            out.push(pos);
        }
    }
    Ok(out)
}

/// Whether a position can be in a book: no king, the game not over, a choice to make.
fn bookable(pos: &Position) -> bool {
    pos.kings().is_empty()
        && Game::new(pos.clone()).outcome().is_none()
        && pos.legal_moves().len() > 1
}

/// The children of a position (one per legal move).
fn children(pos: &Position) -> Vec<Position> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            next
        })
        .collect()
}

/// Searches every position to `depth` on `threads` threads, in order.
fn search_all(
    positions: &[Position],
    depth: u32,
    threads: usize,
    verbose: bool,
) -> Vec<Option<Entry>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Entry>>> = Mutex::new(vec![None; positions.len()]);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                let stop = AtomicBool::new(false);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(pos) = positions.get(i) else { break };
                    let mut engine = Engine::new(20);
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    let r = engine.search(&Game::new(pos.clone()), &limits, &stop);
                    let entry = r.map(|r| Entry {
                        mv: r.mv,
                        score: r.score,
                        depth: r.depth,
                    });
                    if verbose && let Some(e) = &entry {
                        eprintln!(
                            "{}\t{}\t{}",
                            pos.to_fen(),
                            pos.move_to_string(&e.mv),
                            e.score
                        );
                    }
                    results.lock().expect("no thread panics holding it")[i] = entry;
                }
            });
        }
    });
    results.into_inner().expect("no thread panicked")
}

fn make(a: &MakeArgs) -> Result<(), Failure> {
    if a.depth == 0 || a.plies == 0 {
        return Err(Failure::usage("--depth and --plies are at least 1"));
    }
    let began = Instant::now();
    let variant = a.variant;
    let mut starts = starts(variant, !a.no_ballots)?;
    if let Some(n) = a.starts {
        starts.truncate(n);
    }
    let start_count = starts.len();
    let mut seen: HashSet<Position> = HashSet::new();
    // The frontier: positions with their ply past the start.
    let mut frontier: Vec<(Position, u32)> = Vec::new();
    for s in starts {
        for c in children(&s) {
            if seen.insert(c.clone()) {
                frontier.push((c, 1));
            }
        }
        if seen.insert(s.clone()) {
            frontier.push((s, 0));
        }
    }
    let mut book = Book::new();
    let mut searched = 0usize;
    while !frontier.is_empty() {
        frontier.retain(|(p, _)| bookable(p));
        let positions: Vec<Position> = frontier.iter().map(|(p, _)| p.clone()).collect();
        let entries = search_all(&positions, a.depth, a.threads, a.verbose);
        searched += positions.len();
        let mut next = Vec::new();
        for ((pos, ply), entry) in frontier.into_iter().zip(entries) {
            let Some(entry) = entry else { continue };
            if ply + 2 <= a.plies {
                let mut after = pos.clone();
                after.play_unchecked(&entry.mv);
                for c in children(&after) {
                    if seen.insert(c.clone()) {
                        next.push((c, ply + 2));
                    }
                }
            }
            book.insert(pos, entry).map_err(Failure::input)?;
        }
        eprintln!(
            "draughts book: {searched} positions searched, {} s",
            began.elapsed().as_secs()
        );
        frontier = next;
    }
    // No time in the file: the same arguments write the same file.
    let ballots = if a.no_ballots {
        String::new()
    } else {
        format!("the {} ballots, ", ballot::default_set(variant).name())
    };
    let header = format!(
        "Damka's opening book for {variant}: {} positions.\n\
         Made by: draughts book make --variant {} --depth {} --plies {}{}{}\n\
         Starts: the initial position, {ballots}the stored match openings \
         ({start_count} positions); \
         each start, every position one move later, and every reply to the book's move, \
         to {} plies past the start; every position searched to depth {} by a fresh engine.",
        book.len(),
        variant.name(),
        a.depth,
        a.plies,
        if a.no_ballots { " --no-ballots" } else { "" },
        a.starts
            .map(|n| format!(" --starts {n}"))
            .unwrap_or_default(),
        a.plies,
        a.depth,
    );
    std::fs::write(&a.out, book.format(variant, &header))
        .map_err(|e| Failure::input(format!("{}: {e}", a.out.display())))?;
    eprintln!(
        "draughts book: {} positions in {}, {} s",
        book.len(),
        a.out.display(),
        began.elapsed().as_secs()
    );
    Ok(())
}
