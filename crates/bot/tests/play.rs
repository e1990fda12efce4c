//! The bot plays only legal moves, is deterministic given a seed, keeps to
//! a tiny clock and answers at once when it has to.

use bot::{ClockLimits, Engine, Level, Limits, think};
use draughts::{Game, Position, Rules, Square, Variant, random_opening};
use std::sync::atomic::AtomicBool;

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A random position: a random opening then random moves, or a sparse
/// position with kings.
fn random_game(variant: Variant, rng: &mut SplitMix64) -> Game {
    let rules = Rules::new(variant);
    if rng.below(3) == 0 {
        let size = variant.board_size();
        loop {
            let mut free: Vec<Square> = variant.squares().collect();
            let mut sides = [Vec::new(), Vec::new()];
            for (i, side) in sides.iter_mut().enumerate() {
                for _ in 0..1 + rng.below(6) {
                    let sq = free.swap_remove(rng.below(free.len()));
                    let (_, y) = variant.square_xy(sq);
                    let crowning = (i == 0 && y == 0) || (i == 1 && y == size - 1);
                    let king = crowning || rng.below(3) == 0;
                    side.push(format!(
                        "{}{}",
                        if king { "K" } else { "" },
                        variant.square_name(sq)
                    ));
                }
            }
            let turn = if rng.below(2) == 0 { 'W' } else { 'B' };
            let fen = format!("{turn}:W{}:B{}", sides[0].join(","), sides[1].join(","));
            if let Ok(pos) = Position::from_fen(rules, &fen) {
                let game = Game::new(pos);
                if game.outcome().is_none() {
                    return game;
                }
            }
        }
    }
    let mut game = Game::new(Position::new(rules));
    for m in random_opening(rules, rng.next()) {
        game.play(&m).expect("opening moves are legal");
    }
    for _ in 0..rng.below(60) {
        let legal = game.position().legal_moves();
        if game.outcome().is_some() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        let before = game.clone();
        game.play(&m).expect("legal");
        if game.outcome().is_some() {
            return before;
        }
    }
    game
}

#[test]
fn never_plays_an_illegal_move_in_thousands_of_positions() {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64(2026);
    let tiny = ClockLimits {
        remaining_ms: 30,
        increment_ms: 0,
    };
    let mut searched = 0;
    for variant in Variant::ALL {
        let mut engine = Engine::new(12);
        for i in 0..300 {
            let game = random_game(variant, &mut rng);
            let pos = game.position();
            let limits = Limits {
                nodes: Some(300 + rng.below(2_000) as u64),
                depth: Some(1 + rng.below(8) as u32),
                movetime_ms: None,
                search_forced: rng.below(2) == 0,
            };
            let r = engine.search(&game, &limits, &stop).expect("not over");
            assert!(pos.is_legal(&r.mv), "{variant} {pos:?} {r:?}");
            let mut p = pos.clone();
            for m in &r.pv {
                p = p
                    .play(m)
                    .unwrap_or_else(|_| panic!("{variant} {pos:?} PV {r:?}"));
            }
            let level = Level::ALL[i % 3];
            let r = think(&game, level, tiny, rng.next(), &stop).expect("not over");
            assert!(pos.is_legal(&r.mv), "{variant} {level:?} {pos:?} {r:?}");
            searched += 2;
        }
    }
    assert_eq!(searched, 2 * 7 * 300);
}

#[test]
fn the_game_over_has_no_move() {
    let stop = AtomicBool::new(false);
    let pos = Position::from_fen(Rules::new(Variant::Russian), "W:Wa1:Bb2,c3").expect("fen");
    let game = Game::new(pos);
    assert!(game.outcome().is_some());
    let clock = ClockLimits {
        remaining_ms: 1_000,
        increment_ms: 0,
    };
    assert_eq!(think(&game, Level::Three, clock, 1, &stop), None);
    assert_eq!(
        Engine::new(10).search(&game, &Limits::default(), &stop),
        None
    );
}

