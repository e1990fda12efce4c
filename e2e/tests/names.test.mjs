// Issue 22, item 1: the longest names a guest may have (24 characters) never make a
// 360 px phone's game screen wider than the screen: in Polish and English, against the
// computer and between two people, on 8x8 and 10x10 boards. Names are cut with an
// ellipsis; the whole name is in the title and shows when the name is tapped.
// Screenshots `names-*.png` at 360x740 and 1366x768.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, press, startGame } from '../lib/actions.mjs';

const env = serverAndBrowser('names');

/** The widest name allowed: 24 capital Ws. */
export const WIDEST = 'W'.repeat(24);
/** A long name with Polish letters, 24 characters. */
export const LONG_PL = 'Maksymilian_Wierzbięta_M';

const LANGS = [
  { lang: 'pl', locale: 'pl-PL', bot: 'Komputer · poziom 1' },
  { lang: 'en', locale: 'en-GB', bot: 'Computer · level 1' },
];
const ROOMS = ['american', 'russian', 'international'];

/** Asserts the page is no wider than the screen and the game's essentials are on it. */
async function assertFits(page, what) {
  await page.locator('[data-table] [data-square]').first().waitFor();
  const width = page.viewportSize().width;
  const got = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    body: document.body.scrollWidth,
  }));
  assert.ok(got.scroll <= width && got.body <= width, `${what}: page ${got.scroll}/${got.body} px wide on a ${width} px screen`);
  // Measured in one go in the page: the bars are redrawn with every event, so a box
  // taken element by element may belong to one already replaced.
  const boxes = await page.evaluate((sels) => sels.map((sel) => {
    const r = document.querySelector(sel)?.getBoundingClientRect();
    return r ? { sel, x: r.x, width: r.width } : { sel, missing: true };
  }), ['[data-clock="white"]', '[data-clock="black"]', '[data-table] svg.board']);
  for (const b of boxes) {
    assert.ok(!b.missing && b.x >= 0 && b.x + b.width <= width + 0.5, `${what}: ${b.sel} ${JSON.stringify(b)} inside ${width} px`);
  }
}

/** Asserts a player bar's name is cut, not wrapped or clipped silently, and titled. */
async function assertCut(page, side, full) {
  const name = page.locator(`[data-player="${side}"] [data-full-name]`);
  await name.waitFor();
  assert.equal(await name.getAttribute('title'), full);
  // Measured in the page once the bar is drawn with its style (a bar redrawn by an event
  // under load may be caught between two renderings, detached, with no computed style).
  const sel = `[data-player="${side}"] [data-full-name]`;
  const cut = await page.waitForFunction((s) => {
    const el = document.querySelector(s);
    if (!el?.isConnected) return null;
    const style = getComputedStyle(el).textOverflow;
    return style ? { cut: el.scrollWidth > el.clientWidth, style } : null;
  }, sel, { timeout: 10_000 }).then((h) => h.jsonValue());
  assert.equal(cut.style, 'ellipsis', `${side}'s name ends with an ellipsis`);
  return cut.cut;
}

for (const { lang, locale, bot } of LANGS) {
  test(`long names fit a 360 px phone (${lang}): against the computer`, { timeout: 120_000 }, async () => {
    const p = await newPlayer(env.browser, { phone: true, locale });
    try {
      await arrive(p, env.server.url, WIDEST);
      for (const room of ROOMS) {
        await p.page.goto(`${env.server.url}/#/room/${room}`);
        await press(p, p.page.locator('[data-play-now] [data-action="play-bot"][data-level="1"]'));
        await p.page.waitForURL(/#\/table\//);
        await p.page.locator('[data-bot="1"]', { hasText: bot }).waitFor();
        await assertFits(p.page, `${lang} ${room} vs the computer`);
        const me = await p.page.locator('.player-bar.bottom [data-player]').getAttribute('data-player');
        assert.ok(await assertCut(p.page, me, WIDEST), 'the widest name is cut on a phone');
        await screenshot(p.page, `names-${lang}-bot-${room}-360`);
        // A tap on the cut name shows it whole.
        await p.page.locator(`[data-player="${me}"] [data-full-name]`).tap();
        await p.page.locator('[data-name-tip]', { hasText: WIDEST }).waitFor();
        await p.page.locator('[data-action="resign"]').tap();
        await p.page.locator('[data-action="resign"]').tap();
        await p.page.locator('[data-banner]:visible').waitFor();
      }
      assert.deepEqual(p.errors, []);
    } finally {
      await p.context.close();
    }
  });

  test(`long names fit a 360 px phone (${lang}): two people`, { timeout: 180_000 }, async () => {
    const a = await newPlayer(env.browser, { phone: true, locale });
    const b = await newPlayer(env.browser, { phone: true, locale });
    try {
      await arrive(a, env.server.url, WIDEST);
      await arrive(b, env.server.url, LONG_PL);
      for (const room of ROOMS) {
        await startGame(a, b, env.server.url, room);
        await b.page.locator('[data-player="white"] [data-full-name]', { hasText: WIDEST }).waitFor();
        for (const [p, who] of [[a, 'white'], [b, 'black']]) {
          await p.page.locator('[data-action="resign"]').waitFor();
          await assertFits(p.page, `${lang} ${room} ${who}`);
          assert.ok(await assertCut(p.page, 'white', WIDEST), 'the widest name is cut on a phone');
          await assertCut(p.page, 'black', LONG_PL);
        }
        await screenshot(a.page, `names-${lang}-people-${room}-360`);
        // The room's list of tables on the phone: no wider than the screen either.
        await b.page.goto(`${env.server.url}/#/room/${room}`);
        await b.page.locator('[data-tables-list] [data-full-name]', { hasText: WIDEST }).first().waitFor();
        // (Measured once the page has settled: its cards arrive one by one.)
        await b.page.locator('[data-form="create-table"]').waitFor();
        await b.page.locator('[data-people] [data-full-name]', { hasText: WIDEST }).waitFor();
        const width = await b.page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 360, `${lang} ${room}: the room page is ${width} px wide`);
        await screenshot(b.page, `names-${lang}-room-${room}-360`);
        await a.page.locator('[data-action="resign"]').tap();
        await a.page.locator('[data-action="resign"]').tap();
        await a.page.locator('[data-banner]:visible').waitFor();
        // A laptop shows the same screen, the names whole where there is room.
        await a.page.setViewportSize({ width: 1366, height: 768 });
        await assertFits(a.page, `${lang} ${room} at 1366`);
        await screenshot(a.page, `names-${lang}-people-${room}-1366`);
        await a.page.setViewportSize({ width: 360, height: 740 });
      }
      assert.deepEqual([a.errors, b.errors].flat(), []);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
}
