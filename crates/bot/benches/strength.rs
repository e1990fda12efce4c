//! Strength benchmark: in every variant, level 3 against level 2, level 2
//! against level 1, and level 3 against a 1-ply greedy player (takes the
//! most pieces, else a seeded random move), each over `--games` games with
//! colours alternated and seeded random openings (`draughts::random_opening`);
//! then level 3's speed and depth at 1 s per move on each start position.
//!
//! ```text
//! cargo bench -p damka-bot --bench strength -- [--games 40] [--l3-ms 100]
//!     [--variants american,russian,...] [--threads 1] [--nps-ms 1000]
//!     [--only matches|nps]
//! ```
//!
//! Level 3 plays through `bot::think` on a clock that allots it about
//! `--l3-ms` per move (remaining = 30 x that, no increment), so the whole
//! run fits a time budget; levels 1 and 2 are cut by their depth. A win
//! scores 1, a draw 0.5; games still going after 400 plies count as draws.
//!
//! Without `--bench` (as `cargo test --benches` starts it) it is a smoke
//! run: two games per pairing and short searches, checking only that the
//! games play to the end with legal moves.

use bot::{ClockLimits, Engine, Level, Limits, think};
use draughts::{Game, Move, Position, Rules, SplitMix64, Variant, random_opening};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Instant;

const MAX_PLIES: usize = 400;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Player {
    Level(Level),
    Greedy,
}

impl Player {
    fn name(self) -> String {
        match self {
            Player::Level(l) => format!("L{}", l.number()),
            Player::Greedy => "greedy".into(),
        }
    }
}

struct Options {
    games: usize,
    l3_ms: u64,
    variants: Vec<Variant>,
    threads: usize,
    nps_ms: u64,
    matches: bool,
    nps: bool,
}

fn options() -> Options {
    let mut o = Options {
        games: 40,
        l3_ms: 100,
        variants: Variant::ALL.to_vec(),
        threads: 1,
        nps_ms: 1_000,
        matches: true,
        nps: true,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        println!(
            "smoke run (no --bench): 2 games per pairing, short searches; the scores mean nothing"
        );
        o.games = 2;
        o.l3_ms = 10;
        o.nps_ms = 100;
    }
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().cloned().unwrap_or_default();
        match a.as_str() {
            "--games" => o.games = value().parse().expect("--games N"),
            "--l3-ms" => o.l3_ms = value().parse().expect("--l3-ms MS"),
            "--threads" => o.threads = value().parse::<usize>().expect("--threads N").max(1),
            "--nps-ms" => o.nps_ms = value().parse().expect("--nps-ms MS"),
            "--variants" => {
                o.variants = value()
                    .split(',')
                    .map(|v| Variant::from_name(v).expect("a variant"))
                    .collect();
            }
            "--only" => match value().as_str() {
                "matches" => o.nps = false,
                "nps" => o.matches = false,
                other => panic!("--only matches|nps, not {other}"),
            },
            "--bench" => {} // passed by cargo bench
            other => panic!("unknown argument {other}"),
        }
    }
    o
}

/// The greedy player's move: the capture taking the most pieces, else a
/// random move.
fn greedy(pos: &Position, rng: &mut SplitMix64) -> Move {
    let legal = pos.legal_moves();
    let most = legal
        .iter()
        .map(|m| m.captures().count())
        .max()
        .unwrap_or(0);
    let best: Vec<&Move> = legal
        .iter()
        .filter(|m| m.captures().count() == most)
        .collect();
    *best[rng.below(best.len() as u64) as usize]
}

