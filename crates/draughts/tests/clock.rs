//! Fischer clock with fake time: increments, whose time runs, flags, lag quota, restore;
//! and the correspondence clock (days per move): the period reset and the timeout.

use draughts::Color;
use draughts::clock::Clock;
use draughts::clock::{ClockState, LagQuota, PressError};

/// 1+0 control: lag gain 390 ms, starting quota 1170 ms, cap 2730 ms.
const GAIN: u64 = 390;

#[test]
fn increment_is_added_after_each_move() {
    let mut clock = Clock::new(60_000, 5_000);
    clock.start(Color::White, 1_000);
    let t = clock.press(4_000, 0).expect("no flag");
    assert_eq!(
        (t.elapsed_ms, t.used_ms, t.remaining_ms),
        (3_000, 3_000, 62_000)
    );
    let t = clock.press(14_000, 0).expect("no flag");
    assert_eq!((t.used_ms, t.remaining_ms), (10_000, 55_000));
    assert_eq!(clock.remaining(Color::White, 14_000), 62_000);
    assert_eq!(clock.remaining(Color::Black, 14_000), 55_000);
}

#[test]
fn time_runs_only_for_the_side_to_move() {
    let mut clock = Clock::new(10_000, 0);
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(Color::White, 99_999), 10_000, "not started");
    clock.start(Color::Black, 0);
    assert_eq!(clock.running(), Some(Color::Black));
    assert_eq!(clock.remaining(Color::White, 7_000), 10_000);
    assert_eq!(clock.remaining(Color::Black, 7_000), 3_000);
    clock.press(7_000, 0).expect("no flag");
    assert_eq!(clock.running(), Some(Color::White));
    assert_eq!(clock.remaining(Color::Black, 9_000), 3_000);
    assert_eq!(clock.remaining(Color::White, 9_000), 8_000);
}

#[test]
fn flag_exactly_at_zero_and_not_at_one_millisecond() {
    let mut clock = Clock::new(10_000, 0);
    clock.start(Color::White, 0);
    let t = clock.press(9_999, 0).expect("1 ms left is not a flag");
    assert_eq!(t.remaining_ms, 1);
    assert_eq!(clock.flagged(19_998), None);
    assert_eq!(clock.time_to_flag(19_998), Some(1));
    assert_eq!(clock.flagged(19_999), Some(Color::Black));
    assert_eq!(clock.time_to_flag(19_999), Some(0));

    let mut clock = Clock::new(10_000, 0);
    clock.start(Color::White, 0);
    assert_eq!(
        clock.press(10_000, 0),
        Err(PressError::Flagged(Color::White))
    );
    assert_eq!(clock.remaining(Color::White, 10_000), 0);
    assert_eq!(clock.flagged(10_000), Some(Color::White));
    assert_eq!(clock.running(), None);
    assert_eq!(clock.press(10_001, 0), Err(PressError::NotRunning));
}

#[test]
fn press_without_a_running_side_fails() {
    let mut clock = Clock::new(10_000, 0);
    assert_eq!(clock.press(5, 0), Err(PressError::NotRunning));
    assert_eq!(clock.time_to_flag(5), None);
}

#[test]
fn lag_compensation_is_bounded_by_the_quota() {
    let mut clock = Clock::new(60_000, 0);
    assert_eq!(clock.lag_quota(Color::White).quota_ms(), 3 * GAIN);
    clock.start(Color::White, 0);
    // Claims 5 s of lag on a 6 s move: only the quota (1170 ms) is forgiven.
    let t = clock.press(6_000, 5_000).expect("no flag");
    assert_eq!(t.compensation_ms, 3 * GAIN);
    assert_eq!(t.used_ms, 6_000 - 3 * GAIN);
    // Spent to 0, then refilled by one gain.
    assert_eq!(clock.lag_quota(Color::White).quota_ms(), GAIN);
    // Black's quota is untouched.
    assert_eq!(clock.lag_quota(Color::Black).quota_ms(), 3 * GAIN);
    // A small lag is forgiven in full.
    let t = clock.press(7_000, 100).expect("no flag");
    assert_eq!((t.compensation_ms, t.used_ms), (100, 900));
}

#[test]
fn compensation_never_exceeds_the_elapsed_time() {
    let mut clock = Clock::new(60_000, 0);
    clock.start(Color::White, 0);
    let t = clock.press(50, 1_000).expect("no flag");
    assert_eq!((t.compensation_ms, t.used_ms), (50, 0));
    assert_eq!(
        clock.lag_quota(Color::White).quota_ms(),
        3 * GAIN - 50 + GAIN
    );
}

