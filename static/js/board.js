// The SVG board. Geometry comes from the server (`GET /api/variants`: each playing
// square's name and its x/y as seen with White at the bottom), so mirrored boards
// (Italian, Spanish), the 10x10 board and every notation are drawn without the client
// knowing any rule. The board only reports which square was activated; move entry is
// moves.js's job.

import { s } from './dom.js';
import { pieceName } from './fen.js';

const CELL = 100;
const MARGIN = 28;
const ARROWS = { ArrowUp: true, ArrowDown: true, ArrowLeft: true, ArrowRight: true };

/**
 * The square an arrow key moves the keyboard focus to, as the board is shown: Left and
 * Right go to the next playing square of the same row, Up and Down to the row above or
 * below, to its closest square (on a tie: to the right going up, to the left going down,
 * so Up then Down comes back). So every playing square can be reached from any other.
 * @param {{name: string, pos: {x: number, y: number}}[]} cells the squares as displayed
 * @param {{x: number, y: number}} from
 * @param {string} key `ArrowUp`, `ArrowDown`, `ArrowLeft` or `ArrowRight`
 * @returns {string|null} the square's name, or null at the edge
 */
export function arrowTarget(cells, from, key) {
  let best = null;
  let bestScore = Infinity;
  for (const { name, pos } of cells) {
    const dx = pos.x - from.x;
    const dy = pos.y - from.y;
    let score;
    if (key === 'ArrowLeft' || key === 'ArrowRight') {
      if (dy !== 0 || (key === 'ArrowLeft' ? dx >= 0 : dx <= 0)) continue;
      score = Math.abs(dx);
    } else {
      const up = key === 'ArrowUp';
      if (up ? dy >= 0 : dy <= 0) continue;
      // The nearest row first, then the nearest column, then the tie-break side.
      const side = (up ? dx > 0 : dx < 0) ? 0 : 1;
      score = Math.abs(dy) * 1000 + Math.abs(dx) * 2 + (dx === 0 ? 0 : side);
    }
    if (score < bestScore) {
      bestScore = score;
      best = name;
    }
  }
  return best;
}

/** True when a variant's square names are algebraic (`c3`) rather than numbers. */
export function isAlgebraic(squares) {
  return squares.length > 0 && /^[a-z]/i.test(squares[0].name);
}

/**
 * Display position of a square: flipped by 180° for the player with the black pieces.
 * @param {{x: number, y: number}} sq
 * @param {number} size squares per side
 * @param {boolean} flipped
 */
export function displayXY(sq, size, flipped) {
  return flipped ? { x: size - 1 - sq.x, y: size - 1 - sq.y } : { x: sq.x, y: sq.y };
}

/**
 * Edge labels for algebraic boards, read from the square names themselves: the column
 * letter and the row number of the squares found in each display column and row.
 * @returns {{cols: string[], rows: string[]}}
 */
export function edgeLabels(squares, size, flipped) {
  const cols = new Array(size).fill('');
  const rows = new Array(size).fill('');
  for (const sq of squares) {
    const m = /^([a-z]+)(\d+)$/i.exec(sq.name);
    if (!m) continue;
    const { x, y } = displayXY(sq, size, flipped);
    cols[x] = m[1];
    rows[y] = m[2];
  }
  return { cols, rows };
}

export class Board {
  /**
   * @param {{board: number, squares: {name: string, x: number, y: number}[]}} variant
   * @param {{onSquare?: (name: string) => void, label: (name: string, piece: object|null) => string}} hooks
   *   without `onSquare` the board is a picture: no focusable squares, no input;
   *   `title` is the board's accessible name.
   */
  constructor(variant, { onSquare, label, title }) {
    this.interactive = typeof onSquare === 'function';
    this.size = variant.board;
    this.squares = variant.squares;
    this.algebraic = isAlgebraic(this.squares);
    this.onSquare = onSquare;
    this.label = label;
    this.flipped = false;
    this.cells = new Map();
    this.focusName = null;
    this.margin = this.algebraic ? MARGIN : 0;
    const full = this.size * CELL;
    this.element = s('svg', {
      class: `board board-${this.size}`,
      viewBox: `${-this.margin} 0 ${full + this.margin} ${full + this.margin}`,
      // Squares are buttons inside a group (a grid role would need rows, which the
      // diagonal geometry does not have); a picture-only board is one image.
      role: this.interactive ? 'group' : 'img',
      'aria-label': title ?? null,
      'data-board': variant.id ?? '',
    });
    if (this.interactive) this.listen();
    this.layout();
  }

