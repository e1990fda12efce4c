//! A per-connection token bucket: bursts are fine, a flood is answered with
//! `rate_limited` and, if it goes on, the socket is closed with 1008.
//! Rejections count as strikes that fade by one per second.

use std::time::Instant;

/// Messages a connection may send in a burst.
const BURST: f64 = 20.0;
/// Messages per second refilled.
const PER_SECOND: f64 = 10.0;
/// Rejected messages (decaying by one per second) at which the connection is closed.
const MAX_STRIKES: f64 = 20.0;
/// Strikes forgiven per second: a client slightly over the limit now and then is only
/// answered `rate_limited`; a flood is closed within a fraction of a second.
const STRIKE_DECAY_PER_SECOND: f64 = 1.0;

/// What to do with a message.
#[derive(Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Handle it.
    Allow,
    /// Reject it with `rate_limited`.
    Reject,
    /// Close the connection (1008).
    Close,
}

/// A token bucket.
pub struct RateLimiter {
    /// Tokens left.
    tokens: f64,
    /// Last refill.
    at: Instant,
    /// Recent rejections, decaying over time.
    strikes: f64,
}

impl Default for RateLimiter {
    fn default() -> Self {
        RateLimiter {
            tokens: BURST,
            at: Instant::now(),
            strikes: 0.0,
        }
    }
}

impl RateLimiter {
    /// Takes a token for one message.
    pub fn check(&mut self) -> Verdict {
        self.check_at(Instant::now())
    }

    fn check_at(&mut self, now: Instant) -> Verdict {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + elapsed * PER_SECOND).min(BURST);
        self.strikes = (self.strikes - elapsed * STRIKE_DECAY_PER_SECOND).max(0.0);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Verdict::Allow
        } else {
            self.strikes += 1.0;
            if self.strikes >= MAX_STRIKES {
                Verdict::Close
            } else {
                Verdict::Reject
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn burst_then_reject_then_close_and_refill() {
        let mut rl = RateLimiter::default();
        let t0 = rl.at;
        for _ in 0..20 {
            assert_eq!(rl.check_at(t0), Verdict::Allow);
        }
        for _ in 0..19 {
            assert_eq!(rl.check_at(t0), Verdict::Reject);
        }
        assert_eq!(rl.check_at(t0), Verdict::Close);
        let mut rl = RateLimiter::default();
        for _ in 0..25 {
            rl.check_at(t0);
        }
        assert_eq!(rl.check_at(t0 + Duration::from_millis(200)), Verdict::Allow);
        // A steady flood is closed even though a token trickles in now and then.
        let mut rl = RateLimiter::default();
        let mut t = t0;
        let mut verdict = Verdict::Allow;
        for _ in 0..200 {
            t += Duration::from_millis(10);
            verdict = rl.check_at(t);
            if verdict == Verdict::Close {
                break;
            }
        }
        assert_eq!(verdict, Verdict::Close);
        // Slightly over the limit, for a long time: rejected now and then, never closed.
        let mut rl = RateLimiter::default();
        let mut t = t0;
        for _ in 0..2_000 {
            t += Duration::from_millis(95);
            assert_ne!(rl.check_at(t), Verdict::Close);
        }
    }
}
