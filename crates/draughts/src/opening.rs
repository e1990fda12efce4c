//! Random openings (spec §1.4) from a small seedable generator.

use crate::{Move, Position, Rules};

/// SplitMix64: tiny, fast and good enough to pick opening moves (and the
/// computer's and the tools' seeded choices); seeded so a game's opening can
/// be reproduced.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    /// The generator from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`0` when `n` is `0`), by rejection so no index is
    /// favoured.
    pub fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        let zone = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < zone {
                return x % n;
            }
        }
    }
}

/// Plies of a random opening.
const OPENING_PLIES: usize = 4;

/// Four plies from the start position, each drawn uniformly among the legal
/// moves, drawn again from the start if any of them is a capture (material
/// stays equal). The same `rules` and `seed` give the same opening.
#[must_use]
pub fn random_opening(rules: Rules, seed: u64) -> Vec<Move> {
    let mut rng = SplitMix64(seed);
    'draw: loop {
        let mut pos = Position::new(rules);
        let mut moves = Vec::with_capacity(OPENING_PLIES);
        for _ in 0..OPENING_PLIES {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                continue 'draw;
            }
            let m = legal[rng.below(legal.len() as u64) as usize];
            if m.is_capture() {
                continue 'draw;
            }
            pos.play_unchecked(&m);
            moves.push(m);
        }
        return moves;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;

    #[test]
    fn openings_are_legal_quiet_and_reproducible() {
        for v in Variant::ALL {
            let rules = Rules::new(v);
            for seed in 0..20 {
                let moves = random_opening(rules, seed);
                assert_eq!(moves.len(), OPENING_PLIES);
                assert_eq!(moves, random_opening(rules, seed));
                let mut pos = Position::new(rules);
                for m in &moves {
                    assert!(!m.is_capture());
                    pos = pos.play(m).expect("legal opening move");
                }
            }
        }
        let a = random_opening(Rules::new(Variant::International), 1);
        assert!((2..50).any(|s| random_opening(Rules::new(Variant::International), s) != a));
    }
}
