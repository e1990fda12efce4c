// Issue 22, item 2: the board by keyboard alone. From the board's tab stop the arrow keys
// reach every playing square (the test walks the whole board, 8x8 algebraic and numeric
// and 10x10, from Black's side too), and two players who use only the keyboard (Tab,
// arrows, Enter) play the opening and a two-piece capture, landing square by landing
// square.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { createTable, expectPiece, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';
import { LINES } from '../lib/flow.mjs';

const env = serverAndBrowser('keyboard');
const ARROWS = ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight'];

const active = (page) => page.evaluate(() => document.activeElement?.closest?.('[data-square]')?.dataset.square ?? null);

/** Tabs from the top of the page to the board's one tab stop; returns its square. */
async function tabToBoard(page) {
  await page.locator('main').focus();
  for (let i = 0; i < 60; i++) {
    await page.keyboard.press('Tab');
    const sq = await active(page);
    if (sq) return sq;
  }
  throw new Error('Tab never reaches the board');
}

/**
 * Walks the board with the arrow keys from the tab stop: every square reached, and the
 * square each arrow leads to from it (the keyboard's graph).
 */
async function walk(page) {
  const start = await tabToBoard(page);
  const graph = new Map();
  const todo = [start];
  while (todo.length) {
    const sq = todo.shift();
    if (graph.has(sq)) continue;
    const edges = {};
    for (const key of ARROWS) {
      // Back on `sq` (reached by arrows before), then one arrow.
      await page.locator(`[data-square="${sq}"]`).focus();
      await page.keyboard.press(key);
      const to = await active(page);
      assert.ok(to, `${key} from ${sq} keeps the focus on the board`);
      edges[key] = to;
      if (!graph.has(to)) todo.push(to);
    }
    graph.set(sq, edges);
  }
  return { start, graph };
}

/** The arrow keys from `from` to `to` over the walked graph (breadth first). */
function route(graph, from, to) {
  const prev = new Map([[from, null]]);
  const queue = [from];
  while (queue.length) {
    const sq = queue.shift();
    if (sq === to) break;
    for (const [key, next] of Object.entries(graph.get(sq))) {
      if (!prev.has(next)) {
        prev.set(next, [sq, key]);
        queue.push(next);
      }
    }
  }
  const keys = [];
  for (let at = to; prev.get(at); at = prev.get(at)[0]) keys.unshift(prev.get(at)[1]);
  return keys;
}

/** Enters a move with the keyboard only: arrows to each square of its path, Enter on each. */
async function keyMove(page, graph, move) {
  for (const sq of move.split(/[-x]/)) {
    const here = await active(page);
    for (const key of route(graph, here, sq)) await page.keyboard.press(key);
    assert.equal(await active(page), sq, `the arrows lead to ${sq}`);
    await page.keyboard.press('Enter');
  }
}

test('the arrow keys reach every square of 8x8 and 10x10 boards, from either side', { timeout: 180_000 }, async () => {
  const p = await newPlayer(env.browser);
  try {
    for (const [room, seat, count] of [['american', 'black', 32], ['russian', 'white', 32], ['russian', 'black', 32], ['international', 'white', 50]]) {
      await createTable(p, env.server.url, room, { seat });
      const all = await p.page.locator('[data-table] [data-square]').evaluateAll((els) => els.map((e) => e.dataset.square));
      assert.equal(all.length, count);
      const { graph } = await walk(p.page);
      const missing = all.filter((sq) => !graph.has(sq));
      assert.deepEqual(missing, [], `${room} as ${seat}: squares the arrows never reach`);
      // The board says how it is used.
      assert.match(await p.page.locator('[data-table] svg.board').getAttribute('aria-label'), /arrow/i);
      // Free the seat (a guest may sit at three tables at most).
      await p.page.locator('[data-action="stand"]').click();
      await p.page.locator('[data-action="sit"]').first().waitFor();
    }
    await screenshot(p.page, 'keyboard-board');
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

test('two keyboard-only players play the opening and a two-piece capture', { timeout: 120_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await startGame(alice, bob, env.server.url, 'russian');
    await waitStatus(alice.page, 'Your move');
    const graphs = new Map();
    for (const p of [alice, bob]) graphs.set(p, (await walk(p.page)).graph);
    const line = LINES.russian;
    const moves = [...line.opening, line.capture];
    for (const [i, move] of moves.entries()) {
      const mover = i % 2 === 0 ? alice : bob;
      await waitStatus(mover.page, 'Your move');
      // Back to the board's tab stop, then arrows and Enter only.
      await tabToBoard(mover.page);
      await keyMove(mover.page, graphs.get(mover), move);
      for (const p of [alice, bob]) await waitMoves(p.page, i + 1);
    }
    for (const p of [alice, bob]) {
      for (const sq of line.captured) await expectPiece(p.page, sq, null);
      await expectPiece(p.page, line.lands[0], line.lands[1]);
    }
    await screenshot(bob.page, 'keyboard-capture');
    assert.deepEqual([alice.errors, bob.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});
