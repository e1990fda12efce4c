// Clock display logic. Pure: the server owns the clock; the client counts down from the
// last `clock` it received (remaining times "as of sending") and snaps to every update.

/**
 * A snapshot of the server clock plus the local time it arrived.
 * @typedef {{white: number, black: number, running: 'white'|'black'|null, at: number}} ClockSnapshot
 */

/**
 * Builds a snapshot from a server `clock` object received at local time `now` (ms).
 * @param {{white: number, black: number, running?: string|null}} clock
 * @param {number} now
 * @returns {ClockSnapshot}
 */
export function snapshot(clock, now) {
  return {
    white: Math.max(0, Number(clock?.white) || 0),
    black: Math.max(0, Number(clock?.black) || 0),
    running: clock?.running === 'white' || clock?.running === 'black' ? clock.running : null,
    at: now,
  };
}

/**
 * Time left for `side` at local time `now`: only the running side counts down, and never
 * below zero (the server decides the flag, the display just stops at 0).
 * @param {ClockSnapshot} snap
 * @param {'white'|'black'} side
 * @param {number} now
 */
export function remaining(snap, side, now) {
  const base = snap[side];
  if (snap.running !== side) return base;
  return Math.max(0, base - Math.max(0, now - snap.at));
}

/**
 * Formats milliseconds for the clock face: `m:ss`, and `s.t` (tenths) under 10 s where
 * every tenth matters. Rounds up so a clock shows 0:00 only when it is really out.
 * @param {number} ms
 */
export function formatClock(ms) {
  const t = Math.max(0, Math.floor(ms));
  const tenths = Math.ceil(t / 100);
  if (tenths < 100) return `${Math.floor(tenths / 10)}.${tenths % 10}`;
  const secs = Math.ceil(t / 1000);
  const m = Math.floor(secs / 60);
  const s = secs % 60;
  return `${m}:${String(s).padStart(2, '0')}`;
}

/**
 * The time under which a clock is shown as low: a tenth of the starting time, but at
 * least 10 s and at most 30 s (a one-minute game warns at 10 s, a 15-minute one at 30 s).
 * @param {number} minutes the table's time per player
 */
export function lowThreshold(minutes) {
  const tenth = (Number(minutes) || 0) * 60_000 * 0.1;
  return Math.min(30_000, Math.max(10_000, tenth));
}

/** True when `ms` left is low for a game of `minutes`. */
export function isLow(ms, minutes) {
  return ms < lowThreshold(minutes);
}
