// Issue 39, items 2 and 3 ("the club's list"): what a small club's members met first.
// Each test names the item it guards; each failed on the client before its fix.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { RECONNECT_MS, newPlayer, screenshot, serverAndBrowser, startServer } from '../lib/harness.mjs';
import { arrive, expectPiece, playMove, press, startGame, waitMoves } from '../lib/actions.mjs';

const env = serverAndBrowser('club');

/** A name of the longest length a guest may take (24 characters). */
const LONG = (s) => `${s} Wisniewska-Kowalczyk`.slice(0, 24);

/** A swiss tournament after five rounds, six players with long names (a fake answer). */
function fakeTournament(id) {
  const player = (i, name, rating) => ({ id: `p${i}`, name, account: true, rating, provisional: i > 4 });
  const names = [LONG('Agnieszka'), LONG('Bartholomew'), LONG('Konstantin'), 'Ala', LONG('Maximiliano'), LONG('Zofia')];
  const players = names.map((n, i) => player(i, n, 1500 + 100 * (6 - i)));
  const points = [9, 7, 6, 5, 2, 1];
  return {
    id, room: 'russian', kind: 'swiss', status: 'over', players, rounds: [],
    standings: players.map((p, i) => ({
      rank: i + 1, player: p, points: points[i], games: 5,
      tiebreaks: { buchholz: 28 - i, sonneborn_berger: [25.5, 19.5, 15, 10.5, 5.5, 0.5][i], wins: [4, 3, 3, 2, 1, 0][i] },
      withdrawn: i === 5,
    })),
    name: 'Tuesday club', created_by: players[0], minutes: 5, increment: 3, max_players: 8,
    total_rounds: 5, round: 5, bots: false, bot_level: 1, starts_at: null, starts_in_ms: null,
    cancelled: false, rated: true, next_round: null, next_round_in_ms: null, version: 9,
  };
}

/**
 * How the standings table sits on the page: for every header and number cell, how many
 * lines its text takes; and whether the table fits its card without scrolling.
 */
function standingsLayout(page) {
  return page.evaluate(() => {
    const lines = (el) => {
      const r = document.createRange();
      r.selectNodeContents(el);
      return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top))).size;
    };
    const table = document.querySelector('[data-standings] table');
    const scroll = table.parentElement;
    const cells = [...table.querySelectorAll('th, td:not(.player)')];
    return {
      wrapped: cells.filter((c) => lines(c) > 1).map((c) => c.textContent),
      overflow: scroll.scrollWidth - scroll.clientWidth,
      right: table.getBoundingClientRect().right,
      width: document.documentElement.clientWidth,
    };
  });
}

test('item 1: the standings fit a 360x740 phone in every language', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  for (const locale of ['en-US', 'ru-RU', 'pl-PL', 'pt-BR', 'es-ES', 'it-IT', 'cs-CZ', 'nl-NL', 'fr-FR']) {
    const phone = await newPlayer(env.browser, { phone: true, locale });
    try {
      await phone.page.route(/\/api\/tournaments\/club-1$/, (route) =>
        route.fulfill({ json: fakeTournament('club-1') }));
      await phone.page.goto(`${url}/#/tournament/club-1`);
      await phone.page.locator('[data-standings] tr[data-standing]').first().waitFor();
      const l = await standingsLayout(phone.page);
      if (locale === 'en-US' || locale === 'ru-RU') await screenshot(phone.page, `club-standings-360-${locale}`);
      assert.deepEqual(l.wrapped, [], `${locale}: a header or a number wraps`);
      assert.ok(l.overflow <= 0, `${locale}: the table scrolls sideways by ${l.overflow}px`);
      assert.ok(l.right <= l.width, `${locale}: the table ends at ${l.right} of ${l.width}`);
      // Every player's name keeps room for several letters (cut with an ellipsis if need be).
      const names = await phone.page.locator('[data-standings] td.player .name-cut').evaluateAll(
        (els) => els.map((e) => ({ width: e.clientWidth, cut: e.scrollWidth > e.clientWidth })));
      assert.equal(names.length, 6);
      const squeezed = names.filter((n) => n.cut && n.width < 90);
      assert.deepEqual(squeezed, [], `${locale}: cut names squeezed below 90px`);
      assert.deepEqual(phone.errors, []);
    } finally {
      await phone.context.close();
    }
  }
  const desk = await newPlayer(env.browser);
  try {
    await desk.page.setViewportSize({ width: 1366, height: 768 });
    await desk.page.route(/\/api\/tournaments\/club-1$/, (route) => route.fulfill({ json: fakeTournament('club-1') }));
    await desk.page.goto(`${url}/#/tournament/club-1`);
    await desk.page.locator('[data-standings] tr[data-standing]').first().waitFor();
    await screenshot(desk.page, 'club-standings-1366');
    assert.deepEqual((await standingsLayout(desk.page)).wrapped, []);
  } finally {
    await desk.context.close();
  }
});

