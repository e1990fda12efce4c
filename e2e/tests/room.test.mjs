// Issue 9, the room comes alive:
// two guests chat in a room and at a table (a spectator's chat kept apart during the
// game, a muted person hidden and remembered), see each other in the people list with a
// link to the table, a takeback asked and accepted, and a claim after the opponent
// closed the tab.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, expectPiece, playMove, press, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('room');

async function say(player, panel, text) {
  const form = player.page.locator(`[data-chat="${panel}"]`);
  await form.locator('input[name="chat"]').fill(text);
  await press(player, form.locator('[data-action="chat-send"]'));
}

const line = (page, panel, text) => page.locator(`[data-chat="${panel}"] [data-chat-list] li`, { hasText: text });

test('room chat, the people list, table chat with spectators apart, and muting', { timeout: 120_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  const { url } = env.server;
  try {
    await arrive(alice, url, 'Alice');
    await arrive(bob, url, 'Bob');
    await arrive(carol, url, 'Carol');
    for (const p of [alice, bob]) await p.page.goto(`${url}/#/room/russian`);
    await alice.page.locator('[data-people] [data-person]', { hasText: 'Bob' }).waitFor();
    await say(alice, 'room', 'Hello room');
    await line(bob.page, 'room', 'Hello room').waitFor();
    // History on connect: Carol arrives later and sees it.
    await carol.page.goto(`${url}/#/room/russian`);
    await line(carol.page, 'room', 'Hello room').waitFor();
    // Plain text: markup is shown as typed, never rendered.
    await say(alice, 'room', '<b>bold</b> <img src=x>');
    await line(bob.page, 'room', '<b>bold</b> <img src=x>').waitFor();
    assert.equal(await bob.page.locator('[data-chat="room"] [data-chat-list] b, [data-chat="room"] [data-chat-list] img').count(), 0);
    // The 300-character limit is in the input itself.
    assert.equal(await alice.page.locator('[data-chat="room"] input[name="chat"]').getAttribute('maxlength'), '300');

    const id = await startGame(alice, bob, url, 'russian');
    await carol.page.goto(`${url}/#/table/${id}`);
    await waitStatus(alice.page, 'Your move');
    // The people list says where each is, with a link to the table.
    const p2 = await newPlayer(env.browser);
    await p2.page.goto(`${url}/#/room/russian`);
    const aliceRow = p2.page.locator('[data-people] [data-person][data-where="playing"]', { hasText: 'Alice' });
    await aliceRow.waitFor();
    assert.match(await aliceRow.locator('a').getAttribute('href'), new RegExp(`#/table/${id}`));
    await screenshot(p2.page, 'room-people-chat');
    await p2.context.close();

    await say(alice, 'table', 'Good luck');
    await line(bob.page, 'table', 'Good luck').waitFor();
    await line(carol.page, 'table', 'Good luck').waitFor();
    // A spectator talks to spectators only while the game is played.
    await carol.page.locator('[data-chat="spectators"]:visible').waitFor();
    assert.equal(await carol.page.locator('[data-chat="table"] input:visible').count(), 0, 'a spectator writes in the spectators\' panel');
    await say(carol, 'spectators', 'Nice opening');
    await line(carol.page, 'spectators', 'Nice opening').waitFor();
    assert.equal(await line(alice.page, 'table', 'Nice opening').count(), 0);
    assert.equal(await alice.page.locator('[data-chat="spectators"]:visible').count(), 0);
    // Bob mutes Alice: her messages disappear for him, also after a reload.
    await press(bob, line(bob.page, 'table', 'Good luck').locator('[data-action="mute-person"]'));
    await bob.page.waitForFunction(() => ![...document.querySelectorAll('[data-chat="table"] li')].some((li) => li.textContent.includes('Good luck')));
    await bob.page.reload();
    await bob.page.locator('[data-chat="table"]').waitFor();
    await say(alice, 'table', 'Still there?');
    await line(carol.page, 'table', 'Still there?').waitFor();
    assert.equal(await line(bob.page, 'table', 'Still there?').count(), 0);
    await screenshot(carol.page, 'room-table-chat-spectator');
  } finally {
    for (const p of [alice, bob, carol]) await p.context.close();
  }
});

test('a takeback asked and accepted; a claim after the opponent closed the tab', { timeout: 240_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const { url } = env.server;
  try {
    await arrive(alice, url, 'Alice');
    await arrive(bob, url, 'Bob');
    // Two minutes: the short claim delay (30 s) and no flag meanwhile.
    await startGame(alice, bob, url, 'russian', { minutes: 2 });
    await waitStatus(alice.page, 'Your move');
    await playMove(alice, 'c3-d4');
    await waitMoves(bob.page, 1);
    await playMove(bob, 'b6-a5');
    await waitMoves(alice.page, 2);
    // The first moves are never taken back (abort instead): no button yet.
    assert.equal(await alice.page.locator('[data-action="takeback-offer"]').count(), 0);
    await playMove(alice, 'g3-f4');
    await waitMoves(bob.page, 3);
    await press(alice, alice.page.locator('[data-action="takeback-offer"]'));
    const prompt = bob.page.locator('[data-prompt="takeback"]');
    await prompt.waitFor().catch(async (err) => {
      await screenshot(alice.page, 'room-failed-takeback-alice');
      await screenshot(bob.page, 'room-failed-takeback-bob');
      throw err;
    });
    await press(bob, prompt.locator('[data-action="takeback-accept"]'));
    // Alice's last move is undone on both screens; she plays another.
    for (const p of [alice, bob]) {
      await expectPiece(p.page, 'g3', 'white-man');
      await expectPiece(p.page, 'f4', null);
      await waitMoves(p.page, 2);
    }
    await playMove(alice, 'e3-f4');
    await waitMoves(bob.page, 3);
    // Bob closes the tab: Alice sees a countdown, then claims the win.
    await bob.context.close();
    await alice.page.locator('[data-prompt="claim"] [data-claim-left]').waitFor({ timeout: 30_000 });
    await screenshot(alice.page, 'room-claim-countdown');
    const claim = alice.page.locator('[data-action="claim-victory"]');
    await claim.waitFor({ timeout: 120_000 });
    await press(alice, claim);
    await alice.page.locator('[data-banner]:visible', { hasText: 'abandoned' }).waitFor();
  } finally {
    await alice.context.close();
    await bob.context.close().catch(() => {});
  }
});
