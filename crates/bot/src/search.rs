//! The search: iterative deepening over a principal-variation alpha-beta
//! search with a transposition table, hash-move/killer/history ordering,
//! aspiration windows, late-move reductions and pruning, ProbCut, a
//! quiescence search over the compulsory captures, and the draw rules of
//! the game (threefold repetition and the move limits, through
//! [`draughts::DrawLimits`]).

use crate::eval::Eval;
use crate::tt::{self, Table};
use draughts::{DrawLimits, Game, Move, MoveList, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A won position scores `WIN - plies to the win`.
pub const WIN: i32 = 30_000;
/// Scores at least this far from zero are forced wins or losses.
pub const WIN_BOUND: i32 = WIN - 1_000;
/// A position the endgame bitbases know to be won scores
/// `BITBASE_WIN - ply - distance to conversion` (lost: the negation):
/// below [`WIN_BOUND`], so never taken for a mate, and far above any
/// material count.
pub const BITBASE_WIN: i32 = 20_000;
const INF: i32 = WIN + 1;
/// Deepest ply the search reaches (extensions included).
const MAX_PLY: usize = 128;
/// Iterations beyond this depth are never started.
pub const MAX_DEPTH: u32 = 64;

/// What bounds one search. Without any limit the search runs to
/// [`MAX_DEPTH`] (or until `stop` is set).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies, before extensions).
    pub depth: Option<u32>,
    /// Time for the whole search, in milliseconds: the search iterates until
    /// it is spent (a fixed time per move is not banked: time left unused is
    /// lost). The unfinished last iteration counts only through a move that
    /// beat the last completed iteration's best at the new depth.
    pub movetime_ms: Option<u64>,
    /// Nodes: the search stops once it has visited this many (checked every
    /// few hundred nodes, so deterministic for a given count).
    pub nodes: Option<u64>,
    /// Search a position with a single legal move like any other, for its
    /// score and line (analysis, the match openings' balance). Without it
    /// that move is answered at once, scored by the static evaluation at
    /// depth 0: right for play, where the time is better kept, but a forced
    /// capture that starts a shot would be scored as the material before it.
    pub search_forced: bool,
}

/// The engine's answer: the move, its score from the mover's point of view
/// (in the evaluation's unit, where a man is [`man_value`](crate::man_value),
/// 233 to 437 by variant: shown through [`centimen`](crate::centimen); beyond
/// ±29,000 a forced win or loss), the depth of the
/// last completed iteration, nodes, time and the principal variation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchResult {
    /// The chosen move.
    pub mv: Move,
    /// Its score for the side to move.
    pub score: i32,
    /// Depth of the last completed iteration (0 for a forced single move).
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
    /// Time spent, in milliseconds.
    pub time_ms: u64,
    /// The expected line, starting with `mv`.
    pub pv: Vec<Move>,
    /// Nodes answered by the endgame bitbases.
    pub bitbase_hits: u64,
}

/// What a search reports after each completed iteration (the Hub
/// protocol's `info` lines).
#[derive(Debug, Clone)]
pub struct Progress {
    /// The best move so far, its score, the iteration's depth, nodes and
    /// time since the search began, and the principal variation.
    pub result: SearchResult,
    /// The mean ply of the iteration's leaves (where the evaluation was
    /// called or the game ended), extensions and reductions included.
    pub mean_depth: f64,
}

/// How a search is driven beyond its [`Limits`]: the stop flag, pondering
/// and a report per iteration.
pub struct Control<'a> {
    /// Set by the caller to stop the search; it then answers with the last
    /// completed iteration.
    pub stop: &'a AtomicBool,
    /// While set, the search pondering: no time, depth or node limit
    /// applies; once cleared (the Hub's `ponder-hit`) the time limits count
    /// from that moment. A search that ends while pondering waits for the
    /// flag to clear or for `stop` before answering.
    pub ponder: Option<Arc<AtomicBool>>,
    /// Called after every completed iteration.
    pub report: Option<&'a mut dyn FnMut(&Progress)>,
}

/// Zobrist keys: per (side, role) and bit, plus the side to move; a
/// compile-time constant, so no global state.
const ZOBRIST: [[u64; 64]; 4] = zobrist_keys();
const TURN_KEY: u64 = 0x5851_F42D_4C95_7F2D;

const fn zobrist_keys() -> [[u64; 64]; 4] {
    let mut keys = [[0u64; 64]; 4];
    let mut state: u64 = 0x0DA4_4A00_2026_0001;
    let mut k = 0;
    while k < 4 {
        let mut b = 0;
        while b < 64 {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            keys[k][b] = z ^ (z >> 31);
            b += 1;
        }
        k += 1;
    }
    keys
}

/// The hash of a position (pieces, kings, side to move).
pub(crate) fn hash(pos: &Position) -> u64 {
    let first = pos.variant().first_mover();
    let kings = pos.kings().0;
    let sides = [pos.pieces(first).0, pos.pieces(first.other()).0];
    let mut h = 0u64;
    for (s, &pieces) in sides.iter().enumerate() {
        for (r, set) in [(0, pieces & !kings), (1, pieces & kings)] {
            let mut b = set;
            while b != 0 {
                let bit = b.trailing_zeros() as usize;
                b &= b - 1;
                h ^= ZOBRIST[s * 2 + r][bit];
            }
        }
    }
    if pos.turn() != first {
        h ^= TURN_KEY;
    }
    h
}

/// The hash of `next`, reached by one move from `pos` whose hash is `h`:
/// only the squares whose contents changed (the move's start and end, the
/// captured pieces, a crowning) are folded in, and the turn.
#[inline]
fn hash_after(h: u64, pos: &Position, next: &Position) -> u64 {
    let first = pos.variant().first_mover();
    let (k0, k1) = (pos.kings().0, next.kings().0);
    let mut h = h ^ TURN_KEY;
    for (s, side) in [first, first.other()].into_iter().enumerate() {
        let (p0, p1) = (pos.pieces(side).0, next.pieces(side).0);
        for (r, changed) in [(0, (p0 & !k0) ^ (p1 & !k1)), (1, (p0 & k0) ^ (p1 & k1))] {
            let mut b = changed;
            while b != 0 {
                let bit = b.trailing_zeros() as usize;
                b &= b - 1;
                h ^= ZOBRIST[s * 2 + r][bit];
            }
        }
    }
    debug_assert_eq!(h, hash(next));
    h
}

/// The draw-limit counts folded into the table key: the same position with
/// different counts may be drawn in one line and not in the other.
fn limits_key(limits: &DrawLimits) -> u64 {
    let mut h = 0u64;
    for (i, c) in limits.counters().enumerate() {
        let v = (u64::from(c.moves) << 16 | u64::from(c.limit)) ^ (i as u64) << 40;
        h ^= v.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
    }
    h
}

/// The legal moves into `out`, kept out of the recursive frames (a
/// [`draughts::MoveList`] is a large array).
#[inline(never)]
fn generate(pos: &Position, out: &mut Vec<Move>) {
    let list = pos.legal_moves();
    out.clear();
    out.extend_from_slice(&list);
}