/// One game; the result for `first` (the player given first, whatever its
/// colour): 1, 0.5 or 0.
fn play(variant: Variant, first: Player, second: Player, game_no: usize, l3_ms: u64) -> f64 {
    let rules = Rules::new(variant);
    let mut game = Game::new(Position::new(rules));
    for m in random_opening(rules, 1_000 + (game_no / 2) as u64) {
        game.play(&m).expect("opening");
    }
    // Even games: `first` plays the side to move after the opening.
    let first_color = if game_no.is_multiple_of(2) {
        game.position().turn()
    } else {
        game.position().turn().other()
    };
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64::new(game_no as u64 * 7 + 1);
    while game.outcome().is_none() && game.moves().len() < MAX_PLIES {
        let turn = game.position().turn();
        let player = if turn == first_color { first } else { second };
        let m = match player {
            Player::Greedy => greedy(game.position(), &mut rng),
            Player::Level(level) => {
                let clock = ClockLimits {
                    remaining_ms: if level == Level::Three {
                        l3_ms * 30
                    } else {
                        600_000
                    },
                    increment_ms: 0,
                };
                think(&game, level, clock, rng.next_u64(), &stop)
                    .expect("not over")
                    .mv
            }
        };
        game.play(&m).expect("the bot plays legal moves");
    }
    match game.outcome().and_then(|o| o.winner) {
        Some(c) if c == first_color => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

fn run_match(o: &Options, variant: Variant, a: Player, b: Player) -> (f64, usize, usize, usize) {
    let next = Arc::new(Mutex::new(0usize));
    let results = Arc::new(Mutex::new(Vec::new()));
    std::thread::scope(|s| {
        for _ in 0..o.threads {
            let next = Arc::clone(&next);
            let results = Arc::clone(&results);
            s.spawn(move || {
                loop {
                    let i = {
                        let mut n = next.lock().expect("lock");
                        let i = *n;
                        *n += 1;
                        i
                    };
                    if i >= o.games {
                        break;
                    }
                    let r = play(variant, a, b, i, o.l3_ms);
                    results.lock().expect("lock").push(r);
                }
            });
        }
    });
    let results = results.lock().expect("lock");
    let score: f64 = results.iter().sum();
    let wins = results.iter().filter(|&&r| r == 1.0).count();
    let draws = results.iter().filter(|&&r| r == 0.5).count();
    let losses = results.len() - wins - draws;
    (score, wins, draws, losses)
}

/// CPU time of the calling thread in milliseconds (Linux
/// `/proc/thread-self/stat`, 10 ms ticks); `None` elsewhere. On a busy
/// machine nodes per CPU second say more than nodes per wall second.
fn thread_cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name (which is in parentheses).
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: u64 = fields.get(11)?.parse().ok()?;
    let stime: u64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) * 10)
}

fn main() {
    let o = options();
    if o.matches {
        println!(
            "strength: {} games per pairing, level 3 at about {} ms per move, {} thread(s)",
            o.games, o.l3_ms, o.threads
        );
        let pairings = [
            (Player::Level(Level::Three), Player::Level(Level::Two), 0.75),
            (Player::Level(Level::Two), Player::Level(Level::One), 0.75),
            (Player::Level(Level::Three), Player::Greedy, 0.95),
        ];
        let mut all_met = true;
        for &variant in &o.variants {
            for (a, b, target) in pairings {
                let t = Instant::now();
                let (score, w, d, l) = run_match(&o, variant, a, b);
                let share = score / o.games as f64;
                let met = share >= target;
                all_met &= met;
                println!(
                    "{:<13} {:>2} vs {:<6} {:>5.1}/{} = {:>5.1}%  (+{w} ={d} -{l})  target {:.0}% {}  [{:.0} s]",
                    variant.name(),
                    a.name(),
                    b.name(),
                    score,
                    o.games,
                    share * 100.0,
                    target * 100.0,
                    if met { "met" } else { "MISSED" },
                    t.elapsed().as_secs_f64()
                );
            }
        }
        println!("all targets met: {all_met}");
    }
    if o.nps {
        println!(
            "level 3 engine at {} ms per move on the start position:",
            o.nps_ms
        );
        let stop = AtomicBool::new(false);
        let mut depths = 0u32;
        for &variant in &o.variants {
            let game = Game::new(Position::new(Rules::new(variant)));
            // The table level 3 uses in think (2^17 entries).
            let mut engine = Engine::new(17);
            // Iterations go on until the movetime is spent; the last one is
            // cut then.
            let limits = Limits {
                movetime_ms: Some(o.nps_ms),
                ..Limits::default()
            };
            let cpu_before = thread_cpu_ms();
            let r = engine.search(&game, &limits, &stop).expect("move");
            let cpu = cpu_before.and_then(|b| Some(thread_cpu_ms()? - b));
            let nps = r.nodes as f64 / (r.time_ms.max(1) as f64 / 1000.0);
            let cpu_nps = cpu.map_or(String::from("?"), |c| {
                format!("{:.0}", r.nodes as f64 / c.max(1) as f64)
            });
            depths += r.depth;
            println!(
                "{:<13} depth {:>2}  nodes {:>9}  time {:>5} ms  {:>6.0} knodes/s  cpu {:>5} ms  {:>5} knodes/cpu-s  move {}",
                variant.name(),
                r.depth,
                r.nodes,
                r.time_ms,
                nps / 1000.0,
                cpu.map_or(String::from("?"), |c| c.to_string()),
                cpu_nps,
                game.position().move_to_string(&r.mv)
            );
        }
        println!(
            "average depth {:.1}",
            f64::from(depths) / o.variants.len() as f64
        );
    }
}
