// The game screen fits: on a 1366x768 and a 1280x720 laptop and a 360x740 phone, the
// board, both clocks, the status line and every action button of a running game are
// inside the viewport without scrolling. Screenshots of each size go to e2e/artifacts.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { ARTIFACTS, newPlayer, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, playMove, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('layout');

/** The boxes that must be visible, by name. */
async function boxes(page) {
  const out = {};
  out.board = await page.locator('[data-table] svg.board').boundingBox();
  out['white clock'] = await page.locator('[data-clock="white"]').boundingBox();
  out['black clock'] = await page.locator('[data-clock="black"]').boundingBox();
  out.status = await page.locator('[data-status]').boundingBox();
  const buttons = page.locator('[data-controls] button:visible');
  const n = await buttons.count();
  assert.ok(n >= 3, `at least draw, resign and abort are shown (got ${n})`);
  for (let i = 0; i < n; i++) {
    const b = buttons.nth(i);
    out[`button ${(await b.getAttribute('data-action')) ?? i}`] = await b.boundingBox();
  }
  return out;
}

async function assertFits(page, size, tag) {
  await page.setViewportSize(size);
  // The layout settles after the resize (one frame).
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.evaluate(() => window.scrollTo(0, 0));
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: path.join(ARTIFACTS, `layout-${tag}.png`), animations: 'disabled' });
  const all = await boxes(page);
  for (const [name, b] of Object.entries(all)) {
    assert.ok(b, `${name} is laid out at ${tag}`);
    assert.ok(b.x >= 0 && b.y >= 0 && b.x + b.width <= size.width + 0.5 && b.y + b.height <= size.height + 0.5,
      `${name} ${JSON.stringify(b)} inside ${size.width}x${size.height} at ${tag}`);
  }
  // The board is not shrunk to a stamp to make it fit.
  const min = Math.min(size.width - 24, size.height * 0.6);
  assert.ok(all.board.width >= min, `board ${Math.round(all.board.width)} px wide at ${tag}, at least ${Math.round(min)}`);
}

test('the game screen fits 1366x768 and 1280x720 laptops', { timeout: 90_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    await startGame(alice, bob, env.server.url, 'international');
    await waitStatus(alice.page, 'Your move');
    await alice.page.locator('[data-action="draw-offer"]').waitFor();
    await assertFits(alice.page, { width: 1366, height: 768 }, '1366x768');
    await assertFits(alice.page, { width: 1280, height: 720 }, '1280x720');
    // Black's view, with the draw prompt, fits too (a draw is offered once both moved).
    await playMove(alice, '31-26');
    await waitMoves(bob.page, 1);
    await playMove(bob, '18-22');
    await waitMoves(alice.page, 2);
    await alice.page.locator('[data-action="draw-offer"]').click();
    await bob.page.locator('[data-prompt="draw"] [data-action="draw-accept"]').waitFor();
    await assertFits(bob.page, { width: 1366, height: 768 }, '1366x768-black-draw-prompt');
    await assertFits(bob.page, { width: 1280, height: 720 }, '1280x720-black-draw-prompt');
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('the game screen fits a 360x740 phone', { timeout: 90_000 }, async () => {
  const alice = await newPlayer(env.browser, { phone: true });
  const bob = await newPlayer(env.browser, { phone: true });
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    await startGame(alice, bob, env.server.url, 'international');
    await waitStatus(alice.page, 'Your move');
    await alice.page.locator('[data-action="draw-offer"]').waitFor();
    await assertFits(alice.page, { width: 360, height: 740 }, '360x740');
    // The opponent's screen with the draw prompt (two more buttons) fits too (a draw is
    // offered once both moved).
    await playMove(alice, '31-26');
    await waitMoves(bob.page, 1);
    await playMove(bob, '18-22');
    await waitMoves(alice.page, 2);
    await alice.page.locator('[data-action="draw-offer"]').tap();
    await bob.page.locator('[data-prompt="draw"] [data-action="draw-accept"]').waitFor();
    await assertFits(bob.page, { width: 360, height: 740 }, '360x740-draw-prompt');
    // After a few moves the player has every button: takeback request, the (waiting)
    // draw offer, resign, flip and sound.
    await bob.page.locator('[data-action="draw-decline"]').tap();
    await playMove(alice, '34-29');
    await alice.page.locator('[data-action="takeback-offer"]').waitFor();
    await assertFits(alice.page, { width: 360, height: 740 }, '360x740-after-move');
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});
