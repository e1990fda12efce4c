//! `draughts match`: two Hub engines play each other at a fixed time per
//! move from the stored balanced openings (each opening twice, colours
//! swapped), adjudicated by our rules crate: an illegal or missing move
//! loses, the game ends by the rules (no move, threefold repetition, the
//! variant's move limits) or, past `--max-plies`, as a draw.
//!
//! ```text
//! draughts match --engine1 CMD --engine2 CMD [--param1 NAME=VALUE]... [--param2 NAME=VALUE]...
//!                [--variant V[,V...]] [--movetime MS | --clock BASE+INC] [--openings N] [--skip-openings N]
//!                [--max-plies N] [--adjudicate-draw PLY:MOVES:MEN] [--adjudicate-win MOVES:MEN]
//!                [--pdn FILE] [--elo0 E] [--elo1 E] [--alpha A] [--beta B]
//! ```
//!
//! Adjudication, off unless asked for, ends a game early the way match
//! tools do (cutechess's `-draw` and `-resign`, two-sided): as a draw once
//! both engines have scored their last MOVES moves each within ±MEN men
//! (from ply PLY on), as a win once both engines have agreed for their last
//! MOVES moves each that the same side is ahead by at least MEN men. Both
//! engines must agree, so one engine's misjudgement never decides a game.
//!
//! With `--clock`, each engine has a Fischer clock kept by the match: the
//! time from `go think` to its `done` is taken off, the increment added
//! after the move, and an engine whose clock runs out loses on time.
//!
//! An engine command is a path and its arguments (`hub` when none is given).

use crate::Failure;
use crate::args::MatchArgs;
use crate::hub_cmd::{move_text, parse_move, position_text};
use crate::match_stats::{Tally, Verdict, elo};
use draughts::{Color, Game, Position, Rules, Variant};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long an engine may take beyond the move time before it loses.
const GRACE: Duration = Duration::from_secs(5);

/// The match's settings.
#[derive(Debug, Clone)]
struct Settings {
    engines: [Vec<String>; 2],
    params: [Vec<(String, String)>; 2],
    variants: Vec<Variant>,
    time: TimeControl,
    openings: usize,
    skip_openings: usize,
    max_plies: usize,
    draw_rule: Option<DrawRule>,
    win_rule: Option<WinRule>,
    pdn: Option<std::path::PathBuf>,
    elo0: f64,
    elo1: f64,
    alpha: f64,
    beta: f64,
}

/// The settings from the command line.
fn parse(a: &MatchArgs) -> Result<Settings, Failure> {
    let finite = |name: &str, x: f64| -> Result<f64, Failure> {
        Some(x)
            .filter(|x| x.is_finite() && *x >= -10_000.0)
            .ok_or_else(|| Failure::usage(format!("invalid {name} {x}")))
    };
    let engine = |cmd: &str| -> Vec<String> {
        let mut cmd: Vec<String> = cmd.split_whitespace().map(String::from).collect();
        if cmd.len() == 1 {
            cmd.push("hub".into());
        }
        cmd
    };
    let params = |name: &str, list: &[String]| -> Result<Vec<(String, String)>, Failure> {
        list.iter()
            .map(|p| {
                p.split_once('=')
                    .map(|(n, v)| (n.to_owned(), v.to_owned()))
                    .ok_or_else(|| Failure::usage(format!("--{name} takes NAME=VALUE")))
            })
            .collect()
    };
    let s = Settings {
        engines: [engine(&a.engine1), engine(&a.engine2)],
        params: [params("param1", &a.param1)?, params("param2", &a.param2)?],
        variants: a.variant.clone(),
        time: match &a.clock {
            Some(text) => TimeControl::parse_clock(text)?,
            None => TimeControl::MoveTime(a.movetime.max(1)),
        },
        openings: a.openings.max(1),
        skip_openings: a.skip_openings,
        max_plies: a.max_plies.max(1),
        draw_rule: a
            .adjudicate_draw
            .as_deref()
            .map(DrawRule::parse)
            .transpose()?,
        win_rule: a
            .adjudicate_win
            .as_deref()
            .map(WinRule::parse)
            .transpose()?,
        pdn: a.pdn.clone(),
        elo0: finite("elo0", a.elo0)?,
        elo1: finite("elo1", a.elo1)?,
        alpha: finite("alpha", a.alpha)?.clamp(1e-6, 0.5),
        beta: finite("beta", a.beta)?.clamp(1e-6, 0.5),
    };
    if s.engines.iter().any(Vec::is_empty) {
        return Err(Failure::usage("--engine1 and --engine2 name a command"));
    }
    Ok(s)
}

