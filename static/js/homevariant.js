// Which variant the home page offers first: the one the person played or looked at last
// (remembered in this browser), otherwise the one most played where their language is
// spoken (Russian for ru, Brazilian for pt and pl, International for nl and fr…).

const KEY = 'damka.variant';

/** A language's home variant; English (and any language not listed) plays American. */
export const HOME_VARIANTS = {
  en: 'american', pl: 'brazilian', ru: 'russian', pt: 'brazilian', es: 'spanish',
  it: 'italian', cs: 'czech', nl: 'international', fr: 'international',
};

/**
 * The variant to offer first: the remembered one if it is among `known` (the rooms'
 * variants; an old choice of a room that is gone is ignored), else `lang`'s home
 * variant, else American.
 * @param {string} lang the page's language
 * @param {Iterable<string>} [known] variants there are rooms of (any, when omitted)
 * @param {{getItem(k: string): string|null}|null} [store] localStorage by default
 */
export function preferredVariant(lang, known = null, store = storage()) {
  const ok = (v) => !!v && (known == null || [...known].includes(v));
  let last = null;
  try {
    last = store?.getItem(KEY) ?? null;
  } catch {
    // Storage refused (private mode): no memory.
  }
  if (ok(last)) return last;
  const home = HOME_VARIANTS[lang] ?? 'american';
  return ok(home) ? home : 'american';
}

/** Remembers `variant` as the person's last one (played, picked, or its room opened). */
export function rememberVariant(variant, store = storage()) {
  if (!variant) return;
  try {
    store?.setItem(KEY, variant);
  } catch {
    // Private mode: not remembered.
  }
}

function storage() {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}
