//! WebSocket pings on both socket kinds: they measure the round trip (half of it is the
//! lag compensation of a move) and find dead peers. A peer that has not answered a ping
//! within two ping periods is gone (it vanished without closing, or stopped reading):
//! its session ends, so presence and seats notice within that bound instead of when TCP
//! gives up minutes later.

use std::time::{Duration, Instant};

use axum::extract::ws::Message;

/// Ping periods a pong may take before the peer counts as dead.
pub const MISSED_PERIODS: u32 = 2;

/// What the session does at a ping tick.
#[derive(Debug)]
pub enum Beat {
    /// Send this ping.
    Ping(Message),
    /// The last ping is still out, but not for long enough to give up.
    Wait,
    /// No pong for [`MISSED_PERIODS`] periods: close the socket.
    Dead,
}

/// Round trip and liveness from ping/pong frames.
pub struct Heartbeat {
    /// Time between pings.
    period: Duration,
    /// The pending ping's payload and send time.
    pending: Option<(u64, Instant)>,
    /// When the last ping went out.
    last_sent: Option<Instant>,
    /// Smoothed round trip, ms.
    rtt_ms: Option<u64>,
    /// Payload counter.
    seq: u64,
}

impl Heartbeat {
    /// A heartbeat pinging every `period`.
    pub fn new(period: Duration) -> Heartbeat {
        Heartbeat {
            period,
            pending: None,
            last_sent: None,
            rtt_ms: None,
            seq: 0,
        }
    }

    /// How long a ping may go unanswered.
    pub fn dead_after(&self) -> Duration {
        self.period * MISSED_PERIODS
    }

    /// A tick of the ping interval at `now`: a new ping, or nothing while one is out (a
    /// slow pong is exactly the delay to measure, so it is not replaced) or one went out
    /// with other frames less than a period ago, or `Dead`.
    pub fn tick(&mut self, now: Instant) -> Beat {
        if let Some((_, sent)) = self.pending {
            return if now.saturating_duration_since(sent) >= self.dead_after() {
                Beat::Dead
            } else {
                Beat::Wait
            };
        }
        // A tenth of a period of slack: the interval's ticks are not exact.
        if self
            .last_sent
            .is_some_and(|t| now.saturating_duration_since(t) < self.period * 9 / 10)
        {
            return Beat::Wait;
        }
        Beat::Ping(self.ping(now))
    }

    /// A ping to send along with frames going out now, if one is due within half a
    /// period: a socket that is sent events anyway gets its pings in the same writes
    /// (one system call instead of two), and the interval finds it pinged already.
    pub fn ride_along(&mut self, now: Instant) -> Option<Message> {
        let due = self.pending.is_none()
            && self
                .last_sent
                .is_none_or(|t| now.saturating_duration_since(t) >= self.period / 2);
        due.then(|| self.ping(now))
    }

    /// A new ping, now pending.
    fn ping(&mut self, now: Instant) -> Message {
        self.seq += 1;
        self.pending = Some((self.seq, now));
        self.last_sent = Some(now);
        Message::Ping(self.seq.to_be_bytes().to_vec().into())
    }

    /// A pong arrived.
    pub fn pong(&mut self, payload: &[u8]) {
        self.pong_at(payload, Instant::now());
    }

    fn pong_at(&mut self, payload: &[u8], now: Instant) {
        let Some((seq, sent)) = self.pending else {
            return;
        };
        if payload == seq.to_be_bytes() {
            let rtt = now.saturating_duration_since(sent);
            let sample = u64::try_from(rtt.as_millis()).unwrap_or(u64::MAX);
            // Smoothed like TCP's SRTT, so one slow sample does not swing the estimate.
            self.rtt_ms = Some(self.rtt_ms.map_or(sample, |r| (r * 3 + sample) / 4));
            self.pending = None;
        }
    }

    /// One-way delay estimate for lag compensation.
    pub fn lag_ms(&self) -> u64 {
        self.rtt_ms.unwrap_or(0) / 2
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_peer_that_never_answers_is_dead_after_two_periods() {
        let p = Duration::from_millis(100);
        let mut hb = Heartbeat::new(p);
        let t0 = Instant::now();
        assert!(matches!(hb.tick(t0), Beat::Ping(_)));
        assert!(matches!(hb.tick(t0 + p), Beat::Wait));
        assert!(matches!(hb.tick(t0 + p * 2), Beat::Dead));
    }

    #[test]
    fn a_ping_rides_along_half_a_period_after_the_last_and_the_tick_then_waits() {
        let p = Duration::from_millis(100);
        let mut hb = Heartbeat::new(p);
        let t0 = Instant::now();
        let Some(Message::Ping(first)) = hb.ride_along(t0) else {
            panic!("the first frames take a ping along");
        };
        assert!(hb.ride_along(t0).is_none(), "one ping out at a time");
        hb.pong_at(&first, t0 + Duration::from_millis(10));
        assert!(
            hb.ride_along(t0 + p / 4).is_none(),
            "not again within half a period"
        );
        assert!(matches!(hb.tick(t0 + p / 2), Beat::Wait), "pinged lately");
        assert!(hb.ride_along(t0 + p / 2).is_some());
        // Unanswered, it still counts towards a dead peer like any ping.
        assert!(matches!(hb.tick(t0 + p * 2), Beat::Wait));
        assert!(matches!(hb.tick(t0 + p * 5 / 2), Beat::Dead));
        // A quiet socket is pinged by the interval as before.
        let mut quiet = Heartbeat::new(p);
        assert!(matches!(quiet.tick(t0), Beat::Ping(_)));
    }

    #[test]
    fn pongs_keep_it_alive_and_measure_the_round_trip() {
        let p = Duration::from_millis(100);
        let mut hb = Heartbeat::new(p);
        let t0 = Instant::now();
        for i in 0..10u32 {
            let at = t0 + p * i;
            let Beat::Ping(Message::Ping(payload)) = hb.tick(at) else {
                panic!("expected a ping at tick {i}");
            };
            hb.pong_at(&payload, at + Duration::from_millis(40));
        }
        assert_eq!(hb.lag_ms(), 20);
        // A pong with another payload does not count.
        assert!(matches!(hb.tick(t0 + p * 10), Beat::Ping(_)));
        hb.pong_at(b"nonsense", t0 + p * 10);
        assert!(matches!(hb.tick(t0 + p * 12), Beat::Dead));
    }
}
