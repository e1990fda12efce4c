// The full two-player story, shared by the desktop and the phone tests: two guests in
// separate browser contexts create and join a table, start, play by clicking (a
// multi-capture square by square), watch each other's board and clocks update, reload
// mid-game, agree a draw, then play the next game at the same table and resign it.

import assert from 'node:assert/strict';
import { newPlayer, screenshot } from './harness.mjs';
import {
  arrive, clockMs, clockText, createTable, expectPiece, moveList, playMove, press, waitMoves, waitStatus,
} from './actions.mjs';

/**
 * Lines from the start position that end in a two-piece capture (checked with the
 * engine: in each final position the capture is the only legal move).
 */
export const LINES = {
  russian: {
    opening: ['c3-b4', 'b6-a5', 'e3-d4'],
    capture: 'a5xc3xe5',
    captured: ['b4', 'd4'],
    victim: 'white-man',
    lands: ['e5', 'black-man'],
  },
  international: {
    opening: ['31-26', '18-22', '34-29', '17-21'],
    capture: '26x17x28',
    captured: ['21', '22'],
    victim: 'black-man',
    lands: ['28', 'white-man'],
  },
};

/** Plays one legal move the way a person picks one: a highlighted piece, then a target. */
export async function playAnyMove(player) {
  const { page } = player;
  await press(player, page.locator('.square.movable').first());
  for (;;) {
    await press(player, page.locator('.square.target').first());
    // A capture may need more landing squares; the path resets once the move is sent.
    if ((await page.locator('.square.target').count()) === 0) return;
  }
}

/**
 * Runs the story.
 * @param {{browser: object, url: string, variant: string, phone: boolean, tag: string, t: object}} opts
 */
