//! Region patterns: a learned weight for every configuration of the men on each 4x4
//! region of the board, the large evaluation of issue 36 (docs/engine.md, "Region
//! patterns").
//!
//! The board is covered by overlapping 4x4 windows whose corners lie on even rows and
//! columns of the first mover's view (9 windows on 8x8, 16 on 10x10). A window holds 8
//! playing squares; each is empty (a king counts as empty: kings have their own terms),
//! a man of the side or a man of the enemy, so a window has `3^8 = 6561`
//! configurations, each with an opening and an endgame weight. As every other term of
//! the evaluation (crates/bot/src/eval.rs), each side is read in its own frame (the
//! board turned 180° for the second mover) with the same weights, and the evaluation
//! adds the first mover's sum and subtracts the second's: the colour symmetry holds
//! by construction.
//!
//! Reading a window costs 8 shifts and masks per side: the two playing squares of one
//! row of a window are neighbouring bits of the board's layout, so each row gives two
//! bits at once, and a table turns the 8 bits of the side's men and the 8 of the
//! enemy's into the configuration's number. The windows are the same for both sides
//! (the board turned maps them onto each other), so the evaluation gathers each
//! window's bits once and reads the second mover's configuration from the same bits
//! in reverse order (`Regions::sum_difference`).
//!
//! The weights are fitted to self-play results on top of the rest of the evaluation by
//! `draughts tune regions` ([`fit`]), and committed per variant as
//! `crates/bot/weights/<variant>.regions` (only the configurations with a weight).

use std::sync::{Arc, OnceLock};

use draughts::{Position, Variant};

/// Configurations of one window.
pub const CONFIGS: usize = 6561;

/// `TERNARY[b]`: the 8 bits of `b` read as base-3 digits (bit `j` is digit `j`).
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut j = 0;
        while j < 8 {
            if b >> j & 1 != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// `TURNED[b]`: [`TERNARY`] of `b`'s 8 bits in reverse order, the configuration
/// number of the same squares read by the other side (a window's rows and the two
/// squares of each row change places when the board is turned).
const TURNED: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = TERNARY[(b as u8).reverse_bits() as usize];
        b += 1;
    }
    t
};

/// Which 4x4 windows cover the board, by the parity of their top-left corner's row
/// and column in side 0's frame. Every layout maps onto itself when the board is
/// turned, so both sides read the same windows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// Corners on even rows and even columns (9 windows on 8x8, 16 on 10x10): the
    /// windows overlap by two rows or two columns.
    Even,
    /// Also the windows with corners on odd rows and odd columns (13 on 8x8, 25 on
    /// 10x10), centred on the meeting points of the even ones.
    Centre,
    /// Every 4x4 window of the board (25 on 8x8, 49 on 10x10).
    All,
}

impl Layout {
    /// Every layout.
    pub const ALL: [Layout; 3] = [Layout::Even, Layout::Centre, Layout::All];

    /// The layout's name (`even`, `centre`, `all`).
    pub fn name(self) -> &'static str {
        match self {
            Layout::Even => "even",
            Layout::Centre => "centre",
            Layout::All => "all",
        }
    }

    /// The layout named `name`.
    pub fn from_name(name: &str) -> Option<Layout> {
        Layout::ALL.into_iter().find(|l| l.name() == name)
    }

    /// Whether a window with its corner on row `r0` and column `c0` is in the layout.
    fn takes(self, r0: u8, c0: u8) -> bool {
        match self {
            Layout::Even => r0.is_multiple_of(2) && c0.is_multiple_of(2),
            Layout::Centre => r0 % 2 == c0 % 2,
            Layout::All => true,
        }
    }
}

/// The windows of a board and their weights.
#[derive(Debug, Clone)]
pub(crate) struct Regions {
    /// Per window, the lower bit of the two playing squares of each of its 4 rows (the
    /// other is the next bit), in side 0's frame.
    rows: Vec<[u8; 4]>,
    /// Per window of side 0's frame, the window of side 1's frame on the same squares.
    turned: Vec<usize>,
    /// Whether each window has a second table, read on the kings (a window's kings as
    /// its men are read, the men as empty): table `rows.len() + w`.
    kings: bool,
    /// `(opening, endgame)` weight of configuration `c` of table `w` at `w * CONFIGS + c`
    /// (the men's tables of the windows, then their kings' tables if any).
    weights: Vec<(i16, i16)>,
}