/// How long an engine may think.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TimeControl {
    /// Milliseconds a move.
    MoveTime(u64),
    /// A Fischer clock: milliseconds per game, milliseconds added a move.
    Fischer { base_ms: u64, inc_ms: u64 },
}

impl TimeControl {
    /// `BASE+INC` in seconds (`60+1`, `10+0.1`; `+INC` may be left out).
    fn parse_clock(text: &str) -> Result<TimeControl, Failure> {
        let bad = || Failure::usage(format!("--clock BASE+INC (seconds): invalid {text:?}"));
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |s: &str| -> Result<u64, Failure> {
            let x: f64 = s.trim().parse().map_err(|_| bad())?;
            if !x.is_finite() || !(0.0..=86_400.0).contains(&x) {
                return Err(bad());
            }
            Ok((x * 1000.0).round() as u64)
        };
        let (base_ms, inc_ms) = (ms(base)?, ms(inc)?);
        if base_ms == 0 {
            return Err(bad());
        }
        Ok(TimeControl::Fischer { base_ms, inc_ms })
    }

    /// The PDN `TimeControl` tag's text.
    fn describe(self) -> String {
        match self {
            TimeControl::MoveTime(ms) => format!("{ms} ms a move"),
            TimeControl::Fischer { base_ms, inc_ms } => {
                format!("{}+{}", base_ms as f64 / 1000.0, inc_ms as f64 / 1000.0)
            }
        }
    }
}

/// What one move may take: a fixed time, or what is left on the mover's
/// clock.
#[derive(Debug, Clone, Copy)]
enum Think {
    MoveTime(u64),
    Clock { left_ms: u64, inc_ms: u64 },
}

/// Draw adjudication: from ply `from_ply` on, once both engines' last
/// `moves` scores each lie within ±`men`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct DrawRule {
    from_ply: usize,
    moves: usize,
    men: f64,
}

/// Win adjudication: once both engines' last `moves` scores each give the
/// same side at least `men`.
#[derive(Debug, Clone, Copy, PartialEq)]
struct WinRule {
    moves: usize,
    men: f64,
}

/// The numbers of `text` split at `:`, `n` of them.
fn fields(text: &str, n: usize, usage: &str) -> Result<Vec<f64>, Failure> {
    let bad = || Failure::usage(format!("{usage}: invalid {text:?}"));
    let v: Vec<f64> = text
        .split(':')
        .map(|f| f.trim().parse::<f64>().map_err(|_| bad()))
        .collect::<Result<_, _>>()?;
    if v.len() != n || v.iter().any(|x| !x.is_finite() || *x < 0.0) {
        return Err(bad());
    }
    Ok(v)
}

impl DrawRule {
    fn parse(text: &str) -> Result<DrawRule, Failure> {
        let v = fields(text, 3, "--adjudicate-draw PLY:MOVES:MEN")?;
        Ok(DrawRule {
            from_ply: v[0] as usize,
            moves: (v[1] as usize).max(1),
            men: v[2],
        })
    }
}

impl WinRule {
    fn parse(text: &str) -> Result<WinRule, Failure> {
        let v = fields(text, 2, "--adjudicate-win MOVES:MEN")?;
        Ok(WinRule {
            moves: (v[0] as usize).max(1),
            men: v[1],
        })
    }
}

/// One engine move's score: who moved and the score it reported for its
/// own side (none if it sent no `info` score).
#[derive(Debug, Clone, Copy)]
struct Scored {
    by: Color,
    score: Option<f64>,
}

