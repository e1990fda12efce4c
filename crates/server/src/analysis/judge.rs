//! Judging moves: a score becomes an expected result by a logistic curve, and a move is an
//! inaccuracy, a mistake or a blunder by how much of the mover's expected result it gave
//! away. Pure, unit-tested here.
//!
//! The curve: `E(s) = 1 / (1 + exp(-s / SCALE))`, `s` the engine's score for the mover in
//! hundredths of a man, a forced win 1 and a forced loss 0. [`SCALE`] is chosen, not fitted:
//! see its comment and `docs/protocol.md`.

use bot::WIN_BOUND;
use draughts::Color;

/// The logistic curve's scale in hundredths of a man: a man ahead (100) is an expected
/// result of 0.75 (`100 / ln 3`). Chosen, not fitted on self-play: a man up is a clear
/// advantage in every variant but often not a win against good defence (many draughts
/// endings a man up are drawn, more so with flying kings), so the curve is not as steep as
/// chess engines' (lichess: a pawn is about 0.59). A first fit on our own self-play
/// (`cargo bench -p damka-server --bench analysis -- --fit 8`, too few games to trust)
/// gave a flatter curve still (about 300): see `docs/performance.md#analysis`.
pub const SCALE: f64 = 91.0;

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
    /// position): beyond [`WIN_BOUND`] a forced win or loss.
    pub fn from_search(score: i32, mover: Color) -> Value {
        if score >= WIN_BOUND {
            Value::Win(mover)
        } else if score <= -WIN_BOUND {
            Value::Win(mover.other())
        } else if mover == Color::White {
            Value::Score(score)
        } else {
            Value::Score(-score)
        }
    }

    /// The expected result (0 to 1) for `side`.
    pub fn expected(self, side: Color) -> f64 {
        match self {
            Value::Win(c) if c == side => 1.0,
            Value::Win(_) => 0.0,
            Value::Score(white) => {
                let s = if side == Color::White { white } else { -white };
                1.0 / (1.0 + (-f64::from(s) / SCALE).exp())
            }
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
/// line) to one worth `after`. The engine's own move, and the only legal move, are never
/// judged: a deeper look at the next position may see more than the search before it, but
/// that is no fault of the mover.
pub fn judge(mover: Color, before: Value, after: Value, engine_move: bool) -> Option<Judgement> {
    if engine_move {
        return None;
    }
    let lost = before.expected(mover) - after.expected(mover);
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
    }

    #[test]
    fn a_man_is_three_to_one() {
        let e = Value::Score(100).expected(Color::White);
        assert!((e - 0.75).abs() < 0.01, "{e}");
        assert!((Value::Score(100).expected(Color::Black) - 0.25).abs() < 0.01);
        assert_eq!(Value::Win(Color::Black).expected(Color::Black), 1.0);
    }

    #[test]
    fn thresholds() {
        let w = Color::White;
        let j = |b, a| judge(w, Value::Score(b), Value::Score(a), false);
        assert_eq!(j(0, -10), None);
        assert_eq!(j(0, -25), Some(Judgement::Inaccuracy));
        assert_eq!(j(0, -45), Some(Judgement::Mistake));
        assert_eq!(j(0, -100), Some(Judgement::Blunder));
        // Far ahead, a man less still wins: not a blunder.
        assert_eq!(j(900, 800), None);
        // Throwing away a forced win is.
        assert_eq!(
            judge(w, Value::Win(w), Value::Score(0), false),
            Some(Judgement::Blunder)
        );
        assert_eq!(judge(w, Value::Win(w), Value::Score(-900), true), None);
    }

    #[test]
    fn accuracy_curve() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(move_accuracy(0.10) < 70.0 && move_accuracy(0.10) > 60.0);
        assert_eq!(move_accuracy(1.0), 0.0);
    }
}