/** A word of "sign up" in each language's header button, and the language's code. */
const SIGN_UP = {
  'en-US': /sign up/i, 'pl-PL': /załóż konto/i, 'ru-RU': /регистр/i, 'pt-BR': /criar conta/i,
  'es-ES': /regist/i, 'it-IT': /registr/i, 'cs-CZ': /registr/i, 'nl-NL': /registr/i, 'fr-FR': /inscri/i,
};

/** Whether the header's items share one row (all overlap vertically) and fit it. */
function headerRow(page) {
  return page.locator('header.top').evaluate((el) => {
    const rs = [...el.children].map((c) => c.getBoundingClientRect()).filter((r) => r.height > 0);
    return { oneRow: Math.max(...rs.map((r) => r.top)) < Math.min(...rs.map((r) => r.bottom)), overflow: el.scrollWidth - el.clientWidth, rows: rs.map((r) => `${Math.round(r.top)}-${Math.round(r.bottom)}`).join(" ") };
  });
}

test('item 2: the guest’s header button says sign up as well as sign in', { timeout: 180_000 }, async () => {
  const { url } = env.server;
  for (const [locale, word] of Object.entries(SIGN_UP)) {
    for (const phone of [false, true]) {
      const p = await newPlayer(env.browser, { phone, locale });
      try {
        const { page } = p;
        if (!phone) await page.setViewportSize({ width: 1366, height: 768 });
        await page.goto(`${url}/#/`);
        await page.locator('[data-me][data-account="guest"]').waitFor({ state: 'attached' });
        const button = page.locator('header.top [data-action="account"]');
        // Its name (all a phone's icon says to a screen reader) and, on a wide screen, its words.
        assert.match(await button.getAttribute('aria-label'), word, `${locale}: ${await button.getAttribute('aria-label')}`);
        if (!phone) assert.match(await button.innerText(), word, `${locale}: the visible label`);
        // The header stays one row and on the screen (on a wide screen from 900 px).
        for (const width of phone ? [360] : [1366, 900]) {
          if (!phone) await page.setViewportSize({ width, height: 768 });
          const row = await headerRow(page);
          assert.ok(row.oneRow && row.overflow <= 0, `${locale} ${width}: header ${JSON.stringify(row)}`);
        }
        if (locale === 'pl-PL' || locale === 'en-US') await screenshot(page, `club-signup-${locale}-${phone ? 360 : 900}`);
        // It opens the sign-up form first.
        await button.click();
        await page.locator('form[data-form="sign-up"], [data-form="sign-up"]').first().waitFor();
        assert.deepEqual(p.errors, []);
      } finally {
        await p.context.close();
      }
    }
  }
});