#[test]
fn lag_compensation_can_save_a_flag() {
    let mut clock = Clock::new(1_000, 0);
    clock.start(Color::White, 0);
    let t = clock.press(1_100, 200).expect("lag forgiven");
    assert_eq!((t.used_ms, t.remaining_ms), (900, 100));
}

#[test]
fn quota_refills_up_to_the_cap() {
    let mut clock = Clock::new(60_000, 0);
    clock.start(Color::White, 0);
    let mut now = 0;
    let mut expected = 3 * GAIN;
    for _ in 0..10 {
        now += 1_000;
        clock.press(now, 0).expect("white moves");
        expected = (expected + GAIN).min(7 * GAIN);
        assert_eq!(clock.lag_quota(Color::White).quota_ms(), expected);
        now += 1_000;
        clock.press(now, 0).expect("black moves");
    }
    assert_eq!(expected, 7 * GAIN, "the loop reaches the cap");
    assert_eq!(LagQuota::new(60_000, 0).cap_ms(), 7 * GAIN);
}

#[test]
fn pause_and_resume_charge_the_downtime_to_nobody() {
    let mut clock = Clock::new(60_000, 1_000);
    clock.start(Color::White, 0);
    clock.press(2_000, 0).expect("no flag");
    clock.pause(5_000);
    assert_eq!(clock.running(), None);
    assert_eq!(clock.paused(), Some(Color::Black));
    assert_eq!(clock.remaining(Color::Black, 900_000), 57_000);
    clock.resume(1_000_000);
    assert_eq!(clock.running(), Some(Color::Black));
    assert_eq!(clock.remaining(Color::Black, 1_001_000), 56_000);
}

#[test]
fn restore_from_stored_state_after_a_restart() {
    let mut clock = Clock::new(60_000, 2_000);
    clock.start(Color::White, 10);
    clock.press(3_010, 500).expect("no flag");
    let state = clock.state(4_010);
    assert_eq!(
        state,
        ClockState {
            initial_ms: 60_000,
            increment_ms: 2_000,
            white_ms: 59_500,
            black_ms: 59_000,
            // 60+2: gain 4 × (60 + 80) + 150 = 710, starting quota 2130.
            white_quota_ms: 2_130 - 500 + 710,
            black_quota_ms: 2_130,
            running: Some(Color::Black),
            flagged: None,
            per_move: false,
        }
    );
    // The server restarts: new monotonic scale, clock rebuilt from storage.
    let mut restored = Clock::from_state(&state);
    assert_eq!(restored.paused(), Some(Color::Black));
    assert_eq!(restored.remaining(Color::Black, 77), 59_000);
    restored.resume(100);
    assert_eq!(restored.remaining(Color::Black, 1_100), 58_000);
    let t = restored.press(1_100, 0).expect("no flag");
    assert_eq!(t.remaining_ms, 60_000);
    assert_eq!(restored.lag_quota(Color::Black).quota_ms(), 2_130 + 710);
    assert_eq!(restored.lag_quota(Color::White).quota_ms(), 2_340);
}

#[test]
fn with_remaining_restores_plain_times() {
    let mut clock = Clock::with_remaining(300_000, 0, 1_234, 5_678);
    clock.start(Color::White, 0);
    assert_eq!(clock.time_to_flag(234), Some(1_000));
    assert_eq!(clock.remaining(Color::Black, 234), 5_678);
}

#[test]
fn stop_ends_the_game_and_can_flag() {
    let mut clock = Clock::new(10_000, 0);
    clock.start(Color::White, 0);
    clock.stop(4_000);
    assert_eq!(clock.running(), None);
    assert_eq!(clock.remaining(Color::White, 50_000), 6_000);
    assert_eq!(clock.flagged(50_000), None);
    clock.resume(60_000);
    assert_eq!(clock.running(), None, "a stopped clock does not resume");

    let mut clock = Clock::new(10_000, 0);
    clock.start(Color::Black, 0);
    clock.stop(12_000);
    assert_eq!(clock.flagged(12_000), Some(Color::Black));
    assert_eq!(clock.remaining(Color::Black, 12_000), 0);
}

