// Ratings as the client shows them (issue 23): "1523", or "1500?" while provisional; a
// rated game's change ("1500 → 1662 (+162)"); the rating-history chart's geometry. Pure
// (no DOM), unit-tested in e2e/unit/ratings.test.mjs.

/**
 * A player's rating where a variant is known (`rating`, `provisional` of a player
 * object, or a `{rating, provisional}` of `/api/me`), or `''` when there is none.
 */
export function ratingText(p) {
  if (!p || typeof p.rating !== 'number') return '';
  return p.provisional ? `${p.rating}?` : String(p.rating);
}

/**
 * Why `me` (the `/api/me` answer, or null before it is known) may not take a seat of a
 * table with `options` in `variant`, as the server would refuse it: `'guest'` at a rated
 * table, `'range'` for an account whose rating there is outside the table's range, or
 * null when the seat is theirs to take. A client that shows a Sit button only where this
 * is null never invites a refusal.
 * @returns {'guest'|'range'|null}
 */
export function seatRefusal(me, options, variant) {
  // A correspondence table is for accounts too (casual: no range).
  if (options?.days && !me?.account) return 'guest';
  if (!options?.rated) return null;
  if (!me?.account) return 'guest';
  const range = options.rating_range;
  const rating = me.ratings?.[variant]?.rating ?? 1500;
  if (range && (rating < range.min || rating > range.max)) return 'range';
  return null;
}

/** A signed difference with a real minus sign: "+162", "−12", "±0". */
export function signed(n) {
  if (n > 0) return `+${n}`;
  if (n < 0) return `−${-n}`;
  return '±0';
}

/** One side of `game_over.ratings`: "1500 → 1662 (+162)". */
export function changeText(diff) {
  if (!diff) return '';
  return `${diff.before} → ${diff.after} (${signed(diff.after - diff.before)})`;
}

/**
 * The chart of one variant's history (`[{at, rating, game}]`, oldest first) in a
 * `width` x `height` box with `pad` around the plot: the polyline's points, one dot per
 * game, and the rating scale (rounded to 50 with at least 100 between its ends).
 * Time runs left to right by game, not by date: a burst of games stays readable.
 * @returns {{points: {x: number, y: number, rating: number, at: string, game?: string}[],
 *   min: number, max: number, path: string, ticks: {y: number, rating: number}[]}}
 */
export function chartGeometry(history, { width = 600, height = 200, pad = 28 } = {}) {
  const list = Array.isArray(history) ? history : [];
  const ratings = list.map((p) => p.rating);
  let min = Math.floor((Math.min(...ratings, Infinity) - 10) / 50) * 50;
  let max = Math.ceil((Math.max(...ratings, -Infinity) + 10) / 50) * 50;
  if (!list.length) {
    min = 1450;
    max = 1550;
  }
  if (max - min < 100) {
    const mid = (max + min) / 2;
    min = Math.floor((mid - 50) / 50) * 50;
    max = min + 100;
  }
  const plotW = width - 2 * pad;
  const plotH = height - 2 * pad;
  const y = (r) => pad + plotH * (1 - (r - min) / (max - min));
  const step = list.length > 1 ? plotW / (list.length - 1) : 0;
  const points = list.map((p, i) => ({
    x: round1(list.length > 1 ? pad + i * step : pad + plotW / 2),
    y: round1(y(p.rating)),
    rating: p.rating,
    at: p.at,
    game: p.game,
  }));
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${p.x} ${p.y}`).join(' ');
  const ticks = [min, Math.round((min + max) / 2), max].map((r) => ({ y: round1(y(r)), rating: r }));
  return { points, min, max, path, ticks };
}

function round1(v) {
  return Math.round(v * 10) / 10;
}
