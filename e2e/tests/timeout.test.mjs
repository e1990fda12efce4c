// A one-minute game that White lets run out: the clock counts down in both browsers, turns
// to the low-time warning in its last ten seconds, and the server flags it on its own (no
// client message needed) for both players and a spectator. Real time: about 65 s.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { clockMs, clockText, playMove, startGame, waitMoves } from '../lib/actions.mjs';

const env = serverAndBrowser('timeout');

/** Whether a clock face carries the low-time warning. */
async function isLow(page, side) {
  return page.locator(`[data-clock="${side}"]`).evaluate((el) => el.classList.contains('low'));
}

test('a player who lets the clock run out loses on time after a low-time warning', { timeout: 150_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  try {
    const id = await startGame(alice, bob, env.server.url, 'russian', { minutes: 1, increment: 0 });
    await carol.page.goto(`${env.server.url}/#/table/${id}`);
    await alice.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
    await playMove(alice, 'c3-d4');
    await bob.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
    await playMove(bob, 'f6-e5');
    // Black's first move starts the clock, on White.
    await alice.page.locator('[data-status]', { hasText: 'Your move' }).waitFor();
    const started = Date.now();
    for (const p of [alice, bob, carol]) await waitMoves(p.page, 2);

    // The running clock counts down between server updates; the other stands at 1:00.
    await alice.page.waitForFunction(() => {
      const el = document.querySelector('[data-clock="white"]');
      return el.classList.contains('running') && /^0:5\d$/.test(el.textContent.trim());
    }, null, { timeout: 15_000 });
    for (const p of [alice, bob, carol]) {
      assert.equal((await clockText(p.page, 'black')).trim(), '1:00');
      assert.equal(await isLow(p.page, 'white'), false, 'no warning with most of the minute left');
    }

    // The last ten seconds: the warning, in every browser, on White's clock only.
    await alice.page.locator('[data-clock="white"].low').waitFor({ timeout: 75_000 });
    const left = clockMs(await clockText(alice.page, 'white'));
    assert.ok(left <= 10_000 && left > 0, `warned at ${left} ms`);
    for (const p of [bob, carol]) await p.page.locator('[data-clock="white"].low').waitFor();
    for (const p of [alice, bob, carol]) assert.equal(await isLow(p.page, 'black'), false);
    await screenshot(alice.page, 'timeout-low-time');
    // The low-time sound: once, for the player whose clock it is (not the opponent, not
    // the spectator).
    const played = (p) => p.page.evaluate(() => (document.documentElement.dataset.sounds ?? '').split(' ').filter(Boolean));
    await alice.page.waitForFunction(() => (document.documentElement.dataset.sounds ?? '').split(' ').includes('low'));
    assert.equal((await played(alice)).filter((n) => n === 'low').length, 1);
    for (const p of [bob, carol]) assert.ok(!(await played(p)).includes('low'), 'only the owner of the clock hears it');

    // Nobody sends anything: the server's timer flags White.
    await alice.page.locator('[data-banner]:visible', { hasText: 'You lost' }).waitFor({ timeout: 30_000 });
    const elapsed = Date.now() - started;
    assert.ok(elapsed >= 59_000, `flagged after ${elapsed} ms, not before the minute`);
    await alice.page.locator('[data-banner]:visible', { hasText: 'time out' }).waitFor();
    await bob.page.locator('[data-banner]:visible', { hasText: 'You won!' }).waitFor();
    await carol.page.locator('[data-banner]:visible', { hasText: 'Black won (time out)' }).waitFor();
    assert.equal((await played(alice)).filter((n) => n === 'low').length, 1, 'the warning sounded once');
    assert.ok((await played(bob)).includes('end'), 'the end of the game sounds');
    for (const p of [alice, bob, carol]) {
      assert.equal((await clockText(p.page, 'white')).trim(), '0.0');
      assert.equal((await clockText(p.page, 'black')).trim(), '1:00');
      assert.equal(await isLow(p.page, 'white'), false, 'a stopped clock is not warned');
    }
    await screenshot(alice.page, 'timeout-banner');

    // The stored game says the same.
    const link = await alice.page.locator('[data-banner] [data-action="replay"]').getAttribute('href');
    const gameId = decodeURIComponent(link.split('#/game/')[1]);
    const res = await fetch(`${env.server.url}/api/games/${encodeURIComponent(gameId)}`);
    assert.equal(res.status, 200);
    const game = await res.json();
    assert.equal(game.result, 'black');
    assert.equal(game.reason, 'timeout');
    assert.deepEqual([alice.errors, bob.errors, carol.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
    await carol.context.close();
  }
});