#[test]
fn deterministic_given_the_seed() {
    let stop = AtomicBool::new(false);
    let clock = ClockLimits {
        remaining_ms: 600_000,
        increment_ms: 0,
    };
    let mut rng = SplitMix64(5);
    let mut differs = false;
    for variant in Variant::ALL {
        for _ in 0..6 {
            let game = random_game(variant, &mut rng);
            for level in [Level::One, Level::Two] {
                let a = think(&game, level, clock, 42, &stop).expect("move");
                let b = think(&game, level, clock, 42, &stop).expect("move");
                assert_eq!(
                    (a.mv, a.score, a.depth, a.nodes),
                    (b.mv, b.score, b.depth, b.nodes)
                );
                assert_eq!(a.pv, b.pv);
            }
            // Level 1's seed picks among near-best moves.
            let moves: Vec<_> = (0..8)
                .map(|seed| {
                    think(&game, Level::One, clock, seed, &stop)
                        .expect("move")
                        .mv
                })
                .collect();
            differs |= moves.iter().any(|m| *m != moves[0]);
            // The full engine is deterministic when cut by depth or nodes.
            for limits in [
                Limits {
                    depth: Some(6),
                    ..Limits::default()
                },
                Limits {
                    nodes: Some(20_000),
                    ..Limits::default()
                },
            ] {
                let a = Engine::new(16).search(&game, &limits, &stop).expect("move");
                let b = Engine::new(16).search(&game, &limits, &stop).expect("move");
                assert_eq!(a.mv, b.mv);
                assert_eq!((a.score, a.depth, a.nodes), (b.score, b.depth, b.nodes));
            }
        }
    }
    assert!(differs, "different seeds choose differently somewhere");
}

/// `variant`'s game after its first legal moves, at the first position out
/// of the opening book with a choice of moves (level 3 answers a book
/// position or a single legal move without searching).
fn out_of_book(variant: Variant) -> Game {
    let mut game = Game::new(Position::new(Rules::new(variant)));
    while bot::book::committed(variant)
        .probe(game.position())
        .is_some()
        || game.position().legal_moves().len() < 2
    {
        let m = game.position().legal_moves()[0];
        game.play(&m).expect("legal");
    }
    game
}

#[test]
fn a_tiny_clock_is_respected() {
    let stop = AtomicBool::new(false);
    for variant in Variant::ALL {
        // Out of the book, so that level 3 searches on the clock.
        let game = out_of_book(variant);
        for remaining_ms in [50, 200] {
            let clock = ClockLimits {
                remaining_ms,
                increment_ms: 0,
            };
            for level in Level::ALL {
                let r = think(&game, level, clock, 3, &stop).expect("move");
                assert!(game.position().is_legal(&r.mv));
                // Never flags. (The budget is a few ms here; the bound is the
                // whole clock because a loaded machine can pause the thread.)
                assert!(
                    r.time_ms < remaining_ms,
                    "{variant} {level:?} {remaining_ms} ms: took {} ms",
                    r.time_ms
                );
            }
        }
    }
}

#[test]
fn a_single_legal_move_is_answered_at_once() {
    let stop = AtomicBool::new(false);
    // White must capture: one capture only.
    let pos =
        Position::from_fen(Rules::new(Variant::International), "W:W28,K46:B22,5").expect("fen");
    assert_eq!(pos.legal_moves().len(), 1);
    let game = Game::new(pos);
    let clock = ClockLimits {
        remaining_ms: 600_000,
        increment_ms: 0,
    };
    let r = think(&game, Level::Three, clock, 0, &stop).expect("move");
    assert_eq!(r.depth, 0);
    assert_eq!(r.nodes, 0);
    assert!(r.time_ms < 100);
}

