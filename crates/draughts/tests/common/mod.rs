//! What the integration tests and the benches share: a seeded generator, so
//! a random game or a random string is the same on every run and a failure
//! can be replayed. Each test target includes this file with `mod common;`
//! (the benches through `benches/common/mod.rs`) and uses only part of it.
#![allow(dead_code)]

/// SplitMix64: tiny and good enough to pick moves and characters; no extra
/// crate needed.
pub struct SplitMix64(pub u64);

impl SplitMix64 {
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// An index in `0..n` (`n > 0`); the slight modulo bias does not matter
    /// for picking sample moves.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}
