//! The figures of a match: score with its 95% error bar, the Elo difference
//! it stands for, and a sequential probability ratio test (SPRT).

/// Wins, draws and losses of the first engine.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// What the SPRT says so far.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// `elo1` accepted: the first engine is stronger by at least about `elo1`.
    H1,
    /// `elo0` accepted: it is not stronger by `elo1`.
    H0,
    /// More games are needed.
    Continue,
}

/// The expected score of an Elo difference (logistic).
fn expected(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score.
pub(crate) fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

impl Tally {
    pub(crate) fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The mean score per game (a draw is a half).
    pub(crate) fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / n
    }

    /// The variance of one game's score.
    fn variance(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n
    }

    /// Half the width of the 95% confidence interval of the score.
    pub(crate) fn error_95(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        1.96 * (self.variance() / n).sqrt()
    }

    /// The log-likelihood ratio of `elo1` against `elo0` (the normal
    /// approximation of the generalised SPRT on game scores).
    pub(crate) fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let var = self.variance();
        if self.games() == 0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (expected(elo0), expected(elo1));
        f64::from(self.games()) * (s1 - s0) * (2.0 * self.score() - s0 - s1) / (2.0 * var)
    }

    /// The SPRT's verdict with error rates `alpha` (false H1) and `beta`
    /// (false H0), and its bounds.
    pub(crate) fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> (Verdict, f64, f64) {
        let lower = (beta / (1.0 - alpha)).ln();
        let upper = ((1.0 - beta) / alpha).ln();
        let llr = self.llr(elo0, elo1);
        let verdict = if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        };
        (verdict, lower, upper)
    }

    pub(crate) fn add(&mut self, other: Tally) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, draws: u32, losses: u32) -> Tally {
        Tally {
            wins,
            draws,
            losses,
        }
    }

    #[test]
    fn score_and_error_bar() {
        let t = tally(10, 20, 10);
        assert!((t.score() - 0.5).abs() < 1e-12);
        // Variance 0.125 per game over 40 games: 1.96 * sqrt(0.125 / 40).
        assert!((t.error_95() - 0.109_567).abs() < 1e-5, "{}", t.error_95());
        let t = tally(30, 10, 0);
        assert!((t.score() - 0.875).abs() < 1e-12);
        assert!(t.error_95() > 0.0 && t.error_95() < 0.1);
    }

    #[test]
    fn elo_of_scores() {
        assert!(elo(0.5).abs() < 1e-9);
        assert!((elo(0.75) - 190.848).abs() < 0.01);
        assert!((elo(0.25) + 190.848).abs() < 0.01);
        assert!((expected(elo(0.64)) - 0.64).abs() < 1e-9);
    }

    #[test]
    fn sprt_decides_clear_results_and_waits_on_close_ones() {
        // 0 vs 20 Elo, 5% errors: bounds about -2.94 and 2.94.
        let (v, lo, hi) = tally(60, 80, 20).sprt(0.0, 20.0, 0.05, 0.05);
        assert_eq!(v, Verdict::H1);
        assert!((lo + 2.944).abs() < 0.01 && (hi - 2.944).abs() < 0.01);
        assert_eq!(tally(20, 80, 60).sprt(0.0, 20.0, 0.05, 0.05).0, Verdict::H0);
        assert_eq!(
            tally(5, 10, 5).sprt(0.0, 20.0, 0.05, 0.05).0,
            Verdict::Continue
        );
        assert_eq!(tally(0, 0, 0).llr(0.0, 20.0), 0.0);
    }
}
