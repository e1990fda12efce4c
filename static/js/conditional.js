// Conditional moves at a correspondence table (issue 40, item 4; docs/protocol.md
// "Conditional moves"): while the opponent thinks, a player writes replies, one line a
// row (the opponent's move, the reply, the opponent's next, ...). The server checks them
// against the rules (an error names the move it refuses), keeps them private, and plays
// the reply at once when the opponent's move starts a line.

import { h, replace } from './dom.js';

/** Rows of text → lines of moves (spaces or commas between moves, blank rows skipped). */
export function parseLines(text) {
  return text.split('\n')
    .map((row) => row.split(/[\s,;]+/).filter(Boolean))
    .filter((line) => line.length);
}

/** Lines → the text a player edits. */
export function linesText(lines) {
  return (lines ?? []).map((line) => line.join(' ')).join('\n');
}

/**
 * The card: hidden unless the viewer plays a correspondence game here and waits for the
 * opponent (or has lines set). `box` is the card's element; `input` a textarea kept
 * across redraws (so typing is not lost when an event redraws the page).
 */
export function renderConditional(box, input, { t, state: s, me, lines, error, send }) {
  const show = !!me && s?.status === 'playing' && s.options?.days != null && (s.turn !== me || lines.length > 0);
  box.hidden = !show;
  if (!show) return;
  const editable = s.turn !== me;
  box.dataset.condLines = String(lines.length);
  input.disabled = !editable;
  replace(box,
    h('h3', {}, t('cond.title')),
    h('p', { class: 'muted small' }, t('cond.help')),
    lines.length
      ? h('ol', { class: 'cond-lines', 'data-cond-list': '' }, lines.map((line) => h('li', { class: 'mono' }, line.join(' '))))
      : h('p', { class: 'muted', 'data-cond-none': '' }, t('cond.none')),
    editable ? h('label', { class: 'cond-label' }, t('cond.edit'), input) : null,
    error != null ? h('p', { class: 'form-msg error', role: 'alert', 'data-cond-error': '' }, t('cond.refused', { message: error })) : null,
    editable ? h('div', { class: 'actions' },
      h('button', { class: 'btn primary', 'data-action': 'cond-save', onclick: () => send(parseLines(input.value)) }, t('cond.save')),
      lines.length ? h('button', { class: 'btn', 'data-action': 'cond-clear', onclick: () => { input.value = ''; send([]); } }, t('cond.clear')) : null,
    ) : null,
  );
}
