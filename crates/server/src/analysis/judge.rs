//! Judging moves: a score becomes an expected result by a logistic curve, one per variant,
//! and a move is an inaccuracy, a mistake or a blunder by how much of the mover's expected
//! result it gave away. Pure, unit-tested here.
//!
//! The curve: `E(s) = 1 / (1 + exp(-s / scale))`, `s` the engine's score for the mover in
//! hundredths of a man, a forced win 1 and a forced loss 0. The scale is the variant's,
//! the one its evaluation was fitted with on our engine's self-play: see [`Curve::of`]
//! and `docs/protocol.md`.

use bot::BITBASE_WIN;

/// Scores from here on are wins: forced in the search ([`bot::WIN_BOUND`] and up) or
/// known from the endgame tables ([`BITBASE_WIN`] less the plies to get there and the
/// distance to conversion, a few hundred at most; no evaluation comes near).
const TABLE_WIN_BOUND: i32 = BITBASE_WIN - 1_000;
use draughts::{Color, Variant};

/// The logistic curve from a score to an expected result, for one variant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Curve {
    scale: f64,
}

impl Curve {
    /// The variant's curve: the engine's own, the scale its evaluation was fitted with
    /// ([`bot::result_scale`]: Texel tuning of the weights on 600 to 1,500 self-play games
    /// per variant, so that `E(eval)` predicts the results; docs/engine.md). From
    /// Brazilian's 128 (a man up is an expected 0.69) to American's 391 (0.56): the
    /// variants where a man up is most often drawn have the flattest curves.
    pub fn of(variant: Variant) -> Curve {
        Curve {
            scale: bot::result_scale(variant),
        }
    }

    /// The scale in hundredths of a man: the score that is an expected result of
    /// `1 / (1 + e^-1)` (about 0.73).
    pub fn scale(self) -> f64 {
        self.scale
    }

    /// The expected result (0 to 1) for `side` of a position worth `value`.
    pub fn expected(self, value: Value, side: Color) -> f64 {
        match value {
            Value::Win(c) if c == side => 1.0,
            Value::Win(_) => 0.0,
            Value::Score(white) => {
                let s = if side == Color::White { white } else { -white };
                1.0 / (1.0 + (-f64::from(s) / self.scale).exp())
            }
        }
    }
}

/// Lost expected result (0 to 1) from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.05;
/// ... a mistake.
pub const MISTAKE: f64 = 0.10;
/// ... a blunder.
pub const BLUNDER: f64 = 0.15;

/// A position's value as the engine sees it, for nobody in particular.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// Hundredths of a man from White's side.
    Score(i32),
    /// A forced win for this side.
    Win(Color),
}

impl Value {
    /// The value of an engine score for `mover` (the side to move of the searched
    /// position): beyond a forced win's or a table win's bound, a win or a loss.
    pub fn from_search(score: i32, mover: Color) -> Value {
        if score >= TABLE_WIN_BOUND {
            Value::Win(mover)
        } else if score <= -TABLE_WIN_BOUND {
            Value::Win(mover.other())
        } else if mover == Color::White {
            Value::Score(score)
        } else {
            Value::Score(-score)
        }
    }
}

/// How bad a move was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Judgement {
    /// Gave away at least `INACCURACY` (0.05) of the expected result.
    Inaccuracy,
    /// At least `MISTAKE` (0.10).
    Mistake,
    /// At least `BLUNDER` (0.15).
    Blunder,
}

impl Judgement {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PDN move suffix: `?!`, `?`, `??`.
    pub fn suffix(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }

    /// From the wire name.
    pub fn from_name(name: &str) -> Option<Judgement> {
        Some(match name {
            "inaccuracy" => Judgement::Inaccuracy,
            "mistake" => Judgement::Mistake,
            "blunder" => Judgement::Blunder,
            _ => return None,
        })
    }
}

