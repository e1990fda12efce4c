//! Who is at the table, as the sockets see it: which seated players are connected and how
//! many spectators watch. Players arriving or leaving are announced at once; a changing
//! spectator count is coalesced, so a crowd arriving does not cost one broadcast per
//! arrival.

use std::time::Duration;

use damka_protocol::Side;
use damka_protocol::table::ServerMessage;

use super::actor::{TableActor, encode};

/// Longest delay before a change in the number of spectators is announced.
const PRESENCE_COALESCE: Duration = Duration::from_millis(500);

impl TableActor {
    /// Broadcasts `presence` if who is connected changed, and updates the room.
    pub(super) fn presence_changed(&mut self) {
        self.presence_changed_except(None);
    }

    /// [`Self::presence_changed`], not telling socket `except`. A player arriving or
    /// leaving is announced at once; a change in the spectator count alone within
    /// [`PRESENCE_COALESCE`].
    pub(super) fn presence_changed_except(&mut self, except: Option<u64>) {
        let now = self.presence_now();
        if (now.0, now.1) != (self.presence.0, self.presence.1) {
            self.announce_presence(except);
        } else if now.2 != self.presence.2 && self.presence_due.is_none() {
            self.presence_due = Some(tokio::time::Instant::now() + PRESENCE_COALESCE);
        }
    }

    /// Broadcasts the current presence (if it changed since the last one) and updates the
    /// room.
    pub(super) fn announce_presence(&mut self, except: Option<u64>) {
        self.update_gone();
        let now = self.presence_now();
        if now == self.presence {
            return;
        }
        self.presence = now;
        let v = self.next_v();
        let claim_at = self.claim_at(self.core.time.now_ms());
        let msg = ServerMessage::Presence {
            v,
            white: now.0,
            black: now.1,
            spectators: now.2,
            claim_at,
        };
        if let Some(text) = encode(&msg) {
            self.subs.broadcast_except(&text, except);
        }
        self.publish();
    }

    /// (white connected, black connected, spectators) as of now.
    pub(super) fn presence_now(&self) -> (bool, bool, u32) {
        let connected = |side: Side| {
            self.seats[side.index()]
                .as_ref()
                .is_some_and(|p| p.is_bot() || self.subs.has_guest(&p.id))
        };
        let seated = |id: &str| self.seats.iter().flatten().any(|p| p.id == id);
        let spectators = self
            .subs
            .iter()
            .filter(|s| !s.guest.as_ref().is_some_and(|g| seated(&g.id)))
            .count();
        (
            connected(Side::White),
            connected(Side::Black),
            u32::try_from(spectators).unwrap_or(u32::MAX),
        )
    }
}
