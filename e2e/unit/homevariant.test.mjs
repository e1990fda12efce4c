import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HOME_VARIANTS, preferredVariant, rememberVariant } from '../../static/js/homevariant.js';
import { LANGUAGES } from '../../static/js/i18n.js';

function memory() {
  const m = new Map();
  return { getItem: (k) => m.get(k) ?? null, setItem: (k, v) => m.set(k, String(v)) };
}

test('the language’s home variant, then the last one remembered', () => {
  const store = memory();
  assert.equal(preferredVariant('ru', null, store), 'russian');
  assert.equal(preferredVariant('pl', null, store), 'brazilian');
  assert.equal(preferredVariant('pt', null, store), 'brazilian');
  assert.equal(preferredVariant('fr', null, store), 'international');
  assert.equal(preferredVariant('en', null, store), 'american');
  assert.equal(preferredVariant('xx', null, store), 'american');
  rememberVariant('czech', store);
  assert.equal(preferredVariant('ru', null, store), 'czech');
  // A remembered variant no room plays any more: the language's, then American.
  assert.equal(preferredVariant('ru', ['russian', 'american'], store), 'russian');
  assert.equal(preferredVariant('ru', ['american'], store), 'american');
  // No storage at all.
  assert.equal(preferredVariant('es', null, null), 'spanish');
  const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
  rememberVariant('italian', broken);
  assert.equal(preferredVariant('it', null, broken), 'italian');
});

test('every language has a home variant', () => {
  for (const l of LANGUAGES) assert.ok(HOME_VARIANTS[l], l);
});
