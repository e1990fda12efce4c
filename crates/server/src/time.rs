//! The server's monotonic time in milliseconds: real, or a manual clock for tests.
//!
//! Clocks, first-move windows and grace periods read time only through [`TimeSource`], so
//! tests can move time forward by exactly the amount they need. A manual clock is used
//! instead of tokio's paused time because SQLite work runs on a background thread: with
//! paused time, tokio jumps to the next timer whenever the runtime waits for that thread,
//! which would fire a 30-second first-move timer in the middle of a database write.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use tokio::sync::watch;
use tokio::time::Instant;

/// Monotonic milliseconds since the server started.
#[derive(Clone)]
pub enum TimeSource {
    /// Real time, from `tokio::time::Instant`.
    Real {
        /// When the server started.
        epoch: Instant,
    },
    /// Test time, moved by [`TimeSource::advance`].
    Manual(Arc<ManualClock>),
}

/// The state of a manual clock.
pub struct ManualClock {
    /// Current time in ms.
    now: AtomicU64,
    /// Wakes sleepers when the time moves.
    tick: watch::Sender<u64>,
}

impl TimeSource {
    /// A real-time source starting now.
    pub fn real() -> TimeSource {
        TimeSource::Real {
            epoch: Instant::now(),
        }
    }

    /// A manual source starting at 0.
    pub fn manual() -> TimeSource {
        let (tick, _) = watch::channel(0);
        TimeSource::Manual(Arc::new(ManualClock {
            now: AtomicU64::new(0),
            tick,
        }))
    }

    /// Milliseconds since the start.
    pub fn now_ms(&self) -> u64 {
        match self {
            TimeSource::Real { epoch } => {
                u64::try_from(epoch.elapsed().as_millis()).unwrap_or(u64::MAX)
            }
            TimeSource::Manual(clock) => clock.now.load(Ordering::SeqCst),
        }
    }

    /// Microseconds since the start (the manual clock moves in whole milliseconds): for
    /// measuring how late a timer fired.
    pub fn now_us(&self) -> u64 {
        match self {
            TimeSource::Real { epoch } => {
                u64::try_from(epoch.elapsed().as_micros()).unwrap_or(u64::MAX)
            }
            TimeSource::Manual(clock) => clock.now.load(Ordering::SeqCst).saturating_mul(1000),
        }
    }

    /// Moves a manual clock forward (no effect on real time).
    pub fn advance(&self, ms: u64) {
        if let TimeSource::Manual(clock) = self {
            let now = clock.now.fetch_add(ms, Ordering::SeqCst) + ms;
            clock.tick.send_replace(now);
        }
    }

    /// Completes once `now_ms() >= deadline_ms`.
    pub async fn sleep_until(&self, deadline_ms: u64) {
        match self {
            TimeSource::Real { epoch } => {
                match epoch.checked_add(std::time::Duration::from_millis(deadline_ms)) {
                    Some(at) => tokio::time::sleep_until(at).await,
                    // Beyond any representable instant: never.
                    None => std::future::pending().await,
                }
            }
            TimeSource::Manual(clock) => {
                let mut rx = clock.tick.subscribe();
                while clock.now.load(Ordering::SeqCst) < deadline_ms {
                    if rx.changed().await.is_err() {
                        // The clock can no longer move: never complete.
                        std::future::pending::<()>().await;
                    }
                }
            }
        }
    }
}

/// Wall-clock Unix time in milliseconds, for stored timestamps.
pub fn unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or(0)
}

/// Formats Unix milliseconds as an RFC 3339 UTC timestamp (`2026-11-29T17:15:19.123Z`).
pub fn rfc3339(unix_ms: i64) -> String {
    let secs = unix_ms.div_euclid(1000);
    let millis = unix_ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Days since 1970-01-01 → (year, month, day) in the proleptic Gregorian calendar
/// (Howard Hinnant's `civil_from_days`).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = u32::try_from(doy - (153 * mp + 2) / 5 + 1).unwrap_or(1);
    let m = u32::try_from(if mp < 10 { mp + 3 } else { mp - 9 }).unwrap_or(1);
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc3339_known_dates() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
        assert_eq!(rfc3339(1_795_972_519_123), "2026-11-29T17:15:19.123Z");
    }

    #[tokio::test]
    async fn manual_clock_wakes_sleepers() {
        let time = TimeSource::manual();
        let t = time.clone();
        let sleeper = tokio::spawn(async move { t.sleep_until(500).await });
        time.advance(499);
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished());
        time.advance(1);
        sleeper.await.expect("sleeper finishes");
        assert_eq!(time.now_ms(), 500);
    }
}
