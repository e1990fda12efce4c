//! Web Push from a table: a player who is not watching the game is told that it is their
//! move, that the opponent offers something, or that the game ended
//! ([`crate::push::Push::deliver`] sends, on a task of its own; settings per kind apply
//! there).
//!
//! Only accounts have subscriptions (a guest's would be lost with the cookie), and the
//! computer gets none. "Not watching" means no socket of theirs is open at this table.

use draughts::Color;

use super::actor::TableActor;
use tracing::Instrument;

use crate::push::{Kind, Notification};

impl TableActor {
    /// Tells the player of `color` about `kind`, unless they are watching this table.
    pub(super) fn notify_away(&self, color: Color, kind: Kind) {
        let Some(game) = self.game.as_ref() else {
            return;
        };
        let player = game.player(color);
        if !player.account || player.is_bot() || self.subs.has_guest(&player.id) {
            return;
        }
        let opponent = game.player(color.other()).name.clone();
        let n = Notification {
            kind,
            game: game.id.clone(),
            url: format!("/#/table/{}", self.id),
            opponent,
            variant: self.variant.name().to_owned(),
        };
        let core = self.core.clone();
        let player = player.id.clone();
        self.core.tracker.spawn(
            async move {
                let sent = core
                    .push
                    .deliver(&core.store, &core.metrics, &player, &n)
                    .await;
                if let Err(e) = sent {
                    tracing::warn!(error = %e, "push notifications not sent");
                }
            }
            .instrument(tracing::debug_span!("push")),
        );
    }

    /// After a move: the player to move is told, or both once the game is over.
    pub(super) fn notify_moved(&self) {
        let Some(game) = self.game.as_ref() else {
            return;
        };
        if game.playing() {
            self.notify_away(game.position().turn(), Kind::YourTurn);
        } else {
            self.notify_ended();
        }
    }

    /// After the end: both players are told.
    pub(super) fn notify_ended(&self) {
        for color in [Color::White, Color::Black] {
            self.notify_away(color, Kind::GameEnd);
        }
    }
}
