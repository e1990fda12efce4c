// Correspondence (issue 40, item 1): two accounts create a game of days per move in the
// create-table form, play their first moves, and the clocks show days and hours; the
// start page's "Your games" shows the time left; a guest sees why the choice is not for
// them; a prepared reply (a conditional move) is played as soon as the opponent's move
// starts its line. Screenshots at 1366x768 and 360x740.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, playMove, press, waitMoves } from '../lib/actions.mjs';

const env = serverAndBrowser('correspondence');

/** A request from the page's session. */
function call(p, method, url, body) {
  return p.page.evaluate(async ([m, u, b]) => {
    const r = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [method, url, body]);
}

/** Makes the page's guest an account `name` and reloads as it. */
async function signUp(p, url, name) {
  await arrive(p, url, name);
  const r = await call(p, 'POST', '/api/account', { username: name, password: 'correct horse battery' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await p.page.reload();
  await p.page.locator('[data-me][data-account="account"]').waitFor({ state: 'attached' });
}

/** The clock face of `side` once it matches `pattern`. */
async function clockMatches(page, side, pattern) {
  const clock = page.locator(`[data-clock="${side}"]`);
  await page.waitForFunction(([s, src]) => new RegExp(src).test(document.querySelector(`[data-clock="${s}"]`)?.textContent ?? ''),
    [side, pattern.source]);
  return clock.textContent();
}

test('two accounts play by correspondence; the clocks show days', { timeout: 180_000 }, async () => {
  const { url } = env.server;
  const alicja = await newPlayer(env.browser);
  await alicja.page.setViewportSize({ width: 1366, height: 768 });
  const bogdan = await newPlayer(env.browser, { phone: true });
  const guest = await newPlayer(env.browser);
  try {
    // A guest finds the choice disabled, with the reason.
    await arrive(guest, url, 'Gosc');
    await guest.page.goto(`${url}/#/room/russian`);
    const gform = guest.page.locator('[data-form="create-table"]');
    await gform.waitFor();
    assert.equal(await gform.locator('[name="days"]').isDisabled(), true);
    assert.match(await gform.locator('[data-days-note]').innerText(), /accounts/);

    await signUp(alicja, url, 'Alicja');
    await signUp(bogdan, url, 'Bogdan');
    // Alicja chooses 3 days per move: minutes and increment are off with it.
    const A = alicja.page;
    await A.goto(`${url}/#/room/russian`);
    const form = A.locator('[data-form="create-table"]');
    await form.waitFor();
    await form.locator('[name="days"]').selectOption('3');
    assert.equal(await form.locator('[name="minutes"]').isVisible(), false, 'no minutes with days');
    // Rated is offered (in its own correspondence rating); this game stays casual.
    assert.equal(await form.locator('#opt-rated').isDisabled(), false);
    assert.equal(await form.locator('#opt-rated').isChecked(), false);
    await screenshot(A, 'correspondence-form-1366');
    await form.locator('[name="seat"]').selectOption('white');
    await press(alicja, form.locator('[data-action="create-table"]'));
    await A.waitForURL(/#\/table\//);
    const id = decodeURIComponent(A.url().split('#/table/')[1]);
    await A.locator('[data-time-control="3d"]').waitFor();
    assert.equal(await clockMatches(A, 'white', /^3 d 0 h$/), '3 d 0 h');

    // The room lists the table as 3 days per move.
    await guest.page.goto(`${url}/#/room/russian`);
    const row = guest.page.locator(`[data-table-id="${id}"]`);
    await row.waitFor();
    assert.match(await row.locator('.time').innerText(), /3 days per move/);
    assert.match(await row.innerText(), /accounts only/, 'no Sit for a guest');

    const B = bogdan.page;
    await B.goto(`${url}/#/table/${id}`);
    await press(bogdan, B.locator('[data-action="sit"][data-seat="black"]'));
    await press(alicja, A.locator('[data-action="start"]'));
    await press(bogdan, B.locator('[data-action="start"]'));
    // The first move has the period, worded like the clock.
    await A.locator('[data-deadline]', { hasText: /^First move: (2 d 23 h|3 d 0 h) left$/ }).waitFor();
    await playMove(alicja, 'c3-b4');
    await waitMoves(B, 1);
    // While Bogdan thinks, Alicja prepares a reply (issue 40, item 4): a move the rules
    // refuse is named, then a good line is kept and shown to her only.
    const card = A.locator('[data-conditional]');
    await card.waitFor();
    assert.equal(await B.locator('[data-conditional]').isVisible(), false, 'the side to move prepares nothing');
    await card.locator('[data-cond-input]').fill('b6-a5 a1-h8');
    await press(alicja, card.locator('[data-action="cond-save"]'));
    assert.match(await card.locator('[data-cond-error]').innerText(), /a1-h8/);
    await card.locator('[data-cond-input]').fill('b6-a5 g3-h4\nf6-g5 g3-h4');
    await press(alicja, card.locator('[data-action="cond-save"]'));
    await A.locator('[data-conditional][data-cond-lines="2"]').waitFor();
    await screenshot(A, 'correspondence-conditional-1366');
    await A.setViewportSize({ width: 360, height: 740 });
    await card.scrollIntoViewIfNeeded();
    await screenshot(A, 'correspondence-conditional-360');
    await A.setViewportSize({ width: 1366, height: 768 });
    // Bogdan's move starts the first line: Alicja's reply is played at once.
    await playMove(bogdan, 'b6-a5');
    await waitMoves(A, 3);
    await waitMoves(B, 3);
    assert.match(await B.locator('[data-moves]').innerText(), /g3-h4/);
    // Both lines are spent (Black to move again: Alicja may prepare new ones).
    await A.locator('[data-conditional][data-cond-lines="0"] [data-cond-none]').waitFor();
    // White's reply gave it its three days again; Black's three days run.
    assert.equal(await clockMatches(A, 'white', /^3 d 0 h$/), '3 d 0 h');
    await clockMatches(B, 'black', /^(2 d 23 h|3 d 0 h)$/);
    await screenshot(A, 'correspondence-table-1366');
    await screenshot(B, 'correspondence-table-360');

    // "Your games" on the start page: Alicja's move, and the time left.
    for (const [p, name, mine] of [[alicja, 'desktop', false], [bogdan, 'phone', true]]) {
      await p.page.goto(`${url}/#/`);
      const item = p.page.locator(`[data-my-games="1"] [data-my-game][data-my-move="${mine}"]`);
      await item.waitFor();
      assert.match(await item.locator('[data-time-left]').innerText(), /(2 d 23 h|3 d 0 h) left/);
      await screenshot(p.page, `correspondence-mygames-${name}`);
    }
    for (const p of [alicja, bogdan, guest]) assert.deepEqual(p.errors, []);
  } finally {
    for (const p of [alicja, bogdan, guest]) await p.context.close();
  }
});