impl Regions {
    /// The [`Layout::Even`] windows of `variant`'s board, with every weight 0.
    pub(crate) fn empty(variant: Variant) -> Regions {
        Regions::with_layout(variant, Layout::Even)
    }

    /// The windows of `layout` on `variant`'s board, with every weight 0.
    pub(crate) fn with_layout(variant: Variant, layout: Layout) -> Regions {
        Regions::new(variant, layout, false)
    }

    /// The windows of `layout` on `variant`'s board, with a kings' table per window if
    /// `kings`, with every weight 0.
    pub(crate) fn new(variant: Variant, layout: Layout, kings: bool) -> Regions {
        let size = variant.board_size();
        let h = size / 2;
        // Display row and column of each bit, in side 0's frame (row 0 at the top).
        let mut at = [None; 64];
        for sq in variant.squares() {
            let n = sq.reference(size) - 1;
            let (r, i) = (n / h, n % h);
            let x = if r % 2 == 0 { 2 * i + 1 } else { 2 * i };
            at[usize::from(sq.bit())] = Some((r, x));
        }
        let bit_at = |r: u8, x: u8| {
            (0..64u8)
                .find(|&b| at[usize::from(b)] == Some((r, x)))
                .expect("a playing square")
        };
        let mut rows = Vec::new();
        for r0 in 0..=size - 4 {
            for c0 in (0..=size - 4).filter(|&c0| layout.takes(r0, c0)) {
                let mut w = [0u8; 4];
                for (k, slot) in w.iter_mut().enumerate() {
                    let r = r0 + k as u8;
                    // The playing squares of row r among columns c0..c0 + 4.
                    let xs: Vec<u8> = (c0..c0 + 4).filter(|x| (r + x) % 2 == 1).collect();
                    let (a, b) = (bit_at(r, xs[0]), bit_at(r, xs[1]));
                    assert_eq!(b, a + 1, "a window's row is two neighbouring bits");
                    *slot = a;
                }
                rows.push(w);
            }
        }
        // Turning the board is `bit -> top - bit` (as `Eval::turn_set`). The squares
        // of each window, digit by digit, as side 0 and as side 1 read them.
        let top = usize::from(variant.square_count()) + usize::from(h) - 2;
        let digits = |w: &[u8; 4]| -> Vec<usize> {
            w.iter()
                .flat_map(|&a| [usize::from(a), usize::from(a) + 1])
                .collect()
        };
        let turned = rows
            .iter()
            .map(|w| {
                let own = digits(w);
                rows.iter()
                    .position(|v| {
                        let theirs: Vec<usize> = digits(v).iter().map(|b| top - b).collect();
                        (0..8).all(|j| theirs[j] == own[7 - j])
                    })
                    .expect("the windows are the same for both sides, digits reversed")
            })
            .collect();
        let weights = vec![(0, 0); rows.len() * if kings { 2 } else { 1 } * CONFIGS];
        Regions {
            rows,
            turned,
            kings,
            weights,
        }
    }

    /// The windows of `variant` with its committed weights, if it has a weight
    /// file with any weight set (read once per process and shared by every
    /// evaluation).
    pub(crate) fn of(variant: Variant) -> Option<Arc<Regions>> {
        static CELLS: [OnceLock<Option<Arc<Regions>>>; Variant::ALL.len()] =
            [const { OnceLock::new() }; Variant::ALL.len()];
        let text = committed_text(variant)?;
        CELLS[variant as usize]
            .get_or_init(|| {
                let r = Regions::parse(variant, text).expect("the committed region weights parse");
                r.weights.iter().any(|&w| w != (0, 0)).then(|| Arc::new(r))
            })
            .clone()
    }

    /// The tables of `variant`'s board in the layout (with or without the kings'
    /// tables) that has `tables` of them, with every weight 0.
    pub(crate) fn with_windows(variant: Variant, tables: usize) -> Option<Regions> {
        Regions::every_layout(variant).find(|r| r.windows() == tables)
    }

    /// The number of tables of each layout, without and with the kings' tables, in
    /// [`Layout::ALL`]'s order.
    pub(crate) fn table_counts(variant: Variant) -> Vec<usize> {
        Regions::every_layout(variant)
            .map(|r| r.windows())
            .collect()
    }

