//! `draughts hub`: the engine over the Hub protocol (version 2, the text
//! protocol of Scan 3 and the Hub GUI) on stdin/stdout. docs/engine.md
//! lists our choices: every `level` limit applies (`nodes=` too), `info`
//! after each iteration with `mean-depth`, `go` always answered with
//! `done`, pondering until `ponder-hit`, forced wins as `100 - plies/100`.
//!
//! Hub names 10x10 variants only; of ours, `normal` is International.
//! As an extension the `variant` parameter also takes our wire ids
//! (`american`, `russian`, ...): the position is then the side to move and
//! one character per square of that board in the order of its square
//! numbers (32 on 8x8), and moves are written with the variant's square
//! names (`c3-d4`, `c3xe5xd4` for a capture: start, end, then every
//! captured piece).

use bot::{ClockLimits, Control, Engine, Limits, Progress, SearchResult};
use draughts::{Game, Move, Position, Rules, Variant};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// Default transposition table of the Hub engine, in MiB (`tt-size`).
const TT_MIB: u64 = 24;
/// Most search threads (`threads`).
const MAX_THREADS: usize = 64;
/// Most time per move on a clock.
const CAP_MS: u64 = 60_000;
/// A forced win in `n` plies is reported as `WIN_MEN - n / 100` men (and a
/// loss as its negation): 99.93 is a win in 7 plies. Other scores are kept
/// within `EVAL_MEN`, so the two never meet (Scan reports wins the same way).
const WIN_MEN: f64 = 100.0;
/// The largest score that is not a forced win, in men.
const EVAL_MEN: f64 = 89.99;

/// The limits of the next search (`level`): every one given applies, and
/// the search stops at the first one reached.
#[derive(Debug, Clone, Copy, Default)]
struct Level {
    depth: Option<u32>,
    nodes: Option<u64>,
    move_time_ms: Option<u64>,
    clock: Option<ClockLimits>,
}

impl Level {
    /// The level of a `level` command's arguments (`infinite` or no
    /// known argument: no limit).
    fn parse(args: &[(String, String)]) -> Level {
        let secs = |name: &str| {
            arg(args, name)
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|s| s.is_finite())
                .map(|s| (s.max(0.0) * 1000.0) as u64)
        };
        let clock = secs("time").map(|ms| {
            let moves: u64 = arg(args, "moves").and_then(|v| v.parse().ok()).unwrap_or(0);
            // x moves in y time: spread the time over the moves left.
            let remaining = ms
                .checked_div(moves)
                .map_or(ms, |per_move| ms.min(per_move * 30));
            ClockLimits {
                remaining_ms: remaining,
                increment_ms: secs("inc").unwrap_or(0),
            }
        });
        Level {
            depth: arg(args, "depth").and_then(|v| v.parse().ok()),
            nodes: arg(args, "nodes").and_then(|v| v.parse().ok()),
            move_time_ms: secs("move-time").map(|ms| ms.max(1)),
            clock,
        }
    }
}

/// The settable parameters (`param` lines, `set-param`).
#[derive(Debug, Clone, Copy)]
struct Params {
    /// Transposition table size in MiB.
    tt_mib: u64,
    /// Strength: 3 is the full engine; 1 and 2 cap the depth as the
    /// server's levels do.
    strength: bot::Level,
    /// Contempt for draws (hundredths of a man as shown, turned into the
    /// evaluation's unit for `Engine::set_contempt`).
    contempt: i32,
    /// Play from the opening book (level 3 only; never for `go analyze`).
    book: bool,
    /// Search threads (level 3 only).
    threads: usize,
}

impl Params {
    /// The table's log2 entries (16 bytes each) within `tt_mib`.
    fn tt_bits(self) -> u32 {
        let entries = (self.tt_mib.max(1) << 20) / 16;
        63 - entries.leading_zeros()
    }
}

/// One line split into its command and `arg=value` pairs (flags have an
/// empty value); double quotes group a value.
fn parse_line(line: &str) -> (String, Vec<(String, String)>) {
    let mut tokens = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            c if c.is_whitespace() && !quoted => {
                if any {
                    tokens.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            c => {
                current.push(c);
                any = true;
            }
        }
    }
    if any {
        tokens.push(current);
    }
    let mut it = tokens.into_iter();
    let command = it.next().unwrap_or_default();
    let args = it
        .map(|t| match t.split_once('=') {
            Some((a, v)) => (a.to_string(), v.to_string()),
            None => (t, String::new()),
        })
        .collect();
    (command, args)
}

