//! `draughts hub`: the engine over the Hub protocol (version 2, the text
//! protocol of Scan 3 and the Hub GUI) on stdin/stdout.
//!
//! Hub names 10x10 variants only; of ours, `normal` is International.
//! As an extension the `variant` parameter also takes our wire ids
//! (`american`, `russian`, ...): the position is then the side to move and
//! one character per square of that board in the order of its square
//! numbers (32 on 8x8), and moves are written with the variant's square
//! names (`c3-d4`, `c3xe5xd4` for a capture: start, end, then every
//! captured piece).

use bot::{ClockLimits, Engine, Limits};
use draughts::{Game, Move, Position, Rules, Variant};
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// Transposition table of the Hub engine: 2^20 entries (24 MiB).
const TT_BITS: u32 = 20;
/// Most time per move on a clock.
const CAP_MS: u64 = 60_000;

/// The time or depth limit of the next search (`level`).
#[derive(Debug, Clone, Copy)]
enum Level {
    Depth(u32),
    MoveTime(u64),
    Clock(ClockLimits),
    Infinite,
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
fn move_text(pos: &Position, m: &Move) -> String {
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
fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
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
    thread: JoinHandle<Engine>,
}

/// Runs the Hub loop until `quit` or the end of input.
pub(crate) fn run(args: &[String]) -> ExitCode {
    if let Some(extra) = args.first() {
        eprintln!("draughts hub: unexpected argument {extra:?}");
        return ExitCode::from(2);
    }
    let mut variant = Variant::International;
    let mut game: Option<Game> = None;
    let mut level = Level::MoveTime(1_000);
    let mut engine = Some(Engine::new(TT_BITS));
    let mut running: Option<Running> = None;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let (command, args) = parse_line(&line);
        // Collect a finished search's engine before anything else.
        if running.as_ref().is_some_and(|r| r.thread.is_finished())
            && let Some(r) = running.take()
        {
            engine = r.thread.join().ok();
        }
        match command.as_str() {
            "" => {}
            "hub" => {
                say(&format!(
                    "id name=Damka version={} author=\"Damka contributors\"",
                    env!("CARGO_PKG_VERSION")
                ));
                say("param name=variant value=normal type=enum values=\"normal\"");
                say("wait");
            }
            "set-param" if arg(&args, "name") == Some("variant") => {
                match arg(&args, "value").and_then(hub_variant) {
                    Some(v) => variant = v,
                    None => error("unknown variant"),
                }
            }
            "init" => say("ready"),
            "ping" => say("pong"),
            "new-game" if running.is_none() => engine = Some(Engine::new(TT_BITS)),
            "pos" => match position(variant, &args) {
                Ok(g) => game = Some(g),
                Err(e) => {
                    game = None;
                    error(&e);
                }
            },
            "level" => {
                let secs = |name: &str| {
                    arg(&args, name)
                        .and_then(|v| v.parse::<f64>().ok())
                        .map(|s| (s.max(0.0) * 1000.0) as u64)
                };
                if let Some(d) = arg(&args, "depth").and_then(|v| v.parse().ok()) {
                    level = Level::Depth(d);
                } else if let Some(ms) = secs("move-time") {
                    level = Level::MoveTime(ms.max(1));
                } else if let Some(ms) = secs("time") {
                    let moves: u64 = arg(&args, "moves")
                        .and_then(|v| v.parse().ok())
                        .unwrap_or(0);
                    let inc = secs("inc").unwrap_or(0);
                    // x moves in y time: spread the time over the moves left.
                    let remaining = ms
                        .checked_div(moves)
                        .map_or(ms, |per_move| ms.min(per_move * 30));
                    level = Level::Clock(ClockLimits {
                        remaining_ms: remaining,
                        increment_ms: inc,
                    });
                } else if args.iter().any(|(a, _)| a == "infinite") {
                    level = Level::Infinite;
                }
            }
            "go" => {
                // A search still running was stopped by the GUI (or is
                // printing its answer): it answers, then this one starts.
                if let Some(r) = running.take() {
                    r.stop.store(true, Ordering::Relaxed);
                    engine = r.thread.join().ok();
                }
                let (Some(g), Some(e)) = (game.clone(), engine.take()) else {
                    error("no position");
                    continue;
                };
                let stop = Arc::new(AtomicBool::new(false));
                let thread_stop = Arc::clone(&stop);
                let lvl = level;
                let thread = std::thread::spawn(move || search(e, &g, lvl, &thread_stop));
                running = Some(Running { stop, thread });
            }
            "stop" | "ponder-hit" => {
                if command == "stop"
                    && let Some(r) = &running
                {
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

/// One search on its own thread; prints `info` and `done`.
fn search(mut engine: Engine, game: &Game, level: Level, stop: &AtomicBool) -> Engine {
    let mut limits = Limits::default();
    let result = match level {
        Level::Clock(clock) => engine.search_clock(game, clock, CAP_MS, &limits, stop),
        other => {
            match other {
                Level::Depth(d) => limits.depth = Some(d),
                Level::MoveTime(ms) => limits.movetime_ms = Some(ms),
                _ => {}
            }
            engine.search(game, &limits, stop)
        }
    };
    let Some(r) = result else {
        error("no legal move");
        return engine;
    };
    let pos = game.position();
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
    say(&format!(
        "info depth={} score={:.2} nodes={} time={secs:.3} nps={mnps:.2} pv=\"{}\"",
        r.depth,
        f64::from(r.score) / 100.0,
        r.nodes,
        pv.join(" ")
    ));
    let ponder = pv
        .get(1)
        .map(|p| format!(" ponder={p}"))
        .unwrap_or_default();
    say(&format!("done move={}{ponder}", move_text(pos, &r.mv)));
    engine
}