/// The adjudicated end of a game whose engine moves scored `scores` (in
/// order, the last move last) and which has `plies` plies: `Some(None)` a
/// draw, `Some(Some(c))` a win for `c`, and why.
fn adjudicate(
    scores: &[Scored],
    plies: usize,
    draw: Option<DrawRule>,
    win: Option<WinRule>,
) -> Option<(Option<Color>, String)> {
    let window = |moves: usize| scores.len().checked_sub(2 * moves).map(|i| &scores[i..]);
    if let Some(w) = win
        && let Some(last) = window(w.moves)
        && let Some(&Scored { by, score: Some(s) }) = last.last()
    {
        let winner = if s >= w.men {
            Some(by)
        } else if s <= -w.men {
            Some(by.other())
        } else {
            None
        };
        if let Some(winner) = winner
            && last.iter().all(|m| match m.score {
                Some(x) if m.by == winner => x >= w.men,
                Some(x) => x <= -w.men,
                None => false,
            })
        {
            let why = format!(
                "adjudicated: both engines gave {winner:?} at least {} men for {} moves",
                w.men, w.moves
            );
            return Some((Some(winner), why));
        }
    }
    if let Some(d) = draw
        && plies >= d.from_ply
        && let Some(last) = window(d.moves)
        && last
            .iter()
            .all(|m| m.score.is_some_and(|x| x.abs() <= d.men))
    {
        let why = format!(
            "adjudicated: both engines within ±{} men for {} moves",
            d.men, d.moves
        );
        return Some((None, why));
    }
    None
}

/// A Hub engine process; its lines arrive through a channel so a missing
/// answer can time out.
struct HubEngine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl HubEngine {
    /// Starts `cmd` and sets it up for `variant`.
    fn start(
        cmd: &[String],
        params: &[(String, String)],
        variant: Variant,
    ) -> Result<HubEngine, String> {
        let mut child = Command::new(&cmd[0])
            .args(&cmd[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("{}: {e}", cmd[0]))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut e = HubEngine {
            child,
            stdin,
            lines,
        };
        e.send("hub")?;
        e.until("wait", GRACE)?;
        let name = if variant == Variant::International {
            "normal"
        } else {
            variant.name()
        };
        e.send(&format!("set-param name=variant value={name}"))?;
        for (n, v) in params {
            e.send(&format!("set-param name={n} value=\"{v}\""))?;
        }
        e.send("init")?;
        e.until("ready", Duration::from_secs(60))?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("the engine's input: {e}"))
    }

