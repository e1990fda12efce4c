import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyMessage, canMove, myColor, mySeat, nextPly, pendingAfterState, sameMove } from '../../static/js/tablestate.js';

const alice = { id: 'a', name: 'Alice' };
const bob = { id: 'b', name: 'Bob' };

function stateMsg(extra = {}) {
  return {
    t: 'state', v: 5,
    table: { id: 't1', room: 'russian', variant: 'russian' },
    you: { id: 'a', seat: 'white' },
    seats: { white: alice, black: bob },
    ready: { white: false, black: false },
    options: { minutes: 5, increment: 3, random_opening: false, capture_optional: false },
    presence: { white: true, black: true, spectators: 0 },
    status: 'playing', game_id: 'g1', white: alice, black: bob,
    initial_fen: 'W:W1:B2', opening_plies: 0, fen: 'W:W1:B2',
    moves: [], turn: 'white', legal: ['c3-d4', 'c3-b4'],
    clock: { white: 300000, black: 300000, running: 'white' },
    first_move_deadline: null, draw_offer: null, counters: [], result: null, reason: null,
    ...extra,
  };
}

test('a state message replaces everything', () => {
  const r = applyMessage(null, stateMsg());
  assert.equal(r.applied, true);
  assert.equal(r.state.v, 5);
  assert.equal(mySeat(r.state), 'white');
  assert.equal(canMove(r.state), true);
  assert.equal(nextPly(r.state), 1);
});

test('the next version applies; an old one is ignored; a gap asks for resync', () => {
  const s = applyMessage(null, stateMsg()).state;
  const move = { t: 'move', v: 6, ply: 1, move: 'c3-d4', by: 'white', captures: [], fen: 'B:Wd4:B2', turn: 'black', clock: { white: 299000, black: 300000, running: 'black' }, legal: ['f6-e5'], counters: [] };
  const r1 = applyMessage(s, move);
  assert.equal(r1.applied, true);
  assert.equal(r1.state.v, 6);
  assert.equal(r1.state.moves.length, 1);
  assert.equal(canMove(r1.state), false, 'black to move now');
  assert.equal(s.moves.length, 0, 'the old state is not mutated');
  const dup = applyMessage(r1.state, move);
  assert.equal(dup.applied, false);
  assert.equal(dup.resync, false);
  const gap = applyMessage(r1.state, { t: 'draw_offered', v: 8, by: 'black' });
  assert.deepEqual({ applied: gap.applied, resync: gap.resync }, { applied: false, resync: true });
  assert.equal(gap.state, r1.state);
});

test('an event before any state asks for one', () => {
  assert.equal(applyMessage(null, { t: 'presence', v: 3, white: true, black: false, spectators: 1 }).resync, true);
});

test('unversioned replies do not touch the state', () => {
  const s = applyMessage(null, stateMsg()).state;
  const r = applyMessage(s, { t: 'ack', ack: 1 });
  assert.equal(r.applied, false);
  assert.equal(r.state, s);
});

test('a move declines a standing draw offer; game_over stops play', () => {
  let s = applyMessage(null, stateMsg()).state;
  s = applyMessage(s, { t: 'draw_offered', v: 6, by: 'black' }).state;
  assert.equal(s.draw_offer, 'black');
  s = applyMessage(s, { t: 'move', v: 7, ply: 1, move: 'c3-d4', by: 'white', captures: [], fen: 'B:W1:B2', turn: 'black', clock: null, legal: [], counters: [] }).state;
  assert.equal(s.draw_offer, null);
  s = applyMessage(s, { t: 'game_over', v: 8, result: 'white', reason: 'resign', clock: { white: 1, black: 2, running: null } }).state;
  assert.equal(s.status, 'over');
  assert.equal(s.result, 'white');
  assert.deepEqual(s.legal, []);
  assert.equal(canMove(s), false);
});

