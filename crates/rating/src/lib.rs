//! Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013), the way lichess and
//! lidraughts use it: every rated game is a rating period of its own, and between games a
//! player's rating deviation (RD) grows with the time since their last rated game.
//!
//! Values are kept on the Glicko scale (rating 1500, RD 350) and converted to the
//! Glicko-2 scale (μ, φ) only inside [`Glicko2::rate`]. Nothing is rounded here: the store keeps
//! the exact values, the wire shows them rounded.
//!
//! ```
//! use damka_rating::{Glicko2, Outcome, Rating};
//!
//! let g = Glicko2::default();
//! let (white, black) = g.game(Rating::NEW, Rating::NEW, Outcome::Win);
//! assert_eq!(white.rating.round(), 1662.0);
//! assert_eq!(black.rating.round(), 1338.0);
//! assert!(white.provisional());
//! ```

/// The Glicko-2 scale factor: `μ = (r − 1500) / 173.7178`.
const SCALE: f64 = 173.717_8;

/// Rating, deviation and volatility of a new player.
const NEW_RATING: f64 = 1500.0;
const NEW_RD: f64 = 350.0;
const NEW_VOLATILITY: f64 = 0.06;

/// The RD below which a rating is established ("provisional" while at or above it).
pub const PROVISIONAL_RD: f64 = 110.0;

/// The most an RD grows to (a new player's).
pub const MAX_RD: f64 = NEW_RD;

/// Rating periods per day of absence (lichess's figure): the RD grows as if this many
/// empty periods passed each day.
pub const PERIODS_PER_DAY: f64 = 0.21436;

/// Convergence tolerance of the volatility iteration (the paper's ε).
const EPSILON: f64 = 0.000_001;

/// A player's rating in one variant.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rating {
    /// The rating (1500 for a new player).
    pub rating: f64,
    /// Its deviation, RD (350 for a new player).
    pub rd: f64,
    /// Its volatility σ (0.06 for a new player).
    pub volatility: f64,
}

impl Rating {
    /// A new player's rating: 1500, RD 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: NEW_RATING,
        rd: NEW_RD,
        volatility: NEW_VOLATILITY,
    };

    /// Whether it is provisional: RD of [`PROVISIONAL_RD`] or more.
    pub fn provisional(&self) -> bool {
        self.rd >= PROVISIONAL_RD
    }

    /// The rating after `days` without a rated game: the RD grows as over
    /// `days × PERIODS_PER_DAY` empty rating periods (φ′ = √(φ² + n·σ²)), never above
    /// [`MAX_RD`]; rating and volatility stay.
    pub fn after_days(&self, days: f64) -> Rating {
        if days.is_nan() || days <= 0.0 {
            return *self;
        }
        let phi = self.rd / SCALE;
        let periods = days * PERIODS_PER_DAY;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            rd: grown.min(MAX_RD),
            ..*self
        }
    }

    /// [`Rating::after_days`] between two times in Unix milliseconds (none if `since`
    /// is later than `now`).
    pub fn at(&self, since_ms: i64, now_ms: i64) -> Rating {
        let days = (now_ms.saturating_sub(since_ms)) as f64 / 86_400_000.0;
        self.after_days(days)
    }
}

impl Default for Rating {
    fn default() -> Rating {
        Rating::NEW
    }
}

/// A game's result for the first player named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The first player won.
    Win,
    /// A draw.
    Draw,
    /// The first player lost.
    Loss,
}

impl Outcome {
    /// The score: 1, ½ or 0.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The same result seen by the other player.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// The system's constant τ, which bounds how fast volatility changes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Glicko2 {
    /// τ (0.75 as lichess and lidraughts rate; the paper's example uses 0.5).
    pub tau: f64,
}

impl Default for Glicko2 {
    /// τ = 0.75.
    fn default() -> Glicko2 {
        Glicko2 { tau: 0.75 }
    }
}

/// `g(φ)` of the paper.
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