fn arg<'a>(args: &'a [(String, String)], name: &str) -> Option<&'a str> {
    args.iter()
        .find(|(a, _)| a == name)
        .map(|(_, v)| v.as_str())
}

/// Squares in the order of the Hub position string.
fn squares(variant: Variant) -> Vec<draughts::Square> {
    let mut squares: Vec<_> = variant.squares().collect();
    if !variant.is_algebraic() {
        squares.sort_by_key(|&sq| variant.square_name(sq).parse::<u32>().unwrap_or(0));
    }
    squares
}

/// The Hub position string of `pos` (the inverse of [`parse_position`]).
pub(crate) fn position_text(pos: &Position) -> String {
    let turn = if pos.turn() == draughts::Color::White {
        'W'
    } else {
        'B'
    };
    let white = pos.pieces(draughts::Color::White);
    let kings = pos.kings();
    let occupied = pos.occupied();
    std::iter::once(turn)
        .chain(squares(pos.variant()).into_iter().map(|sq| {
            match (
                occupied.contains(sq),
                white.contains(sq),
                kings.contains(sq),
            ) {
                (false, _, _) => 'e',
                (true, true, false) => 'w',
                (true, true, true) => 'W',
                (true, false, false) => 'b',
                (true, false, true) => 'B',
            }
        }))
        .collect()
}

/// A Hub position string (`W` or `B`, then `w b W B e` per square).
fn parse_position(variant: Variant, text: &str) -> Result<Position, String> {
    let squares = squares(variant);
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != squares.len() + 1 {
        return Err(format!(
            "a {variant} position has {} characters",
            squares.len() + 1
        ));
    }
    let turn = match chars[0] {
        'W' | 'w' => 'W',
        'B' | 'b' => 'B',
        c => return Err(format!("bad side to move {c:?}")),
    };
    let (mut white, mut black) = (Vec::new(), Vec::new());
    for (c, &sq) in chars[1..].iter().zip(&squares) {
        let name = variant.square_name(sq);
        match c {
            'w' => white.push(name),
            'W' => white.push(format!("K{name}")),
            'b' => black.push(name),
            'B' => black.push(format!("K{name}")),
            'e' | '.' => {}
            c => return Err(format!("bad square {c:?}")),
        }
    }
    let fen = format!("{turn}:W{}:B{}", white.join(","), black.join(","));
    Position::from_fen(Rules::new(variant), &fen).map_err(|e| e.to_string())
}

/// A move in Hub notation: `from-to`, or `fromxto` then `x` and each
/// captured piece.
pub(crate) fn move_text(pos: &Position, m: &Move) -> String {
    let v = pos.variant();
    if !m.is_capture() {
        return format!("{}-{}", v.square_name(m.from()), v.square_name(m.to()));
    }
    let mut text = format!("{}x{}", v.square_name(m.from()), v.square_name(m.to()));
    for sq in m.captures() {
        text.push('x');
        text.push_str(&v.square_name(sq));
    }
    text
}

/// The legal move written `text` in Hub notation (captured pieces in any
/// order); also the variant's own notation.
pub(crate) fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let legal = pos.legal_moves();
    if let Some(m) = legal.iter().find(|m| move_text(pos, m) == text) {
        return Ok(*m);
    }
    let v = pos.variant();
    let parts: Vec<&str> = text.split(['x', '-']).collect();
    let squares: Option<Vec<_>> = parts.iter().map(|p| v.parse_square(p)).collect();
    if let Some(squares) = squares
        && squares.len() >= 2
    {
        let (from, to) = (squares[0], squares[1]);
        let captured: draughts::Bitboard = squares[2..]
            .iter()
            .fold(draughts::Bitboard::EMPTY, |b, &s| b.with(s));
        let found: Vec<&Move> = legal
            .iter()
            .filter(|m| {
                m.from() == from && m.to() == to && (squares.len() == 2 || m.captures() == captured)
            })
            .collect();
        if let [m] = found[..] {
            return Ok(*m);
        }
    }
    pos.parse_move(text)
        .map_err(|e| format!("move {text:?}: {e}"))
}