    /// Every layout of `variant`'s board, without and with the kings' tables, in
    /// [`Layout::ALL`]'s order, with every weight 0.
    fn every_layout(variant: Variant) -> impl Iterator<Item = Regions> {
        Layout::ALL
            .into_iter()
            .flat_map(move |l| [false, true].map(|k| Regions::new(variant, l, k)))
    }

    /// Tables of weights: one per window on the board, two if the kings have theirs.
    pub(crate) fn windows(&self) -> usize {
        self.weights.len() / CONFIGS
    }

    /// The weight of configuration `c` of window `w`.
    pub(crate) fn weight(&self, w: usize, c: usize) -> (i16, i16) {
        self.weights[w * CONFIGS + c]
    }

    /// Sets the weight of configuration `c` of window `w`.
    pub(crate) fn set(&mut self, w: usize, c: usize, v: (i16, i16)) {
        self.weights[w * CONFIGS + c] = v;
    }

    /// The configuration of window `w` (of `rows`) for a side's men `own` and the
    /// enemy's `enemy`, both in that side's frame (or their kings, for the kings'
    /// table).
    #[inline]
    pub(crate) fn config(&self, w: usize, own: u64, enemy: u64) -> usize {
        let [a, b, c, d] = self.rows[w];
        let gather = |x: u64| {
            ((x >> a) & 3) | ((x >> b) & 3) << 2 | ((x >> c) & 3) << 4 | ((x >> d) & 3) << 6
        };
        usize::from(TERNARY[gather(own) as usize])
            + 2 * usize::from(TERNARY[gather(enemy) as usize])
    }

    /// The `(opening, endgame)` sum of one side's tables read square by square, its men,
    /// the enemy's, its kings and the enemy's in its frame (the
    /// slow way, for tests: [`Regions::sum_difference`] must agree).
    pub(crate) fn slow_sum(&self, [own, enemy, own_kings, enemy_kings]: [u64; 4]) -> (i32, i32) {
        let (mut mg, mut eg) = (0, 0);
        let n = self.rows.len();
        let tables =
            [(own, enemy, 0)]
                .into_iter()
                .chain(self.kings.then_some((own_kings, enemy_kings, n)));
        for (own, enemy, first) in tables {
            for (w, rows) in self.rows.iter().enumerate() {
                let mut c = 0usize;
                let mut p = 1usize;
                for &a in rows {
                    for bit in [a, a + 1] {
                        if own >> bit & 1 != 0 {
                            c += p;
                        } else if enemy >> bit & 1 != 0 {
                            c += 2 * p;
                        }
                        p *= 3;
                    }
                }
                let (m, e) = self.weight(first + w, c);
                mg += i32::from(m);
                eg += i32::from(e);
            }
        }
        (mg, eg)
    }

    /// Side 0's tables less side 1's, `(opening, endgame)`, for side 0's men `m0`, side
    /// 1's `m1` and their kings `k0` and `k1`, in side 0's frame: as `slow_sum` of each
    /// side in its own frame, but each window's squares are gathered once (side 1
    /// reads them turned: the digits in reverse order, own and enemy swapped, as
    /// another window of its frame). Without a king on the board the kings' tables
    /// add nothing (every window reads its empty configuration for both sides, and
    /// `turned` is a permutation), so they are skipped.
    #[inline]
    pub(crate) fn sum_difference(&self, m0: u64, m1: u64, k0: u64, k1: u64) -> (i32, i32) {
        let n = self.rows.len();
        let (mut mg, mut eg) = self.tables_difference(m0, m1, 0, 0, 0);
        if self.kings && (k0 | k1) != 0 {
            (mg, eg) = self.tables_difference(k0, k1, n, mg, eg);
        }
        (mg, eg)
    }

    /// [`Regions::sum_difference`]'s loop over the tables from `first` on, added to
    /// `(mg, eg)`.
    #[inline]
    fn tables_difference(
        &self,
        x0: u64,
        x1: u64,
        first: usize,
        mut mg: i32,
        mut eg: i32,
    ) -> (i32, i32) {
        for (w, &[a, b, c, d]) in self.rows.iter().enumerate() {
            let gather = |x: u64| {
                (((x >> a) & 3) | ((x >> b) & 3) << 2 | ((x >> c) & 3) << 4 | ((x >> d) & 3) << 6)
                    as usize
            };
            let (g0, g1) = (gather(x0), gather(x1));
            let c0 = usize::from(TERNARY[g0]) + 2 * usize::from(TERNARY[g1]);
            let c1 = usize::from(TURNED[g1]) + 2 * usize::from(TURNED[g0]);
            let (m, e) = self.weights[(first + w) * CONFIGS + c0];
            let (n, f) = self.weights[(first + self.turned[w]) * CONFIGS + c1];
            mg += i32::from(m) - i32::from(n);
            eg += i32::from(e) - i32::from(f);
        }
        (mg, eg)
    }

