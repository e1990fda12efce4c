//! Texel tuning of the evaluation's weights: the expected result of a
//! position for the side to move is `1 / (1 + exp(-score / K))`; [`fit_k`]
//! finds the scale `K` for given weights, [`fit`] the weights that minimise
//! the mean squared error between that and the game results (Adam, full
//! batch, a ridge pull towards the starting weights). `draughts tune` is the
//! command line around it (docs/engine.md, "Learned evaluation").
//!
//! A weight vector is the opening weights of every feature, then the endgame
//! weights ([`weight_count`] in all), in hundredths of a man.

use crate::eval::{Eval, Features, NF, PAT, TEMPO, Weights, feature_name, feature_used};
use draughts::{Position, Variant};

/// One position and its game's result for the side to move (1 won, 0.5
/// drawn, 0 lost), as the features the evaluation reads.
#[derive(Debug, Clone)]
pub struct Sample {
    /// The non-zero features: index and value.
    x: Vec<(u16, i16)>,
    /// Phase as a fraction (1 with every man on the board).
    phase: f64,
    /// The drawish factor.
    scale: f64,
    /// The trade-down bonus factor `4 / (pieces + 4)`.
    trade: f64,
    /// The region patterns' part of the linear score (opening, endgame), fixed.
    regions: (f64, f64),
    /// The result for the side to move.
    result: f64,
}

impl Sample {
    /// The sample of `pos` (of `eval`'s variant) with `result` for its side to move.
    fn new(f: &Features, result: f64) -> Sample {
        let x =
            f.d.iter()
                .enumerate()
                .filter(|&(_, &v)| v != 0)
                .map(|(k, &v)| (k as u16, v))
                .collect();
        Sample {
            x,
            phase: f64::from(f.phase) / 256.0,
            scale: f.scale,
            trade: 4.0 / (f64::from(f.pieces) + 4.0),
            regions: (f64::from(f.regions.0), f64::from(f.regions.1)),
            result,
        }
    }

    /// The game result for the side to move.
    #[must_use]
    pub fn result(&self) -> f64 {
        self.result
    }
}

/// Makes samples of one variant's positions.
#[derive(Debug, Clone)]
pub struct Sampler {
    eval: Eval,
}

impl Sampler {
    /// A sampler for `variant`'s features.
    #[must_use]
    pub fn new(variant: Variant) -> Sampler {
        Sampler {
            eval: Eval::new(variant),
        }
    }

    /// The sample of `pos` with `result` (1, 0.5 or 0) for its side to move.
    #[must_use]
    pub fn sample(&self, pos: &Position, result: f64) -> Sample {
        Sample::new(&self.eval.features(pos), result)
    }
}

/// The length of a weight vector: an opening and an endgame weight per feature.
#[must_use]
pub fn weight_count() -> usize {
    2 * NF
}

/// The committed weights of `variant` as a weight vector, and their `K`.
#[must_use]
pub fn committed(variant: Variant) -> (Vec<f64>, f64) {
    let w = Weights::of(variant);
    (to_f64(&w), w.k)
}

/// `w` as a weight vector.
pub(crate) fn to_f64(w: &Weights) -> Vec<f64> {
    w.mg.iter()
        .chain(w.eg.iter())
        .map(|&x| f64::from(x))
        .collect()
}

/// The weight file of `variant` for weight vector `w` (rounded to whole
/// hundredths) and scale `k`, with `header` as its comment lines.
#[must_use]
pub fn weight_file(variant: Variant, w: &[f64], k: f64, header: &str) -> String {
    let mut out = Weights {
        mg: vec![0; NF],
        eg: vec![0; NF],
        k,
    };
    let squares = usize::from(variant.square_count());
    for f in (0..NF).filter(|&f| feature_used(f, squares)) {
        out.mg[f] = w[f].round() as i32;
        out.eg[f] = w[NF + f].round() as i32;
    }
    out.format(squares, header)
}

/// The names of the weights, in weight-vector order.
#[must_use]
pub fn weight_names() -> Vec<String> {
    (0..NF)
        .map(|f| format!("{}.opening", feature_name(f)))
        .chain((0..NF).map(|f| format!("{}.endgame", feature_name(f))))
        .collect()
}

