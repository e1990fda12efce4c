//! A Fischer clock in integer milliseconds, with lichess-style lag compensation; or a
//! correspondence clock of so many days per move ([`Clock::per_move`]).
//!
//! The clock is a pure value: it never reads the system time. Every method that depends on
//! time takes `now`, a reading in milliseconds on any monotonic scale chosen by the caller
//! (the server passes the milliseconds of a monotonic instant; tests pass plain numbers).
//! That keeps the clock deterministic and testable with fake time, as in lichess'
//! scalachess.
//!
//! ```
//! use draughts::Color;
//! use draughts::clock::Clock;
//!
//! // 1 minute + 2 seconds per move.
//! let mut clock = Clock::new(60_000, 2_000);
//! clock.start(Color::White, 0);
//! let used = clock.press(5_000, 0).expect("5 s of 60 s is not a flag");
//! assert_eq!(used.used_ms, 5_000);
//! assert_eq!(clock.remaining(Color::White, 5_000), 57_000); // 60 - 5 + 2
//! assert_eq!(clock.running(), Some(Color::Black));
//! assert_eq!(clock.remaining(Color::Black, 8_000), 57_000); // only Black's time runs
//!
//! // Correspondence, 3 days per move: each move gives the mover 3 days again.
//! const DAY: u64 = 86_400_000;
//! let mut clock = Clock::per_move(3 * DAY);
//! clock.start(Color::White, 0);
//! clock.press(2 * DAY, 0).expect("2 of 3 days");
//! assert_eq!(clock.remaining(Color::White, 2 * DAY), 3 * DAY);
//! ```

mod lag;
mod state;

use std::fmt;

pub use lag::LagQuota;
pub use state::ClockState;

use crate::Color;

/// A Fischer clock: each side has a time budget, the side to move spends it, and every
/// completed move adds a fixed increment.
///
/// Time runs for at most one side at a time. The clock does not know the rules of the game:
/// the server tells it when a side starts thinking ([`Clock::start`]), when a move is
/// completed ([`Clock::press`]), and when the game is over ([`Clock::stop`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    /// Starting time of each side, kept to report the time control and to size the quota.
    initial_ms: u64,
    /// Time added to a side after each of its completed moves.
    increment_ms: u64,
    /// Time left of White (index 0) and Black (index 1) as of the last charge; for the
    /// running side the time spent since `since` is not yet subtracted.
    remaining_ms: [u64; 2],
    /// Lag compensation quotas, per side.
    quota: [LagQuota; 2],
    /// The side whose time is running and the reading at which it started.
    running: Option<(Color, u64)>,
    /// The side that was running when the clock was paused, to resume it later.
    paused: Option<Color>,
    /// The side whose time ran out, once detected.
    flagged: Option<Color>,
    /// A correspondence clock: a completed move resets the mover's time to `initial_ms`
    /// (no increment, no lag compensation: a move of days is not judged to the second).
    per_move: bool,
}

/// What one completed move cost, as returned by [`Clock::press`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoveTime {
    /// Wall time between the start of the side's turn and the press.
    pub elapsed_ms: u64,
    /// Part of `elapsed_ms` forgiven as network lag (bounded by the side's quota).
    pub compensation_ms: u64,
    /// Time charged to the side: `elapsed_ms - compensation_ms`.
    pub used_ms: u64,
    /// The side's remaining time after the move, increment included (the whole period on
    /// a [`Clock::per_move`] clock).
    pub remaining_ms: u64,
}

/// Why [`Clock::press`] failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PressError {
    /// No side's time is running (not started, paused, stopped or already flagged).
    NotRunning,
    /// The moving side's time reached zero before the move was completed: it lost on time.
    Flagged(Color),
}

impl fmt::Display for PressError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PressError::NotRunning => f.write_str("the clock is not running"),
            PressError::Flagged(color) => write!(f, "{} ran out of time", color.name()),
        }
    }
}

impl std::error::Error for PressError {}

/// Index of a side in the per-side arrays.
fn idx(color: Color) -> usize {
    match color {
        Color::White => 0,
        Color::Black => 1,
    }
}

impl Clock {
    /// A clock with `initial_ms` for each side and `increment_ms` added after every
    /// completed move. No side is running until [`Clock::start`].
    pub fn new(initial_ms: u64, increment_ms: u64) -> Clock {
        let quota = LagQuota::new(initial_ms, increment_ms);
        Clock {
            initial_ms,
            increment_ms,
            remaining_ms: [initial_ms; 2],
            quota: [quota; 2],
            running: None,
            paused: None,
            flagged: None,
            per_move: false,
        }
    }

    /// A correspondence clock: each side has `period_ms` for each move, and a completed
    /// move resets the mover's time to `period_ms` (as lichess' days per move). Running
    /// out loses on time as on a Fischer clock. Lag is never compensated: the quotas are
    /// empty. No side is running until [`Clock::start`].
    pub fn per_move(period_ms: u64) -> Clock {
        Clock {
            quota: [LagQuota::none(); 2],
            per_move: true,
            ..Clock::new(period_ms, 0)
        }
    }

    /// Whether this is a correspondence clock ([`Clock::per_move`]).
    pub fn is_per_move(&self) -> bool {
        self.per_move
    }

    /// A stopped clock of the same time control with the given remaining times and fresh
    /// lag quotas (after a takeback, or restoring a clock when only the times were
    /// stored). Start it with [`Clock::start`].
    pub fn with_times(&self, white_ms: u64, black_ms: u64) -> Clock {
        let mut clock = if self.per_move {
            Clock::per_move(self.initial_ms)
        } else {
            Clock::new(self.initial_ms, self.increment_ms)
        };
        clock.remaining_ms = [white_ms, black_ms];
        clock
    }