    /// Reads a weight file: `regions VARIANT TABLES` (the number of tables names the
    /// [`Layout`] and whether the windows have kings' tables) then `table config opening
    /// endgame` lines (`#` comments).
    pub(crate) fn parse(variant: Variant, text: &str) -> Result<Regions, String> {
        let mut r = Regions::empty(variant);
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("line {}: {line:?}", i + 1);
            let parts: Vec<&str> = line.split_whitespace().collect();
            if !header {
                if parts.len() != 3 || parts[0] != "regions" || parts[1] != variant.name() {
                    return Err(format!("{}: not a {} header", bad(), variant.name()));
                }
                r = parts[2]
                    .parse::<usize>()
                    .ok()
                    .and_then(|n| Regions::with_windows(variant, n))
                    .ok_or_else(|| {
                        let counts = Regions::table_counts(variant);
                        format!("{}: tables expected: one of {counts:?}", bad())
                    })?;
                header = true;
                continue;
            }
            let n: Vec<i64> = parts
                .iter()
                .map(|p| p.parse::<i64>())
                .collect::<Result<_, _>>()
                .map_err(|_| bad())?;
            let [w, c, mg, eg] = n[..] else {
                return Err(bad());
            };
            let w = usize::try_from(w).map_err(|_| bad())?;
            let c = usize::try_from(c).map_err(|_| bad())?;
            if w >= r.windows() || c >= CONFIGS {
                return Err(bad());
            }
            let mg = i16::try_from(mg).map_err(|_| bad())?;
            let eg = i16::try_from(eg).map_err(|_| bad())?;
            r.set(w, c, (mg, eg));
        }
        if !header {
            return Err("no header".into());
        }
        Ok(r)
    }

    /// The weight file (only the configurations with a weight), after `header` comments.
    pub(crate) fn format(&self, variant: Variant, header: &str) -> String {
        let mut s = String::new();
        for line in header.lines() {
            s.push_str("# ");
            s.push_str(line);
            s.push('\n');
        }
        s.push_str(&format!("regions {} {}\n", variant.name(), self.windows()));
        for w in 0..self.windows() {
            for c in 0..CONFIGS {
                let (mg, eg) = self.weight(w, c);
                if (mg, eg) != (0, 0) {
                    s.push_str(&format!("{w} {c} {mg} {eg}\n"));
                }
            }
        }
        s
    }
}

/// Region weights read from a file, for an engine to evaluate with instead of the
/// committed ones ([`crate::Engine::set_region_weights`]): how `draughts match`
/// measures a fit before it is committed.
#[derive(Debug, Clone)]
pub struct RegionWeights {
    variant: Variant,
    regions: Arc<Regions>,
}

impl RegionWeights {
    /// The weight file `text` of `variant`.
    pub fn parse(variant: Variant, text: &str) -> Result<RegionWeights, String> {
        Ok(RegionWeights {
            variant,
            regions: Arc::new(Regions::parse(variant, text)?),
        })
    }

    /// The variant the weights are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Whether `self` and `other` are the same weights (one file read once).
    pub fn same(&self, other: &RegionWeights) -> bool {
        Arc::ptr_eq(&self.regions, &other.regions)
    }

    pub(crate) fn regions(&self) -> Arc<Regions> {
        Arc::clone(&self.regions)
    }
}

/// The committed weight file of `variant`, if it has one.
fn committed_text(variant: Variant) -> Option<&'static str> {
    match variant {
        Variant::American => Some(include_str!("../weights/american.regions")),
        Variant::Russian => Some(include_str!("../weights/russian.regions")),
        Variant::Italian => Some(include_str!("../weights/italian.regions")),
        Variant::Czech => Some(include_str!("../weights/czech.regions")),
        Variant::International => Some(include_str!("../weights/international.regions")),
        _ => None,
    }
}

