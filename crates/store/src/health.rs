//! Whether the database takes writes: a circuit breaker in front of every write.
//!
//! A write that fails because the database is out of reach or out of space (not because
//! the write itself is wrong, e.g. a duplicate ply) opens the circuit: later writes fail
//! at once with the same kind of error instead of each waiting for the pool's acquire
//! timeout, `/readyz` answers 503, and a background task probes the database (a small
//! write of its own, so a full disk counts as down) with a growing interval until it
//! succeeds, which closes the circuit again. Tables watch the state to pause their clocks
//! while their writes cannot be stored and to resume them on recovery.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use tokio::sync::watch;

/// First wait between two probes of a failing database.
const PROBE_FIRST: Duration = Duration::from_millis(100);
/// Longest wait between two probes.
const PROBE_MAX: Duration = Duration::from_secs(2);

/// The shared breaker of one store.
#[derive(Clone, Debug)]
pub struct Breaker {
    /// The state, shared by every clone.
    inner: Arc<Inner>,
}

#[derive(Debug)]
struct Inner {
    /// `true` while writes are accepted (the circuit is closed).
    healthy: watch::Sender<bool>,
    /// A probe task is running.
    probing: AtomicBool,
}

impl Default for Breaker {
    fn default() -> Breaker {
        let (healthy, _) = watch::channel(true);
        Breaker {
            inner: Arc::new(Inner {
                healthy,
                probing: AtomicBool::new(false),
            }),
        }
    }
}

impl Breaker {
    /// Whether writes are accepted now.
    pub fn healthy(&self) -> bool {
        *self.inner.healthy.borrow()
    }

    /// A receiver that sees every change of [`Breaker::healthy`].
    pub fn subscribe(&self) -> watch::Receiver<bool> {
        self.inner.healthy.subscribe()
    }

    /// Opens the circuit. Returns `true` if the caller must start the probe task (no
    /// probe is running yet).
    pub(super) fn trip(&self) -> bool {
        self.inner
            .healthy
            .send_if_modified(|h| std::mem::replace(h, false));
        !self.inner.probing.swap(true, Ordering::SeqCst)
    }

    /// Closes the circuit after a successful probe.
    pub(super) fn recovered(&self) {
        self.inner.probing.store(false, Ordering::SeqCst);
        self.inner
            .healthy
            .send_if_modified(|h| !std::mem::replace(h, true));
    }

    /// The waits between probes: 100 ms, doubling up to 2 s.
    pub(super) fn probe_delays() -> impl Iterator<Item = Duration> {
        std::iter::successors(Some(PROBE_FIRST), |d| Some((*d * 2).min(PROBE_MAX)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trip_and_recover() {
        let b = Breaker::default();
        let mut rx = b.subscribe();
        assert!(b.healthy());
        assert!(b.trip(), "the first trip starts the probe");
        assert!(!b.trip(), "a second trip does not start another");
        assert!(!b.healthy());
        assert_eq!(rx.has_changed().ok(), Some(true));
        assert!(!*rx.borrow_and_update());
        b.recovered();
        assert!(b.healthy());
        assert!(*rx.borrow_and_update());
        assert!(b.trip(), "after recovery a new trip probes again");
    }

    #[test]
    fn probe_delays_grow_to_the_cap() {
        let d: Vec<_> = Breaker::probe_delays().take(7).collect();
        assert_eq!(d[0], Duration::from_millis(100));
        assert_eq!(d[1], Duration::from_millis(200));
        assert_eq!(d[6], Duration::from_secs(2));
    }
}
