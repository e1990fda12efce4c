// Issue 23: the account pages with the longest usernames allowed (20 capital Ws and Ms)
// at 1366x768 and on a 360x740 phone, in English and Polish: the header signed in, the
// sign-up form, a rated game with ratings in the seats, the game-over banner with the
// rating changes, the profile and the leaderboard. Each page must be no wider than the
// screen, with the names cut by an ellipsis; screenshots `accounts-*.png`.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { launchBrowser, newPlayer, screenshot, startServer } from '../lib/harness.mjs';
import { arrive, playMove, press, waitMoves } from '../lib/actions.mjs';

const env = { server: null, browser: null, db: null };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'damka-accounts-screens-'));
before(async () => {
  env.db = path.join(tmp, 'damka.db');
  env.server = await startServer('accounts-screens', [], { databaseUrl: `sqlite://${env.db}` });
  env.browser = await launchBrowser();
});
after(async () => {
  await env.browser?.close();
  await env.server?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const W = 'W'.repeat(20);
const M = 'M'.repeat(20);
const PASSWORD = 'correct horse battery';
const SIZES = [
  { tag: '1366', width: 1366, height: 768 },
  { tag: '360', width: 360, height: 740 },
];
const LANGS = ['en', 'pl'];

/**
 * Shows the page in both languages at both sizes: checks that nothing is wider than
 * the screen, runs `check` and saves a screenshot each time.
 */
async function shoot(page, name, check = async () => {}) {
  for (const lang of LANGS) {
    await page.locator('[data-lang-select]').selectOption(lang);
    await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.waitForTimeout(150);
      await check(lang, size);
      const wide = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
      // (On failure: the outermost elements that stick out.)
      const out = wide <= size.width ? [] : await page.evaluate((w) => [...document.querySelectorAll('body *')]
        .filter((el) => el.getBoundingClientRect().right > w + 1 && !(el.parentElement?.getBoundingClientRect().right > w + 1))
        .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className?.baseVal ?? el.className} ${Math.round(el.getBoundingClientRect().right)}`), size.width);
      assert.ok(wide <= size.width, `${name} ${lang} ${size.tag}: ${wide} px on a ${size.width} px screen: ${out.join(', ')}`);
      await screenshot(page, `accounts-${name}-${lang}-${size.tag}`);
    }
  }
}

/** The element is cut with an ellipsis (its text is wider than its box). */
async function assertCut(locator, what) {
  const r = await locator.first().evaluate((el) => ({ cut: el.scrollWidth > el.clientWidth, style: getComputedStyle(el).textOverflow }));
  assert.equal(r.style, 'ellipsis', `${what} ends with an ellipsis`);
  return r.cut;
}

async function signUp(p, username) {
  await p.page.locator('[data-action="account"]').click();
  const f = p.page.locator('[data-form="sign-up"]');
  await f.locator('[name="username"]').fill(username);
  await f.locator('[name="password"]').fill(PASSWORD);
  await f.locator('[data-action="sign-up"]').click();
  await p.page.locator('[data-me][data-account="account"]', { hasText: username }).waitFor({ state: 'attached' });
}

test('account pages with 20-character usernames fit 1366x768 and a 360 px phone, in English and Polish', { timeout: 300_000 }, async () => {
  const w = await newPlayer(env.browser, { locale: 'en-GB' });
  const m = await newPlayer(env.browser, { locale: 'en-GB' });
  const page = w.page;
  try {
    await arrive(w, env.server.url, W);
    await arrive(m, env.server.url, M);
    // The sign-up form, the guest's name offered as the username.
    await page.locator('[data-action="account"]').click();
    await page.locator('[data-form="sign-up"] [name="username"]').waitFor();
    assert.equal(await page.locator('[data-form="sign-up"] [name="username"]').inputValue(), W);
    await shoot(page, 'signup', async () => {
      await page.locator('[data-form="sign-up"]').waitFor();
      await page.locator('[data-form="sign-in"]').waitFor();
    });
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.locator('[data-lang-select]').selectOption('en');
    await page.locator('[data-form="sign-up"] [data-action="sign-up"]').waitFor();
    await page.locator('[data-form="sign-up"] [name="password"]').fill(PASSWORD);
    await page.locator('[data-form="sign-up"] [data-action="sign-up"]').click();
    await page.locator('[data-me][data-account="account"]', { hasText: W }).waitFor({ state: 'attached' });
    await signUp(m, M);
    // The header signed in, with the account's panel open.
    await page.locator('[data-action="account"]').click();
    await shoot(page, 'header', async () => {
      await page.locator('[data-form="change-password"]').waitFor();
    });
    await page.locator('[data-account-panel] .close').click();

    // A rated game between the two.
    await page.goto(`${env.server.url}/#/room/russian`);
    const form = page.locator('[data-form="create-table"]');
    await form.waitFor();
    await form.locator('#opt-rated').check();
    await form.locator('[name="seat"]').selectOption('white');
    await form.locator('[data-action="create-table"]').click();
    await page.waitForURL(/#\/table\//);
    const id = decodeURIComponent(page.url().split('#/table/')[1]);
    await m.page.goto(`${env.server.url}/#/table/${id}`);
    await press(m, m.page.locator('[data-action="sit"][data-seat="black"]'));
    await press(w, page.locator('[data-action="start"]'));
    await press(m, m.page.locator('[data-action="start"]'));
    await playMove(w, 'c3-b4');
    await waitMoves(m.page, 1);
    await playMove(m, 'b6-a5');
    await waitMoves(page, 2);
    await shoot(page, 'game', async (lang, size) => {
      await page.locator('[data-player="black"] [data-rating="1500?"]').waitFor();
      await page.locator('[data-player="white"] [data-rating="1500?"]').waitFor();
      if (size.width === 360) assert.ok(await assertCut(page.locator('[data-player="black"] [data-full-name]'), 'a seat name'), 'the name is cut on a phone');
      // The rating stays whole beside the cut name.
      const r = await page.locator('[data-player="black"] [data-rating]').evaluate((el) => ({ w: el.scrollWidth, c: el.clientWidth, right: el.getBoundingClientRect().right }));
      assert.ok(r.w <= r.c + 1 && r.right <= size.width, `${lang} ${size.tag}: the rating is whole ${JSON.stringify(r)}`);
    });
    // The room's list with the rated table and the people with ratings.
    await m.page.setViewportSize({ width: 360, height: 740 });
    await m.page.goto(`${env.server.url}/#/room/russian`);
    await m.page.locator(`[data-table-id="${id}"] [data-rating="1500?"]`).first().waitFor();
    await m.page.locator('[data-people] [data-rating]').first().waitFor();
    await shoot(m.page, 'room');
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.locator('[data-lang-select]').selectOption('en');
    await page.locator('[data-action="resign"]').click();
    await page.locator('[data-action="resign"]').click();
    await shoot(page, 'gameover', async () => {
      await page.locator('[data-rating-change="white"]', { hasText: '1500 → 1338 (−162)' }).waitFor();
      await page.locator('[data-rating-change="black"]', { hasText: '1500 → 1662 (+162)' }).waitFor();
    });

    // Established, as after many games: on the leaderboard.
    for (const name of [W, M]) {
      execFileSync('sqlite3', [env.db, `UPDATE ratings SET rd = 60, games = 30 WHERE player_id = (SELECT player_id FROM accounts WHERE username = '${name}')`]);
    }
    await page.goto(`${env.server.url}/#/player/${W}`);
    await shoot(page, 'profile', async () => {
      await page.locator('[data-chart="russian"] svg [data-point]').waitFor();
    });
    await page.goto(`${env.server.url}/#/leaderboard/russian`);
    await shoot(page, 'leaderboard', async (lang, size) => {
      await page.locator(`[data-leader="${M}"]`).waitFor();
      await page.locator(`[data-leader="${W}"]`).waitFor();
      if (size.width === 360) assert.ok(await assertCut(page.locator(`[data-leader="${M}"] [data-full-name]`), 'a leaderboard name'));
    });
    assert.deepEqual([w.errors, m.errors].flat(), []);
  } finally {
    await w.context.close();
    await m.context.close();
  }
});
