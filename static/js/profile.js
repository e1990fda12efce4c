// An account's public profile (`#/player/{username}`, issue 23): ratings per variant, the
// rating history of each variant drawn as an inline SVG chart, wins / draws / losses
// (and games lost by leaving), recent games linking to their replays, and every game as
// one PDN file.

import * as api from './api.js';
import { h, replace, s } from './dom.js';
import { href } from './router.js';
import { playerName } from './playnow.js';
import { chartGeometry, ratingText } from './ratings.js';
import { resultText } from './tableview.js';

const H = 200;
const PAD = 34;
/** Every account's first rating (protocol.md: 1500, RD 350). */
const START = 1500;

/** Mounts the profile page; returns its unmount function. */
export function mount(root, { id, ctx }) {
  const { t } = ctx;
  let gone = false;
  replace(root, h('section', { class: 'profile', 'data-profile': id, 'aria-busy': 'true' }, h('h1', {}, id)));
  Promise.all([api.profile(id), api.variants().catch(() => [])]).then(([p, variants]) => {
    if (!gone) replace(root, page(t, ctx, p, variants));
  }, (err) => {
    if (gone) return;
    replace(root, h('section', { class: 'profile card', 'data-profile-missing': id },
      h('h1', {}, id),
      h('p', {}, err.status === 404 ? t('profile.not_found') : t(`error.${err.code}`)),
      h('a', { class: 'btn', href: href('leaderboard') }, t('nav.leaderboard'))));
  });
  return () => {
    gone = true;
  };
}

function variantName(t, variants, v) {
  // A variant's correspondence rating is apart from its live one (`russian_correspondence`).
  const base = v.replace(/_correspondence$/, '');
  const found = variants.find((x) => x.id === base);
  const name = found ? t.pick(found.names, base) : base;
  return base === v ? name : t('rating.correspondence', { variant: name });
}

function page(t, ctx, p, variants) {
  const mine = ctx.me?.id === p.id;
  const played = Object.keys(p.ratings ?? {}).sort((a, b) => (p.ratings[b].games - p.ratings[a].games) || a.localeCompare(b));
  const joined = new Date(p.joined).toLocaleDateString(t.lang, { year: 'numeric', month: 'long', day: 'numeric' });
  const r = p.results ?? {};
  // The charts are drawn at the card's own width (one unit a pixel, so that their words
  // read the same on a phone), again when it changes.
  const history = h('section', { class: 'card', 'data-history': '' });
  const drawHistory = () => {
    const width = Math.max(240, Math.min(900, history.clientWidth - 26 || 600));
    replace(history, h('h2', {}, t('profile.history')),
      Object.keys(p.history ?? {}).length
        ? Object.entries(p.history).map(([v, points]) => chart(t, variantName(t, variants, v), v, points, width))
        : h('p', { class: 'meta' }, t('profile.no_history')));
  };
  drawHistory();
  let drawnAt = 0;
  new ResizeObserver(() => {
    if (Math.abs(history.clientWidth - drawnAt) < 8) return;
    drawnAt = history.clientWidth;
    drawHistory();
  }).observe(history);
  return h('section', { class: 'profile', 'data-profile': p.username },
    h('div', { class: 'profile-head' },
      h('h1', { class: 'profile-name' }, p.username, mine ? h('span', { class: 'you' }, ` (${t('you')})`) : null),
      h('p', { class: 'meta' }, t('profile.joined', { date: joined })),
      h('p', { class: 'links' },
        h('a', { class: 'btn small', href: api.playerPdnUrl(p.username), download: `${p.username}.pdn`, 'data-action': 'profile-pdn' }, t('profile.pdn')),
        ' ', h('a', { class: 'btn small', href: href('leaderboard', played[0] ?? null), 'data-link': 'leaderboard' }, t('nav.leaderboard'))),
    ),
    h('div', { class: 'profile-cols' },
      h('section', { class: 'card', 'data-ratings': '' },
        h('h2', {}, t('profile.ratings')),
        played.length
          ? h('table', { class: 'ratings-table' },
            h('thead', {}, h('tr', {}, h('th', {}, t('profile.variant')), h('th', { class: 'num' }, t('profile.rating')), h('th', { class: 'num' }, t('profile.games')))),
            h('tbody', {}, played.map((v) => h('tr', { 'data-variant-rating': v },
              h('td', {}, h('a', { href: href('leaderboard', v) }, variantName(t, variants, v))),
              h('td', { class: 'num', title: p.ratings[v].provisional ? t('rating.provisional') : t('rating.rd', { rd: p.ratings[v].rd }) }, ratingText(p.ratings[v])),
              h('td', { class: 'num' }, String(p.ratings[v].games))))))
          : h('p', { class: 'meta' }, t('profile.no_ratings')),
        played.some((v) => p.ratings[v].provisional) ? h('p', { class: 'meta' }, t('rating.provisional_legend')) : null,
      ),
      h('section', { class: 'card', 'data-results': '' },
        h('h2', {}, t('profile.results')),
        h('dl', { class: 'results' },
          ['wins', 'draws', 'losses'].map((k) => h('div', { 'data-result': k }, h('dt', {}, t(`profile.${k}`)), h('dd', {}, String(r[k] ?? 0)))),
        ),
        r.abandoned ? h('p', { class: 'meta', 'data-abandoned': String(r.abandoned) }, t('profile.abandoned', { n: r.abandoned })) : null,
        microMatches(t, p.micro_matches),
      ),
    ),
    history,
    recentGames(t, p, variants),
  );
}

