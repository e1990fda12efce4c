//! Endgame bitbases: win, draw or loss for the side to move, with the
//! distance to conversion, for every position of up to a few pieces.
//!
//! # What a table holds
//!
//! A [`Table`] covers one variant's standard rules and every position with
//! at most `max_pieces` pieces in total, each side with at least one piece,
//! no man on its own promotion row. It is split into material *slices*
//! (white men, white kings, black men, black kings); within a slice every
//! position has a dense combinatorial index (the men of each colour ranked
//! among the squares they may stand on, the kings among all squares, then the
//! side to move). Sets that overlap have an index too and are simply never
//! looked up, which keeps the index a plain product of binomials.
//!
//! Each position is one byte: `0` a draw (or an unused index), `1..=127` a
//! win and `128..=255` a loss for the side to move, with the distance to
//! conversion (`DTC`, in plies, saturating at 127) in the low seven bits: the
//! number of plies, under best play (the winner hurrying, the loser
//! delaying), until a capture, a promotion or the end of the game takes the
//! position out of its slice. A loss with distance 0 has no legal move.
//!
//! Values are game-theoretic: the variants' move-count draw rules (the
//! 25-move and 16-move rules and the like) are ignored, and a cycle
//! (repetition) is a draw, which the fixpoint gives by itself.
//!
//! # How a table is made
//!
//! Slices are built smallest first in an order where every capture (fewer
//! pieces) and every promotion (a man becomes a king: fewer men, same
//! total) leads to a slice already done. For each position of a slice the
//! legal moves come from the `draughts` crate's move generator; a move that
//! leaves the slice is looked up at once, a move that stays in it is kept in
//! a list of in-slice children. Then passes `k = 2, 3, ...` resolve every
//! undecided position whose value is now known at distance `k` (a win when a
//! child is lost at distance `k - 1`, a loss when every child is won at
//! distances below `k`), until a pass changes nothing; what is left is a
//! draw.
//!
//! # Files
//!
//! [`Table::write`] stores a table as a little-endian file: the magic
//! `DAMKABB\0`, the format version, the variant's index in
//! [`Variant::ALL`], `max_pieces`, the slice count, then per slice its
//! material (4 bytes), its length (8 bytes) and its bytes, and last the
//! 64-bit FNV-1a checksum of everything before it, checked by
//! [`Table::read`]. [`Bitbases::load_dir`] reads every `*.dbb` file of a
//! directory ([`Table::file_name`] names them `<variant>-<pieces>.dbb`).

use draughts::{Bitboard, Color, Position, Rules, Square, Variant};
use std::fmt;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// Win, draw or loss for the side to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Wdl {
    /// The side to move loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins with best play.
    Win,
}

/// A table's answer: the result and the distance to conversion (plies
/// until the position leaves its material slice under best play; 0 for a
/// draw or a position with no legal move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Probe {
    /// The result for the side to move.
    pub wdl: Wdl,
    /// Plies to the next capture, promotion or end of game (at most 127).
    pub dtc: u8,
}

fn decode(b: u8) -> Probe {
    match b {
        0 => Probe {
            wdl: Wdl::Draw,
            dtc: 0,
        },
        1..=127 => Probe {
            wdl: Wdl::Win,
            dtc: b,
        },
        _ => Probe {
            wdl: Wdl::Loss,
            dtc: b - 128,
        },
    }
}

fn encode_win(dtc: u16) -> u8 {
    dtc.clamp(1, 127) as u8
}

fn encode_loss(dtc: u16) -> u8 {
    128 + dtc.min(127) as u8
}

/// The material of a slice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    /// White men.
    pub white_men: u8,
    /// White kings.
    pub white_kings: u8,
    /// Black men.
    pub black_men: u8,
    /// Black kings.
    pub black_kings: u8,
}

impl Material {
    /// The material of a position.
    #[must_use]
    pub fn of(pos: &Position) -> Material {
        let kings = pos.kings();
        let w = pos.pieces(Color::White);
        let b = pos.pieces(Color::Black);
        Material {
            white_men: (w & !kings).count() as u8,
            white_kings: (w & kings).count() as u8,
            black_men: (b & !kings).count() as u8,
            black_kings: (b & kings).count() as u8,
        }
    }

    /// Pieces of both sides.
    #[must_use]
    pub fn total(self) -> u8 {
        self.white_men + self.white_kings + self.black_men + self.black_kings
    }

