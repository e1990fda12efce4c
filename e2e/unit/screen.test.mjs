// The pure parts of the game screen: which sound a message calls for and the mute memory,
// the draw-offer limit, and the pieces jumped along an entered capture path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMuted, lowTimeCrossed, setMuted, soundFor } from '../../static/js/sound.js';
import { offerEvery, pliesPlayed, pliesUntilOffer } from '../../static/js/offers.js';
import { jumpedSquares } from '../../static/js/moves.js';

test('sounds: a move, a capture, the start and end, and only the opponent hears an offer', () => {
  assert.equal(soundFor({ t: 'move', captures: [] }, 'white'), 'move');
  assert.equal(soundFor({ t: 'move', captures: ['d4'] }, null), 'capture');
  assert.equal(soundFor({ t: 'game_started' }, null), 'start');
  assert.equal(soundFor({ t: 'game_over' }, 'black'), 'end');
  assert.equal(soundFor({ t: 'draw_offered', by: 'white' }, 'black'), 'offer');
  assert.equal(soundFor({ t: 'draw_offered', by: 'white' }, 'white'), null);
  assert.equal(soundFor({ t: 'draw_offered', by: 'white' }, null), null);
  assert.equal(soundFor({ t: 'presence' }, 'white'), null);
  assert.equal(lowTimeCrossed(false, true), true);
  assert.equal(lowTimeCrossed(true, true), false);
  assert.equal(lowTimeCrossed(true, false), false);
});

