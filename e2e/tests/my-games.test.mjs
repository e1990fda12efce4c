// "Your games" on the start page (issue 40, "my games"): a game in progress is listed,
// with whose move it is, and one click opens its table; a finished one is not.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { launchBrowser, newPlayer, startServer } from '../lib/harness.mjs';
import { arrive, press } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';

const env = { server: null, browser: null };
before(async () => {
  env.server = await startServer('my-games', []);
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
});

for (const phone of [false, true]) {
  test(`a game in progress is one click from the start page (${phone ? 'phone' : 'desktop'})`, async () => {
    const p = await newPlayer(env.browser, { phone });
    const P = p.page;
    await arrive(p, env.server.url, 'Wanda');
    await P.locator('.my-games-slot[data-loaded]').waitFor({ state: 'attached' });
    assert.equal(await P.locator('[data-my-games]').count(), 0, 'nothing before a game');
    await press(p, P.locator('[data-action="quick-bot"]'));
    await P.waitForURL(/#\/table\//);
    const table = P.url();
    await playAnyMove(p);
    await P.goto(`${env.server.url}/#/`);
    const card = P.locator('[data-my-games="1"]');
    await card.waitFor();
    const item = card.locator('[data-my-game]');
    assert.match(await item.innerText(), /Computer|bot|level/i);
    await press(p, item.locator('a'));
    await P.waitForURL(table);
    await P.locator('[data-action="resign"]').waitFor();
    await press(p, P.locator('[data-action="resign"]'));
    await press(p, P.locator('[data-action="resign"]'));
    await P.locator('[data-banner]:visible').waitFor();
    await P.goto(`${env.server.url}/#/`);
    await P.locator('[data-room]').first().waitFor();
    await P.locator('.my-games-slot[data-loaded]').waitFor({ state: 'attached' });
    assert.equal(await P.locator('[data-my-games]').count(), 0, 'a finished game is not listed');
    await p.context.close();
  });
}