/// `E(μ, μj, φj)` of the paper: the expected score against opponent j.
fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// One rating period of `player` with `games` (each opponent's rating as it was at
    /// the start of the period, and the player's score against them). With no games the
    /// RD grows by one period. This is steps 2–8 of the paper, the volatility found by the
    /// Illinois algorithm (step 5.1–5.5).
    pub fn rate(&self, player: Rating, games: &[(Rating, f64)]) -> Rating {
        let mu = (player.rating - NEW_RATING) / SCALE;
        let phi = player.rd / SCALE;
        let sigma = player.volatility;
        if games.is_empty() {
            let grown = (phi * phi + sigma * sigma).sqrt() * SCALE;
            return Rating {
                rd: grown.min(MAX_RD),
                ..player
            };
        }
        // Step 3: the estimated variance v; step 4: the estimated improvement Δ.
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for (opp, score) in games {
            let mu_j = (opp.rating - NEW_RATING) / SCALE;
            let phi_j = opp.rd / SCALE;
            let e = expected(mu, mu_j, phi_j);
            let gj = g(phi_j);
            v_inv += gj * gj * e * (1.0 - e);
            sum += gj * (score - e);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // Step 5: the new volatility σ′.
        let a = (sigma * sigma).ln();
        let tau = self.tau;
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi * phi + v + ex;
            ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };
        let mut big_a = a;
        let mut big_b = if delta * delta > phi * phi + v {
            (delta * delta - phi * phi - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        // The Illinois iteration converges in a handful of steps; the bound only guards
        // against a non-finite input looping forever.
        for _ in 0..200 {
            if (big_b - big_a).abs() <= EPSILON {
                break;
            }
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        let sigma_new = (big_a / 2.0).exp();
        // Step 6: the pre-period deviation φ*; step 7: the new φ′ and μ′.
        let phi_star = (phi * phi + sigma_new * sigma_new).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        // Step 8: back to the Glicko scale.
        Rating {
            rating: mu_new * SCALE + NEW_RATING,
            rd: (phi_new * SCALE).min(MAX_RD),
            volatility: sigma_new,
        }
    }

    /// One game as its own rating period for both players (each rated against the
    /// other's rating from before the game); `outcome` is White's (the first player's).
    pub fn game(&self, white: Rating, black: Rating, outcome: Outcome) -> (Rating, Rating) {
        let w = self.rate(white, &[(black, outcome.score())]);
        let b = self.rate(black, &[(white, outcome.reversed().score())]);
        (w, b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, within: f64) -> bool {
        (a - b).abs() <= within
    }

    /// Glickman's worked example: a 1500/200/0.06 player, τ = 0.5, beats a 1400/30,
    /// loses to a 1550/100 and to a 1700/300: 1464.06 / 151.52 / 0.05999.
    #[test]
    fn the_papers_example() {
        let g = Glicko2 { tau: 0.5 };
        let player = Rating {
            rating: 1500.0,
            rd: 200.0,
            volatility: 0.06,
        };
        let opp = |rating, rd| Rating {
            rating,
            rd,
            volatility: 0.06,
        };
        let after = g.rate(
            player,
            &[
                (opp(1400.0, 30.0), 1.0),
                (opp(1550.0, 100.0), 0.0),
                (opp(1700.0, 300.0), 0.0),
            ],
        );
        assert!(close(after.rating, 1464.06, 0.01), "{after:?}");
        assert!(close(after.rd, 151.52, 0.01), "{after:?}");
        assert!(close(after.volatility, 0.05999, 0.000_01), "{after:?}");
    }

    /// Two new players after one decisive game (τ 0.75): the winner gains what the loser
    /// loses, both RDs fall from 350 to about 290. The figures are those of an
    /// independent implementation (Python, the paper's formulas).
    #[test]
    fn two_new_players_after_one_game() {
        let g = Glicko2::default();
        let (w, b) = g.game(Rating::NEW, Rating::NEW, Outcome::Win);
        assert!(close(w.rating, 1662.31, 0.01), "{w:?}");
        assert!(close(b.rating, 1337.69, 0.01), "{b:?}");
        assert!(close(w.rd, 290.32, 0.01), "{w:?}");
        assert!(close(b.rd, 290.32, 0.01), "{b:?}");
        assert!(close(w.volatility, 0.06, 0.0001), "{w:?}");
        assert!(close(w.rating - 1500.0, 1500.0 - b.rating, 1e-9));
        let (w, b) = g.game(Rating::NEW, Rating::NEW, Outcome::Draw);
        assert!(close(w.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
        assert!(w.rd < 350.0);
    }

    #[test]
    fn rd_grows_with_time_away_up_to_350() {
        let r = Rating {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
        };
        assert_eq!(r.after_days(0.0), r);
        assert_eq!(r.after_days(-3.0), r);
        let month = r.after_days(30.0);
        assert!(month.rd > 60.0 && month.rd < 110.0, "{month:?}");
        assert_eq!(month.rating, 1800.0);
        // φ′² = φ² + n σ²: after a year, n = 78.2 periods.
        let year = r.after_days(365.0);
        let phi = 60.0 / SCALE;
        let expect = (phi * phi + 365.0 * PERIODS_PER_DAY * 0.0036).sqrt() * SCALE;
        assert!(close(year.rd, expect, 1e-9), "{year:?} {expect}");
        assert_eq!(r.after_days(1e9).rd, MAX_RD);
        assert_eq!(r.at(0, 30 * 86_400_000), month);
    }

    #[test]
    fn provisional_until_rd_is_below_110() {
        assert!(Rating::NEW.provisional());
        let r = |rd| Rating { rd, ..Rating::NEW };
        assert!(r(110.0).provisional());
        assert!(!r(109.99).provisional());
    }

    #[test]
    fn an_empty_period_only_widens_the_rd() {
        let g = Glicko2::default();
        let r = Rating {
            rating: 1700.0,
            rd: 50.0,
            volatility: 0.06,
        };
        let after = g.rate(r, &[]);
        assert_eq!(after.rating, 1700.0);
        assert!(after.rd > 50.0);
        assert_eq!(g.rate(Rating::NEW, &[]).rd, 350.0);
    }

    #[test]
    fn an_upset_moves_more_than_an_expected_result() {
        let g = Glicko2::default();
        let strong = Rating {
            rating: 1900.0,
            rd: 60.0,
            volatility: 0.06,
        };
        let weak = Rating {
            rating: 1500.0,
            rd: 60.0,
            volatility: 0.06,
        };
        let (s1, _) = g.game(strong, weak, Outcome::Win);
        let (s2, _) = g.game(strong, weak, Outcome::Loss);
        assert!(s1.rating - 1900.0 < 1900.0 - s2.rating);
    }
}