    fn men(self) -> u8 {
        self.white_men + self.black_men
    }

    /// The materials one capture of a piece or one promotion away (several
    /// captures are several steps).
    fn successors(self) -> Vec<Material> {
        let mut out = Vec::new();
        let f = [
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
        ];
        let make = |g: [u8; 4]| Material {
            white_men: g[0],
            white_kings: g[1],
            black_men: g[2],
            black_kings: g[3],
        };
        for i in 0..4 {
            if f[i] > 0 {
                let mut g = f;
                g[i] -= 1;
                out.push(make(g));
                // A man crowned: men are 0 and 2, their kings 1 and 3.
                if i % 2 == 0 {
                    g[i + 1] += 1;
                    out.push(make(g));
                }
            }
        }
        out
    }

    /// The code of the material in a table of `max` pieces.
    fn code(self, max: u8) -> usize {
        let m = usize::from(max) + 1;
        ((usize::from(self.white_men) * m + usize::from(self.white_kings)) * m
            + usize::from(self.black_men))
            * m
            + usize::from(self.black_kings)
    }

    /// Every slice of up to `max` pieces, in build order: fewer pieces
    /// first, then (same total) fewer men first, so that captures and
    /// promotions lead to slices already built.
    fn all(max: u8) -> Vec<Material> {
        let mut all = Vec::new();
        for wm in 0..=max {
            for wk in 0..=max - wm {
                for bm in 0..=max - wm - wk {
                    for bk in 0..=max - wm - wk - bm {
                        if wm + wk == 0 || bm + bk == 0 {
                            continue;
                        }
                        all.push(Material {
                            white_men: wm,
                            white_kings: wk,
                            black_men: bm,
                            black_kings: bk,
                        });
                    }
                }
            }
        }
        all.sort_by_key(|m| (m.total(), m.men(), *m));
        all
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |men: u8, kings: u8| "K".repeat(kings.into()) + &"m".repeat(men.into());
        write!(
            f,
            "W{}-B{}",
            side(self.white_men, self.white_kings),
            side(self.black_men, self.black_kings)
        )
    }
}

/// Binomial coefficients up to 64 choose 8.
struct Binomials([[u64; 9]; 65]);

impl Binomials {
    fn new() -> Binomials {
        let mut c = [[0u64; 9]; 65];
        for n in 0..=64 {
            c[n][0] = 1;
            for k in 1..=8.min(n) {
                c[n][k] = c[n - 1][k - 1] + if k < n { c[n - 1][k] } else { 0 };
            }
        }
        Binomials(c)
    }

    fn get(&self, n: usize, k: usize) -> u64 {
        if k > n { 0 } else { self.0[n][k] }
    }
}

/// The squares a kind of piece may stand on, in bit order, with the
/// inverse map.
#[derive(Clone)]
struct SquareSet {
    bits: Vec<u8>,
    /// Position in `bits` per bit index; 255 when not allowed.
    rank: [u8; 64],
}

impl SquareSet {
    fn new(bits: Vec<u8>) -> SquareSet {
        let mut rank = [255u8; 64];
        for (i, &b) in bits.iter().enumerate() {
            rank[usize::from(b)] = i as u8;
        }
        SquareSet { bits, rank }
    }
}

/// The indexing of one variant's positions.
struct Indexer {
    binom: Binomials,
    all: SquareSet,
    /// Where white and black men may stand.
    men: [SquareSet; 2],
}

/// The squares of a colour's promotion row (the top row of the display for
/// White, the bottom one for Black; the same rows the FEN reader checks).
fn crowning_row(variant: Variant, color: Color) -> u64 {
    let y = if color == Color::White {
        0
    } else {
        variant.board_size() - 1
    };
    variant
        .squares()
        .filter(|&sq| variant.square_xy(sq).1 == y)
        .fold(0, |b, sq| b | 1 << sq.bit())
}

impl Indexer {
    fn new(variant: Variant) -> Indexer {
        let all: Vec<u8> = variant.squares().map(Square::bit).collect();
        let men = [Color::White, Color::Black].map(|c| {
            let row = crowning_row(variant, c);
            SquareSet::new(all.iter().copied().filter(|&b| row >> b & 1 == 0).collect())
        });
        Indexer {
            binom: Binomials::new(),
            all: SquareSet::new(all),
            men,
        }
    }

