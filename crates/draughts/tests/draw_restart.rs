//! Property test of spec §2 "every count restarts on any capture or promotion": the counts
//! after a restart may not depend on anything before it. Right after every capture or
//! promotion of a random game, a game set up fresh in the reached position must show the
//! same counters, the same outcome and the same reached limit; both are then fed the same
//! moves and must agree after each of them, until the next restart point, where a new fresh
//! game is set up and compared again.
//!
//! Threefold repetition needs no exception: the game forgets its positions on every capture
//! and man move, so after a restart it remembers only what the fresh game does.
//!
//! The games are seeded random playouts in all seven variants, mostly from sparse endgame
//! positions with kings (so the draw limits are reached), some from the start position.

mod common;

use common::SplitMix64;
use draughts::{DrawLimits, Game, Move, Position, Reason, Rules, Square, Variant};
use std::collections::{BTreeMap, HashMap};

/// Random endgame positions played out per variant.
const SPARSE_GAMES: usize = 500;
/// Random games from the start position per variant.
const START_GAMES: usize = 20;
/// Long enough for the longest limit (60 moves each) after a late restart.
const MAX_PLIES: usize = 400;

/// What the games went through, to show the test reaches the cases it is about.
#[derive(Default)]
struct Stats {
    /// Restart points compared.
    restarts: u32,
    /// Moves compared after a restart point.
    followed: u32,
    /// Promotions played while an FMJD-64 7.2.7 count was selected.
    promotions_in_7_2_7: u32,
    /// How the games ended: the limit's rule for a move-limit draw, else the reason.
    ends: BTreeMap<&'static str, u32>,
}

/// Whether `sq` is a man's promotion row for `white` (display rows, White at the bottom).
fn promotion_row(variant: Variant, sq: Square, white: bool) -> bool {
    let (_, y) = variant.square_xy(sq);
    if white {
        y == 0
    } else {
        y == variant.board_size() - 1
    }
}

/// A random sparse position: half the time one side a lone king against 1 to 5 pieces (the
/// lone-king rows), otherwise 1 to 5 pieces each; about half the pieces kings, men off
/// their promotion row. `None` when the engine refuses the FEN (checked by the other tests).
fn sparse_position(variant: Variant, rng: &mut SplitMix64) -> Option<Position> {
    let mut free: Vec<Square> = variant.squares().collect();
    let lone = rng.below(2) == 0;
    let lone_white = rng.below(2) == 0;
    let mut sides = [String::new(), String::new()];
    for (i, white) in [true, false].into_iter().enumerate() {
        let count = match (lone, lone_white == white) {
            (true, true) => 1,
            (true, false) => 1 + rng.below(5),
            (false, _) => 1 + rng.below(5),
        };
        let mut placed = Vec::new();
        for _ in 0..count {
            let king = (lone && lone_white == white) || rng.below(2) == 0;
            let candidates: Vec<usize> = (0..free.len())
                .filter(|&j| king || !promotion_row(variant, free[j], white))
                .collect();
            let j = candidates[rng.below(candidates.len())];
            let sq = free.swap_remove(j);
            let k = if king { "K" } else { "" };
            placed.push(format!("{k}{}", variant.square_name(sq)));
        }
        sides[i] = placed.join(",");
    }
    let turn = if rng.below(2) == 0 { "W" } else { "B" };
    let fen = format!("{turn}:W{}:B{}", sides[0], sides[1]);
    Position::from_fen(Rules::new(variant), &fen).ok()
}

/// A random move, mostly a careful one: random play gives pieces away (a flying king takes
/// everything) and random kings soon repeat themselves, so most games would end by a
/// capture of the last piece or by threefold before any limit is reached. Seven times in
/// eight the move is drawn from those that leave the opponent no capture and reach a new
/// position, as far as there are such moves.
fn pick(game: &Game, rng: &mut SplitMix64, seen: &HashMap<String, u32>) -> Move {
    let legal = game.position().legal_moves();
    if rng.below(8) > 0 {
        let mut safe = Vec::new();
        let mut safe_and_new = Vec::new();
        for m in &legal {
            let mut next = game.position().clone();
            next.play_unchecked(m);
            if next.legal_moves().iter().any(Move::is_capture) {
                continue;
            }
            safe.push(*m);
            if !seen.contains_key(&next.to_fen()) {
                safe_and_new.push(*m);
            }
        }
        for pool in [safe_and_new, safe] {
            if !pool.is_empty() {
                return pool[rng.below(pool.len())];
            }
        }
    }
    legal[rng.below(legal.len())]
}

/// Where a failure happened: enough to replay the game by hand.
fn context(game: &Game) -> String {
    let mut pos = game.initial().clone();
    let mut texts = Vec::new();
    for m in game.moves() {
        texts.push(pos.move_to_string(m));
        pos.play_unchecked(m);
    }
    format!(
        "{} from {}, moves: {}",
        game.position().variant(),
        game.initial().to_fen(),
        texts.join(" ")
    )
}

fn assert_same(game: &Game, fresh: &Game) {
    let same = game.counters() == fresh.counters()
        && game.outcome() == fresh.outcome()
        && game.reached_limit() == fresh.reached_limit();
    assert!(
        same,
        "the game and a game set up at its last restart disagree\n\
         game:  {:?} {:?} {:?}\nfresh: {:?} {:?} {:?} (set up from {})\n{}",
        game.counters(),
        game.outcome(),
        game.reached_limit(),
        fresh.counters(),
        fresh.outcome(),
        fresh.reached_limit(),
        fresh.initial().to_fen(),
        context(game)
    );
}