/// Writes one line to stdout at once (the search thread writes too).
fn say(line: &str) {
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

fn error(message: &str) {
    say(&format!("error message=\"{}\"", message.replace('"', "'")));
}

/// A running search: its thread hands the engine back.
struct Running {
    stop: Arc<AtomicBool>,
    /// Set while pondering; `ponder-hit` clears it.
    ponder: Arc<AtomicBool>,
    /// Set by the search just before it prints `done`: from then on the GUI
    /// may send `new-game` or `set-param`, which need the engine back.
    answered: Arc<AtomicBool>,
    thread: JoinHandle<Engine>,
}

/// Our variant ids offered by the `variant` parameter besides `normal`.
const VARIANT_VALUES: &str =
    "normal international american russian brazilian spanish italian czech";

/// Runs the Hub loop until `quit` or the end of input.
pub(crate) fn run(args: &[String]) -> ExitCode {
    if let Some(extra) = args.first() {
        eprintln!("draughts hub: unexpected argument {extra:?}");
        return ExitCode::from(2);
    }
    let mut variant = Variant::International;
    let mut params = Params {
        tt_mib: TT_MIB,
        strength: bot::Level::Three,
        contempt: 0,
        book: true,
        threads: 1,
    };
    let mut game: Option<Game> = None;
    let mut level = Level {
        move_time_ms: Some(1_000),
        ..Level::default()
    };
    let mut engine = Some(Engine::new(params.tt_bits()));
    // Endgame tables from the `bitbase-dir` parameter.
    let mut bitbases: Option<Arc<bot::Bitbases>> = None;
    // `region-file`: the file's text, and its weights once read for a variant.
    let mut region_text: Option<String> = None;
    let mut region_weights: Option<bot::regions::RegionWeights> = None;
    let mut running: Option<Running> = None;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let (command, args) = parse_line(&line);
        // Collect a finished search's engine before anything else (once it
        // has answered, the thread only returns the engine: joining it waits
        // for no more than that, and a `new-game` right after `done` is not
        // lost to the race).
        if running
            .as_ref()
            .is_some_and(|r| r.thread.is_finished() || r.answered.load(Ordering::Acquire))
            && let Some(r) = running.take()
        {
            engine = r.thread.join().ok();
        }
        match command.as_str() {
            "" => {}
            "hub" => {
                say(&format!(
                    "id name=Damka version={} author=\"Damka contributors\" country=International",
                    env!("CARGO_PKG_VERSION")
                ));
                say(&format!(
                    "param name=variant value=normal type=enum values=\"{VARIANT_VALUES}\""
                ));
                say(&format!(
                    "param name=tt-size value={TT_MIB} type=int min=1 max=1536"
                ));
                say("param name=level value=3 type=int min=1 max=3");
                say("param name=bitbase-dir value=\"\" type=string");
                say("param name=region-file value=\"\" type=string");
                say(&format!("param name=book value={} type=check", params.book));
                say(&format!(
                    "param name=threads value={} type=int min=1 max={MAX_THREADS}",
                    params.threads
                ));
                say(&format!(
                    "param name=contempt value={} type=int min=-100 max=100",
                    params.contempt
                ));
                say("wait");
            }
            "set-param" => {
                let value = arg(&args, "value").unwrap_or("");
                match arg(&args, "name") {
                    Some("variant") => match hub_variant(value) {
                        Some(v) => variant = v,
                        None => error("unknown variant"),
                    },
                    Some("tt-size") => match value.parse::<u64>() {
                        Ok(mib) if (1..=1536).contains(&mib) => {
                            params.tt_mib = mib;
                            if running.is_none() {
                                engine = Some(Engine::new(params.tt_bits()));
                            }
                        }
                        _ => error("tt-size is 1 to 1536 (MiB)"),
                    },
                    Some("level") => match value.parse().ok().and_then(bot::Level::from_number) {
                        Some(l) => params.strength = l,
                        None => error("level is 1, 2 or 3"),
                    },
                    Some("contempt") => match value.parse::<i32>() {
                        Ok(c) if (-100..=100).contains(&c) => params.contempt = c,
                        _ => error("contempt is -100 to 100 (hundredths of a man as shown)"),
                    },
                    Some("threads") => match value.parse::<usize>() {
                        Ok(n) if (1..=MAX_THREADS).contains(&n) => params.threads = n,
                        _ => error(&format!("threads is 1 to {MAX_THREADS}")),
                    },
                    Some("book") => match value {
                        "true" | "1" => params.book = true,
                        "false" | "0" => params.book = false,
                        _ => error("book is true or false"),
                    },
                    Some("region-file") => {
                        region_weights = None;
                        region_text = None;
                        if !value.is_empty() {
                            match std::fs::read_to_string(value) {
                                Ok(t) => region_text = Some(t),
                                Err(e) => error(&format!("region-file: {value}: {e}")),
                            }
                        }
                    }
                    Some("bitbase-dir") if value.is_empty() => bitbases = None,
                    Some("bitbase-dir") => {
                        match bot::Bitbases::load_dir(std::path::Path::new(value)) {
                            Ok(b) => bitbases = Some(Arc::new(b)),
                            Err(e) => error(&format!("bitbase-dir: {e}")),
                        }
                    }
                    _ => {} // unknown parameters are ignored
                }
            }
            "init" => say("ready"),
            "ping" => say("pong"),
            "new-game" if running.is_none() => engine = Some(Engine::new(params.tt_bits())),
            "pos" => match position(variant, &args) {
                Ok(g) => game = Some(g),
                Err(e) => {
                    game = None;
                    error(&e);
                }
            },
            "level" => level = Level::parse(&args),
            "go" => {
                // A search still running was stopped by the GUI (or is
                // printing its answer): it answers, then this one starts.
                if let Some(r) = running.take() {
                    r.stop.store(true, Ordering::Relaxed);
                    r.ponder.store(false, Ordering::Relaxed);
                    engine = r.thread.join().ok();
                }
                let (Some(g), Some(mut e)) = (game.clone(), engine.take()) else {
                    // The GUI waits for `done`: it always comes, without a
                    // move when there is no position to search.
                    error("no position");
                    say("done");
                    if engine.is_none() {
                        engine = Some(Engine::new(params.tt_bits()));
                    }
                    continue;
                };
                e.set_bitbases(bitbases.clone());
                let v = g.position().variant();
                if let Some(text) = &region_text
                    && region_weights.as_ref().is_none_or(|w| w.variant() != v)
                {
                    match bot::regions::RegionWeights::parse(v, text) {
                        Ok(w) => region_weights = Some(w),
                        Err(e) => {
                            error(&format!("region-file: {e}"));
                            region_text = None;
                        }
                    }
                }
                e.set_region_weights(region_weights.clone().filter(|w| w.variant() == v));
                e.set_book(params.book && params.strength == bot::Level::Three);
                e.set_threads(if params.strength == bot::Level::Three {
                    params.threads
                } else {
                    1
                });
                // Hundredths of a man, as shown, into the engine's unit.
                e.set_contempt(params.contempt * bot::man_value(g.position().variant()) / 100);
                let stop = Arc::new(AtomicBool::new(false));
                let ponder = Arc::new(AtomicBool::new(args.iter().any(|(a, _)| a == "ponder")));
                let (thread_stop, thread_ponder) = (Arc::clone(&stop), Arc::clone(&ponder));
                // `go analyze` searches a single legal move too, for its score.
                let analyze = args.iter().any(|(a, _)| a == "analyze");
                let answered = Arc::new(AtomicBool::new(false));
                let thread_answered = Arc::clone(&answered);
                let mut lvl = level;
                let cap = params.strength.max_depth();
                lvl.depth = Some(lvl.depth.map_or(cap, |d| d.min(cap)));
                let thread = std::thread::spawn(move || {
                    search(
                        e,
                        &g,
                        lvl,
                        &thread_stop,
                        thread_ponder,
                        analyze,
                        &thread_answered,
                    )
                });
                running = Some(Running {
                    stop,
                    ponder,
                    answered,
                    thread,
                });
            }
            "ponder-hit" => {
                if let Some(r) = &running {
                    r.ponder.store(false, Ordering::Relaxed);
                }
            }
            "stop" => {
                if let Some(r) = &running {
                    r.stop.store(true, Ordering::Relaxed);
                }
            }
            "quit" => break,
            _ => {} // the protocol says to ignore what we do not know
        }
    }
    if let Some(r) = running.take() {
        r.stop.store(true, Ordering::Relaxed);
        let _ = r.thread.join();
    }
    ExitCode::SUCCESS
}

