import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, LANGUAGE_NAMES, hasKey, isLoaded, loadLanguage, pickLanguage, translate, translator } from '../../static/js/i18n.js';
import { VARIANTS } from '../../static/js/rules.js';

// Every dictionary and every rules text, read from the files themselves.
const dicts = {};
const rules = {};
for (const lang of LANGUAGES) {
  dicts[lang] = (await import(`../../static/js/i18n/${lang}.js`)).default;
  rules[lang] = (await import(`../../static/js/rules/${lang}.js`)).default;
}
const en = dicts.en;
const others = LANGUAGES.filter((l) => l !== 'en');
const isPlural = (v) => typeof v === 'object' && v !== null;
const forms = (v) => (isPlural(v) ? Object.values(v) : [v]);
const placeholders = (v) => [...new Set(forms(v).flatMap((s) => String(s).match(/\{\w+\}/g) ?? []))].sort();

test('a remembered language wins over the browser', () => {
  assert.equal(pickLanguage('en', ['pl-PL', 'pl']), 'en');
  assert.equal(pickLanguage('pl', ['en-US']), 'pl');
  assert.equal(pickLanguage('cs', ['ru-RU']), 'cs');
});

test('the browser preferences are tried in order, by base language', () => {
  assert.equal(pickLanguage(null, ['de-DE', 'pl-PL', 'en']), 'pl');
  assert.equal(pickLanguage(null, ['en-GB', 'pl']), 'en');
  assert.equal(pickLanguage('xx', ['de']), 'en', 'unknown everything falls back to English');
  assert.equal(pickLanguage(undefined, undefined), 'en');
  assert.equal(pickLanguage(null, ['pt-BR']), 'pt');
  assert.equal(pickLanguage(null, ['pt-PT', 'en']), 'pt');
  assert.equal(pickLanguage(null, ['de-AT', 'nl-BE', 'fr']), 'nl');
  assert.equal(pickLanguage(null, ['es-419']), 'es');
  assert.equal(pickLanguage(null, ['fr-CA']), 'fr');
  assert.equal(pickLanguage(null, ['it-CH']), 'it');
  assert.equal(pickLanguage(null, ['uk-UA', 'ru']), 'ru');
  assert.equal(pickLanguage(null, ['sk', 'cs-CZ']), 'cs');
});

test('nine languages, each named in itself', () => {
  assert.deepEqual(LANGUAGES, ['pl', 'en', 'ru', 'pt', 'es', 'it', 'cs', 'nl', 'fr']);
  assert.deepEqual(Object.keys(LANGUAGE_NAMES), LANGUAGES);
  assert.equal(LANGUAGE_NAMES.ru, 'Русский');
  assert.equal(LANGUAGE_NAMES.cs, 'Čeština');
});

test('lookups fill placeholders', () => {
  assert.equal(translate('en', 'options.time', { minutes: 5, increment: 3 }), '5 min + 3 s');
  assert.equal(translate('pl', 'status.sending', { move: 'c3-d4' }), 'Wysyłam ruch c3-d4…');
  assert.equal(translate('en', 'status.sending'), 'Sending move {move}…', 'a missing parameter stays visible');
});

test('Polish plurals use one / few / many', () => {
  assert.equal(translate('pl', 'tables', { n: 1 }), '1 stół');
  assert.equal(translate('pl', 'tables', { n: 3 }), '3 stoły');
  assert.equal(translate('pl', 'tables', { n: 5 }), '5 stołów');
  assert.equal(translate('pl', 'tables', { n: 12 }), '12 stołów');
  assert.equal(translate('pl', 'tables', { n: 22 }), '22 stoły');
  assert.equal(translate('en', 'tables', { n: 1 }), '1 table');
  assert.equal(translate('en', 'tables', { n: 0 }), '0 tables');
});

