//! The live sockets of each session, so that a session's end closes them at once.
//!
//! A room or table socket opened with a session cookie registers under its token's hash
//! (and its player) for as long as it is open. Ending a session here (signing out, out
//! everywhere, a password change) cancels each of its sockets' tokens, and their
//! sessions close them with [`damka_protocol::close::SIGNED_OUT`] before reading another
//! message: nothing a socket sends after its session ended reaches a table or a room.
//! Ends this process does not see (the operator's `damka account` commands, another node
//! of a cluster, expiry) are found by re-checking every registered session against the
//! database every `--session-check-secs` ([`crate::session_sweep`]).
//!
//! It also collects the sessions used lately, whose `used_at` the same task writes (the
//! idle limit counts from it): at most one write per session every [`TOUCH_EVERY_MS`].

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tokio_util::sync::{CancellationToken, WaitForCancellationFutureOwned};

use crate::lock::lock;

/// How stale a session's `used_at` may be before a use writes it again (the idle limit
/// is counted in days: minutes are plenty).
pub const TOUCH_EVERY_MS: i64 = 10 * 60 * 1000;

/// Sessions used since the last write beyond which the set stops growing (they are
/// touched again at their next use).
const MAX_TOUCHED: usize = 100_000;

/// Every open socket of every session. std mutexes: held for a map update only, never
/// across an `.await`, and taken by `Drop`.
#[derive(Default)]
pub struct SessionSockets {
    inner: Arc<Mutex<Inner>>,
    /// Sessions used lately whose `used_at` is due for a write.
    touched: Mutex<HashSet<String>>,
}

#[derive(Default)]
struct Inner {
    /// The next socket's id.
    next: u64,
    /// Sessions by token hash.
    sessions: HashMap<String, Live>,
    /// Each socket's session (a socket may move to another session: [`SessionSockets::rekey`]).
    session_of: HashMap<u64, String>,
}

/// One session's sockets.
struct Live {
    /// Its player.
    player: String,
    /// Each socket's token, cancelled when the session ends.
    sockets: HashMap<u64, CancellationToken>,
}

impl Inner {
    /// Cancels every socket of a session; how many.
    fn end(&mut self, token_hash: &str) -> usize {
        let Some(live) = self.sessions.remove(token_hash) else {
            return 0;
        };
        for (id, token) in &live.sockets {
            token.cancel();
            self.session_of.remove(id);
        }
        live.sockets.len()
    }
}

/// A socket's place in the registry: [`SocketSession::ended`] completes when its session
/// ends; dropping it (the socket closed) takes it out.
pub struct SocketSession {
    inner: Arc<Mutex<Inner>>,
    id: u64,
    ended: CancellationToken,
}

impl SocketSession {
    /// Completes once the socket's session has ended.
    pub fn ended(&self) -> WaitForCancellationFutureOwned {
        self.ended.clone().cancelled_owned()
    }
}

impl Drop for SocketSession {
    fn drop(&mut self) {
        let mut inner = lock(&self.inner);
        let Some(hash) = inner.session_of.remove(&self.id) else {
            return;
        };
        if let Some(live) = inner.sessions.get_mut(&hash) {
            live.sockets.remove(&self.id);
            if live.sockets.is_empty() {
                inner.sessions.remove(&hash);
            }
        }
    }
}

impl SessionSockets {
    /// Registers a socket opened with the session `token_hash` of `player`.
    pub fn register(&self, token_hash: &str, player: &str) -> SocketSession {
        let mut inner = lock(&self.inner);
        let id = inner.next;
        inner.next += 1;
        let ended = CancellationToken::new();
        inner
            .sessions
            .entry(token_hash.to_owned())
            .or_insert_with(|| Live {
                player: player.to_owned(),
                sockets: HashMap::new(),
            })
            .sockets
            .insert(id, ended.clone());
        inner.session_of.insert(id, token_hash.to_owned());
        SocketSession {
            inner: self.inner.clone(),
            id,
            ended,
        }
    }

    /// Ends a session: its sockets close. Returns how many.
    pub fn end(&self, token_hash: &str) -> usize {
        lock(&self.inner).end(token_hash)
    }

