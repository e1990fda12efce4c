// Puzzles (`#/puzzles/{variant}`: the next one for this player; `#/puzzle/{id}`: one
// puzzle, the day's from the start page): find the winning line, one move at a time.
// The server holds the solution (docs/protocol.md "Puzzles"): each move goes to it, it
// answers with the opponent's reply (and any forced moves), and only once the solver
// finishes or gives up does it send the solution. The first try is rated; a wrong move
// may be tried again, unrated. A streak (unrated, as lichess's): puzzles of rising
// ratings one after the other until the first wrong move; the best streak per variant
// is kept in the browser.

import * as api from './api.js';
import { Board } from './board.js';
import { h, replace } from './dom.js';
import { parseFen } from './fen.js';
import { clickSquare, nextSquares, parseMove } from './moves.js';
import { analyseHref, href } from './router.js';
import { preferredVariant, rememberVariant } from './homevariant.js';

/** Mounts the puzzle page; returns its unmount function. */
export function mount(root, { route, ctx }) {
  const { t } = ctx;
  let gone = false;
  const page = {
    variants: [],
    counts: [],
    theme: null,
    variant: null,
    board: null,
    puzzle: null,
    fen: null,
    legal: [],
    path: [],
    sent: [],
    last: [],
    // solving | good | wrong | solved | shown | none | error
    status: 'loading',
    firstTry: true,
    change: null,
    solution: null,
    busy: false,
    error: null,
    // A streak: {ids, i, score}; null for rated puzzles.
    streak: null,
  };

  const boardWrap = h('div', { class: 'board-wrap' });
  const variantSelect = h('select', { 'data-variant-select': '', 'aria-label': t('analyse.variant'), onchange: () => { location.hash = href('puzzles', variantSelect.value); } });
  const themeSelect = h('select', { 'data-theme-select': '', 'aria-label': t('puzzle.theme'), onchange: () => { page.theme = themeSelect.value || null; next(); } });
  const card = h('section', { class: 'card puzzle-card', 'data-puzzle-card': '', 'aria-live': 'polite' });
  const streakButton = h('button', { class: 'btn', 'data-action': 'streak-start', onclick: () => startStreak() }, t('puzzle.streak'));
  replace(root, h('div', { class: 'table-page replay-page puzzle-page' },
    h('div', { class: 'replay-head-wrap' }, h('section', { class: 'replay-head' },
      h('h1', {}, t('puzzle.title')), h('p', { class: 'lead' }, t('puzzle.lead')))),
    h('div', { class: 'play' }, boardWrap),
    h('aside', { class: 'side' }, card,
      h('section', { class: 'card puzzle-choice' },
        h('label', {}, t('analyse.variant'), ' ', variantSelect),
        h('label', {}, t('puzzle.theme'), ' ', themeSelect),
        h('p', { class: 'muted small' }, t('puzzle.streak_help')),
        streakButton)),
  ));

  async function load() {
    try {
      [page.variants, page.counts] = await Promise.all([api.variants(), api.puzzleCounts()]);
      let puzzle;
      if (route.name === 'puzzle') {
        puzzle = await api.puzzle(route.id);
      } else {
        const want = route.id ?? preferredVariant(ctx.lang, page.variants.map((v) => v.id));
        puzzle = await api.nextPuzzle(want);
      }
      if (gone) return;
      start(puzzle);
    } catch (err) {
      if (gone) return;
      page.status = err.code === 'not_found' && route.name === 'puzzles' ? 'none' : 'error';
      page.error = err.code;
      page.variant = page.variants.find((v) => v.id === route.id) ?? null;
      draw();
    }
  }

  function start(puzzle) {
    page.puzzle = puzzle;
    page.variant = page.variants.find((v) => v.id === puzzle.variant);
    rememberVariant(puzzle.variant);
    page.fen = puzzle.fen;
    page.legal = puzzle.legal;
    page.path = [];
    page.sent = [];
    page.last = [];
    page.status = 'solving';
    page.firstTry = true;
    page.change = null;
    page.solution = null;
    page.board = new Board(page.variant, {
      title: t('board.keys'),
      onSquare: (sq) => onSquare(sq),
      label: (name, piece) => (piece ? t('square.piece', { name, piece: t(`piece.${piece.color}-${piece.king ? 'king' : 'man'}`) }) : t('square.empty', { name })),
    });
    // The solver's side at the bottom.
    page.solver = parseFen(puzzle.fen).turn;
    page.board.setFlipped(page.solver === 'black');
    boardWrap.replaceChildren(page.board.element);
    draw();
  }

  const solving = () => page.status === 'solving' || page.status === 'good' || page.status === 'wrong';

  async function onSquare(sq) {
    if (!solving() || page.busy) return;
    const { path, send: move } = clickSquare(page.legal, page.path, sq);
    page.path = path;
    if (!move) {
      draw();
      return;
    }
    page.path = [];
    page.busy = true;
    const before = page.fen;
    page.sent.push(move);
    draw();
    let answer;
    try {
      answer = await api.puzzleMove(page.puzzle.id, page.sent);
    } catch (err) {
      page.sent.pop();
      page.busy = false;
      page.error = err.code;
      draw();
      return;
    }
    if (gone) return;
    page.busy = false;
    page.error = null;
    if (!answer.ok) {
      page.sent.pop();
      page.fen = before;
      page.last = parseMove(move).squares;
      if (page.streak) {
        endStreak();
        return;
      }
      page.status = 'wrong';
      if (page.firstTry) {
        page.firstTry = false;
        await result(false);
      }
      draw();
      return;
    }
    const moves = [move, ...answer.replies];
    page.last = parseMove(moves[moves.length - 1]).squares;
    page.fen = answer.fen;
    page.legal = answer.legal;
    if (answer.solved && page.streak) {
      streakSolved();
    } else if (answer.solved) {
      page.status = 'solved';
      await result(page.firstTry);
    } else {
      page.status = 'good';
    }
    draw();
  }

  async function result(solved) {
    try {
      const r = await api.puzzleResult(page.puzzle.id, solved);
      page.change = page.change ?? r.rating;
      page.solution = r.solution;
    } catch (err) {
      page.error = err.code;
    }
  }

  // The best streak of a variant, kept in this browser.
  const bestKey = (variant) => `damka.streak.${variant}`;
  function bestStreak(variant) {
    return Number(localStorage.getItem(bestKey(variant)) ?? 0) || 0;
  }

  async function startStreak() {
    const variant = page.puzzle?.variant ?? page.variant?.id ?? route.id;
    page.status = 'loading';
    draw();
    try {
      const { puzzles } = await api.puzzleStreak(variant);
      page.streak = { ids: puzzles, i: 0, score: 0, variant };
      start(await api.puzzle(puzzles[0]));
    } catch (err) {
      page.streak = null;
      page.status = 'error';
      page.error = err.code;
      draw();
    }
  }

  function endStreak() {
    const st = page.streak;
    if (st.score > bestStreak(st.variant)) localStorage.setItem(bestKey(st.variant), String(st.score));
    page.status = 'streak_over';
    draw();
  }

  function streakSolved() {
    const st = page.streak;
    st.score += 1;
    if (st.score > bestStreak(st.variant)) localStorage.setItem(bestKey(st.variant), String(st.score));
    page.status = 'solved';
    draw();
    if (st.i + 1 >= st.ids.length) {
      page.status = 'streak_done';
      draw();
      return;
    }
    // The next one after a moment to see the last move.
    setTimeout(async () => {
      if (gone || page.streak !== st) return;
      st.i += 1;
      try {
        start(await api.puzzle(st.ids[st.i]));
      } catch (err) {
        page.status = 'error';
        page.error = err.code;
        draw();
      }
    }, 700);
  }

  function stopStreak() {
    page.streak = null;
    next();
  }

  async function giveUp() {
    if (page.streak) {
      endStreak();
      return;
    }
    if (page.firstTry) page.firstTry = false;
    await result(false);
    page.status = 'shown';
    draw();
  }

  async function next() {
    page.streak = null;
    page.status = 'loading';
    draw();
    try {
      start(await api.nextPuzzle(page.puzzle?.variant ?? route.id, page.theme));
    } catch (err) {
      page.status = err.code === 'not_found' ? 'none' : 'error';
      page.error = err.code;
      draw();
    }
  }

  function retry() {
    page.fen = page.puzzle.fen;
    page.legal = page.puzzle.legal;
    page.sent = [];
    page.path = [];
    page.last = [];
    page.status = 'solving';
    draw();
  }

  function draw() {
    const vid = page.variant?.id ?? route.id;
    replace(variantSelect, page.variants.map((v) => h('option', { value: v.id, selected: v.id === vid ? '' : null }, t.pick(v.names, v.id))));
    const themes = page.counts.find((c) => c.variant === vid)?.themes ?? {};
    replace(themeSelect,
      h('option', { value: '', selected: page.theme ? null : '' }, t('puzzle.theme.all')),
      Object.entries(themes).map(([th, n]) => h('option', { value: th, selected: page.theme === th ? '' : null }, `${t(`puzzle.theme.${th}`)} (${n})`)));
    const p = page.puzzle;
    if (page.board && p) {
      const pieces = parseFen(page.fen).pieces;
      const mine = solving() && !page.busy;
      page.board.render({
        pieces,
        path: page.path,
        targets: mine && page.path.length ? nextSquares(page.legal, page.path) : new Set(),
        movable: mine && !page.path.length ? nextSquares(page.legal, []) : new Set(),
        last: page.last,
      });
    }
    const status = {
      loading: t('connecting'),
      solving: p ? t(`puzzle.find.${page.solver}`) : '',
      good: t('puzzle.good'),
      wrong: t('puzzle.wrong'),
      solved: t('puzzle.solved'),
      shown: t('puzzle.shown'),
      none: t('puzzle.none'),
      error: t(`error.${page.error ?? 'internal'}`),
      streak_over: t('puzzle.streak_over', { n: page.streak?.score ?? 0 }),
      streak_done: t('puzzle.streak_done', { n: page.streak?.score ?? 0 }),
    }[page.status];
    const st = page.streak;
    const streakEnd = page.status === 'streak_over' || page.status === 'streak_done';
    const over = !st && (page.status === 'solved' || page.status === 'shown');
    streakButton.hidden = !!st;
    replace(card,
      h('p', { class: `status puzzle-status ${page.status}`, 'data-puzzle-status': page.status, role: 'status' }, status),
      st ? h('p', { class: 'meta puzzle-streak', 'data-streak': String(st.score) },
        h('strong', {}, t('puzzle.streak_score', { n: st.score })), ' · ', t('puzzle.streak_best', { n: bestStreak(st.variant) })) : null,
      p ? h('p', { class: 'meta' },
        h('span', { 'data-puzzle-rating': String(p.rating) }, t('puzzle.rating', { n: p.rating })),
        p.themes.length ? ` · ${p.themes.map((th) => t(`puzzle.theme.${th}`)).join(', ')}` : '') : null,
      page.change ? h('p', { class: 'puzzle-change', 'data-puzzle-change': `${page.change.before}>${page.change.after}` },
        t('puzzle.your_rating', { before: page.change.before, after: page.change.after }),
        ' ', h('span', { class: page.change.after >= page.change.before ? 'up' : 'down' }, signed(page.change.after - page.change.before))) : null,
      page.solution && over ? h('p', { class: 'puzzle-solution', 'data-puzzle-solution': '' }, t('puzzle.solution'), ' ', h('span', { class: 'moves-text' }, page.solution.join(' '))) : null,
      page.error && page.status !== 'error' ? h('p', { class: 'form-msg error', role: 'alert' }, t(`error.${page.error}`)) : null,
      h('div', { class: 'actions' },
        page.status === 'wrong' ? h('button', { class: 'btn primary', 'data-action': 'puzzle-retry', onclick: retry }, t('puzzle.retry')) : null,
        solving() && p && !st ? h('button', { class: 'btn', 'data-action': 'puzzle-give-up', onclick: giveUp }, t('puzzle.show')) : null,
        solving() && p && st ? h('button', { class: 'btn', 'data-action': 'streak-give-up', onclick: giveUp }, t('puzzle.streak_give_up')) : null,
        streakEnd ? h('button', { class: 'btn primary', 'data-action': 'streak-start', onclick: () => startStreak() }, t('puzzle.streak_again')) : null,
        streakEnd ? h('button', { class: 'btn', 'data-action': 'streak-stop', onclick: stopStreak }, t('puzzle.streak_stop')) : null,
        streakEnd && p ? h('a', { class: 'btn', href: analyseHref(p.variant, p.fen), 'data-action': 'puzzle-analyse' }, t('puzzle.analyse')) : null,
        over ? h('button', { class: 'btn primary', 'data-action': 'puzzle-next', onclick: next }, t('puzzle.next')) : null,
        over && p ? h('a', { class: 'btn', href: analyseHref(p.variant, p.fen), 'data-action': 'puzzle-analyse' }, t('puzzle.analyse')) : null,
      ),
    );
  }

  load();
  return () => {
    gone = true;
  };
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}