/// The judgement of a move by `mover` from a position worth `before` (the engine's best
/// line) to one worth `after`, on the variant's `curve`. The engine's own move, and the
/// only legal move, are never
/// judged: a deeper look at the next position may see more than the search before it, but
/// that is no fault of the mover.
pub fn judge(
    curve: Curve,
    mover: Color,
    before: Value,
    after: Value,
    engine_move: bool,
) -> Option<Judgement> {
    if engine_move {
        return None;
    }
    let lost = curve.expected(before, mover) - curve.expected(after, mover);
    if lost >= BLUNDER {
        Some(Judgement::Blunder)
    } else if lost >= MISTAKE {
        Some(Judgement::Mistake)
    } else if lost >= INACCURACY {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// One move's accuracy in per cent from the expected result lost (lichess's curve on
/// win chances: 100 for no loss, about 65 for a mistake's 10 %).
pub fn move_accuracy(lost: f64) -> f64 {
    let pct = (lost.max(0.0)) * 100.0;
    (103.1668 * (-0.04354 * pct).exp() - 3.1669).clamp(0.0, 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bot::WIN_BOUND;

    #[test]
    fn scores_become_values_for_white() {
        assert_eq!(Value::from_search(50, Color::Black), Value::Score(-50));
        assert_eq!(Value::from_search(50, Color::White), Value::Score(50));
        assert_eq!(
            Value::from_search(WIN_BOUND + 5, Color::Black),
            Value::Win(Color::Black)
        );
        assert_eq!(
            Value::from_search(-WIN_BOUND, Color::Black),
            Value::Win(Color::White)
        );
        // Known from the endgame tables.
        assert_eq!(
            Value::from_search(BITBASE_WIN - 60, Color::White),
            Value::Win(Color::White)
        );
        assert_eq!(
            Value::from_search(-(BITBASE_WIN - 60), Color::White),
            Value::Win(Color::Black)
        );
        assert_eq!(Value::from_search(900, Color::White), Value::Score(900));
    }

    #[test]
    fn each_variant_has_its_curve() {
        let intl = Curve::of(Variant::International);
        let k = bot::result_scale(Variant::International);
        assert!((intl.scale() - k).abs() < 1e-9, "the weight file's k");
        let e = intl.expected(Value::Score(100), Color::White);
        assert!((e - 0.67).abs() < 0.01, "{e}");
        let black = intl.expected(Value::Score(100), Color::Black);
        assert!((e + black - 1.0).abs() < 1e-12);
        assert_eq!(intl.expected(Value::Win(Color::Black), Color::Black), 1.0);
        assert_eq!(intl.expected(Value::Win(Color::Black), Color::White), 0.0);
        for v in Variant::ALL {
            let man = Curve::of(v).expected(Value::Score(100), Color::White);
            assert!(man > 0.55 && man < 0.72, "{v}: {man}");
        }
        // A man up is drawn more often in American than in Russian.
        assert!(Curve::of(Variant::American).scale() > Curve::of(Variant::Russian).scale());
    }

    #[test]
    fn thresholds() {
        let w = Color::White;
        let intl = Curve::of(Variant::International);
        let j = |b, a| judge(intl, w, Value::Score(b), Value::Score(a), false);
        assert_eq!(j(0, -15), None);
        assert_eq!(j(0, -35), Some(Judgement::Inaccuracy));
        assert_eq!(j(0, -65), Some(Judgement::Mistake));
        assert_eq!(j(0, -100), Some(Judgement::Blunder));
        // Far ahead, a man less still wins: not a blunder.
        assert_eq!(j(900, 800), None);
        // Throwing away a forced win is.
        assert_eq!(
            judge(intl, w, Value::Win(w), Value::Score(0), false),
            Some(Judgement::Blunder)
        );
        assert_eq!(
            judge(intl, w, Value::Win(w), Value::Score(-900), true),
            None
        );
        // The same man lost weighs less where a man up is drawn more often.
        let american = Curve::of(Variant::American);
        let ja = |b, a| judge(american, w, Value::Score(b), Value::Score(a), false);
        assert_eq!(ja(0, -65), None);
        assert_eq!(ja(0, -100), Some(Judgement::Inaccuracy));
        assert_eq!(ja(0, -200), Some(Judgement::Mistake));
    }

    #[test]
    fn in_every_variant_a_man_lost_counts_and_three_are_a_blunder() {
        let w = Color::White;
        for v in Variant::ALL {
            let c = Curve::of(v);
            let j = |b, a| judge(c, w, Value::Score(b), Value::Score(a), false);
            assert!(j(0, -100).is_some(), "{v}");
            assert_eq!(j(0, -300), Some(Judgement::Blunder), "{v}");
            assert_eq!(j(0, -10), None, "{v}");
        }
    }

    #[test]
    fn accuracy_curve() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.10) < 70.0 && move_accuracy(0.10) > 60.0);
        assert_eq!(move_accuracy(1.0), 0.0);
    }
}
