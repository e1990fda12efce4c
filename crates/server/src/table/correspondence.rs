//! Correspondence tables: a period of days per move instead of minutes and increment
//! (docs/protocol.md, "Correspondence"). Each move resets the mover's time to the period
//! ([`draughts::clock::Clock::per_move`]); running out loses on time, as in live play, and
//! so do the draw rules, draw offers, takebacks and resignation.
//!
//! What makes no sense for a game of days does not apply: the first-move window is the
//! period (not 30 s), nobody claims against an absent opponent (correspondence players
//! are away most of the time), and no lag is compensated (the clock has no quota).
//!
//! Two timers of the table's own: the clock is saved after each move (and every hour
//! while a side thinks), so a restart resumes from there even after a crash and "my
//! games" shows when the side to move runs out; and the side to move is told once per
//! move by Web Push when [`TIME_LOW_PERCENT`] of its period is gone.

use damka_protocol::{CORRESPONDENCE_DAYS, Options};

use damka_protocol::table::ServerMessage;

use super::actor::TableActor;
use super::conditional::Conditional;
use super::game::{LiveGame, to_i64};
use crate::error::AppError;
use crate::push::Kind;

/// How often a correspondence game's running clock is saved besides after each move, ms:
/// what a crash (no graceful shutdown) can give back to the side to move at most.
pub const SAVE_EVERY_MS: u64 = 3_600_000;

/// The share of the period gone when the side to move is told that time runs low.
pub const TIME_LOW_PERCENT: u64 = 80;

/// Checks the options of a correspondence table (`days` set): one of the allowed periods,
/// neither minutes nor increment, between two people at two screens, one game at a time
/// (no micro-match). Rated or casual: a rated one counts in the variant's correspondence
/// rating ([`crate::ratings::pool`]), apart from its live one.
///
/// Fails with `invalid_options`.
pub fn check_options(options: &Options) -> Result<(), AppError> {
    let bad = |m: &str| Err(AppError::InvalidOptions(m.into()));
    match options.days {
        Some(d) if CORRESPONDENCE_DAYS.contains(&d) => {}
        Some(_) => return bad("days must be 1, 2, 3, 5, 7, 10 or 14"),
        None => return Ok(()),
    }
    if options.minutes != 0 || options.increment != 0 {
        return bad("days per move replace minutes and increment: send one or the other");
    }
    if options.bot.is_some() || options.local {
        return bad("a correspondence game is between two people at two screens");
    }
    if options.micro_match {
        // A break of seconds between two games of days: not yet.
        return bad("micro-matches are played live, not by correspondence");
    }
    Ok(())
}

/// A correspondence game's timers at its table.
#[derive(Debug, Default)]
pub struct Timers {
    /// When to save the clock next (server ms): now after a move, a start or a hold's
    /// end, then every [`SAVE_EVERY_MS`].
    save_due: Option<u64>,
    /// The ply count at which the side to move was told its time runs low (once per move).
    time_low_told: Option<u32>,
}

/// What is left to the side to move of `game` at `now`: its clock, or its first-move
/// window before the clock runs.
fn left_to_move(game: &LiveGame, now: u64) -> Option<u64> {
    match game.clock.running() {
        Some(c) => Some(game.clock.remaining(c, now)),
        None => game.first_move_left(now),
    }
}

impl TableActor {
    /// The running correspondence game, unless its clock is held.
    pub(super) fn correspondence_game(&self) -> Option<&LiveGame> {
        self.options.days?;
        self.game
            .as_ref()
            .filter(|g| g.playing() && g.held().is_none())
    }

    /// When the time-low notice of the move being thought is due (server ms), if not
    /// sent yet.
    pub(super) fn time_low_at(&self, now: u64) -> Option<u64> {
        let g = self.correspondence_game()?;
        if self.correspondence.time_low_told == Some(g.ply()) {
            return None;
        }
        let period = self.options.period_ms()?;
        let low = period * (100 - TIME_LOW_PERCENT) / 100;
        Some(now + left_to_move(g, now)?.saturating_sub(low))
    }

