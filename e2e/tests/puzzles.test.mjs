// Puzzles (issue 37): the day's puzzle on the start page, solved in a few clicks with the
// server answering each move; a wrong move on a phone: rated down at once, tried again
// unrated, then the solution; the next puzzle; the analysis board from the puzzle.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { REPO, newPlayer, screenshot, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, playMove, press } from '../lib/actions.mjs';

const env = serverAndBrowser('puzzles');

/** The starter set's puzzle `id` (`russian-0007`: the 7th line), with its solution. */
function stored(id) {
  const [variant, n] = id.split('-');
  const lines = fs.readFileSync(path.join(REPO, 'crates', 'bot', 'puzzles', `${variant}.jsonl`), 'utf8').split('\n').filter(Boolean);
  return JSON.parse(lines[Number(n) - 1]);
}

/** Plays the solver's moves of `line` from ply `from`, reading the server's replies. */
async function solveFrom(p, line, from = 0) {
  let i = from;
  for (;;) {
    const answered = p.page.waitForResponse((r) => r.url().includes('/move') && r.request().method() === 'POST');
    await playMove(p, line[i]);
    const a = await (await answered).json();
    assert.equal(a.ok, true, JSON.stringify(a));
    i += 1 + a.replies.length;
    if (a.solved) return;
    await p.page.locator('[data-puzzle-status="good"]').waitFor();
  }
}

