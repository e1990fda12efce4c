//! Scores in men: the engine's internal unit and the one shown.
//!
//! The search and the evaluation count in the evaluation's own unit: its
//! weight files fix a man's *material* weight at 100 in the opening, but a
//! man on the board also carries its square's, its pairs' and its
//! structure's weights, and the trade-down bonus, so that a clean extra man
//! in a quiet middle game is worth 224 (International) to 437 (Spanish)
//! internal points depending on the variant (measured below: `MAN`; a
//! club saw +6.11 for two men up). Everything shown or sent to a
//! user (the Hub `info` lines, `draughts think --json`, the server's
//! analysis) goes through [`centimen`], so that such a man reads 1.00
//! (100 hundredths) in every variant. Forced wins and losses (beyond
//! [`WIN_BOUND`](crate::WIN_BOUND)) and the endgame tables' wins (beyond
//! [`BITBASE_WIN`]` - 1000`) are passed through unchanged, so they stay
//! distinct from any evaluation.
//!
//! The engine's own decisions (the levels' margins, contempt, the
//! aspiration windows, the fitted result curve of
//! [`result_scale`](crate::result_scale)) stay in the internal unit.
//!
//! `MAN` is measured, per variant, by `man_value` in this module's tests:
//! quiet middle-game positions from random play (8 to 30 plies, men only,
//! equal material, no capture for either side), every man whose removal
//! leaves the position quiet taken off in turn, and the mean change of the
//! static evaluation for the side that keeps it. Refitting the weights
//! changes it; the test `a_clean_extra_man_reads_one` then fails and prints
//! the new value.

use crate::search::BITBASE_WIN;
use draughts::Variant;

/// Internal points per man (a clean extra man in a quiet middle game), per
/// variant, in [`Variant::ALL`]'s order (measured: see the module docs).
const MAN: [(Variant, i32); 7] = [
    (Variant::American, 374),
    (Variant::Russian, 312),
    (Variant::Brazilian, 324),
    (Variant::Spanish, 437),
    (Variant::Italian, 349),
    (Variant::Czech, 408),
    (Variant::International, 224),
];

/// The internal score of one man, in `variant`, in a quiet middle game.
#[must_use]
pub fn man_value(variant: Variant) -> i32 {
    MAN.iter()
        .find(|(v, _)| *v == variant)
        .map_or(100, |&(_, m)| m)
}

/// Scores at least this far from 0 are wins from the search or the tables:
/// [`centimen`] keeps them as they are.
const KEPT: i32 = BITBASE_WIN - 1_000;

