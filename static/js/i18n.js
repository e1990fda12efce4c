// Translations: Polish and English, chosen from the browser, switchable, remembered.
// The lookups are pure functions over the dictionaries; only `storedLanguage` and
// `rememberLanguage` touch localStorage, and only when called (never at import time).

import pl from './i18n/pl.js';
import en from './i18n/en.js';

/** The supported languages, in the order the switcher shows them. */
export const LANGUAGES = ['pl', 'en'];

const DICTS = { pl, en };
const FALLBACK = 'en';
const STORAGE_KEY = 'damka.lang';

/**
 * Picks the language: a remembered choice wins, then the browser's preferences in order,
 * then English.
 * @param {string|null|undefined} stored
 * @param {readonly string[]} browserLanguages e.g. navigator.languages
 * @returns {'pl'|'en'}
 */
export function pickLanguage(stored, browserLanguages) {
  if (LANGUAGES.includes(stored)) return stored;
  for (const tag of browserLanguages ?? []) {
    const base = String(tag).toLowerCase().split('-')[0];
    if (LANGUAGES.includes(base)) return base;
  }
  return FALLBACK;
}

/**
 * Looks up `key` in `lang`, falling back to English and then to the key itself (so a
 * missing text is visible, never a blank). `{name}` placeholders are filled from
 * `params`; an entry that is an object of plural forms is chosen by `params.n` with the
 * language's plural rules (Polish has one/few/many).
 * @param {string} lang
 * @param {string} key
 * @param {Record<string, unknown>} [params]
 * @returns {string}
 */
export function translate(lang, key, params = {}) {
  let entry = DICTS[lang]?.[key];
  let used = lang;
  if (entry === undefined) {
    entry = DICTS[FALLBACK][key];
    used = FALLBACK;
  }
  if (entry === undefined) {
    // An error code this client does not know yet still reads as an error.
    if (key.startsWith('error.') && key !== 'error.unknown') return translate(lang, 'error.unknown', { code: key.slice(6) });
    return key;
  }
  if (typeof entry === 'object') {
    const form = new Intl.PluralRules(used).select(Number(params.n ?? 0));
    entry = entry[form] ?? entry.other ?? entry.many ?? '';
  }
  return entry.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
}

/** True when `lang` (or the fallback) has a text for `key`. */
export function hasKey(lang, key) {
  return DICTS[lang]?.[key] !== undefined || DICTS[FALLBACK][key] !== undefined;
}

/**
 * A translator bound to one language, with the object-of-languages helper the server
 * uses for room and variant names (`{"pl": ..., "en": ...}`).
 * @param {string} lang
 */
export function translator(lang) {
  const t = (key, params) => translate(lang, key, params);
  t.lang = lang;
  /** Picks a server-provided `{pl, en}` text in this language, falling back. */
  t.pick = (texts, fallback = '') => texts?.[lang] ?? texts?.[FALLBACK] ?? Object.values(texts ?? {})[0] ?? fallback;
  return t;
}

/** The remembered language, or null (localStorage may be unavailable: private mode). */
export function storedLanguage() {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    return null;
  }
}

/** Remembers the chosen language. */
export function rememberLanguage(lang) {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEY, lang);
  } catch {
    // Not remembered: the choice still holds for this page.
  }
}
