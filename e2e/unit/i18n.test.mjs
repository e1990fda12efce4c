import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasKey, pickLanguage, translate, translator } from '../../static/js/i18n.js';
import pl from '../../static/js/i18n/pl.js';
import en from '../../static/js/i18n/en.js';

test('a remembered language wins over the browser', () => {
  assert.equal(pickLanguage('en', ['pl-PL', 'pl']), 'en');
  assert.equal(pickLanguage('pl', ['en-US']), 'pl');
});

test('the browser preferences are tried in order, by base language', () => {
  assert.equal(pickLanguage(null, ['de-DE', 'pl-PL', 'en']), 'pl');
  assert.equal(pickLanguage(null, ['en-GB', 'pl']), 'en');
  assert.equal(pickLanguage('xx', ['fr']), 'en', 'unknown everything falls back to English');
  assert.equal(pickLanguage(undefined, undefined), 'en');
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

test('missing keys fall back to English, then to the key', () => {
  assert.equal(translate('xx', 'nav.rules'), 'Rules');
  assert.equal(translate('pl', 'no.such.key'), 'no.such.key');
  assert.equal(hasKey('pl', 'no.such.key'), false);
});

test('an unknown error code still reads as an error', () => {
  assert.equal(translate('en', 'error.teapot'), 'Error: teapot');
  assert.equal(translate('pl', 'error.seat_taken'), 'To miejsce jest zajęte.');
});

test('every protocol error code and every reason has a text in both languages', () => {
  const codes = ['not_your_turn', 'illegal_move', 'stale_ply', 'seat_taken', 'not_seated', 'game_in_progress',
    'no_game', 'invalid_options', 'invalid_name', 'rate_limited', 'bad_message', 'unauthorized', 'not_found',
    'too_many_tables', 'internal', 'storage_unavailable'];
  const reasons = ['no_moves', 'resign', 'timeout', 'agreement', 'threefold', 'move_limit', 'aborted'];
  for (const dict of [pl, en]) {
    for (const c of codes) assert.ok(dict[`error.${c}`], `error.${c}`);
    for (const r of reasons) assert.ok(dict[`reason.${r}`], `reason.${r}`);
  }
});

test('both dictionaries have the same keys', () => {
  assert.deepEqual(Object.keys(pl).sort(), Object.keys(en).sort());
});

test('translator.pick chooses a server {pl, en} text with fallback', () => {
  const t = translator('pl');
  assert.equal(t.pick({ pl: 'Rosyjskie', en: 'Russian' }), 'Rosyjskie');
  assert.equal(translator('en').pick({ pl: 'Rosyjskie' }), 'Rosyjskie');
  assert.equal(t.pick(undefined, 'russian'), 'russian');
  assert.equal(t('nav.rules'), 'Zasady');
});