test('item 3: the home page offers the language’s variant, then the last one played', { timeout: 180_000 }, async () => {
  const { url } = env.server;
  const home = {
    'en-US': 'american', 'ru-RU': 'russian', 'pt-BR': 'brazilian', 'pl-PL': 'brazilian', 'es-ES': 'spanish',
    'it-IT': 'italian', 'cs-CZ': 'czech', 'nl-NL': 'international', 'fr-FR': 'international',
  };
  const rooms = await (await fetch(`${url}/api/rooms`)).json();
  const roomOf = (variant) => rooms.find((r) => r.variant === variant).id;
  for (const [locale, variant] of Object.entries(home)) {
    const p = await newPlayer(env.browser, { locale });
    try {
      await p.page.goto(`${url}/#/`);
      const select = p.page.locator('[data-play-now] [data-play-room]');
      await select.waitFor();
      assert.equal(await select.inputValue(), roomOf(variant), `${locale}: the home page offers ${variant}`);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.context.close();
    }
  }
  // A Russian speaker who played Czech is offered Czech on their next visit; picking
  // Italian on the home page is remembered too.
  const p = await newPlayer(env.browser, { locale: 'ru-RU' });
  try {
    await p.page.goto(`${url}/#/room/${roomOf('czech')}`);
    await p.page.locator('[data-play-now] [data-action="play-local"]').click();
    await p.page.waitForURL(/#\/table\//);
    await p.page.goto(`${url}/#/`);
    const select = p.page.locator('[data-play-now] [data-play-room]');
    await select.waitFor();
    assert.equal(await select.inputValue(), roomOf('czech'));
    await select.selectOption(roomOf('italian'));
    await p.page.reload();
    await select.waitFor();
    assert.equal(await select.inputValue(), roomOf('italian'));
    await screenshot(p.page, 'club-home-variant-1280');
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

test('item 4: a FEN with a bad square is refused with the server’s code, not shown as game over', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const p = await newPlayer(env.browser, { phone: true });
  try {
    const { page } = p;
    await page.goto(`${url}/#/analyse?variant=international`);
    await page.locator('[data-analyse-result][data-state="done"]').waitFor();
    const before = await page.locator('[data-piece]').count();
    const refusals = [];
    page.on('response', (r) => {
      if (r.url().includes('/api/analyse?') && r.status() >= 400) refusals.push(r.status());
    });
    for (const [fen, square] of [['W:W31,51:B1', '51'], ['W:W31:31B', '31B'], ['W:Wc3:B1', 'c3']]) {
      await page.locator('[data-fen-input]').fill(fen);
      await page.locator('[data-action="load-fen"]').click();
      const error = page.locator('[data-analyse-result][data-state="error"] [data-error="bad_message"]');
      await error.waitFor();
      assert.match(await error.textContent(), new RegExp(`not valid.*${square}`));
      assert.equal(await page.locator('[data-analyse-result] [data-eval]').count(), 0, `${fen}: no evaluation`);
    }
    assert.deepEqual(refusals, [400, 400, 400], 'the server refused each');
    // The board kept the position it showed.
    assert.equal(await page.locator('[data-piece]').count(), before);
    await screenshot(page, 'club-analyse-bad-square-360');
    // A good FEN after it is analysed as before.
    await page.locator('[data-fen-input]').fill('W:W31,32:B1');
    await page.locator('[data-action="load-fen"]').click();
    await page.locator('[data-analyse-result][data-state="done"] [data-eval]').waitFor();
    // A link with a bad square is refused the same way.
    await page.goto(`${url}/#/analyse?variant=international&fen=${encodeURIComponent('W:W31,51:B1')}`);
    await page.locator('[data-analyse-result] [data-error="bad_message"]').waitFor();
    assert.deepEqual(p.errors.filter((e) => !/status of 400/.test(e)), []);
  } finally {
    await p.context.close();
  }
});

/** A finished Russian game of `n` plies (a fake answer: the replay only draws each FEN). */
function fakeGame(id, n) {
  const fens = ['W:Wa1,c3,e3:Bb8,d6,f8', 'B:Wa1,d4,e3:Bb8,d6,f8'];
  const moves = Array.from({ length: n }, (_, i) => ({
    ply: i + 1, move: i % 2 ? 'd6-c5' : 'c3-d4', fen: fens[i % 2], used_ms: 1500 + i * 10,
  }));
  return {
    id, variant: 'russian', room: 'russian', white: { id: 'a', name: LONG('Agnieszka') }, black: { id: 'b', name: LONG('Bartholomew') },
    moves, initial_fen: fens[0], opening_plies: 0, result: 'draw', reason: 'agreement',
    started_at: '2026-12-01T10:00:00Z', ended_at: '2026-12-01T10:30:00Z', options: { minutes: 5, increment: 3 },
  };
}

/** The shown move in the replay's list: its ply, whether it is inside the list's box, how it looks. */
function shownMove(page) {
  return page.evaluate(() => {
    const list = document.querySelector('[data-moves]');
    const cur = list.querySelectorAll('[aria-current]');
    if (cur.length !== 1) return { count: cur.length, listTop: list.scrollTop };
    const b = list.getBoundingClientRect();
    const r = cur[0].getBoundingClientRect();
    return {
      count: 1, ply: Number(cur[0].dataset.ply), inView: r.top >= b.top - 1 && r.bottom <= b.bottom + 1,
      background: getComputedStyle(cur[0]).backgroundColor, pageY: window.scrollY,
    };
  });
}

test('item 5: the replay’s move list follows the shown move', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  for (const phone of [false, true]) {
    const p = await newPlayer(env.browser, { phone });
    try {
      const { page } = p;
      if (!phone) await page.setViewportSize({ width: 1366, height: 768 });
      await page.route(/\/api\/games\/club-game(\/analysis)?$/, (route) => route.fulfill({
        json: route.request().url().endsWith('/analysis') ? { status: 'none' } : fakeGame('club-game', 80),
      }));
      await page.goto(`${url}/#/game/club-game`);
      await page.locator('[data-ply-shown="80"]').waitFor();
      let s = await shownMove(page);
      assert.equal(s.ply, 80);
      assert.ok(s.inView, 'the last move is in view on arrival');
      assert.notEqual(s.background, 'rgba(0, 0, 0, 0)', 'the shown move is highlighted');
      await screenshot(page, `club-replay-end-${phone ? 360 : 1366}`);
      const y = s.pageY;
      await page.keyboard.press('Home');
      await page.locator('[data-ply-shown="0"]').waitFor();
      assert.deepEqual(await shownMove(page), { count: 0, listTop: 0 });
      for (let i = 1; i <= 40; i++) {
        await page.keyboard.press('ArrowRight');
        await page.locator(`[data-ply-shown="${i}"]`).waitFor();
      }
      s = await shownMove(page);
      assert.equal(s.ply, 40);
      assert.ok(s.inView, 'stepping forward keeps the move in view');
      assert.equal(s.pageY, y, 'the page itself did not scroll');
      await page.locator('[data-action="last"]').click();
      await page.locator('[data-ply-shown="80"]').waitFor();
      await page.locator('[data-action="first"]').click();
      await page.locator('[data-ply-shown="0"]').waitFor();
      await page.locator('[data-action="next"]').click();
      await page.locator('[data-ply-shown="1"]').waitFor();
      s = await shownMove(page);
      assert.ok(s.ply === 1 && s.inView, 'back at the start');
      await page.keyboard.press('End');
      await page.locator('[data-ply-shown="80"]').waitFor();
      await page.keyboard.press('ArrowLeft');
      await page.locator('[data-ply-shown="79"]').waitFor();
      s = await shownMove(page);
      assert.ok(s.ply === 79 && s.inView);
      await screenshot(page, `club-replay-79-${phone ? 360 : 1366}`);
      assert.deepEqual(p.errors, []);
    } finally {
      await p.context.close();
    }
  }
});

/** A JSON request from the page (its session cookie and origin); status and body. */
function call(p, method, url, body) {
  return p.page.evaluate(async ([m, u, b]) => {
    const r = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [method, url, body]);
}

test('item 6: the leaderboard shows provisional players below a line', { timeout: 120_000 }, async () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'damka-club-'));
  const db = path.join(tmp, 'damka.db');
  const server = await startServer('club-leaderboard', [], { databaseUrl: `sqlite://${db}` });
  const rate = (id, rating, rd, games) => execFileSync('sqlite3', [db,
    `INSERT INTO ratings (player_id, variant, rating, rd, volatility, games, rated_at) VALUES ('${id}', 'czech', ${rating}, ${rd}, 0.06, ${games}, ${Date.now()})`]);
  const people = [];
  try {
    // Four accounts: none established yet in Czech, three with rated games.
    const names = ['WWWWWWWWWWWWWWWWWWWW', 'Bolek', 'Cezary', 'Dorota'];
    const ids = [];
    for (const [i, name] of names.entries()) {
      const p = await newPlayer(env.browser, { phone: i === 0 });
      people.push(p);
      await arrive(p, server.url, name);
      const r = await call(p, 'POST', '/api/account', { username: name, password: 'correct horse battery' });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      ids.push(r.body.id);
    }
    rate(ids[0], 1610, 180, 4);
    rate(ids[1], 1702, 150, 6);
    rate(ids[2], 1455, 320, 1);
    const [ala] = people;
    await ala.page.goto(`${server.url}/#/leaderboard/czech`);
    const below = ala.page.locator('[data-provisional-list="czech"]');
    await below.waitFor();
    assert.deepEqual(await below.locator('[data-provisional-leader]').evaluateAll((rows) => rows.map((r) => r.dataset.provisionalLeader)),
      ['Bolek', 'WWWWWWWWWWWWWWWWWWWW', 'Cezary'], 'best first; Dorota has no rated game');
    assert.match(await below.locator('[data-provisional-leader="Bolek"]').textContent(), /1702\?/);
    // What makes a rating established, in words.
    assert.match(await below.textContent(), /110.*10 to 20 rated games/s);
    assert.match(await ala.page.locator('[data-leaderboard-empty]').textContent(), /established/);
    await screenshot(ala.page, 'club-leaderboard-provisional-360');
    const fit = await ala.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    assert.ok(fit, 'the page is no wider than the phone');
    // Bolek becomes established: above the line, numbered; the others stay below.
    execFileSync('sqlite3', [db, `UPDATE ratings SET rd = 70, games = 25 WHERE player_id = '${ids[1]}'`]);
    const desk = people[1];
    await desk.page.setViewportSize({ width: 1366, height: 768 });
    await desk.page.goto(`${server.url}/#/leaderboard/czech`);
    await desk.page.locator('[data-leaderboard-list="czech"] [data-leader="Bolek"]').waitFor();
    await desk.page.locator('[data-provisional-list="czech"] [data-provisional-leader="Cezary"]').waitFor();
    assert.equal(await desk.page.locator('[data-provisional-leader="Bolek"]').count(), 0);
    await screenshot(desk.page, 'club-leaderboard-1366');
    for (const p of people) assert.deepEqual(p.errors, []);
  } finally {
    for (const p of people) await p.context.close();
    await server.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});

test('item 7: the analysis board is in the header and steps through a pasted PDN', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const pdn = '[Event "Club night"]\n[White "Agnieszka Wisniewska"]\n[Black "Bolek"]\n[GameType "25"]\n'
    + '1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3xc5 *\n';
  const desk = await newPlayer(env.browser);
  const phone = await newPlayer(env.browser, { phone: true, locale: 'pl-PL' });
  try {
    const { page } = desk;
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto(`${url}/#/`);
    await page.locator('header.top [data-link="analyse"]').click();
    await page.waitForURL(/#\/analyse(\?|$)/);
    await page.locator('[data-analyse-result][data-state="done"]').waitFor();
    // A Russian game pasted on the International board: the board follows the game.
    await page.locator('[data-pdn-input]').fill(pdn);
    await page.locator('[data-action="load-pdn"]').click();
    await page.locator('[data-pdn-ply="5"]').waitFor();
    assert.equal(await page.locator('[data-variant-select]').inputValue(), 'russian');
    assert.match(await page.locator('[data-pdn-loaded="5"]').textContent(), /Agnieszka Wisniewska – Bolek/);
    await expectPiece(page, 'c5', 'white-man');
    await expectPiece(page, 'd4', null);
    await page.locator('[data-analyse-result][data-state="done"]').waitFor();
    await screenshot(page, 'club-analyse-pdn-1366');
    // The arrow keys step back and forth, Home and End jump; the move list follows.
    await page.keyboard.press('ArrowLeft');
    await page.locator('[data-pdn-ply="4"]').waitFor();
    await expectPiece(page, 'd4', 'black-man');
    assert.equal(await page.locator('[data-pdn-moves] [aria-current]').getAttribute('data-ply'), '4');
    await page.keyboard.press('Home');
    await page.locator('[data-pdn-ply="0"]').waitFor();
    await expectPiece(page, 'c3', 'white-man');
    await expectPiece(page, 'd4', null);
    await page.keyboard.press('ArrowRight');
    await page.locator('[data-pdn-ply="1"]').waitFor();
    await expectPiece(page, 'd4', 'white-man');
    await page.keyboard.press('End');
    await page.locator('[data-pdn-ply="5"]').waitFor();
    // And the buttons.
    await page.locator('[data-action="pdn-prev"]').click();
    await page.locator('[data-pdn-ply="4"]').waitFor();
    await page.locator('[data-pdn-moves] [data-ply="2"]').click();
    await page.locator('[data-pdn-ply="2"]').waitFor();
    await expectPiece(page, 'g5', 'black-man');
    // The engine evaluates the shown position.
    await page.locator('[data-analyse-result][data-state="done"]').waitFor();
    // A game that does not replay is refused, with the move at fault.
    await page.locator('[data-pdn-input]').fill('[GameType "25"]\n1. c3-d4 f6-g5 2. c1-d2 *');
    await page.locator('[data-action="load-pdn"]').click();
    const error = page.locator('[data-pdn-error="bad_message"]');
    await error.waitFor();
    assert.match(await error.textContent(), /could not be read.*c1-d2/);
    assert.deepEqual(desk.errors.filter((e) => !/status of 400/.test(e)), []);

    // On a phone, from the header's account button.
    await phone.page.goto(`${url}/#/`);
    await phone.page.locator('header.top [data-action="account"]').click();
    await phone.page.locator('.account-links [data-link="analyse"]').click();
    await phone.page.waitForURL(/#\/analyse(\?|$)/);
    await phone.page.locator('[data-pdn-input]').fill(pdn);
    await phone.page.locator('[data-action="load-pdn"]').click();
    await phone.page.locator('[data-pdn-ply="5"]').waitFor();
    await phone.page.locator('[data-pdn-game]').scrollIntoViewIfNeeded();
    await screenshot(phone.page, 'club-analyse-pdn-360');
    const fit = await phone.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    assert.ok(fit, 'the page is no wider than the phone');
    assert.deepEqual(phone.errors, []);
  } finally {
    await desk.context.close();
    await phone.context.close();
  }
});

/** The guest of `p` becomes the account `name` (the page reloaded as it). */
async function signUp(p, url, name) {
  // A guest session first (the header's name shows once the server has made it).
  await arrive(p, url, name);
  const r = await call(p, 'POST', '/api/account', { username: name, password: 'correct horse battery' });
  assert.equal(r.status, 201, JSON.stringify(r.body));
  await p.page.reload();
  await p.page.locator('[data-me][data-account="account"]').waitFor({ state: 'attached' });
}

/**
 * Two new accounts play a rated Russian game at a table of `white`'s until Black
 * resigns after one move each; returns when both pages show the rating changes.
 */
async function ratedGameLost(url, white, black) {
  const t = await call(white.p, 'POST', '/api/rooms/russian/tables', { minutes: 5, increment: 3, rated: true, seat: 'white' });
  assert.equal(t.status, 201, JSON.stringify(t.body));
  await white.p.page.goto(`${url}/#/table/${t.body.id}`);
  await black.p.page.goto(`${url}/#/table/${t.body.id}`);
  await press(black.p, black.p.page.locator('[data-action="sit"][data-seat="black"]'));
  for (const p of [white.p, black.p]) await p.page.locator('[data-player="black"] [data-rating="1500?"]').waitFor();
  await press(white.p, white.p.page.locator('[data-action="start"]'));
  await press(black.p, black.p.page.locator('[data-action="start"]'));
  await playMove(white.p, 'c3-b4');
  await waitMoves(black.p.page, 1);
  await playMove(black.p, 'b6-a5');
  await waitMoves(white.p.page, 2);
  // Black resigns (the button asks twice); nobody reloads.
  const resign = black.p.page.locator('[data-action="resign"]');
  await press(black.p, resign);
  await press(black.p, resign);
  for (const p of [white.p, black.p]) await p.page.locator('[data-rating-change="black"]').waitFor();
}

test('item 8: after a rated game the player bars show the new ratings', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const ala = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser, { phone: true });
  try {
    await signUp(ala, url, 'WWWWWWWWWWWWWWWWWWWW');
    await signUp(bob, url, 'MMMMMMMMMMMMMMMMMMMM');
    await ala.page.setViewportSize({ width: 1366, height: 768 });
    await ratedGameLost(url, { p: ala }, { p: bob });
    for (const p of [ala, bob]) {
      // The bars follow the game-end message: White 1662?, Black 1338?.
      await p.page.locator('[data-player="white"] [data-rating="1662?"]').waitFor();
      await p.page.locator('[data-player="black"] [data-rating="1338?"]').waitFor();
      assert.equal(await p.page.locator('[data-player] [data-rating="1500?"]').count(), 0);
    }
    await screenshot(ala.page, 'club-rated-over-1366');
    await screenshot(bob.page, 'club-rated-over-360');
    assert.deepEqual([ala.errors, bob.errors].flat(), []);
  } finally {
    await ala.context.close();
    await bob.context.close();
  }
});

