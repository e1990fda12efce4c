//! `draughts ballots list|import|make`: the opening ballots of the rules
//! engine (`crates/draughts/ballots/`, docs/ballots.md).
//!
//! - `list` prints a variant's stored ballots in the data-file format.
//! - `import` converts a published table (`id<TAB>name<TAB>moves` lines)
//!   into a data file: the moves rewritten in the variant's notation, the
//!   position computed by the engine.
//! - `make` builds Damka's own balanced set: every line of a few plies from
//!   the start, one per position reached, scored by the engine at a fixed
//!   depth, kept within a margin of level.

use crate::Failure;
use bot::{Engine, Limits};
use clap::{Args, Subcommand};
use draughts::{BallotSet, Bitboard, Color, Game, Move, Position, Rules, Variant, ballot};
use std::collections::HashSet;
use std::io::Read as _;
use std::str::FromStr as _;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// `draughts ballots`.
#[derive(Debug, Args)]
pub(crate) struct BallotsArgs {
    /// What to do.
    #[command(subcommand)]
    pub action: BallotsAction,
}

/// The ballot subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum BallotsAction {
    /// Prints a variant's stored ballots: id, name, moves, FEN (tab-separated).
    List(ListArgs),
    /// Converts `id<TAB>name<TAB>moves` lines into a data file (on standard output).
    Import(ImportArgs),
    /// Makes Damka's balanced ballot of a variant (a data file, on standard output).
    Make(MakeArgs),
}

/// `draughts ballots list`.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// Only this set (3move, 2move, fmjd64, idf150, damka).
    #[arg(long)]
    pub set: Option<BallotSet>,
}

/// `draughts ballots import`.
#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The variant the moves are played in.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// The set the file is for (names its header).
    #[arg(long)]
    pub set: BallotSet,
    /// The lines to convert (default: standard input): `id<TAB>name<TAB>moves`,
    /// the moves in the variant's notation or in the short form of the FMJD
    /// and IDF tables (`ab4`: the man on file a to b4; `bd6`: the capture
    /// from file b to d6); or `id<TAB>name<TAB>arrangement a1-a5 a7-h4[<TAB>COLOR]`
    /// for a position set up from the start (men moved by hand, COLOR to
    /// move, by default the first mover).
    #[arg(value_name = "FILE")]
    pub file: Option<String>,
    /// A line for the file's header (repeatable): what was left out, where
    /// the source was corrected.
    #[arg(long)]
    pub note: Vec<String>,
}

/// `draughts ballots make`.
#[derive(Debug, Args)]
pub(crate) struct MakeArgs {
    /// The variant.
    #[arg(long, value_parser = crate::args::variant, value_name = "VARIANT")]
    pub variant: Variant,
    /// Plies of every opening.
    #[arg(long, default_value_t = 4)]
    pub plies: usize,
    /// The depth each position is searched to (default: 16 on 8x8, 14 on 10x10).
    #[arg(long)]
    pub depth: Option<u32>,
    /// The largest score kept either way, in hundredths of the variant's man
    /// (`bot::centimen`; default: 25 on 8x8, 10 on 10x10, where the evaluation
    /// is flatter).
    #[arg(long)]
    pub margin: Option<i32>,
    /// Searches run at once (each position has its own engine, so the
    /// result does not depend on this).
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
    /// Every position's line and score on standard error.
    #[arg(long)]
    pub verbose: bool,
}

pub(crate) fn run(args: &BallotsArgs) -> Result<(), Failure> {
    match &args.action {
        BallotsAction::List(a) => {
            let sets = a
                .set
                .as_ref()
                .map_or(ballot::sets(a.variant), std::slice::from_ref);
            for set in sets {
                for b in set.ballots(a.variant) {
                    let opening = match b.arrangement() {
                        Some(relocations) => format!("arrangement {relocations}"),
                        None => b.movetext().to_owned(),
                    };
                    println!("{}\t{}\t{opening}\t{}", b.id(), b.name(), b.fen());
                }
            }
            Ok(())
        }
        BallotsAction::Import(a) => import(a),
        BallotsAction::Make(a) => make(a),
    }
}