    /// When a correspondence timer is due (server ms), if any.
    pub(super) fn correspondence_due(&self, now: u64) -> Option<u64> {
        self.correspondence_game()?;
        let save = self.correspondence.save_due;
        match (save, self.time_low_at(now)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// A correspondence table's clock changed (a move, a start, a takeback, a hold's
    /// end): save it at once.
    pub(super) fn correspondence_moved(&mut self) {
        if self.options.days.is_some() {
            self.correspondence.save_due = Some(self.core.time.now_ms());
        }
    }

    /// A correspondence timer fired: tell the side to move its time runs low, save the
    /// clock, or both.
    pub(super) async fn on_correspondence_timer(&mut self) {
        let now = self.core.time.now_ms();
        if self.time_low_at(now).is_some_and(|at| at <= now)
            && let Some(g) = self.correspondence_game()
        {
            let (turn, ply) = (g.position().turn(), g.ply());
            tracing::info!(game = %g.id, ply, "correspondence: time runs low");
            self.notify_away(turn, Kind::TimeLow);
            self.correspondence.time_low_told = Some(ply);
        }
        if self.correspondence.save_due.is_some_and(|at| at <= now) {
            self.save_correspondence_clock(now).await;
        }
    }

    /// Saves the running clock with the side to move's deadline (Unix ms); the next save
    /// is due in [`SAVE_EVERY_MS`] (sooner after a failure is not needed: a move saves
    /// again). Returns whether it is saved.
    pub(super) async fn save_correspondence_clock(&mut self, now: u64) -> bool {
        self.correspondence.save_due = Some(now + SAVE_EVERY_MS);
        let Some(g) = self.correspondence_game() else {
            return false;
        };
        let first_move = g.first_move_left(now).map(to_i64);
        let deadline =
            left_to_move(g, now).map(|left| crate::time::unix_ms().saturating_add(to_i64(left)));
        let (id, snapshot) = (g.id.clone(), g.clock_snapshot(now));
        if let Err(e) = self
            .core
            .store
            .save_clock(&id, snapshot, first_move, deadline)
            .await
        {
            tracing::warn!(error = %e, game = %id, "cannot save a correspondence clock");
            return false;
        }
        true
    }
}

/// A reply due from prepared lines: who plays it, what, for which ply.
pub(super) struct DueReply {
    /// The side that prepared it.
    pub by: draughts::Color,
    /// The move.
    pub text: String,
    /// Its ply.
    pub ply: u32,
}

impl TableActor {
    /// Tells a player's own sockets their prepared replies (nobody else sees them).
    fn tell_conditional(&mut self, player_id: &str, lines: &[Vec<String>]) {
        let msg = ServerMessage::Conditional {
            lines: lines.to_vec(),
        };
        self.send_to_player(player_id, &msg);
    }

    /// After `by` played `played` (stored and applied): the opponent's prepared reply, if
    /// a line expected the move. The lines go on (two moves shorter) or go, stored
    /// before the reply is played; the opponent is told what is left.
    pub(super) async fn conditional_after(
        &mut self,
        by: draughts::Color,
        played: &str,
    ) -> Option<DueReply> {
        let game = self.game.as_ref()?;
        let prepared = game.conditional.as_ref().filter(|c| c.by == by.other())?;
        // Lines set for the position before this move (not one a takeback undid).
        let (reply, left) = if game.playing() && prepared.ply + 1 == game.ply() {
            prepared.after(played)
        } else {
            (None, None)
        };
        let (game_id, ply, owner) = (
            game.id.clone(),
            game.ply() + 1,
            game.player(by.other()).id.clone(),
        );
        let now = self.core.time.now_ms();
        let stored = self
            .core
            .store
            .save_conditional(&game_id, left.as_ref().map(Conditional::to_json))
            .await;
        let shown = left.as_ref().map(|c| c.lines.clone()).unwrap_or_default();
        if let Some(game) = self.game.as_mut() {
            game.conditional = left;
        }
        if let Err(e) = self.stored(stored, now) {
            // Not stored: nothing is played for the player (a restart would not know).
            tracing::warn!(error = %e, "conditional moves not stored; none played");
            if let Some(game) = self.game.as_mut() {
                game.conditional = None;
            }
            self.tell_conditional(&owner, &[]);
            return None;
        }
        self.tell_conditional(&owner, &shown);
        reply.map(|text| DueReply {
            by: by.other(),
            text,
            ply,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn days(d: u32) -> Options {
        Options {
            minutes: 0,
            increment: 0,
            days: Some(d),
            ..Options::default()
        }
    }

    #[test]
    fn correspondence_options_are_checked() {
        for d in CORRESPONDENCE_DAYS {
            assert!(check_options(&days(d)).is_ok(), "{d} days");
        }
        for d in [0, 4, 6, 15, 30] {
            assert!(check_options(&days(d)).is_err(), "{d} days");
        }
        let with_minutes = Options {
            minutes: 5,
            ..days(3)
        };
        assert!(check_options(&with_minutes).is_err());
        let rated = Options {
            rated: true,
            ..days(3)
        };
        assert!(check_options(&rated).is_ok(), "rated in its own rating");
        let bot = Options {
            bot: Some(1),
            ..days(3)
        };
        assert!(check_options(&bot).is_err());
        let opening = Options {
            random_opening: true,
            capture_optional: true,
            ..days(3)
        };
        assert!(check_options(&opening).is_ok());
    }
}
