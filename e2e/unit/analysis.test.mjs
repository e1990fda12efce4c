import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyseHref, parseRoute } from '../../static/js/router.js';
import { arrowGeometry } from '../../static/js/board.js';
import { evalNumber, evalText, GRAPH_CAP } from '../../static/js/evalgraph.js';
import { toFen } from '../../static/js/analyse.js';

const t = (key) => ({ 'analysis.win_white': 'White wins', 'analysis.win_black': 'Black wins' }[key] ?? key);

test('the analysis board route keeps its variant and FEN', () => {
  const hash = analyseHref('russian', 'W:Wc3,e3:Bd6');
  assert.deepEqual(parseRoute(hash), { name: 'analyse', id: null, variant: 'russian', fen: 'W:Wc3,e3:Bd6' });
  assert.deepEqual(parseRoute('#/analyse'), { name: 'analyse', id: null, variant: null, fen: null });
  assert.equal(analyseHref(), '#/analyse');
});

test('values as text and on the graph', () => {
  assert.equal(evalText(t, { eval: 35 }), '+0.35');
  assert.equal(evalText(t, { eval: -120 }), '−1.20');
  assert.equal(evalText(t, { eval: 0 }), '±0.00');
  assert.equal(evalText(t, { win: 'black' }), 'Black wins');
  assert.equal(evalNumber({ win: 'white' }), GRAPH_CAP);
  assert.equal(evalNumber({ eval: -9000 }), -GRAPH_CAP);
  assert.equal(evalNumber({ eval: 50 }), 50);
});

test('a position as FEN, squares in the variant order, kings marked', () => {
  const squares = ['1', '2', '3', '12', '22'].map((name) => ({ name }));
  const pieces = new Map([
    ['22', { color: 'white', king: false }],
    ['3', { color: 'black', king: true }],
    ['12', { color: 'black', king: false }],
    ['2', { color: 'white', king: true }],
  ]);
  assert.equal(toFen('white', pieces, squares), 'W:WK2,22:BK3,12');
  assert.equal(toFen('black', new Map(), squares), 'B:W:B');
});

test('the arrow ends short of the target square, its head at the end', () => {
  const g = arrowGeometry({ x: 0, y: 0 }, { x: 2, y: 2 }, 100);
  assert.deepEqual(g.shaft.slice(0, 2), [50, 50]);
  const [tip] = g.head;
  assert.ok(tip[0] < 250 && tip[0] > 200 && Math.abs(tip[0] - tip[1]) < 1e-9);
  assert.equal(arrowGeometry({ x: 1, y: 1 }, { x: 1, y: 1 }), null);
});
