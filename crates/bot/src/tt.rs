//! The transposition table: a fixed number of entries set per engine.

use draughts::Move;

/// The score is exact.
pub(crate) const EXACT: u8 = 0;
/// The score is a lower bound (the search failed high).
pub(crate) const LOWER: u8 = 1;
/// The score is an upper bound (the search failed low).
pub(crate) const UPPER: u8 = 2;

/// One stored search result.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Entry {
    pub key: u64,
    /// The best move's captured set (with `from`/`to` it names the move).
    pub captures: u64,
    pub score: i16,
    pub depth: i8,
    pub bound: u8,
    pub from: u8,
    pub to: u8,
    /// Search generation, so stale entries are replaced first.
    pub age: u8,
    /// Whether a move is stored.
    pub has_move: bool,
}

impl Entry {
    /// Whether `m` is the stored move.
    pub(crate) fn is_move(&self, m: &Move) -> bool {
        self.has_move
            && m.from().bit() == self.from
            && m.to().bit() == self.to
            && m.captures().0 == self.captures
    }
}

/// A table of `2^bits` entries, one slot per index.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    mask: usize,
    age: u8,
}

impl Table {
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << bits.clamp(4, 26);
        Table {
            entries: vec![Entry::default(); n],
            mask: n - 1,
            age: 0,
        }
    }

    /// Bytes the table holds.
    pub(crate) fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// A new search begins: older entries become replaceable.
    pub(crate) fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[key as usize & self.mask];
        (e.key == key).then_some(e)
    }

    pub(crate) fn store(&mut self, key: u64, depth: i32, score: i32, bound: u8, m: Option<&Move>) {
        let age = self.age;
        let slot = &mut self.entries[key as usize & self.mask];
        let depth = depth.clamp(-100, 100) as i8;
        if slot.key == key || slot.age != age || depth >= slot.depth {
            let keep_move = slot.key == key && m.is_none();
            let (has_move, from, to, captures) = match m {
                Some(m) => (true, m.from().bit(), m.to().bit(), m.captures().0),
                None if keep_move => (slot.has_move, slot.from, slot.to, slot.captures),
                None => (false, 0, 0, 0),
            };
            *slot = Entry {
                key,
                captures,
                score: score.clamp(-32000, 32000) as i16,
                depth,
                bound,
                from,
                to,
                age,
                has_move,
            };
        }
    }
}
