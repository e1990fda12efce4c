// A visitor alone: one click from the home page to a game against the computer, played
// to the end in the browser; two people play on one screen. (The header's one click from
// any page, and the American room left alone, are in details.test.mjs.)

import assert from 'node:assert/strict';
import { test } from 'node:test';

import { press } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';

const env = serverAndBrowser('computer');

/** Waits until it is the player's move (true) or the game is over (false). */
async function myTurnOrOver(page) {
  const turn = page.locator('[data-status]', { hasText: 'Your move' });
  const over = page.locator('[data-banner]:not([hidden])');
  await turn.or(over).first().waitFor({ timeout: 60_000 });
  return !(await over.isVisible());
}

test('a visitor plays a whole game against the computer at level 1', { timeout: 600_000 }, async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/`);
    // American rules are the default; the visitor takes Black, which moves first.
    await press(p, p.page.locator('[data-action="play-bot"][data-level="1"]'));
    await p.page.waitForURL(/#\/table\//);
    await p.page.locator('[data-player="white"] [data-bot="1"]', { hasText: 'Computer · level 1' }).waitFor();
    await p.page.locator('[data-player="black"]', { hasText: '(you)' }).waitFor();
    await screenshot(p.page, 'computer-start');
    let moves = 0;
    while (await myTurnOrOver(p.page)) {
      await playAnyMove(p);
      moves += 1;
      // The move is shown once the server has it; then the computer answers.
      await p.page.locator('.move-list .pending').waitFor({ state: 'detached' });
      assert.ok(moves < 400, 'the game ends');
    }
    await screenshot(p.page, 'computer-over');
    const banner = await p.page.locator('[data-banner]').innerText();
    assert.match(banner, /won|lost|Draw/i, banner);
    // The finished game is stored: its replay opens from the banner.
    await press(p, p.page.locator('[data-action="replay"]'));
    await p.page.waitForURL(/#\/game\//);
    await p.page.locator('[data-square]').first().waitFor();
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

test('two people play on one screen: the side to move moves, the board stays put', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/room/russian`);
    await press(p, p.page.locator('[data-play-now] [data-action="play-local"]'));
    await p.page.waitForURL(/#\/table\//);
    await p.page.locator('[data-status]', { hasText: 'White to move' }).waitFor();
    const bottom = () => p.page.locator('.player-bar.bottom [data-player]').getAttribute('data-player');
    assert.equal(await bottom(), 'white');
    await playAnyMove(p);
    await p.page.locator('[data-status]', { hasText: 'Black to move' }).waitFor();
    assert.equal(await bottom(), 'white', 'the board is not turned between moves');
    await playAnyMove(p);
    await p.page.locator('[data-status]', { hasText: 'White to move' }).waitFor();
    assert.equal(await p.page.locator('[data-moves] [data-ply]').count(), 2);
    await screenshot(p.page, 'local-two-moves');
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});
