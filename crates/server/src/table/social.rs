//! What players and spectators say at a table, and who is here: chat (players' and
//! spectators' kept apart during a game), the people reported to the room, and when a
//! claim against an opponent who left becomes possible (the claim itself, like every
//! action on a running game, is ruled by [`super::referee`]).

use damka_protocol::table::ServerMessage;
use damka_protocol::{ChatMessage, Player, Whereabouts};

use super::actor::TableActor;
use super::subscribers::encode;
use crate::chat;
use crate::error::AppError;

impl TableActor {
    /// The chat scope of this table in the store.
    pub(super) fn chat_scope(&self) -> String {
        format!("table:{}", self.id)
    }

    /// Whether `guest_id` plays the running game (its chat reaches everyone).
    fn plays_now(&self, guest_id: &str) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.playing() && g.color_of(guest_id).is_some())
    }

    /// The chat history as `guest` may see it: during a game, a player does not see
    /// the spectators' messages.
    pub(super) fn chat_for(&self, guest: Option<&Player>) -> Vec<ChatMessage> {
        let player = guest.is_some_and(|g| self.plays_now(&g.id));
        self.chat
            .history()
            .filter(|m| !(player && m.spectators))
            .cloned()
            .collect()
    }

    /// A chat message: cleaned, rate-limited, stored, then sent to the table (a
    /// spectator's during a game to the spectators only).
    ///
    /// Fails with `bad_message`, `rate_limited` or a storage error.
    pub(super) async fn chat(&mut self, guest: &Player, text: &str) -> Result<(), AppError> {
        let text = self.chat.admit(&guest.id, text)?;
        let spectators =
            self.game.as_ref().is_some_and(|g| g.playing()) && !self.plays_now(&guest.id);
        let from = self.room.shown_player(guest);
        let row = chat::new_row(&self.chat_scope(), &from, text, spectators);
        self.core.store.save_chat(&row).await?;
        let msg = chat::message(&row);
        self.chat.record(msg.clone());
        let Some(text) = encode(&ServerMessage::Chat(msg)) else {
            return Ok(());
        };
        if spectators {
            let players: Vec<u64> = self
                .subs
                .iter()
                .filter(|s| s.guest.as_ref().is_some_and(|g| self.plays_now(&g.id)))
                .map(|s| s.id)
                .collect();
            self.subs.broadcast_to(&text, |id| !players.contains(&id));
        } else {
            self.subs.broadcast(&text);
        }
        Ok(())
    }

    /// Tells the room who is here (guests with a socket open: playing the running game,
    /// or at the table), if that changed.
    pub(super) fn publish_people(&mut self) {
        // Run after every wake-up of the table (every move): compared in place, and the
        // list built only when it changed.
        if self.presence.people_unchanged(self.people_now()) {
            return;
        }
        let at: Vec<(Player, Whereabouts)> =
            self.people_now().map(|(p, w)| (p.clone(), w)).collect();
        self.room.table_people(&self.id, at.clone());
        self.presence.people_reported(at);
    }

    /// The guests with a socket open here (each once, in joining order), and whether they
    /// play the running game.
    fn people_now(&self) -> impl Iterator<Item = (&Player, Whereabouts)> + '_ {
        self.subs.iter().enumerate().filter_map(move |(i, s)| {
            let g = s.guest.as_ref().filter(|g| !g.is_bot())?;
            let earlier = self.subs.iter().take(i);
            if earlier
                .filter_map(|o| o.guest.as_ref())
                .any(|o| o.id == g.id)
            {
                return None;
            }
            let w = if self.plays_now(&g.id) {
                Whereabouts::Playing
            } else {
                Whereabouts::Table
            };
            Some((g, w))
        })
    }

    /// Ms until the connected player of the running game may claim against the
    /// disconnected one (0: now), or `None` (nobody gone, both gone, the first moves not
    /// made yet, a computer or one-screen table).
    pub(super) fn claim_at(&self, now: u64) -> Option<u64> {
        let g = self
            .game
            .as_ref()
            .filter(|g| g.playing() && g.both_moved())?;
        // Correspondence players are away most of the time: no claims, the clock decides.
        if self.options.local || self.options.days.is_some() || g.players.any(Player::is_bot) {
            return None;
        }
        let (_, since) = self.presence.one_away()?;
        let due = since + self.core.config.claim_delay_ms(self.options.minutes);
        Some(due.saturating_sub(now))
    }
}