/// One move of a published table in the position it is played in: the
/// variant's own notation, else the short form `ab4` / `bd6` (start file,
/// end square), which must name exactly one legal move.
fn resolve(pos: &Position, text: &str) -> Result<Move, String> {
    let syntax = match pos.parse_move(text) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let variant = pos.variant();
    let short = text
        .split_at_checked(1)
        .filter(|(file, _)| variant.is_algebraic() && matches!(file.as_bytes()[0], b'a'..=b'h'))
        .and_then(|(file, to)| Some((file.as_bytes()[0], variant.parse_square(to)?)));
    let Some((file, to)) = short else {
        return Err(format!("{text}: {syntax}"));
    };
    let matching: Vec<Move> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.to() == to && variant.square_name(m.from()).as_bytes()[0] == file)
        .copied()
        .collect();
    match matching[..] {
        [m] => Ok(m),
        [] => Err(format!("{text}: no legal move")),
        _ => Err(format!("{text}: {} legal moves match", matching.len())),
    }
}

/// A data line: the opening's moves replayed from the start, rewritten as
/// the engine writes them, and the position they reach.
fn data_line(variant: Variant, id: &str, name: &str, moves: &[&str]) -> Result<String, String> {
    let mut game = Game::new(Position::new(Rules::new(variant)));
    let mut texts = Vec::with_capacity(moves.len());
    for text in moves {
        let m = resolve(game.position(), text)?;
        texts.push(game.position().move_to_string(&m));
        game.play(&m).map_err(|e| format!("{text}: {e}"))?;
    }
    Ok(format!(
        "{id}\t{name}\t{}\t{}",
        texts.join(" "),
        game.position().to_fen()
    ))
}

/// The start position with men moved by hand, `turn` to move: the
/// arrangements of the FMJD-64 table. `a1-a5 h6-b4` lifts the men on a1
/// and h6 off the start position, then puts each on its new square (so
/// `b2-h6 h6-a5` puts White's man where Black's stood).
fn arranged(variant: Variant, relocations: &[&str], turn: Color) -> Result<Position, String> {
    let rules = Rules::new(variant);
    let start = Position::new(rules);
    let mut sides = [start.pieces(Color::White), start.pieces(Color::Black)];
    let mut landings = Vec::with_capacity(relocations.len());
    for text in relocations {
        let squares = text
            .split_once('-')
            .and_then(|(a, b)| Some((variant.parse_square(a)?, variant.parse_square(b)?)));
        let Some((from, to)) = squares else {
            return Err(format!("{text}: not from-to"));
        };
        let Some(side) = sides.iter().position(|s| s.contains(from)) else {
            return Err(format!("{text}: no man on {}", variant.square_name(from)));
        };
        sides[side] = sides[side].without(from);
        landings.push((side, to));
    }
    for (side, to) in landings {
        if (sides[0] | sides[1]).contains(to) {
            return Err(format!(
                "{}: two men on {}",
                relocations.join(" "),
                variant.square_name(to)
            ));
        }
        sides[side] = sides[side].with(to);
    }
    let [white, black] = sides;
    Position::from_pieces(rules, white, black, Bitboard::EMPTY, turn).map_err(|e| e.to_string())
}

fn header(set: BallotSet, variant: Variant, count: usize, made_by: &str) -> String {
    format!(
        "# {}, {variant}: {count} ballots.\n# Source: {}.\n# Made by: {made_by} (docs/ballots.md).\n# Fields (tab-separated): id, name, the moves from the start (or `arrangement` and the men moved off it), the FEN of the position (written by the engine).\n",
        set.title(),
        set.source(),
    )
}

fn import(a: &ImportArgs) -> Result<(), Failure> {
    let mut input = String::new();
    match &a.file {
        Some(path) => {
            input = std::fs::read_to_string(path)
                .map_err(|e| Failure::usage(format!("{path}: {e}")))?;
        }
        None => {
            std::io::stdin()
                .read_to_string(&mut input)
                .map_err(|e| Failure::usage(format!("standard input: {e}")))?;
        }
    }
    let mut lines = Vec::new();
    let mut ids = HashSet::new();
    for (n, line) in input.lines().enumerate().filter(|(_, l)| !l.is_empty()) {
        let at = |e: String| Failure::input(format!("line {}: {e}", n + 1));
        let fields: Vec<&str> = line.split('\t').collect();
        let (&[id, name, opening], turn) = fields.split_at(fields.len().min(3)) else {
            return Err(at("expected id, name and moves separated by tabs".into()));
        };
        if !id.starts_with(&format!("{}-", a.set)) || !ids.insert(id) {
            return Err(at(format!("{id}: not a new id of set {}", a.set)));
        }
        let tokens: Vec<&str> = opening.split_whitespace().collect();
        let line = match tokens[..] {
            ["arrangement", ref relocations @ ..] => {
                let turn = match turn {
                    [] => a.variant.first_mover(),
                    [t] => Color::from_str(t).map_err(|e| at(format!("{t}: {e}")))?,
                    _ => return Err(at("too many fields".into())),
                };
                let pos = arranged(a.variant, relocations, turn).map_err(at)?;
                format!("{id}\t{name}\t{opening}\t{}", pos.to_fen())
            }
            ref moves => {
                if !turn.is_empty() {
                    return Err(at("a side to move is only for an arrangement".into()));
                }
                data_line(a.variant, id, name, moves).map_err(at)?
            }
        };
        lines.push(line);
    }
    let made_by = format!(
        "draughts ballots import --variant {} --set {}",
        a.variant, a.set
    );
    print!("{}", header(a.set, a.variant, lines.len(), &made_by));
    for note in &a.note {
        println!("# Note: {note}");
    }
    for line in lines {
        println!("{line}");
    }
    Ok(())
}