test('the other languages load on demand and choose their plural forms', async () => {
  assert.equal(isLoaded('ru'), false, 'Russian is not part of the first download');
  assert.equal(translate('ru', 'nav.rules'), 'Rules', 'before it is loaded, English');
  for (const lang of LANGUAGES) await loadLanguage(lang);
  assert.ok(LANGUAGES.every(isLoaded));
  const n = (lang, key, count) => translate(lang, key, { n: count });
  assert.deepEqual([1, 2, 5, 11, 21, 22, 25].map((c) => n('ru', 'tables', c)),
    ['1 стол', '2 стола', '5 столов', '11 столов', '21 стол', '22 стола', '25 столов']);
  assert.deepEqual([1, 2, 4, 5, 0].map((c) => n('cs', 'tables', c)), ['1 stůl', '2 stoly', '4 stoly', '5 stolů', '0 stolů']);
  assert.deepEqual([0, 1, 2].map((c) => n('fr', 'tables', c)), ['0 table', '1 table', '2 tables']);
  assert.deepEqual([0, 1, 2].map((c) => n('pt', 'tables', c)), ['0 mesas', '1 mesa', '2 mesas'], 'no "0 mesa"');
  assert.deepEqual([1, 2].map((c) => n('es', 'tables', c)), ['1 mesa', '2 mesas']);
  assert.deepEqual([1, 2].map((c) => n('it', 'tables', c)), ['1 tavolo', '2 tavoli']);
  assert.deepEqual([1, 2].map((c) => n('nl', 'tables', c)), ['1 tafel', '2 tafels']);
  assert.equal(translate('ru', 'nav.rules'), 'Правила');
  await loadLanguage('xx');
  assert.equal(isLoaded('xx'), false, 'an unknown language is never fetched');
});

test('missing keys fall back to English, then to the key', () => {
  assert.equal(translate('xx', 'nav.rules'), 'Rules');
  assert.equal(translate('pl', 'no.such.key'), 'no.such.key');
  assert.equal(hasKey('pl', 'no.such.key'), false);
});

test('an unknown error code still reads as an error', () => {
  assert.equal(translate('en', 'error.teapot'), 'Error: teapot');
  assert.equal(translate('pl', 'error.seat_taken'), 'To miejsce jest zajęte.');
});

test('every protocol error code and every reason has a text in every language', () => {
  const codes = ['not_your_turn', 'illegal_move', 'stale_ply', 'seat_taken', 'not_seated', 'game_in_progress',
    'no_game', 'invalid_options', 'invalid_name', 'rate_limited', 'bad_message', 'unauthorized', 'not_found',
    'too_many_tables', 'internal', 'storage_unavailable', 'unknown_ballot', 'correspondence_needs_account'];
  const reasons = ['no_moves', 'resign', 'timeout', 'agreement', 'threefold', 'move_limit', 'aborted'];
  for (const lang of LANGUAGES) {
    for (const c of codes) assert.ok(dicts[lang][`error.${c}`], `${lang}: error.${c}`);
    for (const r of reasons) assert.ok(dicts[lang][`reason.${r}`], `${lang}: reason.${r}`);
  }
});

