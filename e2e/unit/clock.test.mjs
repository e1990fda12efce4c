import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatClock, isLow, lowThreshold, remaining, snapshot } from '../../static/js/clock.js';

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
