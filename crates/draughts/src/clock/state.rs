//! Plain clock state for storage, and restoring a clock from it.
//!
//! The engine has no serde: the server copies these fields into its own records.

use super::{Clock, LagQuota, idx};
use crate::Color;

/// Everything needed to rebuild a [`Clock`] later, e.g. after a server restart.
///
/// Times are as of the moment the state was taken; a restored clock is paused, so the time
/// between taking the state and [`Clock::resume`] is charged to nobody.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClockState {
    /// Starting time of each side.
    pub initial_ms: u64,
    /// Increment per completed move.
    pub increment_ms: u64,
    /// White's remaining time.
    pub white_ms: u64,
    /// Black's remaining time.
    pub black_ms: u64,
    /// White's lag compensation quota.
    pub white_quota_ms: u64,
    /// Black's lag compensation quota.
    pub black_quota_ms: u64,
    /// The side whose time was running (or paused), to run again on resume.
    pub running: Option<Color>,
    /// The side that had run out of time, if any.
    pub flagged: Option<Color>,
    /// A correspondence clock ([`Clock::per_move`]): `initial_ms` is the period per move.
    pub per_move: bool,
}

impl Clock {
    /// A snapshot of the clock at `now`, for storage.
    pub fn state(&self, now: u64) -> ClockState {
        ClockState {
            initial_ms: self.initial_ms,
            increment_ms: self.increment_ms,
            white_ms: self.remaining(Color::White, now),
            black_ms: self.remaining(Color::Black, now),
            white_quota_ms: self.quota[idx(Color::White)].quota_ms(),
            black_quota_ms: self.quota[idx(Color::Black)].quota_ms(),
            running: self.running().or(self.paused),
            flagged: self.flagged(now),
            per_move: self.per_move,
        }
    }

    /// Rebuilds a clock from a stored state. The clock is paused on the side that was
    /// running (call [`Clock::resume`] to restart it) with exactly the stored times; stored
    /// quotas above the cap are clamped to it.
    pub fn from_state(state: &ClockState) -> Clock {
        let (initial, increment) = (state.initial_ms, state.increment_ms);
        let mut clock = if state.per_move {
            Clock::per_move(initial)
        } else {
            let mut clock = Clock::new(initial, increment);
            clock.quota = [
                LagQuota::restored(initial, increment, state.white_quota_ms),
                LagQuota::restored(initial, increment, state.black_quota_ms),
            ];
            clock
        };
        clock.remaining_ms = [state.white_ms, state.black_ms];
        clock.flagged = state.flagged;
        if state.flagged.is_none() {
            clock.paused = state.running;
        }
        clock
    }

    /// A stopped Fischer clock with the given remaining times and fresh lag quotas, for
    /// restoring a clock when only the times were stored. Start it with [`Clock::start`].
    /// (For any time control: [`Clock::with_times`].)
    pub fn with_remaining(
        initial_ms: u64,
        increment_ms: u64,
        white_ms: u64,
        black_ms: u64,
    ) -> Clock {
        let mut clock = Clock::new(initial_ms, increment_ms);
        clock.remaining_ms = [white_ms, black_ms];
        clock
    }

    /// `color`'s lag compensation quota.
    pub fn lag_quota(&self, color: Color) -> &LagQuota {
        &self.quota[idx(color)]
    }
}
