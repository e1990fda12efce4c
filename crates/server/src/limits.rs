//! Limits per client address: open sockets, socket opens, seat changes, chat, renames and
//! guest creation (token buckets); and the guests seen since the last sweep
//! ([`crate::sweep`] writes when they were seen and deletes the idle ones).
//!
//! Every per-address limit counts under a [`RateKey`], never a bare address: an IPv4
//! address is its own key, an IPv6 address is cut to its network (`--ipv6-prefix`, a /64
//! by default), so the 2^64 addresses one home or one rented server has are one client.
//!
//! The defaults are generous on purpose: a family or a school behind one address never
//! meets them (200 sockets, 30 guests a minute, 40 open tables, 10 socket opens a second),
//! while one machine can no longer exhaust the server's file descriptors, fill the guests
//! table, or flood everyone's lobby with its churn.

use crate::lock::lock;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Guest ids seen since the last sweep beyond which the set stops growing (their `seen`
/// time is then written at the next sweep anyway; a guest missed here is seen again).
const MAX_TOUCHED: usize = 100_000;

/// The per-address counters. std mutexes, held for a map update only.
#[derive(Default)]
pub struct Limits {
    /// Open sockets per address.
    sockets: Arc<Mutex<HashMap<RateKey, usize>>>,
    /// Guest-creation buckets per address.
    guests: Mutex<HashMap<RateKey, Bucket>>,
    /// Guests seen since the last sweep.
    touched: Mutex<HashSet<String>>,
    /// Socket opens per address.
    pub socket_opens: RateMap<RateKey>,
    /// Seat changes (`sit`, `stand`) per address.
    pub seat_changes: RateMap<RateKey>,
    /// Chat messages per address in one room or at one table (`room:<id>` /
    /// `table:<id>`): one budget for every guest of the address.
    pub chat: RateMap<(RateKey, String)>,
    /// Renames per guest, and per address.
    pub renames: RateMap<String>,
    /// Renames per address.
    pub renames_from: RateMap<RateKey>,
    /// Password checks (sign-in, password change) per address.
    pub sign_ins_from: RateMap<RateKey>,
    /// Failed password checks per username (folded), from anywhere: the ceiling a
    /// guesser with many addresses meets.
    pub sign_ins_of: RateMap<String>,
    /// Failed password checks per username (folded) and address: one address guessing
    /// cannot lock the owner out from another.
    pub sign_ins_of_from: RateMap<(String, RateKey)>,
    /// Accounts made per address.
    pub accounts_from: RateMap<RateKey>,
    /// Position analyses (the analysis board) per address.
    pub analyses_from: RateMap<RateKey>,
    /// Game analyses asked for per address.
    pub game_analyses_from: RateMap<RateKey>,
    /// Game analyses asked for per player (guest or account id).
    pub game_analyses_of: RateMap<String>,
    /// When an account was last written as seen at an address ([`crate::fair_play`]).
    pub addresses_seen: RateMap<(String, String)>,
    /// Web Push subscription and settings changes per address.
    pub push_changes: RateMap<RateKey>,
    /// Public lookups (profiles, a player's games and PDN, leaderboards, game lists and
    /// replays) per address.
    pub lookups_from: RateMap<RateKey>,
    /// Accounts' language choices kept on the server, per address.
    pub language_changes: RateMap<RateKey>,
    /// Puzzle requests (next, moves, results) per address.
    pub puzzles_from: RateMap<RateKey>,
    /// Players' PDN downloads streaming now, per address and in all.
    pub downloads: Streams,
}

/// Long responses running now (a player's whole PDN, streamed), per address and in all;
/// a [`StreamPermit`] holds one place until its response ends.
#[derive(Default)]
pub struct Streams {
    /// Per address; the sum is the total.
    open: Arc<Mutex<HashMap<RateKey, usize>>>,
}

/// One running stream; its place is given back when it is dropped (the response ended or
/// its client went away).
pub struct StreamPermit {
    open: Arc<Mutex<HashMap<RateKey, usize>>>,
    ip: RateKey,
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut map = lock(&self.open);
        if let Some(n) = map.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

impl Streams {
    /// A place for one more stream of `ip`, unless it has `per_address` running or all
    /// addresses `total` (0: no limit for either).
    pub fn open(&self, ip: RateKey, per_address: usize, total: usize) -> Option<StreamPermit> {
        let mut map = lock(&self.open);
        let all: usize = map.values().sum();
        let mine = map.get(&ip).copied().unwrap_or(0);
        if (per_address > 0 && mine >= per_address) || (total > 0 && all >= total) {
            return None;
        }
        *map.entry(ip).or_insert(0) += 1;
        Some(StreamPermit {
            open: self.open.clone(),
            ip,
        })
    }

    /// Streams running now, in all.
    pub fn running(&self) -> usize {
        lock(&self.open).values().sum()
    }
}

/// Token buckets by key, each `burst` tokens refilled at `per_second`; a bucket that has
/// refilled is forgotten at the next [`RateMap::prune`] (it behaves exactly like a new
/// one), so the map holds only the keys active lately.
pub struct RateMap<K> {
    buckets: Mutex<HashMap<K, RateBucket>>,
}

#[derive(Debug, Clone, Copy)]
struct RateBucket {
    tokens: f64,
    at: Instant,
    burst: f64,
    per_second: f64,
}

impl<K> Default for RateMap<K> {
    fn default() -> Self {
        RateMap {
            buckets: Mutex::new(HashMap::new()),
        }
    }
}

impl<K: std::hash::Hash + Eq> RateMap<K> {
    /// Takes a token of `key`'s bucket (`burst` tokens, refilled at `per_second`; a
    /// `per_second` of 0 means no limit); `false` when none is left.
    pub fn take(&self, key: K, burst: f64, per_second: f64) -> bool {
        self.take_at(key, burst, per_second, Instant::now())
    }

    fn take_at(&self, key: K, burst: f64, per_second: f64, now: Instant) -> bool {
        self.take_or_wait_at(key, burst, per_second, now, true)
            .is_ok()
    }

    /// Whether `key`'s bucket has a token, without taking it (take one with
    /// [`RateMap::take`] once the attempt turned out to count: a failed sign-in).
    ///
    /// Fails with the wait until a token is there.
    pub fn check(&self, key: K, burst: f64, per_second: f64) -> Result<(), std::time::Duration> {
        self.take_or_wait_at(key, burst, per_second, Instant::now(), false)
    }

    /// [`RateMap::take`], or how long until a token is there (for `Retry-After`).
    ///
    /// Fails with that wait when the bucket is empty.
    pub fn take_or_wait(
        &self,
        key: K,
        burst: f64,
        per_second: f64,
    ) -> Result<(), std::time::Duration> {
        self.take_or_wait_at(key, burst, per_second, Instant::now(), true)
    }

    fn take_or_wait_at(
        &self,
        key: K,
        burst: f64,
        per_second: f64,
        now: Instant,
        consume: bool,
    ) -> Result<(), std::time::Duration> {
        if per_second <= 0.0 {
            return Ok(());
        }
        let mut map = lock(&self.buckets);
        let b = map.entry(key).or_insert(RateBucket {
            tokens: burst,
            at: now,
            burst,
            per_second,
        });
        let elapsed = now.saturating_duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + elapsed * b.per_second).min(b.burst);
        b.at = now;
        if b.tokens >= 1.0 {
            if consume {
                b.tokens -= 1.0;
            }
            Ok(())
        } else {
            Err(std::time::Duration::from_secs_f64(
                (1.0 - b.tokens) / b.per_second,
            ))
        }
    }

    /// Gives a token taken from `key`'s bucket back (an attempt that turned out not to
    /// count: a sign-in that succeeded, or a check that never ran); nothing when the
    /// bucket is gone or full.
    pub fn give_back(&self, key: &K) {
        if let Some(b) = lock(&self.buckets).get_mut(key) {
            b.tokens = (b.tokens + 1.0).min(b.burst);
        }
    }

    /// Forgets the buckets that have refilled by now.
    pub fn prune(&self) {
        let now = Instant::now();
        lock(&self.buckets).retain(|_, b| {
            let elapsed = now.saturating_duration_since(b.at).as_secs_f64();
            b.tokens + elapsed * b.per_second < b.burst
        });
    }

    /// Keys held now.
    pub fn len(&self) -> usize {
        lock(&self.buckets).len()
    }

    /// Whether no key is held.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A token bucket: `capacity` tokens, refilled at `capacity` per minute.
#[derive(Debug, Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// One open socket of an address; the count goes down when it is dropped.
pub struct SocketPermit {
    sockets: Arc<Mutex<HashMap<RateKey, usize>>>,
    ip: RateKey,
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut map = lock(&self.sockets);
        if let Some(n) = map.get_mut(&self.ip) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                map.remove(&self.ip);
            }
        }
    }
}

