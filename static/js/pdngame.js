// The analysis board's game card: paste a PDN, the server replays it (`POST
// /api/analyse/pdn`: the client knows no rules) and the card steps through its positions
// with buttons and the arrow keys, the shown move highlighted and kept in view in the
// move list. Each shown position goes to the board (and so to the engine).

import * as api from './api.js';
import { h, replace } from './dom.js';

/**
 * The card. `variantId()` is the board's variant (read when a game without a `GameType`
 * tag is pasted); `show(replay, fen, move)` puts a position on the board (`move`: the
 * move that led to it, or null at the start).
 * @returns {{element: HTMLElement, onKey: (ev: KeyboardEvent) => void}}
 */
export function pdnGameCard({ t, variantId, show }) {
  let game = null; // the server's replay
  let at = 0; // moves played on the shown position
  let busy = false;
  let error = null; // {detail} of the last refused paste
  const input = h('textarea', {
    class: 'pdn-input', 'data-pdn-input': '', rows: '3', spellcheck: 'false',
    'aria-label': t('analyse.pdn_title'), placeholder: '1. 32-28 19-23 2. 28x19 14x23 *',
  });
  const status = h('div', { 'data-pdn-status': '', 'aria-live': 'polite' });
  const steps = h('div', { class: 'actions replay-controls' });
  const list = h('ol', { class: 'move-list', 'data-pdn-moves': '' });
  const element = h('section', { class: 'card pdn-game', 'data-pdn-game': '' },
    h('h3', {}, t('analyse.pdn_title')),
    h('p', { class: 'meta' }, t('analyse.pdn_hint')),
    input,
    h('div', { class: 'actions' },
      h('button', { class: 'btn small', 'data-action': 'load-pdn', onclick: load }, t('analyse.pdn_load'))),
    status, steps, list);

  async function load() {
    if (busy) return;
    busy = true;
    try {
      game = await api.analysePdn(input.value, variantId());
      error = null;
      go(game.moves.length);
    } catch (err) {
      error = { code: err.code, detail: err.message ?? '' };
      draw();
    } finally {
      busy = false;
    }
  }

  function go(n) {
    if (!game) return;
    at = Math.max(0, Math.min(game.moves.length, n));
    const move = game.moves[at - 1] ?? null;
    show(game, move ? move.fen : game.start_fen, move);
    draw();
  }

  function draw() {
    if (error) {
      replace(status, h('p', { class: 'error', role: 'alert', 'data-pdn-error': error.code },
        error.code === 'bad_message' ? `${t('analyse.bad_pdn')} ${error.detail.replace(/^bad message: (PDN: )?/, '')}` : t(`error.${error.code}`)));
    } else if (game) {
      replace(status, h('p', { class: 'meta', 'data-pdn-loaded': String(game.moves.length) },
        `${game.white ?? '?'} – ${game.black ?? '?'}`));
    } else {
      replace(status);
    }
    if (!game) {
      replace(steps);
      replace(list);
      return;
    }
    const n = game.moves.length;
    const btn = (action, label, target, disabled) =>
      h('button', { class: 'btn small', 'data-action': `pdn-${action}`, 'aria-label': t(`replay.${action}`), disabled, onclick: () => go(target) }, label);
    replace(steps,
      btn('first', '«', 0, at === 0),
      btn('prev', '‹', at - 1, at === 0),
      h('span', { class: 'ply', 'data-pdn-ply': String(at) }, `${at} / ${n}`),
      btn('next', '›', at + 1, at === n),
      btn('last', '»', n, at === n));
    const cell = (i) => h('button', {
      class: `mv${i === at - 1 ? ' last' : ''}`, 'data-ply': String(i + 1),
      'aria-current': i === at - 1 ? 'step' : null, onclick: () => go(i + 1),
    }, game.moves[i].move);
    const rows = [];
    for (let i = 0; i < n; i += 2) {
      rows.push(h('li', {}, h('span', { class: 'no' }, `${i / 2 + 1}.`), cell(i), i + 1 < n ? cell(i + 1) : null));
    }
    replace(list, rows);
    // The shown move stays in the list's own box (the page does not move).
    const shown = list.querySelector('[aria-current]');
    if (!shown) {
      list.scrollTop = 0;
    } else {
      const box = list.getBoundingClientRect();
      const row = shown.closest('li').getBoundingClientRect();
      if (row.top < box.top) list.scrollTop -= box.top - row.top + row.height;
      else if (row.bottom > box.bottom) list.scrollTop += row.bottom - box.bottom + row.height;
    }
  }

  /** The arrow keys (and Home/End) step through a loaded game, outside the text fields. */
  function onKey(ev) {
    if (!game || ev.target.closest?.('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') go(at - 1);
    else if (ev.key === 'ArrowRight') go(at + 1);
    else if (ev.key === 'Home') go(0);
    else if (ev.key === 'End') go(game.moves.length);
    else return;
    ev.preventDefault();
  }

  return { element, onKey };
}
