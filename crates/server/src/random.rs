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

/// A random English display name: "Guest 4821" or adjective + animal ("Quick Fox").
pub fn guest_name_en() -> String {
    const ADJECTIVES: [&str; 12] = [
        "Quick", "Clever", "Quiet", "Brave", "Wise", "Merry", "Nimble", "Calm", "Sharp", "Bold",
        "Alert", "Red",
    ];
    const ANIMALS: [&str; 12] = [
        "Fox", "Badger", "Hedgehog", "Wolf", "Falcon", "Bison", "Beaver", "Raven", "Lynx", "Boar",
        "Hare", "Owl",
    ];
    let r = u64();
    if r.is_multiple_of(2) {
        format!("Guest {}", 1000 + (r >> 8) % 9000)
    } else {
        let a = ADJECTIVES[((r >> 8) % 12) as usize];
        let n = ANIMALS[((r >> 16) % 12) as usize];
        format!("{a} {n}")
    }
}

/// Whether a request's `Accept-Language` prefers English to Polish: the highest-weighted
/// of the two wins; a header naming neither (another language) counts as English, no
/// header as Polish.
pub fn prefers_english(accept_language: Option<&str>) -> bool {
    let Some(header) = accept_language.filter(|h| !h.trim().is_empty()) else {
        return false;
    };
    let mut best: Option<(f32, bool)> = None;
    for (i, part) in header.split(',').enumerate() {
        let mut fields = part.split(';');
        let tag = fields.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = fields
            .filter_map(|f| f.trim().strip_prefix("q="))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let primary = tag.split('-').next().unwrap_or("");
        let english = match primary {
            "en" => true,
            "pl" => false,
            _ => continue,
        };
        // Earlier entries win ties.
        let q = q - i as f32 * 1e-4;
        if best.is_none_or(|(b, _)| q > b) {
            best = Some((q, english));
        }
    }
    best.is_none_or(|(_, english)| english)
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
            assert!(crate::names::valid_name(&name), "{name}");
            let name = guest_name_en();
            assert!(crate::names::valid_name(&name), "{name}");
            assert!(name.is_ascii(), "{name}");
        }
    }

    #[test]
    fn the_name_language_follows_accept_language() {
        assert!(!prefers_english(None));
        assert!(!prefers_english(Some("pl-PL,pl;q=0.9,en;q=0.8")));
        assert!(prefers_english(Some("en-GB,en;q=0.9")));
        assert!(prefers_english(Some("en-US,pl;q=0.5")));
        assert!(!prefers_english(Some("de;q=0.9,pl;q=0.8,en;q=0.7")));
        assert!(prefers_english(Some("de-DE,fr;q=0.8")), "neither: English");
        assert!(prefers_english(Some("pl;q=0.3,en;q=0.6")));
    }
}