  listen() {
    this.element.addEventListener('click', (ev) => {
      const g = ev.target.closest?.('[data-square]');
      if (g) this.activate(g.dataset.square);
    });
    this.element.addEventListener('keydown', (ev) => this.key(ev));
  }

  /** Sets which colour is at the bottom. */
  setFlipped(flipped) {
    if (flipped === this.flipped) return;
    this.flipped = flipped;
    this.layout();
  }

  activate(name) {
    this.focusName = name;
    this.onSquare(name);
  }

  key(ev) {
    const g = ev.target.closest?.('[data-square]');
    if (!g) return;
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      this.activate(g.dataset.square);
      return;
    }
    if (!ARROWS[ev.key]) return;
    ev.preventDefault();
    const to = arrowTarget([...this.cells.values()], this.cells.get(g.dataset.square).pos, ev.key);
    if (to) this.focus(to);
  }

  /** Moves keyboard focus to a square (roving tabindex: one square in the tab order). */
  focus(name) {
    const prev = this.cells.get(this.focusName);
    prev?.g.setAttribute('tabindex', '-1');
    const cell = this.cells.get(name);
    if (!cell) return;
    this.focusName = name;
    cell.g.setAttribute('tabindex', '0');
    cell.g.focus();
  }

  layout() {
    const full = this.size * CELL;
    const children = [s('rect', { class: 'light', x: 0, y: 0, width: full, height: full })];
    this.cells.clear();
    for (const sq of this.squares) {
      const pos = displayXY(sq, this.size, this.flipped);
      const g = s('g', {
        class: 'square',
        'data-square': sq.name,
        role: this.interactive ? 'button' : null,
        tabindex: this.interactive ? '-1' : null,
        transform: `translate(${pos.x * CELL} ${pos.y * CELL})`,
      });
      this.cells.set(sq.name, { name: sq.name, pos, g });
      children.push(g);
    }
    if (this.interactive) {
      const first = this.cells.get(this.focusName) ?? this.cells.values().next().value;
      first?.g.setAttribute('tabindex', '0');
    }
    if (this.algebraic) {
      const { cols, rows } = edgeLabels(this.squares, this.size, this.flipped);
      cols.forEach((c, x) =>
        children.push(s('text', { class: 'coord', x: x * CELL + CELL / 2, y: full + 21, 'text-anchor': 'middle' }, c)),
      );
      rows.forEach((r, y) =>
        children.push(s('text', { class: 'coord', x: -this.margin / 2, y: y * CELL + CELL / 2 + 7, 'text-anchor': 'middle' }, r)),
      );
    }
    // Drawn over the squares: the line of an entered capture path.
    this.overlay = s('g', { class: 'overlay', 'aria-hidden': 'true' });
    children.push(this.overlay);
    this.element.replaceChildren(...children);
    if (this.view) this.render(this.view);
  }

  /**
   * Draws a position and its highlights.
   * @param {{pieces: Map<string, {color: string, king: boolean}>, path?: string[],
   *   targets?: Set<string>, movable?: Set<string>, last?: string[], captured?: string[],
   *   pending?: string[], taking?: string[], slide?: {from: string, to: string},
   *   premove?: string[], arrow?: string[]} view
   *   `path` the squares entered so far (drawn in the path colour, with a line through
   *   them), `taking` the pieces jumped so far on that path, `slide` a piece that has just
   *   moved from one square to the next (animated once), `premove` the squares of a move
   *   queued during the opponent's turn, `arrow` a move's squares to draw as an arrow
   *   from its first to its last (the engine's best move)
   */
  render(view) {
    this.view = view;
    const path = new Set(view.path ?? []);
    const targets = view.targets ?? new Set();
    const movable = view.movable ?? new Set();
    const last = new Set(view.last ?? []);
    const captured = new Set(view.captured ?? []);
    const pending = new Set(view.pending ?? []);
    const taking = new Set(view.taking ?? []);
    const premove = new Set(view.premove ?? []);
    const slide = view.slide && this.cells.get(view.slide.from) && this.cells.get(view.slide.to) ? view.slide : null;
    for (const { name, g } of this.cells.values()) {
      const piece = view.pieces.get(name) ?? null;
      const cls = ['square'];
      if (path.has(name)) cls.push('selected');
      if (targets.has(name)) cls.push('target');
      if (movable.has(name)) cls.push('movable');
      if (last.has(name)) cls.push('last');
      if (captured.has(name)) cls.push('captured');
      if (pending.has(name)) cls.push('pending');
      if (taking.has(name)) cls.push('taking');
      if (premove.has(name)) cls.push('premove');
      g.setAttribute('class', cls.join(' '));
      g.setAttribute('aria-label', this.label(name, piece));
      const kids = [s('rect', { class: 'dark', width: CELL, height: CELL })];
      if (!this.algebraic) kids.push(s('text', { class: 'num', x: 6, y: 22 }, name));
      if (piece) {
        const drawn = drawPiece(piece);
        if (slide && slide.to === name && this.slideKey !== `${slide.from}-${slide.to}`) {
          // The piece travels from the previous square of the path (SMIL: no timers).
          const from = this.cells.get(slide.from).pos;
          const to = this.cells.get(name).pos;
          drawn.append(s('animateTransform', {
            attributeName: 'transform', type: 'translate', dur: '0.18s', fill: 'freeze',
            from: `${(from.x - to.x) * CELL} ${(from.y - to.y) * CELL}`, to: '0 0',
          }));
        }
        kids.push(drawn);
      }
      if (taking.has(name)) kids.push(s('path', { class: 'take-mark', d: 'M30 32 L70 72 M70 32 L30 72' }));
      if (captured.has(name) && !piece) kids.push(s('circle', { class: 'ghost', cx: 50, cy: 50, r: 30 }));
      if (targets.has(name)) kids.push(s('circle', { class: 'dot', cx: 50, cy: 50, r: piece ? 44 : 14 }));
      g.replaceChildren(...kids);
    }
    this.slideKey = slide ? `${slide.from}-${slide.to}` : null;
    const line = (view.path ?? []).map((name) => this.cells.get(name)?.pos).filter(Boolean);
    this.overlay.replaceChildren(...(line.length > 1
      ? [s('polyline', { class: 'path-line', points: line.map((p) => `${p.x * CELL + CELL / 2},${p.y * CELL + CELL / 2}`).join(' ') })]
      : []), ...this.arrow(view.arrow));
  }
}