test('item 9: the game-over banner shows long names sensibly on a 360 px phone', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const ala = await newPlayer(env.browser, { phone: true });
  const bob = await newPlayer(env.browser, { phone: true, locale: 'pl-PL' });
  try {
    // The longest usernames (20 characters), one of wide letters.
    await signUp(ala, url, 'Agnieszka_Wisniewska');
    await signUp(bob, url, 'MMMMMMMMMMMMMMMMMMMX');
    await ratedGameLost(url, { p: ala }, { p: bob });
    for (const [i, p] of [ala, bob].entries()) {
      const box = await p.page.locator('[data-banner]').evaluate((banner) => {
        const b = banner.getBoundingClientRect();
        return {
          inside: b.left >= 0 && b.right <= document.documentElement.clientWidth,
          lines: [...banner.querySelectorAll('[data-rating-change]')].map((li) => {
            const name = li.querySelector('.name-cut');
            const change = li.querySelector('.change');
            const l = li.getBoundingClientRect();
            const c = change.getBoundingClientRect();
            return {
              name: name.textContent, width: name.clientWidth, cut: name.scrollWidth > name.clientWidth,
              changeInside: c.left >= l.left - 1 && c.right <= l.right + 1 && c.right <= b.right,
            };
          }),
        };
      });
      assert.ok(box.inside, 'the banner is on the screen');
      for (const line of box.lines) {
        // A name is whole, or cut only after most of it shows (not "WWW…").
        assert.ok(!line.cut || line.width >= 180, `${line.name}: ${line.width}px`);
        assert.ok(line.changeInside, `${line.name}: the change stays in the banner`);
      }
      assert.equal(box.lines.find((l) => l.name.startsWith('Agnieszka')).cut, false, 'a 20-letter name shows whole');
      await screenshot(p.page, `club-banner-names-360-${i ? 'pl' : 'en'}`);
    }
    assert.deepEqual([ala.errors, bob.errors].flat(), []);
  } finally {
    await ala.context.close();
    await bob.context.close();
  }
});