#[test]
fn start_switches_sides_without_increment() {
    let mut clock = Clock::new(10_000, 3_000);
    clock.start(Color::White, 0);
    clock.start(Color::Black, 1_000);
    assert_eq!(clock.remaining(Color::White, 5_000), 9_000);
    assert_eq!(clock.remaining(Color::Black, 5_000), 6_000);
}

/// A day in milliseconds.
const DAY: u64 = 86_400_000;

#[test]
fn a_move_resets_the_movers_time_to_the_period() {
    let mut clock = Clock::per_move(3 * DAY);
    assert!(clock.is_per_move());
    assert_eq!(clock.remaining(Color::White, 0), 3 * DAY);
    clock.start(Color::White, 0);
    // White thinks two and a half days: 12 hours left, then the move gives 3 days again.
    assert_eq!(
        clock.remaining(Color::White, 60 * 3_600_000),
        12 * 3_600_000
    );
    let t = clock.press(60 * 3_600_000, 0).expect("within the period");
    assert_eq!(t.used_ms, 60 * 3_600_000);
    assert_eq!(t.remaining_ms, 3 * DAY, "reset, not 12 h + an increment");
    assert_eq!(
        clock.remaining(Color::White, 4 * DAY),
        3 * DAY,
        "not running"
    );
    assert_eq!(clock.running(), Some(Color::Black));
    // Black's time ran from White's move only, and its quick move resets it too.
    let black_from = 60 * 3_600_000;
    assert_eq!(clock.remaining(Color::Black, black_from + DAY), 2 * DAY);
    let t = clock.press(black_from + 1_000, 0).expect("in a second");
    assert_eq!(t.remaining_ms, 3 * DAY);
    assert_eq!(clock.time_to_flag(black_from + 1_000), Some(3 * DAY));
}

#[test]
fn the_period_runs_out_and_flags_exactly_at_zero() {
    let mut clock = Clock::per_move(DAY);
    clock.start(Color::White, 5);
    assert_eq!(clock.flagged(5 + DAY - 1), None);
    assert_eq!(clock.time_to_flag(5 + DAY - 1), Some(1));
    assert_eq!(clock.flagged(5 + DAY), Some(Color::White));
    // A move a millisecond late is a loss on time, whatever lag it claims: a
    // correspondence clock compensates none.
    assert_eq!(
        clock.press(5 + DAY + 1, 60_000),
        Err(PressError::Flagged(Color::White))
    );
    assert_eq!(clock.remaining(Color::White, 5 + DAY + 1), 0);
    assert_eq!(clock.running(), None);
}

#[test]
fn a_correspondence_clock_compensates_no_lag() {
    let mut clock = Clock::per_move(DAY);
    clock.start(Color::White, 0);
    let t = clock.press(10_000, 5_000).expect("no flag");
    assert_eq!((t.compensation_ms, t.used_ms), (0, 10_000));
    assert_eq!(clock.lag_quota(Color::White).quota_ms(), 0);
    assert_eq!(clock.lag_quota(Color::White).cap_ms(), 0);
}

#[test]
fn a_correspondence_clock_pauses_and_is_restored_as_one() {
    let mut clock = Clock::per_move(7 * DAY);
    clock.start(Color::White, 0);
    clock.press(DAY, 0).expect("a day of seven");
    // Black thinks three days, then the server shuts down: paused, then stored.
    clock.pause(4 * DAY);
    let state = clock.state(4 * DAY);
    assert!(state.per_move);
    assert_eq!((state.white_ms, state.black_ms), (7 * DAY, 4 * DAY));
    // The restart comes a day later on a new monotonic scale: the downtime is charged
    // to nobody.
    let mut restored = Clock::from_state(&state);
    assert!(restored.is_per_move());
    restored.resume(10);
    assert_eq!(restored.remaining(Color::Black, 10 + DAY), 3 * DAY);
    let t = restored.press(10 + DAY, 0).expect("in time");
    assert_eq!(t.remaining_ms, 7 * DAY, "the reset survives the restore");
    // A takeback's clock keeps the control.
    let back = restored.with_times(7 * DAY, 2 * DAY);
    assert!(back.is_per_move());
    assert_eq!(back.remaining(Color::Black, 0), 2 * DAY);
    let fischer = Clock::new(60_000, 2_000).with_times(1_000, 2_000);
    assert!(!fischer.is_per_move());
    assert_eq!(fischer.increment_ms(), 2_000);
}