    /// The first line starting with `prefix` within `wait`.
    fn until(&mut self, prefix: &str, wait: Duration) -> Result<String, String> {
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.starts_with(prefix) => return Ok(line),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return Err(format!("no {prefix} in time")),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    /// The engine's move in `game` (whose moves all come from the start),
    /// the score of its last `info` line, if any, and the time from `go`
    /// to `done`.
    fn think(
        &mut self,
        game: &Game,
        limit: Think,
    ) -> Result<(String, Option<f64>, Duration), String> {
        let moves: Vec<String> = {
            let mut pos = game.initial().clone();
            game.moves()
                .iter()
                .map(|m| {
                    let t = move_text(&pos, m);
                    pos.play_unchecked(m);
                    t
                })
                .collect()
        };
        self.send(&format!(
            "pos pos={} moves=\"{}\"",
            position_text(game.initial()),
            moves.join(" ")
        ))?;
        let secs = |ms: u64| ms as f64 / 1000.0;
        let allowed = match limit {
            Think::MoveTime(ms) => {
                self.send(&format!("level move-time={}", secs(ms)))?;
                ms
            }
            Think::Clock { left_ms, inc_ms } => {
                self.send(&format!(
                    "level time={} inc={}",
                    secs(left_ms),
                    secs(inc_ms)
                ))?;
                left_ms
            }
        };
        self.send("go think")?;
        let sent = Instant::now();
        let deadline = sent + Duration::from_millis(allowed) + GRACE;
        let mut score = None;
        let field = |line: &str, name: &str| {
            line.split_whitespace()
                .find_map(|t| t.strip_prefix(name))
                .map(String::from)
        };
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err("no done in time".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            };
            if line.starts_with("info") {
                if let Some(s) = field(&line, "score=").and_then(|s| s.parse::<f64>().ok()) {
                    score = Some(s);
                }
            } else if line.starts_with("done") {
                let took = sent.elapsed();
                let m = field(&line, "move=").ok_or_else(|| format!("no move in {line:?}"))?;
                return Ok((m, score, took));
            }
        }
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        std::thread::sleep(Duration::from_millis(20));
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How a game ended for the engine playing the first mover.
enum End {
    FirstWins(String),
    SecondWins(String),
    Draw(String),
}

/// Plays one game: `engines[order[0]]` moves first. Engines that fail
/// are dropped (so restarted for the next game). The game is returned
/// with its end; `clocks` ends with the first and the second mover's time
/// left (milliseconds, under a Fischer clock).
fn play_game(
    engines: &mut [Option<HubEngine>; 2],
    settings: &Settings,
    order: [usize; 2],
    variant: Variant,
    opening: &[draughts::Move],
    clocks: &mut [u64; 2],
) -> Result<(End, Game), String> {
    let mut game = Game::new(Position::new(Rules::new(variant)));
    for m in opening {
        game.play(m).map_err(|e| format!("opening: {e}"))?;
    }
    let end = play_moves(engines, settings, order, &mut game, clocks)?;
    Ok((end, game))
}

/// Plays `game` on to its end.
fn play_moves(
    engines: &mut [Option<HubEngine>; 2],
    settings: &Settings,
    order: [usize; 2],
    game: &mut Game,
    clocks: &mut [u64; 2],
) -> Result<End, String> {
    let variant = game.position().variant();
    // Each game starts from an empty table, whichever engine won the last.
    for engine in engines.iter_mut() {
        if let Some(e) = engine
            && e.send("new-game").is_err()
        {
            *engine = None;
        }
    }
    let first = variant.first_mover();
    let mut scores: Vec<Scored> = Vec::new();
    // The clocks of the first and the second mover (milliseconds).
    *clocks = match settings.time {
        TimeControl::Fischer { base_ms, .. } => [base_ms; 2],
        TimeControl::MoveTime(_) => [0; 2],
    };
    loop {
        if let Some(o) = game.outcome() {
            let reason = match game.reached_limit() {
                // Which move limit: `MoveLimit kings_only`.
                Some(rule) => format!("{:?} {rule}", o.reason),
                None => format!("{:?}", o.reason),
            };
            return Ok(match o.winner {
                None => End::Draw(reason),
                Some(c) if c == first => End::FirstWins(reason),
                Some(_) => End::SecondWins(reason),
            });
        }
        if let Some((winner, why)) = adjudicate(
            &scores,
            game.moves().len(),
            settings.draw_rule,
            settings.win_rule,
        ) {
            return Ok(match winner {
                None => End::Draw(why),
                Some(c) if c == first => End::FirstWins(why),
                Some(_) => End::SecondWins(why),
            });
        }
        if game.moves().len() >= settings.max_plies {
            return Ok(End::Draw(format!("{} plies", settings.max_plies)));
        }
        let to_move = game.position().turn();
        let side = usize::from(to_move != first);
        let who = order[side];
        if engines[who].is_none() {
            engines[who] = Some(HubEngine::start(
                &settings.engines[who],
                &settings.params[who],
                variant,
            )?);
        }
        let engine = engines[who].as_mut().ok_or("no engine")?;
        let lost = |why: String| {
            if side == 0 {
                End::SecondWins(why)
            } else {
                End::FirstWins(why)
            }
        };
        let limit = match settings.time {
            TimeControl::MoveTime(ms) => Think::MoveTime(ms),
            TimeControl::Fischer { inc_ms, .. } => Think::Clock {
                left_ms: clocks[side],
                inc_ms,
            },
        };
        let (text, score, took) = match engine.think(game, limit) {
            Ok(t) => t,
            Err(e) => {
                engines[who] = None;
                return Ok(lost(format!("engine{}: {e}", who + 1)));
            }
        };
        if let Think::Clock { left_ms, inc_ms } = limit {
            let took_ms = took.as_millis() as u64;
            if took_ms > left_ms {
                return Ok(lost(format!(
                    "engine{} lost on time ({took_ms} ms with {left_ms} ms left)",
                    who + 1
                )));
            }
            clocks[side] = left_ms - took_ms + inc_ms;
        }
        let played = parse_move(game.position(), &text)
            .and_then(|m| game.play(&m).map_err(|e| format!("{e}")));
        if let Err(e) = played {
            engines[who] = None;
            return Ok(lost(format!("engine{} illegal move {text}: {e}", who + 1)));
        }
        scores.push(Scored { by: to_move, score });
    }
}

/// Appends `game` to the PDN file at `path`: the engines' commands as the
/// players, the opening and round, the result and why the game ended.
fn append_pdn(
    path: &std::path::Path,
    settings: &Settings,
    order: [usize; 2],
    game: &Game,
    round: &str,
    end: &End,
) -> Result<(), String> {
    let mut pdn = draughts::pdn::PdnGame::new(game.initial().clone());
    pdn.moves = game.moves().to_vec();
    let player = |side: usize| settings.engines[order[side]].join(" ");
    let (white, black) = if game.initial().variant().first_mover() == Color::White {
        (player(0), player(1))
    } else {
        (player(1), player(0))
    };
    pdn.set_tag("Event", "draughts match");
    pdn.set_tag("Round", round);
    pdn.set_tag("White", white);
    pdn.set_tag("Black", black);
    pdn.set_tag("TimeControl", settings.time.describe());
    let (outcome, why) = match end {
        End::FirstWins(w) => (Some(game.initial().variant().first_mover()), w),
        End::SecondWins(w) => (Some(game.initial().variant().first_mover().other()), w),
        End::Draw(w) => (None, w),
    };
    // An engine's fault or the ply cap ends a game the rules did not end:
    // its result comes from the match, and the reason is a comment tag.
    pdn.result = match outcome {
        Some(Color::White) => draughts::pdn::GameResult::WhiteWins,
        Some(_) => draughts::pdn::GameResult::BlackWins,
        None => draughts::pdn::GameResult::Draw,
    };
    pdn.set_tag("Termination", why.as_str());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    file.write_all(draughts::pdn::write(&pdn).as_bytes())
        .and_then(|()| file.write_all(b"\n"))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// A game's result as the PDN says it, from whether the first mover won (`None`: a
/// draw): `1-0` White won, `0-1` Black won, whoever moved first (Black in American
/// checkers).
fn result_text(variant: Variant, first_won: Option<bool>) -> &'static str {
    let white_first = variant.first_mover() == Color::White;
    match first_won {
        None => "draw",
        Some(first) if first == white_first => "1-0",
        Some(_) => "0-1",
    }
}

/// The summary line of a tally (engine1's point of view).
fn summary(t: &Tally, s: &Settings) -> String {
    let score = t.score();
    let err = t.error_95();
    let (verdict, lo, hi) = t.sprt(s.elo0, s.elo1, s.alpha, s.beta);
    let verdict = match verdict {
        Verdict::H1 => "H1 accepted (engine1 stronger by elo1)",
        Verdict::H0 => "H0 accepted (not stronger by elo1)",
        Verdict::Continue => "continue (no verdict yet)",
    };
    format!(
        "{} games: +{} ={} -{}  score {:.1}% ± {:.1}% (95%)  elo {:+.0} [{:+.0}, {:+.0}]\n  SPRT elo0={} elo1={} alpha={} beta={}: LLR {:.2} (bounds {:.2}, {:.2}): {verdict}",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        score * 100.0,
        err * 100.0,
        elo(score),
        elo(score - err),
        elo(score + err),
        s.elo0,
        s.elo1,
        s.alpha,
        s.beta,
        t.llr(s.elo0, s.elo1),
        lo,
        hi,
    )
}

/// Runs the match and prints every game and the totals.
pub(crate) fn run(args: &MatchArgs) -> Result<(), Failure> {
    let settings = parse(args)?;
    let mut total = Tally::default();
    for &variant in &settings.variants {
        let openings = crate::openings::load(variant).map_err(Failure::input)?;
        let mut engines: [Option<HubEngine>; 2] = [None, None];
        let mut tally = Tally::default();
        let skip = settings.skip_openings.min(openings.len());
        let n = settings.openings.min(openings.len() - skip);
        for (i, opening) in openings.iter().enumerate().skip(skip).take(n) {
            for swap in [false, true] {
                // order[side]: which engine plays the first mover (side 0).
                let order = if swap { [1, 0] } else { [0, 1] };
                let mut clocks = [0; 2];
                let (end, game) = play_game(
                    &mut engines,
                    &settings,
                    order,
                    variant,
                    opening,
                    &mut clocks,
                )
                .map_err(Failure::input)?;
                let (why, first_won) = match &end {
                    End::FirstWins(w) => (w, Some(true)),
                    End::SecondWins(w) => (w, Some(false)),
                    End::Draw(w) => (w, None),
                };
                let result = result_text(variant, first_won);
                match first_won {
                    None => tally.draws += 1,
                    Some(f) if f == (order[0] == 0) => tally.wins += 1,
                    Some(_) => tally.losses += 1,
                }
                let mut pos = Position::new(Rules::new(variant));
                let opening_text: Vec<String> = opening
                    .iter()
                    .map(|m| {
                        let t = pos.move_to_string(m);
                        pos.play_unchecked(m);
                        t
                    })
                    .collect();
                let first = if variant.first_mover() == Color::White {
                    "white"
                } else {
                    "black"
                };
                // Under a clock, each engine's time left at the end.
                let left = match settings.time {
                    TimeControl::Fischer { .. } => {
                        let of = |engine| clocks[usize::from(order[0] != engine)] as f64 / 1000.0;
                        format!("  [clocks: engine1 {:.1} s, engine2 {:.1} s]", of(0), of(1))
                    }
                    TimeControl::MoveTime(_) => String::new(),
                };
                println!(
                    "{variant} opening {} ({}), engine{} {first}: {result} ({why})  [+{} ={} -{}]{left}",
                    i + 1,
                    opening_text.join(" "),
                    order[0] + 1,
                    tally.wins,
                    tally.draws,
                    tally.losses,
                );
                if let Some(path) = &settings.pdn {
                    let round = format!("{}.{}", i + 1, usize::from(swap) + 1);
                    append_pdn(path, &settings, order, &game, &round, &end)
                        .map_err(Failure::input)?;
                }
            }
        }
        println!("{variant}: {}", summary(&tally, &settings));
        total.add(tally);
    }
    if settings.variants.len() > 1 {
        println!("all variants: {}", summary(&total, &settings));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_reads_as_seconds_plus_increment() {
        let fischer = |base_ms, inc_ms| TimeControl::Fischer { base_ms, inc_ms };
        for (text, base_ms, inc_ms) in [
            ("60+1", 60_000, 1_000),
            ("10+0.1", 10_000, 100),
            ("180", 180_000, 0),
            (" 2.5 + 0 ", 2_500, 0),
        ] {
            assert_eq!(
                TimeControl::parse_clock(text).ok(),
                Some(fischer(base_ms, inc_ms)),
                "{text:?}"
            );
        }
        for bad in [
            "", "0+1", "+1", "1+", "a+1", "1+b", "-1+0", "1+-1", "inf+0", "1+1+1", "1e9",
        ] {
            assert!(TimeControl::parse_clock(bad).is_err(), "{bad:?}");
        }
        assert_eq!(fischer(10_000, 100).describe(), "10+0.1");
        assert_eq!(TimeControl::MoveTime(100).describe(), "100 ms a move");
    }

    #[test]
    fn results_read_as_the_pdn_says_whoever_moves_first() {
        assert_eq!(result_text(Variant::Russian, Some(true)), "1-0");
        assert_eq!(result_text(Variant::Russian, Some(false)), "0-1");
        // Black moves first in American checkers.
        assert_eq!(result_text(Variant::American, Some(true)), "0-1");
        assert_eq!(result_text(Variant::American, Some(false)), "1-0");
        assert_eq!(result_text(Variant::American, None), "draw");
    }

    /// Engine moves alternating from White, with these scores.
    fn moves(scores: &[Option<f64>]) -> Vec<Scored> {
        scores
            .iter()
            .enumerate()
            .map(|(i, &score)| Scored {
                by: if i % 2 == 0 {
                    Color::White
                } else {
                    Color::Black
                },
                score,
            })
            .collect()
    }

    const DRAW: DrawRule = DrawRule {
        from_ply: 40,
        moves: 2,
        men: 0.2,
    };
    const WIN: WinRule = WinRule { moves: 2, men: 3.0 };

    #[test]
    fn rules_parse() {
        assert_eq!(
            DrawRule::parse("60:10:0.2").ok(),
            Some(DrawRule {
                from_ply: 60,
                moves: 10,
                men: 0.2
            })
        );
        assert_eq!(
            WinRule::parse("4:3.5").ok(),
            Some(WinRule { moves: 4, men: 3.5 })
        );
        for bad in ["", "1:2", "1:2:x", "1:2:3:4", "1:-2:3", "1:2:inf"] {
            assert!(DrawRule::parse(bad).is_err(), "{bad}");
        }
        assert!(WinRule::parse("4").is_err());
    }

    #[test]
    fn a_draw_needs_both_engines_level_for_the_last_moves_past_the_ply() {
        let level = moves(&[Some(1.0), Some(0.1), Some(-0.2), Some(0.0), Some(0.15)]);
        assert_eq!(
            adjudicate(&level, 40, Some(DRAW), None).map(|(w, _)| w),
            Some(None)
        );
        // Too early.
        assert!(adjudicate(&level, 39, Some(DRAW), None).is_none());
        // Off.
        assert!(adjudicate(&level, 40, None, Some(WIN)).is_none());
        // Too few moves.
        assert!(adjudicate(&level[..3], 40, Some(DRAW), None).is_none());
        // One score in the window out of range, or missing.
        let mut out = level.clone();
        out[2].score = Some(0.25);
        assert!(adjudicate(&out, 40, Some(DRAW), None).is_none());
        out[2].score = None;
        assert!(adjudicate(&out, 40, Some(DRAW), None).is_none());
    }

    #[test]
    fn a_win_needs_both_engines_to_agree_on_the_same_side() {
        // White's engine says White is winning; so does Black's (negative).
        let white = moves(&[
            Some(0.0),
            Some(-3.0),
            Some(4.0),
            Some(-99.9),
            Some(3.0),
            Some(-3.5),
        ]);
        assert_eq!(
            adjudicate(&white[..5], 10, Some(DRAW), Some(WIN)).map(|(w, _)| w),
            Some(Some(Color::White))
        );
        // The same after Black's move: Black's engine says it is lost.
        assert_eq!(
            adjudicate(&white, 10, None, Some(WIN)).map(|(w, _)| w),
            Some(Some(Color::White))
        );
        // The window starts too early to be all winning.
        assert!(adjudicate(&white[..4], 10, None, Some(WIN)).is_none());
        // Black winning.
        let black = moves(&[Some(-3.0), Some(3.5), Some(-4.0), Some(5.0)]);
        assert_eq!(
            adjudicate(&black, 10, None, Some(WIN)).map(|(w, _)| w),
            Some(Some(Color::Black))
        );
        // One engine disagrees (thinks it is level): no adjudication.
        let mut one = white.clone();
        one[3].score = Some(-0.5);
        assert!(adjudicate(&one, 10, None, Some(WIN)).is_none());
        // Both engines think they are winning: no adjudication.
        let both = moves(&[Some(4.0), Some(4.0), Some(4.0), Some(4.0)]);
        assert!(adjudicate(&both, 10, None, Some(WIN)).is_none());
        // Below the margin.
        let small = moves(&[Some(2.9), Some(-3.0), Some(3.0), Some(-3.0)]);
        assert!(adjudicate(&small, 10, None, Some(WIN)).is_none());
    }
}
