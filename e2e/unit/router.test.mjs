import { test } from 'node:test';
import assert from 'node:assert/strict';
import { href, parseRoute } from '../../static/js/router.js';
import { backoffDelay } from '../../static/js/socket.js';
import { displayXY, edgeLabels, isAlgebraic } from '../../static/js/board.js';

test('hash routes', () => {
  assert.deepEqual(parseRoute('#/room/russian'), { name: 'room', id: 'russian' });
  assert.deepEqual(parseRoute('#/table/t4k9q2'), { name: 'table', id: 't4k9q2' });
  assert.deepEqual(parseRoute('#/game/g%201'), { name: 'game', id: 'g 1' });
  assert.deepEqual(parseRoute('#/rules'), { name: 'rules', id: null });
  assert.deepEqual(parseRoute('#/rules/italian/'), { name: 'rules', id: 'italian' });
  assert.deepEqual(parseRoute(''), { name: 'lobby', id: null });
  assert.deepEqual(parseRoute('#/table'), { name: 'lobby', id: null });
  assert.deepEqual(parseRoute('#/nonsense/1'), { name: 'lobby', id: null });
  assert.equal(href('table', 'a b'), '#/table/a%20b');
  assert.equal(href('lobby'), '#/');
  assert.equal(href('rules'), '#/rules');
});

test('reconnect backoff doubles from 0.5 s to a 10 s cap with bounded jitter', () => {
  assert.equal(backoffDelay(0, 0), 500);
  assert.equal(backoffDelay(1, 0), 1000);
  assert.equal(backoffDelay(3, 0), 4000);
  assert.equal(backoffDelay(10, 0), 10000);
  assert.equal(backoffDelay(50, 0.999), 12997);
  assert.ok(backoffDelay(2, 0.5) > backoffDelay(2, 0));
});

test('board geometry: flipping and edge labels come from the square names', () => {
  const squares = [
    { name: 'a1', x: 0, y: 7 }, { name: 'b2', x: 1, y: 6 }, { name: 'h8', x: 7, y: 0 },
  ];
  assert.equal(isAlgebraic(squares), true);
  assert.equal(isAlgebraic([{ name: '1', x: 1, y: 0 }]), false);
  assert.deepEqual(displayXY(squares[0], 8, false), { x: 0, y: 7 });
  assert.deepEqual(displayXY(squares[0], 8, true), { x: 7, y: 0 });
  const white = edgeLabels(squares, 8, false);
  assert.equal(white.cols[0], 'a');
  assert.equal(white.rows[7], '1');
  const black = edgeLabels(squares, 8, true);
  assert.equal(black.cols[7], 'a', 'a-file on the right when seen from Black');
  assert.equal(black.rows[0], '1');
});
