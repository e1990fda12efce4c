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

/** An hour and a day in ms (correspondence clocks). */
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/**
 * Formats milliseconds for the clock face: days and hours from a day up (a
 * correspondence clock: "2 d 23 h", worded by `days`), `h:mm` from an hour up, `m:ss`
 * below, and `s.t` (tenths) under 10 s where every tenth matters. Rounds up below an
 * hour so a clock shows 0:00 only when it is really out; days and hours round down (a
 * day and a half shows "1 d 12 h" until it is less).
 * @param {number} ms
 * @param {(d: number, h: number) => string} [days] words a count of days and hours
 */
export function formatClock(ms, days = (d, h) => `${d} d ${h} h`) {
  const t = Math.max(0, Math.floor(ms));
  if (t >= DAY) return days(Math.floor(t / DAY), Math.floor((t % DAY) / HOUR));
  if (t > HOUR) {
    const mins = Math.ceil(t / 60_000);
    return `${Math.floor(mins / 60)}:${String(mins % 60).padStart(2, '0')}`;
  }
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

/**
 * True when `ms` left is low for a game of `minutes`, or of `days` per move (a fifth of
 * the period left, when the server's "time runs low" notice goes too).
 */
export function isLow(ms, minutes, days) {
  if (days) return ms < days * DAY * 0.2;
  return ms < lowThreshold(minutes);
}

/**
 * A table's time control as text: "3 days per move" or "5 min + 3 s".
 * @param {Function} t the translator
 * @param {{minutes?: number, increment?: number, days?: number}} o the table's options
 */
export function timeControl(t, o) {
  if (o?.days) return t('options.days', { n: o.days });
  return t('options.time', { minutes: o?.minutes, increment: o?.increment });
}

/** The days a correspondence table may have per move (the protocol's list). */
export const CORRESPONDENCE_DAYS = [1, 2, 3, 5, 7, 10, 14];
