//! The transposition table: a fixed number of entries set per engine, in
//! buckets of four that fill one cache line, shared by the search threads.
//!
//! Each entry is two 64-bit words: the position's key exclusive-ored with the
//! data, and the data (score, depth, bound, age and the best move, packed).
//! The words are atomics read and written without ordering (plain loads and
//! stores on the machine), so threads share the table without locks: an
//! entry torn by two writers reads back under neither key and is a miss.

use draughts::Move;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// The score is exact.
pub(crate) const EXACT: u8 = 0;
/// The score is a lower bound (the search failed high).
pub(crate) const LOWER: u8 = 1;
/// The score is an upper bound (the search failed low).
pub(crate) const UPPER: u8 = 2;

/// Entries per bucket: one 64-byte cache line.
const WAYS: usize = 4;

/// One stored search result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Entry {
    pub key: u64,
    pub score: i16,
    pub depth: i8,
    pub bound: u8,
    /// Search generation (5 bits), so stale entries are replaced first.
    pub age: u8,
    /// Whether a move is stored.
    pub has_move: bool,
    /// The best move's start and landing bits.
    pub from: u8,
    pub to: u8,
    /// A 20-bit hash of the best move's captured set (with `from`/`to` it
    /// names the move among the position's legal ones).
    pub captures: u32,
}

/// The stored hash of a captured set.
fn captures_hash(c: u64) -> u32 {
    (c.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 44) as u32
}

impl Entry {
    /// Whether `m` is the stored move.
    pub(crate) fn is_move(&self, m: &Move) -> bool {
        self.has_move
            && m.from().bit() == self.from
            && m.to().bit() == self.to
            && captures_hash(m.captures().0) == self.captures
    }

    /// The entry's data word.
    fn pack(&self) -> u64 {
        u64::from(self.score as u16)
            | u64::from(self.depth as u8) << 16
            | u64::from(self.bound & 3) << 24
            | u64::from(self.has_move) << 26
            | u64::from(self.age & 31) << 27
            | u64::from(self.from & 63) << 32
            | u64::from(self.to & 63) << 38
            | u64::from(self.captures & 0xF_FFFF) << 44
    }

    /// The entry of `key` with data word `d`.
    fn unpack(key: u64, d: u64) -> Entry {
        Entry {
            key,
            score: d as u16 as i16,
            depth: (d >> 16) as u8 as i8,
            bound: (d >> 24 & 3) as u8,
            has_move: d >> 26 & 1 != 0,
            age: (d >> 27 & 31) as u8,
            from: (d >> 32 & 63) as u8,
            to: (d >> 38 & 63) as u8,
            captures: (d >> 44) as u32,
        }
    }
}

/// Four entries on one cache line.
#[derive(Debug, Default)]
#[repr(align(64))]
struct Bucket([[AtomicU64; 2]; WAYS]);

/// A table of `2^bits` entries.
#[derive(Debug)]
pub(crate) struct Table {
    buckets: Vec<Bucket>,
    mask: usize,
    age: AtomicU8,
}

impl Table {
    pub(crate) fn new(bits: u32) -> Table {
        let n = 1usize << (bits.clamp(4, 27) - 2);
        Table {
            buckets: (0..n).map(|_| Bucket::default()).collect(),
            mask: n - 1,
            age: AtomicU8::new(0),
        }
    }

    /// Bytes the table holds.
    pub(crate) fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// A new search begins: older entries become replaceable.
    pub(crate) fn new_search(&self) {
        self.age
            .store(self.age.load(Relaxed).wrapping_add(1) & 31, Relaxed);
    }

