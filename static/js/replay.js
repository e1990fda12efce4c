// The replay page of a stored game: step through the moves, jump to any move, download
// the PDN. Every stored move carries the position after it, so stepping is just drawing
// the right FEN: no rules in the browser. A finished game can be analysed: the evaluation
// graph under the board, the engine's best move as an arrow, the mistakes with the better
// move, the annotated PDN; any shown position opens on the analysis board. Once analysed,
// "learn from your mistakes": each mistake and blunder (the viewer's own when they played
// the game, both sides' otherwise) is shown again, the position before it, to find a
// better move; the server judges each try as the analysis judged the move played.

import * as api from './api.js';
import { timeControl } from './clock.js';
import { Board } from './board.js';
import { h, replace } from './dom.js';
import { parseFen } from './fen.js';
import { clickSquare, nextSquares, parseMove } from './moves.js';
import { analyseHref, href } from './router.js';
import { evalGraph, evalText } from './evalgraph.js';
import { playerName } from './playnow.js';
import { changeText } from './ratings.js';
import { resultText } from './tableview.js';
import { ballotLine } from './ballot.js';

/** Mounts the replay page; returns its unmount function. */
export function mount(root, { id, ctx }) {
  const { t } = ctx;
  let game = null;
  let board = null;
  let at = 0; // number of moves played on the shown position
  let flipped = false;
  let analysis = null; // the game's analysis once asked for: {status, plies, accuracy}
  let poll = null;
  let gone = false;
  // Learning from the mistakes: {list, i, found, status: try|checking|wrong|good|shown|done,
  // path, tried, verdict, error}; null while replaying.
  let learn = null;
  const SUFFIX = { inaccuracy: '?!', mistake: '?', blunder: '??' };
  const analysisBox = h('section', { class: 'card analysis', 'data-analysis': '' });
  const head = h('section', { class: 'replay-head' }, h('h1', {}, t('replay.title')));
  const boardWrap = h('div', { class: 'board-wrap' });
  const controls = h('div', { class: 'actions replay-controls' });
  const list = h('ol', { class: 'move-list', 'data-moves': '' });
  // The step buttons and the download sit right under the board, which is sized to
  // leave room for them (1366x768 shows it all); the title goes beside it on a desktop.
  replace(root, h('div', { class: 'table-page replay-page', 'data-game': id },
    h('div', { class: 'replay-head-wrap' }, head),
    h('div', { class: 'play' }, boardWrap, controls, analysisBox),
    h('aside', { class: 'side' }, h('section', { class: 'card moves' }, h('h3', {}, t('moves')), list)),
  ));

  const onKey = (ev) => {
    if (!game || learn || ev.target.closest?.('input, select, textarea')) return;
    if (ev.key === 'ArrowLeft') go(at - 1);
    else if (ev.key === 'ArrowRight') go(at + 1);
    else if (ev.key === 'Home') go(0);
    else if (ev.key === 'End') go(game.moves.length);
    else return;
    ev.preventDefault();
  };
  document.addEventListener('keydown', onKey);

  function go(n) {
    at = Math.max(0, Math.min(game.moves.length, n));
    draw();
  }

  function draw() {
    if (learn) {
      drawLearn();
      return;
    }
    const move = game.moves[at - 1];
    const fen = move ? move.fen : game.initial_fen;
    board.setFlipped(flipped);
    const done = analysis?.status === 'done' ? analysis.plies : null;
    const best = done?.[at]?.best;
    board.render({
      pieces: parseFen(fen).pieces,
      last: move ? parseMove(move.move).squares : [],
      arrow: best ? parseMove(best).squares : null,
    });
    const btn = (action, label, target, disabled) =>
      h('button', { class: 'btn', 'data-action': action, 'aria-label': t(`replay.${action}`), disabled, onclick: () => go(target) }, label);
    replace(controls,
      btn('first', '«', 0, at === 0),
      btn('prev', '‹', at - 1, at === 0),
      h('span', { class: 'ply', 'data-ply-shown': String(at) }, `${at} / ${game.moves.length}`),
      btn('next', '›', at + 1, at === game.moves.length),
      btn('last', '»', game.moves.length, at === game.moves.length),
      h('a', { class: 'btn', href: api.pdnUrl(game.id), download: `damka-${game.id}.pdn`, 'data-action': 'pdn' }, t('replay.pdn')),
      // An icon (named for screen readers and on hover), so the row fits under the board.
      h('button', { class: 'btn', 'data-action': 'flip', 'aria-pressed': flipped ? 'true' : 'false', 'aria-label': t('action.flip'), title: t('action.flip'), onclick: () => { flipped = !flipped; draw(); } }, '⇅'),
    );
    const rows = [];
    for (let i = 0; i < game.moves.length; i += 2) {
      rows.push(h('li', {}, h('span', { class: 'no' }, `${i / 2 + 1}.`), cell(i), i + 1 < game.moves.length ? cell(i + 1) : null));
    }
    replace(list, rows);
    followShown();
    drawAnalysis(fen);
  }

  // The move list scrolls (it is a box of its own) so that the shown move is in it; the
  // page itself never moves, so the arrow keys do not pull the board away on a phone.
  function followShown() {
    const shown = list.querySelector('[aria-current]');
    if (!shown) {
      list.scrollTop = 0;
      return;
    }
    const box = list.getBoundingClientRect();
    const row = shown.closest('li').getBoundingClientRect();
    const margin = row.height; // a row of context above or below
    if (row.top < box.top) list.scrollTop -= box.top - row.top + margin;
    else if (row.bottom > box.bottom) list.scrollTop += row.bottom - box.bottom + margin;
  }

  // The analysis card: the button, the progress, or the graph and what it found.
  function drawAnalysis(fen) {
    const board = h('a', { class: 'btn small', href: analyseHref(game.variant, fen), 'data-action': 'analyse-board' }, t('analysis.board_here'));
    if (!game.ended_at) {
      replace(analysisBox);
      return;
    }
    if (!analysis || analysis.error) {
      replace(analysisBox,
        h('div', { class: 'actions' },
          h('button', { class: 'btn primary', 'data-action': 'analyse', onclick: ask }, t('analysis.analyse')),
          board),
        analysis?.error ? h('p', { class: 'error', role: 'alert' }, t(`error.${analysis.error}`)) : null,
      );
      analysisBox.dataset.analysis = analysis?.error ? 'error' : 'none';
      return;
    }
    analysisBox.dataset.analysis = analysis.status;
    if (analysis.status !== 'done') {
      replace(analysisBox,
        h('p', { class: 'lead', role: 'status' }, t(`analysis.${analysis.status}`)),
        pendingDetail(analysis),
        h('div', { class: 'actions' }, board));
      return;
    }
    const plies = analysis.plies;
    const shown = plies[at - 1];
    const next = plies[at];
    const judged = plies.filter((p) => p.judgement);
    const toLearn = learnable(plies);
    replace(analysisBox,
      toLearn.length
        ? h('div', { class: 'actions' }, h('button', { class: 'btn primary', 'data-action': 'learn', 'data-learn-count': String(toLearn.length), onclick: startLearn },
          mySide() ? t('learn.start_mine', { n: toLearn.length }) : t('learn.start', { n: toLearn.length })))
        : null,
      evalGraph(plies, at, go, t('analysis.graph')),
      h('p', { class: 'eval-now', 'data-eval': shown ? evalText(t, shown) : '' },
        shown ? h('strong', {}, evalText(t, shown)) : null,
        next?.best ? ` · ${t('analysis.best')}: ` : null,
        next?.best ? h('span', { class: 'mono', 'data-best': next.best }, next.best) : null,
        next?.pv?.length > 1 ? h('span', { class: 'pv' }, ` (${next.pv.slice(0, 6).join(' ')})`) : null),
      analysis.accuracy
        ? h('p', { class: 'accuracy' }, t('analysis.accuracy', { white: analysis.accuracy.white, black: analysis.accuracy.black }))
        : null,
      h('h3', {}, t('analysis.mistakes')),
      judged.length
        ? h('ul', { class: 'mistakes', 'data-mistakes': String(judged.length) }, judged.map((p) =>
          h('li', {}, h('button', { class: `mv ${p.judgement}`, 'data-ply': String(p.ply), onclick: () => go(p.ply) },
            `${Math.ceil(p.ply / 2)}${p.ply % 2 ? '.' : '…'} ${p.move}${SUFFIX[p.judgement]}`),
          ' ', t(`analysis.${p.judgement}`), p.best ? ` · ${t('analysis.better')}: ` : null,
          p.best ? h('span', { class: 'mono' }, p.best) : null)))
        : h('p', { class: 'muted' }, t('analysis.none')),
      h('div', { class: 'actions' },
        h('a', { class: 'btn small', href: api.annotatedPdnUrl(game.id), download: `damka-${game.id}-analysis.pdn`, 'data-action': 'annotated-pdn' }, t('analysis.pdn')),
        board),
    );
  }

  // A waiting job's place in the queue, or a running job's progress (a bar and a count).
  function pendingDetail(job) {
    if (job.status === 'queued' && job.queue_position) {
      return h('p', { class: 'muted', 'data-queue-position': String(job.queue_position) },
        t('analysis.queue_position', { n: job.queue_position }));
    }
    const p = job.progress;
    if (job.status === 'running' && p?.positions) {
      return h('p', { class: 'muted', 'data-progress': `${p.searched}/${p.positions}` },
        h('progress', { max: String(p.positions), value: String(p.searched) }), ' ',
        t('analysis.progress', { searched: p.searched, positions: p.positions }));
    }
    return null;
  }

  // The viewer's colour in this game, if they played it (both sides' mistakes otherwise).
  function mySide() {
    const me = ctx.me?.id;
    if (!me || !game || game.white?.id === game.black?.id) return null;
    if (game.white?.id === me) return 'white';
    if (game.black?.id === me) return 'black';
    return null;
  }

  // The analysis's mistakes and blunders to learn from (a random opening's plies are the
  // server's, not the players').
  function learnable(plies) {
    const side = mySide();
    return plies.filter((p) => (p.judgement === 'mistake' || p.judgement === 'blunder')
      && p.ply > (game.opening_plies ?? 0)
      && (!side || (p.ply % 2 === 1) === (side === sideOfFirstPly())));
  }

  // The side that moves first in the game (a FEN may give the move to Black).
  function sideOfFirstPly() {
    return parseFen(game.initial_fen).turn;
  }

  async function startLearn() {
    learn = { list: [], i: 0, found: 0, status: 'loading', path: [], tried: null, verdict: null, error: null, flipped, at };
    draw();
    try {
      const { positions } = await api.mistakes(game.id);
      const side = mySide();
      learn.list = positions.filter((p) => !side || p.color === side);
    } catch (err) {
      learn.error = err.code;
    }
    if (gone || !learn) return;
    showLearn(0);
  }

  function showLearn(i) {
    learn.i = i;
    learn.path = [];
    learn.tried = null;
    learn.verdict = null;
    learn.status = learn.error ? 'error' : i >= learn.list.length ? 'done' : 'try';
    const p = learn.list[i];
    if (p) {
      at = p.ply - 1;
      flipped = p.color === 'black';
    }
    draw();
  }

  function stopLearn() {
    ({ flipped, at } = learn);
    learn = null;
    draw();
  }

  async function onLearnSquare(sq) {
    if (!learn || (learn.status !== 'try' && learn.status !== 'wrong')) return;
    const p = learn.list[learn.i];
    const { path, send: move } = clickSquare(p.legal, learn.path, sq);
    learn.path = path;
    if (!move) {
      draw();
      return;
    }
    learn.path = [];
    learn.tried = move;
    learn.status = 'checking';
    learn.error = null;
    draw();
    const now = learn;
    try {
      now.verdict = await api.tryInstead(game.id, p.ply, move);
    } catch (err) {
      now.verdict = null;
      now.error = err.code;
    }
    if (gone || learn !== now) return;
    if (!now.verdict) {
      now.status = 'wrong';
      now.tried = null;
    } else if (now.verdict.ok) {
      now.status = 'good';
      now.found += 1;
    } else {
      now.status = 'wrong';
    }
    draw();
  }

  function drawLearn() {
    const p = learn.list[learn.i];
    const status = learn.status;
    board.setFlipped(flipped);
    if (p) {
      const good = status === 'good';
      const mine = status === 'try' || status === 'wrong';
      board.render({
        pieces: parseFen(good ? learn.verdict.fen : p.fen).pieces,
        path: learn.path,
        targets: mine && learn.path.length ? nextSquares(p.legal, learn.path) : new Set(),
        movable: mine && !learn.path.length ? nextSquares(p.legal, []) : new Set(),
        last: learn.tried ? parseMove(learn.tried).squares : [],
        arrow: status === 'shown' && p.best ? parseMove(p.best).squares : null,
      });
    }
    const rows = [];
    for (let i = 0; i < game.moves.length; i += 2) {
      rows.push(h('li', {}, h('span', { class: 'no' }, `${i / 2 + 1}.`), cell(i), i + 1 < game.moves.length ? cell(i + 1) : null));
    }
    replace(list, rows);
    followShown();
    const moveNo = p ? `${Math.ceil(p.ply / 2)}${p.ply % 2 ? '.' : '…'} ` : '';
    const text = {
      loading: t('connecting'),
      try: p ? t(`learn.find.${p.color}`) : '',
      checking: t('learn.checking'),
      wrong: learn.verdict && learn.tried === p?.played ? t('learn.same')
        : learn.verdict ? t('learn.wrong', { judgement: t(`analysis.${learn.verdict.judgement}`) })
          : t(`error.${learn.error ?? 'internal'}`),
      good: t('learn.good'),
      shown: t('learn.shown'),
      done: t('learn.done', { found: learn.found, n: learn.list.length }),
      error: t(`error.${learn.error ?? 'internal'}`),
    }[status];
    const next = () => showLearn(learn.i + 1);
    const choosing = status === 'try' || status === 'wrong';
    // Under the board, in sight on a phone too: what to do, and the buttons.
    replace(controls,
      h('strong', { class: `learn-status ${status}`, 'data-learn-status': status, role: 'status', 'aria-live': 'polite' }, text),
      status !== 'done' && status !== 'error'
        ? h('span', { class: 'ply', 'data-learn-progress': `${Math.min(learn.i + 1, learn.list.length)}/${learn.list.length}` },
          t('learn.progress', { i: Math.min(learn.i + 1, learn.list.length), n: learn.list.length }))
        : null,
      choosing ? h('button', { class: 'btn text', 'data-action': 'learn-show', onclick: () => { learn.status = 'shown'; learn.tried = null; draw(); } }, t('learn.show')) : null,
      choosing ? h('button', { class: 'btn text', 'data-action': 'learn-skip', onclick: next }, t('learn.skip')) : null,
      status === 'good' || status === 'shown' ? h('button', { class: 'btn text primary', 'data-action': 'learn-next', onclick: next }, t('learn.next')) : null,
      status === 'done' || status === 'error'
        ? h('button', { class: 'btn text primary', 'data-action': 'learn-back', onclick: stopLearn }, t('learn.back'))
        : h('button', { class: 'btn text', 'data-action': 'learn-stop', onclick: stopLearn }, t('learn.stop')));
    replace(analysisBox,
      h('h3', {}, mySide() ? t('learn.title_mine') : t('learn.title')),
      p && status !== 'done' ? h('p', { class: 'meta', 'data-learn-ply': String(p.ply) },
        t('learn.played', { move: `${moveNo}${p.played}${SUFFIX[p.judgement]}`, judgement: t(`analysis.${p.judgement}`) })) : null,
      status === 'good' && learn.verdict && p?.best && p.best !== learn.tried
        ? h('p', { class: 'muted' }, t('learn.engine', { move: p.best })) : null,
      status === 'shown' && p?.best ? h('p', {}, t('analysis.best'), ': ', h('span', { class: 'mono', 'data-learn-best': p.best }, p.best)) : null,
    );
  }

  async function ask() {
    try {
      analysis = await api.requestAnalysis(game.id);
    } catch (err) {
      analysis = { error: err.code };
    }
    draw();
    follow();
  }

  // Polls a job until it is done.
  function follow() {
    clearTimeout(poll);
    if (gone || !analysis || analysis.error || analysis.status === 'done') return;
    poll = setTimeout(async () => {
      try {
        analysis = await api.analysis(game.id);
      } catch {
        // Tried again at the next turn.
      }
      if (gone) return;
      draw();
      follow();
    }, 1000);
  }

  function cell(i) {
    const m = game.moves[i];
    const opening = i < (game.opening_plies ?? 0);
    const judgement = analysis?.status === 'done' ? analysis.plies[i]?.judgement : null;
    return h('button', {
      class: `mv${i === at - 1 ? ' last' : ''}${opening ? ' opening' : ''}${judgement ? ` ${judgement}` : ''}`,
      'data-ply': String(m.ply),
      'aria-current': i === at - 1 ? 'step' : null,
      onclick: () => go(i + 1),
    }, m.move, judgement ? h('span', { class: 'judgement' }, SUFFIX[judgement]) : null, typeof m.used_ms === 'number'
      ? h('span', { class: 'used', 'data-used-ms': String(m.used_ms), title: t('replay.used', { s: formatUsed(m.used_ms) }) }, formatUsed(m.used_ms))
      : null);
  }

  // Seconds with one decimal under a minute, else m:ss (the time the mover thought).
  function formatUsed(ms) {
    if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
    const sec = Math.round(ms / 1000);
    return `${Math.floor(sec / 60)}:${String(sec % 60).padStart(2, '0')}`;
  }

  api.game(id).then(async (g) => {
    game = g;
    const variant = await api.variant(g.variant);
    board = new Board(variant, {
      label: (name) => name,
      title: t('replay.title'),
      onSquare: (sq) => onLearnSquare(sq),
    });
    boardWrap.replaceChildren(board.element);
    replace(head,
      h('h1', {}, `${playerName(t, g.white) || '?'} – ${playerName(t, g.black) || '?'}`),
      h('p', { class: 'lead' }, `${t.pick(variant.names, variant.id)} · ${timeControl(t, g.options)} · ${resultText(t, g)}`),
      // The opening ballot the game started from (the replay starts from its position).
      ballotLine(t, g.ballot),
      // A micro-match's game (issue 38): which of the two, the second linking the first.
      g.match ? h('p', { class: 'meta', 'data-replay-match': String(g.match.game) }, `${t('match.title')} · ${t('match.game', { n: g.match.game })}`,
        g.match.game === 2 ? [' · ', h('a', { href: href('game', g.match.id) }, t('match.game', { n: 1 }))] : null) : null,
      // A rated game: both players' rating changes (issue 23).
      g.ratings ? h('p', { class: 'meta', 'data-replay-ratings': '' }, t('option.rated'), ': ',
        ['white', 'black'].map((side, i) => [i ? ' · ' : '', `${playerName(t, g[side]) || '?'} ${changeText(g.ratings[side])}`])) : null,
      g.room ? h('a', { href: href('room', g.room) }, `← ${t('nav.back_room')}`) : null,
    );
    if (g.ended_at) {
      try {
        const found = await api.analysis(g.id);
        analysis = found.status === 'none' ? null : found; // 'none': never asked for
      } catch {
        analysis = null;
      }
    }
    go(g.moves.length);
    follow();
  }).catch((err) => {
    replace(head, h('h1', {}, t('replay.title')), h('p', { class: 'error', role: 'alert' }, t(`error.${err.code}`)));
  });

  return () => {
    gone = true;
    clearTimeout(poll);
    document.removeEventListener('keydown', onKey);
  };
}
