// The service worker's words (static/sw.js): every kind in every language the client
// speaks, in the browser's language, and only this site's paths opened.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { LANGUAGES } from '../../static/js/i18n.js';

const require = createRequire(import.meta.url);
const { notificationOf, pickLanguage, TEXTS } = require('../../static/sw.js');
const KINDS = ['your_turn', 'offer', 'game_end', 'time_low'];

test('every kind is worded in every language of the client', () => {
  assert.deepEqual(Object.keys(TEXTS).sort(), [...LANGUAGES].sort());
  for (const lang of LANGUAGES) {
    for (const kind of KINDS) {
      const [title, body] = TEXTS[lang][kind];
      assert.ok(title && body.includes('{o}'), `${lang} ${kind}`);
    }
  }
});

test('the browser language picks the words; English otherwise', () => {
  assert.equal(pickLanguage(['pt-BR', 'en']), 'pt');
  assert.equal(pickLanguage(['de-DE', 'cs']), 'cs');
  assert.equal(pickLanguage(['de']), 'en');
  assert.equal(pickLanguage(undefined), 'en');
});

test('a payload becomes a notification that opens its table', () => {
  const n = notificationOf({ kind: 'your_turn', game: 'g1', url: '/#/table/t1', opponent: 'Ala', variant: 'russian' }, ['ru']);
  assert.deepEqual(n, { title: 'Ваш ход', body: 'Ala сделал(а) ход.', url: '/#/table/t1', tag: 'damka-g1' });
  assert.equal(notificationOf({ kind: 'offer', url: 'https://evil.example/' }, ['en']).url, '/');
  assert.equal(notificationOf({ kind: 'offer', url: '//evil.example/' }, ['en']).url, '/');
  assert.equal(notificationOf(null, ['en']).title, 'Your move');
});
