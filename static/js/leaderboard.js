// The leaderboard of a variant (`#/leaderboard/{variant}`, issue 23): the established
// accounts (not provisional), best first, each linking to its profile; below a line the
// provisional ones with a rated game (issue 39), and what makes a rating established; a
// switch between the seven variants.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { href } from './router.js';
import { nameTag } from './playnow.js';

/** Mounts the leaderboard page; returns its unmount function. */
export function mount(root, { id, ctx }) {
  const { t } = ctx;
  let gone = false;
  const list = h('div', { class: 'card', 'aria-busy': 'true' });
  const tabs = h('nav', { class: 'variant-tabs', 'aria-label': t('leaderboard.variants') });
  // Which rating the board shows: the variant's live one, or its correspondence one.
  const shown = h('h2', { 'data-board-shown': '' });
  replace(root, h('section', { class: 'leaderboard', 'data-leaderboard': id ?? '' },
    h('h1', {}, t('leaderboard.title')),
    h('p', { class: 'lead' }, t('leaderboard.lead')),
    tabs, shown, list));
  (async () => {
    const variants = await api.variants().catch(() => []);
    // Without a variant in the address: the player's best-played one, else American
    // (the home page's default), else the first.
    const ratings = ctx.me?.account ? (await api.me().catch(() => null))?.ratings : null;
    const mine = Object.entries(ratings ?? {}).sort((a, b) => b[1].games - a[1].games)[0];
    const variant = id ?? (mine?.[1].games ? mine[0] : null) ?? variants.find((v) => v.id === 'american')?.id ?? variants[0]?.id;
    if (gone || !variant) return;
    root.querySelector('[data-leaderboard]').dataset.leaderboard = variant;
    // Each variant has a live and a correspondence rating: the tabs keep the kind shown.
    const base = variant.replace(/_correspondence$/, '');
    const corr = base !== variant;
    const pool = (id) => (corr ? `${id}_correspondence` : id);
    const current = variants.find((v) => v.id === base);
    const name = current ? t.pick(current.names, base) : base;
    replace(shown, corr ? t('rating.correspondence', { variant: name }) : name);
    replace(tabs, variants.map((v) => h('a', {
      class: `btn small${v.id === base ? ' on' : ''}`, href: href('leaderboard', pool(v.id)), 'data-variant': v.id,
      'aria-current': v.id === base ? 'page' : null,
    }, t.pick(v.names, v.id))),
    h('a', {
      class: 'btn small', href: href('leaderboard', corr ? base : `${base}_correspondence`), 'data-pool': corr ? 'live' : 'correspondence',
    }, corr ? t('leaderboard.live') : t('leaderboard.correspondence')));
    try {
      const board = await api.leaderboard(variant);
      if (gone) return;
      list.removeAttribute('aria-busy');
      // Rows are usernames: the player's own is marked.
      const own = ctx.me?.account?.username ?? null;
      const below = board.provisional ?? [];
      const table = (players, attrs, provisional) => h('table', { class: 'leaderboard-table', ...attrs },
        h('thead', {}, h('tr', {},
          h('th', { class: 'num' }, '#'), h('th', {}, t('leaderboard.player')),
          h('th', { class: 'num' }, t('profile.rating')), h('th', { class: 'num' }, t('profile.games')))),
        h('tbody', {}, players.map((p, i) => h('tr', {
          'data-leader': provisional ? null : p.username, 'data-provisional-leader': provisional ? p.username : null,
          class: p.username === own ? 'mine' : null,
        },
        h('td', { class: 'num' }, provisional ? '' : String(i + 1)),
        h('td', { class: 'player' }, nameTag(t, { name: p.username, account: true }, { link: true })),
        h('td', { class: 'num', title: t('rating.rd', { rd: p.rd }) }, provisional ? `${p.rating}?` : String(p.rating)),
        h('td', { class: 'num' }, String(p.games))))));
      replace(list,
        board.players.length
          ? table(board.players, { 'data-leaderboard-list': variant }, false)
          : h('p', { class: 'meta', 'data-leaderboard-empty': '' }, below.length ? t('leaderboard.none_established') : t('leaderboard.empty')),
        // Below a line, while few are established: who plays rated here, with a "?".
        below.length
          ? h('section', { class: 'provisional-board', 'data-provisional-list': variant },
            h('h2', {}, t('leaderboard.provisional_title')),
            h('p', { class: 'meta' }, t('leaderboard.provisional_note')),
            table(below, {}, true))
          : null);
    } catch (err) {
      if (!gone) replace(list, h('p', { class: 'error', role: 'alert' }, t(`error.${err.code}`)));
    }
  })();
  return () => {
    gone = true;
  };
}