/// Every line of `plies` moves from the start that reaches a position no
/// earlier line reached (lines in the order of the legal moves) and leaves
/// the game going, with the position it reaches.
fn distinct_lines(variant: Variant, plies: usize) -> Vec<(Vec<Move>, Position)> {
    let mut layer = vec![(Vec::new(), Game::new(Position::new(Rules::new(variant))))];
    for _ in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for (line, game) in &layer {
            for m in game.position().legal_moves().iter() {
                let mut g = game.clone();
                if g.play(m).is_err() || g.outcome().is_some() || !seen.insert(g.position().clone())
                {
                    continue;
                }
                let mut l: Vec<Move> = line.clone();
                l.push(*m);
                next.push((l, g));
            }
        }
        layer = next;
    }
    layer
        .into_iter()
        .map(|(line, game)| (line, game.position().clone()))
        .collect()
}

/// Whether a ballot may start from `pos`: as many men on each side and no
/// capture to make (not halfway through an exchange).
fn is_quiet_and_even(pos: &Position) -> bool {
    pos.pieces(Color::White).count() == pos.pieces(Color::Black).count() && !pos.has_capture()
}

/// The engine's score of the position after `line` (side to move, a man is
/// 100), from a fresh engine so it depends on nothing else.
fn score(variant: Variant, line: &[Move], depth: u32) -> Option<i32> {
    let mut game = Game::new(Position::new(Rules::new(variant)));
    for m in line {
        game.play(m).ok()?;
    }
    let limits = Limits {
        depth: Some(depth),
        // The last ply may leave a capture to make: score what follows it.
        search_forced: true,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    Engine::new(20)
        .search(&game, &limits, &stop)
        .map(|r| r.score)
}

/// Whether a search's `score` (the engine's internal unit) is within
/// `margin` hundredths of a man either way, in the variant's men
/// (`bot::centimen`; a forced win never is).
pub(crate) fn level_within(variant: Variant, score: i32, margin: i32) -> bool {
    bot::centimen(variant, score).abs() <= margin
}

fn make(a: &MakeArgs) -> Result<(), Failure> {
    let variant = a.variant;
    let ten = variant.board_size() == 10;
    let depth = a.depth.unwrap_or(if ten { 14 } else { 16 });
    let margin = a.margin.unwrap_or(if ten { 10 } else { 25 });
    let started = Instant::now();
    let reached = distinct_lines(variant, a.plies);
    let lines: Vec<Vec<Move>> = reached
        .iter()
        .filter(|(_, pos)| is_quiet_and_even(pos))
        .map(|(line, _)| line.clone())
        .collect();
    let threads = a.threads.max(1);
    let scores: Vec<Option<i32>> = std::thread::scope(|s| {
        let chunk = lines.len().div_ceil(threads).max(1);
        let workers: Vec<_> = lines
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|l| score(variant, l, depth))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("a search thread panicked"))
            .collect()
    });
    let mut kept = Vec::new();
    for (line, score) in lines.iter().zip(&scores) {
        if a.verbose {
            let score = score.map_or("over".to_owned(), |s| s.to_string());
            eprintln!("{}\t{score}", texts(variant, line).join(" "));
        }
        if score.is_some_and(|s| level_within(variant, s, margin)) {
            let id = format!("damka-{:03}", kept.len() + 1);
            let name = format!("Damka {}", &id["damka-".len()..]);
            let texts = texts(variant, line);
            let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
            kept.push(data_line(variant, &id, &name, &texts).map_err(Failure::input)?);
        }
    }
    // No time in the file: the same arguments write the same file.
    let made_by = format!(
        "draughts ballots make --variant {variant} --plies {} --depth {depth} --margin {margin}: of the {} positions {} plies reach, the {} with as many men each and no capture to make, kept when the depth-{depth} score is within {margin} hundredths of a man",
        a.plies,
        reached.len(),
        a.plies,
        lines.len(),
    );
    print!(
        "{}",
        header(BallotSet::Damka, variant, kept.len(), &made_by)
    );
    for line in kept {
        println!("{line}");
    }
    eprintln!(
        "{variant}: {} positions after {} plies, {} quiet and even, {} within ±{} at depth {}, {} s",
        reached.len(),
        a.plies,
        lines.len(),
        scores
            .iter()
            .filter(|s| s.is_some_and(|s| level_within(variant, s, margin)))
            .count(),
        margin,
        depth,
        started.elapsed().as_secs()
    );
    Ok(())
}

