// "Live now" on the start page: the featured game of each variant (`GET /api/featured`:
// the best game in progress, as lichess TV chooses it), each a small board with the two
// players and the time control, one click from watching it at its table. The person's
// variant comes first. Nothing is shown when no game is being played.

import { timeControl } from './clock.js';
import { h, s } from './dom.js';
import { parseFen } from './fen.js';
import { href } from './router.js';
import { nameTag } from './playnow.js';

/** How often the start page asks again while it is shown, ms. */
export const FEATURED_REFRESH_MS = 3_000;

/**
 * The card of `games` (the answer of `/api/featured`), `variants` giving each board's
 * geometry and name; `first` the variant shown first. `null` when there is nothing.
 */
export function featuredCard(t, games, variants, first) {
  const shown = (games ?? []).filter((g) => variants.some((v) => v.id === g.variant));
  if (!shown.length) return null;
  const order = (g) => (g.variant === first ? -1 : variants.findIndex((v) => v.id === g.variant));
  shown.sort((a, b) => order(a) - order(b));
  return h('section', { class: 'featured card', 'data-featured': String(shown.length) },
    h('h2', {}, t('featured.title')),
    h('ul', { class: 'featured-list' }, shown.map((g) => tile(t, g, variants.find((v) => v.id === g.variant)))));
}

function tile(t, g, variant) {
  const over = g.status === 'over';
  const result = over ? resultMark(g) : null;
  return h('li', { class: 'featured-game', 'data-featured-game': g.game, 'data-featured-variant': g.variant, 'data-status': g.status },
    h('a', { class: 'featured-link', href: href('table', g.table), 'aria-label': t('featured.watch', { white: g.white.name, black: g.black.name }) },
      h('span', { class: 'featured-variant' }, t.pick(variant.names, variant.id)),
      miniBoard(variant, g.fen),
      h('span', { class: 'featured-player' }, h('span', { class: 'swatch black', 'aria-hidden': 'true' }), nameTag(t, g.black)),
      h('span', { class: 'featured-player' }, h('span', { class: 'swatch white', 'aria-hidden': 'true' }), nameTag(t, g.white)),
      h('span', { class: 'featured-meta' },
        timeControl(t, g),
        g.rated ? ` · ${t('option.rated')}` : '',
        over ? h('span', { class: 'featured-result', 'data-result': g.result ?? 'none' }, ` · ${result}`) : h('span', { class: 'badge live' }, t('featured.live'))),
    ));
}

/** "1–0", "0–1", "½–½" or "—" (aborted), White's score first. */
function resultMark(g) {
  if (g.result === 'white') return '1–0';
  if (g.result === 'black') return '0–1';
  if (g.result === 'draw') return '½–½';
  return '—';
}

/**
 * A small picture of the position `fen` on `variant`'s board, seen from White's side
 * (the squares' display coordinates), for a list; not interactive.
 */
export function miniBoard(variant, fen) {
  const n = variant.board;
  let pieces = new Map();
  try {
    pieces = parseFen(fen).pieces;
  } catch {
    // An unreadable position: the empty board.
  }
  const cells = [];
  for (const sq of variant.squares) {
    cells.push(s('rect', { x: sq.x, y: sq.y, width: 1, height: 1, class: 'mini-dark' }));
    const p = pieces.get(sq.name);
    if (!p) continue;
    cells.push(s('circle', { cx: sq.x + 0.5, cy: sq.y + 0.5, r: 0.38, class: `mini-piece ${p.color}`, 'data-mini-piece': `${sq.name}:${p.color}-${p.king ? 'king' : 'man'}` }));
    if (p.king) cells.push(s('circle', { cx: sq.x + 0.5, cy: sq.y + 0.5, r: 0.18, class: `mini-crown ${p.color}` }));
  }
  return s('svg', { class: 'mini-board', viewBox: `0 0 ${n} ${n}`, role: 'img', 'aria-hidden': 'true', 'data-fen': fen },
    s('rect', { x: 0, y: 0, width: n, height: n, class: 'mini-light' }),
    cells);
}
