//! The computer at a table: when its side is to move, the actor asks [`crate::bots::Bots`]
//! for a move and plays the answer through the same checks, clock and store as a
//! person's move. Also what a one-screen (local) table changes: its one guest moves for
//! the side to move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use bot::ClockLimits;
use damka_protocol::Player;
use draughts::Color;

use super::Command;
use super::actor::TableActor;
use super::handlers::MoveRequest;
use crate::bots::{self, SearchRequest};
use crate::error::AppError;
use crate::random;

/// The search running for a table: which game and ply it answers, and its stop flag.
pub struct Thinking {
    /// The game searched.
    pub game_id: String,
    /// The ply the answer is for.
    pub ply: u32,
    /// Stops the search.
    pub stop: Arc<AtomicBool>,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        // A search nobody waits for any more stops at once.
        self.stop.store(true, Ordering::Relaxed);
    }
}

impl TableActor {
    /// Starts a search if the computer is to move and none runs for this ply.
    pub(super) fn maybe_think(&mut self) {
        let Some(game) = self.game.as_ref().filter(|g| g.playing()) else {
            self.thinking = None;
            return;
        };
        let turn = game.position().turn();
        let Some(level) = bots::level_of(game.player(turn)) else {
            self.thinking = None;
            return;
        };
        // The computer against itself (a tournament's computer entrants paired together)
        // plays nobody's game: cheaply (the beginner's shallow search) and after every
        // person's search. Otherwise the search serves the person at the table.
        let person = game.players.iter().map(|(_, p)| p).find(|p| !p.is_bot());
        let (class, level, owner) = match person {
            Some(p) => (bots::Class::Person, level, p.id.clone()),
            None => (
                bots::Class::FillIn,
                bot::Level::One,
                self.tournament
                    .as_ref()
                    .map_or_else(|| self.id.clone(), |t| t.id.clone()),
            ),
        };
        let ply = game.ply() + 1;
        if self
            .thinking
            .as_ref()
            .is_some_and(|t| t.game_id == game.id && t.ply == ply)
        {
            return;
        }
        // A held clock (a restart waiting for the guest, a database outage) waits: the
        // computer's move would start it.
        if game.held().is_some() {
            return;
        }
        let now = self.core.time.now_ms();
        // Before the clock runs, the first-move window is the limit (a quarter of what is
        // left of it, so the computer moves well inside it).
        let remaining_ms = match game.first_move_left(now) {
            Some(left) => (left / 4).min(game.clock.remaining(turn, now)),
            None => game.clock.remaining(turn, now),
        };
        let stop = Arc::new(AtomicBool::new(false));
        let req = SearchRequest {
            game: game.game.clone(),
            level,
            clock: ClockLimits {
                remaining_ms,
                increment_ms: u64::from(self.options.increment) * 1000,
            },
            seed: random::u64(),
            stop: stop.clone(),
            class,
            who: bots::Who {
                address: self.creator_ip,
                owner,
            },
        };
        self.thinking = Some(Thinking {
            game_id: game.id.clone(),
            ply,
            stop,
        });
        let (core, tx, game_id) = (self.core.clone(), self.tx.clone(), game.id.clone());
        let Some(tx) = tx.upgrade() else {
            return;
        };
        self.core.tracker.spawn(async move {
            let outcome = core.bots.search(req).await;
            tracing::debug!(
                ply,
                ms = outcome.elapsed_ms,
                waited_ms = outcome.waited_ms,
                depth = outcome.depth,
                nodes = outcome.nodes,
                "computer move"
            );
            if let Some(mv) = outcome.mv {
                // The table may be gone (closed, shut down): nothing to do then.
                if tx
                    .send(Command::BotMove { game_id, ply, mv })
                    .await
                    .is_err()
                {
                    tracing::debug!("the table closed before the computer's move");
                }
            }
        });
    }

    /// The computer's answer for `ply` of game `game_id`: played like a person's move,
    /// on its clock, stored before it is shown. A stale answer (the game ended or moved
    /// on) is dropped.
    pub(super) async fn on_bot_move(&mut self, game_id: &str, ply: u32, text: &str) {
        if !self
            .thinking
            .as_ref()
            .is_some_and(|t| t.game_id == game_id && t.ply == ply)
        {
            return;
        }
        self.thinking = None;
        let Some(game) = self
            .game
            .as_ref()
            .filter(|g| g.playing() && g.id == game_id)
        else {
            return;
        };
        let by = game.position().turn();
        if bots::level_of(game.player(by)).is_none() {
            return;
        }
        // The same path as a person's move: checks, clock, store, then announce. If it
        // fails (the database is down), the next wake-up asks the computer again.
        let req = MoveRequest {
            by,
            text,
            ply,
            sub: None,
            ack: None,
            lag_ms: 0,
            received: Instant::now(),
        };
        if let Err(e) = self.play(req).await {
            tracing::warn!(error = %e, "the computer's move was not played");
        }
    }

    /// The colour a guest moves for: at a one-screen table, the side to move.
    pub(super) fn local_color(&self, guest: &Player) -> Option<Color> {
        let game = self.game.as_ref().filter(|g| g.playing())?;
        (self.options.local && game.players.all(|p| p.id == guest.id))
            .then(|| game.position().turn())
    }

    /// A new table's second seat: the computer at the requested level, or the creator
    /// again at a one-screen table.
    ///
    /// Fails with `invalid_options` for an unknown level.
    pub fn second_seat(creator: &Player, bot_level: Option<u8>, local: bool) -> Option<Player> {
        if local {
            return Some(creator.clone());
        }
        bot_level
            .and_then(bot::Level::from_number)
            .map(bots::player)
    }
}

/// Refuses a table option combination the computer cannot serve.
///
/// Fails with `invalid_options`.
pub fn check_seat_options(bot_level: Option<u8>, local: bool) -> Result<(), AppError> {
    if let Some(n) = bot_level {
        if bot::Level::from_number(n).is_none() {
            return Err(AppError::InvalidOptions("bot must be 1, 2 or 3".into()));
        }
        if local {
            return Err(AppError::InvalidOptions(
                "a table is either against the computer or on one screen".into(),
            ));
        }
    }
    Ok(())
}