impl Limits {
    /// One more socket for `ip`, unless it already holds `max` (0: no limit).
    pub fn open_socket(&self, ip: RateKey, max: usize) -> Option<SocketPermit> {
        let mut map = lock(&self.sockets);
        let n = map.entry(ip).or_insert(0);
        if max > 0 && *n >= max {
            return None;
        }
        *n += 1;
        Some(SocketPermit {
            sockets: self.sockets.clone(),
            ip,
        })
    }

    /// Sockets open from `ip`.
    pub fn sockets_of(&self, ip: RateKey) -> usize {
        lock(&self.sockets).get(&ip).copied().unwrap_or(0)
    }

    /// Takes a guest-creation token of `ip` (`per_minute` burst, refilled at
    /// `per_minute`; 0: no limit); `false` when none is left.
    pub fn take_guest(&self, ip: RateKey, per_minute: u32) -> bool {
        self.take_guest_at(ip, per_minute, Instant::now())
    }

    fn take_guest_at(&self, ip: RateKey, per_minute: u32, now: Instant) -> bool {
        if per_minute == 0 {
            return true;
        }
        let capacity = f64::from(per_minute);
        let mut map = lock(&self.guests);
        let bucket = map.entry(ip).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let elapsed = now.saturating_duration_since(bucket.at).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * capacity / 60.0).min(capacity);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Forgets the buckets that have refilled (they behave exactly like a new one).
    pub(crate) fn prune_guest_buckets(&self, per_minute: u32) {
        let full = Duration::from_secs(60);
        let now = Instant::now();
        lock(&self.guests)
            .retain(|_, b| per_minute > 0 && now.saturating_duration_since(b.at) < full);
    }

