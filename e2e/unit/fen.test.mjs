import { test } from 'node:test';
import assert from 'node:assert/strict';
import { material, parseFen, pieceName } from '../../static/js/fen.js';

test('numeric FEN with ranges and kings', () => {
  const { turn, pieces } = parseFen('W:W21,22,K25:B1-12');
  assert.equal(turn, 'white');
  assert.equal(pieces.size, 15);
  assert.deepEqual(pieces.get('25'), { color: 'white', king: true });
  assert.deepEqual(pieces.get('12'), { color: 'black', king: false });
  assert.equal(pieces.has('13'), false);
});

test('international start position', () => {
  const { pieces } = parseFen('W:W31-50:B1-20');
  assert.deepEqual(material(pieces), { white: 20, black: 20 });
});

test('algebraic FEN, black to move, lists in any order', () => {
  const { turn, pieces } = parseFen('B:BKh8,a7:Wc3,Ke1');
  assert.equal(turn, 'black');
  assert.equal(pieceName(pieces.get('h8')), 'black-king');
  assert.equal(pieceName(pieces.get('a7')), 'black-man');
  assert.equal(pieceName(pieces.get('e1')), 'white-king');
  assert.equal(pieceName(pieces.get('c3')), 'white-man');
});

test('empty sides, suffixes and a trailing dot are tolerated', () => {
  assert.equal(parseFen('W:W:B').pieces.size, 0);
  assert.equal(parseFen('B:W18:B14:H0:F1').pieces.size, 2);
  assert.equal(parseFen('W:W1,2:B3.').pieces.get('3').color, 'black');
});

test('a string without a side to move is rejected', () => {
  assert.throws(() => parseFen(''), /bad FEN/);
  assert.throws(() => parseFen('X:W1:B2'), /bad FEN/);
});

test('fields that are neither a side nor a counter are stray', () => {
  assert.deepEqual(parseFen('B:W18:B14:H0:F1').stray, []);
  assert.deepEqual(parseFen('W:W31:31B').stray, ['31B']);
  assert.deepEqual(parseFen('W:W31:B1:').stray, []);
  assert.deepEqual(parseFen('W:W31:21,22').stray, ['21,22']);
});
