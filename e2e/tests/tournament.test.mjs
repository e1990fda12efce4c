// Issue 11, tournaments: Alice creates a round-robin in a room (the computer fills the
// third place), Bob joins from the room's list, Alice starts it; each is sent to their
// table when paired (Bob from the room page, then from his finished table; Alice from the
// tournament page), and the standings on the tournament page follow every result until
// the end. Screenshots of the room and the tournament at 1366x768 and on a 360x740 phone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, playMove, press, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('tournament');

/** Waits until the page shows a table and returns its id. */
async function atTable(page) {
  await page.waitForURL(/#\/table\//);
  const id = decodeURIComponent(page.url().split('#/table/')[1]);
  await page.locator(`[data-table="${id}"] [data-square]`).first().waitFor();
  return id;
}

/**
 * Resigns (two clicks: the button asks for confirmation). The player may be sent on to
 * their next game at once, so nothing is awaited after.
 */
async function resign(player) {
  const button = player.page.locator('[data-action="resign"]');
  await press(player, button);
  await press(player, button);
}

/** The points shown in the standings for the player whose name contains `name`. */
function points(page, name) {
  return page.locator('[data-standings] tr[data-standing]', { hasText: name }).getAttribute('data-points');
}

async function waitPoints(page, name, want) {
  await page.locator('[data-standings] tr[data-standing]', { hasText: name }).and(page.locator(`[data-points="${want}"]`)).waitFor();
}

test('create, join, start, get sent to the table, see the standings follow', { timeout: 240_000 }, async () => {
  const { url } = env.server;
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const phone = await newPlayer(env.browser, { phone: true, locale: 'pl-PL' });
  try {
    await arrive(alice, url, 'Alice');
    await arrive(bob, url, 'Bob');
    await bob.page.goto(`${url}/#/room/russian`);
    await bob.page.locator('[data-tournaments] .empty').waitFor();

    // Alice creates a round-robin for three, the computer filling the empty place.
    await alice.page.setViewportSize({ width: 1366, height: 768 });
    await alice.page.goto(`${url}/#/room/russian`);
    await press(alice, alice.page.locator('[data-action="new-tournament"]'));
    const form = alice.page.locator('[data-form="create-tournament"]');
    await form.locator('[name="kind"]').selectOption('round_robin');
    await form.locator('[name="name"]').fill('Tuesday club');
    await form.locator('[name="max_players"]').fill('3');
    await form.locator('[name="minutes"]').fill('3');
    await form.locator('[name="increment"]').fill('2');
    await form.locator('[name="bots"]').check();
    await screenshot(alice.page, 'tournament-create-1366');
    await press(alice, form.locator('[data-action="create-tournament"]'));
    await alice.page.waitForURL(/#\/tournament\//);
    const tid = decodeURIComponent(alice.page.url().split('#/tournament/')[1]);
    await alice.page.locator('[data-entrant]', { hasText: 'Alice' }).waitFor();

    // Bob sees it appear in the room and joins from the list.
    const row = bob.page.locator(`[data-tournament-id="${tid}"]`);
    await row.waitFor();
    assert.match(await row.textContent(), /Tuesday club/);
    await press(bob, row.locator('[data-action="join-tournament"]'));
    await row.locator('[data-places]', { hasText: '2/3' }).waitFor();
    await alice.page.locator('[data-entrant]', { hasText: 'Bob' }).waitFor();
    await screenshot(bob.page, 'tournament-room');

    // Alice starts it: the computer takes the third place. Round 1 (Berger, three
    // players): Alice sits out, Bob (White) plays the computer and is sent to the table
    // from the room page.
    await press(alice, alice.page.locator('[data-action="start-tournament"]'));
    await alice.page.locator('[data-round="1"]').waitFor();
    await alice.page.locator('[data-waiting-round]').waitFor();
    // A phone (in Polish) follows the tournament page from here on.
    await phone.page.goto(`${url}/#/tournament/${tid}`);
    await phone.page.locator('[data-round="1"]').waitFor();
    const first = await atTable(bob.page);
    await waitStatus(bob.page, 'Your move');
    assert.ok(await bob.page.locator('[data-action="abort"]').count() === 0, 'no abort in a tournament game');
    await resign(bob);

    // The standings follow on the phone: the computer (Komputer) has won.
    await waitPoints(phone.page, 'Komputer', '2');
    assert.equal(await points(phone.page, 'Bob'), '0');

    // Round 2, at once: Alice (White) against Bob. Alice is sent from the tournament
    // page, Bob from his finished table.
    const aliceTable = await atTable(alice.page);
    await bob.page.waitForURL((u) => !u.href.includes(first));
    const bobTable = await atTable(bob.page);
    assert.equal(aliceTable, bobTable);
    assert.notEqual(bobTable, first);
    await waitStatus(alice.page, 'Your move');
    await playMove(alice, 'c3-d4');
    await bob.page.locator('[data-moves] [data-ply="1"]').waitFor();
    await screenshot(alice.page, 'tournament-table-1366');
    await phone.page.locator('[data-round="2"]').waitFor();
    await resign(bob);

    // Round 3: the computer (White) against Alice, who is sent on from her finished table.
    await alice.page.waitForURL((u) => !u.href.includes(aliceTable));
    const third = await atTable(alice.page);
    await waitPoints(phone.page, 'Alice', '2');
    await phone.page.locator('[data-round="3"]').waitFor();
    await screenshot(phone.page, 'tournament-phone');
    // From the table to the tournament page and back: the game is one click away.
    await press(alice, alice.page.locator('[data-link="tournament"]'));
    await alice.page.locator(`[data-next-game="${third}"]`).waitFor();
    await screenshot(alice.page, 'tournament-1366');
    await press(alice, alice.page.locator('[data-next-game]'));
    await atTable(alice.page);
    await alice.page.locator('[data-moves] [data-ply="1"]').waitFor();
    await resign(alice);
    // The last game: nothing follows, the banner leads back to the tournament.
    await press(alice, alice.page.locator('[data-banner] [data-action="tournament"]'));
    await alice.page.locator('[data-tournament-status="over"]').waitFor();
    await waitPoints(alice.page, 'Computer', '4');
    await waitPoints(phone.page, 'Komputer', '4');
    const order = await alice.page.locator('[data-standings] tr[data-standing] td.player').allTextContents();
    assert.deepEqual(order.map((n) => n.replace(/ .*/, '')), ['Computer', 'Alice', 'Bob']);
    await phone.page.locator('[data-tournament-status="over"]').waitFor();
    await screenshot(alice.page, 'tournament-over-1366');
    await screenshot(phone.page, 'tournament-over-phone');
    // The room lists it as finished, with its winner.
    await phone.page.goto(`${url}/#/room/russian`);
    const done = phone.page.locator(`[data-tournament-id="${tid}"][data-status="over"]`);
    await done.waitFor();
    assert.match(await done.textContent(), /Komputer/);
    await screenshot(phone.page, 'tournament-room-phone');
    for (const p of [alice, bob, phone]) assert.deepEqual(p.errors, []);
  } finally {
    for (const p of [alice, bob, phone]) await p.context.close();
  }
});