/// An engine score in hundredths of a man (a clean extra man is 100) for
/// display: evaluations are scaled by [`man_value`] (rounded to nearest)
/// and clamped below ±9,000 (90 men); forced wins and losses (±29,000 and
/// beyond, see [`WIN_BOUND`](crate::WIN_BOUND)) and table wins (±19,000 and
/// beyond) are returned unchanged.
#[must_use]
pub fn centimen(variant: Variant, score: i32) -> i32 {
    if score.abs() >= KEPT {
        return score;
    }
    let m = man_value(variant);
    let scaled =
        (i64::from(score) * 100 + i64::from(m / 2) * i64::from(score.signum())) / i64::from(m);
    scaled.clamp(-8_999, 8_999) as i32
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Eval;
    use draughts::{Bitboard, Color, Position, Rules, SplitMix64};

    /// Quiet middle-game positions of `variant` with equal material (men
    /// only), from random play with a fixed seed.
    fn quiet_positions(variant: Variant, n: usize, seed: u64) -> Vec<Position> {
        let mut rng = SplitMix64::new(seed);
        let mut out = Vec::new();
        let men = u32::from(variant.men_per_side());
        while out.len() < n {
            let mut pos = Position::new(Rules::new(variant));
            let plies = 8 + rng.below(23);
            for _ in 0..plies {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.below(moves.len() as u64) as usize];
                pos.play_unchecked(&m);
            }
            let (w, b) = (pos.pieces(Color::White).0, pos.pieces(Color::Black).0);
            let count = w.count_ones();
            if pos.kings().0 == 0 && count == b.count_ones() && count + 4 >= men && quiet(&pos) {
                out.push(pos);
            }
        }
        out
    }

    fn quiet(pos: &Position) -> bool {
        !pos.legal_moves().iter().any(|m| m.is_capture()) && !pos.pass().has_capture()
    }

    /// The mean change of the static evaluation, for the side that keeps
    /// it, of every man of `pos` whose removal leaves the position quiet.
    fn man_gain(e: &Eval, pos: &Position) -> Option<f64> {
        let base = e.evaluate(pos);
        let (mut sum, mut n) = (0i64, 0i64);
        for side in [Color::White, Color::Black] {
            let mut b = pos.pieces(side).0;
            while b != 0 {
                let bit = b & b.wrapping_neg();
                b &= b - 1;
                let (mut w, mut bl) = (pos.pieces(Color::White).0, pos.pieces(Color::Black).0);
                if side == Color::White {
                    w &= !bit;
                } else {
                    bl &= !bit;
                }
                let Ok(less) = Position::from_pieces(
                    *pos.rules(),
                    Bitboard(w),
                    Bitboard(bl),
                    Bitboard(0),
                    pos.turn(),
                ) else {
                    continue;
                };
                if !quiet(&less) {
                    continue;
                }
                let after = e.evaluate(&less);
                // For the side to move: a man of its own taken off loses
                // `base - after`; one of the opponent's gains `after - base`.
                let gain = if side == pos.turn() {
                    base - after
                } else {
                    after - base
                };
                sum += i64::from(gain);
                n += 1;
            }
        }
        (n > 0).then(|| sum as f64 / n as f64)
    }

    /// The measured internal value of a man in `variant` (see the module docs).
    fn measured(variant: Variant, positions: usize) -> (f64, Vec<f64>) {
        let e = Eval::new(variant);
        let gains: Vec<f64> = quiet_positions(variant, positions, 36)
            .iter()
            .filter_map(|p| man_gain(&e, p))
            .collect();
        let mean = gains.iter().sum::<f64>() / gains.len() as f64;
        (mean, gains)
    }

    #[test]
    fn a_clean_extra_man_reads_one() {
        for v in Variant::ALL {
            let (mean, gains) = measured(v, 200);
            let m = f64::from(man_value(v));
            // The constant is the measurement (within a point).
            assert!(
                (mean - m).abs() <= 1.5,
                "{v}: measured {mean:.1}, constant {m}"
            );
            // On each of a few positions, one man more reads 0.80 to 1.25.
            for (i, g) in gains.iter().take(10).enumerate() {
                let shown = f64::from(centimen(v, g.round() as i32)) / 100.0;
                assert!((0.8..=1.25).contains(&shown), "{v} position {i}: {shown}");
            }
        }
    }

    #[test]
    fn wins_are_kept_apart() {
        for v in Variant::ALL {
            let win = crate::WIN - 7;
            assert_eq!(centimen(v, win), win);
            assert_eq!(centimen(v, -win), -win);
            let table = BITBASE_WIN - 40;
            assert_eq!(centimen(v, table), table);
            assert_eq!(centimen(v, -table), -table);
            // The largest evaluation stays below both.
            assert!(centimen(v, KEPT - 1) < 9_000);
            assert_eq!(centimen(v, 0), 0);
            assert_eq!(centimen(v, man_value(v)), 100);
            assert_eq!(centimen(v, -man_value(v)), -100);
        }
    }

    #[test]
    #[ignore = "prints the measurement; run with --ignored --nocapture"]
    fn print_man_values() {
        for v in Variant::ALL {
            let (mean, gains) = measured(v, 200);
            let mut sorted = gains.clone();
            sorted.sort_by(f64::total_cmp);
            println!(
                "{v}: {mean:.1} over {} positions (min {:.0}, median {:.0}, max {:.0})",
                gains.len(),
                sorted[0],
                sorted[sorted.len() / 2],
                sorted[sorted.len() - 1]
            );
        }
    }
}