/// The evaluation of a sample under weights `w` and the derivative of the
/// evaluation with respect to its linear part.
fn score_and_slope(s: &Sample, w: &[f64]) -> (f64, f64) {
    let mut lin = s.regions.0 * s.phase + s.regions.1 * (1.0 - s.phase);
    let mut tempo = 0.0;
    for &(k, v) in &s.x {
        let k = usize::from(k);
        let mix = w[k] * s.phase + w[NF + k] * (1.0 - s.phase);
        if k == TEMPO {
            tempo += mix * f64::from(v);
        } else {
            lin += mix * f64::from(v);
        }
    }
    let scaled = lin * s.scale;
    let (bonus, slope) = if scaled.abs() < 300.0 {
        (scaled * s.trade, 1.0 + s.trade)
    } else {
        (300.0 * scaled.signum() * s.trade, 1.0)
    };
    (scaled + bonus + tempo, slope * s.scale)
}

/// The evaluation of features `f` under weight vector `w` (floating point;
/// the engine's integer evaluation rounds on the way).
#[cfg(test)]
pub(crate) fn score(f: &Features, w: &[f64]) -> f64 {
    score_and_slope(&Sample::new(f, 0.0), w).0
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The mean squared error of the predicted results (`K` scale `k`).
#[must_use]
pub fn loss(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let p = sigmoid(score_and_slope(s, w).0 / k);
            (p - s.result).powi(2)
        })
        .sum();
    sum / samples.len().max(1) as f64
}

