//! Randomness from the operating system: session tokens, ids, names, seat draws and
//! random-opening seeds.

/// Fills `buf` with OS randomness. The OS generator failing is not something the server
/// can work around, so it is treated as a broken invariant.
fn fill(buf: &mut [u8]) {
    #[allow(clippy::expect_used)]
    getrandom::fill(buf).expect("the operating system's random generator failed");
}

/// A random `u64`.
pub fn u64() -> u64 {
    let mut b = [0u8; 8];
    fill(&mut b);
    u64::from_le_bytes(b)
}

/// A session token: 32 random bytes as 64 hex digits.
pub fn session_token() -> String {
    let mut b = [0u8; 32];
    fill(&mut b);
    hex(&b)
}

/// Lower-case hex.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// `len` random characters of `0-9a-z` (short, URL-friendly ids).
pub fn token_base36(len: usize) -> String {
    const ALPHABET: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut b = vec![0u8; len];
    fill(&mut b);
    // 256 % 36 = 4: the first four symbols are 1/64 more likely; harmless for ids that
    // are checked for collisions and are not secrets.
    b.iter()
        .map(|&x| ALPHABET[usize::from(x) % 36] as char)
        .collect()
}

/// A random Polish display name: "Gość 4821" or adjective + animal ("Szybki Lis").
pub fn guest_name() -> String {
    const ADJECTIVES: [&str; 12] = [
        "Szybki", "Sprytny", "Cichy", "Dzielny", "Mądry", "Wesoły", "Zwinny", "Spokojny", "Bystry",
        "Śmiały", "Czujny", "Rudy",
    ];
    const ANIMALS: [&str; 12] = [
        "Lis", "Borsuk", "Jeż", "Wilk", "Sokół", "Żubr", "Bóbr", "Kruk", "Ryś", "Dzik", "Zając",
        "Puchacz",
    ];
    let r = u64();
    if r.is_multiple_of(2) {
        format!("Gość {}", 1000 + (r >> 8) % 9000)
    } else {
        let a = ADJECTIVES[((r >> 8) % 12) as usize];
        let n = ANIMALS[((r >> 16) % 12) as usize];
        format!("{a} {n}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_and_names_have_their_shape() {
        let t = session_token();
        assert_eq!(t.len(), 64);
        assert_ne!(t, session_token());
        assert_eq!(token_base36(7).len(), 7);
        for _ in 0..50 {
            let name = guest_name();
            assert!(crate::http::guest::valid_name(&name), "{name}");
        }
    }
}