    /// Notes that a guest was seen (its `seen` time is written at the next sweep).
    pub fn touch(&self, guest_id: &str) {
        let mut set = lock(&self.touched);
        if set.len() < MAX_TOUCHED && !set.contains(guest_id) {
            set.insert(guest_id.to_owned());
        }
    }

    /// Forgets every bucket that has refilled (see [`crate::sweep::limits_pruner`]).
    pub fn prune(&self, guests_per_minute: u32) {
        self.prune_guest_buckets(guests_per_minute);
        self.socket_opens.prune();
        self.seat_changes.prune();
        self.chat.prune();
        self.renames.prune();
        self.renames_from.prune();
        self.sign_ins_from.prune();
        self.sign_ins_of.prune();
        self.sign_ins_of_from.prune();
        self.accounts_from.prune();
        self.analyses_from.prune();
        self.game_analyses_from.prune();
        self.addresses_seen.prune();
        self.push_changes.prune();
        self.game_analyses_of.prune();
        self.lookups_from.prune();
    }

    pub(crate) fn take_touched(&self) -> Vec<String> {
        lock(&self.touched).drain().collect()
    }

    pub(crate) fn touched_contains(&self, guest_id: &str) -> bool {
        lock(&self.touched).contains(guest_id)
    }
}

/// What one client counts as for every per-address limit: an IPv4 address whole, an
/// IPv6 address cut to its first `prefix` bits (the rest zero), an IPv4-mapped IPv6
/// address (`::ffff:a.b.c.d`, as a dual-stack socket reports IPv4 peers) as its IPv4
/// address. [`crate::session::ClientIp`] yields one; a new per-address limit is a
/// `RateMap<RateKey>` (or a map keyed by it) and takes the key the request's
/// `ClientIp` gives, never an `IpAddr` of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RateKey {
    /// The address with the bits beyond the prefix cleared.
    addr: IpAddr,
    /// The prefix kept (32 for IPv4), for logs.
    prefix: u8,
}

impl RateKey {
    /// The key of `ip`, IPv6 addresses cut to `ipv6_prefix` bits (at most 128).
    pub fn new(ip: IpAddr, ipv6_prefix: u8) -> RateKey {
        match ip {
            IpAddr::V4(v4) => RateKey {
                addr: IpAddr::V4(v4),
                prefix: 32,
            },
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => RateKey {
                    addr: IpAddr::V4(v4),
                    prefix: 32,
                },
                None => {
                    let prefix = ipv6_prefix.min(128);
                    let mask = u128::MAX.checked_shl(128 - u32::from(prefix)).unwrap_or(0);
                    RateKey {
                        addr: IpAddr::V6(Ipv6Addr::from(u128::from(v6) & mask)),
                        prefix,
                    }
                }
            },
        }
    }

    /// The key as an address (an IPv6 network's first address), for the counters that
    /// store one (the tables and tournaments created from an address, the computer's
    /// fair queue).
    pub fn addr(self) -> IpAddr {
        self.addr
    }
}

/// `10.0.0.1`, `2001:db8:1:2::/64`: logs show that an IPv6 key is a network.
impl fmt::Display for RateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.addr {
            IpAddr::V4(v4) => write!(f, "{v4}"),
            IpAddr::V6(v6) if self.prefix == 128 => write!(f, "{v6}"),
            IpAddr::V6(v6) => write!(f, "{v6}/{}", self.prefix),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    const UNKNOWN: RateKey = RateKey {
        addr: IpAddr::V4(Ipv4Addr::UNSPECIFIED),
        prefix: 32,
    };

