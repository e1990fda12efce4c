//! The gate every password hash and check goes through: a few at once (each takes a
//! core and 19 MiB for tens of milliseconds), a short waiting line served fairly by
//! address, and a refusal at once when the line is full.
//!
//! Without it a burst of sign-ins from a few addresses queued hundreds of hashes on the
//! blocking pool, and a real user's sign-in waited behind all of them (7.6 s with 8
//! addresses, a quarter of the burst timing out). With it, an address may hold only
//! [`PER_ADDRESS`] places in the line, and the line holds at most its length: beyond
//! that the answer is `429` with `Retry-After` before any work, so a burst costs the
//! server nothing more. A freed slot goes to the address with the fewest recent failed
//! checks ([`Pass::failed`], fading by half every [`FAILURE_HALF_LIFE_SECS`]), in turn
//! among equals: a person typing the right password waits for the checks running now,
//! not behind the guesses of every address in the burst.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tokio::sync::oneshot;

use crate::limits::RateKey;
use crate::lock::lock;

/// Places in the waiting line one address may hold (a classroom behind one address
/// signing in at once is told to try again in a second rather than filling the line).
pub const PER_ADDRESS: usize = 2;

/// Seconds in which an address's count of failed checks halves.
pub const FAILURE_HALF_LIFE_SECS: f64 = 60.0;

/// Addresses with failures remembered beyond which the faded ones are forgotten.
const MAX_REMEMBERED: usize = 4096;

/// The gate: `slots` checks at once, at most `line` waiting.
pub struct PasswordGate {
    /// Checks that may run at once.
    slots: usize,
    /// Checks that may wait.
    line: usize,
    /// Who runs and who waits. A std mutex: held for a queue update only, never across
    /// an `.await`, and taken by `Drop` (which cannot await).
    state: Arc<Mutex<GateState>>,
}

#[derive(Default)]
struct GateState {
    /// Checks running (passes held).
    running: usize,
    /// The waiting checks of each address, oldest first.
    waiting: HashMap<RateKey, VecDeque<Waiter>>,
    /// The addresses with checks waiting, in the order they get their next turn.
    turns: VecDeque<RateKey>,
    /// Checks waiting in all.
    queued: usize,
    /// The next waiter's id.
    next_id: u64,
    /// Recent failed checks per address (fading), and when each was last updated.
    failures: HashMap<RateKey, (f64, Instant)>,
}

struct Waiter {
    id: u64,
    /// Told when the slot is handed over.
    go: oneshot::Sender<()>,
}

impl GateState {
    /// `key`'s recent failures as of `now`.
    fn failures_of(&self, key: &RateKey, now: Instant) -> f64 {
        self.failures.get(key).map_or(0.0, |&(n, at)| {
            let secs = now.saturating_duration_since(at).as_secs_f64();
            n * 0.5f64.powf(secs / FAILURE_HALF_LIFE_SECS)
        })
    }

    /// One more failed check of `key`.
    fn failed(&mut self, key: RateKey) {
        let now = Instant::now();
        let n = self.failures_of(&key, now) + 1.0;
        if self.failures.len() >= MAX_REMEMBERED {
            let faded: Vec<RateKey> = self
                .failures
                .keys()
                .filter(|k| self.failures_of(k, now) < 0.5)
                .copied()
                .collect();
            for k in faded {
                self.failures.remove(&k);
            }
        }
        if self.failures.len() < MAX_REMEMBERED {
            self.failures.insert(key, (n, now));
        }
    }

    /// The next address to serve: the one with the fewest recent failures, the first
    /// in turn among equals.
    fn next_turn(&mut self) -> Option<RateKey> {
        let now = Instant::now();
        let at = self
            .turns
            .iter()
            .enumerate()
            .min_by(|(i, a), (j, b)| {
                self.failures_of(a, now)
                    .total_cmp(&self.failures_of(b, now))
                    .then(i.cmp(j))
            })
            .map(|(i, _)| i)?;
        self.turns.remove(at)
    }

    /// A pass ends: its slot goes to the next waiter, or is free again.
    fn release(&mut self) {
        while let Some(key) = self.next_turn() {
            let Some(line) = self.waiting.get_mut(&key) else {
                continue;
            };
            let Some(waiter) = line.pop_front() else {
                self.waiting.remove(&key);
                continue;
            };
            if line.is_empty() {
                self.waiting.remove(&key);
            } else {
                self.turns.push_back(key);
            }
            self.queued -= 1;
            // A waiter that gave up removes itself under this lock, so one still here
            // is listening; the check is only for safety.
            if waiter.go.send(()).is_ok() {
                return;
            }
        }
        self.running = self.running.saturating_sub(1);
    }

    /// Takes a waiter out of the line (it gave up); `false` if it was no longer there
    /// (it had been handed a slot).
    fn remove(&mut self, key: RateKey, id: u64) -> bool {
        let Some(line) = self.waiting.get_mut(&key) else {
            return false;
        };
        let Some(at) = line.iter().position(|w| w.id == id) else {
            return false;
        };
        line.remove(at);
        self.queued -= 1;
        if line.is_empty() {
            self.waiting.remove(&key);
            self.turns.retain(|k| *k != key);
        }
        true
    }
}

/// A slot of the gate: one hash or check runs while it is held.
pub struct Pass {
    state: Arc<Mutex<GateState>>,
    /// The address it was given to.
    key: RateKey,
}

impl Pass {
    /// The check found a wrong password (or no such account): the address waits behind
    /// the others for a while.
    pub fn failed(&self) {
        lock(&self.state).failed(self.key);
    }
}

