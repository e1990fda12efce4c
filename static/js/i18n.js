// Translations: nine languages, chosen from the browser, switchable, remembered.
// The lookups are pure functions over the dictionaries; only `storedLanguage` and
// `rememberLanguage` touch localStorage, and only when called (never at import time).
//
// English (the fallback of every lookup) and Polish (the server's home language, the
// page's `lang` before any script runs) come with this module; the other languages are
// loaded when chosen (`loadLanguage`), so a visit downloads one dictionary more at most.

import pl from './i18n/pl.js';
import en from './i18n/en.js';

/** The supported languages, in the order the switcher shows them. */
export const LANGUAGES = ['pl', 'en', 'ru', 'pt', 'es', 'it', 'cs', 'nl', 'fr'];

/** Each language's name in that language: what the switcher lists. */
export const LANGUAGE_NAMES = {
  pl: 'Polski',
  en: 'English',
  ru: 'Русский',
  pt: 'Português',
  es: 'Español',
  it: 'Italiano',
  cs: 'Čeština',
  nl: 'Nederlands',
  fr: 'Français',
};

/** The dictionaries loaded so far. */
const DICTS = { pl, en };
const FALLBACK = 'en';
const STORAGE_KEY = 'damka.lang';
// Whose plural rules a language's counts follow. CLDR puts 0 with 1 in Brazilian
// Portuguese ("0 mesa"), where players write "0 mesas"; the European rules give that and
// agree for every other whole number (same categories: one / many / other).
const PLURAL_RULES = { pt: 'pt-PT' };

/**
 * Picks the language: a remembered choice wins, then the browser's preferences in order
 * (by base language: `pt-BR` and `pt-PT` are `pt`), then English.
 * @param {string|null|undefined} stored
 * @param {readonly string[]} browserLanguages e.g. navigator.languages
 * @returns {string} one of `LANGUAGES`
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
 * Loads a language's dictionary (once); lookups in it work from then on. Fails when the
 * module cannot be fetched (offline): lookups then fall back to English.
 * @param {string} lang one of `LANGUAGES`
 */
export async function loadLanguage(lang) {
  if (!LANGUAGES.includes(lang) || DICTS[lang]) return;
  DICTS[lang] = (await import(`./i18n/${lang}.js`)).default;
}

/** True when `lang`'s dictionary is loaded (English and Polish always are). */
export function isLoaded(lang) {
  return DICTS[lang] !== undefined;
}

/**
 * Looks up `key` in `lang`, falling back to English and then to the key itself (so a
 * missing text is visible, never a blank). `{name}` placeholders are filled from
 * `params`; an entry that is an object of plural forms is chosen by `params.n` with the
 * language's plural rules (`Intl.PluralRules`: Polish, Russian and Czech have
 * one/few/many/other).
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
    const form = new Intl.PluralRules(PLURAL_RULES[used] ?? used).select(Number(params.n ?? 0));
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
 * uses for room and variant names (`{"pl": ..., "en": ..., "ru": ...}`).
 * @param {string} lang
 */
export function translator(lang) {
  const t = (key, params) => translate(lang, key, params);
  t.lang = lang;
  /** Picks a server-provided text in this language, falling back to English. */
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