/// Analysis asks for the score of a forced capture's position: after
/// 32-28 20-24 33-29 Black's only move, 24x33x22, wins two men, which the
/// static evaluation (equal material before the capture) does not see.
#[test]
fn a_single_legal_move_is_searched_when_asked() {
    let stop = AtomicBool::new(false);
    let mut game = Game::new(Position::new(Rules::new(Variant::International)));
    for text in ["32-28", "20-24", "33-29"] {
        let m = game.position().parse_move(text).expect("move");
        game.play(&m).expect("legal");
    }
    assert_eq!(game.position().legal_moves().len(), 1);
    let mut engine = Engine::new(16);
    let at_once = engine
        .search(
            &game,
            &Limits {
                depth: Some(6),
                ..Limits::default()
            },
            &stop,
        )
        .expect("move");
    assert_eq!(at_once.depth, 0);
    assert!(at_once.score.abs() < 100, "static: {}", at_once.score);
    let limits = Limits {
        depth: Some(6),
        search_forced: true,
        ..Limits::default()
    };
    let searched = engine.search(&game, &limits, &stop).expect("move");
    assert_eq!(searched.mv, at_once.mv);
    assert_eq!(searched.depth, 6);
    assert!(searched.score > 250, "two men up: {}", searched.score);
    assert!(searched.pv.len() > 1, "{:?}", searched.pv);
}

#[test]
fn a_set_stop_flag_answers_after_the_first_iteration() {
    let stop = AtomicBool::new(true);
    let game = Game::new(Position::new(Rules::new(Variant::International)));
    let r = Engine::new(16)
        .search(&game, &Limits::default(), &stop)
        .expect("move");
    assert_eq!(r.depth, 1);
    assert!(game.position().is_legal(&r.mv));
    let clock = ClockLimits {
        remaining_ms: 600_000,
        increment_ms: 0,
    };
    // Level 3 answers the start from its book: a position out of it.
    let game = out_of_book(Variant::International);
    let r = think(&game, Level::Three, clock, 0, &stop).expect("move");
    assert_eq!(r.depth, 1);
}

#[test]
fn the_engine_is_send_and_its_table_is_sized() {
    fn send<T: Send>(_: &T) {}
    let engine = Engine::new(17);
    send(&engine);
    assert_eq!(engine.table_bytes(), (1 << 17) * 16);
    // Searches can run on another thread.
    let game = Game::new(Position::new(Rules::new(Variant::Czech)));
    let handle = std::thread::spawn(move || {
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        Engine::new(12)
            .search(&game, &limits, &stop)
            .map(|r| r.depth)
    });
    assert_eq!(handle.join().expect("no panic"), Some(4));
}

#[test]
fn the_transposition_table_saves_work() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    for variant in [Variant::Russian, Variant::International] {
        let game = Game::new(Position::new(Rules::new(variant)));
        let tiny = Engine::new(4).search(&game, &limits, &stop).expect("move");
        let full = Engine::new(18).search(&game, &limits, &stop).expect("move");
        assert!(
            full.nodes * 10 < tiny.nodes * 9,
            "{variant}: {} nodes with the table, {} with 16 entries (ratio {:.3})",
            full.nodes,
            tiny.nodes,
            full.nodes as f64 / tiny.nodes as f64
        );
    }
}

#[test]
fn a_search_fits_a_small_thread_stack() {
    // 128 KiB, a sixteenth of a spawned thread's default: the search keeps
    // its move lists (10 KiB each) on the heap, so a ply's frames take under
    // 1 KiB (with a list built inline these searches overflowed it).
    let handle = std::thread::Builder::new()
        .stack_size(128 * 1024)
        .spawn(|| {
            let stop = AtomicBool::new(false);
            let mut deepest = 0;
            for (variant, fen) in [
                (Variant::International, Variant::International.start_fen()),
                (Variant::International, "W:WK46,K50,K5,28:BK1,K45,19,23"),
                (Variant::Russian, "W:WKa1,Kh2,c3:BKh8,Kb8,f6"),
                (Variant::American, "W:WK1,K2,K3,K4:BK29,K30,K31,K32"),
            ] {
                let pos = Position::from_fen(Rules::new(variant), fen).expect("fen");
                let limits = Limits {
                    depth: Some(14),
                    nodes: Some(400_000),
                    ..Limits::default()
                };
                let r = Engine::new(16)
                    .search(&Game::new(pos), &limits, &stop)
                    .expect("move");
                deepest = deepest.max(r.pv.len());
            }
            deepest
        })
        .expect("spawn");
    assert!(handle.join().expect("no stack overflow") > 0);
}

