// The client's entry point: the header (language switch, guest name), the guest
// identity, and hash routing to the pages. Each page mounts into <main> and returns an
// unmount function that closes its sockets and timers.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { LANGUAGES, pickLanguage, rememberLanguage, storedLanguage, translator } from './i18n.js';
import { href, parseRoute } from './router.js';
import * as lobby from './lobby.js';
import * as room from './room.js';
import * as table from './table.js';
import * as replay from './replay.js';
import * as rules from './rules.js';
import * as tournament from './tournament.js';
import * as analyse from './analyse.js';
import { playNow } from './playnow.js';

const PAGES = { lobby, room, table, game: replay, rules, tournament, analyse };

const app = {
  lang: pickLanguage(storedLanguage(), navigator.languages ?? [navigator.language]),
  me: null,
  unmount: null,
  // A seat chosen in a room's table list (or a game to start at once), acted on once the
  // table page has its state.
  intent: null,
};

const header = document.querySelector('[data-header]');
const main = document.querySelector('main');

function ctx() {
  const t = translator(app.lang);
  return {
    t,
    me: app.me,
    setMe: (me) => {
      app.me = me;
      renderHeader();
    },
    go: (name, id) => {
      location.hash = href(name, id);
    },
    // What to do once a table page has its state: sit in `seat`, and/or press start.
    setIntent: (tableId, seat, extra = {}) => {
      app.intent = { tableId, seat, ...extra };
    },
    takeIntent: (tableId) => {
      const intent = app.intent?.tableId === tableId ? app.intent : null;
      app.intent = null;
      return intent;
    },
  };
}

function renderHeader() {
  const t = translator(app.lang);
  document.documentElement.lang = app.lang;
  replace(header,
    h('a', { class: 'logo', href: href('lobby'), 'aria-label': 'Damka' }, h('span', { class: 'logo-mark', 'aria-hidden': 'true' }, '⛀'), h('span', { class: 'logo-text' }, ' Damka')),
    h('nav', { class: 'main-nav', 'aria-label': t('nav.main') },
      h('a', { href: href('lobby') }, t('nav.rooms')),
      h('a', { href: href('rules') }, t('nav.rules')),
    ),
    // The seeds' promise: from any page, one click to a game against the computer
    // (American checkers, the visitor with Black, which moves first).
    h('button', {
      class: 'btn small quick-bot', type: 'button', 'data-action': 'quick-bot',
      title: t('nav.play_bot_hint'), 'aria-label': t('nav.play_bot'), onclick: quickBot,
    }, t('nav.play_bot_short')),
    h('span', { class: 'me', 'data-me': '' }, app.me ? app.me.name : ''),
    h('div', { class: 'lang', role: 'group', 'aria-label': t('nav.language') },
      LANGUAGES.map((l) => h('button', {
        class: `btn small${l === app.lang ? ' on' : ''}`,
        'data-lang': l,
        'aria-pressed': l === app.lang ? 'true' : 'false',
        onclick: () => setLanguage(l),
      }, l.toUpperCase())),
    ),
  );
}

let quickBusy = false;
async function quickBot() {
  if (quickBusy) return;
  quickBusy = true;
  try {
    const rooms = await api.rooms();
    const room = rooms.find((r) => r.variant === 'american') ?? rooms[0];
    if (room) await playNow(ctx(), room.id, { level: 1 });
  } catch {
    // The page's own cards still offer the game; nothing to undo here.
  } finally {
    quickBusy = false;
  }
}

/**
 * A name cut with an ellipsis (`data-full-name`, playnow.js) shows whole for a few
 * seconds when tapped or long-pressed; with a mouse its title shows on hover.
 */
let tip = null;
function showFullName(ev) {
  const el = ev.target.closest?.('[data-full-name]');
  if (!el || el.scrollWidth <= el.clientWidth + 1) return;
  if (ev.type === 'contextmenu') ev.preventDefault();
  tip?.remove();
  tip = h('div', { class: 'name-tip', role: 'status', 'data-name-tip': '' }, el.dataset.fullName);
  document.body.append(tip);
  const mine = tip;
  setTimeout(() => mine.remove(), 4_000);
}
document.addEventListener('click', showFullName);
document.addEventListener('contextmenu', showFullName);

function setLanguage(lang) {
  if (lang === app.lang) return;
  app.lang = lang;
  rememberLanguage(lang);
  renderHeader();
  route();
}

function route() {
  app.unmount?.();
  app.unmount = null;
  const r = parseRoute(location.hash);
  const { name, id } = r;
  const page = PAGES[name] ?? lobby;
  document.title = `Damka · ${translator(app.lang)(`title.${name}`)}`;
  main.dataset.page = name;
  app.unmount = page.mount(main, { id, route: r, ctx: ctx() }) ?? null;
  main.focus({ preventScroll: true });
}

async function start() {
  renderHeader();
  try {
    app.me = await api.ensureGuest();
  } catch {
    // Spectating works without a guest; acting will report `unauthorized`.
  }
  renderHeader();
  window.addEventListener('hashchange', route);
  route();
}

start();