/** Games a page of older games asks for. */
const PAGE = 20;

/**
 * The player's games, newest first, with "older games" below that fetches the next page
 * (keyset: the last game shown) until there are no more.
 */
function recentGames(t, p, variants) {
  const row = (g) => h('li', { 'data-game-id': g.id },
    h('a', { class: 'pair', href: href('game', g.id), 'data-action': 'replay' },
      cut(playerName(t, g.white) || '?'), h('span', { 'aria-hidden': 'true' }, '–'), cut(playerName(t, g.black) || '?')),
    h('span', { class: 'meta' }, ` ${g.variant ? `${variantName(t, variants, g.variant)} · ` : ''}${resultText(t, g)}, ${t('plies', { n: g.plies ?? 0 })}`,
      g.ended_at ? `, ${new Date(g.ended_at).toLocaleDateString(t.lang)}` : ''));
  const games = p.recent ?? [];
  if (!games.length) {
    return h('section', { class: 'card', 'data-recent': '' }, h('h2', {}, t('profile.recent')), h('p', { class: 'meta' }, t('profile.no_games')));
  }
  const list = h('ul', { class: 'games' }, games.map(row));
  const msg = h('p', { class: 'meta', role: 'status' });
  let last = games[games.length - 1].id;
  // A first page shorter than a full one is all there is.
  const more = games.length >= PAGE ? h('button', { class: 'btn small', type: 'button', 'data-action': 'older-games' }, t('profile.older')) : null;
  more?.addEventListener('click', async () => {
    more.disabled = true;
    msg.textContent = '';
    try {
      const page = await api.playerGames(p.username, last, PAGE);
      for (const g of page) list.append(row(g));
      if (page.length) last = page[page.length - 1].id;
      if (page.length < PAGE) more.remove();
    } catch (err) {
      msg.textContent = t(`error.${err.code}`);
    }
    more.disabled = false;
  });
  return h('section', { class: 'card', 'data-recent': '' },
    h('h2', {}, t('profile.recent')),
    list,
    h('div', { class: 'actions' }, more),
    msg);
}

function cut(name) {
  return h('span', { class: 'name-cut', title: name, 'data-full-name': name }, name);
}

/**
 * One variant's rating history as an inline SVG line chart: every account starts at
 * 1500 (a hollow first dot), then one dot per rated game.
 */
function chart(t, name, variant, points, width) {
  const g = chartGeometry([{ rating: START, at: null, start: true }, ...points], { width, height: H, pad: PAD });
  const last = points.at(-1);
  return h('figure', { class: 'rating-chart', 'data-chart': variant },
    h('figcaption', {}, h('strong', {}, name), last ? ` · ${last.rating}` : '', ' · ', t('profile.rated_games', { n: points.length })),
    s('svg', {
      viewBox: `0 0 ${width} ${H}`, role: 'img', class: 'chart',
      'aria-label': t('profile.chart_label', { variant: name, n: points.length, from: points[0]?.rating ?? '', to: last?.rating ?? '' }),
    },
    g.ticks.map((tk) => [
      s('line', { x1: PAD, x2: width - PAD / 2, y1: tk.y, y2: tk.y, class: 'grid' }),
      s('text', { x: PAD - 4, y: tk.y + 4, 'text-anchor': 'end', class: 'tick' }, String(tk.rating)),
    ]),
    s('path', { d: g.path, class: 'line', fill: 'none' }),
    g.points.map((pt, i) => (i === 0
      ? s('circle', { cx: pt.x, cy: pt.y, r: 3.5, class: 'dot start', 'data-start': String(pt.rating) }, s('title', {}, t('profile.start', { rating: pt.rating })))
      : s('circle', { cx: pt.x, cy: pt.y, r: 3.5, class: 'dot', 'data-point': String(pt.rating) },
        s('title', {}, `${pt.rating} · ${new Date(pt.at).toLocaleString(t.lang)}`)))),
    ));
}

/** "Micro-matches: 2 won, 1 drawn, 0 lost" (nothing before the first). */
function microMatches(t, m) {
  if (!m || !(m.won + m.drawn + m.lost)) return null;
  return h('p', { class: 'meta', 'data-micro-matches': `${m.won}/${m.drawn}/${m.lost}` },
    t('profile.micro_matches', { won: m.won, drawn: m.drawn, lost: m.lost }));
}
