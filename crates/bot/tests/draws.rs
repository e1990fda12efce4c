//! The draw rules in the search: a threefold repetition or a reached move
//! limit scores 0; the losing side takes such a draw and the winning side
//! steps around it.

use bot::{Engine, Limits};
use draughts::{Game, Move, Position, Rules, Variant};
use std::sync::atomic::AtomicBool;

fn search(game: &Game, depth: u32) -> bot::SearchResult {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Engine::new(16)
        .search(game, &limits, &stop)
        .expect("a move")
}

fn play(game: &mut Game, text: &str) {
    let m = game.position().parse_move(text).expect("legal move");
    game.play(&m).expect("legal move");
}

/// American, two kings against one (a win): White shuffles 29-25-29, Black
/// 4-8-4; the start position has occurred twice after four plies.
fn shuffled(plies: usize) -> Game {
    let pos = Position::from_fen(Rules::new(Variant::American), "W:WK29,K30:BK4").expect("fen");
    let mut game = Game::new(pos);
    for text in ["29-25", "4-8", "25-29", "8-4", "29-25", "4-8", "25-29"]
        .into_iter()
        .take(plies)
    {
        play(&mut game, text);
    }
    game
}

#[test]
fn the_losing_side_takes_a_threefold_repetition() {
    let game = shuffled(7);
    // 8-4 brings the start position back a third time.
    let mut after = game.clone();
    play(&mut after, "8-4");
    assert_eq!(
        after.outcome().map(|o| o.reason),
        Some(draughts::Reason::Threefold)
    );
    let r = search(&game, 8);
    assert_eq!(game.position().move_to_string(&r.mv), "8-4");
    assert_eq!(r.score, 0);
    // Without the history the same position is lost for Black.
    let fresh = Game::new(game.position().clone());
    assert!(search(&fresh, 8).score < -50);
}

#[test]
fn the_winning_side_avoids_a_repetition_draw() {
    let game = shuffled(6);
    // 25-29 would let Black repeat the start position a third time.
    let r = search(&game, 8);
    assert_ne!(game.position().move_to_string(&r.mv), "25-29");
    assert!(r.score > 50, "{}", r.score);
}

struct SplitMix64(u64);

impl SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// American, two kings against one, after 79 plies of king moves without a
/// capture or a repeated position: Black's next move reaches the 40-move
/// limit.
fn near_the_move_limit() -> Game {
    let rules = Rules::new(Variant::American);
    let start = Position::from_fen(rules, "W:WK29,K32:BK1").expect("fen");
    for seed in 0.. {
        let mut rng = SplitMix64(seed);
        let mut game = Game::new(start.clone());
        let mut seen = vec![start.clone()];
        while game.moves().len() < 79 {
            let pos = game.position().clone();
            let quiet: Vec<Move> = pos
                .legal_moves()
                .iter()
                .filter(|m| {
                    let next = pos.play(m).expect("legal");
                    !m.is_capture() && !next.has_capture() && !seen.contains(&next)
                })
                .copied()
                .collect();
            if quiet.is_empty() {
                break;
            }
            let m = quiet[rng.below(quiet.len())];
            game.play(&m).expect("legal");
            seen.push(game.position().clone());
        }
        if game.moves().len() == 79 && game.outcome().is_none() {
            return game;
        }
    }
    unreachable!()
}

#[test]
fn a_reached_move_limit_scores_a_draw() {
    let game = near_the_move_limit();
    let counter = game.counters()[0];
    assert_eq!(
        (counter.rule, counter.moves, counter.limit),
        ("forty_moves", 39, 40)
    );
    // Every Black move reaches the limit: the game is drawn, not lost.
    for m in &game.position().legal_moves() {
        let mut after = game.clone();
        after.play(m).expect("legal");
        assert_eq!(
            after.outcome().map(|o| o.reason),
            Some(draughts::Reason::MoveLimit)
        );
    }
    let r = search(&game, 6);
    assert_eq!(r.score, 0);
    // The same position without the count is lost for Black.
    let fresh = Game::new(game.position().clone());
    assert!(search(&fresh, 6).score < -50);
}

#[test]
fn contempt_moves_the_score_of_a_draw() {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let with = |game: &Game, contempt: i32| {
        let mut engine = Engine::new(16);
        engine.set_contempt(contempt);
        engine.search(game, &limits, &stop).expect("a move")
    };
    // Every move reaches the move limit: the draw is worth -contempt to the
    // searching side, whichever way contempt points.
    let game = near_the_move_limit();
    assert_eq!(with(&game, 30).score, -30);
    assert_eq!(with(&game, -20).score, 20);
    // The repetition too, and the losing side still takes it (the other
    // moves lose by far more than the contempt).
    let game = shuffled(7);
    let r = with(&game, 30);
    assert_eq!(game.position().move_to_string(&r.mv), "8-4");
    assert_eq!(r.score, -30);
    // Beyond 500 (more than a man in every variant) either way it is clamped.
    assert_eq!(with(&near_the_move_limit(), 900).score, -500);
}