test('item 10: the table page names who watches', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const ala = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser, { phone: true });
  const dave = await newPlayer(env.browser, { locale: 'pl-PL' });
  try {
    await arrive(ala, url, 'Ala');
    await arrive(carol, url, LONG('Carolina'));
    await arrive(dave, url, 'Dawid');
    await ala.page.setViewportSize({ width: 1366, height: 768 });
    const t = await call(ala, 'POST', '/api/rooms/russian/tables', { minutes: 5, increment: 3, seat: 'white' });
    assert.equal(t.status, 201, JSON.stringify(t.body));
    const table = t.body.id;
    await ala.page.goto(`${url}/#/table/${table}`);
    await ala.page.locator('[data-spectators="0"]').waitFor();
    assert.equal(await ala.page.locator('[data-watchers]').count(), 0);
    // Two people open the table without sitting: both are named, everywhere.
    await carol.page.goto(`${url}/#/table/${table}`);
    await dave.page.goto(`${url}/#/table/${table}`);
    for (const p of [ala, carol, dave]) {
      await p.page.locator('[data-watchers="2"]').waitFor();
      await p.page.locator('[data-spectators="2"]').waitFor();
    }
    const names = await ala.page.locator('[data-watchers] [data-full-name]').evaluateAll((els) => els.map((e) => e.dataset.fullName));
    assert.deepEqual(names.sort(), [LONG('Carolina'), 'Dawid'], 'both named');
    assert.match(await dave.page.locator('[data-watchers]').textContent(), /^Oglądają: /);
    await screenshot(ala.page, 'club-watchers-1366');
    await carol.page.locator('[data-watchers]').scrollIntoViewIfNeeded();
    await screenshot(carol.page, 'club-watchers-360');
    const fit = await carol.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
    assert.ok(fit, 'the page is no wider than the phone');
    // Carol leaves: the list follows.
    await carol.page.goto(`${url}/#/`);
    await ala.page.locator('[data-watchers="1"]').waitFor();
    assert.deepEqual(await ala.page.locator('[data-watchers] [data-full-name]').evaluateAll((els) => els.map((e) => e.dataset.fullName)), ['Dawid']);
    // Dave sits down: a player, no longer a spectator.
    await press(dave, dave.page.locator('[data-action="sit"][data-seat="black"]'));
    await ala.page.locator('[data-spectators="0"]').waitFor();
    assert.equal(await ala.page.locator('[data-watchers]').count(), 0);
    assert.deepEqual([ala.errors, carol.errors, dave.errors].flat(), []);
  } finally {
    await ala.context.close();
    await carol.context.close();
    await dave.context.close();
  }
});

