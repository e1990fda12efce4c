//! Property test over seeded random playouts in every variant: every
//! generated move plays, perft(1) equals the number of legal moves, FEN and
//! move text round-trip, and a [`Game`] follows the same positions.

mod common;

use common::SplitMix64;
use draughts::{Game, Position, Rules, Variant, perft};

const GAMES_PER_VARIANT: u64 = 20;
const MAX_PLIES: usize = 150;

fn check_position(pos: &Position) {
    let fen = pos.to_fen();
    let again = Position::from_fen(*pos.rules(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    assert_eq!(&again, pos, "FEN round trip: {fen}");
    let legal = pos.legal_moves();
    assert_eq!(perft(pos, 1), legal.len() as u64, "{fen}");
    assert_eq!(pos.has_legal_moves(), !legal.is_empty(), "{fen}");
    for m in &legal {
        let text = pos.move_to_string(m);
        let parsed = pos
            .parse_move(&text)
            .unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
        assert_eq!(&parsed, m, "{fen} {text}");
        assert!(
            parsed.path().eq(m.path()),
            "{fen} {text}: the written route is kept"
        );
        let next = pos.play(m).unwrap_or_else(|e| panic!("{fen} {text}: {e}"));
        assert_ne!(next.turn(), pos.turn());
        let moved = next.occupied().count() + m.captures().count();
        assert_eq!(moved, pos.occupied().count(), "{fen} {text}: material");
    }
}

fn playouts(rules: Rules, seed: u64) {
    let mut rng = SplitMix64(seed);
    for _ in 0..GAMES_PER_VARIANT {
        let mut game = Game::new(Position::new(rules));
        for _ in 0..MAX_PLIES {
            let pos = game.position().clone();
            check_position(&pos);
            if game.outcome().is_some() {
                break;
            }
            let legal = pos.legal_moves();
            let m = legal[rng.below(legal.len())];
            game.play(&m).expect("generated move plays");
            assert_eq!(game.position(), &pos.play(&m).expect("legal"));
        }
        let replayed = Game::replay(rules, &game.initial().to_fen(), &game_texts(&game))
            .expect("a game replays from its move texts");
        assert_eq!(replayed.position(), game.position());
        assert_eq!(replayed.outcome(), game.outcome());
        assert_eq!(replayed.counters(), game.counters());
    }
}

fn game_texts(game: &Game) -> Vec<String> {
    let mut pos = game.initial().clone();
    game.moves()
        .iter()
        .map(|m| {
            let text = pos.move_to_string(m);
            pos.play_unchecked(m);
            text
        })
        .collect()
}

#[test]
fn random_playouts_in_every_variant() {
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        playouts(Rules::new(variant), 1000 + i as u64);
    }
}

#[test]
fn random_playouts_with_optional_capture() {
    for (i, variant) in Variant::ALL.into_iter().enumerate() {
        if let Ok(rules) = Rules::with_capture_optional(variant, true) {
            playouts(rules, 2000 + i as u64);
        }
    }
}