/// One position for fitting: what the rest of the evaluation says, and its windows.
#[derive(Debug, Clone)]
pub struct RegionSample {
    /// The evaluation without the region patterns, for the side to move.
    base: f32,
    /// The position's phase (256 with every man on the board).
    phase: u16,
    /// The drawish factor (1, 1/4 or 1/8) the evaluation scales the sum by.
    scale: f32,
    /// The result for the side to move (1, 0.5, 0).
    result: f32,
    /// `window * CONFIGS + config`, with the sign (+1 for the side to move's windows,
    /// −1 for the other's) in the top bit (set: −1).
    entries: Vec<u32>,
}

const NEG: u32 = 1 << 31;

/// Turns positions into [`RegionSample`]s with the committed evaluation (without any
/// region weights).
pub struct RegionSampler {
    eval: crate::eval::Eval,
    regions: Regions,
}

impl RegionSampler {
    /// For `variant`'s [`Layout::Even`] windows.
    pub fn new(variant: Variant) -> RegionSampler {
        RegionSampler::with_tables(variant, Layout::Even, false)
    }

    /// For the windows of `layout` on `variant`'s board, with a kings' table per window
    /// if `kings`.
    pub fn with_tables(variant: Variant, layout: Layout, kings: bool) -> RegionSampler {
        RegionSampler {
            eval: crate::eval::Eval::without_regions(variant),
            regions: Regions::new(variant, layout, kings),
        }
    }

    /// The sample of `pos` with `result` for the side to move.
    pub fn sample(&self, pos: &Position, result: f64) -> RegionSample {
        let first = pos.variant().first_mover();
        let (s0, s1, kings) = (
            pos.pieces(first).0,
            pos.pieces(first.other()).0,
            pos.kings().0,
        );
        let us = usize::from(pos.turn() != first);
        let frames = self.eval.region_frames(s0, s1, kings);
        let n = self.regions.rows.len();
        let mut entries = Vec::with_capacity(2 * self.regions.windows());
        for (side, [own, enemy, own_kings, enemy_kings]) in frames.into_iter().enumerate() {
            let sign = if side == us { 0 } else { NEG };
            for w in 0..n {
                let i = (w * CONFIGS + self.regions.config(w, own, enemy)) as u32;
                entries.push(i | sign);
            }
            if self.regions.kings && kings != 0 {
                for w in 0..n {
                    // A window without a king reads the same empty configuration for
                    // both sides: those cancel, and are left out.
                    let c = self.regions.config(w, own_kings, enemy_kings);
                    if c != 0 {
                        entries.push(((n + w) * CONFIGS + c) as u32 | sign);
                    }
                }
            }
        }
        let (phase, scale) = self.eval.phase_and_scale(pos);
        RegionSample {
            base: self.eval.evaluate(pos) as f32,
            phase: phase as u16,
            scale: scale as f32,
            result: result as f32,
            entries,
        }
    }

    /// Weight tables: the windows of the board, and their kings' tables if any.
    pub fn windows(&self) -> usize {
        self.regions.windows()
    }
}

/// How [`fit`] runs.
#[derive(Debug, Clone)]
pub struct RegionFit {
    /// Passes over the positions.
    pub epochs: usize,
    /// Adam's step, in the evaluation's units.
    pub rate: f64,
    /// The ridge pull of every weight towards 0 (per position of a minibatch).
    pub lambda: f64,
    /// Positions per step.
    pub batch: usize,
    /// The result curve's scale (`1 / (1 + exp(-score / k))`).
    pub k: f64,
    /// The samples' targets are search scores (the evaluation's units), fitted by least
    /// squares on the score itself, instead of results fitted through the curve.
    pub linear: bool,
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The score of `s` for the side to move with the weights `w` (opening, endgame per
/// entry, at `2 (window * CONFIGS + config)`).
fn predict(s: &RegionSample, w: &[f64]) -> f64 {
    let p = f64::from(s.phase) / 256.0;
    let mut sum = 0.0;
    for &e in &s.entries {
        let i = (e & !NEG) as usize;
        let v = w[2 * i] * p + w[2 * i + 1] * (1.0 - p);
        sum += if e & NEG != 0 { -v } else { v };
    }
    f64::from(s.base) + f64::from(s.scale) * sum
}

/// The mean squared error of the predicted results of `samples` with weights `w`.
pub fn region_loss(samples: &[RegionSample], w: &[f64], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = sigmoid(predict(s, w) / k) - f64::from(s.result);
            d * d
        })
        .sum();
    total / samples.len().max(1) as f64
}