test('item 11: a finished table’s page after a restart says it closed, keeps the result and links the game', { timeout: 120_000 + 2 * RECONNECT_MS }, async () => {
  const { url } = env.server;
  const ala = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser, { phone: true, locale: 'pl-PL' });
  try {
    await arrive(ala, url, 'Ala');
    await arrive(bob, url, 'Bolek');
    const table = await startGame(ala, bob, url, 'russian', { minutes: 5, increment: 3 });
    await playMove(ala, 'c3-b4');
    await waitMoves(bob.page, 1);
    await playMove(bob, 'b6-a5');
    await waitMoves(ala.page, 2);
    const resign = bob.page.locator('[data-action="resign"]');
    await press(bob, resign);
    await press(bob, resign);
    for (const p of [ala, bob]) await p.page.locator('[data-banner]:not([hidden])').waitFor();
    const game = await ala.page.locator('[data-banner] [data-action="replay"]').getAttribute('href');
    assert.match(game, /^#\/game\/\w+$/);
    for (const p of [ala, bob]) assert.equal(await p.page.locator('[data-presence="on"]').count(), 2);

    // Only unfinished games come back after a restart: this table is gone.
    await env.server.kill();
    await env.server.restart();
    for (const [p, closed] of [[ala, 'The table was closed.'], [bob, 'Stół został zamknięty.']]) {
      await p.page.locator('[data-status]').filter({ hasText: closed }).waitFor({ timeout: RECONNECT_MS });
      // Nobody is shown at the table, nobody watching, no bare "not found".
      assert.equal(await p.page.locator('[data-presence]').count(), 0, 'no stale presence');
      assert.equal(await p.page.locator('[data-spectators]').count(), 0);
      assert.doesNotMatch(await p.page.locator(`[data-table="${table}"]`).innerText(), /Not found|Nie znaleziono/);
      // The result stays, with the way to the stored game and back to the room.
      assert.match(await p.page.locator('[data-banner]').innerText(), /won|Wygra/i);
      assert.equal(await p.page.locator('[data-controls] [data-action="replay"]').getAttribute('href'), game);
      assert.equal(await p.page.locator('[data-controls] [data-action="room"]').getAttribute('href'), '#/room/russian');
      assert.equal(await p.page.locator('[data-action="start"]').count(), 0, 'no Play again at a closed table');
      assert.equal(await p.page.locator('[data-chat] form:visible').count(), 0, 'no chat input at a closed table');
    }
    await screenshot(ala.page, 'club-closed-after-restart-1366');
    await screenshot(bob.page, 'club-closed-after-restart-360');
    await press(bob, bob.page.locator('[data-controls] [data-action="replay"]'));
    await bob.page.waitForURL(new RegExp(`${game}$`));
    await bob.page.locator('[data-replay-ply], [data-game]').first().waitFor();
    const offline = (e) => /WebSocket|ERR_CONNECTION_REFUSED|Failed to load resource/.test(e);
    assert.deepEqual([ala.errors, bob.errors].flat().filter((e) => !offline(e)), []);
  } finally {
    await ala.context.close();
    await bob.context.close();
  }
});

