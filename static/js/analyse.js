// The analysis board (`#/analyse?variant=…&fen=…`): set up any position of any variant
// (place and remove men and kings, the side to move, paste or copy a FEN) and the engine
// evaluates it (`GET /api/analyse`) each time it changes; its best move is drawn as an
// arrow. Opened from any ply of a replay; never from a live game. The client knows no
// rule: an impossible position is the server's 400, shown as such.

import * as api from './api.js';
import { Board } from './board.js';
import { h, replace } from './dom.js';
import { parseFen, pieceName } from './fen.js';
import { parseMove } from './moves.js';
import { analyseHref } from './router.js';
import { evalText } from './evalgraph.js';
import { pdnGameCard } from './pdngame.js';

/** The tools of the editor: what a click on a square puts there. */
const TOOLS = ['white-man', 'white-king', 'black-man', 'black-king', 'erase'];

/**
 * A PDN FEN from the side to move and the pieces, squares in the variant's order.
 * @param {'white'|'black'} turn
 * @param {Map<string, {color: string, king: boolean}>} pieces
 * @param {{name: string}[]} squares the variant's squares in order
 */
export function toFen(turn, pieces, squares) {
  const list = (color) => squares
    .filter((sq) => pieces.get(sq.name)?.color === color)
    .map((sq) => `${pieces.get(sq.name).king ? 'K' : ''}${sq.name}`)
    .join(',');
  return `${turn === 'white' ? 'W' : 'B'}:W${list('white')}:B${list('black')}`;
}

