// Issue 34 (item 5), the client: a session ended elsewhere (signed out everywhere on
// another browser) closes this page's sockets with 4001; the page says so in words,
// goes on as a guest and opens its sockets again, without a reload. Signing out from
// the page's own panel is not news: no notice there.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { press } from '../lib/actions.mjs';

const env = serverAndBrowser('signed-out');

const PASSWORD = 'correct horse battery';

/** A JSON request from the page (its cookie, same origin): the status. */
function call(p, method, path, body) {
  return p.page.evaluate(async ([m, u, b]) => {
    const r = await fetch(u, {
      method: m,
      headers: { 'Content-Type': 'application/json' },
      body: b == null ? undefined : JSON.stringify(b),
    });
    return r.status;
  }, [method, path, body ?? null]);
}

/** Waits until the header says an account (`account`) or a guest (`guest`) plays. */
async function waitHeader(p, kind, name) {
  const sel = `[data-me][data-account="${kind}"]`;
  await p.page.locator(sel, name ? { hasText: name } : {}).waitFor({ state: 'attached' });
}

test('signed out everywhere from another browser: this page says so and goes on as a guest', async () => {
  const alice = await newPlayer(env.browser);
  const A = alice.page;
  await A.goto(`${env.server.url}/#/`);
  await A.locator('[data-room]').first().waitFor();
  assert.equal(await call(alice, 'POST', '/api/account', { username: 'Alicja', password: PASSWORD }), 201);
  await A.goto(`${env.server.url}/#/room/russian`);
  await A.reload();
  await waitHeader(alice, 'account', 'Alicja');
  await A.locator('[data-form="create-table"]').waitFor();
  // The room's people list shows her: its socket is open.
  await A.locator('[data-people]', { hasText: 'Alicja' }).waitFor();
  // Another browser signs in and out everywhere.
  const other = await newPlayer(env.browser);
  await other.page.goto(`${env.server.url}/#/`);
  await other.page.locator('[data-room]').first().waitFor();
  assert.equal(await call(other, 'POST', '/api/session', { username: 'Alicja', password: PASSWORD }), 200);
  assert.equal(await call(other, 'DELETE', '/api/session?all=true'), 204);
  // This page: told in words, a guest now, the room live again with the new guest.
  const notice = A.locator('[data-notice="signed-out"]:visible');
  await notice.filter({ hasText: 'You were signed out' }).waitFor();
  await waitHeader(alice, 'guest');
  const guest = (await A.locator('[data-me]').textContent()).trim();
  assert.notEqual(guest, 'Alicja');
  await A.locator('[data-people]', { hasText: guest }).waitFor();
  await screenshot(A, 'signed-out-notice');
  // The notice goes away when dismissed.
  await press(alice, notice.locator('button'));
  await A.locator('[data-notice="signed-out"]').waitFor({ state: 'hidden' });
  assert.deepEqual(alice.errors, []);
  await other.context.close();
  await alice.context.close();
});

test('signing out from the page itself shows no notice', async () => {
  const bob = await newPlayer(env.browser);
  const B = bob.page;
  await B.goto(`${env.server.url}/#/`);
  await B.locator('[data-room]').first().waitFor();
  assert.equal(await call(bob, 'POST', '/api/account', { username: 'Bogdan', password: PASSWORD }), 201);
  await B.goto(`${env.server.url}/#/room/russian`);
  await B.reload();
  await waitHeader(bob, 'account', 'Bogdan');
  await B.locator('[data-people]', { hasText: 'Bogdan' }).waitFor();
  await press(bob, B.locator('[data-action="account"]'));
  await press(bob, B.locator('[data-action="sign-out"]'));
  await waitHeader(bob, 'guest');
  const guest = (await B.locator('[data-me]').textContent()).trim();
  await B.locator('[data-people]', { hasText: guest }).waitFor();
  assert.equal(await B.locator('[data-notice="signed-out"]:visible').count(), 0);
  assert.deepEqual(bob.errors, []);
  await bob.context.close();
});