/// The root mean squared error, in the evaluation's units, of the predicted scores of
/// `samples` whose targets are search scores.
pub fn score_error(samples: &[RegionSample], w: &[f64]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| {
            let d = predict(s, w) - f64::from(s.result);
            d * d
        })
        .sum();
    (total / samples.len().max(1) as f64).sqrt()
}

/// A sample whose target is the search score `score` (clamped to ±`clamp`) instead of
/// a result.
pub fn with_score_target(mut s: RegionSample, score: i32, clamp: i32) -> RegionSample {
    s.result = score.clamp(-clamp, clamp) as f32;
    s
}

/// The weights of a region weight file `text` of `variant`, as [`fit`] uses them
/// (`2 * CONFIGS` per window of the file's layout).
pub fn weights_of_file(variant: Variant, text: &str) -> Result<Vec<f64>, String> {
    let r = Regions::parse(variant, text)?;
    Ok(r.weights
        .iter()
        .flat_map(|&(mg, eg)| [f64::from(mg), f64::from(eg)])
        .collect())
}

/// All weights 0, sized for `windows` windows.
pub fn zero_weights(windows: usize) -> Vec<f64> {
    vec![0.0; 2 * windows * CONFIGS]
}

/// Fits the region weights to `train` from `w` (Adam on minibatches, taken in a fixed
/// order), and calls `report(epoch, &w)` after each pass.
pub fn fit(
    train: &[RegionSample],
    w: &mut [f64],
    o: &RegionFit,
    mut report: impl FnMut(usize, &[f64]),
) {
    let n = w.len();
    let (mut m, mut v) = (vec![0.0f64; n], vec![0.0f64; n]);
    let mut g = vec![0.0f64; n];
    let mut touched: Vec<usize> = Vec::new();
    let mut seen = vec![false; n];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    let mut t = 0i32;
    // A fixed shuffle of the positions: neighbouring positions of one game move together.
    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for i in (1..order.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        order.swap(i, (x % (i as u64 + 1)) as usize);
    }
    for epoch in 0..o.epochs {
        for chunk in order.chunks(o.batch.max(1)) {
            for &j in chunk {
                let s = &train[j];
                // d(loss)/d(the region sum)
                let d = if o.linear {
                    2.0 * (predict(s, w) - f64::from(s.result)) * f64::from(s.scale)
                } else {
                    let p = sigmoid(predict(s, w) / o.k);
                    2.0 * (p - f64::from(s.result)) * p * (1.0 - p) / o.k * f64::from(s.scale)
                };
                let ph = f64::from(s.phase) / 256.0;
                for &e in &s.entries {
                    let i = (e & !NEG) as usize;
                    let sign = if e & NEG != 0 { -1.0 } else { 1.0 };
                    for (k, f) in [(2 * i, ph), (2 * i + 1, 1.0 - ph)] {
                        if !seen[k] {
                            seen[k] = true;
                            touched.push(k);
                        }
                        g[k] += d * sign * f;
                    }
                }
            }
            t += 1;
            let scale = 1.0 / chunk.len() as f64;
            let (c1, c2) = (1.0 - b1.powi(t), 1.0 - b2.powi(t));
            for &k in &touched {
                let grad = g[k] * scale + o.lambda * w[k];
                m[k] = b1 * m[k] + (1.0 - b1) * grad;
                v[k] = b2 * v[k] + (1.0 - b2) * grad * grad;
                w[k] -= o.rate * (m[k] / c1) / ((v[k] / c2).sqrt() + eps);
                g[k] = 0.0;
                seen[k] = false;
            }
            touched.clear();
        }
        report(epoch + 1, w);
    }
}

/// The weights `w` (as [`fit`] uses them) rounded into [`Regions`] of `variant`, in
/// the layout with as many windows as `w` has.
pub(crate) fn to_regions(variant: Variant, w: &[f64]) -> Regions {
    let mut r = Regions::with_windows(variant, w.len() / (2 * CONFIGS))
        .expect("weights for the windows of a layout");
    let round = |x: f64| x.round().clamp(-30000.0, 30000.0) as i16;
    for wi in 0..r.windows() {
        for c in 0..CONFIGS {
            let i = wi * CONFIGS + c;
            r.set(wi, c, (round(w[2 * i]), round(w[2 * i + 1])));
        }
    }
    r
}