/**
 * An arrow's points from one square's centre towards another's: the shaft ends where the
 * head begins, so the head's tip lands just short of the centre. Pure geometry.
 * @returns {{shaft: number[], head: number[][]}|null} null for no length
 */
export function arrowGeometry(from, to, cell = CELL) {
  const x1 = from.x * cell + cell / 2;
  const y1 = from.y * cell + cell / 2;
  const x2 = to.x * cell + cell / 2;
  const y2 = to.y * cell + cell / 2;
  const len = Math.hypot(x2 - x1, y2 - y1);
  if (len < 1) return null;
  const ux = (x2 - x1) / len;
  const uy = (y2 - y1) / len;
  const tipX = x2 - ux * cell * 0.12;
  const tipY = y2 - uy * cell * 0.12;
  const back = cell * 0.38;
  const wide = cell * 0.22;
  const bx = tipX - ux * back;
  const by = tipY - uy * back;
  return {
    shaft: [x1, y1, bx, by],
    head: [[tipX, tipY], [bx - uy * wide, by + ux * wide], [bx + uy * wide, by - ux * wide]],
  };
}

Board.prototype.arrow = function arrow(squares) {
  if (!squares || squares.length < 2) return [];
  const from = this.cells.get(squares[0])?.pos;
  const to = this.cells.get(squares[squares.length - 1])?.pos;
  if (!from || !to) return [];
  const g = arrowGeometry(from, to);
  if (!g) return [];
  const [x1, y1, x2, y2] = g.shaft;
  return [s('g', { class: 'best-arrow', 'data-arrow': `${squares[0]}-${squares[squares.length - 1]}` },
    s('line', { x1, y1, x2, y2 }),
    s('polygon', { points: g.head.map((p) => p.join(',')).join(' ') }),
  )];
};

function drawPiece(piece) {
  const kids = [
    s('circle', { class: 'body', cx: 50, cy: 52, r: 38 }),
    s('circle', { class: 'ring', cx: 50, cy: 52, r: 27 }),
  ];
  if (piece.king) {
    kids.push(s('path', { class: 'crown', d: 'M32 60 L30 40 L41 49 L50 34 L59 49 L70 40 L68 60 Z' }));
  }
  return s('g', { class: `piece ${piece.color}`, 'data-piece': pieceName(piece) }, kids);
}