/// The variant a Hub name stands for: `normal` is International; our wire
/// ids are an extension.
fn hub_variant(name: &str) -> Option<Variant> {
    if name == "normal" {
        Some(Variant::International)
    } else {
        Variant::from_name(name)
    }
}

/// The game of a `pos` command: the position, then the moves played from it.
fn position(variant: Variant, args: &[(String, String)]) -> Result<Game, String> {
    let text = arg(args, "pos").ok_or("pos needs pos=")?;
    let mut game = Game::new(parse_position(variant, text)?);
    for m in arg(args, "moves").unwrap_or("").split_whitespace() {
        let mv = parse_move(game.position(), m)?;
        game.play(&mv)
            .map_err(|_| format!("move {m:?}: the game is over"))?;
    }
    if game.outcome().is_some() {
        return Err("the game is over".into());
    }
    Ok(game)
}

/// A score in men for `info` (a clean extra man is 1.00, [`bot::centimen`]):
/// forced wins as `WIN_MEN - plies / 100`.
fn hub_score(variant: Variant, score: i32) -> String {
    let men = if score.abs() >= bot::WIN_BOUND {
        let plies = f64::from(bot::WIN - score.abs());
        (WIN_MEN - plies / 100.0).copysign(f64::from(score))
    } else {
        (f64::from(bot::centimen(variant, score)) / 100.0).clamp(-EVAL_MEN, EVAL_MEN)
    };
    format!("{men:.2}")
}

