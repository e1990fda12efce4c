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

use super::game::{LiveGame, to_i64};
use crate::error::AppError;

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

/// The running correspondence game of a table with `days` per move, unless its clock is
/// held.
pub(super) fn running(days: Option<u32>, game: Option<&LiveGame>) -> Option<&LiveGame> {
    days?;
    game.filter(|g| g.playing() && g.held().is_none())
}

impl Timers {
    /// When the time-low notice of the move being thought in `game` (a period of
    /// `period_ms`) is due (server ms), if not sent yet.
    pub(super) fn time_low_at(&self, game: &LiveGame, period_ms: u64, now: u64) -> Option<u64> {
        if self.time_low_told == Some(game.ply()) {
            return None;
        }
        let low = period_ms * (100 - TIME_LOW_PERCENT) / 100;
        Some(now + left_to_move(game, now)?.saturating_sub(low))
    }

    /// When a timer of `game` is due (server ms), if any.
    pub(super) fn due(&self, game: &LiveGame, period_ms: u64, now: u64) -> Option<u64> {
        match (self.save_due, self.time_low_at(game, period_ms, now)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The clock changed (a move, a start, a takeback, a hold's end): save it at `now`.
    pub(super) fn moved(&mut self, now: u64) {
        self.save_due = Some(now);
    }

    /// The side to move at `ply` was told that its time runs low.
    pub(super) fn told_time_low(&mut self, ply: u32) {
        self.time_low_told = Some(ply);
    }

    /// Whether the clock is due to be saved at `now`.
    pub(super) fn save_due(&self, now: u64) -> bool {
        self.save_due.is_some_and(|at| at <= now)
    }

    /// The clock is being saved at `now`: the next save is due in [`SAVE_EVERY_MS`]
    /// (sooner after a failure is not needed: a move saves again).
    pub(super) fn saving(&mut self, now: u64) {
        self.save_due = Some(now + SAVE_EVERY_MS);
    }
}

/// What a correspondence clock save stores for `game` at `now` (`unix_ms` the wall
/// clock): the clock, the first-move window left, and the side to move's deadline (Unix
/// ms, for "my games").
pub(super) fn clock_save(
    game: &LiveGame,
    now: u64,
    unix_ms: i64,
) -> (damka_store::ClockRow, Option<i64>, Option<i64>) {
    let first_move = game.first_move_left(now).map(to_i64);
    let deadline = left_to_move(game, now).map(|left| unix_ms.saturating_add(to_i64(left)));
    (game.clock_snapshot(now), first_move, deadline)
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
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

    /// A new Russian correspondence game of one day a move, started at 0.
    fn one_day_game() -> LiveGame {
        use damka_protocol::Player;
        let options = days(1);
        let period = options.period_ms().unwrap();
        let (white, black) = (Player::guest("w", "W"), Player::guest("b", "B"));
        crate::table::game::test_game(options, white, black, period)
    }

    #[test]
    fn time_runs_low_once_a_move_and_the_clock_is_saved_after_a_move_and_hourly() {
        const DAY: u64 = 86_400_000;
        let g = one_day_game();
        assert!(running(Some(1), Some(&g)).is_some());
        assert!(
            running(None, Some(&g)).is_none(),
            "a live table has no timers"
        );
        let mut t = Timers::default();
        // 80 % of the period gone: the side to move is told, once for this move.
        let low = DAY * TIME_LOW_PERCENT / 100;
        assert_eq!(t.time_low_at(&g, DAY, 0), Some(low));
        assert_eq!(
            t.time_low_at(&g, DAY, 1_000),
            Some(low),
            "the same moment later"
        );
        assert_eq!(t.due(&g, DAY, 0), Some(low));
        t.told_time_low(g.ply());
        assert_eq!(t.time_low_at(&g, DAY, 0), None);
        assert_eq!(t.due(&g, DAY, 0), None);
        // A move (or a start, a takeback) saves at once, then every hour.
        t.moved(5);
        assert!(t.save_due(5) && !t.save_due(4));
        assert_eq!(t.due(&g, DAY, 5), Some(5));
        t.saving(5);
        assert!(!t.save_due(5));
        assert_eq!(t.due(&g, DAY, 5), Some(5 + SAVE_EVERY_MS));
        // What is saved: the clock, the first-move window's rest, the deadline.
        let (_, first_move, deadline) = clock_save(&g, 1_000, 1_000_000);
        assert_eq!(first_move, Some(to_i64(DAY - 1_000)));
        assert_eq!(deadline, Some(1_000_000 + to_i64(DAY - 1_000)));
    }
}