    /// The sizes of the four piece sets' index ranges.
    fn dims(&self, m: Material) -> [u64; 4] {
        let n = self.all.bits.len();
        [
            self.binom.get(self.men[0].bits.len(), m.white_men.into()),
            self.binom.get(n, m.white_kings.into()),
            self.binom.get(self.men[1].bits.len(), m.black_men.into()),
            self.binom.get(n, m.black_kings.into()),
        ]
    }

    fn slice_len(&self, m: Material) -> usize {
        let d = self.dims(m);
        (d[0] * d[1] * d[2] * d[3] * 2) as usize
    }

    fn rank(&self, set: &SquareSet, mut b: u64) -> u64 {
        let mut r = 0;
        let mut i = 1;
        while b != 0 {
            let bit = b.trailing_zeros() as usize;
            b &= b - 1;
            r += self.binom.get(usize::from(set.rank[bit]), i);
            i += 1;
        }
        r
    }

    fn unrank(&self, set: &SquareSet, k: usize, mut r: u64) -> u64 {
        let mut b = 0u64;
        let mut p = set.bits.len();
        for i in (1..=k).rev() {
            p -= 1;
            while self.binom.get(p, i) > r {
                p -= 1;
            }
            r -= self.binom.get(p, i);
            b |= 1 << set.bits[p];
        }
        b
    }

    /// The index of a position within its slice `m`. The caller guarantees
    /// the men stand on allowed squares (any legal position does).
    fn index(&self, m: Material, pos: &Position) -> usize {
        let d = self.dims(m);
        let kings = pos.kings().0;
        let w = pos.pieces(Color::White).0;
        let b = pos.pieces(Color::Black).0;
        let parts = [
            self.rank(&self.men[0], w & !kings),
            self.rank(&self.all, w & kings),
            self.rank(&self.men[1], b & !kings),
            self.rank(&self.all, b & kings),
        ];
        let mut i = 0u64;
        for (p, dim) in parts.into_iter().zip(d) {
            i = i * dim + p;
        }
        (i * 2 + u64::from(pos.turn() == Color::Black)) as usize
    }

    /// The position at `index` of slice `m`, if the sets do not overlap.
    fn position(&self, rules: Rules, m: Material, index: usize) -> Option<Position> {
        let d = self.dims(m);
        let turn = if index & 1 == 0 {
            Color::White
        } else {
            Color::Black
        };
        let mut i = (index / 2) as u64;
        let mut parts = [0u64; 4];
        for k in (0..4).rev() {
            parts[k] = i % d[k];
            i /= d[k];
        }
        let wm = self.unrank(&self.men[0], m.white_men.into(), parts[0]);
        let wk = self.unrank(&self.all, m.white_kings.into(), parts[1]);
        let bm = self.unrank(&self.men[1], m.black_men.into(), parts[2]);
        let bk = self.unrank(&self.all, m.black_kings.into(), parts[3]);
        let sets = [wm, wk, bm, bk];
        let union = sets.iter().fold(0u64, |a, s| a | s);
        if union.count_ones() != u32::from(m.total()) {
            return None;
        }
        Position::from_pieces(
            rules,
            Bitboard(wm | wk),
            Bitboard(bm | bk),
            Bitboard(wk | bk),
            turn,
        )
        .ok()
    }
}

/// Counts of a table's positions by result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Positions (valid indices) of the table.
    pub positions: u64,
    /// Won for the side to move.
    pub wins: u64,
    /// Drawn.
    pub draws: u64,
    /// Lost for the side to move.
    pub losses: u64,
    /// The longest distance to conversion (plies).
    pub max_dtc: u16,
    /// Positions whose distance was cut to 127.
    pub saturated: u64,
}

/// One variant's table of every position of up to `max_pieces` pieces.
pub struct Table {
    variant: Variant,
    max_pieces: u8,
    /// Per material code (see `Material::code`), the slice's bytes.
    slices: Vec<Option<Vec<u8>>>,
    indexer: Indexer,
}

impl fmt::Debug for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Table")
            .field("variant", &self.variant)
            .field("max_pieces", &self.max_pieces)
            .field("bytes", &self.bytes())
            .finish()
    }
}

/// Why a table file was rejected.
#[derive(Debug)]
pub enum BitbaseError {
    /// Reading or writing failed.
    Io(io::Error),
    /// Not a table file, or a version this build does not read.
    Format(String),
    /// The checksum does not match: the file is damaged.
    Checksum,
}

