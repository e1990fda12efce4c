import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickSquare, exactMoves, movableFrom, nextSquares, parseMove } from '../../static/js/moves.js';

const russianCapture = ['c3xe5xg3', 'c3xe5xc7', 'a3xc5'];
const intlMoves = ['32-28', '32-27', '31-27', '31-26', '33-28', '33-29'];

test('parseMove splits on -, x and :', () => {
  assert.deepEqual(parseMove('32-28'), { text: '32-28', squares: ['32', '28'], capture: false });
  assert.deepEqual(parseMove('28x19x10').squares, ['28', '19', '10']);
  assert.deepEqual(parseMove('c3:e5:c7'), { text: 'c3:e5:c7', squares: ['c3', 'e5', 'c7'], capture: true });
  assert.equal(parseMove('C3xE5').squares[1], 'e5');
});

test('movable pieces are the start squares of legal moves', () => {
  assert.deepEqual([...movableFrom(intlMoves)].sort(), ['31', '32', '33']);
  assert.deepEqual([...movableFrom(russianCapture)].sort(), ['a3', 'c3']);
});

test('next squares follow only the legal continuations of a prefix', () => {
  assert.deepEqual([...nextSquares(intlMoves, ['32'])].sort(), ['27', '28']);
  assert.deepEqual([...nextSquares(russianCapture, ['c3'])], ['e5']);
  assert.deepEqual([...nextSquares(russianCapture, ['c3', 'e5'])].sort(), ['c7', 'g3']);
  assert.equal(nextSquares(russianCapture, ['c3', 'e5', 'c7']).size, 0);
  assert.equal(nextSquares(intlMoves, ['45']).size, 0);
});

test('a simple move is sent on the second click', () => {
  let r = clickSquare(intlMoves, [], '32');
  assert.deepEqual(r, { path: ['32'], send: null });
  r = clickSquare(intlMoves, r.path, '28');
  assert.deepEqual(r, { path: [], send: '32-28' });
});

test('a multi-capture is entered landing square by landing square', () => {
  let r = clickSquare(russianCapture, [], 'c3');
  assert.deepEqual(r.path, ['c3']);
  r = clickSquare(russianCapture, r.path, 'e5');
  assert.deepEqual(r, { path: ['c3', 'e5'], send: null }, 'the capture is not complete at e5');
  r = clickSquare(russianCapture, r.path, 'c7');
  assert.deepEqual(r, { path: [], send: 'c3xe5xc7' });
});

test('an illegal square mid-capture clears the path instead of sending', () => {
  const r = clickSquare(russianCapture, ['c3', 'e5'], 'a7');
  assert.deepEqual(r, { path: [], send: null });
});

test('skipping a landing square is not accepted', () => {
  const r = clickSquare(russianCapture, ['c3'], 'c7');
  assert.deepEqual(r, { path: [], send: null });
});

test('clicking another movable piece re-selects; clicking the selection again clears it', () => {
  let r = clickSquare(intlMoves, ['32'], '33');
  assert.deepEqual(r, { path: ['33'], send: null });
  r = clickSquare(intlMoves, r.path, '33');
  assert.deepEqual(r, { path: [], send: null });
  r = clickSquare(intlMoves, [], '40');
  assert.deepEqual(r, { path: [], send: null }, 'a piece without moves is not selected');
});

test('a king landing again on its start square continues the capture', () => {
  // A flying king's circular capture can pass its own start square (International).
  const legal = ['28x37x26', '28x39x17x28x6'];
  let r = clickSquare(legal, [], '28');
  r = clickSquare(legal, r.path, '39');
  r = clickSquare(legal, r.path, '17');
  r = clickSquare(legal, r.path, '28');
  assert.deepEqual(r, { path: ['28', '39', '17', '28'], send: null });
  r = clickSquare(legal, r.path, '6');
  assert.equal(r.send, '28x39x17x28x6');
});

test('ambiguity: two routes sharing a prefix stay open until they diverge', () => {
  const legal = ['10x19x28x37', '10x19x28x39'];
  let r = { path: [] };
  for (const sq of ['10', '19', '28']) r = clickSquare(legal, r.path, sq);
  assert.deepEqual(r, { path: ['10', '19', '28'], send: null });
  assert.deepEqual([...nextSquares(legal, r.path)].sort(), ['37', '39']);
  assert.equal(clickSquare(legal, r.path, '39').send, '10x19x28x39');
});

test('a path that is both a full move and a prefix ends where the player stopped', () => {
  const legal = ['a1xc3', 'a1xc3xe5'];
  assert.deepEqual(exactMoves(legal, ['a1', 'c3']), ['a1xc3']);
  assert.equal(clickSquare(legal, ['a1'], 'c3').send, 'a1xc3');
});

test('the server spelling is sent as given', () => {
  const r = clickSquare(['C3:E5'], ['c3'], 'E5');
  assert.equal(r.send, 'C3:E5');
});
