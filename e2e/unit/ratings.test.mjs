import { test } from 'node:test';
import assert from 'node:assert/strict';
import { changeText, chartGeometry, ratingText, seatRefusal, signed } from '../../static/js/ratings.js';

test('a rating shows with a question mark while provisional, nothing without one', () => {
  assert.equal(ratingText({ rating: 1523 }), '1523');
  assert.equal(ratingText({ rating: 1500, provisional: true }), '1500?');
  assert.equal(ratingText({ name: 'guest' }), '');
  assert.equal(ratingText(null), '');
});

test('a rating change reads before → after (difference)', () => {
  assert.equal(changeText({ before: 1500, after: 1662 }), '1500 → 1662 (+162)');
  assert.equal(changeText({ before: 1500, after: 1338 }), '1500 → 1338 (−162)');
  assert.equal(changeText({ before: 1500, after: 1500 }), '1500 → 1500 (±0)');
  assert.equal(signed(3), '+3');
});

test('the chart spans the history left to right, higher ratings higher up', () => {
  const g = chartGeometry([
    { at: 'a', rating: 1500 }, { at: 'b', rating: 1662 }, { at: 'c', rating: 1600 },
  ], { width: 300, height: 100, pad: 10 });
  assert.equal(g.points.length, 3);
  assert.equal(g.points[0].x, 10);
  assert.equal(g.points[2].x, 290);
  assert.ok(g.points[1].y < g.points[2].y && g.points[2].y < g.points[0].y);
  assert.ok(g.min <= 1500 && g.max >= 1662);
  assert.match(g.path, /^M10 [\d.]+ L150 [\d.]+ L290 [\d.]+$/);
  for (const p of g.points) assert.ok(p.y >= 10 && p.y <= 90);
});

test('one point or none still makes a chart with a 100-point scale', () => {
  const one = chartGeometry([{ at: 'a', rating: 1662 }], { width: 300, height: 100, pad: 10 });
  assert.equal(one.points[0].x, 150);
  assert.equal(one.max - one.min, 100);
  const none = chartGeometry([]);
  assert.equal(none.path, '');
  assert.equal(none.ticks.length, 3);
});

test('profile and leaderboard routes', async () => {
  const { href, parseRoute } = await import('../../static/js/router.js');
  assert.deepEqual(parseRoute('#/player/Ala_K'), { name: 'player', id: 'Ala_K' });
  assert.deepEqual(parseRoute('#/player'), { name: 'lobby', id: null });
  assert.deepEqual(parseRoute('#/leaderboard/russian'), { name: 'leaderboard', id: 'russian' });
  assert.deepEqual(parseRoute('#/leaderboard'), { name: 'leaderboard', id: null });
  assert.equal(href('player', 'Ala_K'), '#/player/Ala_K');
});

test('a seat is offered only to whom the server would seat there', () => {
  const casual = { minutes: 5, increment: 3 };
  const rated = { ...casual, rated: true };
  const ranged = { ...rated, rating_range: { min: 1400, max: 1600 } };
  const guest = { id: 'g', account: null };
  const at = (rating) => ({ id: 'a', account: { username: 'Ala' }, ratings: { russian: { rating } } });
  assert.equal(seatRefusal(guest, casual, 'russian'), null);
  assert.equal(seatRefusal(null, casual, 'russian'), null);
  assert.equal(seatRefusal(guest, rated, 'russian'), 'guest');
  assert.equal(seatRefusal(null, rated, 'russian'), 'guest');
  assert.equal(seatRefusal(at(1775), rated, 'russian'), null);
  assert.equal(seatRefusal(at(1775), ranged, 'russian'), 'range');
  assert.equal(seatRefusal(at(1399), ranged, 'russian'), 'range');
  assert.equal(seatRefusal(at(1400), ranged, 'russian'), null);
  assert.equal(seatRefusal(at(1600), ranged, 'russian'), null);
  // An account never rated in the variant counts as 1500.
  assert.equal(seatRefusal({ id: 'a', account: {}, ratings: {} }, ranged, 'russian'), null);
  // A correspondence table (casual) takes accounts only too.
  const days = { minutes: 0, increment: 0, days: 3 };
  assert.equal(seatRefusal(guest, days, 'russian'), 'guest');
  assert.equal(seatRefusal(null, days, 'russian'), 'guest');
  assert.equal(seatRefusal(at(1200), days, 'russian'), null);
});