/// The weight file of `w` for `variant`, after `header` comments.
pub fn region_file(variant: Variant, w: &[f64], header: &str) -> String {
    to_regions(variant, w).format(variant, header)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::random_positions;

    #[test]
    fn windows_cover_the_board_in_rows_of_neighbouring_bits() {
        for (v, layout, windows) in [
            (Variant::American, Layout::Even, 9),
            (Variant::Russian, Layout::Even, 9),
            (Variant::International, Layout::Even, 16),
            (Variant::Russian, Layout::Centre, 13),
            (Variant::International, Layout::Centre, 25),
            (Variant::Russian, Layout::All, 25),
            (Variant::International, Layout::All, 49),
        ] {
            let r = Regions::with_layout(v, layout);
            assert_eq!(r.windows(), windows, "{v} {layout:?}");
            let mut distinct = r.rows.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), windows, "{v} {layout:?}: no window twice");
            let mut covered = 0u64;
            for rows in &r.rows {
                for &a in rows {
                    covered |= 3 << a;
                }
            }
            let all = v.squares().fold(0u64, |b, sq| b | 1 << sq.bit());
            assert_eq!(covered, all, "{v}: every playing square is in a window");
        }
    }

    #[test]
    fn the_fast_sum_is_the_slow_sum() {
        // `sum_difference` reads each window once for both sides; it must equal the
        // two sides' sums, each read square by square in its own frame.
        for (v, layout, with_kings) in Variant::ALL.into_iter().flat_map(|v| {
            Layout::ALL
                .into_iter()
                .flat_map(move |l| [false, true].map(|k| (v, l, k)))
        }) {
            let mut r = Regions::new(v, layout, with_kings);
            let mut x = 11u64;
            for w in 0..r.windows() {
                for c in 0..CONFIGS {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    r.set(
                        w,
                        c,
                        (
                            ((x >> 33) % 201) as i16 - 100,
                            ((x >> 17) % 201) as i16 - 100,
                        ),
                    );
                }
            }
            let eval = crate::eval::Eval::without_regions(v);
            for pos in random_positions(v, 30) {
                let first = v.first_mover();
                let (s0, s1) = (pos.pieces(first).0, pos.pieces(first.other()).0);
                let kings = pos.kings().0;
                let [f0, f1] = eval.region_frames(s0, s1, kings);
                let ((m0, g0), (m1, g1)) = (r.slow_sum(f0), r.slow_sum(f1));
                assert_eq!(
                    r.sum_difference(s0 & !kings, s1 & !kings, s0 & kings, s1 & kings),
                    (m0 - m1, g0 - g1),
                    "{v} {layout:?} kings {with_kings} {}",
                    pos.to_fen()
                );
            }
        }
    }

    #[test]
    fn every_committed_weight_file_is_read() {
        // `committed_text` is the one list of the files: a variant with a file has
        // windows, one without has none (a file once listed there and read nowhere
        // left a variant without its windows and its matches measuring nothing).
        for v in Variant::ALL {
            assert_eq!(
                committed_text(v).is_some(),
                Regions::of(v).is_some(),
                "{v:?}"
            );
        }
    }

    #[test]
    fn weight_files_round_trip() {
        let v = Variant::American;
        let mut r = Regions::empty(v);
        r.set(0, 0, (5, -3));
        r.set(8, CONFIGS - 1, (-120, 77));
        let text = r.format(v, "a test\nof two lines");
        let back = Regions::parse(v, &text).expect("the written file parses");
        assert_eq!(back.weights, r.weights);
        assert!(
            Regions::parse(Variant::Russian, &text).is_err(),
            "another variant's file"
        );
        assert!(
            Regions::parse(v, "regions american 9\n9 0 1 1\n").is_err(),
            "no window 9"
        );
        assert!(
            Regions::parse(v, "regions american 10\n").is_err(),
            "no layout of 10 windows"
        );
        // Every layout, with or without kings' tables, has its own number of tables.
        for v in Variant::ALL {
            let mut counts = Regions::table_counts(v);
            counts.sort_unstable();
            counts.dedup();
            assert_eq!(counts.len(), 2 * Layout::ALL.len(), "{v}");
        }
        // The number of windows names the layout.
        let mut c = Regions::with_layout(v, Layout::Centre);
        c.set(12, 7, (9, 9));
        let back = Regions::parse(v, &c.format(v, "centre")).expect("the written file parses");
        assert_eq!(back.rows, c.rows);
        assert_eq!(back.weights, c.weights);
        let w = weights_of_file(v, &c.format(v, "centre")).expect("the file parses");
        assert_eq!(w.len(), 2 * 13 * CONFIGS);
        assert_eq!(to_regions(v, &w).weights, c.weights);
    }

    #[test]
    fn the_fit_learns_known_region_weights() {
        // Results drawn from known weights on top of the evaluation: the fit from zero
        // lowers the loss most of the way to the truth's and finds the weights' signs.
        let v = Variant::American;
        let sampler = RegionSampler::new(v);
        let positions = random_positions(v, 400);
        let mut truth = zero_weights(sampler.windows());
        // Men on the centre squares' configurations of window 4 (the middle one) matter.
        let mut x = 11u64;
        for c in 0..CONFIGS {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let t = ((x >> 33) % 401) as f64 - 200.0;
            truth[2 * (4 * CONFIGS + c)] = t;
            truth[2 * (4 * CONFIGS + c) + 1] = t;
        }
        let k = 300.0;
        let mut y = 0x1234_5678u64;
        let samples: Vec<RegionSample> = positions
            .iter()
            .map(|p| {
                let mut s = sampler.sample(p, 0.5);
                let prob = sigmoid(predict(&s, &truth) / k);
                y ^= y << 13;
                y ^= y >> 7;
                y ^= y << 17;
                s.result = if (y % 10_000) as f64 / 10_000.0 < prob {
                    1.0
                } else {
                    0.0
                };
                s
            })
            .collect();
        let zero = zero_weights(sampler.windows());
        let (l0, lt) = (
            region_loss(&samples, &zero, k),
            region_loss(&samples, &truth, k),
        );
        let mut w = zero.clone();
        let o = RegionFit {
            epochs: 30,
            rate: 5.0,
            lambda: 0.0,
            batch: 256,
            k,
            linear: false,
        };
        fit(&samples, &mut w, &o, |_, _| {});
        let l1 = region_loss(&samples, &w, k);
        assert!(
            l1 < lt + 0.3 * (l0 - lt),
            "loss {l0:.4} -> {l1:.4}, the truth's {lt:.4}"
        );
        // The configurations seen often enough get the truth's sign.
        let mut counts = vec![0u32; CONFIGS];
        for s in &samples {
            for &e in &s.entries {
                let i = (e & !NEG) as usize;
                if i / CONFIGS == 4 {
                    counts[i % CONFIGS] += 1;
                }
            }
        }
        let (mut agree, mut all) = (0, 0);
        for c in 0..CONFIGS {
            let t = truth[2 * (4 * CONFIGS + c)];
            if counts[c] >= 200 && t.abs() > 100.0 {
                all += 1;
                if (w[2 * (4 * CONFIGS + c)] > 0.0) == (t > 0.0) {
                    agree += 1;
                }
            }
        }
        // Well above chance (half).
        assert!(all >= 10 && agree * 10 >= all * 7, "{agree} of {all}");
    }

    #[test]
    fn the_score_fit_learns_known_region_weights() {
        // Targets that are scores: the evaluation plus known region weights, plus noise.
        // Least squares from zero takes most of the error away.
        let v = Variant::American;
        let sampler = RegionSampler::new(v);
        let mut truth = zero_weights(sampler.windows());
        let mut x = 5u64;
        for t in &mut truth {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            *t = ((x >> 33) % 121) as f64 - 60.0;
        }
        let samples: Vec<RegionSample> = random_positions(v, 150)
            .iter()
            .map(|p| {
                let s = sampler.sample(p, 0.5);
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let noise = ((x >> 33) % 41) as f64 - 20.0;
                let target = (predict(&s, &truth) + noise).round() as i32;
                with_score_target(s, target, 5000)
            })
            .collect();
        let mut w = zero_weights(sampler.windows());
        let e0 = score_error(&samples, &w);
        let o = RegionFit {
            epochs: 40,
            rate: 4.0,
            lambda: 0.0,
            batch: 256,
            k: 1.0,
            linear: true,
        };
        fit(&samples, &mut w, &o, |_, _| {});
        let e1 = score_error(&samples, &w);
        assert!(e1 < 0.5 * e0, "score error {e0:.1} -> {e1:.1}");
    }
}