test('seats swap between games: my colour follows my identity', () => {
  let s = applyMessage(null, stateMsg({ status: 'over', result: 'draw', reason: 'agreement' })).state;
  s = applyMessage(s, { t: 'ready', v: 6, seat: 'white' }).state;
  assert.equal(s.ready.white, true);
  s = applyMessage(s, {
    t: 'game_started', v: 7, id: 'g2', white: bob, black: alice, seats: { white: bob, black: alice },
    initial_fen: 'W:W1:B2', fen: 'W:W3:B2', opening: ['c3-d4', 'f6-e5'], turn: 'white', legal: ['x'], clock: null, counters: [],
  }).state;
  assert.equal(mySeat(s), 'black');
  assert.equal(myColor(s), 'black');
  assert.equal(s.moves.length, 2, 'random-opening plies are in the move list');
  assert.equal(nextPly(s), 3);
  assert.deepEqual(s.ready, { white: false, black: false });
  assert.equal(canMove(s), false);
});

test('a spectator has no colour and cannot move', () => {
  const s = applyMessage(null, stateMsg({ you: null })).state;
  assert.equal(myColor(s), null);
  assert.equal(canMove(s), false);
});

test('a pending move is resent after a reconnect only while the game waits for it', () => {
  const waiting = applyMessage(null, stateMsg()).state;
  assert.equal(pendingAfterState(waiting, { move: 'c3-d4', ply: 1 }), 'resend');
  const played = applyMessage(null, stateMsg({ moves: [{ ply: 1, move: 'c3-d4', captures: [] }], turn: 'black' })).state;
  assert.equal(pendingAfterState(played, { move: 'C3-D4', ply: 1 }), 'done');
  assert.equal(pendingAfterState(played, { move: 'c3-b4', ply: 1 }), 'drop');
  const over = applyMessage(null, stateMsg({ status: 'over', legal: [] })).state;
  assert.equal(pendingAfterState(over, { move: 'c3-d4', ply: 1 }), 'drop');
});

test('sameMove ignores separator spelling and case', () => {
  assert.equal(sameMove('C3:E5:C7', 'c3xe5xc7'), true);
  assert.equal(sameMove('c3-d4', 'c3-b4'), false);
});

test('random-opening plies in a state are marked as opening', () => {
  const s = applyMessage(null, stateMsg({
    opening_plies: 2,
    moves: [{ ply: 1, move: 'c3-d4' }, { ply: 2, move: 'f6-e5' }, { ply: 3, move: 'd4xf6' }],
  })).state;
  assert.deepEqual(s.moves.map((m) => m.opening), [true, true, false]);
  assert.deepEqual(s.moves[2].captures, [], 'a missing captures list reads as none');
  assert.equal(nextPly(s), 4);
});

test('a rated game_over puts the new ratings on the players (issue 39)', () => {
  const a = { ...alice, account: true, rating: 1500, provisional: true };
  const b = { ...bob, account: true, rating: 1720 };
  let s = applyMessage(null, stateMsg({ seats: { white: a, black: b }, white: a, black: b })).state;
  s = applyMessage(s, {
    t: 'game_over', v: 6, result: 'white', reason: 'resign', clock: null,
    ratings: { white: { before: 1500, after: 1662, provisional: true }, black: { before: 1720, after: 1701, provisional: false } },
  }).state;
  assert.equal(s.white.rating, 1662);
  assert.equal(s.white.provisional, true);
  assert.equal(s.seats.white.rating, 1662);
  assert.equal(s.black.rating, 1701);
  assert.equal('provisional' in s.black, false);
  // Without the flag (an older server), the player's own flag stays.
  s = applyMessage(null, stateMsg({ seats: { white: a, black: b }, white: a, black: b })).state;
  s = applyMessage(s, { t: 'game_over', v: 6, result: 'black', reason: 'resign', clock: null, ratings: { white: { before: 1500, after: 1338 }, black: { before: 1720, after: 1730 } } }).state;
  assert.equal(s.white.rating, 1338);
  assert.equal(s.white.provisional, true);
  // An unrated end changes nothing.
  s = applyMessage(null, stateMsg({ seats: { white: a, black: b }, white: a, black: b })).state;
  s = applyMessage(s, { t: 'game_over', v: 6, result: 'draw', reason: 'agreement', clock: null }).state;
  assert.equal(s.white.rating, 1500);
});

