// Meeting people in a room (issue 9): a seated player invites a person on the room page
// (only that person is asked, with the table's options, and joins with one click); "Play
// a person" takes a free seat at a compatible open table or makes one; the counts on the
// home page and in the room include people at tables.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, createTable, press, startGame, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('invite');

test('a seated player invites a person from the room, who joins with one click', { timeout: 120_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  const { url } = env.server;
  try {
    await arrive(alice, url, 'Alice');
    await arrive(bob, url, 'Bob');
    await arrive(carol, url, 'Carol');
    for (const p of [bob, carol]) await p.page.goto(`${url}/#/room/russian`);
    const id = await createTable(alice, url, 'russian', { minutes: 3, increment: 2 });
    // Alice waits alone: her table page lists the people she may invite.
    const panel = alice.page.locator('[data-invite-panel]');
    const bobRow = panel.locator('[data-person]', { hasText: 'Bob' });
    await bobRow.waitFor();
    await panel.locator('[data-person]', { hasText: 'Carol' }).waitFor();
    await screenshot(alice.page, 'invite-panel');
    await press(alice, bobRow.locator('[data-action="invite"]'));
    await panel.locator('[data-invite-note]', { hasText: 'Invitation sent to Bob' }).waitFor();

    // Bob is asked, with who and the table's options; Carol is not.
    const card = bob.page.locator('[data-prompt="invite"]');
    await card.waitFor();
    assert.match(await card.textContent(), /Alice invites you to a table: 3 min \+ 2 s/);
    // With the offer sound.
    await bob.page.waitForFunction(() => (document.documentElement.dataset.sounds ?? '').split(' ').includes('offer'));
    await screenshot(bob.page, 'invite-prompt');
    // Carol sees Alice's table (so the room's events reached her) but no invitation.
    await carol.page.locator(`[data-table-id="${id}"]`).waitFor();
    assert.equal(await carol.page.locator('[data-prompt="invite"]').count(), 0);

    // One click: Bob sits in the free seat and presses Start; Alice starts: they play.
    await press(bob, card.locator('[data-action="invite-join"]'));
    await bob.page.waitForURL(new RegExp(`#/table/${id}$`));
    await bob.page.locator('[data-player="black"]', { hasText: 'Bob' }).waitFor();
    await bob.page.locator('[data-player="black"] .badge.ready').waitFor();
    // The seat is taken: Alice's invite card goes away.
    await panel.waitFor({ state: 'hidden' });
    await press(alice, alice.page.locator('[data-action="start"]'));
    await waitStatus(alice.page, 'Your move');
    for (const p of [alice, bob, carol]) assert.deepEqual(p.errors, []);
  } finally {
    for (const p of [alice, bob, carol]) await p.context.close();
  }
});