/// The `K` that minimises [`loss`] for weights `w` (golden-section search on
/// a log scale between 10 and 2,000).
#[must_use]
pub fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let f = |lk: f64| loss(samples, w, lk.exp());
    let (mut a, mut b) = (10f64.ln(), 2000f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let mut c = b - g * (b - a);
    let mut d = a + g * (b - a);
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..60 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// How [`fit`] runs.
#[derive(Debug, Clone)]
pub struct FitOptions {
    /// Full-batch steps.
    pub epochs: usize,
    /// Adam's step size (hundredths of a man).
    pub rate: f64,
    /// The ridge pull towards the starting weights: `lambda * sum (w - w0)^2`
    /// is added to the loss.
    pub lambda: f64,
    /// The ridge pull on the pattern (diamond) weights, which are many and
    /// each seen in fewer positions.
    pub pattern_lambda: f64,
    /// Weights that stay as they are (their indices).
    pub frozen: Vec<usize>,
}

impl Default for FitOptions {
    fn default() -> FitOptions {
        FitOptions {
            epochs: 400,
            rate: 1.0,
            lambda: 1e-7,
            pattern_lambda: 1e-7,
            frozen: Vec::new(),
        }
    }
}

/// The weights that minimise [`loss`] at scale `k` plus the ridge term,
/// from `init` (Adam on the full batch; deterministic). `progress` is called
/// with the epoch and the loss before its step.
pub fn fit(
    samples: &[Sample],
    init: &[f64],
    k: f64,
    opts: &FitOptions,
    mut progress: impl FnMut(usize, f64),
) -> Vec<f64> {
    let n = init.len();
    let mut w = init.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let inv = 1.0 / samples.len().max(1) as f64;
    for epoch in 1..=opts.epochs {
        let mut grad = vec![0.0; n];
        let mut total = 0.0;
        for s in samples {
            let (score, slope) = score_and_slope(s, &w);
            let p = sigmoid(score / k);
            let e = p - s.result;
            total += e * e;
            // d(e^2)/d(score) = 2 e p (1 - p) / K.
            let g = 2.0 * e * p * (1.0 - p) / k * inv;
            for &(f, x) in &s.x {
                let f = usize::from(f);
                let x = f64::from(x) * if f == TEMPO { g } else { g * slope };
                grad[f] += x * s.phase;
                grad[NF + f] += x * (1.0 - s.phase);
            }
        }
        progress(epoch, total * inv);
        for j in 0..n {
            let lambda = if j % NF >= PAT {
                opts.pattern_lambda
            } else {
                opts.lambda
            };
            grad[j] += 2.0 * lambda * (w[j] - init[j]);
        }
        for &j in &opts.frozen {
            grad[j] = 0.0;
        }
        let t = epoch as i32;
        for j in 0..n {
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            let mh = m[j] / (1.0 - b1.powi(t));
            let vh = v[j] / (1.0 - b2.powi(t));
            w[j] -= opts.rate * mh / (vh.sqrt() + eps);
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A synthetic data set: random features, results the exact expected
    /// result under `truth` at scale `k`.
    fn synthetic(truth: &[f64], k: f64, count: usize) -> Vec<Sample> {
        let mut state = 12345u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        (0..count)
            .map(|_| {
                let mut x = Vec::new();
                for f in 0..6u16 {
                    let v = (next() % 7) as i16 - 3;
                    if v != 0 {
                        x.push((f, v));
                    }
                }
                let phase = (next() % 257) as f64 / 256.0;
                let mut s = Sample {
                    x,
                    phase,
                    scale: 1.0,
                    trade: 0.0,
                    regions: (0.0, 0.0),
                    result: 0.0,
                };
                s.result = sigmoid(score_and_slope(&s, truth).0 / k);
                s
            })
            .collect()
    }

    #[test]
    fn the_fit_recovers_known_weights_and_scale() {
        let mut truth = vec![0.0; weight_count()];
        for (f, (mg, eg)) in [(0, (100.0, 120.0)), (1, (-40.0, 30.0)), (2, (15.0, 60.0))] {
            truth[f] = mg;
            truth[NF + f] = eg;
        }
        let k = 150.0;
        let data = synthetic(&truth, k, 4000);
        // The scale, for the true weights.
        let fitted_k = fit_k(&data, &truth);
        assert!((fitted_k - k).abs() < 1.0, "K {fitted_k}");
        // The weights, from zero with K known.
        let start = vec![0.0; weight_count()];
        let opts = FitOptions {
            epochs: 1500,
            rate: 2.0,
            lambda: 0.0,
            pattern_lambda: 0.0,
            frozen: Vec::new(),
        };
        let before = loss(&data, &start, k);
        let w = fit(&data, &start, k, &opts, |_, _| {});
        let after = loss(&data, &w, k);
        assert!(after < before / 100.0, "{before} -> {after}");
        for f in [0, 1, 2, NF, NF + 1, NF + 2] {
            assert!(
                (w[f] - truth[f]).abs() < 3.0,
                "weight {f}: {} vs {}",
                w[f],
                truth[f]
            );
        }
        // Features the data never moves stay near zero.
        assert!(
            w[3].abs() < 3.0 && w[NF + 5].abs() < 3.0,
            "{} {}",
            w[3],
            w[NF + 5]
        );
    }

    #[test]
    fn the_ridge_term_and_frozen_weights_hold_weights_back() {
        let mut truth = vec![0.0; weight_count()];
        truth[0] = 100.0;
        truth[NF] = 100.0;
        let data = synthetic(&truth, 100.0, 1000);
        let start = vec![0.0; weight_count()];
        let opts = FitOptions {
            epochs: 300,
            rate: 2.0,
            lambda: 0.0,
            pattern_lambda: 0.0,
            frozen: vec![NF],
        };
        let w = fit(&data, &start, 100.0, &opts, |_, _| {});
        assert_eq!(w[NF], 0.0);
        let strong = FitOptions {
            lambda: 1.0,
            frozen: Vec::new(),
            ..opts
        };
        let held = fit(&data, &start, 100.0, &strong, |_, _| {});
        assert!(held[0].abs() < 5.0, "{}", held[0]);
    }

    #[test]
    fn the_patterns_have_their_own_ridge_term() {
        let mut truth = vec![0.0; weight_count()];
        truth[0] = 100.0;
        truth[NF] = 100.0;
        truth[5] = 50.0;
        truth[NF + 5] = 50.0;
        let mut data = synthetic(&truth, 100.0, 1000);
        // Feature 5 becomes the first pattern feature.
        for s in &mut data {
            for x in &mut s.x {
                if x.0 == 5 {
                    x.0 = PAT as u16;
                }
            }
        }
        let start = vec![0.0; weight_count()];
        let held = FitOptions {
            epochs: 1000,
            rate: 2.0,
            lambda: 0.0,
            pattern_lambda: 1.0,
            frozen: Vec::new(),
        };
        let w = fit(&data, &start, 100.0, &held, |_, _| {});
        assert!(w[PAT].abs() < 5.0, "{}", w[PAT]);
        // The other weights are still fitted.
        assert!(w[0] > 60.0, "{}", w[0]);
        let free = FitOptions {
            pattern_lambda: 0.0,
            ..held
        };
        let w = fit(&data, &start, 100.0, &free, |_, _| {});
        assert!((w[PAT] - 50.0).abs() < 10.0, "{}", w[PAT]);
    }

    #[test]
    fn weight_files_round_trip() {
        for v in Variant::ALL {
            let (w, k) = committed(v);
            let text = weight_file(v, &w, k, "test");
            assert_eq!(to_f64(&Weights::parse(&text).expect("parses")), w);
        }
        assert_eq!(weight_names().len(), weight_count());
    }
}