/** Mounts the analysis board; returns its unmount function. */
export function mount(root, { route, ctx }) {
  const { t } = ctx;
  let variants = [];
  let variant = null;
  let board = null;
  let pieces = new Map();
  let turn = 'white';
  let tool = 'white-man';
  let result = null; // the last answer, or {error}
  let timer = null;
  let asked = 0;
  let gone = false;
  let lastMove = []; // the squares of the move that led to a pasted game's shown position

  const boardWrap = h('div', { class: 'board-wrap' });
  const tools = h('div', { class: 'actions editor-tools', role: 'group', 'aria-label': t('analyse.tools') });
  const sides = h('div', { class: 'actions', role: 'group', 'aria-label': t('analyse.turn') });
  const variantSelect = h('select', { 'data-variant-select': '', 'aria-label': t('analyse.variant'), onchange: () => setVariant(variantSelect.value, null) });
  const fenInput = h('input', { type: 'text', class: 'fen-input', 'data-fen-input': '', 'aria-label': 'FEN', spellcheck: 'false', autocomplete: 'off' });
  const out = h('section', { class: 'card analysis-result', 'data-analyse-result': '', 'aria-live': 'polite' });
  // A pasted game: each position it shows goes on the board (in the game's variant).
  const gameCard = pdnGameCard({
    t,
    variantId: () => variant?.id ?? 'international',
    show: (game, text, move) => {
      if (game.variant !== variant.id) setVariant(game.variant, null);
      lastMove = move ? parseMove(move.move).squares : [];
      loadFen(text);
    },
  });
  document.addEventListener('keydown', gameCard.onKey);
  // Laid out as a replay: the board on the left, the head, the engine's answer and the
  // editor beside it on a desktop; one column on a phone.
  replace(root, h('div', { class: 'table-page replay-page analyse-page' },
    h('div', { class: 'replay-head-wrap' }, h('section', { class: 'replay-head' },
      h('h1', {}, t('analyse.title')), h('p', { class: 'lead' }, t('analyse.lead')))),
    h('div', { class: 'play' }, boardWrap),
    h('aside', { class: 'side' }, out, gameCard.element, h('section', { class: 'card editor' },
      h('h3', {}, t('analyse.setup')),
      h('label', {}, t('analyse.variant'), ' ', variantSelect),
      tools,
      sides,
      h('div', { class: 'actions' },
        h('button', { class: 'btn small', 'data-action': 'start', onclick: () => { lastMove = []; loadFen(variant.start_fen); } }, t('analyse.start')),
        h('button', { class: 'btn small', 'data-action': 'clear', onclick: () => { lastMove = []; pieces = new Map(); changed(); } }, t('analyse.clear')),
      ),
      h('label', { class: 'fen-label' }, 'FEN', fenInput),
      h('div', { class: 'actions' },
        h('button', { class: 'btn small', 'data-action': 'load-fen', onclick: () => loadTyped(fenInput.value) }, t('analyse.load')),
        h('button', { class: 'btn small', 'data-action': 'copy-fen', onclick: copyFen }, t('analyse.copy')),
      ),
    )),
  ));

  function fen() {
    return toFen(turn, pieces, variant.squares);
  }

  function loadFen(text) {
    try {
      const parsed = parseFen(text);
      const names = new Set(variant.squares.map((sq) => sq.name));
      pieces = new Map([...parsed.pieces].filter(([name]) => names.has(name)));
      turn = parsed.turn;
      changed();
    } catch {
      result = { error: 'bad_fen' };
      drawResult();
    }
  }

  /**
   * A FEN someone typed, pasted or linked: shown as it is when the board can show all of
   * it; otherwise (a square the variant has not, a broken field) the server judges the
   * text as written, its refusal is shown with the square at fault, and the board stays.
   */
  async function loadTyped(text) {
    lastMove = [];
    let parsed = null;
    try {
      parsed = parseFen(text);
    } catch {
      // Not a FEN at all: the server says so below.
    }
    const names = new Set(variant.squares.map((sq) => sq.name));
    const unknown = parsed ? [...parsed.pieces.keys()].find((name) => !names.has(name)) : undefined;
    if (parsed && unknown === undefined && !parsed.stray.length) {
      loadFen(text);
      return;
    }
    const n = ++asked;
    clearTimeout(timer);
    drawResult(true);
    let code = 'bad_fen';
    try {
      await api.analysePosition(variant.id, String(text ?? ''));
    } catch (err) {
      code = err.code;
    }
    if (gone || n !== asked) return;
    result = { error: code, square: unknown ?? parsed?.stray[0] ?? null };
    // Drawn again: the last answer's arrow goes with it.
    draw();
  }

  async function copyFen() {
    fenInput.select();
    try {
      await navigator.clipboard.writeText(fen());
    } catch {
      document.execCommand?.('copy');
    }
  }

  function setVariant(id, text) {
    variant = variants.find((v) => v.id === id) ?? variants[0];
    variantSelect.value = variant.id;
    board = new Board(variant, { onSquare: place, label: (name, p) => (p ? `${name} ${t(`analyse.${pieceName(p)}`)}` : name), title: t('analyse.title') });
    boardWrap.replaceChildren(board.element);
    if (text) loadTyped(text);
    else loadFen(variant.start_fen);
  }

  function place(name) {
    lastMove = [];
    const had = pieces.get(name);
    if (tool === 'erase') {
      pieces.delete(name);
    } else {
      const [color, role] = tool.split('-');
      const piece = { color, king: role === 'king' };
      if (had && had.color === piece.color && had.king === piece.king) pieces.delete(name);
      else pieces.set(name, piece);
    }
    changed();
  }

  // Everything after a change: redraw, keep the address in step (without a new page),
  // and ask the engine once the editing pauses.
  function changed() {
    fenInput.value = fen();
    history.replaceState(null, '', analyseHref(variant.id, fen()));
    result = null;
    draw();
    clearTimeout(timer);
    timer = setTimeout(evaluate, 250);
  }

  async function evaluate() {
    const n = ++asked;
    drawResult(true);
    let answer;
    try {
      answer = await api.analysePosition(variant.id, fen());
    } catch (err) {
      answer = { error: err.code };
    }
    if (gone || n !== asked) return;
    result = answer;
    draw();
  }

  function draw() {
    replace(tools, TOOLS.map((name) => h('button', {
      class: `btn small tool${tool === name ? ' on' : ''}`, 'data-tool': name,
      'aria-pressed': tool === name ? 'true' : 'false', onclick: () => { tool = name; draw(); },
    }, t(`analyse.${name}`))));
    replace(sides, h('span', {}, t('analyse.turn')), ['white', 'black'].map((side) => h('button', {
      class: `btn small${turn === side ? ' on' : ''}`, 'data-turn': side,
      'aria-pressed': turn === side ? 'true' : 'false', onclick: () => { turn = side; changed(); },
    }, t(`analyse.turn_${side}`))));
    board.render({ pieces, last: lastMove, arrow: result?.best ? parseMove(result.best).squares : null });
    drawResult(false);
  }

  function drawResult(thinking) {
    if (thinking || !result) {
      out.dataset.state = 'thinking';
      replace(out, h('p', { class: 'muted', role: 'status' }, t('analyse.thinking')));
      return;
    }
    if (result.error) {
      out.dataset.state = 'error';
      const bad = result.error === 'bad_message' || result.error === 'bad_fen';
      replace(out, h('p', { class: 'error', role: 'alert', 'data-error': result.error },
        bad ? t('analyse.bad_position') : t(`error.${result.error}`),
        bad && result.square ? ` ${t('analyse.bad_square', { square: result.square })}` : ''));
      return;
    }
    out.dataset.state = 'done';
    replace(out,
      h('p', { class: 'eval-now' }, h('strong', { 'data-eval': evalText(t, result) }, evalText(t, result)),
        ` · ${t('analyse.depth', { depth: result.depth })}`),
      result.best
        ? h('p', {}, `${t('analysis.best')}: `, h('span', { class: 'mono', 'data-best': result.best }, result.best))
        : h('p', { class: 'muted' }, t('analyse.no_moves')),
      result.pv?.length > 1 ? h('p', { class: 'pv mono' }, result.pv.join(' ')) : null,
    );
  }

  api.variants().then((list) => {
    if (gone) return;
    variants = list;
    replace(variantSelect, list.map((v) => h('option', { value: v.id }, t.pick(v.names, v.id))));
    setVariant(route?.variant ?? 'international', route?.fen ?? null);
  }).catch((err) => {
    replace(out, h('p', { class: 'error', role: 'alert' }, t(`error.${err.code}`)));
  });

  return () => {
    gone = true;
    clearTimeout(timer);
    document.removeEventListener('keydown', gameCard.onKey);
  };
}
