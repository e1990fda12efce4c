// Notifications (Web Push, issue 40): an account chooses in its panel which kinds it
// wants, kept by the server; the service worker that shows them is served from the site's
// root and installs in Chromium; a guest has no notifications section.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPlayer, startServer } from '../lib/harness.mjs';
import { arrive, press } from '../lib/actions.mjs';

const env = { server: null, browser: null };
before(async () => {
  env.server = await startServer('notifications', []);
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

async function openPanel(p) {
  const btn = p.page.locator('[data-action="account"]');
  if ((await btn.getAttribute('aria-expanded')) !== 'true') await press(p, btn);
  await p.page.locator('[data-account-panel]').waitFor();
}

test('an account chooses its notifications; the service worker installs', async () => {
  const ala = await newPlayer(env.browser);
  const P = ala.page;
  await arrive(ala, env.server.url, 'Ala');
  await openPanel(ala);
  assert.equal(await P.locator('[data-form="notifications"]').count(), 0, 'not for a guest');
  const form = P.locator('[data-form="sign-up"]');
  await form.locator('[name="username"]').fill('Ala_Push');
  await form.locator('[name="password"]').fill('correct horse battery');
  await press(ala, form.locator('[data-action="sign-up"]'));
  await P.locator('[data-me][data-account="account"]', { hasText: 'Ala_Push' }).waitFor({ state: 'attached' });
  await openPanel(ala);

  const section = P.locator('[data-form="notifications"]');
  await section.waitFor();
  const offers = section.locator('[data-notify="offers"]');
  await offers.waitFor();
  for (const kind of ['your_turn', 'offers', 'game_end', 'time_low']) {
    assert.equal(await section.locator(`[data-notify="${kind}"]`).isChecked(), true, kind);
  }
  await offers.uncheck();
  await P.locator('[data-form-msg="notifications"].ok').waitFor();
  const stored = await P.evaluate(() => fetch('/api/push/settings').then((r) => r.json()));
  assert.deepEqual(stored, { your_turn: true, offers: false, game_end: true, time_low: true });

  // Kept: after a reload the box is still off.
  await P.reload();
  await P.locator('[data-room]').first().waitFor();
  await openPanel(ala);
  await P.locator('[data-notify="offers"]').waitFor();
  assert.equal(await P.locator('[data-notify="offers"]').isChecked(), false);
  assert.ok(await P.locator('[data-action="notify-on"], [data-action="notify-off"]').count() === 1
    || await section.locator('.meta').count() > 0, 'a device switch (or why there is none)');

  // The service worker: served at the root (scope /), parses and activates.
  const scope = await P.evaluate(async () => {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
    return reg.scope;
  });
  assert.equal(scope, `${env.server.url}/`);
  await ala.context.close();
});
