//! FEN and move text built from the characters they are made of, in random
//! order: the parsers reject or accept them but never panic, and whatever
//! FEN is accepted writes back to the same position.

use draughts::{Position, Rules, Variant};

const ALPHABET: &[u8] = b"WBwbK:,-x.0123456789abcdefghijHF \"";

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn text(&mut self, prefix: &str) -> String {
        let len = (self.next() % 24) as usize;
        let mut s = prefix.to_string();
        for _ in 0..len {
            s.push(char::from(
                ALPHABET[(self.next() % ALPHABET.len() as u64) as usize],
            ));
        }
        s
    }
}

#[test]
fn random_fens_never_panic_and_round_trip() {
    let mut rng = Rng(7);
    let mut accepted = 0;
    for variant in Variant::ALL {
        let rules = Rules::new(variant);
        for i in 0..3000 {
            let prefix = ["", "W:W", "B:B", "W:WK"][i % 4];
            let fen = rng.text(prefix);
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
    let mut rng = Rng(11);
    for variant in Variant::ALL {
        let pos = Position::new(Rules::new(variant));
        for _ in 0..3000 {
            let text = rng.text("");
            if let Ok(m) = pos.parse_move(&text) {
                assert!(pos.legal_moves().contains(&m), "{variant} {text:?}");
            }
        }
    }
}