impl fmt::Display for BitbaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BitbaseError::Io(e) => write!(f, "bitbase I/O: {e}"),
            BitbaseError::Format(s) => write!(f, "not a bitbase file: {s}"),
            BitbaseError::Checksum => f.write_str("bitbase checksum mismatch (damaged file)"),
        }
    }
}

impl std::error::Error for BitbaseError {}

impl From<io::Error> for BitbaseError {
    fn from(e: io::Error) -> BitbaseError {
        BitbaseError::Io(e)
    }
}

const MAGIC: &[u8; 8] = b"DAMKABB\0";
const VERSION: u32 = 1;
/// The largest table this build makes or reads (5 pieces is already
/// 374 MB per 8x8 variant and 3.8 GB on 10x10).
pub const MAX_PIECES: u8 = 5;

/// 64-bit FNV-1a.
#[derive(Clone, Copy)]
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(&mut self, data: &[u8]) {
        let mut h = self.0;
        for &b in data {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

/// A writer that checksums what goes through it.
struct Summed<W> {
    inner: W,
    sum: Fnv,
}

impl<W: Write> Summed<W> {
    fn put(&mut self, data: &[u8]) -> io::Result<()> {
        self.sum.update(data);
        self.inner.write_all(data)
    }
}

/// A reader that checksums what comes through it.
struct SummedReader<R> {
    inner: R,
    sum: Fnv,
}

impl<R: Read> SummedReader<R> {
    fn take(&mut self, n: usize) -> io::Result<Vec<u8>> {
        let mut buf = vec![0u8; n];
        self.inner.read_exact(&mut buf)?;
        self.sum.update(&buf);
        Ok(buf)
    }

    fn u32(&mut self) -> io::Result<u32> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn u64(&mut self) -> io::Result<u64> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(&b);
        Ok(u64::from_le_bytes(a))
    }
}

/// The children of the undecided positions of a slice, while it is built.
struct Pending {
    /// Index of the position.
    index: Vec<u32>,
    /// Whether a move leads out of the slice to a draw (the position can no
    /// longer be lost).
    draw_exit: Vec<bool>,
    /// `children[start[i]..start[i + 1]]`: the in-slice children.
    start: Vec<u32>,
    children: Vec<u32>,
}

impl Table {
    /// Generates the table of `variant` (standard rules) for every position
    /// of up to `max_pieces` pieces (at most [`MAX_PIECES`]).
    #[must_use]
    pub fn generate(variant: Variant, max_pieces: u8) -> Table {
        Table::generate_with(variant, max_pieces, &mut |_, _| {})
    }

    /// [`Table::generate`], calling `progress` after each slice with its
    /// material and length.
    pub fn generate_with(
        variant: Variant,
        max_pieces: u8,
        progress: &mut dyn FnMut(Material, usize),
    ) -> Table {
        Table::generate_slices(variant, max_pieces, &|_| true, progress)
    }

    /// [`Table::generate_with`] for the slices `keep` selects only (the
    /// others answer nothing): for a test or a special ending, say every
    /// kings-only slice.
    ///
    /// # Panics
    ///
    /// When the selection is not closed under captures and promotions (a
    /// kept slice leads to one left out).
    pub fn generate_slices(
        variant: Variant,
        max_pieces: u8,
        keep: &dyn Fn(Material) -> bool,
        progress: &mut dyn FnMut(Material, usize),
    ) -> Table {
        let max_pieces = max_pieces.clamp(2, MAX_PIECES);
        let kept: Vec<Material> = Material::all(max_pieces)
            .into_iter()
            .filter(|&m| keep(m))
            .collect();
        for &m in &kept {
            for next in m.successors() {
                assert!(
                    next.white_men + next.white_kings == 0
                        || next.black_men + next.black_kings == 0
                        || keep(next),
                    "slice {m} leads to {next}, which is not selected"
                );
            }
        }
        let indexer = Indexer::new(variant);
        let m = usize::from(max_pieces) + 1;
        let mut table = Table {
            variant,
            max_pieces,
            slices: vec![None; m * m * m * m],
            indexer,
        };
        let rules = Rules::new(variant);
        for material in kept {
            let data = table.build_slice(rules, material);
            let len = data.len();
            table.slices[material.code(max_pieces)] = Some(data);
            progress(material, len);
        }
        table
    }

    /// The value of a position outside the slice being built (already built,
    /// or a side without pieces), from its side to move's point of view.
    fn lookup(&self, pos: &Position) -> u8 {
        let m = Material::of(pos);
        let mover_has = match pos.turn() {
            Color::White => m.white_men + m.white_kings,
            Color::Black => m.black_men + m.black_kings,
        };
        if mover_has == 0 {
            return encode_loss(0);
        }
        let slice = self.slices[m.code(self.max_pieces)]
            .as_ref()
            .expect("captures and promotions lead to built slices");
        slice[self.indexer.index(m, pos)]
    }

    fn build_slice(&self, rules: Rules, material: Material) -> Vec<u8> {
        let len = self.indexer.slice_len(material);
        let mut values = vec![0u8; len];
        // Decided positions, and at which pass (0: before the passes).
        let mut decided = vec![false; len];
        let mut decided_at = vec![0u16; len];
        let mut pending = Pending {
            index: Vec::new(),
            draw_exit: Vec::new(),
            start: vec![0],
            children: Vec::new(),
        };
        let mut inside = Vec::new();
        for i in 0..len {
            let Some(pos) = self.indexer.position(rules, material, i) else {
                decided[i] = true;
                continue;
            };
            let moves = pos.legal_moves();
            if moves.is_empty() {
                values[i] = encode_loss(0);
                decided[i] = true;
                continue;
            }
            inside.clear();
            let mut win = false;
            let mut draw_exit = false;
            for m in moves.iter() {
                let mut child = pos.clone();
                child.play_unchecked(m);
                let cm = Material::of(&child);
                if cm == material {
                    inside.push(self.indexer.index(material, &child) as u32);
                    continue;
                }
                let v = decode(self.lookup(&child));
                match v.wdl {
                    Wdl::Loss => {
                        win = true;
                        break;
                    }
                    Wdl::Draw => draw_exit = true,
                    Wdl::Win => {}
                }
            }
            if win {
                values[i] = encode_win(1);
                decided[i] = true;
                decided_at[i] = 1;
            } else if inside.is_empty() {
                decided[i] = true;
                decided_at[i] = 1;
                values[i] = if draw_exit { 0 } else { encode_loss(1) };
            } else {
                pending.index.push(i as u32);
                pending.draw_exit.push(draw_exit);
                pending.children.extend_from_slice(&inside);
                pending.start.push(pending.children.len() as u32);
            }
        }
        // Passes: at pass k, decide what is won or lost at distance k,
        // looking only at children decided at a smaller distance (those
        // decided before the passes carry their distance, 0 or 1).
        let mut open: Vec<usize> = (0..pending.index.len()).collect();
        let mut k: u16 = 1;
        loop {
            let mut newly: Vec<(usize, u8)> = Vec::new();
            open.retain(|&p| {
                let i = pending.index[p] as usize;
                let kids =
                    &pending.children[pending.start[p] as usize..pending.start[p + 1] as usize];
                let mut all_won = !pending.draw_exit[p];
                for &c in kids {
                    let c = c as usize;
                    let before = decided[c] && decided_at[c] < k;
                    if !before {
                        all_won = false;
                        continue;
                    }
                    match decode(values[c]).wdl {
                        Wdl::Loss => {
                            newly.push((i, encode_win(k)));
                            return false;
                        }
                        Wdl::Draw => all_won = false,
                        Wdl::Win => {}
                    }
                }
                if all_won {
                    newly.push((i, encode_loss(k)));
                    return false;
                }
                true
            });
            // Pass 1 may find nothing while pass 2 still can (positions
            // decided before the passes at distance 1).
            if newly.is_empty() && k >= 2 {
                break;
            }
            for (i, v) in newly {
                values[i] = v;
                decided[i] = true;
                decided_at[i] = k;
            }
            k += 1;
        }
        values
    }

    fn count(&self) -> TableStats {
        let mut s = TableStats::default();
        let rules = Rules::new(self.variant);
        for material in Material::all(self.max_pieces) {
            let Some(slice) = &self.slices[material.code(self.max_pieces)] else {
                continue;
            };
            for (i, &b) in slice.iter().enumerate() {
                if b == 0 && self.indexer.position(rules, material, i).is_none() {
                    continue;
                }
                s.positions += 1;
                let p = decode(b);
                match p.wdl {
                    Wdl::Win => s.wins += 1,
                    Wdl::Draw => s.draws += 1,
                    Wdl::Loss => s.losses += 1,
                }
                s.max_dtc = s.max_dtc.max(p.dtc.into());
                if p.dtc == 127 {
                    s.saturated += 1;
                }
            }
        }
        s
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The most pieces (both sides) of a position in the table.
    #[must_use]
    pub fn max_pieces(&self) -> u8 {
        self.max_pieces
    }

    /// Bytes of the table's data (one per index).
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slices.iter().flatten().map(Vec::len).sum()
    }

    /// Counts of the table's positions by result (counted on each call:
    /// a second or so per 10 M positions).
    #[must_use]
    pub fn stats(&self) -> TableStats {
        self.count()
    }

    /// The file name of the table: `<variant>-<pieces>.dbb`.
    #[must_use]
    pub fn file_name(&self) -> String {
        format!("{}-{}.dbb", self.variant.name(), self.max_pieces)
    }

    /// The result and distance for `pos`: `None` when it has more pieces
    /// than the table, one side has none, or its rules are not the
    /// variant's standard ones.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        if pos.occupied().count() > u32::from(self.max_pieces)
            || pos.variant() != self.variant
            || *pos.rules() != Rules::new(self.variant)
        {
            return None;
        }
        let m = Material::of(pos);
        if m.white_men + m.white_kings == 0 || m.black_men + m.black_kings == 0 {
            return None;
        }
        let slice = self.slices[m.code(self.max_pieces)].as_ref()?;
        Some(decode(slice[self.indexer.index(m, pos)]))
    }

    /// Checks the entry of `pos` against its children's entries, the
    /// equations every table must satisfy: no legal move is a loss at
    /// distance 0; a win needs a lost child, at the smallest distance (a
    /// child in the same slice counts its distance plus one, a child
    /// outside it one); a loss needs every child won, at the largest
    /// distance; anything else is a draw. By induction on the true distance
    /// to the end of the game these equations admit only the true values (a
    /// cycle of wins cannot hold: the distances strictly fall along it), so
    /// a table whose every entry passes is right for the move generator.
    /// This is a different computation from the one that made the table
    /// (which propagates values pass by pass).
    ///
    /// # Errors
    ///
    /// The position, the table's value and the value its children give,
    /// when they differ; or that `pos` is not covered.
    pub fn check_entry(&self, pos: &Position) -> Result<(), String> {
        let Some(got) = self.probe(pos) else {
            return Err(format!("{pos:?}: not covered"));
        };
        let material = Material::of(pos);
        let moves = pos.legal_moves();
        let mut best_win: Option<u16> = None;
        let mut worst_loss: u16 = 0;
        let mut all_won = true;
        for m in moves.iter() {
            let mut c = pos.clone();
            c.play_unchecked(m);
            let v = if c.pieces(c.turn()).is_empty() {
                decode(encode_loss(0))
            } else {
                self.probe(&c)
                    .ok_or_else(|| format!("{pos:?}: a child is not covered"))?
            };
            let d = if Material::of(&c) == material {
                u16::from(v.dtc) + 1
            } else {
                1
            };
            match v.wdl {
                Wdl::Loss => best_win = Some(best_win.map_or(d, |b| b.min(d))),
                Wdl::Win => worst_loss = worst_loss.max(d),
                Wdl::Draw => {}
            }
            all_won &= v.wdl == Wdl::Win;
        }
        let expected = match best_win {
            _ if moves.is_empty() => decode(encode_loss(0)),
            Some(d) => decode(encode_win(d)),
            None if all_won => decode(encode_loss(worst_loss)),
            None => decode(0),
        };
        if got == expected {
            Ok(())
        } else {
            Err(format!("{pos:?}: table {got:?}, children say {expected:?}"))
        }
    }

    /// [`Table::check_entry`] for every position of the table, on `threads`
    /// threads (each takes every `threads`-th block of indices of each
    /// slice), calling `progress` after each slice with its material and
    /// length. Returns the number of positions checked.
    ///
    /// # Errors
    ///
    /// The first failing entry found (see [`Table::check_entry`]).
    pub fn verify(
        &self,
        threads: usize,
        progress: &mut dyn FnMut(Material, usize),
    ) -> Result<u64, String> {
        const BLOCK: usize = 1 << 16;
        let rules = Rules::new(self.variant);
        let threads = threads.max(1);
        let mut checked = 0u64;
        for material in Material::all(self.max_pieces) {
            if self.slices[material.code(self.max_pieces)].is_none() {
                continue;
            }
            let len = self.indexer.slice_len(material);
            let results: Vec<Result<u64, String>> = std::thread::scope(|s| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| {
                        s.spawn(move || {
                            let mut n = 0u64;
                            let mut start = t * BLOCK;
                            while start < len {
                                for i in start..(start + BLOCK).min(len) {
                                    if let Some(pos) = self.indexer.position(rules, material, i) {
                                        self.check_entry(&pos)?;
                                        n += 1;
                                    }
                                }
                                start += threads * BLOCK;
                            }
                            Ok(n)
                        })
                    })
                    .collect();
                handles
                    .into_iter()
                    .map(|h| h.join().expect("a verifying thread panicked"))
                    .collect()
            });
            for r in results {
                checked += r?;
            }
            progress(material, len);
        }
        Ok(checked)
    }

    /// Writes the table in the file format (see the module documentation).
    ///
    /// # Errors
    ///
    /// What writing to `w` fails with.
    pub fn write(&self, w: impl Write) -> io::Result<()> {
        let mut out = Summed {
            inner: io::BufWriter::new(w),
            sum: Fnv::new(),
        };
        let variant_index = Variant::ALL
            .iter()
            .position(|&v| v == self.variant)
            .unwrap_or(0) as u8;
        out.put(MAGIC)?;
        out.put(&VERSION.to_le_bytes())?;
        out.put(&[variant_index, self.max_pieces, 0, 0])?;
        let materials = Material::all(self.max_pieces);
        out.put(&(materials.len() as u32).to_le_bytes())?;
        for m in materials {
            let empty = Vec::new();
            let data = self.slices[m.code(self.max_pieces)]
                .as_ref()
                .unwrap_or(&empty);
            out.put(&[m.white_men, m.white_kings, m.black_men, m.black_kings])?;
            out.put(&(data.len() as u64).to_le_bytes())?;
            out.put(data)?;
        }
        let sum = out.sum.0;
        out.inner.write_all(&sum.to_le_bytes())?;
        out.inner.flush()
    }

    /// Reads a table written by [`Table::write`], checking its checksum.
    ///
    /// # Errors
    ///
    /// [`BitbaseError::Format`] for another kind of file or a table that
    /// does not fit its header, [`BitbaseError::Checksum`] for a damaged
    /// one, [`BitbaseError::Io`] when reading fails.
    pub fn read(r: impl Read) -> Result<Table, BitbaseError> {
        let mut input = SummedReader {
            inner: io::BufReader::new(r),
            sum: Fnv::new(),
        };
        let bad = |s: &str| BitbaseError::Format(s.to_string());
        if input.take(8)? != MAGIC {
            return Err(bad("wrong magic"));
        }
        let version = input.u32()?;
        if version != VERSION {
            return Err(BitbaseError::Format(format!("version {version}")));
        }
        let head = input.take(4)?;
        let variant = *Variant::ALL
            .get(usize::from(head[0]))
            .ok_or_else(|| bad("unknown variant"))?;
        let max_pieces = head[1];
        if !(2..=MAX_PIECES).contains(&max_pieces) {
            return Err(bad("piece count out of range"));
        }
        let indexer = Indexer::new(variant);
        let materials = Material::all(max_pieces);
        if input.u32()? as usize != materials.len() {
            return Err(bad("slice count"));
        }
        let m = usize::from(max_pieces) + 1;
        let mut slices = vec![None; m * m * m * m];
        for expected in materials {
            let mb = input.take(4)?;
            let got = Material {
                white_men: mb[0],
                white_kings: mb[1],
                black_men: mb[2],
                black_kings: mb[3],
            };
            if got != expected {
                return Err(bad("slice order"));
            }
            let len = input.u64()? as usize;
            if len != indexer.slice_len(got) {
                return Err(bad("slice length"));
            }
            slices[got.code(max_pieces)] = Some(input.take(len)?);
        }
        let computed = input.sum.0;
        let mut tail = [0u8; 8];
        input.inner.read_exact(&mut tail)?;
        if u64::from_le_bytes(tail) != computed {
            return Err(BitbaseError::Checksum);
        }
        Ok(Table {
            variant,
            max_pieces,
            slices,
            indexer,
        })
    }

    /// Writes the table to `dir/`[`Table::file_name`] and returns the path.
    ///
    /// # Errors
    ///
    /// What creating or writing the file fails with.
    pub fn save(&self, dir: &Path) -> io::Result<PathBuf> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(self.file_name());
        let tmp = dir.join(format!("{}.tmp", self.file_name()));
        self.write(std::fs::File::create(&tmp)?)?;
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }

    /// Reads a table file.
    ///
    /// # Errors
    ///
    /// As [`Table::read`].
    pub fn load(path: &Path) -> Result<Table, BitbaseError> {
        Table::read(std::fs::File::open(path)?)
    }
}

