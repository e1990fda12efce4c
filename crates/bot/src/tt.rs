//! The transposition table: a fixed number of entries set per engine, in
//! buckets of four.

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

/// Entries per bucket: a key may sit in any of its bucket's slots.
const WAYS: usize = 4;

/// A table of `2^bits` entries in buckets of [`WAYS`]: a probe looks at the
/// whole bucket; a store replaces the same key, else the slot of an older
/// search, else the shallowest.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    entries: Vec<Entry>,
    /// Mask of a bucket's first index.
    mask: usize,
    age: u8,
}

impl Table {
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << bits.clamp(4, 26);
        Table {
            entries: vec![Entry::default(); n],
            mask: (n - 1) & !(WAYS - 1),
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

    fn bucket(&self, key: u64) -> usize {
        // The low bits pick the bucket; the key is stored whole.
        (key as usize).wrapping_mul(WAYS) & self.mask
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + WAYS]
            .iter()
            .find(|e| e.key == key)
            .copied()
    }

    pub(crate) fn store(&mut self, key: u64, depth: i32, score: i32, bound: u8, m: Option<&Move>) {
        let age = self.age;
        let b = self.bucket(key);
        let depth = depth.clamp(-100, 100) as i8;
        let bucket = &mut self.entries[b..b + WAYS];
        let i = bucket.iter().position(|e| e.key == key).unwrap_or_else(|| {
            // The victim: an entry of an older search first, then the
            // shallowest.
            (0..WAYS)
                .min_by_key(|&i| {
                    let e = &bucket[i];
                    (e.age == age, e.depth)
                })
                .unwrap_or(0)
        });
        let slot = &mut bucket[i];
        let same = slot.key == key;
        let keep_move = same && m.is_none();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_keeps_four_keys_and_replaces_the_shallowest() {
        let mut t = Table::new(8);
        // Five keys in one bucket (same low bits).
        let keys: Vec<u64> = (1..=5).map(|k| k << 32 | 0x10).collect();
        for (d, &k) in keys[..4].iter().enumerate() {
            t.store(k, d as i32 + 3, 7, EXACT, None);
        }
        for &k in &keys[..4] {
            assert!(t.probe(k).is_some());
        }
        t.store(keys[4], 9, 7, EXACT, None);
        assert!(t.probe(keys[4]).is_some());
        // The shallowest (depth 3) went.
        assert!(t.probe(keys[0]).is_none());
        assert!(t.probe(keys[1]).is_some());
        // Older searches' entries go first, whatever their depth.
        t.new_search();
        t.store(keys[0], 1, 7, EXACT, None);
        assert!(t.probe(keys[0]).is_some());
        assert_eq!(
            keys[1..].iter().filter(|&&k| t.probe(k).is_some()).count(),
            3
        );
    }
}
