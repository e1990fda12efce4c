// Screenshots for a person to look at (not a test): the screens issue 22 changed, with
// the longest names a guest may have, in Polish and English, at 1366x768 and on a
// 360x740 phone. Written to e2e/artifacts/tour-<lang>-<size>-<screen>.png.
//
//   node e2e/bench/tour.mjs            (DAMKA_BIN, E2E_STATIC_DIR as for the tests)

import { launchBrowser, newPlayer, screenshot, startServer } from '../lib/harness.mjs';
import { arrive, playMove, press, startGame, waitMoves, waitStatus } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';

const WIDEST = 'W'.repeat(24);
const LONG_PL = 'Maksymilian_Wierzbięta_M';
const server = await startServer('tour');
const aborts = await startServer('tour-abort', ['--first-move-secs', '2']);
const browser = await launchBrowser();

async function player(lang, phone, name, url = server.url) {
  const p = await newPlayer(browser, { phone, locale: lang === 'pl' ? 'pl-PL' : 'en-GB' });
  if (!phone) await p.page.setViewportSize({ width: 1366, height: 768 });
  await arrive(p, url, name);
  return p;
}

const YOUR = { pl: 'Twój ruch', en: 'Your move' };

try {
  for (const lang of ['pl', 'en']) {
    for (const phone of [false, true]) {
      const tag = `tour-${lang}-${phone ? '360' : '1366'}`;
      const shot = (p, name) => p.page.screenshot({ path: `artifacts/${tag}-${name}.png` });
      const a = await player(lang, phone, WIDEST);
      const b = await player(lang, phone, LONG_PL);
      // The home page: the header's one click to the computer.
      await a.page.goto(`${server.url}/#/`);
      await a.page.locator('[data-play-now]').waitFor();
      await shot(a, 'lobby');
      // Against the computer at level 3: its bar says it is thinking.
      await a.page.goto(`${server.url}/#/room/american`);
      await press(a, a.page.locator('[data-play-now] [data-action="play-bot"][data-level="3"]'));
      await a.page.waitForURL(/#\/table\//);
      await waitStatus(a.page, YOUR[lang]);
      await playAnyMove(a);
      await a.page.locator('[data-thinking]').waitFor({ timeout: 5_000 }).catch(() => console.log(tag, 'the computer answered before the sign was seen'));
      await shot(a, 'bot-thinking');
      // Two people: a premove queued during the opponent's turn, then looking back.
      await startGame(a, b, server.url, 'international');
      await waitStatus(a.page, YOUR[lang]);
      await playMove(a, '31-26');
      await waitMoves(b.page, 1);
      await press(a, a.page.locator('[data-square="26"]'));
      await press(a, a.page.locator('[data-square="21"]'));
      await shot(a, 'premove');
      await playMove(b, '18-22');
      await waitMoves(a.page, 3);
      await press(b, b.page.locator('[data-action="history-back"]'));
      await press(b, b.page.locator('[data-action="history-back"]'));
      await shot(b, 'history');
      await press(b, b.page.locator('[data-action="history-live"]'));
      // The room page with those names at the tables and in the people list.
      await b.page.goto(`${server.url}/#/room/international`);
      await b.page.locator('[data-tables-list] [data-full-name]').first().waitFor();
      await b.page.locator('[data-form="create-table"]').waitFor();
      await screenshot(b.page, `${tag}-room`);
      // One screen: auto-turn on, Black to move at the bottom; the draw asks twice.
      await b.page.goto(`${server.url}/#/room/russian`);
      await press(b, b.page.locator('[data-play-now] [data-action="play-local"]'));
      await b.page.waitForURL(/#\/table\//);
      await b.page.locator('[data-action="autoflip"]').waitFor();
      await press(b, b.page.locator('[data-action="autoflip"]'));
      await playAnyMove(b);
      await playAnyMove(b);
      await waitMoves(b.page, 2);
      await press(b, b.page.locator('[data-action="draw-offer"]'));
      await shot(b, 'local-draw');
      await press(b, b.page.locator('[data-action="autoflip"]'));
      // The replay of the two people's game (Alice resigns it).
      await a.page.locator('[data-action="resign"]').click();
      await a.page.locator('[data-action="resign"]').click();
      await a.page.locator('[data-banner]:visible').waitFor();
      await shot(a, 'lost-banner');
      await press(a, a.page.locator('[data-banner] [data-action="replay"]'));
      await a.page.waitForURL(/#\/game\//);
      await a.page.locator('[data-game] h1', { hasText: 'W' }).waitFor();
      await shot(a, 'replay');
      // An unknown table.
      await a.page.goto(`${server.url}/#/table/nosuchtable`);
      await a.page.locator('[data-missing]').waitFor();
      await shot(a, 'missing');
      // An aborted game (a server whose first-move window is 2 s).
      const c = await player(lang, phone, WIDEST, aborts.url);
      const d = await player(lang, phone, LONG_PL, aborts.url);
      await startGame(c, d, aborts.url, 'american');
      await c.page.locator('[data-banner]:visible').waitFor();
      await shot(c, 'aborted');
      for (const p of [a, b, c, d]) {
        if (p.errors.length) console.log(tag, p.errors);
        await p.context.close();
      }
      console.log('done', tag);
    }
  }
} finally {
  await browser.close();
  await server.stop();
  await aborts.stop();
}