/// The tables of several variants, as the engine probes them (share one
/// behind an `Arc` between engines).
#[derive(Debug, Default)]
pub struct Bitbases {
    tables: Vec<Table>,
}

impl Bitbases {
    /// No tables.
    #[must_use]
    pub fn new() -> Bitbases {
        Bitbases::default()
    }

    /// The table of `variant` up to `max_pieces`, generated in memory.
    #[must_use]
    pub fn generate(variant: Variant, max_pieces: u8) -> Bitbases {
        let mut b = Bitbases::new();
        b.insert(Table::generate(variant, max_pieces));
        b
    }

    /// Adds a table; it replaces a smaller one of the same variant (a
    /// larger one already held is kept).
    pub fn insert(&mut self, table: Table) {
        if let Some(i) = self.tables.iter().position(|t| t.variant == table.variant) {
            if self.tables[i].max_pieces < table.max_pieces {
                self.tables[i] = table;
            }
        } else {
            self.tables.push(table);
        }
    }

    /// Reads every `*.dbb` file of `dir` (the largest table per variant is
    /// kept).
    ///
    /// # Errors
    ///
    /// The first file that cannot be read or fails its checksum, or a
    /// directory that cannot be listed.
    pub fn load_dir(dir: &Path) -> Result<Bitbases, BitbaseError> {
        let mut b = Bitbases::new();
        let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)?
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "dbb"))
            .collect();
        paths.sort();
        for p in paths {
            b.insert(Table::load(&p)?);
        }
        Ok(b)
    }

    /// The tables held.
    pub fn tables(&self) -> impl Iterator<Item = &Table> {
        self.tables.iter()
    }

    /// The table of `variant`, if held.
    #[must_use]
    pub fn table(&self, variant: Variant) -> Option<&Table> {
        self.tables.iter().find(|t| t.variant == variant)
    }

    /// The result and distance for `pos` (see [`Table::probe`]).
    #[must_use]
    pub fn probe_dtc(&self, pos: &Position) -> Option<Probe> {
        self.table(pos.variant())?.probe(pos)
    }

    /// The result for `pos`'s side to move, when a table covers it.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        self.probe_dtc(pos).map(|p| p.wdl)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_index_round_trips() {
        for variant in [Variant::American, Variant::Spanish, Variant::International] {
            let indexer = Indexer::new(variant);
            let rules = Rules::new(variant);
            for m in Material::all(3) {
                let len = indexer.slice_len(m);
                let mut valid = 0;
                for i in 0..len {
                    if let Some(pos) = indexer.position(rules, m, i) {
                        valid += 1;
                        assert_eq!(Material::of(&pos), m);
                        assert_eq!(indexer.index(m, &pos), i, "{variant} {m} {pos:?}");
                    }
                }
                assert!(valid > len / 2, "{variant} {m}: {valid} of {len}");
            }
        }
    }

    #[test]
    fn slices_come_after_what_they_lead_to() {
        let all = Material::all(4);
        let at = |m: &Material| all.iter().position(|x| x == m);
        for m in &all {
            // A promotion: one man fewer, one king more, same side.
            if m.white_men > 0 {
                let p = Material {
                    white_men: m.white_men - 1,
                    white_kings: m.white_kings + 1,
                    ..*m
                };
                assert!(at(&p) < at(m), "{p} before {m}");
            }
        }
        assert_eq!(decode(encode_win(3)).wdl, Wdl::Win);
        assert_eq!(
            decode(encode_loss(0)),
            Probe {
                wdl: Wdl::Loss,
                dtc: 0
            }
        );
        assert_eq!(decode(encode_loss(300)).dtc, 127);
    }
}