test('item 12: the home page features the game in progress of each variant, watchable in one click', { timeout: 120_000 }, async () => {
  const { url } = env.server;
  const ala = await newPlayer(env.browser);
  const bob = await newPlayer(env.browser);
  const carol = await newPlayer(env.browser, { phone: true, locale: 'pl-PL' });
  const dave = await newPlayer(env.browser);
  try {
    await arrive(ala, url, LONG('Agnieszka'));
    await arrive(bob, url, LONG('Bartholomew'));
    await arrive(dave, url, 'Dawid');
    await dave.page.setViewportSize({ width: 1366, height: 768 });
    const table = await startGame(ala, bob, url, 'russian', { minutes: 5, increment: 3 });
    await playMove(ala, 'c3-b4');
    await waitMoves(bob.page, 1);
    await playMove(bob, 'f6-g5');
    await waitMoves(ala.page, 2);

    // The Russian game is featured on the home page, at its position, with its players.
    for (const p of [carol, dave]) {
      await p.page.goto(`${url}/#/`);
      const tile = p.page.locator('[data-featured-game][data-featured-variant="russian"]');
      await tile.waitFor();
      await tile.locator('[data-mini-piece="g5:black-man"]').waitFor();
      await tile.locator('[data-mini-piece="b4:white-man"]').waitFor();
      assert.equal(await tile.locator('[data-mini-piece]').count(), 24);
      const names = await tile.locator('[data-full-name]').evaluateAll((els) => els.map((e) => e.dataset.fullName));
      assert.deepEqual(names, [LONG('Bartholomew'), LONG('Agnieszka')], 'Black above, White below');
      const fit = await p.page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);
      assert.ok(fit, 'the page is no wider than the screen');
    }
    assert.match(await carol.page.locator('.featured h2').textContent(), /Teraz na żywo/);
    await carol.page.locator('.featured').scrollIntoViewIfNeeded();
    await screenshot(carol.page, 'club-featured-360');
    await screenshot(dave.page, 'club-featured-1366');

    // It follows the game without a reload.
    await playMove(ala, 'b4-a5');
    await dave.page.locator('[data-featured-variant="russian"] [data-mini-piece="a5:white-man"]').waitFor();

    // One click: Dave watches the table, and its players see one more spectator.
    await press(dave, dave.page.locator('[data-featured-variant="russian"] .featured-link'));
    await dave.page.waitForURL(new RegExp(`#/table/${table}$`));
    await dave.page.locator(`[data-table="${table}"] [data-square]`).first().waitFor();
    await ala.page.locator('[data-spectators="1"]').waitFor();
    assert.equal(await dave.page.locator('[data-action="sit"]').count(), 0, 'both seats are taken');
    assert.deepEqual([ala.errors, bob.errors, carol.errors, dave.errors].flat(), []);
  } finally {
    for (const p of [ala, bob, carol, dave]) await p.context.close();
  }
});