test('the mute switch is remembered, and a storage that throws does not break it', () => {
  const store = new Map();
  const storage = { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
  assert.equal(isMuted(storage), false);
  setMuted(true, storage);
  assert.equal(isMuted(storage), true);
  setMuted(false, storage);
  assert.equal(isMuted(storage), false);
  const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
  assert.equal(isMuted(broken), false);
  setMuted(true, broken);
});

test('the offer limit is the server\'s: plies until each player may offer again', () => {
  const limits = { plies: 4, draw: { white: 6, black: 0 }, takeback: { white: 0, black: 9 } };
  const at = (ply, opening = 0) => ({ opening_plies: opening, moves: ply ? [{ ply }] : [], offer_limits: limits });
  assert.equal(pliesPlayed(at(0, 3)), 3);
  assert.equal(pliesPlayed(at(7)), 7);
  assert.equal(offerEvery(at(2)), 4);
  assert.equal(pliesUntilOffer(at(2), 'white'), 4);
  assert.equal(pliesUntilOffer(at(5), 'white'), 1);
  assert.equal(pliesUntilOffer(at(6), 'white'), 0);
  assert.equal(pliesUntilOffer(at(2), 'black'), 0);
  assert.equal(pliesUntilOffer(at(2), 'black', 'takeback'), 7);
  assert.equal(pliesUntilOffer(at(2), 'white', 'takeback'), 0);
  // No limits known (no game yet): nothing to wait for.
  assert.equal(pliesUntilOffer({ moves: [] }, 'white'), 0);
});

test('the state follows the server\'s offer limits and who ended the game', () => {
  const alice = { id: 'a' };
  const bob = { id: 'b' };
  const limits = { plies: 4, draw: { white: 0, black: 0 }, takeback: { white: 0, black: 0 } };
  let { state } = applyMessage(null, { t: 'state', v: 1, you: { id: 'a' }, seats: { white: alice, black: bob }, status: 'playing', white: alice, black: bob, fen: 'W:W:B', moves: [], turn: 'white', offer_limits: limits });
  ({ state } = applyMessage(state, { t: 'draw_offered', v: 2, by: 'white', next: 6 }));
  ({ state } = applyMessage(state, { t: 'takeback_offered', v: 3, by: 'black', next: 7 }));
  assert.deepEqual(state.offer_limits, { plies: 4, draw: { white: 6, black: 0 }, takeback: { white: 0, black: 7 } });
  ({ state } = applyMessage(state, { t: 'game_over', v: 4, result: null, reason: 'aborted', by: 'black' }));
  assert.equal(state.ended_by, 'black');
  ({ state } = applyMessage(state, { t: 'game_started', v: 5, id: 'g2', white: bob, black: alice, seats: { white: bob, black: alice }, fen: 'W:W:B', turn: 'white' }));
  assert.equal(state.ended_by, null);
  assert.deepEqual(state.offer_limits, { plies: 4, draw: { white: 0, black: 0 }, takeback: { white: 0, black: 0 } });
});

// An 8x8 board with algebraic names: a1 at the bottom left (x 0, y 7).
const squares = [];
for (let y = 0; y < 8; y++) {
  for (let x = 0; x < 8; x++) {
    if ((x + y) % 2 === 1) squares.push({ name: `${'abcdefgh'[x]}${8 - y}`, x, y });
  }
}

test('the pieces jumped along a capture path, for men and flying kings', () => {
  const pieces = new Map([
    ['a5', { color: 'black', king: false }],
    ['b4', { color: 'white', king: false }],
    ['d4', { color: 'white', king: false }],
    ['f2', { color: 'black', king: false }],
  ]);
  assert.deepEqual(jumpedSquares(squares, ['a5'], pieces), []);
  assert.deepEqual(jumpedSquares(squares, ['a5', 'c3'], pieces), ['b4']);
  assert.deepEqual(jumpedSquares(squares, ['a5', 'c3', 'e5'], pieces), ['b4', 'd4']);
  // A flying king jumps from afar; its own pieces on the way are not marked.
  const king = new Map([
    ['h8', { color: 'white', king: true }],
    ['e5', { color: 'black', king: false }],
    ['g7', { color: 'white', king: false }],
  ]);
  assert.deepEqual(jumpedSquares(squares, ['h8', 'c3'], king), ['e5']);
  // No piece where the path starts: nothing to mark.
  assert.deepEqual(jumpedSquares(squares, ['c1', 'e3'], king), []);
});

import { addChat, applyPeople, CHAT_MAX, chatText, claimLeft, mutedIds, setPersonMuted, sortPeople, splitChat, visibleChat } from '../../static/js/chat.js';
import { applyMessage, rematchRequest } from '../../static/js/tablestate.js';

const memory = () => {
  const store = new Map();
  return { getItem: (k) => store.get(k) ?? null, setItem: (k, v) => store.set(k, v), removeItem: (k) => store.delete(k) };
};

test('chat: the 300-character limit, history and live events once each, the last 100 kept', () => {
  assert.equal(chatText('  hi  '), 'hi');
  assert.equal(chatText('   '), null);
  assert.equal(chatText('x'.repeat(CHAT_MAX)), 'x'.repeat(300));
  assert.equal(chatText('x'.repeat(CHAT_MAX + 1)), null);
  // Characters, not UTF-16 units: 300 emoji-free Polish letters pass.
  assert.equal(chatText('ż'.repeat(300)), 'ż'.repeat(300));
  const a = { id: 1, from: { id: 'g1' }, text: 'a' };
  const b = { id: 2, from: { id: 'g2' }, text: 'b' };
  let log = addChat([], [a, b]);
  log = addChat(log, [b, { id: 3, from: { id: 'g1' }, text: 'c' }]);
  assert.deepEqual(log.map((m) => m.id), [1, 2, 3]);
  const many = Array.from({ length: 150 }, (_, i) => ({ id: 10 + i, from: { id: 'g' }, text: String(i) }));
  const kept = addChat(log, many);
  assert.equal(kept.length, 100);
  assert.equal(kept.at(-1).id, 159);
});

test('chat: muted people are hidden and remembered; spectators are kept apart', () => {
  const storage = memory();
  assert.equal(mutedIds(storage).size, 0);
  setPersonMuted('g2', true, storage);
  const log = [{ id: 1, from: { id: 'g1' } }, { id: 2, from: { id: 'g2' } }, { id: 3, from: { id: 'g3' }, spectators: true }];
  assert.deepEqual(visibleChat(log, mutedIds(storage)).map((m) => m.id), [1, 3]);
  setPersonMuted('g2', false, storage);
  assert.equal(visibleChat(log, mutedIds(storage)).length, 3);
  const { players, spectators } = splitChat(log);
  assert.deepEqual(players.map((m) => m.id), [1, 2]);
  assert.deepEqual(spectators.map((m) => m.id), [3]);
});

test('people: the room list, joins, moves to a table and leaves', () => {
  let people = applyPeople([], { t: 'room', people: [{ id: 'a', name: 'Ala', where: 'room', table: null }] });
  people = applyPeople(people, { t: 'people_joined', person: { id: 'b', name: 'Bob', where: 'room', table: null } });
  people = applyPeople(people, { t: 'people_updated', person: { id: 'a', where: 'playing', table: 't1' } });
  assert.deepEqual(people.find((p) => p.id === 'a'), { id: 'a', name: 'Ala', where: 'playing', table: 't1' });
  assert.deepEqual(sortPeople(people).map((p) => p.id), ['a', 'b']);
  people = applyPeople(people, { t: 'people_left', id: 'a' });
  assert.deepEqual(people.map((p) => p.id), ['b']);
  assert.equal(applyPeople(people, { t: 'table_added' }), null);
});

test('claims: the countdown from claim_at', () => {
  assert.equal(claimLeft(null, 0), null);
  assert.equal(claimLeft({ ms: 30_000, at: 1000 }, 1000), 30);
  assert.equal(claimLeft({ ms: 30_000, at: 1000 }, 21_500), 10);
  assert.equal(claimLeft({ ms: 30_000, at: 1000 }, 40_000), 0);
});

test('rematch: the opponent pressing Start after a game is a request', () => {
  const alice = { id: 'a', name: 'Alice' };
  const bob = { id: 'b', name: 'Bob' };
  let { state } = applyMessage(null, {
    t: 'state', v: 5, you: { id: 'a' }, seats: { white: alice, black: bob }, ready: {}, status: 'over',
    white: alice, black: bob, fen: 'W:W:B', moves: [], result: 'white', reason: 'resign',
  });
  assert.equal(rematchRequest(state), null);
  ({ state } = applyMessage(state, { t: 'ready', v: 6, seat: 'black' }));
  assert.equal(rematchRequest(state), 'black');
  ({ state } = applyMessage(state, { t: 'ready', v: 7, seat: 'white' }));
  assert.equal(rematchRequest(state), null);
});

test('takeback: an offer stands until declined or a move', () => {
  const alice = { id: 'a' };
  const bob = { id: 'b' };
  let { state } = applyMessage(null, { t: 'state', v: 1, you: { id: 'a' }, seats: { white: alice, black: bob }, status: 'playing', white: alice, black: bob, fen: 'W:W:B', moves: [], turn: 'white' });
  ({ state } = applyMessage(state, { t: 'takeback_offered', v: 2, by: 'black' }));
  assert.equal(state.takeback_offer, 'black');
  ({ state } = applyMessage(state, { t: 'takeback_declined', v: 3, by: 'white' }));
  assert.equal(state.takeback_offer, null);
});

import { takebackPlies } from '../../static/js/offers.js';

test('takeback: never the first moves, the reply too when made', () => {
  const at = (ply, turn, opening = 0) => ({ opening_plies: opening, turn, moves: ply ? [{ ply }] : [] });
  // White moved, Black replied: White asks to undo both; too early before the third ply.
  assert.equal(takebackPlies(at(2, 'white'), 'white'), 0);
  assert.equal(takebackPlies(at(3, 'black'), 'white'), 1);
  assert.equal(takebackPlies(at(4, 'white'), 'white'), 2);
  assert.equal(takebackPlies(at(4, 'white'), 'black'), 1);
  // Opening plies do not count as the players' moves.
  assert.equal(takebackPlies(at(6, 'white', 4), 'black'), 0);
  assert.equal(takebackPlies(at(7, 'black', 4), 'white'), 1);
});