/// Plays `game` out with random moves, checking it against a fresh game from every
/// restart point on.
fn play_out(mut game: Game, rng: &mut SplitMix64, stats: &mut Stats) {
    let mut fresh: Option<Game> = None;
    let mut seen: HashMap<String, u32> = HashMap::new();
    // The value a search carries along its line (DrawLimits) follows the game exactly.
    let mut limits = DrawLimits::new(game.position());
    assert_eq!(limits, game.draw_limits());
    for _ in 0..MAX_PLIES {
        if game.outcome().is_some() {
            break;
        }
        let m = pick(&game, rng, &seen);
        let in_7_2_7 = game.counters().iter().any(|c| c.rule == "fmjd64_7_2_7");
        let before_kings = game.position().kings();
        let before = game.position().clone();
        game.play(&m).expect("a generated move plays");
        limits = limits.after_move(&before, &m, game.position());
        assert_eq!(limits.counters().collect::<Vec<_>>(), game.counters());
        assert_eq!(
            limits.reached(),
            game.reached_limit().is_some(),
            "{}",
            context(&game)
        );
        if m.is_capture() || !before_kings.contains(m.from()) {
            seen.clear(); // no earlier position can come back
        }
        *seen.entry(game.position().to_fen()).or_default() += 1;
        if m.is_capture() || m.promotes() {
            stats.restarts += 1;
            if m.promotes() && in_7_2_7 {
                stats.promotions_in_7_2_7 += 1;
            }
            fresh = Some(Game::new(game.position().clone()));
        } else if let Some(fresh) = &mut fresh {
            stats.followed += 1;
            fresh
                .play(&m)
                .unwrap_or_else(|e| panic!("{e} in the fresh game\n{}", context(&game)));
        }
        if let Some(fresh) = &fresh {
            assert_same(&game, fresh);
        }
    }
    let end = match game.outcome().map(|o| o.reason) {
        Some(Reason::MoveLimit) => game
            .reached_limit()
            .expect("a move-limit draw names its rule"),
        Some(reason) => reason.name(),
        None => "unfinished",
    };
    *stats.ends.entry(end).or_default() += 1;
}

fn run(variant: Variant, seed: u64) -> Stats {
    let mut rng = SplitMix64(seed);
    let mut stats = Stats::default();
    let rules = Rules::new(variant);
    for _ in 0..START_GAMES {
        play_out(Game::new(Position::new(rules)), &mut rng, &mut stats);
    }
    let mut played = 0;
    while played < SPARSE_GAMES {
        if let Some(pos) = sparse_position(variant, &mut rng) {
            play_out(Game::new(pos), &mut rng, &mut stats);
            played += 1;
        }
    }
    stats
}

/// Checks the games reached what the test is about: many restart points followed by
/// compared moves, and draws by the variant's limits.
fn assert_coverage(variant: Variant, stats: &Stats, rules: &[&str]) {
    println!(
        "{variant}: {} restarts, {} moves followed, {} promotions in 7.2.7, ends {:?}",
        stats.restarts, stats.followed, stats.promotions_in_7_2_7, stats.ends
    );
    assert!(
        stats.restarts > 1000,
        "{variant}: {} restarts",
        stats.restarts
    );
    assert!(
        stats.followed > 5_000,
        "{variant}: {} moves",
        stats.followed
    );
    for rule in rules {
        assert!(
            stats.ends.contains_key(rule),
            "{variant}: no game drawn by {rule}: {:?}",
            stats.ends
        );
    }
}

#[test]
fn american_and_italian_restart_like_a_fresh_game() {
    for (variant, seed) in [(Variant::American, 0xA1), (Variant::Italian, 0x17)] {
        assert_coverage(variant, &run(variant, seed), &["forty_moves"]);
    }
}

#[test]
fn international_restarts_like_a_fresh_game() {
    let stats = run(Variant::International, 0x10);
    assert_coverage(
        Variant::International,
        &stats,
        &["kings_only", "intl_16", "intl_5"],
    );
}

/// The FMJD-64 variants, where a paused 7.2.7 count once survived a promotion.
fn fmjd64(variant: Variant, seed: u64) {
    let stats = run(variant, seed);
    assert_coverage(
        variant,
        &stats,
        &[
            "fmjd64_7_2_8",
            "fmjd64_7_2_7",
            "fmjd64_7_2_4",
            "fmjd64_7_2_6",
        ],
    );
    assert!(
        stats.promotions_in_7_2_7 > 0,
        "{variant}: no promotion out of a 7.2.7 configuration"
    );
}

#[test]
fn russian_restarts_like_a_fresh_game() {
    fmjd64(Variant::Russian, 0x52);
}

#[test]
fn brazilian_restarts_like_a_fresh_game() {
    fmjd64(Variant::Brazilian, 0xB2);
}

#[test]
fn spanish_restarts_like_a_fresh_game() {
    fmjd64(Variant::Spanish, 0x5E);
}

#[test]
fn czech_restarts_like_a_fresh_game() {
    fmjd64(Variant::Czech, 0xC2);
}
