//! The sockets watching a table, each with a bounded outgoing queue.
//!
//! The actor never waits for a socket: it `try_send`s. A socket whose queue is full is
//! marked stale and skipped by later broadcasts (so it never slows the table); once its
//! queue has drained it is sent a fresh `state` instead of the events it missed, and if it
//! stays stale for too long it is disconnected.

use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use damka_protocol::Player;
use damka_protocol::table::ServerMessage;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

/// Messages each socket's outgoing queue holds. Sessions create their channel with one
/// slot more, kept free for the `Close` that tells a lagging socket why it is dropped.
pub const QUEUE: usize = 64;

/// How long a socket may stay stale before it is disconnected.
pub const MAX_STALE: Duration = Duration::from_secs(10);

/// What a socket session is told to send.
#[derive(Debug, Clone)]
pub enum Outgoing {
    /// A JSON text frame.
    Text(Utf8Bytes),
    /// Close the socket with this code and reason.
    Close(u16, &'static str),
}

/// One socket watching the table.
pub struct Subscriber {
    /// Id, unique within the table.
    pub id: u64,
    /// The guest behind the socket, if it has a session.
    pub guest: Option<Player>,
    /// The socket's outgoing queue.
    tx: mpsc::Sender<Outgoing>,
    /// Since when the queue has been full (events skipped).
    stale_since: Option<Instant>,
}

/// All sockets watching a table.
#[derive(Default)]
pub struct Subscribers {
    /// The subscribers, in joining order.
    list: Vec<Subscriber>,
    /// Next id to give out.
    next_id: u64,
}

impl Subscribers {
    /// Adds a socket; returns its id.
    pub fn add(&mut self, guest: Option<Player>, tx: mpsc::Sender<Outgoing>) -> u64 {
        self.next_id += 1;
        self.list.push(Subscriber {
            id: self.next_id,
            guest,
            tx,
            stale_since: None,
        });
        self.next_id
    }

    /// Removes a socket (its queue closes, which ends its session).
    pub fn remove(&mut self, id: u64) -> Option<Subscriber> {
        let i = self.list.iter().position(|s| s.id == id)?;
        Some(self.list.remove(i))
    }

    /// A socket by id.
    pub fn get(&self, id: u64) -> Option<&Subscriber> {
        self.list.iter().find(|s| s.id == id)
    }

    /// Every socket.
    pub fn iter(&self) -> impl Iterator<Item = &Subscriber> {
        self.list.iter()
    }

    /// Whether no socket watches.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// Changes how a guest is shown on each of its sockets (a new rating).
    pub fn update_guest(&mut self, guest_id: &str, f: impl Fn(&mut Player)) {
        for g in self.list.iter_mut().filter_map(|s| s.guest.as_mut()) {
            if g.id == guest_id {
                f(g);
            }
        }
    }

    /// Whether the guest has a socket open here.
    pub fn has_guest(&self, guest_id: &str) -> bool {
        self.list
            .iter()
            .any(|s| s.guest.as_ref().is_some_and(|g| g.id == guest_id))
    }

    /// Sends an event to every socket that keeps up.
    pub fn broadcast(&mut self, text: &Utf8Bytes) {
        self.broadcast_except(text, None);
    }

    /// Sends an event to every socket that keeps up, except `except`.
    pub fn broadcast_except(&mut self, text: &Utf8Bytes, except: Option<u64>) {
        for s in &mut self.list {
            if s.stale_since.is_none() && Some(s.id) != except {
                push(s, Outgoing::Text(text.clone()));
            }
        }
    }

    /// Sends an event to every socket that keeps up and whose id passes `to`.
    pub fn broadcast_to(&mut self, text: &Utf8Bytes, to: impl Fn(u64) -> bool) {
        for s in &mut self.list {
            if s.stale_since.is_none() && to(s.id) {
                push(s, Outgoing::Text(text.clone()));
            }
        }
    }