    /// The bucket of `key` (its low bits; the entries check all of it).
    fn bucket(&self, key: u64) -> &Bucket {
        &self.buckets[key as usize & self.mask]
    }

    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key).0.iter().find_map(|[k, d]| {
            let d = d.load(Relaxed);
            (k.load(Relaxed) ^ d == key).then(|| Entry::unpack(key, d))
        })
    }

    pub(crate) fn store(&self, key: u64, depth: i32, score: i32, bound: u8, m: Option<&Move>) {
        let age = self.age.load(Relaxed);
        let bucket = self.bucket(key);
        let entries = bucket.0.each_ref().map(|[k, d]| {
            let d = d.load(Relaxed);
            Entry::unpack(k.load(Relaxed) ^ d, d)
        });
        // The same position's entry, else the least worth keeping: an
        // earlier search's before this one's, then the shallowest.
        let slot = entries
            .iter()
            .position(|e| e.key == key)
            .unwrap_or_else(|| {
                (0..WAYS)
                    .min_by_key(|&i| {
                        let e = &entries[i];
                        i32::from(e.depth) - if e.age == age { 0 } else { 256 }
                    })
                    .unwrap_or(0)
            });
        let old = entries[slot];
        let same = old.key == key;
        let (has_move, from, to, captures) = match m {
            Some(m) => (
                true,
                m.from().bit(),
                m.to().bit(),
                captures_hash(m.captures().0),
            ),
            None if same => (old.has_move, old.from, old.to, old.captures),
            None => (false, 0, 0, 0),
        };
        let e = Entry {
            key,
            score: score.clamp(-32000, 32000) as i16,
            depth: depth.clamp(-100, 100) as i8,
            bound,
            age,
            has_move,
            from,
            to,
            captures,
        };
        let d = e.pack();
        let [k, data] = &bucket.0[slot];
        k.store(key ^ d, Relaxed);
        data.store(d, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::{Position, Rules, Variant};

    #[test]
    fn entries_pack_and_unpack() {
        let e = Entry {
            key: 0xDEAD_BEEF_0123_4567,
            score: -29_999,
            depth: -100,
            bound: UPPER,
            age: 31,
            has_move: true,
            from: 63,
            to: 1,
            captures: 0xF_FFFF,
        };
        assert_eq!(Entry::unpack(e.key, e.pack()), e);
        let f = Entry {
            score: 32_000,
            depth: 100,
            bound: LOWER,
            age: 0,
            has_move: false,
            from: 0,
            to: 0,
            captures: 0,
            ..e
        };
        assert_eq!(Entry::unpack(f.key, f.pack()), f);
    }

    #[test]
    fn a_bucket_keeps_four_positions_and_replaces_the_shallowest() {
        let t = Table::new(4);
        let pos = Position::new(Rules::new(Variant::International));
        let m = pos.legal_moves()[3];
        // Five keys of the same bucket.
        let keys: Vec<u64> = (1..=5u64).map(|i| i << 40).collect();
        for (i, &k) in keys[..4].iter().enumerate() {
            t.store(k, 10 - i as i32, 50, EXACT, Some(&m));
        }
        for (i, &k) in keys[..4].iter().enumerate() {
            let e = t.probe(k).expect("stored");
            assert_eq!((e.depth, e.score, e.bound), (10 - i as i8, 50, EXACT));
            assert!(e.is_move(&m));
            assert!(!e.is_move(&pos.legal_moves()[2]));
        }
        // The fifth replaces the shallowest (depth 7).
        t.store(keys[4], 8, -5, LOWER, None);
        assert!(t.probe(keys[3]).is_none());
        assert_eq!(
            t.probe(keys[4]).map(|e| (e.depth, e.has_move)),
            Some((8, false))
        );
        // The same position again keeps its move when none is given.
        t.store(keys[0], 12, 7, UPPER, None);
        let e = t.probe(keys[0]).expect("stored");
        assert_eq!((e.depth, e.score), (12, 7));
        assert!(e.is_move(&m));
        // In a new search, an earlier search's entry goes before a shallower one of this search.
        t.new_search();
        t.store(keys[3], 1, 0, EXACT, None);
        t.store(1 << 50, 2, 0, EXACT, None);
        assert!(t.probe(keys[3]).is_some(), "this search's entry stays");
        assert!(t.probe(1 << 50).is_some());
        assert!(t.probe(1 << 40 | 1 << 50).is_none());
    }
}