    /// Starting time of each side, in milliseconds.
    pub fn initial_ms(&self) -> u64 {
        self.initial_ms
    }

    /// Increment added after each completed move, in milliseconds.
    pub fn increment_ms(&self) -> u64 {
        self.increment_ms
    }

    /// Starts `color`'s time at `now`. If the other side was running, the time it spent up
    /// to `now` is charged to it first, without an increment (use [`Clock::press`] for a
    /// completed move). Does nothing once a side has flagged.
    pub fn start(&mut self, color: Color, now: u64) {
        if self.flagged.is_some() {
            return;
        }
        self.charge_running(now);
        self.paused = None;
        if self.flagged.is_none() {
            self.running = Some((color, now));
        }
    }

    /// The running side completed a move at `now`; `lag_ms` is the network delay the server
    /// measured for it (0 if unknown).
    ///
    /// The time charged is the elapsed time minus the lag compensation, which is the
    /// smallest of `lag_ms`, the side's quota and the elapsed time. If the side's remaining
    /// time would be zero or less, the press fails with [`PressError::Flagged`], the side is
    /// flagged with 0 ms left and the clock stops. Otherwise the increment is added (on a
    /// [`Clock::per_move`] clock the side's time is reset to the period instead) and the
    /// other side's time starts at `now`.
    ///
    /// Fails with [`PressError::NotRunning`] if no side is running.
    pub fn press(&mut self, now: u64, lag_ms: u64) -> Result<MoveTime, PressError> {
        let Some((color, since)) = self.running else {
            return Err(PressError::NotRunning);
        };
        let i = idx(color);
        let elapsed_ms = now.saturating_sub(since);
        let compensation_ms = self.quota[i].compensate(lag_ms, elapsed_ms);
        let used_ms = elapsed_ms - compensation_ms;
        if used_ms >= self.remaining_ms[i] {
            self.remaining_ms[i] = 0;
            self.flagged = Some(color);
            self.running = None;
            return Err(PressError::Flagged(color));
        }
        self.quota[i].refill();
        self.remaining_ms[i] = if self.per_move {
            self.initial_ms
        } else {
            self.remaining_ms[i] - used_ms + self.increment_ms
        };
        self.running = Some((color.other(), now));
        Ok(MoveTime {
            elapsed_ms,
            compensation_ms,
            used_ms,
            remaining_ms: self.remaining_ms[i],
        })
    }

    /// Time left to `color` at `now` (0 once it has run out).
    pub fn remaining(&self, color: Color, now: u64) -> u64 {
        match self.running {
            Some((running, since)) if running == color => {
                self.remaining_ms[idx(color)].saturating_sub(now.saturating_sub(since))
            }
            _ => self.remaining_ms[idx(color)],
        }
    }

    /// The side whose time is running, if any.
    pub fn running(&self) -> Option<Color> {
        self.running.map(|(color, _)| color)
    }

    /// The side that has run out of time at `now`: one flagged by [`Clock::press`] or
    /// [`Clock::stop`], or the running side if its time has reached zero.
    pub fn flagged(&self, now: u64) -> Option<Color> {
        self.flagged.or_else(|| {
            self.running()
                .filter(|&color| self.remaining(color, now) == 0)
        })
    }

    /// Milliseconds from `now` until the running side's time reaches zero, for the server's
    /// flag timer; `None` if no side is running. `Some(0)` means the side has flagged.
    ///
    /// The server may give a short grace on top (its lag estimate): a press that arrives
    /// late is judged by [`Clock::press`] with the lag compensation.
    pub fn time_to_flag(&self, now: u64) -> Option<u64> {
        self.running().map(|color| self.remaining(color, now))
    }

    /// Stops the clock at `now` because the game is over: the running side is charged the
    /// time it spent (no increment). A side whose time reaches zero here is flagged.
    pub fn stop(&mut self, now: u64) {
        self.charge_running(now);
        self.running = None;
        self.paused = None;
    }

    /// Pauses the clock at `now` (e.g. for a server shutdown): the running side is charged
    /// up to `now` and remembered for [`Clock::resume`]. Time spent paused is charged to
    /// nobody. Does nothing if no side is running.
    pub fn pause(&mut self, now: u64) {
        if let Some(color) = self.running() {
            self.charge_running(now);
            self.running = None;
            if self.flagged.is_none() {
                self.paused = Some(color);
            }
        }
    }

    /// The side that will run again on [`Clock::resume`], if the clock is paused.
    pub fn paused(&self) -> Option<Color> {
        self.paused
    }

    /// Resumes a paused clock at `now`, with exactly the remaining times it had when
    /// paused. Does nothing if the clock is not paused.
    pub fn resume(&mut self, now: u64) {
        if let Some(color) = self.paused.take() {
            self.running = Some((color, now));
        }
    }

    /// Charges the running side the time since it started and restarts its count at `now`;
    /// flags it if its time is gone.
    fn charge_running(&mut self, now: u64) {
        if let Some((color, since)) = self.running {
            let i = idx(color);
            self.remaining_ms[i] = self.remaining_ms[i].saturating_sub(now.saturating_sub(since));
            self.running = Some((color, now.max(since)));
            if self.remaining_ms[i] == 0 {
                self.flagged = Some(color);
                self.running = None;
            }
        }
    }
}