    fn key(ip: &str) -> RateKey {
        RateKey::new(ip.parse().unwrap_or(UNKNOWN.addr), 64)
    }

    #[test]
    fn rate_keys_cut_ipv6_to_the_prefix_and_read_mapped_ipv4_as_ipv4() {
        assert_eq!(key("10.0.0.1"), key("::ffff:10.0.0.1"));
        assert_ne!(key("10.0.0.1"), key("10.0.0.2"));
        assert_eq!(
            key("2001:db8:1:2::1"),
            key("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_ne!(key("2001:db8:1:2::1"), key("2001:db8:1:3::1"));
        assert_eq!(key("2001:db8:1:2:3:4:5:6").to_string(), "2001:db8:1:2::/64");
        assert_eq!(key("10.0.0.1").to_string(), "10.0.0.1");
        let ip = "2001:db8:1:2:3:4:5:6".parse().unwrap_or(UNKNOWN.addr);
        assert_eq!(RateKey::new(ip, 128).to_string(), "2001:db8:1:2:3:4:5:6");
        assert_eq!(RateKey::new(ip, 48).to_string(), "2001:db8:1::/48");
        assert_eq!(
            RateKey::new(ip, 0),
            RateKey::new("::1".parse().unwrap_or(ip), 0)
        );
        assert_eq!(key("2001:db8:1:2::9").addr().to_string(), "2001:db8:1:2::");
    }

    #[test]
    fn sockets_are_counted_and_released() {
        let limits = Limits::default();
        let ip = key("10.0.0.1");
        let a = limits.open_socket(ip, 2);
        let b = limits.open_socket(ip, 2);
        assert!(a.is_some() && b.is_some());
        assert!(limits.open_socket(ip, 2).is_none());
        drop(a);
        assert_eq!(limits.sockets_of(ip), 1);
        assert!(limits.open_socket(ip, 2).is_some());
        // 0: no limit.
        let many: Vec<_> = (0..1000)
            .filter_map(|_| limits.open_socket(UNKNOWN, 0))
            .collect();
        assert_eq!(many.len(), 1000);
    }

    #[test]
    fn guest_bucket_bursts_then_refills() {
        let limits = Limits::default();
        let ip = key("10.0.0.2");
        let t0 = Instant::now();
        for _ in 0..30 {
            assert!(limits.take_guest_at(ip, 30, t0));
        }
        assert!(!limits.take_guest_at(ip, 30, t0));
        // One token every two seconds.
        assert!(limits.take_guest_at(ip, 30, t0 + Duration::from_millis(2100)));
        assert!(!limits.take_guest_at(ip, 30, t0 + Duration::from_millis(2200)));
        // Another address has its own bucket.
        assert!(limits.take_guest_at(UNKNOWN, 30, t0));
    }

    #[test]
    fn streams_are_capped_per_address_and_in_all() {
        let streams = Streams::default();
        let a = key("10.0.0.3");
        let b = key("10.0.0.4");
        let first = streams.open(a, 1, 2);
        assert!(first.is_some());
        assert!(streams.open(a, 1, 2).is_none(), "one per address");
        let second = streams.open(b, 1, 2);
        assert!(second.is_some());
        assert!(streams.open(UNKNOWN, 1, 2).is_none(), "two in all");
        drop(first);
        assert_eq!(streams.running(), 1);
        assert!(streams.open(a, 1, 2).is_some(), "a place is given back");
        assert!(streams.open(UNKNOWN, 0, 0).is_some(), "0: no limit");
    }

    #[test]
    fn rate_maps_limit_per_key_and_forget_full_buckets() {
        let map: RateMap<u32> = RateMap::default();
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(map.take_at(1, 3.0, 1.0, t0));
        }
        assert!(!map.take_at(1, 3.0, 1.0, t0));
        assert!(
            map.take_at(2, 3.0, 1.0, t0),
            "another key has its own bucket"
        );
        assert!(map.take_at(1, 3.0, 1.0, t0 + Duration::from_millis(1100)));
        assert!(map.take_at(3, 3.0, 0.0, t0), "0 per second: no limit");
        assert_eq!(map.len(), 2);
        // Key 2 refills within 1 s, key 1 within 3 s: neither is full yet.
        map.prune();
        assert_eq!(map.len(), 2);
        lock(&map.buckets)
            .values_mut()
            .for_each(|b| b.at = t0 - Duration::from_secs(10));
        map.prune();
        assert!(map.is_empty(), "refilled buckets are forgotten");
    }
}
