// The rules pages: an index with the comparison of the seven variants, and one page per
// variant, in the chosen language (texts in rules/{lang}.js, one module per language,
// loaded when a rules page is first opened in that language).

import * as api from './api.js';
import { Board } from './board.js';
import { h, replace } from './dom.js';
import { parseFen } from './fen.js';
import { LANGUAGES } from './i18n.js';
import { href } from './router.js';

/** The variant ids, in the order of the comparison table. */
export const VARIANTS = ['american', 'russian', 'brazilian', 'spanish', 'italian', 'czech', 'international'];

const loaded = {};

/**
 * The rules texts in `lang`: English for a language without them, or when the module
 * cannot be fetched.
 * @param {string} lang
 */
export function rulesTexts(lang) {
  const l = LANGUAGES.includes(lang) ? lang : 'en';
  loaded[l] ??= import(`./rules/${l}.js`).then((m) => m.default, (err) => {
    delete loaded[l];
    if (l === 'en') throw err;
    return rulesTexts('en');
  });
  return loaded[l];
}

/** Mounts the rules index (`id` null) or one variant's rules page. */
export function mount(root, { id, ctx }) {
  let mounted = true;
  // (Texts already loaded come before the next paint: nothing flashes.)
  replace(root);
  rulesTexts(ctx.t.lang).then((texts) => {
    if (mounted) render(root, id, ctx.t, texts);
  }).catch(() => {
    if (mounted) replace(root, h('p', { class: 'error' }, ctx.t('error.network')));
  });
  return () => {
    mounted = false;
  };
}

function render(root, id, t, texts) {
  const page = id && texts.variants[id === 'english' ? 'american' : id];
  const nav = h('nav', { class: 'rules-nav', 'aria-label': t('nav.rules') },
    h('a', { href: href('rules'), 'aria-current': page ? null : 'page' }, t('rules.all')),
    VARIANTS.map((v) => h('a', { href: href('rules', v), 'aria-current': page && v === id ? 'page' : null }, texts.comparison.head[VARIANTS.indexOf(v) + 1])),
  );
  if (!page) {
    replace(root, h('article', { class: 'rules' },
      nav,
      h('h1', {}, texts.index.title),
      h('p', { class: 'lead' }, texts.index.lead),
      h('h2', {}, texts.index.compare),
      comparison(texts),
      h('h2', {}, texts.index.common),
      texts.index.commonText.map((p) => h('p', {}, p)),
    ));
    return;
  }
  const diagram = h('figure', { class: 'start-diagram', hidden: true });
  replace(root, h('article', { class: 'rules', 'data-rules': id },
    nav,
    h('h1', {}, page.title),
    h('p', { class: 'lead' }, page.intro),
    page.sections.map(([title, ...parts], i) => h('section', {},
      h('h2', {}, title),
      parts.map((p) => (typeof p === 'string' ? h('p', {}, p) : h('ul', {}, p.ul.map((li) => h('li', {}, li))))),
      i === 0 ? diagram : null,
    )),
    h('h2', {}, texts.index.common),
    texts.index.commonText.map((p) => h('p', {}, p)),
    h('h2', {}, texts.index.compare),
    comparison(texts, id),
  ));
  // The start position drawn from the server's geometry: the mirrored boards and the
  // notation show as they are played here.
  api.variant(id === 'english' ? 'american' : id).then((variant) => {
    const board = new Board(variant, { label: (name) => name, title: t('rules.start_position') });
    board.render({ pieces: parseFen(variant.start_fen).pieces });
    replace(diagram, board.element, h('figcaption', {}, t('rules.start_position')));
    diagram.hidden = false;
  }).catch(() => {
    // Without the server the text still stands on its own.
  });
}

function comparison(texts, highlight) {
  const col = VARIANTS.indexOf(highlight) + 1;
  const cls = (i) => (i === col ? 'hl' : null);
  return h('div', { class: 'table-scroll' },
    h('table', { class: 'compare' },
      h('thead', {}, h('tr', {}, texts.comparison.head.map((c, i) => h('th', { scope: 'col', class: cls(i) }, c)))),
      h('tbody', {}, texts.comparison.rows.map((row) =>
        h('tr', {}, row.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', { class: cls(i) }, c)))),
      )),
    ),
  );
}
