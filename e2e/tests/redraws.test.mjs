// Only the parts of the table page an event changes are redrawn (static/js/tableparts.js,
// tablecontrol.js): a spectator arriving (`presence`) or a draw offer leaves the board's
// and the move list's DOM untouched, while a move redraws both. Watched in Alice's page by
// MutationObservers on the board and on the move list.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WAIT_MS, newPlayer, serverAndBrowser } from '../lib/harness.mjs';
import { playMove, press, startGame, waitMoves } from '../lib/actions.mjs';

const env = serverAndBrowser('redraws');

/** Starts counting DOM changes under the board and the move list of `page`. */
async function watch(page) {
  await page.evaluate(() => {
    window.changes = { board: 0, moves: 0, info: 0 };
    const on = (sel, key) => new MutationObserver((list) => {
      window.changes[key] += list.length;
    }).observe(document.querySelector(sel), { subtree: true, childList: true, attributes: true, characterData: true });
    on('.board-wrap .board', 'board');
    on('section.moves', 'moves');
    on('section.info', 'info');
  });
}

const changes = (page) => page.evaluate(() => ({ ...window.changes }));

test('a spectator and a draw offer redraw their panels, not the board or the moves', { timeout: 60_000 + 6 * WAIT_MS }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  const [A, B, C] = [alice.page, bob.page, carol.page];
  try {
    const id = await startGame(alice, bob, env.server.url, 'russian', { minutes: 5, increment: 0 });
    await playMove(alice, 'c3-d4');
    await waitMoves(B, 1);
    await playMove(bob, 'f6-g5');
    await waitMoves(A, 2);
    await watch(A);

    // A spectator comes: Alice's table card counts them; her board and moves stay.
    await C.goto(`${env.server.url}/#/table/${id}`);
    await C.locator(`[data-table="${id}"] [data-square]`).first().waitFor();
    await A.locator('[data-spectators="1"]').waitFor();
    let seen = await changes(A);
    assert.ok(seen.info > 0, `the table card was redrawn: ${JSON.stringify(seen)}`);
    assert.equal(seen.board, 0, `the board was not redrawn: ${JSON.stringify(seen)}`);
    assert.equal(seen.moves, 0, `the move list was not redrawn: ${JSON.stringify(seen)}`);

    // Bob offers a draw: Alice's prompt shows it; still no board or move list change.
    await press(bob, B.locator('[data-action="draw-offer"]'));
    await A.locator('[data-prompt="draw"]').waitFor();
    seen = await changes(A);
    assert.equal(seen.board + seen.moves, 0, `an offer redraws neither: ${JSON.stringify(seen)}`);

    // A move (declining the offer) redraws both.
    await playMove(alice, 'd4-c5');
    await waitMoves(A, 3);
    await A.locator('[data-prompt="draw"]').waitFor({ state: 'hidden' });
    seen = await changes(A);
    assert.ok(seen.board > 0 && seen.moves > 0, `a move redraws the board and the moves: ${JSON.stringify(seen)}`);
    assert.deepEqual([alice.errors, bob.errors, carol.errors].flat(), []);
  } finally {
    await Promise.all([alice, bob, carol].map((p) => p.context.close()));
  }
});
