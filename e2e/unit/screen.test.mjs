// The pure parts of the game screen: which sound a message calls for and the mute memory,
// the draw-offer limit, and the pieces jumped along an entered capture path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isMuted, lowTimeCrossed, setMuted, soundFor } from '../../static/js/sound.js';
import { DRAW_OFFER_PLIES, pliesPlayed, pliesUntilOffer } from '../../static/js/offers.js';
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

test('one draw offer per 10 plies, counted from the plies played at the last offer', () => {
  assert.equal(DRAW_OFFER_PLIES, 10);
  const at = (ply, opening = 0) => ({ opening_plies: opening, moves: ply ? [{ ply }] : [] });
  assert.equal(pliesPlayed(at(0, 3)), 3);
  assert.equal(pliesPlayed(at(7)), 7);
  assert.equal(pliesUntilOffer(at(2), null), 0);
  assert.equal(pliesUntilOffer(at(2), 2), 10);
  assert.equal(pliesUntilOffer(at(5), 2), 7);
  assert.equal(pliesUntilOffer(at(12), 2), 0);
  assert.equal(pliesUntilOffer(at(15), 2), 0);
  assert.equal(pliesUntilOffer(at(5), 2, 4), 1);
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
