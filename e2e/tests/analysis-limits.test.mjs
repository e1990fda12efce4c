// The analysis in a crowded or contested room (issue 34, items 7 and 11): a player in a
// live game against a person finds the analysis board closed, and told why; a game's
// analysis waiting in the queue shows its place. The server runs no analysis job here
// (`--analysis-jobs 0`), so a job asked for stays queued.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, press, startGame } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';

const env = serverAndBrowser('analysis-limits', ['--analysis-jobs', '0', '--analysis-board-nodes', '20000']);

test('the analysis board is closed during one\'s own game; a queued analysis shows its place', { timeout: 120_000 }, async () => {
  const { server, browser } = env;
  const url = server.url;
  const alice = await newPlayer(browser);
  const bob = await newPlayer(browser);
  await arrive(alice, url, 'Alice');
  await arrive(bob, url, 'Bob');
  await startGame(alice, bob, url, 'russian');
  await alice.page.locator('[data-square].movable').first().waitFor();

  // Alice opens the analysis board in a second tab during her game: closed, and why.
  const tab = await alice.context.newPage();
  await tab.goto(`${url}/#/analyse?variant=russian`);
  const refused = tab.locator('[data-analyse-result][data-state="error"]');
  await refused.waitFor();
  assert.match(await refused.textContent(), /closed while you play/);

  // Her game ends (after a move each): the board opens again.
  await playAnyMove(alice);
  await bob.page.locator('[data-square].movable').first().waitFor();
  await playAnyMove(bob);
  await alice.page.locator('[data-square].movable').first().waitFor();
  await press(bob, bob.page.locator('[data-action="resign"]'));
  await press(bob, bob.page.locator('[data-action="resign"]'));
  const link = await alice.page.locator('[data-banner] [data-action="replay"]').getAttribute('href');
  await tab.reload();
  await tab.locator('[data-analyse-result][data-state="done"]').waitFor();

  // The finished game's analysis, asked for: queued, first in the queue.
  await tab.goto(`${url}/${link}`);
  await press({ page: tab }, tab.locator('[data-action="analyse"]'));
  const place = tab.locator('[data-analysis="queued"] [data-queue-position]');
  await place.waitFor();
  assert.equal(await place.getAttribute('data-queue-position'), '1');
  assert.match(await place.textContent(), /Place in the queue: 1/);
  await tab.close();
});
