//! FEN and move text built from the characters they are made of, in random
//! order: the parsers reject or accept them but never panic, and whatever
//! FEN is accepted writes back to the same position.

mod common;

use common::SplitMix64;
use draughts::{Position, Rules, Variant};

const ALPHABET: &[u8] = b"WBwbK:,-x.0123456789abcdefghijHF \"";

/// Up to 23 characters of [`ALPHABET`] after `prefix`.
fn text(rng: &mut SplitMix64, prefix: &str) -> String {
    let len = rng.below(24);
    let mut s = prefix.to_string();
    for _ in 0..len {
        s.push(char::from(ALPHABET[rng.below(ALPHABET.len())]));
    }
    s
}

#[test]
fn random_fens_never_panic_and_round_trip() {
    let mut rng = SplitMix64(7);
    let mut accepted = 0;
    for variant in Variant::ALL {
        let rules = Rules::new(variant);
        for i in 0..3000 {
            let prefix = ["", "W:W", "B:B", "W:WK"][i % 4];
            let fen = text(&mut rng, prefix);
            if let Ok(pos) = Position::from_fen(rules, &fen) {
                accepted += 1;
                let again = Position::from_fen(rules, &pos.to_fen()).expect("own FEN parses");
                assert_eq!(again, pos, "{variant} {fen:?}");
            }
        }
    }
    assert!(
        accepted > 100,
        "the generator must reach valid FENs too ({accepted})"
    );
}

#[test]
fn random_move_text_never_panics() {
    let mut rng = SplitMix64(11);
    for variant in Variant::ALL {
        let pos = Position::new(Rules::new(variant));
        for _ in 0..3000 {
            let text = text(&mut rng, "");
            if let Ok(m) = pos.parse_move(&text) {
                assert!(pos.legal_moves().contains(&m), "{variant} {text:?}");
            }
        }
    }
}