impl Drop for Pass {
    fn drop(&mut self) {
        lock(&self.state).release();
    }
}

/// A place in the line; if the request goes away while it waits, the place is given up
/// (or, if the slot was handed over meanwhile, the slot is passed on).
struct Place {
    state: Arc<Mutex<GateState>>,
    key: RateKey,
    id: u64,
    done: bool,
}

impl Drop for Place {
    fn drop(&mut self) {
        if self.done {
            return;
        }
        let mut state = lock(&self.state);
        if !state.remove(self.key, self.id) {
            state.release();
        }
    }
}

impl PasswordGate {
    /// A gate of `slots` checks at once (at least one) and a line of `line`.
    pub fn new(slots: usize, line: usize) -> PasswordGate {
        PasswordGate {
            slots: slots.max(1),
            line,
            state: Arc::default(),
        }
    }

    /// A slot for a check from `key`: at once when one is free and nobody waits, else
    /// after this address's turn in the line.
    ///
    /// Fails (`None`, at once) when the line is full or this address holds its
    /// [`PER_ADDRESS`] places in it.
    pub async fn enter(&self, key: RateKey) -> Option<Pass> {
        let (id, go) = {
            let mut state = lock(&self.state);
            if state.running < self.slots && state.queued == 0 {
                state.running += 1;
                return Some(self.pass(key));
            }
            let mine = state.waiting.get(&key).map_or(0, VecDeque::len);
            if state.queued >= self.line || mine >= PER_ADDRESS {
                return None;
            }
            let id = state.next_id;
            state.next_id += 1;
            let (tx, rx) = oneshot::channel();
            if mine == 0 {
                state.turns.push_back(key);
            }
            state
                .waiting
                .entry(key)
                .or_default()
                .push_back(Waiter { id, go: tx });
            state.queued += 1;
            (id, rx)
        };
        let mut place = Place {
            state: self.state.clone(),
            key,
            id,
            done: false,
        };
        // The sender lives in the line until it is used (or the place removed): an
        // error cannot happen while `place` is held.
        let granted = go.await.is_ok();
        place.done = granted;
        granted.then(|| self.pass(key))
    }

    fn pass(&self, key: RateKey) -> Pass {
        Pass {
            state: self.state.clone(),
            key,
        }
    }

    /// Checks waiting now.
    pub fn waiting(&self) -> usize {
        lock(&self.state).queued
    }

    /// Checks running now.
    pub fn running(&self) -> usize {
        lock(&self.state).running
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u8) -> RateKey {
        RateKey::new(std::net::IpAddr::from([10, 0, 0, n]), 64)
    }

    #[tokio::test]
    async fn a_full_gate_refuses_at_once_and_serves_addresses_in_turn() {
        let gate = Arc::new(PasswordGate::new(1, 3));
        let running = gate.enter(key(1)).await.expect("a free slot");
        // Address 1 queues two checks, address 2 one; the line (3) is then full.
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        for (n, k) in [(1, key(1)), (2, key(1)), (3, key(2))] {
            let (g, tx) = (gate.clone(), tx.clone());
            tokio::spawn(async move {
                let pass = g.enter(k).await;
                let _ = tx.send((n, pass.is_some()));
                // Hold the slot until the test lets go of the next one.
                tokio::task::yield_now().await;
                drop(pass);
            });
            while gate.waiting() < n {
                tokio::task::yield_now().await;
            }
        }
        assert!(
            gate.enter(key(1)).await.is_none(),
            "address 1 holds its places"
        );
        assert!(gate.enter(key(3)).await.is_none(), "the line is full");
        drop(running);
        // Address 1's first, then address 2 (its turn comes before 1's second).
        let order: Vec<_> = [rx.recv().await, rx.recv().await, rx.recv().await]
            .into_iter()
            .flatten()
            .collect();
        assert_eq!(order, vec![(1, true), (3, true), (2, true)]);
        while gate.running() > 0 {
            tokio::task::yield_now().await;
        }
        assert_eq!(gate.waiting(), 0);
        assert!(gate.enter(key(3)).await.is_some());
    }

    #[tokio::test]
    async fn an_address_that_failed_lately_waits_behind_one_that_did_not() {
        let gate = Arc::new(PasswordGate::new(1, 8));
        // Address 1 has just failed a check.
        gate.enter(key(1)).await.expect("a free slot").failed();
        let running = gate.enter(key(9)).await.expect("a free slot");
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        for (n, k) in [(1, key(1)), (2, key(2))] {
            let (g, tx) = (gate.clone(), tx.clone());
            tokio::spawn(async move {
                let pass = g.enter(k).await;
                let _ = tx.send(n);
                tokio::task::yield_now().await;
                drop(pass);
            });
            while gate.waiting() < n {
                tokio::task::yield_now().await;
            }
        }
        drop(running);
        // Address 2 came later but has no failures: it goes first.
        assert_eq!(rx.recv().await, Some(2));
        assert_eq!(rx.recv().await, Some(1));
    }

    #[tokio::test]
    async fn a_waiter_that_gives_up_leaves_the_line() {
        let gate = Arc::new(PasswordGate::new(1, 1));
        let running = gate.enter(key(1)).await.expect("a free slot");
        let waiting = {
            let gate = gate.clone();
            tokio::spawn(async move { gate.enter(key(2)).await.is_some() })
        };
        while gate.waiting() < 1 {
            tokio::task::yield_now().await;
        }
        waiting.abort();
        let _ = waiting.await;
        assert_eq!(gate.waiting(), 0);
        drop(running);
        assert_eq!(gate.running(), 0);
        assert!(gate.enter(key(3)).await.is_some());
    }
}