    /// Sends a reply to one socket (skipped while it is stale: it gets a `state` later).
    pub fn send_to(&mut self, id: u64, out: Outgoing) {
        if let Some(s) = self.list.iter_mut().find(|s| s.id == id)
            && s.stale_since.is_none()
        {
            push(s, out);
        }
    }

    /// Sends a fresh `state` to a socket, even a stale one, and clears its staleness.
    pub fn send_state(&mut self, id: u64, text: Utf8Bytes) {
        if let Some(s) = self.list.iter_mut().find(|s| s.id == id) {
            s.stale_since = None;
            push(s, Outgoing::Text(text));
        }
    }

    /// Tells every socket to close with `code` (using the reserved slot if need be).
    pub fn close_all(&mut self, code: u16, reason: &'static str) {
        for s in &mut self.list {
            // Only fails when the session has ended already (the reserved slot is free
            // otherwise): nothing left to close.
            if s.tx.try_send(Outgoing::Close(code, reason)).is_err() {
                tracing::debug!(sub = s.id, "socket already gone at close");
            }
        }
    }

    /// Stale sockets whose queue has drained to half: they are ready for a fresh `state`.
    pub fn ready_for_state(&self) -> Vec<u64> {
        self.list
            .iter()
            .filter(|s| s.stale_since.is_some() && s.tx.capacity() >= QUEUE / 2)
            .map(|s| s.id)
            .collect()
    }

    /// Whether any socket is stale.
    pub fn any_stale(&self) -> bool {
        self.list.iter().any(|s| s.stale_since.is_some())
    }

    /// Disconnects sockets stale for longer than [`MAX_STALE`] and sockets whose session
    /// has ended; returns how many lagging sockets were dropped.
    pub fn drop_laggards(&mut self) -> usize {
        let mut dropped = 0;
        self.list.retain(|s| {
            if s.tx.is_closed() {
                return false;
            }
            if s.stale_since.is_none_or(|t| t.elapsed() < MAX_STALE) {
                return true;
            }
            // The reserved slot: the session closes the socket with 1008.
            if s.tx
                .try_send(Outgoing::Close(damka_protocol::close::POLICY, "too slow"))
                .is_err()
            {
                tracing::debug!(sub = s.id, "slow socket already gone");
            }
            dropped += 1;
            false
        });
        dropped
    }
}

fn push(s: &mut Subscriber, out: Outgoing) {
    if s.tx.capacity() <= 1 {
        // Only the reserved slot is left: the socket is behind.
        s.stale_since = Some(Instant::now());
        return;
    }
    match s.tx.try_send(out) {
        Ok(()) => {}
        Err(TrySendError::Full(_)) => s.stale_since = Some(Instant::now()),
        // The session has ended; its `Leave` command is on its way.
        Err(TrySendError::Closed(_)) => {}
    }
}

/// Serialises a message once for every socket that receives it.
pub(super) fn encode(msg: &ServerMessage) -> Option<Utf8Bytes> {
    match serde_json::to_string(msg) {
        Ok(text) => Some(Utf8Bytes::from(text)),
        Err(e) => {
            tracing::error!(error = %e, "cannot serialise a table event");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_queue_marks_stale_and_is_skipped() {
        let mut subs = Subscribers::default();
        let (tx, mut rx) = mpsc::channel(QUEUE + 1);
        let id = subs.add(None, tx);
        let text = Utf8Bytes::from_static("{}");
        for _ in 0..QUEUE + 5 {
            subs.broadcast(&text);
        }
        assert!(subs.any_stale());
        assert!(subs.ready_for_state().is_empty(), "queue still full");
        for _ in 0..QUEUE {
            assert!(rx.try_recv().is_ok());
        }
        assert!(rx.try_recv().is_err(), "events past the queue were skipped");
        assert_eq!(subs.ready_for_state(), vec![id]);
        subs.send_state(id, Utf8Bytes::from_static("state"));
        assert!(!subs.any_stale());
    }
}