/// The `info` line of a search's progress.
fn info_line(pos: &Position, r: &SearchResult, mean_depth: f64) -> String {
    let mut line_pos = pos.clone();
    let pv: Vec<String> =
        r.pv.iter()
            .map(|m| {
                let t = move_text(&line_pos, m);
                line_pos.play_unchecked(m);
                t
            })
            .collect();
    let secs = r.time_ms as f64 / 1000.0;
    let mnps = if r.time_ms > 0 {
        r.nodes as f64 / r.time_ms as f64 / 1000.0
    } else {
        0.0
    };
    format!(
        "info depth={} mean-depth={mean_depth:.1} score={} nodes={} time={secs:.3} nps={mnps:.2} pv=\"{}\"",
        r.depth,
        hub_score(pos.variant(), r.score),
        r.nodes,
        pv.join(" ")
    )
}

/// One search on its own thread; prints `info` after every iteration, then
/// `done` (always, so a GUI waiting for it never hangs).
fn search(
    mut engine: Engine,
    game: &Game,
    level: Level,
    stop: &AtomicBool,
    ponder: Arc<AtomicBool>,
    analyze: bool,
    answered: &AtomicBool,
) -> Engine {
    let limits = Limits {
        depth: level.depth,
        movetime_ms: level.move_time_ms,
        nodes: level.nodes,
        search_forced: analyze,
    };
    let pos = game.position();
    let mut reported = false;
    let mut report = |p: &Progress| {
        reported = true;
        say(&info_line(pos, &p.result, p.mean_depth));
    };
    let mut control = Control {
        stop,
        ponder: Some(ponder),
        report: Some(&mut report),
    };
    let clock = level.clock.map(|c| (c, CAP_MS));
    let result = engine.search_controlled(game, &limits, clock, &mut control);
    let Some(r) = result else {
        error("no legal move");
        answered.store(true, Ordering::Release);
        say("done");
        return engine;
    };
    if !reported {
        say(&info_line(pos, &r, f64::from(r.depth)));
    }
    let mut after = pos.clone();
    after.play_unchecked(&r.mv);
    let ponder =
        r.pv.get(1)
            .map(|p| format!(" ponder={}", move_text(&after, p)))
            .unwrap_or_default();
    answered.store(true, Ordering::Release);
    say(&format!("done move={}{ponder}", move_text(pos, &r.mv)));
    engine
}