test('the day’s puzzle from the start page, solved; a wrong move on a phone, retried, then the next', { timeout: 180_000 }, async () => {
  const { url } = env.server;
  const desk = await newPlayer(env.browser, { locale: 'ru-RU' });
  const phone = await newPlayer(env.browser, { phone: true, locale: 'pl-PL' });
  try {
    await desk.page.setViewportSize({ width: 1366, height: 768 });
    await arrive(desk, url, 'Sasha');
    // Russian is the home variant of a Russian browser: its puzzle of the day.
    const card = desk.page.locator('[data-daily-puzzle]');
    await card.waitFor();
    const id = await card.getAttribute('data-daily-puzzle');
    assert.match(id, /^russian-\d{4}$/);
    await screenshot(desk.page, 'puzzles-daily-card-1366');
    await press(desk, card.locator('[data-action="daily-puzzle"]'));
    await desk.page.waitForURL(new RegExp(`#/puzzle/${id}$`));
    await desk.page.locator('[data-puzzle-status="solving"]').waitFor();
    const p = stored(id);
    await screenshot(desk.page, 'puzzles-solving-1366');
    await solveFrom(desk, p.line);
    await desk.page.locator('[data-puzzle-status="solved"]').waitFor();
    // Rated up at the first try, the solution shown, the analysis board one click away.
    const change = await desk.page.locator('[data-puzzle-change]').getAttribute('data-puzzle-change');
    const [before, after] = change.split('>').map(Number);
    assert.equal(before, 1500);
    assert.ok(after > before, change);
    assert.equal(await desk.page.locator('[data-puzzle-solution] .moves-text').textContent(), p.line.join(' '));
    await screenshot(desk.page, 'puzzles-solved-1366');
    await press(desk, desk.page.locator('[data-action="puzzle-analyse"]'));
    await desk.page.waitForURL(/#\/analyse\?/);
    await desk.page.locator('[data-analyse-result][data-state="done"]').waitFor();

    // A phone: a wrong move first.
    await arrive(phone, url, 'Gosia');
    const given = phone.page.waitForResponse((r) => r.url().includes('/api/puzzles/next'));
    await phone.page.goto(`${url}/#/puzzles/russian`);
    const puzzle = await (await given).json();
    await phone.page.locator('[data-puzzle-status="solving"]').waitFor();
    const line = stored(puzzle.id).line;
    const wrong = puzzle.legal.find((m) => m !== line[0]);
    await playMove(phone, wrong);
    await phone.page.locator('[data-puzzle-status="wrong"]').waitFor();
    const c = await phone.page.locator('[data-puzzle-change]').getAttribute('data-puzzle-change');
    const [b, af] = c.split('>').map(Number);
    assert.ok(af < b, `rated down at once: ${c}`);
    await screenshot(phone.page, 'puzzles-wrong-360');
    // Tried again, unrated: solved, the rating as it was after the wrong move.
    await press(phone, phone.page.locator('[data-action="puzzle-retry"]'));
    await phone.page.locator('[data-puzzle-status="solving"]').waitFor();
    await solveFrom(phone, line);
    await phone.page.locator('[data-puzzle-status="solved"]').waitFor();
    assert.equal(await phone.page.locator('[data-puzzle-change]').getAttribute('data-puzzle-change'), c, 'rated once');
    await phone.page.locator('[data-puzzle-solution]').waitFor();
    await screenshot(phone.page, 'puzzles-solved-360');
    // The next one: another puzzle; given up, its solution shown.
    const again = phone.page.waitForResponse((r) => r.url().includes('/api/puzzles/next'));
    await press(phone, phone.page.locator('[data-action="puzzle-next"]'));
    const other = await (await again).json();
    assert.notEqual(other.id, puzzle.id);
    await phone.page.locator('[data-puzzle-status="solving"]').waitFor();
    await press(phone, phone.page.locator('[data-action="puzzle-give-up"]'));
    await phone.page.locator('[data-puzzle-status="shown"]').waitFor();
    assert.equal(await phone.page.locator('[data-puzzle-solution] .moves-text').textContent(), stored(other.id).line.join(' '));
    await screenshot(phone.page, 'puzzles-shown-360');
    // A theme: the next puzzle has it.
    const themed = phone.page.waitForResponse((r) => r.url().includes('/api/puzzles/next') && r.url().includes('theme=shot'));
    await phone.page.locator('[data-theme-select]').selectOption('shot');
    const shot = await (await themed).json();
    assert.ok(shot.themes.includes('shot'), JSON.stringify(shot));
    await phone.page.locator('[data-puzzle-status="solving"]').waitFor();
    const fit = await phone.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    assert.ok(fit, 'the page is no wider than the phone');
    assert.deepEqual([desk.errors, phone.errors].flat().filter((e) => !/status of 400/.test(e)), []);
  } finally {
    await desk.context.close();
    await phone.context.close();
  }
});

test('a streak: rising puzzles until the first wrong move, the best kept', { timeout: 180_000 }, async () => {
  const { url } = env.server;
  for (const [phone, tag] of [[false, '1366'], [true, '360']]) {
    const p = await newPlayer(env.browser, { phone, locale: 'en-US' });
    try {
      if (!phone) await p.page.setViewportSize({ width: 1366, height: 768 });
      await arrive(p, url, phone ? 'Streaky' : 'Streaker');
      await p.page.goto(`${url}/#/puzzles/russian`);
      await p.page.locator('[data-puzzle-status="solving"]').waitFor();
      const drawn = p.page.waitForResponse((r) => r.url().includes('/api/puzzles/streak'));
      await press(p, p.page.locator('[data-action="streak-start"]'));
      const { puzzles } = await (await drawn).json();
      assert.equal(puzzles.length, 30);
      const ratings = puzzles.map((id) => stored(id).rating);
      assert.deepEqual([...ratings].sort((a, b) => a - b).slice(0, 1), ratings.slice(0, 1), 'the easiest first');
      await p.page.locator('[data-streak="0"]').waitFor();
      await p.page.locator('[data-puzzle-status="solving"]').waitFor();
      // The first solved: the second comes by itself, the streak counts one.
      await solveFrom(p, stored(puzzles[0]).line);
      await p.page.locator('[data-streak="1"]').waitFor();
      await p.page.locator('[data-puzzle-status="solving"]').waitFor();
      await screenshot(p.page, `puzzles-streak-${tag}`);
      // A wrong move on the second ends it, unrated; the best is kept.
      const second = await (await fetch(`${url}/api/puzzles/${puzzles[1]}`)).json();
      const wrong = second.legal.find((m) => m !== stored(puzzles[1]).line[0]);
      await playMove(p, wrong);
      await p.page.locator('[data-puzzle-status="streak_over"]').waitFor();
      assert.match(await p.page.locator('[data-puzzle-status]').innerText(), /Solved: 1/);
      assert.match(await p.page.locator('[data-streak]').innerText(), /Best: 1/);
      assert.equal(await p.page.locator('[data-puzzle-change]').count(), 0, 'unrated');
      await screenshot(p.page, `puzzles-streak-over-${tag}`);
      await press(p, p.page.locator('[data-action="streak-stop"]'));
      await p.page.locator('[data-action="streak-start"]').waitFor();
      assert.deepEqual(p.errors, []);
    } finally {
      await p.context.close();
    }
  }
});
