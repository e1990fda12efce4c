import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DAY, HOUR, formatClock, isLow, lowThreshold, remaining, snapshot, timeControl } from '../../static/js/clock.js';

test('formatClock shows m:ss, rounding up to the second', () => {
  assert.equal(formatClock(300_000), '5:00');
  assert.equal(formatClock(298_500), '4:59');
  assert.equal(formatClock(60_000), '1:00');
  assert.equal(formatClock(59_001), '1:00');
  assert.equal(formatClock(10_000), '0:10');
  assert.equal(formatClock(900_000), '15:00');
});

test('formatClock shows tenths under ten seconds', () => {
  assert.equal(formatClock(9_950), '0:10', '9.95 s rounds up to 10 s, still m:ss');
  assert.equal(formatClock(9_900), '9.9');
  assert.equal(formatClock(1_234), '1.3');
  assert.equal(formatClock(50), '0.1');
  assert.equal(formatClock(0), '0.0');
  assert.equal(formatClock(-500), '0.0');
});

test('only the running side counts down from the snapshot', () => {
  const snap = snapshot({ white: 298_500, black: 300_000, running: 'black' }, 1_000);
  assert.equal(remaining(snap, 'white', 5_000), 298_500);
  assert.equal(remaining(snap, 'black', 1_000), 300_000);
  assert.equal(remaining(snap, 'black', 3_500), 297_500);
});

test('the countdown stops at zero and ignores a clock running backwards', () => {
  const snap = snapshot({ white: 1_000, black: 5_000, running: 'white' }, 10_000);
  assert.equal(remaining(snap, 'white', 12_000), 0);
  assert.equal(remaining(snap, 'white', 9_000), 1_000);
});

test('a new server clock replaces the local estimate', () => {
  const first = snapshot({ white: 60_000, black: 60_000, running: 'white' }, 0);
  assert.equal(remaining(first, 'white', 10_000), 50_000);
  // The server says white had 49 000 left when it sent the update (lag charged).
  const second = snapshot({ white: 49_000, black: 60_000, running: 'black' }, 10_000);
  assert.equal(remaining(second, 'white', 20_000), 49_000);
  assert.equal(remaining(second, 'black', 20_000), 50_000);
});

test('snapshot sanitises a stopped or malformed clock', () => {
  const snap = snapshot({ white: -5, black: '7000', running: 'nobody' }, 0);
  assert.deepEqual(snap, { white: 0, black: 7000, running: null, at: 0 });
  assert.equal(remaining(snap, 'black', 100_000), 7000);
});

test('low time is a tenth of the game, between 10 and 30 seconds', () => {
  assert.equal(lowThreshold(1), 10_000);
  assert.equal(lowThreshold(2), 12_000);
  assert.equal(lowThreshold(5), 30_000);
  assert.equal(lowThreshold(15), 30_000);
  assert.equal(isLow(9_999, 1), true);
  assert.equal(isLow(10_000, 1), false);
  assert.equal(isLow(29_000, 15), true);
});

test('a correspondence clock shows days and hours, then h:mm, then m:ss', () => {
  assert.equal(formatClock(7 * DAY), '7 d 0 h');
  assert.equal(formatClock(3 * DAY - 1), '2 d 23 h', 'days and hours round down');
  assert.equal(formatClock(DAY + 90 * 60_000), '1 d 1 h');
  assert.equal(formatClock(DAY - 1), '24:00', 'under a day: hours and minutes, rounded up');
  assert.equal(formatClock(5 * HOUR + 4 * 60_000 + 1), '5:05');
  assert.equal(formatClock(HOUR + 1), '1:01');
  assert.equal(formatClock(HOUR), '60:00', 'an hour and less: m:ss');
  assert.equal(formatClock(59 * 60_000 + 1), '59:01');
  assert.equal(formatClock(2 * DAY + 5 * HOUR, (d, h) => `${d} j ${h} h`), '2 j 5 h', 'worded by the language');
});

test('a correspondence clock is low with a fifth of its period left', () => {
  assert.equal(isLow(DAY * 0.2 + 1, 0, 1), false);
  assert.equal(isLow(DAY * 0.2 - 1, 0, 1), true);
  assert.equal(isLow(DAY, 0, 7), true, 'a day of seven');
  assert.equal(isLow(35_000, 5), false, 'live clocks as before');
  assert.equal(isLow(25_000, 5), true);
});

test('a time control reads as days per move or minutes and increment', () => {
  const t = (key, p) => `${key}:${JSON.stringify(p)}`;
  assert.equal(timeControl(t, { days: 3, minutes: 0, increment: 0 }), 'options.days:{"n":3}');
  assert.equal(timeControl(t, { minutes: 5, increment: 3 }), 'options.time:{"minutes":5,"increment":3}');
});
