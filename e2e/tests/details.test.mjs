// Issue 22, items 4-9 and 11: the American room stays a room (and the header's one click
// still starts a game against the computer as Black, from any page); a draw offer on one
// screen asks for a second click; an aborted game says who did not move and offers no
// empty record; the replay's step buttons and download are above the fold at 1366x768;
// the words (gender-neutral Polish, "sala" throughout, the Russian room's capture rule,
// the computer's name in a Polish replay); an unknown table is one message with the way
// back; square numbers readable (contrast at least 4.5:1) and the chat's mute a word.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser, startServer } from '../lib/harness.mjs';
import { arrive, playMove, press, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';

const env = serverAndBrowser('details');

test('the American room stays open; the header plays the computer as Black in one click', async () => {
  // Autoplay allowed: nothing in this browser stops the room from starting a game.
  const p = await newPlayer(env.browser, { autoplay: true });
  try {
    await p.page.goto(`${env.server.url}/#/room/american`);
    await p.page.locator('[data-play-now]').waitFor();
    await p.page.locator('[data-people] [data-person]').first().waitFor();
    // Whatever the page would do on its own, it has done once the network is quiet.
    await p.page.waitForLoadState('networkidle');
    assert.match(p.page.url(), /#\/room\/american$/, 'the visitor is still in the room');
    const room = await (await fetch(`${env.server.url}/api/rooms/american`)).json();
    assert.equal(room.tables.length, 0, 'no table was made for the visitor');
    await screenshot(p.page, 'details-american-room');
    // From another page (the rules), one click: American, against the computer, Black to move.
    await p.page.goto(`${env.server.url}/#/rules`);
    await press(p, p.page.locator('[data-action="quick-bot"]'));
    await p.page.waitForURL(/#\/table\//);
    await p.page.locator('[data-player="black"]', { hasText: '(you)' }).waitFor();
    await p.page.locator('[data-player="white"] [data-bot="1"]').waitFor();
    await waitStatus(p.page, 'Your move');
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

test('one screen: a draw offer asks for a second click before the game ends', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.goto(`${env.server.url}/#/room/russian`);
    await press(p, p.page.locator('[data-play-now] [data-action="play-local"]'));
    await p.page.waitForURL(/#\/table\//);
    await waitStatus(p.page, 'White to move');
    await playAnyMove(p);
    await waitStatus(p.page, 'Black to move');
    await playAnyMove(p);
    await waitMoves(p.page, 2);
    // Auto-turn (item 13): the side to move is at the bottom after each move.
    const bottom = () => p.page.locator('.player-bar.bottom [data-player]').getAttribute('data-player');
    assert.equal(await bottom(), 'white');
    await press(p, p.page.locator('[data-action="autoflip"]'));
    await playAnyMove(p);
    await waitMoves(p.page, 3);
    await p.page.locator('.player-bar.bottom [data-player="black"]').waitFor();
    await press(p, p.page.locator('[data-action="autoflip"]'));
    await p.page.locator('.player-bar.bottom [data-player="white"]').waitFor();
    await press(p, p.page.locator('[data-action="draw-offer"]'));
    await p.page.locator('[data-action="draw-offer"]', { hasText: 'Click again' }).waitFor();
    assert.equal(await p.page.locator('[data-banner]:visible').count(), 0, 'one click does not end the game');
    await screenshot(p.page, 'details-local-draw-confirm');
    await press(p, p.page.locator('[data-action="draw-offer"]'));
    await p.page.locator('[data-banner]:visible', { hasText: 'Draw' }).waitFor();
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

test('an aborted game says who did not move in time, and offers a record only with moves', { timeout: 120_000 }, async () => {
  // A server of its own with a short first-move window.
  const server = await startServer('details-abort', ['--first-move-secs', '3']);
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser, { locale: 'pl-PL' });
  try {
    await startGame(alice, bob, server.url, 'russian');
    // Nobody moves: White's window runs out.
    const banner = alice.page.locator('[data-banner]:visible');
    await banner.waitFor();
    assert.match(await banner.textContent(), /White did not make a first move in time \(3 s\)/);
    assert.match(await bob.page.locator('[data-banner]:visible').textContent(), /białe nie wykonały pierwszego ruchu na czas/);
    assert.equal(await banner.locator('[data-action="replay"]').count(), 0, 'no record of a game without moves');
    await screenshot(alice.page, 'details-aborted-1366');
    await screenshot(bob.page, 'details-aborted-pl');
    // The next game: Bob (White now) moves, Alice does not answer in time.
    await press(alice, alice.page.locator('[data-banner] [data-action="start"]'));
    await press(bob, bob.page.locator('[data-banner] [data-action="start"]'));
    await waitStatus(bob.page, 'Twój ruch');
    await playAnyMove(bob);
    await alice.page.locator('[data-banner]:visible', { hasText: 'Black did not make a first move in time' }).waitFor();
    await alice.page.locator('[data-banner]:visible [data-action="replay"]').waitFor();
    assert.deepEqual([alice.errors, bob.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
    await server.stop();
  }
});

test('the replay: step buttons and the PDN download above the fold at 1366x768', async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    await startGame(alice, bob, env.server.url, 'international');
    await waitStatus(alice.page, 'Your move');
    await playMove(alice, '31-26');
    await waitMoves(bob.page, 1);
    await playMove(bob, '18-22');
    await waitMoves(alice.page, 2);
    await press(alice, alice.page.locator('[data-action="resign"]'));
    await press(alice, alice.page.locator('[data-action="resign"]'));
    await press(alice, alice.page.locator('[data-banner] [data-action="replay"]'));
    await alice.page.waitForURL(/#\/game\//);
    for (const size of [{ width: 1366, height: 768 }, { width: 1280, height: 720 }, { width: 360, height: 740 }]) {
      await alice.page.setViewportSize(size);
      await alice.page.locator('[data-game] [data-square]').first().waitFor();
      await alice.page.evaluate(() => window.scrollTo(0, 0));
      await alice.page.screenshot({ path: `${process.cwd()}/artifacts/details-replay-${size.width}x${size.height}.png` });
      if (size.width < 760) continue;
      for (const action of ['first', 'prev', 'next', 'last', 'pdn']) {
        const b = await alice.page.locator(`[data-action="${action}"]`).boundingBox();
        assert.ok(b && b.y >= 0 && b.y + b.height <= size.height, `${action} ${JSON.stringify(b)} above the fold at ${size.width}x${size.height}`);
      }
    }
    assert.deepEqual([alice.errors, bob.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('Polish words: gender-neutral results, "sala" throughout, the Russian rule, the computer’s name', { timeout: 120_000 }, async () => {
  const p = await newPlayer(env.browser, { locale: 'pl-PL' });
  const q = await newPlayer(env.browser, { locale: 'pl-PL' });
  try {
    await arrive(p, env.server.url, 'Ala');
    await arrive(q, env.server.url, 'Ola');
    // The rules say one room per variant, as the English does.
    await p.page.goto(`${env.server.url}/#/rules`);
    await p.page.locator('.rules .lead', { hasText: 'każda z własną salą' }).waitFor();
    // The Russian room: capturing is compulsory (any capture may be chosen).
    await p.page.goto(`${env.server.url}/#/room/russian`);
    await p.page.locator('.room-head .lead', { hasText: 'bicie obowiązkowe' }).waitFor();
    // The people list says "w sali", like the rest of the page.
    await q.page.goto(`${env.server.url}/#/room/russian`);
    await p.page.locator('[data-people] [data-where="room"]', { hasText: 'w sali' }).first().waitFor();
    assert.equal(await p.page.locator('[data-people]', { hasText: 'w pokoju' }).count(), 0);
    // A game against the computer, lost: "Przegrana", and the replay names "Komputer".
    await press(p, p.page.locator('[data-play-now] [data-action="play-bot"][data-level="1"]'));
    await p.page.waitForURL(/#\/table\//);
    await waitStatus(p.page, 'Twój ruch');
    await playAnyMove(p);
    await waitMoves(p.page, 2);
    await press(p, p.page.locator('[data-action="resign"]'));
    await press(p, p.page.locator('[data-action="resign"]'));
    const banner = p.page.locator('[data-banner]:visible');
    await banner.waitFor();
    assert.match(await banner.textContent(), /Przegrana/);
    assert.doesNotMatch(await banner.textContent(), /Przegrałeś|Wygrałeś/);
    await screenshot(p.page, 'details-lost-pl');
    await press(p, banner.locator('[data-action="replay"]'));
    await p.page.waitForURL(/#\/game\//);
    const title = p.page.locator('[data-game] h1', { hasText: 'Komputer · poziom 1' });
    await title.waitFor();
    assert.doesNotMatch(await title.textContent(), /Computer/);
    assert.deepEqual([p.errors, q.errors].flat(), []);
  } finally {
    await p.context.close();
    await q.context.close();
  }
});

test('an unknown table: one message and the way back', async () => {
  const p = await newPlayer(env.browser, { locale: 'pl-PL' });
  try {
    await p.page.goto(`${env.server.url}/#/table/nosuchtable`);
    const missing = p.page.locator('[data-missing]');
    await missing.waitFor();
    assert.match(await missing.textContent(), /Tego stołu już nie ma/);
    assert.equal(await p.page.locator('main .card:visible').count(), 1, 'one card, no empty panels');
    assert.equal(await p.page.locator('[data-chat]:visible').count(), 0, 'no chat boxes');
    await screenshot(p.page, 'details-missing-table');
    await press(p, missing.locator('[data-action="rooms"]'));
    await p.page.locator('[data-room]').first().waitFor();
    // (The browser logs the 404 of the table's look-up; nothing else may fail.)
    assert.deepEqual(p.errors.filter((e) => !/status of 404/.test(e)), []);
  } finally {
    await p.context.close();
  }
});

/** The WCAG contrast ratio of two CSS colours (`rgb(...)`), computed in the page. */
function contrastIn(page, numSel, squareSel) {
  return page.evaluate(([n, sq]) => {
    const rgb = (c) => c.match(/[\d.]+/g).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map((v) => {
      const x = v / 255;
      return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
    }).reduce((acc, v, i) => acc + v * [0.2126, 0.7152, 0.0722][i], 0);
    const bg = rgb(getComputedStyle(document.querySelector(sq)).fill);
    const fgRaw = rgb(getComputedStyle(document.querySelector(n)).fill);
    const alpha = fgRaw.length > 3 ? fgRaw[3] : 1;
    const fg = fgRaw.slice(0, 3).map((v, i) => v * alpha + bg[i] * (1 - alpha));
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    return (a + 0.05) / (b + 0.05);
  }, [numSel, squareSel]);
}

test('square numbers contrast at least 4.5:1; muting a chat author is not a "×"', async () => {
  const alice = await newPlayer(env.browser, { phone: true });
  const bob = await newPlayer(env.browser, { phone: true });
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    const id = await startGame(alice, bob, env.server.url, 'international');
    await waitStatus(alice.page, 'Your move');
    for (const sq of ['21', '46']) {
      const ratio = await contrastIn(alice.page, `[data-square="${sq}"] .num`, `[data-square="${sq}"] .dark`);
      assert.ok(ratio >= 4.5, `square ${sq}'s number: contrast ${ratio.toFixed(2)}:1`);
    }
    await alice.page.locator('[data-chat="table"] input').fill('Powodzenia');
    await alice.page.locator('[data-chat="table"] [data-action="chat-send"]').tap();
    const mute = bob.page.locator('[data-chat="table"] [data-action="mute-person"]');
    await mute.waitFor();
    assert.notEqual((await mute.textContent()).trim(), '×');
    assert.match(await mute.getAttribute('aria-label'), /Mute Alice/);
    await screenshot(bob.page, `details-numbers-chat-${id}`);
    assert.deepEqual([alice.errors, bob.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('item 13: a premove is played at once when legal; a live game can be looked back through', { timeout: 120_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  try {
    await startGame(alice, bob, env.server.url, 'international');
    await waitStatus(alice.page, 'Your move');
    await playMove(alice, '31-26');
    await waitMoves(alice.page, 1);
    // Bob's turn: Alice queues 26-21, then cancels it, then queues it again.
    await press(alice, alice.page.locator('[data-square="26"]'));
    await press(alice, alice.page.locator('[data-square="21"]'));
    await waitStatus(alice.page, 'Premove: 26-21');
    await press(alice, alice.page.locator('[data-action="premove-cancel"]'));
    assert.equal(await alice.page.locator('.square.premove').count(), 0);
    await press(alice, alice.page.locator('[data-square="26"]'));
    await press(alice, alice.page.locator('[data-square="21"]'));
    await alice.page.locator('[data-square="21"].premove').waitFor();
    await playMove(bob, '18-22');
    // Played as soon as it was legal, with no click.
    await waitMoves(bob.page, 3);
    assert.equal((await bob.page.locator('[data-moves] [data-ply]').allTextContents()).at(-1), '26-21');
    // Bob looks back two plies: the position after 31-26, then back to the game.
    await press(bob, bob.page.locator('[data-action="history-back"]'));
    await press(bob, bob.page.locator('[data-action="history-back"]'));
    await waitStatus(bob.page, 'Viewing the position after ply 1 of 3');
    assert.equal(await bob.page.locator('[data-square="26"] [data-piece]').getAttribute('data-piece'), 'white-man');
    assert.equal(await bob.page.locator('[data-square="22"] [data-piece]').count(), 0);
    await press(bob, bob.page.locator('[data-action="history-live"]'));
    await waitStatus(bob.page, 'Your move');
    await bob.page.locator('[data-square="21"] [data-piece="white-man"]').waitFor();
    assert.deepEqual([alice.errors, bob.errors].flat(), []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});