/// The moves of `line` from the start in the variant's notation.
fn texts(variant: Variant, line: &[Move]) -> Vec<String> {
    let mut pos = Position::new(Rules::new(variant));
    line.iter()
        .map(|m| {
            let text = pos.move_to_string(m);
            pos.play_unchecked(m);
            text
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_short_form_of_the_tables_names_one_move() {
        let pos = Position::new(Rules::new(Variant::Russian));
        let m = resolve(&pos, "ab4").expect("a3-b4");
        assert_eq!(pos.move_to_string(&m), "a3-b4");
        assert_eq!(
            resolve(&pos, "c3-d4").map(|m| pos.move_to_string(&m)),
            Ok("c3-d4".into())
        );
        assert!(resolve(&pos, "ab5").is_err(), "no such move");
        assert!(resolve(&pos, "zb4").is_err(), "no such file");
        // Both men of file c take a piece and land on e5 (Russian men
        // capture backwards): the short form cannot tell them apart.
        let both =
            Position::from_fen(Rules::new(Variant::Russian), "W:Wc3,c7:Bd4,d6").expect("FEN");
        assert_eq!(both.legal_moves().len(), 2);
        assert_eq!(
            resolve(&both, "ce5"),
            Err("ce5: 2 legal moves match".into())
        );
        assert!(resolve(&both, "c3xe5").is_ok());
    }

    #[test]
    fn a_data_line_is_written_as_the_engine_writes_moves() {
        let line = data_line(
            Variant::American,
            "3move-004",
            "ACF 3-move 004",
            &["09-13", "22-17", "13-22"],
        )
        .expect("legal");
        assert_eq!(
            line,
            "3move-004\tACF 3-move 004\t9-13 22-17 13x22\tW:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,22"
        );
        assert!(data_line(Variant::American, "x", "x", &["9-14", "9-13"]).is_err());
    }

    #[test]
    fn the_margin_is_in_the_variants_men() {
        // A quarter of a man is a quarter of the variant's man, not 25 of the
        // engine's points (a man is 233 to 437 of them).
        for v in Variant::ALL {
            let man = bot::man_value(v);
            assert!(level_within(v, man / 5, 25), "{v:?}");
            assert!(level_within(v, -man / 5, 25), "{v:?}");
            assert!(!level_within(v, man * 3 / 10, 25), "{v:?}");
            assert!(!level_within(v, -man * 3 / 10, 25), "{v:?}");
        }
        // A forced win is never level.
        assert!(!level_within(Variant::Russian, 29_500, 25));
    }

    #[test]
    fn transpositions_are_made_once() {
        // Two plies from the start transpose nothing; four do (the same two
        // moves of each side in either order).
        let two = distinct_lines(Variant::Russian, 2);
        assert_eq!(two.len(), 49);
        // c3-d4 b6-c5 leaves White a capture to make: no ballot.
        let unquiet: Vec<String> = two
            .iter()
            .filter(|(_, pos)| !is_quiet_and_even(pos))
            .map(|(line, _)| texts(Variant::Russian, line).join(" "))
            .collect();
        assert!(unquiet.contains(&"c3-d4 b6-c5".to_owned()), "{unquiet:?}");
        let four = distinct_lines(Variant::Russian, 4);
        let all = draughts::perft(&Position::new(Rules::new(Variant::Russian)), 4);
        assert!((four.len() as u64) < all, "{} of {all}", four.len());
    }
}
