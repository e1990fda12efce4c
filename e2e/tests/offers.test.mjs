// The offer limit comes from the server: with `--draw-offer-plies 4` the draw and
// takeback buttons wait 4 plies after an offer, say so, and still do after a reload (the
// client knows the limit only from `state.offer_limits` and the offer events).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, playMove, press, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('offers', ['--draw-offer-plies', '4']);

/** Waits until the button `action` waits `n` plies (0: enabled); returns its title. */
async function waitsFor(page, action, n) {
  await page.waitForFunction(([a, k]) => {
    const b = document.querySelector(`[data-action="${a}"]`);
    return b && (k === 0 ? !b.disabled : b.disabled && b.dataset.wait === String(k));
  }, [action, n]);
  return page.locator(`[data-action="${action}"]`).getAttribute('title');
}

test('the draw and takeback buttons wait as long as the server says, for any limit', { timeout: 120_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const A = alice.page;
  const B = bob.page;
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    await startGame(alice, bob, env.server.url, 'russian');
    await waitStatus(A, 'Your move');
    await playMove(alice, 'c3-d4');
    await waitMoves(B, 1);
    await playMove(bob, 'f6-g5');
    await waitMoves(A, 2);

    await press(alice, A.locator('[data-action="draw-offer"]'));
    await press(bob, B.locator('[data-prompt="draw"] [data-action="draw-decline"]'));
    await A.locator('[data-prompt="declined"]').waitFor();
    assert.equal(await waitsFor(A, 'draw-offer', 4), 'One draw offer per 4 plies: you may offer again in 4 plies.');
    // The limit is the server's, not this page's memory: a reload shows the same.
    await A.reload();
    await waitMoves(A, 2);
    assert.equal(await waitsFor(A, 'draw-offer', 4), 'One draw offer per 4 plies: you may offer again in 4 plies.');

    await playMove(alice, 'b2-c3');
    await waitMoves(B, 3);
    await playMove(bob, 'g7-f6');
    await waitMoves(A, 4);
    assert.match(await waitsFor(A, 'draw-offer', 2), /again in 2 plies/);
    // A takeback request has its own count.
    await press(alice, A.locator('[data-action="takeback-offer"]'));
    await press(bob, B.locator('[data-prompt="takeback"] [data-action="takeback-decline"]'));
    assert.equal(await waitsFor(A, 'takeback-offer', 4), 'One takeback request per 4 plies: you may ask again in 4 plies.');
    await screenshot(A, 'offers-limit-4');

    await playMove(alice, 'a3-b4');
    await waitMoves(B, 5);
    await playMove(bob, 'h8-g7');
    await waitMoves(A, 6);
    await waitsFor(A, 'draw-offer', 0);
    assert.match(await waitsFor(A, 'takeback-offer', 2), /again in 2 plies/);
    for (const p of [alice, bob]) assert.deepEqual(p.errors, []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});
