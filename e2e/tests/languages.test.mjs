// Issue 39, languages: every screen a visitor reaches without a second player, in each
// of the nine languages (picked from the browser's language), shows no translation key
// and no English text where the language has its own; the switch lists the nine
// languages in their own names, on a phone too, changes the page's `lang` and texts, and
// is remembered. The longest names the server allows (24-character guest names, a
// 40-character tournament name) on the screens with the longest texts, at 1366x768 and
// 360x740: nothing wider than the screen. Screenshots `languages-{lang}-{screen}-{width}.png`.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ARTIFACTS, newPlayer, serverAndBrowser } from '../lib/harness.mjs';
import { arrive, createTable, press, startGame } from '../lib/actions.mjs';
import { playAnyMove } from '../lib/flow.mjs';
import { LANGUAGES, LANGUAGE_NAMES } from '../../static/js/i18n.js';

const env = serverAndBrowser('languages');

const dicts = {};
const rules = {};
for (const lang of LANGUAGES) {
  dicts[lang] = (await import(`../../static/js/i18n/${lang}.js`)).default;
  rules[lang] = (await import(`../../static/js/rules/${lang}.js`)).default;
}
const en = dicts.en;

/** The browser language each language is picked from. */
const LOCALES = { pl: 'pl-PL', en: 'en-GB', ru: 'ru-RU', pt: 'pt-BR', es: 'es-ES', it: 'it-IT', cs: 'cs-CZ', nl: 'nl-NL', fr: 'fr-FR' };
/** The Russian room's name as the server gives it (room/defaults.rs). */
const RUSSIAN_ROOM = {
  pl: 'Warcaby rosyjskie', en: 'Russian draughts', ru: 'Русские шашки', pt: 'Damas russas', es: 'Damas rusas',
  it: 'Dama russa', cs: 'Ruská dáma', nl: 'Russisch dammen', fr: 'Dames russes',
};

/** The widest guest name the server allows (2–24 characters). */
const WIDEST = 'W'.repeat(24);
/** The longest tournament name the form takes. */
const LONGEST_TOURNAMENT = 'W'.repeat(40);
const SIZES = [{ width: 1366, height: 768 }, { width: 360, height: 740 }];

// What a key looks like on a page: a dotted key of en.js (`status.your_move`, also an
// unknown one under a known prefix), or one of its snake_case keys (`players_here`).
const prefixes = [...new Set(Object.keys(en).filter((k) => k.includes('.')).map((k) => k.split('.')[0]))];
const KEY_SHAPE = new RegExp(`\\b(?:${prefixes.join('|')})\\.[a-z0-9_]+(?:[.-][a-z0-9_]+)*`, 'g');
const SNAKE_KEYS = Object.keys(en).filter((k) => !k.includes('.') && k.includes('_'));

/**
 * English fragments that must not show in `lang`: the literal parts (12 characters or
 * more) of every English text that `lang` says otherwise. One showing means an English
 * fallback (a key missing in `lang`) or a text the page wrote without a key.
 */
function englishFragments(lang) {
  if (lang === 'en') return [];
  const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
  const own = Object.values(dicts[lang]).flatMap(forms).join('\n');
  const out = [];
  for (const [key, value] of Object.entries(en)) {
    for (const piece of forms(value).flatMap((s) => s.split(/\{\w+\}/)).map((s) => s.trim())) {
      if (piece.length >= 12 && !own.includes(piece)) out.push({ key, piece });
    }
  }
  return out;
}

/** Everything on the page a person reads or hears: text, titles, labels, placeholders. */
function pageTexts(page) {
  return page.evaluate(() => {
    const out = [document.title, document.body.innerText];
    for (const el of document.querySelectorAll('[title], [aria-label], [placeholder]')) {
      for (const a of ['title', 'aria-label', 'placeholder']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    return out.join('\n');
  });
}

/** Asserts no key and no English fallback shows, and the page fits the screen. */
async function check(page, lang, where) {
  const text = await pageTexts(page);
  const keys = [...text.matchAll(KEY_SHAPE)].map((m) => m[0])
    .concat(SNAKE_KEYS.filter((k) => new RegExp(`\\b${k}\\b`).test(text)));
  assert.deepEqual(keys, [], `${lang} ${where}: texts that look like keys: ${keys.join(', ')}`);
  const english = englishFragments(lang).filter(({ piece }) => text.includes(piece));
  assert.deepEqual(english, [], `${lang} ${where}: English shows: ${english.map((e) => `${e.key} “${e.piece}”`).join('; ')}`);
  assert.equal(await page.getAttribute('html', 'lang'), lang);
  const switchOptions = await page.locator('[data-lang-select] option').count();
  assert.equal(switchOptions, LANGUAGES.length, `${lang} ${where}: the switch lists every language`);
  const width = page.viewportSize().width;
  const scroll = await page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
  assert.ok(scroll <= width, `${lang} ${where}: the page is ${scroll} px wide on a ${width} px screen`);
  // Nor does anything stick out of its card (a long word or a button pushed out).
  const out = await page.evaluate(() => [...document.querySelectorAll('.card')]
    .filter((c) => c.offsetParent && c.scrollWidth > c.clientWidth + 1)
    .map((c) => `${c.className} ${c.scrollWidth} > ${c.clientWidth}: ${c.textContent.slice(0, 60)}`));
  assert.deepEqual(out, [], `${lang} ${where}: cards with content wider than themselves`);
}

/** Checks the screen at both sizes; with `shot`, saves a screenshot of each. */
async function both(page, lang, name, { shot = false, ready = async () => {} } = {}) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await ready();
    await page.waitForTimeout(150);
    await check(page, lang, `${name} at ${size.width}x${size.height}`);
    if (shot) await page.screenshot({ path: `${ARTIFACTS}/languages-${lang}-${name}-${size.width}.png`, fullPage: true });
  }
  await page.setViewportSize(SIZES[0]);
}
const shoot = (page, lang, name, ready) => both(page, lang, name, { shot: true, ready });

