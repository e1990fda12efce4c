// The game screen's helpers, seen by two players and a spectator at a Russian table:
// the draw prompt with its sound, the declined notice and the offer limit on the button,
// the compulsory-capture hint, the capture path (the piece travels, jumped pieces
// marked, a path colour unlike the last move's), labelled counters, the flip switch,
// the remembered mute switch, "You aborted", move times and flip in the replay, and the
// rules comparison table not clipped on a wide screen.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, expectPiece, playMove, press, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';

const env = serverAndBrowser('screen');

const sounds = (page) => page.evaluate(() => (document.documentElement.dataset.sounds ?? '').split(' ').filter(Boolean));
const waitSound = (page, name) =>
  page.waitForFunction((n) => (document.documentElement.dataset.sounds ?? '').split(' ').includes(n), name);
const squareFill = (page, sq) => page.locator(`[data-square="${sq}"] rect.dark`).evaluate((el) => getComputedStyle(el).fill);
const squareXY = (page, sq) => page.locator(`[data-square="${sq}"]`).getAttribute('transform');

test('draw prompt, offer limit, capture path, counters, flip and sound', { timeout: 150_000 }, async () => {
  const alice = await newPlayer(env.browser);
  await alice.page.setViewportSize({ width: 1366, height: 768 });
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  const A = alice.page;
  const B = bob.page;
  const C = carol.page;
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    const id = await startGame(alice, bob, env.server.url, 'russian');
    await C.goto(`${env.server.url}/#/table/${id}`);
    await waitStatus(A, 'Your move');
    await waitSound(A, 'start');
    // Counters are labelled by colour.
    await A.locator('[data-count="white"]', { hasText: 'White: 12' }).waitFor();
    await A.locator('[data-count="black"]', { hasText: 'Black: 12' }).waitFor();

    await playMove(alice, 'c3-b4');
    await waitMoves(B, 1);
    await waitSound(B, 'move');
    await playMove(bob, 'b6-a5');
    await waitMoves(A, 2);

    // Alice offers a draw: Bob gets a prominent prompt, with a sound; Alice does not.
    await press(alice, A.locator('[data-action="draw-offer"]'));
    const prompt = B.locator('[data-prompt="draw"]');
    await prompt.waitFor();
    assert.match(await prompt.textContent(), /Alice offers a draw/);
    await waitSound(B, 'offer');
    assert.ok(!(await sounds(A)).includes('offer'), 'the offerer hears no offer sound');
    await screenshot(B, 'screen-draw-prompt');
    await press(bob, prompt.locator('[data-action="draw-decline"]'));
    // Alice is told, and her button waits for the server's limit with the reason.
    await A.locator('[data-prompt="declined"]', { hasText: 'declined' }).waitFor();
    const offer = A.locator('[data-action="draw-offer"]');
    await A.waitForFunction(() => document.querySelector('[data-action="draw-offer"]')?.disabled === true);
    assert.match(await offer.getAttribute('title'), /again in 10 plies/);

    await playMove(alice, 'e3-d4');
    await waitMoves(B, 3);
    // Alice's page counts the ply when her own move comes back (Bob's may
    // show it first).
    await A.waitForFunction(() =>
      /again in 9 plies/.test(document.querySelector('[data-action="draw-offer"]')?.title ?? ''));
    assert.match(await offer.getAttribute('title'), /again in 9 plies/);
    // Bob must capture: a piece that cannot move says so.
    await press(bob, B.locator('[data-square="h6"]'));
    await waitStatus(B, 'A capture is compulsory');
    // Square by square: the man travels along the path and the jumped man is marked.
    const lastFill = await squareFill(B, 'd4');
    await press(bob, B.locator('[data-square="a5"]'));
    await press(bob, B.locator('[data-square="c3"]'));
    await expectPiece(B, 'c3', 'black-man');
    await expectPiece(B, 'a5', null);
    await B.locator('[data-square="b4"].taking').waitFor();
    await B.locator('.board .path-line').waitFor();
    const pathFill = await squareFill(B, 'c3');
    assert.notEqual(pathFill, lastFill, 'the path colour differs from the last-move colour');
    await screenshot(B, 'screen-capture-path');
    await press(bob, B.locator('[data-square="e5"]'));
    await waitMoves(A, 4);
    await waitSound(A, 'capture');
    await A.locator('[data-count="white"]', { hasText: 'White: 10' }).waitFor();
    assert.equal(await B.locator('.taking').count(), 0);

    // The spectator turns the board around.
    const before = await squareXY(C, 'a1');
    await press(carol, C.locator('[data-action="flip"]'));
    await C.waitForFunction((b) => document.querySelector('[data-square="a1"]').getAttribute('transform') !== b, before);
    await C.locator('[data-action="flip"][aria-pressed="true"]').waitFor();

    // Alice mutes; the switch survives a reload and no sound plays afterwards.
    await press(alice, A.locator('[data-action="sound"]'));
    await A.locator('[data-action="sound"][data-muted="true"]').waitFor();
    await A.reload();
    await A.locator('[data-action="sound"][data-muted="true"]').waitFor();
    await waitMoves(A, 4);
    await playMove(alice, 'g3-f4');
    await waitMoves(A, 5);
    await waitMoves(B, 5);
    await waitSound(B, 'move');
    assert.deepEqual(await sounds(A), [], 'muted: nothing played');

    // Alice resigns; the replay shows each move's time and can be flipped.
    await press(alice, A.locator('[data-action="resign"]'));
    await press(alice, A.locator('[data-action="resign"]'));
    await A.locator('[data-banner]:visible').waitFor();
    await waitSound(B, 'end');
    await press(alice, A.locator('[data-action="replay"]'));
    await A.waitForURL(/#\/game\//);
    await A.locator('[data-used-ms]').nth(4).waitFor();
    assert.equal(await A.locator('[data-used-ms]').count(), 5);
    const rb = await squareXY(A, 'a1');
    await press(alice, A.locator('[data-action="flip"]'));
    await A.waitForFunction((b) => document.querySelector('[data-square="a1"]').getAttribute('transform') !== b, rb);
    await screenshot(A, 'screen-replay');
    for (const p of [alice, bob, carol]) assert.deepEqual(p.errors, []);
  } finally {
    await alice.context.close();
    await bob.context.close();
    await carol.context.close();
  }
});