export async function twoPlayerStory({ browser, url, variant, phone, tag, t }) {
  const line = LINES[variant];
  const alice = await newPlayer(browser, { phone });
  const bob = await newPlayer(browser, { phone, locale: 'pl-PL' });
  const A = alice.page;
  const B = bob.page;
  // The steps tell one story: after a failed step the rest are skipped, not timed out.
  let failed = null;
  const step = (name, fn) => t.test(name, failed ? { skip: `after failed step: ${failed}` } : {}, async () => {
    try {
      await fn();
    } catch (err) {
      failed = name;
      await screenshot(A, `${tag}-failed-alice`).catch(() => {});
      await screenshot(B, `${tag}-failed-bob`).catch(() => {});
      throw err;
    }
  });
  try {
    await step('two guests arrive and one creates a table the other sees live', async () => {
      await arrive(alice, url, 'Alice');
      await arrive(bob, url, 'Bob');
      await B.goto(`${url}/#/room/${variant}`);
      await B.locator('[data-form="create-table"]').waitFor();
      const id = await createTable(alice, url, variant, { minutes: 5, increment: 0, seat: 'white' });
      const row = B.locator(`[data-table-id="${id}"]`);
      await row.waitFor();
      assert.match(await row.textContent(), /Alice/);
      await screenshot(B, `${tag}-room`);
      await press(bob, row.locator('[data-action="sit"][data-seat="black"]'));
      await B.waitForURL(new RegExp(`#/table/${id}`));
      await A.locator('[data-player="black"]', { hasText: 'Bob' }).waitFor();
    });

    await step('both press Start and the game begins', async () => {
      await press(alice, A.locator('[data-action="start"]'));
      await press(bob, B.locator('[data-action="start"]'));
      await waitStatus(A, 'Your move');
      await waitStatus(B, 'Ruch białych');
      // Before the first moves the clocks wait (the first-move window runs instead).
      assert.equal(await clockText(A, 'white'), '5:00');
      assert.equal(await clockText(B, 'black'), '5:00');
      await A.locator('[data-deadline]').waitFor();
    });

    await step('moves entered by clicking reach the opponent; clocks follow', async () => {
      const players = [alice, bob];
      for (const [i, move] of line.opening.entries()) {
        const mover = players[i % 2];
        const other = players[(i + 1) % 2];
        const [from, to] = move.split('-');
        if (i === 0 && !phone) {
          // The first move by keyboard: squares are focusable and operated with Enter.
          for (const sq of [from, to]) {
            await mover.page.locator(`[data-square="${sq}"]`).focus();
            await mover.page.keyboard.press('Enter');
          }
        } else {
          await playMove(mover, move);
        }
        const piece = i % 2 === 0 ? 'white-man' : 'black-man';
        await expectPiece(other.page, to, piece);
        await expectPiece(other.page, from, null);
        await waitMoves(mover.page, i + 1);
        if (i === 1) {
          // Once both sides moved, White's clock runs on both screens and counts down.
          await A.locator('[data-clock="white"].running').waitFor();
          await B.locator('[data-clock="white"].running').waitFor();
          const before = clockMs(await clockText(B, 'white'));
          await B.waitForTimeout(1_300);
          const after = clockMs(await clockText(B, 'white'));
          assert.ok(after < before, `white clock counts down: ${before} -> ${after}`);
          assert.ok(before - after < 3_000, `and not too fast: ${before} -> ${after}`);
        }
      }
    });

    await step('a multi-capture is entered landing square by landing square', async () => {
      const n = line.opening.length;
      const mover = n % 2 === 0 ? alice : bob;
      const other = n % 2 === 0 ? bob : alice;
      const squares = line.capture.split('x');
      await press(mover, mover.page.locator(`[data-square="${squares[0]}"]`));
      for (const [k, sq] of squares.slice(1, -1).entries()) {
        await press(mover, mover.page.locator(`[data-square="${sq}"]`));
        // Half-way: nothing was sent, only the legal continuation is offered.
        const targets = await mover.page.locator('.square.target').evaluateAll((els) => els.map((e) => e.dataset.square));
        assert.deepEqual(targets, [squares[k + 2]]);
        for (const c of line.captured) await expectPiece(other.page, c, line.victim, 1_000);
      }
      await press(mover, mover.page.locator(`[data-square="${squares.at(-1)}"]`));
      for (const page of [A, B]) {
        for (const c of line.captured) await expectPiece(page, c, null);
        await expectPiece(page, line.lands[0], line.lands[1]);
        await waitMoves(page, n + 1);
        assert.equal((await moveList(page)).at(-1), line.capture);
      }
      await screenshot(A, `${tag}-game`);
    });

    await step('a reloaded page comes back with the game intact', async () => {
      const before = await moveList(A);
      await A.reload();
      await waitMoves(A, before.length);
      assert.deepEqual(await moveList(A), before);
      await expectPiece(A, line.lands[0], line.lands[1]);
      const moverIsAlice = (before.length % 2) === 0;
      const mover = moverIsAlice ? alice : bob;
      const other = moverIsAlice ? bob : alice;
      await waitStatus(mover.page, mover === alice ? 'Your move' : 'Twój ruch');
      await A.locator('[data-presence="on"]').nth(1).waitFor();
      await playAnyMove(mover);
      await waitMoves(other.page, before.length + 1);
      await waitMoves(mover.page, before.length + 1);
    });

    await step('a draw is offered and accepted', async () => {
      await press(bob, B.locator('[data-action="draw-offer"]'));
      await press(alice, A.locator('[data-action="draw-accept"]'));
      for (const page of [A, B]) await page.locator('[data-banner]:visible').waitFor();
      assert.match(await A.locator('[data-banner]').textContent(), /Draw/);
      assert.match(await A.locator('[data-status]').textContent(), /Draw \(by agreement\)/);
      assert.match(await B.locator('[data-banner]').textContent(), /Remis/);
      await screenshot(A, `${tag}-game-over`);
    });

    await step('the next game at the same table swaps colours and one player resigns', async () => {
      await press(alice, A.locator('[data-banner] [data-action="start"]'));
      await press(bob, B.locator('[data-banner] [data-action="start"]'));
      // Colours swap: Bob has White now and moves first.
      await waitStatus(B, 'Twój ruch');
      await A.locator('[data-player="white"]', { hasText: 'Bob' }).waitFor();
      await waitMoves(A, 0);
      await playAnyMove(bob);
      await waitMoves(A, 1);
      await screenshot(A, `${tag}-as-black`);
      // A move each (before both have moved, resigning would abort the game).
      await playAnyMove(alice);
      await waitMoves(B, 2);
      await waitMoves(A, 2);
      // Resigning asks for a second click.
      await press(alice, A.locator('[data-action="resign"]'));
      await A.locator('[data-action="resign"]', { hasText: 'Click again' }).waitFor();
      assert.equal(await B.locator('[data-banner]:visible').count(), 0, 'one click does not resign');
      await press(alice, A.locator('[data-action="resign"]'));
      await A.locator('[data-banner]:visible', { hasText: 'You lost' }).waitFor();
      await B.locator('[data-banner]:visible', { hasText: 'Wygrana' }).waitFor();
      // The result says who resigned (game_over.by): Alice, with Black in this game.
      assert.match(await B.locator('[data-status]').textContent(), /czarne się poddały/);
    });

    await step('the finished game replays and downloads as PDN', async () => {
      await press(alice, A.locator('[data-banner] [data-action="replay"]'));
      await A.waitForURL(/#\/game\//);
      await waitMoves(A, 2);
      await press(alice, A.locator('[data-action="first"]'));
      await A.locator('[data-ply-shown="0"]').waitFor();
      await press(alice, A.locator('[data-action="next"]'));
      await A.locator('[data-ply-shown="1"]').waitFor();
      const href = await A.locator('[data-action="pdn"]').getAttribute('href');
      const res = await A.request.get(new URL(href, url).toString());
      assert.equal(res.status(), 200);
      assert.match(await res.text(), /\[Result "/);
    });

    if (failed) return;
    assert.deepEqual(alice.errors, [], 'no script errors in Alice’s page');
    assert.deepEqual(bob.errors, [], 'no script errors in Bob’s page');
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
}