// The completeness test: a key added to en.js fails here until every language has it.
test('every language has every English key, and no key English lacks', () => {
  const problems = [];
  for (const lang of others) {
    const missing = Object.keys(en).filter((k) => !(k in dicts[lang]));
    const extra = Object.keys(dicts[lang]).filter((k) => !(k in en));
    if (missing.length) problems.push(`static/js/i18n/${lang}.js lacks ${missing.map((k) => `'${k}'`).join(', ')}`);
    if (extra.length) problems.push(`static/js/i18n/${lang}.js has ${extra.map((k) => `'${k}'`).join(', ')}, which en.js lacks`);
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('every text has the English placeholders and is not empty', () => {
  const problems = [];
  for (const lang of LANGUAGES) {
    for (const [key, value] of Object.entries(dicts[lang])) {
      if (forms(value).some((s) => typeof s !== 'string' || s.trim() === '')) problems.push(`${lang}: '${key}' is empty`);
      if (!(key in en)) continue;
      if (isPlural(en[key]) !== isPlural(value)) {
        problems.push(`${lang}: '${key}' must be ${isPlural(en[key]) ? 'an object of plural forms' : 'a string'}, as in English`);
        continue;
      }
      const want = placeholders(en[key]).join(' ');
      const got = placeholders(value).join(' ');
      if (want !== got) problems.push(`${lang}: '${key}' has placeholders [${got}], English has [${want}]`);
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('every plural object has exactly the forms the language’s plural rules use', () => {
  const problems = [];
  for (const lang of LANGUAGES) {
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, value] of Object.entries(dicts[lang])) {
      if (!isPlural(value)) continue;
      const missing = categories.filter((c) => !(c in value));
      const unused = Object.keys(value).filter((c) => !categories.includes(c));
      if (missing.length) problems.push(`${lang}: '${key}' lacks the plural form(s) ${missing.join(', ')}`);
      if (unused.length) problems.push(`${lang}: '${key}' has the form(s) ${unused.join(', ')}, which ${lang} never uses`);
    }
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('every language is translated, not English copied', () => {
  // Some texts are the same in English (Start, PDN, Buchholz, "{minutes} min + ..."):
  // a handful, never a tenth of the dictionary.
  for (const lang of others.filter((l) => l !== 'pl')) {
    const same = Object.keys(en).filter((k) => JSON.stringify(dicts[lang][k]) === JSON.stringify(en[k]));
    assert.ok(same.length < Object.keys(en).length / 10, `${lang} has ${same.length} English texts: ${same.join(', ')}`);
  }
});

/** The shape of a rules text: where there is text, how many items each list has. */
function shapeProblems(want, got, path) {
  if (typeof want === 'string') {
    if (typeof got !== 'string') return [`${path} should be a text`];
    return got.trim() ? [] : [`${path} is empty`];
  }
  if (Array.isArray(want)) {
    if (!Array.isArray(got)) return [`${path} should be a list`];
    if (got.length !== want.length) return [`${path} has ${got.length} items, English ${want.length}`];
    return want.flatMap((w, i) => shapeProblems(w, got[i], `${path}[${i}]`));
  }
  if (typeof got !== 'object' || got === null || Array.isArray(got)) return [`${path} should be an object`];
  const keys = [...new Set([...Object.keys(want), ...Object.keys(got)])];
  return keys.flatMap((k) => {
    if (!(k in got)) return [`${path}.${k} is missing`];
    if (!(k in want)) return [`${path}.${k} is not in English`];
    return shapeProblems(want[k], got[k], `${path}.${k}`);
  });
}

test('the rules texts have the same structure in every language', () => {
  const problems = LANGUAGES.flatMap((lang) => shapeProblems(rules.en, rules[lang], '').map((p) => `rules/${lang}.js: ${p.replace(/^\./, '')}`));
  assert.deepEqual(problems, [], problems.join('\n'));
  for (const lang of LANGUAGES) {
    assert.deepEqual(Object.keys(rules[lang].variants).sort(), [...VARIANTS].sort(), `${lang}: every variant has a page`);
    assert.equal(rules[lang].comparison.head.length, VARIANTS.length + 1, `${lang}: a comparison column per variant`);
  }
});

test('translator.pick chooses a server text in its language, falling back to English', () => {
  const t = translator('pl');
  assert.equal(t.pick({ pl: 'Rosyjskie', en: 'Russian' }), 'Rosyjskie');
  assert.equal(translator('en').pick({ pl: 'Rosyjskie' }), 'Rosyjskie');
  assert.equal(translator('ru').pick({ pl: 'Rosyjskie', en: 'Russian', ru: 'Русские шашки' }), 'Русские шашки');
  assert.equal(translator('nl').pick({ pl: 'Rosyjskie', en: 'Russian' }), 'Russian', 'a room file without Dutch names');
  assert.equal(t.pick(undefined, 'russian'), 'russian');
  assert.equal(t('nav.rules'), 'Zasady');
});