test('copy link; the player who aborts is told so, the opponent and a spectator read who aborted', { timeout: 90_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser);
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    const id = await startGame(alice, bob, env.server.url, 'russian');
    await carol.page.goto(`${env.server.url}/#/table/${id}`);
    await waitStatus(alice.page, 'Your move');
    // "Copy link" puts the table's address on the clipboard.
    await alice.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.server.url });
    await press(alice, alice.page.locator('[data-action="copy-link"]'));
    await alice.page.locator('[data-action="copy-link"]', { hasText: 'Link copied' }).waitFor();
    assert.equal(await alice.page.evaluate(() => navigator.clipboard.readText()), alice.page.url());
    await press(alice, alice.page.locator('[data-action="abort"]'));
    await alice.page.locator('[data-banner]:visible', { hasText: 'You aborted the game' }).waitFor();
    await bob.page.locator('[data-banner]:visible', { hasText: 'White aborted the game' }).waitFor();
    await carol.page.locator('[data-status]', { hasText: 'White aborted the game' }).waitFor();
    // A late spectator reads it from the state.
    await carol.page.reload();
    await carol.page.locator('[data-banner]:visible', { hasText: 'White aborted the game' }).waitFor();
    await screenshot(carol.page, 'screen-aborted-by-spectator');
  } finally {
    await alice.context.close();
    await bob.context.close();
    await carol.context.close();
  }
});

test('the rules comparison table is not clipped on a wide screen, in both languages', async () => {
  const p = await newPlayer(env.browser);
  try {
    await p.page.setViewportSize({ width: 1366, height: 768 });
    for (const [lang, route] of [['en', 'rules'], ['pl', 'rules'], ['pl', 'rules/italian']]) {
      await p.page.goto(`${env.server.url}/#/${route}`);
      await p.page.locator('[data-lang-select]').selectOption(lang);
      await p.page.locator(`html[lang="${lang}"]`).waitFor();
      const box = p.page.locator('.table-scroll');
      await box.waitFor();
      const { scroll, client, right } = await box.evaluate((el) => ({
        scroll: el.scrollWidth, client: el.clientWidth, right: el.getBoundingClientRect().right,
      }));
      assert.ok(scroll <= client + 1, `${lang} ${route}: table ${scroll} px fits its ${client} px box`);
      assert.ok(right <= 1366, `${lang} ${route}: the box ends inside the window (${right})`);
      await screenshot(p.page, `screen-${route.replace('/', '-')}-${lang}-1366`);
    }
  } finally {
    await p.context.close();
  }
});

test('after a game the opponent sees the rematch request and accepts it with one click', { timeout: 90_000 }, async () => {
  const alice = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const A = alice.page;
  const B = bob.page;
  try {
    await arrive(alice, env.server.url, 'Alice');
    await arrive(bob, env.server.url, 'Bob');
    await startGame(alice, bob, env.server.url, 'russian');
    await waitStatus(A, 'Your move');
    await playMove(alice, 'c3-d4');
    await waitMoves(B, 1);
    await press(bob, B.locator('[data-action="resign"]'));
    await press(bob, B.locator('[data-action="resign"]'));
    await A.locator('[data-banner]:visible').waitFor();
    // Alice asks for another game: Bob is asked, not just shown a ready badge.
    await press(alice, A.locator('[data-banner] [data-action="start"]'));
    const prompt = B.locator('[data-prompt="rematch"]');
    await prompt.waitFor();
    assert.match(await prompt.textContent(), /Alice wants a rematch/);
    await screenshot(B, 'screen-rematch-prompt');
    await press(bob, prompt.locator('[data-action="rematch"]'));
    // The new game starts with the colours swapped: Bob has White.
    await waitStatus(B, 'Your move');
    await B.locator('[data-player="white"]', { hasText: 'Bob' }).waitFor();
    assert.equal(await A.locator('[data-prompt="rematch"]:visible').count(), 0);
    for (const p of [alice, bob]) assert.deepEqual(p.errors, []);
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});
