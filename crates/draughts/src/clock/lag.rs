//! Lag compensation: lichess' quota model.
//!
//! A move's network delay is forgiven up to a per-player quota, so a player on a slow line
//! is not charged for the time their move spent in transit, while a player cannot claim
//! unbounded lag. The quota is spent by compensation and refilled a little after every
//! move.

/// One player's lag compensation budget.
///
/// - gain per move = min(1000 ms, 4 ms × (base seconds + 40 × increment seconds) + 150 ms);
/// - the quota starts at 3 × gain and never exceeds 7 × gain;
/// - a move's compensation is min(lag, quota, elapsed time) and is taken from the quota;
/// - after each completed move the quota grows by the gain, up to the cap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LagQuota {
    /// Refill after each completed move.
    gain_ms: u64,
    /// The most the quota can hold.
    cap_ms: u64,
    /// What is left to forgive.
    quota_ms: u64,
}

impl LagQuota {
    /// The starting quota for a time control of `initial_ms` + `increment_ms`.
    pub fn new(initial_ms: u64, increment_ms: u64) -> LagQuota {
        let gain_ms = Self::gain_for(initial_ms, increment_ms);
        LagQuota {
            gain_ms,
            cap_ms: 7 * gain_ms,
            quota_ms: 3 * gain_ms,
        }
    }

    /// No compensation at all (a correspondence clock's): gain, cap and quota are 0.
    pub fn none() -> LagQuota {
        LagQuota {
            gain_ms: 0,
            cap_ms: 0,
            quota_ms: 0,
        }
    }

    /// A quota restored from a stored amount, clamped to the cap.
    pub fn restored(initial_ms: u64, increment_ms: u64, quota_ms: u64) -> LagQuota {
        let mut quota = LagQuota::new(initial_ms, increment_ms);
        quota.quota_ms = quota_ms.min(quota.cap_ms);
        quota
    }

    /// Refill per move for a time control, in milliseconds.
    pub fn gain_for(initial_ms: u64, increment_ms: u64) -> u64 {
        // 4 ms per second of the estimated game length (base + 40 increments), computed on
        // milliseconds before dividing so sub-second controls are not truncated away.
        let estimate_ms = initial_ms.saturating_add(increment_ms.saturating_mul(40));
        (estimate_ms.saturating_mul(4) / 1000 + 150).min(1000)
    }

    /// Refill per move.
    pub fn gain_ms(&self) -> u64 {
        self.gain_ms
    }

    /// The most the quota can hold.
    pub fn cap_ms(&self) -> u64 {
        self.cap_ms
    }

    /// What is left to forgive.
    pub fn quota_ms(&self) -> u64 {
        self.quota_ms
    }

    /// Forgives up to `lag_ms` of a move that took `elapsed_ms`, spending the quota;
    /// returns the compensation. Never more than the elapsed time: lag cannot give time
    /// back that was not spent.
    pub fn compensate(&mut self, lag_ms: u64, elapsed_ms: u64) -> u64 {
        let compensation = lag_ms.min(self.quota_ms).min(elapsed_ms);
        self.quota_ms -= compensation;
        compensation
    }

    /// Grows the quota by one move's gain, up to the cap.
    pub fn refill(&mut self) {
        self.quota_ms = (self.quota_ms + self.gain_ms).min(self.cap_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::LagQuota;

    #[test]
    fn gain_follows_the_time_control() {
        // 3+2: 4 × (180 + 80) + 150 = 1190 → capped at 1000.
        assert_eq!(LagQuota::gain_for(180_000, 2_000), 1000);
        // 1+0: 4 × 60 + 150 = 390.
        assert_eq!(LagQuota::gain_for(60_000, 0), 390);
        // 0.5 s bullet: 4 × 0.5 + 150 = 152.
        assert_eq!(LagQuota::gain_for(500, 0), 152);
    }

    #[test]
    fn restored_quota_is_capped() {
        let quota = LagQuota::restored(60_000, 0, 1_000_000);
        assert_eq!(quota.quota_ms(), 7 * 390);
    }
}
