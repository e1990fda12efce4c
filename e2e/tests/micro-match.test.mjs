// Issue 38, item 2: a micro-match table. The creator ticks "Micro-match" (with a random
// ballot) in the create-table form; two players (one on a desktop, one on a phone) play
// both games, resigning quickly, and see which game it is, the score after each game, the
// break before game 2 (colours swapped, same opening), and the match's result.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WAIT_MS, newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, press } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';

// A long break, so that the players see it before the second game starts by itself.
const env = serverAndBrowser('micro-match', ['--match-break-secs', '300']);

/** Waits until `page` shows the match line with `status` and `score` (`0–1`). */
async function waitMatch(page, status, score, where = '[data-match-box]') {
  await page.locator(`${where} [data-match="${status}"] [data-match-score="${score}"]`).waitFor({ timeout: WAIT_MS });
}

/** Presses resign twice (the first press arms it). */
/**
 * One move each, the side to move first: 89 of the 736 FMJD-64 ballots give the move to
 * Black, so who starts depends on the ballot drawn.
 */
async function oneMoveEach(a, b) {
  const seen = (p) => p.page.locator('.square.movable').first().waitFor({ timeout: WAIT_MS }).then(() => p, () => null);
  const first = await Promise.race([seen(a), seen(b)]);
  assert.ok(first, 'somebody is to move');
  const second = first === a ? b : a;
  await playAnyMove(first);
  await second.page.locator('.square.movable').first().waitFor({ timeout: WAIT_MS });
  await playAnyMove(second);
}

async function resign(player) {
  await press(player, player.page.locator('[data-action="resign"]'));
  await press(player, player.page.locator('[data-action="resign"]'));
}

/** The side the player's page plays now. */
async function mySide(player) {
  return player.page.locator('.player-bar.bottom [data-player]').first().getAttribute('data-player');
}

test('a micro-match: two games, colours swapped, the score after each and the result', { timeout: 180_000 }, async () => {
  const { url } = env.server;
  const alice = await newPlayer(env.browser);
  await alice.page.setViewportSize({ width: 1366, height: 768 });
  const bob = await newPlayer(env.browser, { phone: true });
  try {
    await arrive(alice, url, 'Alicja');
    await arrive(bob, url, 'Bolek');
    await alice.page.goto(`${url}/#/room/russian`);
    const form = alice.page.locator('[data-form="create-table"]');
    const micro = form.locator('[name="micro_match"]');
    await micro.waitFor();
    assert.equal(await form.locator('label[for="opt-micro"]').textContent(), 'Micro-match (two games, colours swapped)');
    assert.equal(await form.locator('[data-micro-note]').isHidden(), true);
    await micro.check();
    await form.locator('[data-micro-note]').waitFor();
    await form.locator('[name="ballot"]').selectOption('random');
    await form.locator('[name="seat"]').selectOption('white');
    await screenshot(alice.page, 'micro-match-form-1366');
    await press(alice, form.locator('[data-action="create-table"]'));
    await alice.page.waitForURL(/#\/table\//);
    const table = decodeURIComponent(alice.page.url().split('#/table/')[1]);

    // Bob finds it in the room's list, marked, and sits; both start.
    await bob.page.goto(`${url}/#/room/russian`);
    await bob.page.locator(`[data-table-id="${table}"] .flags`, { hasText: 'Micro-match' }).waitFor();
    await bob.page.goto(`${url}/#/table/${table}`);
    await press(bob, bob.page.locator('[data-action="sit"][data-seat="black"]'));
    await press(alice, alice.page.locator('[data-action="start"]'));
    await press(bob, bob.page.locator('[data-action="start"]'));

    // Game 1 of 2, 0–0, from a ballot.
    for (const p of [alice, bob]) {
      await waitMatch(p.page, 'playing', '0–0');
      assert.equal(await p.page.locator('[data-match-box] [data-match]').getAttribute('data-match-game'), '1');
      assert.match(await p.page.locator('[data-match-box] .match-title').textContent(), /Micro-match · game 1 of 2/);
    }
    const ballot = await alice.page.locator('[data-ballot]').getAttribute('data-ballot');
    assert.match(ballot, /^fmjd64-/);
    await screenshot(alice.page, 'micro-match-game1-1366');
    await screenshot(bob.page, 'micro-match-game1-360');

    // One move each, then Alicja (White) resigns: 0–1, the break.
    await oneMoveEach(alice, bob);
    await resign(alice);
    for (const p of [alice, bob]) {
      await waitMatch(p.page, 'break', '0–1');
      await waitMatch(p.page, 'break', '0–1', '[data-banner]');
      assert.match(await p.page.locator('[data-banner] [data-match-left]').textContent(), /Game 2, colours swapped, starts in \d+ s/);
      // The seats stay taken; the start button names game 2.
      assert.equal(await p.page.locator('[data-action="stand"]').count(), 0);
      assert.equal(await p.page.locator('[data-banner] [data-action="start"]').textContent(), 'Start game 2');
    }
    await screenshot(alice.page, 'micro-match-break-1366');
    await screenshot(bob.page, 'micro-match-break-360');

    // Both start game 2: the same ballot, colours swapped (Bolek White now).
    await press(alice, alice.page.locator('[data-banner] [data-action="start"]'));
    await press(bob, bob.page.locator('[data-banner] [data-action="start"], [data-action="rematch"]').first());
    for (const p of [alice, bob]) {
      await p.page.locator('[data-match-box] [data-match="playing"][data-match-game="2"]').waitFor({ timeout: WAIT_MS });
      await waitMatch(p.page, 'playing', '0–1');
      assert.equal(await p.page.locator('[data-ballot]').getAttribute('data-ballot'), ballot);
    }
    await bob.page.waitForFunction(() => document.querySelector('.player-bar.bottom [data-player]')?.dataset.player === 'white', null, { timeout: WAIT_MS });
    assert.equal(await mySide(bob), 'white');
    assert.equal(await mySide(alice), 'black');

    // One move each, then Alicja resigns again: Bolek wins the match 2–0.
    await oneMoveEach(alice, bob);
    await resign(alice);
    for (const p of [alice, bob]) {
      await waitMatch(p.page, 'over', '0–2');
      const result = p.page.locator('[data-banner] [data-match-result]');
      await result.waitFor({ timeout: WAIT_MS });
      assert.equal(await result.textContent(), 'Bolek wins the match 2–0.');
      assert.match(await p.page.locator('[data-match-box] .match-title').textContent(), /match over/);
      // After the match the seats are free to leave again.
      await p.page.locator('[data-action="stand"]').waitFor();
    }
    await screenshot(alice.page, 'micro-match-over-1366');
    await screenshot(bob.page, 'micro-match-over-360');
    // On the phone nothing of the match leaves the screen sideways.
    for (const sel of ['[data-match-box]', '[data-banner]']) {
      const box = await bob.page.locator(sel).boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= 360, `${sel} fits the phone: ${JSON.stringify(box)}`);
    }
    // The replay of game 2 says which game of the match it is and links game 1.
    const games = (await (await fetch(`${url}/api/tables/${table}`)).json()).game.id;
    await bob.page.goto(`${url}/#/game/${games}`);
    const line = bob.page.locator('[data-replay-match="2"]');
    await line.waitFor({ timeout: WAIT_MS });
    assert.match(await line.textContent(), /Micro-match · game 2 of 2 · game 1 of 2/);
    await screenshot(bob.page, 'micro-match-replay-360');
    assert.deepEqual(alice.errors, []);
    assert.deepEqual(bob.errors, []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});
