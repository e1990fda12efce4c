// Correspondence (issue 40, item 1): two accounts create a game of days per move in the
// create-table form, play their first moves, and the clocks show days and hours; the
// start page's "Your games" shows the time left; a guest sees why the choice is not for
// them. Screenshots at 1366x768 and 360x740.

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
    assert.equal(await form.locator('#opt-rated').isDisabled(), true, 'casual');
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
    await playMove(bogdan, 'b6-a5');
    await waitMoves(A, 2);
    // White's three days run; Black's move gave it its three days again.
    assert.equal(await clockMatches(A, 'white', /^2 d 23 h$/), '2 d 23 h');
    assert.equal(await clockMatches(B, 'black', /^3 d 0 h$/), '3 d 0 h');
    await screenshot(A, 'correspondence-table-1366');
    await screenshot(B, 'correspondence-table-360');

    // "Your games" on the start page: Alicja's move, and the time left.
    for (const [p, name, mine] of [[alicja, 'desktop', true], [bogdan, 'phone', false]]) {
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