test('presence names the spectators with a session (issue 39)', () => {
  let s = applyMessage(null, stateMsg()).state;
  assert.deepEqual(s.presence.watchers, [], 'an older server: nobody named');
  const carol = { id: 'c', name: 'Carol' };
  s = applyMessage(s, { t: 'presence', v: 6, white: true, black: true, spectators: 2, watchers: [carol] }).state;
  assert.deepEqual(s.presence, { white: true, black: true, spectators: 2, watchers: [carol] });
  s = applyMessage(s, { t: 'presence', v: 7, white: true, black: false, spectators: 1 }).state;
  assert.deepEqual(s.presence.watchers, []);
  s = applyMessage(null, stateMsg({ presence: { white: true, black: true, spectators: 1, watchers: [carol] } })).state;
  assert.equal(s.presence.watchers[0].name, 'Carol');
});

test('the ballot a game started from is kept from state and from game_started (issue 38)', () => {
  const ballot = { id: 'fmjd64-07-13', name: 'FMJD-64 7-XIII', moves: ['e3-f4', 'b6-a5'] };
  assert.equal(applyMessage(null, stateMsg()).state.ballot, null);
  const s = applyMessage(null, stateMsg({ ballot, status: 'over' })).state;
  assert.deepEqual(s.ballot, ballot);
  // The next game draws another ballot; a game without one clears it.
  const next = { id: 'idf150-01-10', name: 'IDF 150 1-X', moves: [], arrangement: null };
  const started = { t: 'game_started', v: 6, id: 'g2', white: bob, black: alice, initial_fen: 'W:W2:B3', fen: 'W:W2:B3', opening: [], turn: 'white', legal: [], clock: null, counters: [], ballot: next };
  const r = applyMessage(s, started);
  assert.deepEqual(r.state.ballot, next);
  const plain = applyMessage(r.state, { ...started, v: 7, id: 'g3', ballot: undefined });
  assert.equal(plain.state.ballot, null);
});

test('a micro-match is kept from state, game_started and game_over (issue 38)', async () => {
  const { inMatchBreak } = await import('../../static/js/tablestate.js');
  const players = { white_first: alice, black_first: bob };
  const playing = { games: ['g1'], score: { white_first: 0, black_first: 0 }, players, status: 'playing' };
  let s = applyMessage(null, stateMsg({ match: playing })).state;
  assert.deepEqual(s.match, playing);
  assert.equal(inMatchBreak(s), false);
  // Game 1 over: the match is in its break; nobody leaves a seat then.
  const brk = { ...playing, score: { white_first: 1, black_first: 0 }, status: 'break', next_game_in: 15000 };
  s = applyMessage(s, { t: 'game_over', v: 6, result: 'white', reason: 'resign', clock: null, match: brk }).state;
  assert.deepEqual(s.match, brk);
  assert.equal(inMatchBreak(s), true);
  // Game 2 starts with the colours swapped.
  const second = { ...brk, games: ['g1', 'g2'], status: 'playing', next_game_in: undefined };
  const started = { t: 'game_started', v: 7, id: 'g2', white: bob, black: alice, initial_fen: 'W:W2:B3', fen: 'W:W2:B3', opening: [], turn: 'white', legal: [], clock: null, counters: [], match: second };
  s = applyMessage(s, started).state;
  assert.deepEqual(s.match.games, ['g1', 'g2']);
  assert.equal(inMatchBreak(s), false);
  // A table without micro-matches has none.
  assert.equal(applyMessage(null, stateMsg()).state.match, null);
});