    /// Ends every session of a player but `keep`: their sockets close. Returns how many.
    pub fn end_player(&self, player: &str, keep: Option<&str>) -> usize {
        let mut inner = lock(&self.inner);
        let ending: Vec<String> = inner
            .sessions
            .iter()
            .filter(|(hash, live)| live.player == player && Some(hash.as_str()) != keep)
            .map(|(hash, _)| hash.clone())
            .collect();
        ending.iter().map(|hash| inner.end(hash)).sum()
    }

    /// The sockets of session `from` go on under session `to` (a guest that became an
    /// account: the same player, a new session, and a game in progress goes on).
    pub fn rekey(&self, from: &str, to: &str) {
        let mut inner = lock(&self.inner);
        let Some(moved) = inner.sessions.remove(from) else {
            return;
        };
        for id in moved.sockets.keys() {
            inner.session_of.insert(*id, to.to_owned());
        }
        match inner.sessions.get_mut(to) {
            Some(live) => live.sockets.extend(moved.sockets),
            None => {
                inner.sessions.insert(to.to_owned(), moved);
            }
        }
    }

    /// The sessions with sockets open.
    pub fn sessions(&self) -> Vec<String> {
        lock(&self.inner).sessions.keys().cloned().collect()
    }

    /// Ends the sessions among `checked` that are not `live` (the database no longer
    /// knows them, or they expired). Returns how many sockets closed.
    pub fn end_unless_live(&self, checked: &[String], live: &HashSet<&str>) -> usize {
        let mut inner = lock(&self.inner);
        checked
            .iter()
            .filter(|hash| !live.contains(hash.as_str()))
            .map(|hash| inner.end(hash))
            .sum()
    }

    /// Sockets open with a session.
    pub fn sockets(&self) -> usize {
        lock(&self.inner).session_of.len()
    }

    /// Notes that a session was used (its `used_at` is written at the next check).
    pub fn touch(&self, token_hash: &str) {
        let mut set = lock(&self.touched);
        if set.len() < MAX_TOUCHED && !set.contains(token_hash) {
            set.insert(token_hash.to_owned());
        }
    }

    /// The sessions noted since the last call.
    pub fn take_touched(&self) -> Vec<String> {
        lock(&self.touched).drain().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_ended(s: &SocketSession) -> bool {
        s.ended.is_cancelled()
    }

    #[test]
    fn ending_a_session_ends_its_sockets_only() {
        let reg = SessionSockets::default();
        let a1 = reg.register("a", "ala");
        let a2 = reg.register("a", "ala");
        let b = reg.register("b", "ala");
        let c = reg.register("c", "bolek");
        assert_eq!(reg.end("a"), 2);
        assert!(is_ended(&a1) && is_ended(&a2));
        assert!(!is_ended(&b) && !is_ended(&c));
        // Every session of a player but the one kept.
        let b2 = reg.register("b2", "ala");
        assert_eq!(reg.end_player("ala", Some("b2")), 1);
        assert!(is_ended(&b) && !is_ended(&b2) && !is_ended(&c));
        drop((a1, a2, b));
        assert_eq!(reg.sockets(), 2);
        drop(b2);
        let mut left = reg.sessions();
        left.sort();
        assert_eq!(left, vec!["c".to_owned()]);
    }

    #[test]
    fn a_rekeyed_socket_ends_with_its_new_session_and_leaves_cleanly() {
        let reg = SessionSockets::default();
        let s = reg.register("guest", "ala");
        reg.rekey("guest", "account");
        assert_eq!(reg.end("guest"), 0);
        assert!(!is_ended(&s));
        let checked = reg.sessions();
        assert_eq!(checked, vec!["account".to_owned()]);
        assert_eq!(
            reg.end_unless_live(&checked, &HashSet::from(["account"])),
            0
        );
        assert_eq!(reg.end_unless_live(&checked, &HashSet::new()), 1);
        assert!(is_ended(&s));
        drop(s);
        assert_eq!(reg.sockets(), 0);
        assert!(reg.sessions().is_empty());
    }
}