test('an invitation is offered from the room page too, and dismissed', { timeout: 90_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const { url } = env.server;
  try {
    await arrive(alice, url, 'Alice');
    await arrive(bob, url, 'Bob');
    await bob.page.goto(`${url}/#/room/brazilian`);
    await createTable(alice, url, 'brazilian', { minutes: 5, increment: 0 });
    // Back in the room, Alice's seat at an open table lets her invite from the list.
    await alice.page.goto(`${url}/#/room/brazilian`);
    const row = alice.page.locator('[data-people] [data-person]', { hasText: 'Bob' });
    await press(alice, row.locator('[data-action="invite"]'));
    await alice.page.locator('[data-invite-note]', { hasText: 'Invitation sent to Bob' }).waitFor();
    const card = bob.page.locator('[data-prompt="invite"]');
    await card.waitFor();
    await press(bob, card.locator('[data-action="invite-dismiss"]'));
    await card.waitFor({ state: 'detached' });
    assert.match(bob.page.url(), /#\/room\/brazilian$/);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('"Play a person" takes a free seat at a compatible table, or creates one', { timeout: 90_000 }, async () => {
  const dave = await newPlayer(env.browser);
  const eve = await newPlayer(env.browser, { phone: true });
  const { url } = env.server;
  try {
    await arrive(dave, url, 'Dave');
    await arrive(eve, url, 'Eve');
    // Nobody waits in the Spanish room at 3+2: Dave's click makes a table and he waits.
    await dave.page.locator('[data-play-room]').selectOption('spanish');
    await dave.page.locator('[data-play-preset]').selectOption('3+2');
    await press(dave, dave.page.locator('[data-action="play-person"]'));
    await dave.page.waitForURL(/#\/table\//);
    const id = decodeURIComponent(dave.page.url().split('#/table/')[1]);
    await waitStatus(dave.page, 'Waiting for an opponent');
    // Eve, in the room with the same clock, is seated there, and the game begins.
    await eve.page.goto(`${url}/#/room/spanish`);
    await eve.page.locator('[data-play-preset]').selectOption('3+2');
    await press(eve, eve.page.locator('[data-action="play-person"]'));
    await eve.page.waitForURL(new RegExp(`#/table/${id}$`));
    for (const p of [dave, eve]) await p.page.locator('[data-action="resign"]').waitFor();
    // A third player with another clock gets a table of their own.
    const fay = await newPlayer(env.browser);
    try {
      await arrive(fay, url, 'Fay');
      await fay.page.goto(`${url}/#/room/spanish`);
      await fay.page.locator('[data-play-preset]').selectOption('5+3');
      await press(fay, fay.page.locator('[data-action="play-person"]'));
      await fay.page.waitForURL(/#\/table\//);
      assert.notEqual(decodeURIComponent(fay.page.url().split('#/table/')[1]), id);
      await waitStatus(fay.page, 'Waiting for an opponent');
    } finally {
      await fay.context.close();
    }
  } finally {
    await dave.context.close();
    await eve.context.close();
  }
});

test('people at tables count on the home page and in the room', { timeout: 90_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  const { url } = env.server;
  try {
    await arrive(alice, url, 'Alice');
    await arrive(bob, url, 'Bob');
    await arrive(carol, url, 'Carol');
    // Two players at an Italian table, nobody on the Italian room page.
    await startGame(alice, bob, url, 'italian');
    await waitStatus(alice.page, 'Your move');
    // The home page refreshes its counts by itself.
    await carol.page.goto(`${url}/#/`);
    await carol.page.locator('[data-room="italian"] [data-players="2"]', { hasText: '2 players' }).waitFor();
    // In the room Carol counts too.
    await carol.page.goto(`${url}/#/room/italian`);
    await carol.page.locator('.room-head [role="status"]', { hasText: '3 people in the room' }).waitFor();
    await screenshot(carol.page, 'room-counts');
  } finally {
    for (const p of [alice, bob, carol]) await p.context.close();
  }
});

test('a new guest\'s random name is in the browser\'s language', async () => {
  const EN = /^(Guest \d{4}|(Quick|Clever|Quiet|Brave|Wise|Merry|Nimble|Calm|Sharp|Bold|Alert|Red) (Fox|Badger|Hedgehog|Wolf|Falcon|Bison|Beaver|Raven|Lynx|Boar|Hare|Owl))$/;
  const PL = /^(Gość \d{4}|(Szybki|Sprytny|Cichy|Dzielny|Mądry|Wesoły|Zwinny|Spokojny|Bystry|Śmiały|Czujny|Rudy) (Lis|Borsuk|Jeż|Wilk|Sokół|Żubr|Bóbr|Kruk|Ryś|Dzik|Zając|Puchacz))$/;
  for (const [locale, pattern] of [['en-US', EN], ['en-GB', EN], ['pl-PL', PL]]) {
    for (let i = 0; i < 3; i++) {
      const p = await newPlayer(env.browser, { locale });
      try {
        await p.page.goto(`${env.server.url}/#/`);
        const me = p.page.locator('[data-me]');
        await p.page.waitForFunction(() => document.querySelector('[data-me]')?.textContent.trim());
        const name = (await me.textContent()).trim();
        assert.match(name, pattern, `${locale}: ${name}`);
      } finally {
        await p.context.close();
      }
    }
  }
});