// Made once: a waiting table and a tournament in the Russian room, both with the widest
// names, so that every language's room, table and tournament pages list them.
let fixture = null;
async function fixtures() {
  if (fixture) return fixture;
  const host = await newPlayer(env.browser);
  await arrive(host, env.server.url, WIDEST);
  const waitingTable = await createTable(host, env.server.url, 'russian', { minutes: 15, increment: 10, seat: 'white' });
  await host.page.goto(`${env.server.url}/#/room/russian`);
  await press(host, host.page.locator('[data-action="new-tournament"]'));
  const form = host.page.locator('[data-form="create-tournament"]');
  await form.locator('[name="kind"]').selectOption('swiss');
  await form.locator('[name="name"]').fill(LONGEST_TOURNAMENT);
  await press(host, form.locator('[data-action="create-tournament"]'));
  await host.page.waitForURL(/#\/tournament\//);
  const tournament = decodeURIComponent(host.page.url().split('#/tournament/')[1]);
  // The host stays in the room: its people list shows the widest name.
  await host.page.goto(`${env.server.url}/#/room/russian`);
  // A game in progress between two more of the widest names: featured on the start page.
  const white = await newPlayer(env.browser);
  const black = await newPlayer(env.browser);
  await arrive(white, env.server.url, 'M'.repeat(24));
  await arrive(black, env.server.url, `${'W'.repeat(23)}M`);
  await startGame(white, black, env.server.url, 'russian', { minutes: 15, increment: 10 });
  await playAnyMove(white);
  await playAnyMove(black);
  fixture = { host, waitingTable, tournament };
  return fixture;
}

for (const lang of LANGUAGES) {
  test(`${LANGUAGE_NAMES[lang]} (${lang}): every screen in words, no keys, nothing wider than the screen`, { timeout: 240_000 }, async () => {
    const { waitingTable, tournament } = await fixtures();
    const url = env.server.url;
    const p = await newPlayer(env.browser, { locale: LOCALES[lang] });
    const { page } = p;
    const T = dicts[lang];
    try {
      await page.setViewportSize(SIZES[0]);
      // The language comes from the browser.
      await arrive(p, url, WIDEST);
      await page.locator('h1', { hasText: T['lobby.title'] }).waitFor();
      await page.locator('[data-room="russian"]', { hasText: RUSSIAN_ROOM[lang] }).waitFor();
      assert.equal(await page.locator('[data-lang-select]').inputValue(), lang);
      await page.locator('[data-featured-variant="russian"] [data-mini-piece]').first().waitFor();
      await page.locator('.featured h2', { hasText: T['featured.title'] }).waitFor();
      await shoot(page, lang, 'lobby');

      // The room: the tables (one with the widest name), the people, the forms.
      await page.goto(`${url}/#/room/russian`);
      await page.locator(`[data-table-id="${waitingTable}"]`).waitFor();
      await page.locator(`[data-tournament-id="${tournament}"]`).waitFor();
      await page.locator('[data-form="create-table"]').waitFor();
      await press(p, page.locator('[data-action="new-tournament"]'));
      await page.locator('[data-form="create-tournament"]').waitFor();
      await shoot(page, lang, 'room');

      // A game on one screen: the controls, the counters, the moves.
      await press(p, page.locator('[data-play-now] [data-action="play-local"]'));
      await page.waitForURL(/#\/table\//);
      await page.locator('[data-table] [data-square]').first().waitFor();
      await playAnyMove(p);
      await playAnyMove(p);
      await page.locator('[data-moves] [data-ply="2"]').waitFor();
      await shoot(page, lang, 'table', () => page.locator('[data-table] [data-square]').first().waitFor());
      // Agreed draw (one screen asks twice): the game-over banner.
      await press(p, page.locator('[data-action="draw-offer"]'));
      await press(p, page.locator('[data-action="draw-offer"]'));
      await page.locator('[data-banner]:visible').waitFor();
      await shoot(page, lang, 'table-over');
      // Its record.
      await press(p, page.locator('[data-banner] [data-action="replay"]'));
      await page.waitForURL(/#\/game\//);
      await page.locator('[data-game] [data-square]').first().waitFor();
      await both(page, lang, 'replay');

      // A table someone else waits at, seen by a visitor.
      await page.goto(`${url}/#/table/${waitingTable}`);
      await page.locator('[data-action="sit"]').first().waitFor();
      await both(page, lang, 'waiting table');
      // The tournament with the longest name.
      await page.goto(`${url}/#/tournament/${tournament}`);
      await page.locator('[data-tournament] [data-entrant]').first().waitFor();
      await both(page, lang, 'tournament');
      // The rules: the index and a variant's page with its start position.
      await page.goto(`${url}/#/rules`);
      await page.locator('h1', { hasText: rules[lang].index.title }).waitFor();
      await page.locator('table.compare').waitFor();
      await both(page, lang, 'rules');
      await page.goto(`${url}/#/rules/czech`);
      await page.locator('[data-rules="czech"] h1', { hasText: rules[lang].variants.czech.title }).waitFor();
      await page.locator('.start-diagram [data-piece]').first().waitFor();
      await both(page, lang, 'rules of Czech draughts');
      // The pages around accounts that need none.
      await page.goto(`${url}/#/leaderboard/russian`);
      await page.locator('[data-leaderboard-empty]').waitFor();
      await both(page, lang, 'leaderboard');
      await page.goto(`${url}/#/player/nobody_here`);
      await page.locator('[data-profile-missing]').waitFor();
      await both(page, lang, 'missing profile');
      await page.goto(`${url}/#/analyse?variant=russian`);
      await page.locator('[data-tool]').first().waitFor();
      await both(page, lang, 'analysis board');
      // The account panel: sign up and sign in.
      await page.goto(`${url}/#/`);
      await press(p, page.locator('[data-action="account"]'));
      await page.locator('[data-account-panel] [data-form="sign-up"]').waitFor();
      await shoot(page, lang, 'account');
      // (The missing profile's own 404 is the page's answer, not an error.)
      assert.deepEqual(p.errors.filter((e) => !/status of 404/.test(e)), []);
    } finally {
      await p.context.close();
    }
  });
}

test('the switch names the nine languages in their own names, switches lang and texts, and is remembered', async () => {
  const p = await newPlayer(env.browser, { locale: 'en-US' });
  const { page } = p;
  try {
    await page.goto(`${env.server.url}/#/`);
    await page.locator('h1', { hasText: 'Draughts online' }).waitFor();
    const options = await page.locator('[data-lang-select] option').evaluateAll((os) => os.map((o) => [o.value, o.textContent, o.lang]));
    assert.deepEqual(options, LANGUAGES.map((l) => [l, LANGUAGE_NAMES[l], l]));
    assert.equal(await page.locator('[data-lang-select]').inputValue(), 'en', 'the current language is the selected one');
    assert.equal(await page.locator('.lang-name').textContent(), 'English');
    for (const lang of LANGUAGES) {
      await page.locator('[data-lang-select]').selectOption(lang);
      await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
      await page.locator('h1', { hasText: dicts[lang]['lobby.title'] }).waitFor();
      await page.locator('.main-nav', { hasText: dicts[lang]['nav.rules'] }).waitFor();
      assert.equal(await page.locator('.lang-name').textContent(), LANGUAGE_NAMES[lang]);
      assert.equal(await page.locator('[data-lang-select]').getAttribute('aria-label'), dicts[lang]['nav.language']);
    }
    // Remembered over a reload, whatever the browser says.
    await page.reload();
    await page.locator('h1', { hasText: dicts.fr['lobby.title'] }).waitFor();
    assert.equal(await page.locator('[data-lang-select]').inputValue(), 'fr');
    // A rules page follows the switch.
    await page.goto(`${env.server.url}/#/rules/russian`);
    await page.locator('[data-rules] h1', { hasText: rules.fr.variants.russian.title }).waitFor();
    await page.locator('[data-lang-select]').selectOption('ru');
    await page.locator('[data-rules] h1', { hasText: rules.ru.variants.russian.title }).waitFor();
    // With the keyboard alone: the switch takes focus and the arrows change the language.
    await page.locator('[data-lang-select]').focus();
    await page.keyboard.press('ArrowDown');
    await page.locator('html[lang="pt"]').waitFor({ state: 'attached' });
    await page.locator('[data-rules] h1', { hasText: rules.pt.variants.russian.title }).waitFor();
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

test('on a phone the switch shows the language’s code, fits, and lists all nine', async () => {
  const p = await newPlayer(env.browser, { phone: true, locale: 'pt-PT' });
  const { page } = p;
  try {
    await page.goto(`${env.server.url}/#/`);
    await page.locator('h1', { hasText: dicts.pt['lobby.title'] }).waitFor();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt', 'pt-PT is served the Portuguese texts');
    const code = page.locator('.lang-code');
    assert.equal(await code.textContent(), 'PT');
    assert.ok(await code.isVisible());
    assert.equal(await page.locator('.lang-name').isVisible(), false);
    const box = await page.locator('.lang').boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 360, `the switch ${JSON.stringify(box)} is on the screen`);
    assert.equal(await page.locator('[data-lang-select] option').count(), 9);
    await page.locator('[data-lang-select]').selectOption('cs');
    await page.locator('h1', { hasText: dicts.cs['lobby.title'] }).waitFor();
    assert.equal(await code.textContent(), 'CS');
    for (const lang of LANGUAGES) {
      await page.locator('[data-lang-select]').selectOption(lang);
      await page.locator(`html[lang="${lang}"]`).waitFor({ state: 'attached' });
      const header = await page.locator('header.top').evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      assert.ok(header.scroll <= header.client, `${lang}: the header fits the phone (${header.scroll} > ${header.client})`);
    }
    assert.deepEqual(p.errors, []);
  } finally {
    await p.context.close();
  }
});

/** A JSON request from the page (its cookie goes along). */
function call(p, method, url, body) {
  return p.page.evaluate(async ([m, u, b]) => {
    const r = await fetch(u, { method: m, headers: { 'Content-Type': 'application/json' }, body: b ? JSON.stringify(b) : undefined });
    return { status: r.status, body: await r.json().catch(() => null) };
  }, [method, url, body]);
}

test('an account’s language is kept on the server and follows it to another browser', async () => {
  const home = await newPlayer(env.browser, { locale: 'en-US' });
  const away = await newPlayer(env.browser, { phone: true, locale: 'fr-FR' });
  const { url } = env.server;
  try {
    // The account is made in English, then its owner picks Czech on the switch.
    await arrive(home, url, 'Jirka');
    const made = await call(home, 'POST', '/api/account', { username: 'Jirka_Novak', password: 'jirka a ja doma' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    await home.page.reload();
    await home.page.locator('[data-me][data-account="account"]').waitFor({ state: 'attached' });
    await home.page.locator('[data-lang-select]').selectOption('cs');
    await home.page.locator('h1', { hasText: dicts.cs['lobby.title'] }).waitFor();
    await expectLanguage(home, 'cs');

    // A French phone: a guest page in French until the account signs in from its panel.
    await away.page.goto(`${url}/#/`);
    await away.page.locator('h1', { hasText: dicts.fr['lobby.title'] }).waitFor();
    await press(away, away.page.locator('header [data-action="account"]'));
    const form = away.page.locator('[data-form="sign-in"]');
    await form.locator('[name="username"]').fill('jirka_novak');
    await form.locator('[name="password"]').fill('jirka a ja doma');
    await press(away, form.locator('[data-action="sign-in"]'));
    await away.page.locator('[data-me][data-account="account"]').waitFor({ state: 'attached' });
    await away.page.locator('html[lang="cs"]').waitFor({ state: 'attached' });
    await away.page.locator('h1', { hasText: dicts.cs['lobby.title'] }).waitFor();
    assert.equal(await away.page.locator('[data-lang-select]').inputValue(), 'cs');

    // Italian chosen on the phone is what the first browser opens in next time,
    // although it remembers Czech itself.
    await away.page.locator('[data-lang-select]').selectOption('it');
    await expectLanguage(away, 'it');
    await home.page.reload();
    await home.page.locator('h1', { hasText: dicts.it['lobby.title'] }).waitFor();
    assert.equal(await home.page.locator('[data-lang-select]').inputValue(), 'it');
    assert.deepEqual([home.errors, away.errors].flat(), []);
  } finally {
    await home.context.close();
    await away.context.close();
  }
});

/** Waits until the server keeps `lang` for the page's account. */
async function expectLanguage(p, lang) {
  for (let i = 0; ; i++) {
    const me = await call(p, 'GET', '/api/me');
    if (me.body?.account?.language === lang) return;
    assert.ok(i < 100, `the server keeps ${lang}: ${JSON.stringify(me.body)}`);
    await p.page.waitForTimeout(100);
  }
}