/// A search engine with its own transposition table: keep one per game to
/// reuse what earlier searches learnt. `Send`, no global state.
#[derive(Debug, Clone)]
pub struct Engine {
    tt: Arc<Table>,
    eval: Option<(draughts::Variant, Eval)>,
    history: Vec<i32>,
    killers: Vec<[Option<Move>; 2]>,
    /// One move list per ply, grown as the search goes deeper (a list is a
    /// large array: reusing it saves building one per node).
    lists: Vec<MoveList>,
    /// The moves of each ply with their ordering scores.
    buffers: Vec<Ordered>,
    /// Position hashes along the game and the current line.
    path: Vec<u64>,
    root_index: usize,
    nodes: u64,
    node_limit: u64,
    start: Instant,
    /// When the time limits began to count (the start, or `ponder-hit`).
    clock_start: Instant,
    /// The pondering flag of the running search (see [`Control::ponder`]).
    ponder: Option<Arc<AtomicBool>>,
    /// Sum and count of the leaves' plies in the running iteration.
    leaf_plies: u64,
    leaves: u64,
    soft: Option<Duration>,
    hard: Option<Duration>,
    /// Whether `soft` comes from a clock's budget, so the search may
    /// stretch or shrink it by how settled the best move is.
    stretch: bool,
    aborted: bool,
    /// Whether the running iteration may be cut (never the first: it
    /// always finishes, so there is a move).
    can_abort: bool,
    seldepth: usize,
    /// Endgame tables probed below the root (see [`Engine::set_bitbases`]).
    bitbases: Option<Arc<crate::Bitbases>>,
    bitbase_hits: u64,
    /// [`lmr`] by depth and move index, computed once (a logarithm per
    /// late move showed in the profile).
    reductions: Vec<[u8; 64]>,
    /// What a draw is worth to the side that searches (negated): see
    /// [`Engine::set_contempt`].
    contempt: i32,
    /// Play from the committed opening book when it has the position.
    book: bool,
    /// Evaluate with the variant's region patterns, where it has them: see
    /// [`Engine::set_region_patterns`].
    region_patterns: bool,
    /// Region weights from a file, used instead of the committed ones in their
    /// variant: see [`Engine::set_region_weights`].
    region_weights: Option<crate::regions::RegionWeights>,
    /// Search threads (1: this one alone); see [`Engine::set_threads`].
    threads: usize,
    /// The helper threads' engines, kept between searches (their
    /// histories and move lists), sharing this engine's table.
    helpers: Vec<Engine>,
    /// This engine's place among the threads of a search: 0 for the one
    /// that answers, 1.. for the helpers.
    helper_index: usize,
    /// The helpers' nodes of the running search, added in steps of
    /// [`CHECK_EVERY`] as they go (shared with the helpers): progress
    /// reports count every thread's nodes.
    helper_nodes: Arc<AtomicU64>,
    /// The running iteration's depth (singular extensions stop below
    /// twice this ply).
    iteration_depth: i32,
    /// The running search's singular extensions and multi-cuts.
    singular_counts: [u64; 2],
}

/// Half-width of the first aspiration window (evaluation unit: a man is 233 to 437).
const ASPIRATION: i32 = 25;
/// Past this half-width the window opens fully.
const ASPIRATION_MAX: i32 = 400;

/// ProbCut: from this depth, ...
const PROBCUT_DEPTH: i32 = 6;
/// ... the first moves (in order) searched this much shallower ...
const PROBCUT_REDUCTION: i32 = 4;
const PROBCUT_MOVES: usize = 3;
/// ... must beat beta by this margin (evaluation unit).
const PROBCUT_MARGIN: i32 = 100;

/// Singular extension: from this depth, a hash move whose stored lower
/// bound holds (searched at least `depth - SINGULAR_SLACK`) ...
const SINGULAR_DEPTH: i32 = 6;
const SINGULAR_SLACK: i32 = 3;
/// ... is searched one ply deeper when every other move, searched at half
/// the depth, stays below its score minus this much a ply of depth.
const SINGULAR_MARGIN: i32 = 2;

/// Late-move pruning: at non-PV nodes of depth 1 to `LMP_DEPTH`, the
/// quiet moves from index `LMP_BASE + depth²` on are skipped (measured:
/// docs/engine.md, "Fifth round").
const LMP_DEPTH: i32 = 3;
const LMP_BASE: i32 = 3;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 512;

impl Engine {
    /// An engine with a table of `2^tt_bits` entries (16 bytes each).
    #[must_use]
    pub fn new(tt_bits: u32) -> Engine {
        Engine {
            tt: Arc::new(Table::new(tt_bits)),
            eval: None,
            history: vec![0; 2 * 64 * 64],
            killers: vec![[None; 2]; MAX_PLY + 1],
            lists: Vec::new(),
            buffers: (0..=MAX_PLY).map(|_| Ordered::default()).collect(),
            path: Vec::with_capacity(256),
            root_index: 0,
            nodes: 0,
            node_limit: u64::MAX,
            start: Instant::now(),
            clock_start: Instant::now(),
            ponder: None,
            leaf_plies: 0,
            leaves: 0,
            soft: None,
            hard: None,
            stretch: false,
            aborted: false,
            can_abort: false,
            seldepth: 0,
            bitbases: None,
            bitbase_hits: 0,
            reductions: (0..64)
                .map(|d| std::array::from_fn(|i| lmr(d, i) as u8))
                .collect(),
            contempt: 0,
            book: false,
            threads: 1,
            region_patterns: true,
            region_weights: None,
            helpers: Vec::new(),
            helper_index: 0,
            helper_nodes: Arc::new(AtomicU64::new(0)),
            iteration_depth: 0,
            singular_counts: [0; 2],
        }
    }

