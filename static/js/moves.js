// Move entry from the server's `legal` list. Pure: the browser never computes rules,
// it only narrows the server's full-path moves (`32-28`, `28x19x10`, `c3xe5xc7`) by the
// squares the player has clicked so far.

/**
 * Splits a full-path move into its squares. Accepts `-`, `x` and `:` as separators.
 * @param {string} move
 * @returns {{text: string, squares: string[], capture: boolean}}
 */
export function parseMove(move) {
  const text = String(move).trim();
  const squares = text.split(/[-x:]/i).map((s) => s.trim().toLowerCase());
  return { text, squares, capture: /[x:]/i.test(text) };
}

/** The squares a move passes through after its start (landing squares). */
export function landings(move) {
  return parseMove(move).squares.slice(1);
}

/** True when `prefix` is the start of `squares`. */
function startsWith(squares, prefix) {
  if (prefix.length > squares.length) return false;
  return prefix.every((sq, i) => squares[i] === sq);
}

/**
 * The squares holding a piece that has at least one legal move.
 * @param {string[]} legal
 * @returns {Set<string>}
 */
export function movableFrom(legal) {
  return new Set(legal.map((m) => parseMove(m).squares[0]));
}

/**
 * The next squares that extend `prefix` towards some legal move.
 * @param {string[]} legal
 * @param {string[]} prefix squares clicked so far (start square first)
 * @returns {Set<string>}
 */
export function nextSquares(legal, prefix) {
  const out = new Set();
  if (prefix.length === 0) return movableFrom(legal);
  for (const m of legal) {
    const { squares } = parseMove(m);
    if (squares.length > prefix.length && startsWith(squares, prefix)) {
      out.add(squares[prefix.length]);
    }
  }
  return out;
}

/**
 * The legal moves whose full path is exactly `prefix`.
 * @param {string[]} legal
 * @param {string[]} prefix
 * @returns {string[]}
 */
export function exactMoves(legal, prefix) {
  return legal.filter((m) => {
    const { squares } = parseMove(m);
    return squares.length === prefix.length && startsWith(squares, prefix);
  });
}

/**
 * The entry state machine: one click (or Enter) on `square` given the path so far.
 *
 * Returns the new path and, when the path now names one legal move, that move to send.
 * Rules, in order:
 * - a square that legally continues the path extends it (checked first, because a flying
 *   king may land again on a square it already visited, even its start square);
 * - with the path complete and naming exactly one legal move, `send` is that move (the
 *   server's strings are sent as given, so the server sees its own notation);
 * - a click on a piece that can move starts a new path from it (re-selecting);
 * - a click on the selected start square again clears the selection;
 * - anything else clears the selection.
 *
 * If a path could both end and continue (impossible under the rules of all seven
 * variants, since a started capture must be completed), it ends: the path the player
 * clicked is a legal move as it stands.
 *
 * @param {string[]} legal
 * @param {string[]} path squares clicked so far
 * @param {string} square the square clicked now
 * @returns {{path: string[], send: string|null}}
 */
export function clickSquare(legal, path, square) {
  const sq = String(square).toLowerCase();
  if (path.length > 0 && nextSquares(legal, path).has(sq)) {
    const extended = [...path, sq];
    const done = exactMoves(legal, extended);
    if (done.length >= 1) return { path: [], send: done[0] };
    return { path: extended, send: null };
  }
  if (path.length === 1 && path[0] === sq) return { path: [], send: null };
  if (movableFrom(legal).has(sq)) return { path: [sq], send: null };
  return { path: [], send: null };
}

/**
 * Squares captured by a move, when the server did not list them: none can be derived
 * without geometry, so this only reads the server's `captures` field.
 * @param {{captures?: string[]}} event
 * @returns {string[]}
 */
export function capturedSquares(event) {
  return Array.isArray(event?.captures) ? event.captures.map(String) : [];
}

/**
 * The squares jumped so far along an entered capture path: for each step between two
 * path squares on one diagonal, the squares strictly between them that hold a piece of
 * the other colour. Geometry only (the server's x/y of each square), no rules: the
 * path itself was narrowed from the server's legal moves.
 * @param {{name: string, x: number, y: number}[]} squares the variant's playing squares
 * @param {string[]} path squares entered so far (start first)
 * @param {Map<string, {color: string}>} pieces the position before the move
 * @returns {string[]}
 */
export function jumpedSquares(squares, path, pieces) {
  if (path.length < 2) return [];
  const byName = new Map(squares.map((sq) => [sq.name.toLowerCase(), sq]));
  const byXY = new Map(squares.map((sq) => [`${sq.x},${sq.y}`, sq.name]));
  const mover = pieces.get(path[0]);
  if (!mover) return [];
  const out = [];
  for (let i = 1; i < path.length; i++) {
    const a = byName.get(path[i - 1]);
    const b = byName.get(path[i]);
    if (!a || !b) continue;
    const dx = Math.sign(b.x - a.x);
    const dy = Math.sign(b.y - a.y);
    if (Math.abs(b.x - a.x) !== Math.abs(b.y - a.y)) continue;
    for (let x = a.x + dx, y = a.y + dy; x !== b.x; x += dx, y += dy) {
      const name = byXY.get(`${x},${y}`);
      const piece = name && pieces.get(name);
      if (piece && piece.color !== mover.color && !out.includes(name)) out.push(name);
    }
  }
  return out;
}
