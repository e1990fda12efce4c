// PDN FEN parsing for drawing a position: `W:W21,22,K5:B1-12`.
// Pure (no DOM), so the unit tests import it directly.
// The client never judges legality; it only needs to know which piece stands where.

/** @typedef {{color: 'white'|'black', king: boolean}} Piece */

/**
 * Parses a PDN FEN into the side to move and a map square name -> piece.
 * Numeric ranges (`1-12`) are expanded; algebraic names are kept as written.
 * Tokens after the two colour lists (engine-specific suffixes) are ignored.
 * @param {string} fen
 * Fields that are neither a colour's list nor an engine's counter (`H0`, `F12`: a letter
 * and digits) are returned in `stray` (the server refuses them, as it does a square the
 * variant does not have).
 * @returns {{turn: 'white'|'black', pieces: Map<string, Piece>, stray: string[]}}
 * @throws {Error} when the text is not a FEN (no side to move).
 */
export function parseFen(fen) {
  const text = String(fen ?? '').trim().replace(/\.$/, '');
  const parts = text.split(':');
  const head = parts[0].trim().toUpperCase();
  if (head !== 'W' && head !== 'B') {
    throw new Error(`bad FEN: ${fen}`);
  }
  const pieces = new Map();
  const stray = [];
  for (const raw of parts.slice(1)) {
    const part = raw.trim();
    const side = part[0]?.toUpperCase();
    if (side !== 'W' && side !== 'B') {
      if (part && !/^[A-Za-z]\d*$/.test(part)) stray.push(part);
      continue;
    }
    const color = side === 'W' ? 'white' : 'black';
    for (const item of part.slice(1).split(',')) {
      addItem(pieces, item.trim(), color);
    }
  }
  return { turn: head === 'W' ? 'white' : 'black', pieces, stray };
}

function addItem(pieces, item, color) {
  if (!item) return;
  let king = false;
  let name = item;
  if (name[0] === 'K' || name[0] === 'k') {
    king = true;
    name = name.slice(1);
  }
  const range = /^(\d+)-(\d+)$/.exec(name);
  if (range) {
    const lo = Number(range[1]);
    const hi = Number(range[2]);
    for (let n = lo; n <= hi; n++) pieces.set(String(n), { color, king });
    return;
  }
  pieces.set(name.toLowerCase(), { color, king });
}

/**
 * The test-hook / CSS name of a piece: `white-man`, `black-king`, ...
 * @param {Piece} piece
 */
export function pieceName(piece) {
  return `${piece.color}-${piece.king ? 'king' : 'man'}`;
}

/**
 * Counts the pieces of each colour (shown next to the players).
 * @param {Map<string, Piece>} pieces
 */
export function material(pieces) {
  const count = { white: 0, black: 0 };
  for (const p of pieces.values()) count[p.color] += 1;
  return count;
}
