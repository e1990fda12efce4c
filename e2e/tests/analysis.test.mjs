// Analysis (issue 25) in the browser: a finished game's replay asks for the analysis and
// shows the evaluation graph (a click jumps to that ply) and the engine's best move as an
// arrow; the analysis board opens from the replay, takes a pasted FEN (a shot: the arrow
// and the best move follow) and edits the position by clicks. Screenshots at 1366x768 and
// 360x740, English and Polish, go to SHOTS_DIR (default /work/shots-analysis).

import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { newPlayer, serverAndBrowser, WAIT_MS } from '../lib/harness.mjs';
import { arrive, playMove, press, startGame } from '../lib/actions.mjs';
import { LINES, playAnyMove } from '../lib/flow.mjs';

const SHOTS = process.env.SHOTS_DIR ?? '/work/shots-analysis';
const env = serverAndBrowser('analysis', ['--analysis-nodes', '20000', '--analysis-board-nodes', '20000']);

/** International: White gives 22-18, Black must take 13x22, White takes 27x18x9... */
const SHOT = { fen: 'W:W22,23,27,31:B12,13', best: '22-18' };

async function shot(page, name) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: false });
}

async function viewer(browser, { width, height, locale }) {
  const phone = width < 500;
  const context = await browser.newContext({
    viewport: { width, height }, locale, deviceScaleFactor: phone ? 2 : 1, isMobile: phone, hasTouch: phone,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(WAIT_MS);
  const errors = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors, phone };
}

test('analysis: graph, arrow and the analysis board', { timeout: 240_000 }, async () => {
  const { server, browser } = env;
  const url = server.url;
  const alice = await newPlayer(browser);
  const bob = await newPlayer(browser);
  await arrive(alice, url, 'Alice');
  await arrive(bob, url, 'Bob');
  await startGame(alice, bob, url, 'international');
  const line = LINES.international;
  const players = [alice, bob];
  for (const [i, mv] of line.opening.entries()) {
    await players[i % 2].page.locator('[data-square].movable').first().waitFor();
    await playMove(players[i % 2], mv);
  }
  await alice.page.locator('[data-square].movable').first().waitFor();
  await playMove(alice, line.capture);
  for (let i = 1; i <= 6; i++) {
    const p = players[i % 2];
    await p.page.locator('[data-square].movable').first().waitFor();
    await playAnyMove(p);
  }
  await bob.page.locator('[data-square].movable').first().waitFor();
  await press(bob, bob.page.locator('[data-action="resign"]'));
  await press(bob, bob.page.locator('[data-action="resign"]'));
  const link = await alice.page.locator('[data-banner] [data-action="replay"]').getAttribute('href');
  const gameId = decodeURIComponent(link.split('#/game/')[1]);

  // The replay: ask, wait, the graph; a click on it jumps there and the arrow shows.
  const v = await viewer(browser, { width: 1366, height: 768, locale: 'en-US' });
  await v.page.goto(`${url}/#/game/${gameId}`);
  await press(v, v.page.locator('[data-action="analyse"]'));
  await v.page.locator('[data-analysis="done"]').waitFor({ timeout: 120_000 });
  const graph = v.page.locator('[data-eval-graph]');
  assert.equal(await graph.getAttribute('data-eval-graph'), '11');
  const box = await graph.boundingBox();
  await graph.click({ position: { x: box.width * (3 / 11), y: box.height / 2 } });
  await v.page.locator('[data-ply-shown="3"]').waitFor();
  await v.page.locator('[data-arrow]').waitFor();
  await v.page.locator('.eval-now strong').waitFor();
  const best = await v.page.locator('.eval-now [data-best]').getAttribute('data-best');
  const [from] = best.split(/[-x]/);
  assert.equal((await v.page.locator('[data-arrow]').getAttribute('data-arrow')).split('-')[0], from);
  await v.page.locator('[data-action="annotated-pdn"]').waitFor();
  const pdn = await (await fetch(`${url}/api/games/${gameId}/pdn?annotate=true`)).text();
  assert.match(pdn, /\{[+−-]?\d+\.\d\d/);
  await shot(v.page, 'replay-analysis-en-1366x768');

  // The analysis board from this ply: a pasted FEN gets its best move and arrow.
  await press(v, v.page.locator('[data-action="analyse-board"]'));
  await v.page.waitForURL(/#\/analyse\?/);
  await v.page.locator('[data-analyse-result][data-state="done"]').waitFor();
  await v.page.locator('[data-fen-input]').fill(SHOT.fen);
  await press(v, v.page.locator('[data-action="load-fen"]'));
  await v.page.locator(`[data-analyse-result] [data-best="${SHOT.best}"]`).waitFor();
  await v.page.locator(`[data-arrow="${SHOT.best.replace('x', '-')}"]`).waitFor();
  assert.match(await v.page.locator('[data-analyse-result] [data-eval]').textContent(), /White wins/);
  // Editing: remove Black's man on 13 (no shot left), then put a black king on 3.
  await press(v, v.page.locator('[data-tool="erase"]'));
  await press(v, v.page.locator('[data-square="13"]'));
  assert.equal(await v.page.locator('[data-fen-input]').inputValue(), 'W:W22,23,27,31:B12');
  await press(v, v.page.locator('[data-tool="black-king"]'));
  await press(v, v.page.locator('[data-square="3"]'));
  assert.equal(await v.page.locator('[data-fen-input]').inputValue(), 'W:W22,23,27,31:BK3,12');
  await v.page.locator('[data-square="3"] [data-piece="black-king"]').waitFor();
  await v.page.locator('[data-analyse-result][data-state="done"]').waitFor();
  await press(v, v.page.locator('[data-turn="black"]'));
  await v.page.waitForFunction(() => location.hash.includes('fen=B'));
  await v.page.locator('[data-analyse-result][data-state="done"]').waitFor();
  await shot(v.page, 'analyse-board-en-1366x768');
  assert.deepEqual(v.errors, []);

  // Learning from the mistakes (issue 37, item 4): a spectator gets both sides'. The move
  // played is refused as such, the better move is shown on request, the engine's move is
  // good, the rest skipped, and the replay comes back where it was.
  const { positions } = await (await fetch(`${url}/api/games/${gameId}/mistakes`)).json();
  assert.ok(positions.length >= 1, `mistakes to learn from: ${JSON.stringify(positions)}`);
  await v.page.goto(`${url}/#/game/${gameId}`);
  await v.page.locator('[data-analysis="done"]').waitFor();
  const learnButton = v.page.locator('[data-action="learn"]');
  assert.equal(await learnButton.getAttribute('data-learn-count'), String(positions.length));
  await press(v, learnButton);
  const [first] = positions;
  await v.page.locator(`[data-learn-status="try"]`).waitFor();
  await v.page.locator(`[data-learn-ply="${first.ply}"]`).waitFor();
  await playMove(v, first.played);
  await v.page.locator('[data-learn-status="wrong"]').waitFor();
  assert.match(await v.page.locator('[data-learn-status]').textContent(), /move played/);
  await shot(v.page, 'learn-wrong-en-1366x768');
  await playMove(v, first.best);
  await v.page.locator('[data-learn-status="good"]').waitFor();
  await shot(v.page, 'learn-good-en-1366x768');
  await press(v, v.page.locator('[data-action="learn-next"]'));
  for (let i = 1; i < positions.length; i++) {
    await press(v, v.page.locator('[data-action="learn-skip"]'));
  }
  await v.page.locator('[data-learn-status="done"]').waitFor();
  assert.match(await v.page.locator('[data-learn-status]').textContent(), new RegExp(`found 1 of ${positions.length}`));
  await press(v, v.page.locator('[data-action="learn-back"]'));
  await v.page.locator('[data-action="learn"]').waitFor();
  const plies = (await (await fetch(`${url}/api/games/${gameId}`)).json()).moves.length;
  await v.page.locator(`[data-ply-shown="${plies}"]`).waitFor();
  assert.deepEqual(v.errors, []);

  // The same pages in Polish and on a phone.
  for (const [width, height] of [[1366, 768], [360, 740]]) {
    for (const locale of ['pl-PL', 'en-US']) {
      if (width === 1366 && locale === 'en-US') continue;
      const w = await viewer(browser, { width, height, locale });
      const tag = `${locale.slice(0, 2)}-${width}x${height}`;
      await w.page.goto(`${url}/#/game/${gameId}`);
      await w.page.locator('[data-analysis="done"]').waitFor();
      await press(w, w.page.locator('[data-mistakes] button, [data-action="prev"]').first());
      await w.page.locator('[data-arrow]').waitFor();
      await shot(w.page, `replay-analysis-${tag}`);
      await w.page.locator('[data-eval-graph]').scrollIntoViewIfNeeded();
      await shot(w.page, `replay-analysis-graph-${tag}`);
      await press(w, w.page.locator('[data-action="learn"]'));
      await w.page.locator('[data-learn-status="try"]').waitFor();
      await shot(w.page, `learn-${tag}`);
      await press(w, w.page.locator('[data-action="learn-show"]'));
      await w.page.locator(`[data-learn-best="${positions[0].best}"]`).waitFor();
      const [from, ...rest] = positions[0].best.split(/[-x]/);
      assert.equal(await w.page.locator('[data-arrow]').getAttribute('data-arrow'), `${from}-${rest[rest.length - 1]}`);
      await w.page.locator('[data-learn-best]').scrollIntoViewIfNeeded();
      await shot(w.page, `learn-shown-${tag}`);
      await w.page.goto(`${url}/#/analyse?variant=international&fen=${encodeURIComponent(SHOT.fen)}`);
      await w.page.locator(`[data-analyse-result] [data-best="${SHOT.best}"]`).waitFor();
      await shot(w.page, `analyse-board-${tag}`);
      assert.deepEqual(w.errors, []);
      await w.context.close();
    }
  }
  await v.context.close();
});