    /// Searches with `n` threads (at least 1): this one, which answers, and
    /// `n - 1` helpers that search the same position from the same
    /// iterative deepening (every other helper skipping alternate depths)
    /// and share the transposition table, so each finds the others' results
    /// there ("lazy SMP"). One thread by default; with more, a search stopped
    /// by nodes is no longer repeatable.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, 64);
    }

    /// A helper for this engine: its own histories and lists, this
    /// engine's transposition table (the endgame tables and the contempt
    /// are handed over at each search).
    fn helper(&self, index: usize) -> Engine {
        let mut h = Engine::new(4);
        h.tt = Arc::clone(&self.tt);
        h.helper_nodes = Arc::clone(&self.helper_nodes);
        h.helper_index = index;
        h
    }

    /// A helper's share of a search: the whole iterative deepening of
    /// `game`'s position until `done` is set.
    fn help(&mut self, game: &Game, done: &AtomicBool) {
        let limits = Limits {
            search_forced: true,
            ..Limits::default()
        };
        let mut control = Control {
            stop: done,
            ponder: None,
            report: None,
        };
        self.search_with(game, &limits, &mut control, None);
    }

    /// Plays from the variant's committed opening book ([`crate::book`])
    /// when it has the position (off by default; never for a search with
    /// [`Limits::search_forced`], which is analysis). A book move is
    /// answered at once, with the book's score and depth and no nodes.
    pub fn set_book(&mut self, on: bool) {
        self.book = on;
    }

    /// Endgame tables to probe at every node below the root whose position
    /// they cover (`None`: none). A won position then scores
    /// [`BITBASE_WIN`] less the ply and the distance to conversion, so the
    /// engine still heads for the conversion; a drawn one 0.
    pub fn set_bitbases(&mut self, bitbases: Option<Arc<crate::Bitbases>>) {
        self.bitbases = bitbases;
    }

    /// Contempt for draws, in the evaluation's unit (0 by default, at most
    /// 500 either way; a man is [`man_value`](crate::man_value), 233 to 437
    /// by variant): a draw by repetition, by a move limit or in the
    /// tables scores `-contempt` for the side to move at the root (and
    /// `+contempt` for its opponent), so with a positive value the engine
    /// avoids a draw unless it is worse by more than that. Keep the engine
    /// to one side of a game (the table keeps draw scores across searches).
    pub fn set_contempt(&mut self, contempt: i32) {
        self.contempt = contempt.clamp(-500, 500);
    }

    /// Evaluates with the variant's learned region patterns (on by default)
    /// or without them. The puzzles turn them off: their sets were made and
    /// checked with the evaluation without them, and a puzzle should not
    /// change with every refit of the playing strength (docs/puzzles.md).
    pub fn set_region_patterns(&mut self, on: bool) {
        if self.region_patterns != on {
            self.region_patterns = on;
            self.eval = None;
        }
    }

    /// Evaluates with region weights `w` (read from a file) instead of the committed
    /// ones, in `w`'s variant, or with the committed ones again (`None`): how a fit is
    /// matched before it is committed (`draughts match --param1 region-file=FILE`).
    /// The table is not cleared: set them before a game's first search.
    pub fn set_region_weights(&mut self, w: Option<crate::regions::RegionWeights>) {
        let same = match (&self.region_weights, &w) {
            (None, None) => true,
            (Some(a), Some(b)) => a.same(b),
            _ => false,
        };
        if !same {
            self.region_weights = w;
            self.eval = None;
        }
    }

    /// A draw's score for the side to move at `ply`.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The score of `pos` from the bitbases, if they cover it.
    #[inline]
    fn probe_bitbase(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let bb = self.bitbases.as_ref()?;
        let p = bb.probe_dtc(pos)?;
        self.bitbase_hits += 1;
        let win = BITBASE_WIN - ply as i32 - i32::from(p.dtc);
        Some(match p.wdl {
            crate::Wdl::Win => win,
            crate::Wdl::Draw => self.draw_score(ply),
            crate::Wdl::Loss => -win,
        })
    }

    /// Bytes of the transposition table.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The last search's singular extensions and multi-cuts.
    #[cfg(test)]
    pub(crate) fn singular_counts(&self) -> [u64; 2] {
        self.singular_counts
    }

    /// Whether the table holds the current position of `game`.
    #[cfg(test)]
    pub(crate) fn knows(&self, game: &Game) -> bool {
        self.tt
            .probe(hash(game.position()) ^ limits_key(&game.draw_limits()))
            .is_some()
    }

    fn eval_for(&mut self, variant: draughts::Variant) -> &Eval {
        if self.eval.as_ref().is_none_or(|(v, _)| *v != variant) {
            let eval = match &self.region_weights {
                _ if !self.region_patterns => Eval::without_regions(variant),
                Some(w) if w.variant() == variant => {
                    Eval::without_regions(variant).with_shared_regions(w.regions())
                }
                _ => Eval::new(variant),
            };
            self.eval = Some((variant, eval));
        }
        &self.eval.as_ref().expect("just set").1
    }

    /// The static evaluation of `pos` for the side to move, in the
    /// evaluation's unit ([`man_value`](crate::man_value) a man).
    pub fn evaluate(&mut self, pos: &Position) -> i32 {
        let variant = pos.variant();
        self.eval_for(variant).evaluate(pos)
    }

    fn evaluate_now(&self, pos: &Position) -> i32 {
        self.eval.as_ref().expect("set at the root").1.evaluate(pos)
    }

    /// Searches the game's current position within `limits`; `None` when the
    /// game is over. A single legal move is answered at once (depth 0) unless
    /// [`Limits::search_forced`] is set.
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        let mut control = Control {
            stop,
            ponder: None,
            report: None,
        };
        self.search_with(game, limits, &mut control, None)
    }

    /// Searches like [`Engine::search`] (or [`Engine::search_clock`] when
    /// `clock` is given, with its cap in milliseconds), driven by `control`:
    /// pondering and a report per iteration.
    pub fn search_controlled(
        &mut self,
        game: &Game,
        limits: &Limits,
        clock: Option<(crate::ClockLimits, u64)>,
        control: &mut Control<'_>,
    ) -> Option<SearchResult> {
        let budget = clock.map(|(c, cap)| c.budget(cap));
        self.search_with(game, limits, control, budget)
    }

    /// Searches the game's current position on a clock: the time
    /// [`ClockLimits::budget`](crate::ClockLimits::budget) allots (at most
    /// `cap_ms`), within `limits` too.
    pub fn search_clock(
        &mut self,
        game: &Game,
        clock: crate::ClockLimits,
        cap_ms: u64,
        limits: &Limits,
        stop: &AtomicBool,
    ) -> Option<SearchResult> {
        let budget = clock.budget(cap_ms);
        let mut control = Control {
            stop,
            ponder: None,
            report: None,
        };
        self.search_with(game, limits, &mut control, Some(budget))
    }

    /// Scores every root move with a full window at `depth` (for the
    /// beginner level's choice among near-best moves), best first.
    pub fn score_root_moves(
        &mut self,
        game: &Game,
        depth: u32,
        stop: &AtomicBool,
    ) -> Vec<(Move, i32)> {
        let mut scored = Vec::new();
        if game.outcome().is_some() {
            return scored;
        }
        self.prepare(game, &Limits::default());
        let pos = game.position().clone();
        let limits = game.draw_limits();
        let mut moves = Vec::new();
        generate(&pos, &mut moves);
        for m in moves {
            let s = self.child_score(&pos, &limits, &m, depth.max(1) as i32, -INF, INF, stop);
            scored.push((m, s));
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.1));
        scored
    }

    fn prepare(&mut self, game: &Game, limits: &Limits) {
        self.start = Instant::now();
        self.clock_start = self.start;
        self.ponder = None;
        self.nodes = 0;
        self.singular_counts = [0; 2];
        self.bitbase_hits = 0;
        self.aborted = false;
        self.can_abort = false;
        self.seldepth = 0;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.soft = limits.movetime_ms.map(Duration::from_millis);
        self.hard = limits.movetime_ms.map(Duration::from_millis);
        self.stretch = false;
        if self.helper_index == 0 {
            self.tt.new_search();
            self.helper_nodes.store(0, Ordering::Relaxed);
        }
        for h in &mut self.history {
            *h /= 8;
        }
        for k in &mut self.killers {
            *k = [None; 2];
        }
        let variant = game.position().variant();
        self.eval_for(variant);
        // The positions that may still recur: back to the last capture or
        // man move.
        self.path.clear();
        let mut pos = game.initial().clone();
        self.path.push(hash(&pos));
        for m in game.moves() {
            let man = !pos.kings().contains(m.from());
            pos.play_unchecked(m);
            if m.is_capture() || man {
                self.path.clear();
            }
            self.path.push(hash(&pos));
        }
        self.root_index = self.path.len() - 1;
    }

    fn search_with(
        &mut self,
        game: &Game,
        limits: &Limits,
        control: &mut Control<'_>,
        soft_hard: Option<(Duration, Duration)>,
    ) -> Option<SearchResult> {
        if game.outcome().is_some() {
            return None;
        }
        let stop = control.stop;
        self.prepare(game, limits);
        self.ponder = control.ponder.clone();
        if let Some((soft, hard)) = soft_hard {
            self.soft = Some(self.soft.map_or(soft, |s| s.min(soft)));
            self.hard = Some(self.hard.map_or(hard, |h| h.min(hard)));
            // A search capped by depth or nodes (the weaker levels) keeps
            // its limits as they are: the clock is only its safety net.
            self.stretch =
                self.soft < self.hard && limits.depth.is_none() && limits.nodes.is_none();
        }
        let pos = game.position().clone();
        if self.book
            && !limits.search_forced
            && let Some(e) = crate::book::committed(pos.variant()).probe(&pos)
        {
            self.wait_while_pondering(stop);
            return Some(self.result(e.mv, e.score, e.depth, vec![e.mv]));
        }
        let draw = game.draw_limits();
        let mut moves = Vec::new();
        generate(&pos, &mut moves);
        if moves.len() == 1 && !limits.search_forced {
            let score = self.evaluate_now(&pos);
            self.wait_while_pondering(stop);
            return Some(self.result(moves[0], score, 0, vec![moves[0]]));
        }
        if self.threads > 1 && self.helper_index == 0 {
            return Some(
                self.with_helpers(game, |e| e.iterate(limits, control, &pos, &draw, &moves)),
            );
        }
        Some(self.iterate(limits, control, &pos, &draw, &moves))
    }

    /// Runs `search` (this thread's [`Engine::iterate`]) with the helper
    /// threads searching `game` beside it until it answers.
    fn with_helpers(
        &mut self,
        game: &Game,
        search: impl FnOnce(&mut Engine) -> SearchResult,
    ) -> SearchResult {
        let mut helpers = std::mem::take(&mut self.helpers);
        helpers.truncate(self.threads - 1);
        while helpers.len() < self.threads - 1 {
            helpers.push(self.helper(helpers.len() + 1));
        }
        for h in &mut helpers {
            h.bitbases.clone_from(&self.bitbases);
            h.contempt = self.contempt;
            h.set_region_patterns(self.region_patterns);
            h.set_region_weights(self.region_weights.clone());
        }
        let done = AtomicBool::new(false);
        let mut result = std::thread::scope(|s| {
            for h in &mut helpers {
                let done = &done;
                s.spawn(move || h.help(game, done));
            }
            let result = search(self);
            done.store(true, Ordering::Relaxed);
            result
        });
        // Exact, where the progress reports counted the helpers in steps.
        result.nodes = self.nodes + helpers.iter().map(|h| h.nodes).sum::<u64>();
        self.helpers = helpers;
        result
    }

    /// The iterative deepening of the search of `pos` (not over, more than
    /// one move or a forced search) after [`Engine::prepare`].
    fn iterate(
        &mut self,
        limits: &Limits,
        control: &mut Control<'_>,
        pos: &Position,
        draw: &DrawLimits,
        moves: &[Move],
    ) -> SearchResult {
        let stop = control.stop;
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        let mut best: Option<(Move, i32, u32)> = None;
        let mut settled = Settled::default();
        // Root moves in the order of the last iteration.
        let mut order: Vec<(Move, i32)> = moves.iter().map(|&m| (m, 0)).collect();
        if let Some(e) = self.tt.probe(hash(pos) ^ limits_key(draw))
            && let Some(i) = order.iter().position(|(m, _)| e.is_move(m))
        {
            order.swap(0, i);
        }
        for depth in 1..=MAX_DEPTH {
            let pondering = self.pondering();
            if depth > max_depth && !pondering {
                break;
            }
            if depth > 1 {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                if !pondering
                    && (self.nodes >= self.node_limit
                        || self.soft.is_some_and(|soft| {
                            self.clock_start.elapsed()
                                >= settled.soft(soft, self.hard, self.stretch)
                        }))
                {
                    break;
                }
            }
            // Every other helper skips alternate depths (from 3), so the
            // threads spread over two depths.
            if self.helper_index % 2 == 1 && depth > 2 && depth % 2 == 1 {
                continue;
            }
            self.can_abort = depth > 1;
            self.iteration_depth = depth as i32;
            self.leaf_plies = 0;
            self.leaves = 0;
            // Aspiration: from depth 4 the window is centred on the last
            // score and widened (doubling) on a fail, down to the full width.
            let mut delta = ASPIRATION;
            let (mut low, mut high) = match best {
                Some((_, s, _)) if depth >= 4 && s.abs() < WIN_BOUND => (s - delta, s + delta),
                _ => (-INF, INF),
            };
            let mut iteration_best: Option<(Move, i32)>;
            loop {
                let mut alpha = low;
                let beta = high;
                let mut best_score = -INF;
                iteration_best = None;
                for i in 0..order.len() {
                    let m = order[i].0;
                    let d = depth as i32;
                    let score = if i == 0 {
                        self.child_score(pos, draw, &m, d, alpha, beta, stop)
                    } else {
                        let s = self.child_score(pos, draw, &m, d, alpha, alpha + 1, stop);
                        if s > alpha && s < beta && !self.aborted {
                            self.child_score(pos, draw, &m, d, alpha, beta, stop)
                        } else {
                            s
                        }
                    };
                    // An aborted iteration keeps only what it completed, and
                    // never the first iteration's abort (it always finishes).
                    if self.aborted && depth > 1 {
                        break;
                    }
                    order[i].1 = score;
                    best_score = best_score.max(score);
                    if score > alpha {
                        alpha = score;
                        iteration_best = Some((m, score));
                        // Best first for the next iteration.
                        let entry = order.remove(i);
                        order.insert(0, entry);
                        if score >= beta {
                            break;
                        }
                    }
                }
                if self.aborted && depth > 1 {
                    break;
                }
                if best_score <= low && low > -INF {
                    delta *= 2;
                    low = if delta > ASPIRATION_MAX {
                        -INF
                    } else {
                        (low - delta).max(-INF)
                    };
                } else if best_score >= high && high < INF {
                    delta *= 2;
                    high = if delta > ASPIRATION_MAX {
                        INF
                    } else {
                        (high + delta).min(INF)
                    };
                } else {
                    break;
                }
            }
            if let Some((m, s)) = iteration_best {
                let completed = !self.aborted || depth == 1;
                if completed {
                    best = Some((m, s, depth));
                    settled.after_iteration(m, s, depth);
                    self.tt.store(
                        hash(pos) ^ limits_key(draw),
                        depth as i32,
                        s,
                        tt::EXACT,
                        Some(&m),
                    );
                } else if best.is_some_and(|(_, _, d)| d + 1 == depth)
                    && best.is_some_and(|(bm, _, _)| bm != m)
                {
                    // A new best move found in an unfinished iteration that
                    // beat the previous best at this depth is still better.
                    best = Some((m, s, depth - 1));
                }
            }
            if self.aborted && depth > 1 {
                break;
            }
            if let (Some(report), Some((m, s, d))) = (control.report.as_mut(), best)
                && d == depth
            {
                let pv = self.pv_from_table(pos, draw, m);
                let mean_depth = if self.leaves > 0 {
                    self.leaf_plies as f64 / self.leaves as f64
                } else {
                    f64::from(depth)
                };
                report(&Progress {
                    result: self.result(m, s, d, pv),
                    mean_depth,
                });
            }
            // A forced win or loss found: deeper will not change it.
            if best.is_some_and(|(_, s, _)| s.abs() >= WIN_BOUND && depth >= 2) {
                let plies = (WIN - best.map_or(0, |b| b.1.abs())) as u32;
                if plies < depth {
                    break;
                }
            }
            self.aborted = false;
        }
        self.wait_while_pondering(stop);
        let (m, score, depth) = best.unwrap_or((moves[0], 0, 0));
        let pv = self.pv_from_table(pos, draw, m);
        self.result(m, score, depth, pv)
    }

    /// Whether the search is pondering; the first look after the flag
    /// cleared starts the time limits.
    fn pondering(&mut self) -> bool {
        match &self.ponder {
            Some(flag) if flag.load(Ordering::Relaxed) => true,
            Some(_) => {
                self.ponder = None;
                self.clock_start = Instant::now();
                false
            }
            None => false,
        }
    }

    /// A search that ended while pondering waits for `ponder-hit` or `stop`.
    fn wait_while_pondering(&mut self, stop: &AtomicBool) {
        while self.pondering() && !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn result(&self, mv: Move, score: i32, depth: u32, pv: Vec<Move>) -> SearchResult {
        let helpers = if self.threads > 1 && self.helper_index == 0 {
            self.helper_nodes.load(Ordering::Relaxed)
        } else {
            0
        };
        SearchResult {
            mv,
            score,
            depth,
            nodes: self.nodes + helpers,
            time_ms: self.start.elapsed().as_millis() as u64,
            pv,
            bitbase_hits: self.bitbase_hits,
        }
    }

    /// The principal variation: `first`, then the table's moves while they
    /// are legal and no position repeats.
    fn pv_from_table(&self, root: &Position, draw: &DrawLimits, first: Move) -> Vec<Move> {
        let mut pv = vec![first];
        let mut pos = root.clone();
        let mut limits = draw.clone();
        let mut seen = vec![hash(&pos)];
        let mut m = first;
        while pv.len() < 32 {
            let before = pos.clone();
            pos.play_unchecked(&m);
            limits = limits.after_move(&before, &m, &pos);
            let h = hash(&pos);
            if seen.contains(&h) || limits.reached() {
                break;
            }
            seen.push(h);
            let Some(e) = self.tt.probe(h ^ limits_key(&limits)) else {
                break;
            };
            let mut moves = Vec::new();
            generate(&pos, &mut moves);
            let Some(next) = moves.iter().find(|x| e.is_move(x)) else {
                break;
            };
            m = *next;
            pv.push(m);
        }
        pv
    }

    /// Whether the hash move (first in `scored`) is singular: every other
    /// move, searched at half the depth, fails low against the stored
    /// score less a margin (then it is searched one ply deeper); or
    /// another move beats that bound too ([`Singular::Cut`] with the
    /// bound: at a non-PV node where it reaches beta, two moves beat beta
    /// and the node is cut).
    #[allow(clippy::too_many_arguments)]
    fn singular(
        &mut self,
        pos: &Position,
        draw: &DrawLimits,
        irrev_from: usize,
        depth: i32,
        ply: usize,
        threat_extended: bool,
        stop: &AtomicBool,
        scored: &mut Ordered,
        entry: Option<tt::Entry>,
    ) -> Singular {
        let Some(e) = entry else {
            return Singular::No;
        };
        if depth < SINGULAR_DEPTH
            || ply == 0
            || ply as i32 >= 2 * self.iteration_depth
            || scored.keys.len() < 2
            || !e.has_move
            || e.bound == tt::UPPER
            || i32::from(e.depth) < depth - SINGULAR_SLACK
        {
            return Singular::No;
        }
        let tt_score = score_from_tt(i32::from(e.score), ply);
        if tt_score.abs() >= WIN_BOUND / 2 {
            return Singular::No;
        }
        let s_beta = tt_score - SINGULAR_MARGIN * depth;
        let first = scored.pick(0);
        if !e.is_move(&self.lists[ply][first]) {
            return Singular::No;
        }
        for i in 1..scored.keys.len() {
            let m = self.lists[ply][scored.pick(i)];
            let score = self.null_window_child(
                (pos, draw, irrev_from),
                &m,
                depth / 2 - 1,
                ply,
                s_beta,
                threat_extended,
                stop,
            );
            if self.aborted {
                return Singular::No;
            }
            if score >= s_beta {
                return Singular::Cut(s_beta);
            }
        }
        Singular::Extend
    }

    /// Plays `m` from `pos` (at `ply`, its line's positions since the last
    /// irreversible move from `irrev_from`) and searches the reply to
    /// `depth` with a null window at `bound`: the score for the mover,
    /// which reaches `bound` when the move does (ProbCut, the singular test).
    #[allow(clippy::too_many_arguments)]
    fn null_window_child(
        &mut self,
        (pos, draw, irrev_from): (&Position, &DrawLimits, usize),
        m: &Move,
        depth: i32,
        ply: usize,
        bound: i32,
        threat_extended: bool,
        stop: &AtomicBool,
    ) -> i32 {
        let child = self.enter(pos, draw, irrev_from, m);
        let score = -self.node(
            &child.pos,
            &child.draw,
            child.irrev_from,
            depth,
            ply + 1,
            -bound,
            -bound + 1,
            threat_extended,
            stop,
        );
        self.leave(&child);
        score
    }

    /// Steps into the child of `pos` by `m`: the child's position and draw
    /// counts, and its hash pushed on the path (`irrev_from` is where the
    /// parent's repetitions may start; a capture or a man's move starts the
    /// child's afresh). [`Engine::leave`] steps back out.
    #[inline]
    fn enter(&mut self, pos: &Position, draw: &DrawLimits, irrev_from: usize, m: &Move) -> Child {
        let mut next = pos.clone();
        next.play_unchecked(m);
        let next_draw = draw.after_move(pos, m, &next);
        let irreversible = m.is_capture() || !pos.kings().contains(m.from());
        let len = self.path.len();
        self.path.push(hash_after(self.path[len - 1], pos, &next));
        Child {
            pos: next,
            draw: next_draw,
            irrev_from: if irreversible { len } else { irrev_from },
            path_len: len,
        }
    }

    /// Steps back out of `child` (see [`Engine::enter`]).
    #[inline]
    fn leave(&mut self, child: &Child) {
        self.path.truncate(child.path_len);
    }

    /// Plays `m` from `pos` and returns its score for the mover.
    #[allow(clippy::too_many_arguments)]
    fn child_score(
        &mut self,
        pos: &Position,
        draw: &DrawLimits,
        m: &Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        stop: &AtomicBool,
    ) -> i32 {
        let saved_root = self.root_index;
        // The root's own repetitions were counted in the game's history
        // (`root_index`): a line searched from here starts at 0.
        let child = self.enter(pos, draw, 0, m);
        let score = -self.node(
            &child.pos,
            &child.draw,
            child.irrev_from,
            depth - 1,
            1,
            -beta,
            -alpha,
            false,
            stop,
        );
        self.leave(&child);
        self.root_index = saved_root;
        score
    }

    fn check_limits(&mut self, stop: &AtomicBool) {
        if !self.can_abort {
            return;
        }
        if stop.load(Ordering::Relaxed) {
            self.aborted = true;
            return;
        }
        if self.ponder.is_some() && self.pondering() {
            return;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
            return;
        }
        if let Some(hard) = self.hard
            && self.clock_start.elapsed() >= hard
        {
            self.aborted = true;
        }
    }

    /// Whether the position at the end of the path is drawn by repetition:
    /// it occurred before in the searched line, or twice before in the game.
    fn repeated(&self, irrev_from: usize) -> bool {
        let i = self.path.len() - 1;
        let h = self.path[i];
        let mut count = 0;
        let mut j = i;
        while j >= irrev_from + 2 {
            j -= 2;
            if self.path[j] == h {
                if j >= self.root_index {
                    return true;
                }
                count += 1;
                if count >= 2 {
                    return true;
                }
            }
        }
        false
    }

    /// The recursive search of the position at the end of the path.
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        pos: &Position,
        draw: &DrawLimits,
        irrev_from: usize,
        mut depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        threat_extended: bool,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            if self.helper_index > 0 {
                self.helper_nodes.fetch_add(CHECK_EVERY, Ordering::Relaxed);
            }
            self.check_limits(stop);
        }
        if self.aborted {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // A position that occurred before in the line or the game had legal
        // moves then: drawn, whatever its moves now.
        if self.repeated(irrev_from) {
            self.leaf(ply);
            return self.draw_score(ply);
        }
        // Above the leaves, the table before the moves: a cut here saves
        // generating them. (At the leaves most positions are quiet and
        // evaluated without looking at the table: probed later, and only
        // where the search goes on.)
        let key = self.path[self.path.len() - 1] ^ limits_key(draw);
        let mut entry = None;
        if depth > 0 {
            entry = self.tt.probe(key);
            if let Some(e) = entry
                && beta - alpha == 1
                && i32::from(e.depth) >= depth
                && ply < MAX_PLY - 1
                && !draw.reached()
                && let Some(s) = tt_cut(&e, ply, alpha, beta)
            {
                return s;
            }
        }
        if self.lists.len() <= ply {
            self.grow_lists(ply);
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        let list = &mut self.lists[ply];
        pos.legal_moves_into(list);
        moves.keys.clear();
        moves.keys.extend((0..list.len() as u32).map(|i| (0, i)));
        let score = self.node_with_moves(
            pos,
            draw,
            irrev_from,
            &mut depth,
            ply,
            &mut alpha,
            beta,
            threat_extended,
            stop,
            &mut moves,
            (key, entry),
        );
        self.buffers[ply] = moves;
        score
    }

    /// Counts a leaf of the running iteration at `ply`.
    fn leaf(&mut self, ply: usize) {
        self.leaf_plies += ply as u64;
        self.leaves += 1;
    }

    /// Lists up to `ply`, built outside the recursive frames (a list is a
    /// 10 KiB array: built inline it would take that much stack per ply).
    #[inline(never)]
    fn grow_lists(&mut self, ply: usize) {
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn node_with_moves(
        &mut self,
        pos: &Position,
        draw: &DrawLimits,
        irrev_from: usize,
        depth: &mut i32,
        ply: usize,
        alpha: &mut i32,
        beta: i32,
        threat_extended: bool,
        stop: &AtomicBool,
        ordered: &mut Ordered,
        (key, mut entry): (u64, Option<tt::Entry>),
    ) -> i32 {
        if ordered.keys.is_empty() {
            self.leaf(ply);
            return -(WIN - ply as i32);
        }
        if draw.reached() {
            self.leaf(ply);
            return self.draw_score(ply);
        }
        if let Some(score) = self.probe_bitbase(pos, ply) {
            self.leaf(ply);
            return score;
        }
        if ply >= MAX_PLY - 1 {
            self.leaf(ply);
            return self.evaluate_now(pos);
        }
        let pv_node = beta - *alpha > 1;
        // A leaf: `node` did not look at the table (also when the threat
        // extension below gives it one more ply).
        let leaf = *depth <= 0;
        let forced_capture = self.lists[ply][0].is_capture() && !pos.rules().capture_optional;
        let mut threat_extended = threat_extended;
        let mut stand_pat = None;
        if *depth <= 0 && !forced_capture {
            let eval = self.evaluate_now(pos);
            let list = &self.lists[ply];
            let has_capture = list.iter().any(Move::is_capture);
            if has_capture {
                // Optional captures: the side may stand pat or capture.
                if eval >= beta {
                    self.leaf(ply);
                    return eval;
                }
                ordered
                    .keys
                    .retain(|&(_, ix)| list[ix as usize].is_capture());
                stand_pat = Some(eval);
                *alpha = (*alpha).max(eval);
            } else if !threat_extended && pos.pass().has_capture() && eval < beta + 300 {
                // The opponent threatens a capture: one more ply of quiet
                // moves, once per line.
                threat_extended = true;
                *depth = 1;
            } else {
                self.leaf(ply);
                return eval;
            }
        }
        if leaf {
            entry = self.tt.probe(key);
            if let Some(e) = entry
                && !pv_node
                && i32::from(e.depth) >= *depth
                && let Some(s) = tt_cut(&e, ply, *alpha, beta)
            {
                return s;
            }
        }
        // Order: hash move, killers, history (captures all carry the same
        // bonus: when they exist they are the only moves).
        let side = usize::from(pos.turn() != pos.variant().first_mover());
        let killers = self.killers[ply];
        let (list, history) = (&self.lists[ply], &self.history);
        for (s, ix) in ordered.keys.iter_mut() {
            let m = &list[*ix as usize];
            *s = if entry.is_some_and(|e| e.is_move(m)) {
                1 << 30
            } else if m.is_capture() {
                (1 << 24) + m.captures().count() as i32 * 1000
            } else if killers[0] == Some(*m) {
                1 << 22
            } else if killers[1] == Some(*m) {
                (1 << 22) - 1
            } else {
                history[history_index(side, m)]
            };
        }
        // Sorted lazily: each move is picked when its turn comes (a cut
        // usually comes early).
        let scored = ordered;
        let single = scored.keys.len() == 1;
        // ProbCut: at a non-PV node deep enough, a move whose shallow search
        // (depth - 4) beats beta by a margin is taken to beat beta at full
        // depth. (Null move is unsafe in draughts: zugzwang is common.)
        if !pv_node
            && !single
            && *depth >= PROBCUT_DEPTH
            && stand_pat.is_none()
            && beta.abs() < WIN_BOUND - PROBCUT_MARGIN
        {
            let pc_beta = beta + PROBCUT_MARGIN;
            for i in 0..scored.keys.len().min(PROBCUT_MOVES) {
                let m = self.lists[ply][scored.pick(i)];
                let score = self.null_window_child(
                    (pos, draw, irrev_from),
                    &m,
                    *depth - 1 - PROBCUT_REDUCTION,
                    ply,
                    pc_beta,
                    threat_extended,
                    stop,
                );
                if self.aborted {
                    return 0;
                }
                if score >= pc_beta {
                    return beta;
                }
            }
        }
        let singular = self.singular(
            pos,
            draw,
            irrev_from,
            *depth,
            ply,
            threat_extended,
            stop,
            scored,
            entry,
        );
        if self.aborted {
            return 0;
        }
        // Multi-cut: another move beats beta at half the depth as well.
        if let Singular::Cut(s) = singular
            && !pv_node
            && s >= beta
        {
            self.singular_counts[1] += 1;
            return s;
        }
        let singular = singular == Singular::Extend;
        self.singular_counts[0] += u64::from(singular);
        let original_alpha = *alpha;
        let mut best = stand_pat.unwrap_or(-INF);
        let mut best_move: Option<Move> = None;
        for i in 0..scored.keys.len() {
            let m = self.lists[ply][scored.pick(i)];
            // Late-move pruning: near the leaves of a non-PV node, once a
            // move that does not lose is in hand, the quiet moves ordered
            // past `LMP_BASE + depth²` are not searched.
            if !pv_node
                && (1..=LMP_DEPTH).contains(depth)
                && !m.is_capture()
                && best > -WIN_BOUND
                && i as i32 >= LMP_BASE + *depth * *depth
            {
                break;
            }
            let child = self.enter(pos, draw, irrev_from, &m);
            // A forced reply costs no depth, nor a singular hash move.
            let mut new_depth = if (single && *depth > 0) || (i == 0 && singular) {
                *depth
            } else {
                *depth - 1
            };
            let quiet = !m.is_capture();
            let reduce = *depth >= 3
                && i >= if pv_node { 4 } else { 2 }
                && quiet
                && killers[0] != Some(m)
                && killers[1] != Some(m);
            let mut score;
            if i == 0 {
                score = -self.node(
                    &child.pos,
                    &child.draw,
                    child.irrev_from,
                    new_depth,
                    ply + 1,
                    -beta,
                    -*alpha,
                    threat_extended,
                    stop,
                );
            } else {
                // Late moves lose more the later and the deeper they are
                // (one ply less on the principal variation), never into
                // the quiescence search.
                let reduction = if reduce {
                    let r = i32::from(self.reductions[(*depth).clamp(0, 63) as usize][i.min(63)])
                        - i32::from(pv_node);
                    r.clamp(1, (new_depth - 1).max(1))
                } else {
                    0
                };
                new_depth -= reduction;
                score = -self.node(
                    &child.pos,
                    &child.draw,
                    child.irrev_from,
                    new_depth,
                    ply + 1,
                    -*alpha - 1,
                    -*alpha,
                    threat_extended,
                    stop,
                );
                if reduction > 0 && score > *alpha && !self.aborted {
                    new_depth += reduction;
                    score = -self.node(
                        &child.pos,
                        &child.draw,
                        child.irrev_from,
                        new_depth,
                        ply + 1,
                        -*alpha - 1,
                        -*alpha,
                        threat_extended,
                        stop,
                    );
                }
                if score > *alpha && score < beta && !self.aborted {
                    score = -self.node(
                        &child.pos,
                        &child.draw,
                        child.irrev_from,
                        new_depth,
                        ply + 1,
                        -beta,
                        -*alpha,
                        threat_extended,
                        stop,
                    );
                }
            }
            self.leave(&child);
            if self.aborted {
                return 0;
            }
            if score > best {
                best = score;
                if score > *alpha {
                    *alpha = score;
                    best_move = Some(m);
                    if score >= beta {
                        if quiet {
                            let k = &mut self.killers[ply];
                            if k[0] != Some(m) {
                                k[1] = k[0];
                                k[0] = Some(m);
                            }
                            let d = (*depth).max(1);
                            let h = &mut self.history[history_index(side, &m)];
                            *h = (*h + d * d).min(1 << 20);
                            // The quiet moves tried before it did not cut.
                            for &(_, ix) in &scored.keys[..i] {
                                let tried = &self.lists[ply][ix as usize];
                                if !tried.is_capture() {
                                    let h = &mut self.history[history_index(side, tried)];
                                    *h = (*h - d * d).max(-(1 << 20));
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            tt::LOWER
        } else if best > original_alpha {
            tt::EXACT
        } else {
            tt::UPPER
        };
        if stand_pat.is_none() {
            self.tt.store(
                key,
                *depth,
                score_to_tt(best, ply),
                bound,
                best_move.as_ref(),
            );
        }
        best
    }
}

/// What the singular test found of the hash move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Singular {
    /// Not tested (no deep enough lower bound with a move), or aborted.
    No,
    /// Every other move fails low: the hash move gets one more ply.
    Extend,
    /// Another move reaches the bound too (the bound).
    Cut(i32),
}

/// How settled the root's best move is, for the time a clock's search
/// takes: the soft limit (no new iteration past it) is stretched when the
/// best move just changed or its score fell, shrunk when the move has held
/// for several iterations.
#[derive(Debug, Clone, Copy)]
struct Settled {
    last: Option<(Move, i32)>,
    /// Completed iterations in a row (beyond the first) with the same move.
    same_for: u32,
    /// What the soft limit is multiplied by.
    factor: f64,
}

impl Default for Settled {
    fn default() -> Settled {
        Settled {
            last: None,
            same_for: 0,
            factor: 1.0,
        }
    }
}

impl Settled {
    /// Takes in a completed iteration's best move and score.
    fn after_iteration(&mut self, m: Move, score: i32, depth: u32) {
        if let Some((last_move, last_score)) = self.last
            && depth >= 4
        {
            self.same_for = if last_move == m { self.same_for + 1 } else { 0 };
            let mut f: f64 = match self.same_for {
                0 => 1.6,
                1 | 2 => 1.0,
                3..=5 => 0.75,
                _ => 0.55,
            };
            let fall = last_score - score;
            if fall > 60 {
                f *= 1.5;
            } else if fall > 20 {
                f *= 1.2;
            }
            self.factor = f.clamp(0.4, 2.0);
        }
        self.last = Some((m, score));
    }

    /// The soft limit to go by: `soft` scaled, at most `hard`, when the
    /// limits come from a clock (`stretch`); else `soft` itself.
    fn soft(&self, soft: Duration, hard: Option<Duration>, stretch: bool) -> Duration {
        if !stretch {
            return soft;
        }
        let scaled = soft.mul_f64(self.factor);
        hard.map_or(scaled, |h| scaled.min(h))
    }
}

/// A child being searched: made by [`Engine::enter`], undone by
/// [`Engine::leave`].
struct Child {
    pos: Position,
    draw: DrawLimits,
    /// Where the child's repetitions may start on the path.
    irrev_from: usize,
    /// The path's length before the child's hash was pushed.
    path_len: usize,
}

/// A node's moves to search, as ordering scores and places in the ply's
/// move list (the moves themselves are not copied: a copy of the whole list
/// per node showed in the profile).
#[derive(Debug, Clone, Default)]
struct Ordered {
    keys: Vec<(i32, u32)>,
}

impl Ordered {
    /// Brings the best-scored of the moves from `i` on to `i` (the first
    /// of equals) and returns its place in the list: the moves before `i`
    /// were picked before. Picking every move in turn is a stable sort,
    /// best first.
    #[inline]
    fn pick(&mut self, i: usize) -> usize {
        let mut best = i;
        for j in i + 1..self.keys.len() {
            if self.keys[j].0 > self.keys[best].0 {
                best = j;
            }
        }
        // Stable: the moves passed over keep their order.
        self.keys[i..=best].rotate_right(1);
        self.keys[i].1 as usize
    }
}

/// Divisor of the late-move reduction: `ln(depth) ln(move number) / LMR_DIV`.
const LMR_DIV: f64 = 1.2;

/// The late-move reduction of the `i`-th move (0-based) at `depth`, before
/// the principal-variation and depth bounds.
fn lmr(depth: i32, i: usize) -> i32 {
    let d = f64::from(depth.clamp(1, 63));
    let n = (i + 1).min(63) as f64;
    ((d.ln() * n.ln()) / LMR_DIV + 0.5) as i32
}

/// The score a table entry proves for a window, if it proves one.
fn tt_cut(e: &tt::Entry, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = score_from_tt(i32::from(e.score), ply);
    let cut = match e.bound {
        tt::EXACT => true,
        tt::LOWER => s >= beta,
        _ => s <= alpha,
    };
    cut.then_some(s)
}

fn history_index(side: usize, m: &Move) -> usize {
    side * 4096 + usize::from(m.from().bit()) * 64 + usize::from(m.to().bit())
}

/// Win scores are stored relative to the node, read back relative to the root.
fn score_to_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}

fn score_from_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::{Engine, Limits, Settled, hash, hash_after};
    use draughts::{Game, Position, Rules, SplitMix64, Variant};
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    #[test]
    fn deep_searches_extend_singular_moves_and_cut_on_two_good_ones() {
        let stop = AtomicBool::new(false);
        for variant in [Variant::International, Variant::American] {
            let game = Game::new(Position::new(Rules::new(variant)));
            let mut engine = Engine::new(18);
            let limits = Limits {
                depth: Some(12),
                ..Limits::default()
            };
            let r = engine.search(&game, &limits, &stop).expect("a move");
            assert!(game.position().is_legal(&r.mv));
            let [extended, cut] = engine.singular_counts();
            assert!(extended > 0 && cut > 0, "{variant:?}: {extended} {cut}");
            // Below the depth where the test starts, none.
            let shallow = Limits {
                depth: Some(super::SINGULAR_DEPTH as u32),
                ..Limits::default()
            };
            let mut fresh = Engine::new(18);
            let _ = fresh.search(&game, &shallow, &stop);
            assert_eq!(fresh.singular_counts(), [0, 0], "{variant:?}");
        }
    }

    #[test]
    fn a_clocks_soft_limit_follows_how_settled_the_best_move_is() {
        let pos = Position::new(Rules::new(Variant::Russian));
        let legal = pos.legal_moves();
        let (a, b) = (legal[0], legal[1]);
        let soft = Duration::from_millis(1_000);
        let hard = Some(Duration::from_millis(1_800));
        let mut s = Settled::default();
        // The first iterations say nothing yet.
        for depth in 1..=3 {
            s.after_iteration(a, 0, depth);
        }
        assert_eq!(s.soft(soft, hard, true), soft);
        // A new best move stretches the time, never past `hard`.
        s.after_iteration(b, 0, 4);
        assert_eq!(s.soft(soft, hard, true), Duration::from_millis(1_600));
        s.after_iteration(a, -100, 5);
        assert_eq!(s.soft(soft, hard, true), Duration::from_millis(1_800));
        // The same move twice: the plain soft limit; a small fall, a little more.
        s.after_iteration(a, -100, 6);
        assert_eq!(s.soft(soft, hard, true), soft);
        s.after_iteration(a, -130, 7);
        assert_eq!(s.soft(soft, hard, true), Duration::from_millis(1_200));
        // Held for long, it shrinks.
        s.after_iteration(a, -130, 8);
        assert_eq!(s.soft(soft, hard, true), Duration::from_millis(750));
        for depth in 9..=12 {
            s.after_iteration(a, -120, depth);
        }
        assert_eq!(s.soft(soft, hard, true), Duration::from_millis(550));
        // A fixed move time, or a search capped otherwise, is not scaled.
        assert_eq!(s.soft(soft, hard, false), soft);
    }

    #[test]
    fn the_hash_after_a_move_is_the_hash_of_the_new_position() {
        let mut rng = SplitMix64::new(24);
        let mut moves = 0;
        for variant in Variant::ALL {
            for _ in 0..40 {
                let mut pos = Position::new(Rules::new(variant));
                let mut h = hash(&pos);
                for _ in 0..200 {
                    let legal = pos.legal_moves();
                    if legal.is_empty() {
                        break;
                    }
                    let m = legal[rng.below(legal.len() as u64) as usize];
                    let mut next = pos.clone();
                    next.play_unchecked(&m);
                    // Captures, crownings and kings' moves all go through here.
                    h = hash_after(h, &pos, &next);
                    assert_eq!(h, hash(&next), "{variant}: {m:?} from {}", pos.to_fen());
                    pos = next;
                    moves += 1;
                }
            }
        }
        assert!(moves > 5_000, "{moves} moves");
    }
}
