// Issue 38, item 2 (first half): a table that starts its games from an opening ballot.
// The creator picks "random ballot" in the create-table form; both players (one on a
// desktop, one on a phone) see the ballot's name and moves beside the board, and the
// board shows the ballot's position, not the variant's start.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WAIT_MS, newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, press } from '../lib/actions.mjs';
import { parseFen } from '../../static/js/fen.js';

const env = serverAndBrowser('ballot');

/** The pieces the table page's board shows: square name -> `white-man`, ... */
function boardPieces(page, table, scope = `[data-table="${table}"]`) {
  return page.evaluate((where) => Object.fromEntries(
    [...document.querySelectorAll(`${where} [data-square]`)]
      .filter((sq) => sq.querySelector('[data-piece]'))
      .map((sq) => [sq.dataset.square, sq.querySelector('[data-piece]').dataset.piece])), scope);
}

/**
 * Waits until the board in `scope` (the table page's by default) shows `want` (as
 * `boardPieces`), then checks it square by square.
 */
async function waitBoard(page, table, want, scope = `[data-table="${table}"]`) {
  const key = (pieces) => JSON.stringify(Object.entries(pieces).sort());
  await page.waitForFunction(([where, k]) => JSON.stringify(Object.entries(Object.fromEntries(
    [...document.querySelectorAll(`${where} [data-square]`)]
      .filter((sq) => sq.querySelector('[data-piece]'))
      .map((sq) => [sq.dataset.square, sq.querySelector('[data-piece]').dataset.piece]))).sort()) === k,
  [scope, key(want)], { timeout: WAIT_MS }).catch(() => {});
  assert.deepEqual(await boardPieces(page, table, scope), want);
}

/** The pieces of a FEN, as the board names them. */
function fenPieces(fen) {
  return Object.fromEntries([...parseFen(fen).pieces].map(([sq, p]) => [sq, `${p.color}-${p.king ? 'king' : 'man'}`]));
}

test('a random-ballot table: both players see the ballot and start from its position', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const alice = await newPlayer(env.browser);
  await alice.page.setViewportSize({ width: 1366, height: 768 });
  const bob = await newPlayer(env.browser, { phone: true });
  try {
    await arrive(alice, url, 'Alicja');
    await arrive(bob, url, 'Bolek');
    await alice.page.goto(`${url}/#/room/russian`);
    const form = alice.page.locator('[data-form="create-table"]');
    const ballot = form.locator('[name="ballot"]');
    await ballot.waitFor();
    // None by default; the random choice names the set it draws from.
    assert.equal(await ballot.inputValue(), '');
    await ballot.selectOption('random');
    assert.equal(await form.locator('[data-ballot-set="fmjd64"]').textContent(), 'A new one for each game, drawn from the FMJD Drawing Table 64 (736 openings).');
    // A ballot and a random opening exclude each other.
    assert.equal(await form.locator('[name="random_opening"]').isDisabled(), true);
    await form.locator('[name="seat"]').selectOption('white');
    await screenshot(alice.page, 'ballot-form-1366');
    await press(alice, form.locator('[data-action="create-table"]'));
    await alice.page.waitForURL(/#\/table\//);
    const table = decodeURIComponent(alice.page.url().split('#/table/')[1]);

    // Bob finds it in the room's list, marked, and sits.
    await bob.page.goto(`${url}/#/room/russian`);
    const row = bob.page.locator(`[data-table-id="${table}"]`);
    await row.locator('.flags', { hasText: 'Random ballot' }).waitFor();
    await bob.page.goto(`${url}/#/table/${table}`);
    await press(bob, bob.page.locator('[data-action="sit"][data-seat="black"]'));
    await press(alice, alice.page.locator('[data-action="start"]'));
    await press(bob, bob.page.locator('[data-action="start"]'));

    // The game started from a ballot of the FMJD table: both see which one.
    const line = alice.page.locator('[data-ballot]');
    await line.waitFor();
    const id = await line.getAttribute('data-ballot');
    assert.match(id, /^fmjd64-\d\d-\d\d$/);
    const listed = (await (await fetch(`${url}/api/ballots/russian`)).json()).find((b) => b.id === id);
    assert.ok(listed, `${id} is a Russian ballot`);
    for (const player of [alice, bob]) {
      const name = player.page.locator(`[data-ballot="${id}"] [data-ballot-name]`);
      await name.waitFor();
      assert.equal(await name.textContent(), listed.name);
      const moves = await player.page.locator(`[data-ballot="${id}"] [data-ballot-moves]`).textContent();
      if (listed.moves.length) assert.equal(moves, listed.moves.join(' '));
      else assert.ok(moves.includes(listed.arrangement), `${moves} names ${listed.arrangement}`);
      // The board is the ballot's position (not the start: the FMJD table has no "free").
      await waitBoard(player.page, table, fenPieces(listed.fen));
      assert.notDeepEqual(fenPieces(listed.fen), fenPieces('W:Wa1,a3,b2,c1,c3,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e7,f6,f8,g7,h6,h8'));
    }
    await screenshot(alice.page, 'ballot-table-1366');
    await screenshot(bob.page, 'ballot-table-360');
    // Seen on the phone without scrolling sideways.
    const box = await bob.page.locator('[data-ballot]').boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= 360, `the ballot line fits the phone: ${JSON.stringify(box)}`);
    // The stored game's replay names the ballot and starts from its position.
    await press(alice, alice.page.locator('[data-action="abort"]'));
    await alice.page.locator('[data-banner]:not([hidden])').waitFor();
    const game = (await (await fetch(`${url}/api/tables/${table}`)).json()).game.id;
    await bob.page.goto(`${url}/#/game/${game}`);
    await bob.page.locator(`[data-game="${game}"] [data-ballot="${id}"] [data-ballot-name]`, { hasText: listed.name }).waitFor();
    await waitBoard(bob.page, table, fenPieces(listed.fen), `[data-game="${game}"]`);
    await screenshot(bob.page, 'ballot-replay-360');
    assert.deepEqual(alice.errors, []);
    assert.deepEqual(bob.errors, []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('the form offers a ballot only where the variant has ballots', { timeout: 60_000 }, async () => {
  const { url } = env.server;
  const alice = await newPlayer(env.browser);
  try {
    // Every variant has a set today (Damka's own for Czech): offered there...
    await alice.page.goto(`${url}/#/room/czech`);
    await alice.page.locator('[data-form="create-table"] [name="ballot"]').waitFor();
    // ...and not for a variant whose list is empty (a server without the data).
    await alice.page.route(/\/api\/ballots\/czech$/, (route) => route.fulfill({ json: [] }));
    await alice.page.goto(`${url}/#/`);
    await alice.page.reload();
    await alice.page.goto(`${url}/#/room/czech`);
    const form = alice.page.locator('[data-form="create-table"]');
    await form.waitFor();
    await form.locator('[name="seat"]').waitFor();
    assert.equal(await form.locator('[name="ballot"]').count(), 0);
    assert.deepEqual(alice.errors, []);
  } finally {
    await alice.context.close();
  }
});
