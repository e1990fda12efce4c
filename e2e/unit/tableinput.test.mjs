// The table page's move entry and looking back (static/js/tableinput.js) and its
// tournament follower's decision (static/js/tablefollow.js), without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fensMissing, historyTarget, premoveClick, squareClicked, viewAt, viewedFen } from '../../static/js/tableinput.js';
import { nextAfter } from '../../static/js/tablefollow.js';

const t = (key, args) => (args ? `${key} ${JSON.stringify(args)}` : key);
const alice = { id: 'a', name: 'Alice' };
const bob = { id: 'b', name: 'Bob' };

// Russian, White (Alice) to move: men on c3 (White) and f6, b6 (Black).
function state(extra = {}) {
  return {
    you: { id: 'a', seat: 'white' }, seats: { white: alice, black: bob }, options: {},
    status: 'playing', game_id: 'g1', turn: 'white', fen: 'W:Wc3:Bf6,b6',
    legal: ['c3-d4', 'c3-b4'], moves: [], initial_fen: 'W:Wc3:Bf6,b6', opening_plies: 0,
    ...extra,
  };
}
const page = (extra = {}) => ({
  state: state(), path: [], pending: null, online: true, view: null, premove: null,
  premoveFrom: null, hint: null, fens: new Map(), ...extra,
});

test('a click on a piece then on its square makes the move', () => {
  const p = page();
  assert.deepEqual(squareClicked(p, 'c3', t), { move: null });
  assert.deepEqual(p.path, ['c3']);
  assert.deepEqual(squareClicked(p, 'd4', t), { move: 'c3-d4' });
});

test('no move while one waits for its ack, offline, or on the opponent\'s turn at one screen', () => {
  assert.equal(squareClicked(page({ pending: { move: 'c3-d4' } }), 'c3', t), null);
  assert.equal(squareClicked(page({ online: false }), 'c3', t), null);
  const spectator = page({ state: state({ you: null }) });
  assert.equal(squareClicked(spectator, 'c3', t), null);
});

test('a compulsory capture: a click on a piece that cannot take says why', () => {
  const p = page({ state: state({ fen: 'W:Wc3,a1:Bd4', legal: ['c3:e5'] }) });
  assert.deepEqual(squareClicked(p, 'a1', t), { move: null });
  assert.equal(p.hint, 'status.capture_compulsory');
  assert.deepEqual(p.path, []);
});

test('premoves: during the opponent\'s turn, a piece then a square; again cancels', () => {
  const p = page({ state: state({ turn: 'black', legal: ['f6-e5'] }) });
  assert.deepEqual(squareClicked(p, 'f6', t), { move: null });
  assert.equal(p.premoveFrom, null, 'not one of mine');
  squareClicked(p, 'c3', t);
  assert.equal(p.premoveFrom, 'c3');
  squareClicked(p, 'd4', t);
  assert.deepEqual([p.premove, p.premoveFrom], [['c3', 'd4'], null]);
  premoveClick(p, p.state, 'c3');
  assert.deepEqual([p.premove, p.premoveFrom], [null, 'c3'], 'the queued move goes, a new one starts');
});

test('looking back: a click on the board returns to the live position', () => {
  const moves = [{ ply: 1, move: 'c3-d4', fen: 'B:Wd4:Bf6,b6' }, { ply: 2, move: 'f6-e5' }];
  const p = page({ state: state({ moves }) });
  assert.equal(historyTarget(p, 'history-back'), 1);
  assert.equal(viewAt(p, 1), true, 'a move seen only in `state` has no position: fetched');
  assert.equal(viewedFen(p, p.state), 'B:Wd4:Bf6,b6', 'one that came with its move is shown at once');
  assert.equal(historyTarget(p, 'history-back'), 0);
  viewAt(p, 0);
  assert.equal(viewedFen(p, p.state), 'W:Wc3:Bf6,b6');
  assert.equal(historyTarget(p, 'history-to', { at: 2 }), 2);
  viewAt(p, 2);
  assert.equal(p.view, null, 'the last ply is the live position');
  viewAt(p, 1);
  assert.deepEqual(squareClicked(p, 'c3', t), { move: null });
  assert.equal(p.view, null);
  assert.deepEqual(p.path, [], 'that click moved nothing');
  assert.equal(fensMissing(p, p.state), true);
  p.fens.set(1, 'B:Wd4:Bf6,b6');
  p.fens.set(2, 'W:Wd4:Be5,b6');
  assert.equal(fensMissing(p, p.state), false);
  assert.equal(viewAt(p, -3), false);
  assert.equal(p.view, 0);
});

const over = state({ status: 'over' });
const tour = (extra) => ({ id: 'x1', status: 'running', rounds: [], ...extra });

test('a tournament table: the next pairing once the game is over, then off to its table', () => {
  const env = { t, now: 50, id: 't1', wasWaiting: false };
  assert.deepEqual(nextAfter(tour({}), state(), env), { next: null, go: null }, 'the game is still played');
  const next_round = { number: 2, pairings: [{ white: bob, black: alice }] };
  const waiting = nextAfter(tour({ next_round, next_round_in_ms: 9000 }), over, env);
  assert.deepEqual(waiting, {
    next: { number: 2, bye: false, color: 'black', opponent: 'Bob', ms: 9000, at: 50 },
    go: null,
  });
  const ready = tour({ rounds: [{ number: 2, pairings: [{ white: bob, black: alice, table: 't9', result: null, reason: null }] }] });
  assert.deepEqual(nextAfter(ready, over, { ...env, wasWaiting: true }).go, 't9');
  assert.equal(nextAfter(ready, over, env).go, null, 'only from the waiting line');
  const bye = nextAfter(tour({ next_round: { number: 3, bye: alice, pairings: [] } }), over, env);
  assert.equal(bye.next.bye, true);
});

test('a tournament table: the tournament\'s end', () => {
  const x = tour({ status: 'over', standings: [{ rank: 1, points: 4, player: alice }, { rank: 2, points: 2, player: bob }] });
  const r = nextAfter(x, over, { t, now: 0, id: 't1', wasWaiting: true });
  assert.equal(r.go, null);
  assert.match(r.next.over, /^tournament\.over_line winner\.one/);
});