#[test]
fn level_one_blunders_sometimes_and_level_two_is_the_depth_five_search() {
    let stop = AtomicBool::new(false);
    let clock = ClockLimits {
        remaining_ms: 600_000,
        increment_ms: 0,
    };
    let mut rng = SplitMix64(77);
    let (mut off_best, mut blunders, mut positions) = (0, 0, 0);
    for variant in Variant::ALL {
        for _ in 0..12 {
            let game = random_game(variant, &mut rng);
            if game.position().legal_moves().len() < 2 {
                continue;
            }
            positions += 1;
            let scored = Engine::new(12).score_root_moves(&game, 2, &stop);
            let best = scored[0].1;
            for seed in 0..4 {
                let r = think(&game, Level::One, clock, seed, &stop).expect("move");
                let s = scored
                    .iter()
                    .find(|(m, _)| *m == r.mv)
                    .expect("a root move")
                    .1;
                off_best += usize::from(s < best);
                blunders += usize::from(s <= best - 100);
                // Never a move its own search sees losing by force when
                // another one does not.
                assert!(s > -bot::WIN_BOUND || best <= -bot::WIN_BOUND);
            }
            let two = think(&game, Level::Two, clock, 0, &stop).expect("move");
            let limits = Limits {
                depth: Some(5),
                ..Limits::default()
            };
            let five = Engine::new(15).search(&game, &limits, &stop).expect("move");
            assert_eq!(
                (two.mv, two.score, two.depth),
                (five.mv, five.score, five.depth)
            );
        }
    }
    assert!(
        off_best > 0 && blunders > 0,
        "{off_best} {blunders} of {positions} x 4"
    );
    assert!(
        blunders * 4 < positions * 4,
        "mostly not a blunder: {blunders}"
    );
}

#[test]
fn threads_share_the_table_and_answer_legal_moves() {
    let stop = AtomicBool::new(false);
    let mut rng = SplitMix64(36);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    for variant in Variant::ALL {
        // One engine with 3 threads for all of a variant's positions: the
        // helpers are kept between searches, their table is the engine's.
        let mut engine = Engine::new(16);
        engine.set_threads(3);
        let mut helped = 0;
        for _ in 0..25 {
            let game = random_game(variant, &mut rng);
            if game.outcome().is_some() {
                continue;
            }
            let r = engine.search(&game, &limits, &stop).expect("a move");
            assert!(
                game.position().legal_moves().contains(&r.mv),
                "{variant}: {}",
                game.position().to_fen()
            );
            // Depth 6, or less for a forced result or a single move.
            assert!(r.depth <= 6, "{r:?}");
            // The helpers' nodes are counted: more than one thread's
            // worth of a depth-6 search is typical, never required.
            let mut alone = Engine::new(16);
            let single = alone.search(&game, &limits, &stop).expect("a move");
            if r.nodes > single.nodes {
                helped += 1;
            }
        }
        assert!(helped > 0, "{variant}: the helpers never counted a node");
    }
}

/// With helper threads, the progress reports (the Hub's `info` lines)
/// count every thread's nodes, as the answer does: the last report of a
/// search stopped by depth holds nearly all of the answer's nodes (the
/// answering thread alone searches about a quarter of them with 4 threads).
#[test]
fn progress_reports_count_the_helpers_nodes() {
    let stop = AtomicBool::new(false);
    let game = Game::new(Position::new(Rules::new(Variant::International)));
    let mut engine = Engine::new(16);
    engine.set_threads(4);
    let limits = Limits {
        depth: Some(10),
        ..Limits::default()
    };
    let mut reports = Vec::new();
    let mut record = |p: &bot::Progress| reports.push(p.result.nodes);
    let mut control = bot::Control {
        stop: &stop,
        ponder: None,
        report: Some(&mut record),
    };
    let r = engine
        .search_controlled(&game, &limits, None, &mut control)
        .expect("a move");
    assert_eq!(r.depth, 10);
    assert!(reports.windows(2).all(|w| w[0] <= w[1]), "{reports:?}");
    let last = *reports.last().expect("a report per iteration");
    assert!(last <= r.nodes, "{last} > {}", r.nodes);
    assert!(last * 10 >= r.nodes * 7, "{last} of {}", r.nodes);
}
