// The client's entry point: the header (language switch, guest name), the guest
// identity, and hash routing to the pages. Each page mounts into <main> and returns an
// unmount function that closes its sockets and timers.

import * as api from './api.js';
import { h, replace, s as svg } from './dom.js';
import { LANGUAGES, LANGUAGE_NAMES, loadLanguage, pickLanguage, rememberLanguage, storedLanguage, translator } from './i18n.js';
import { href, parseRoute } from './router.js';
import * as lobby from './lobby.js';
import * as room from './room.js';
import * as table from './table.js';
import * as replay from './replay.js';
import * as rules from './rules.js';
import * as tournament from './tournament.js';
import * as profile from './profile.js';
import * as leaderboard from './leaderboard.js';
import * as analyse from './analyse.js';
import * as puzzle from './puzzle.js';
import { playNow } from './playnow.js';
import { drawPanel } from './account.js';
import { SIGNED_OUT_EVENT } from './socket.js';

const PAGES = { lobby, room, table, game: replay, rules, tournament, player: profile, leaderboard, analyse, puzzles: puzzle, puzzle };

const app = {
  lang: pickLanguage(storedLanguage(), navigator.languages ?? [navigator.language]),
  me: null,
  unmount: null,
  // A seat chosen in a room's table list (or a game to start at once), acted on once the
  // table page has its state.
  intent: null,
  // The account panel under the header is open.
  accountOpen: false,
  // The session ended under the page (a socket closed with 4001): said under the header
  // until dismissed or signed in again.
  signedOut: false,
  // This page is signing out (the panel's buttons): the server closing its sockets for
  // that is expected.
  leaving: false,
};

const header = document.querySelector('[data-header]');
const main = document.querySelector('main');
const accountBox = document.createElement('section');
accountBox.className = 'account-panel';
accountBox.dataset.accountPanel = '';
accountBox.hidden = true;
header.after(accountBox);
const noticeBox = document.createElement('section');
noticeBox.className = 'account-panel';
noticeBox.dataset.notice = 'signed-out';
noticeBox.setAttribute('role', 'alert');
noticeBox.hidden = true;
accountBox.after(noticeBox);

function ctx() {
  const t = translator(app.lang);
  return {
    t,
    lang: app.lang,
    // Read when used: signing up mid-game changes it under a mounted page.
    get me() {
      return app.me;
    },
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
  noticeBox.hidden = !app.signedOut;
  replace(noticeBox, app.signedOut
    ? h('div', { class: 'account-head' },
      h('p', {}, t('account.signed_out')),
      h('button', {
        class: 'btn ghost close', type: 'button', 'aria-label': t('action.close'),
        onclick: () => {
          app.signedOut = false;
          renderHeader();
        },
      }, '×'))
    : null);
  drawPanel(accountBox, app.accountOpen, {
    t, lang: app.lang, me: app.me,
    close: () => {
      app.accountOpen = false;
      renderHeader();
    },
    // The same player, now an account: nothing is reloaded, a game goes on.
    onSignedUp: (me) => {
      app.me = me;
      // The new account keeps the language it has been using.
      keepLanguage(app.lang, { now: true });
      app.accountOpen = false;
      renderHeader();
      // The page is mounted again (its sockets then speak for the account: a rated seat
      // is open to it), except in the middle of the player's own game, which goes on
      // untouched on the socket it has.
      if (main.dataset.inGame !== 'true') route();
    },
    // Another player (signed in, or a fresh guest after signing out): the page is
    // mounted again so that its sockets open with the new session.
    onSigningOut: () => {
      app.leaving = true;
      clearTimeout(keepTimer);
    },
    onSwitched: (me) => {
      app.me = me;
      app.accountOpen = false;
      app.signedOut = false;
      app.leaving = false;
      renderHeader();
      route();
      accountLanguage();
    },
  });
  replace(header,
    h('a', { class: 'logo', href: href('lobby'), 'aria-label': 'Damka' }, h('span', { class: 'logo-mark', 'aria-hidden': 'true' }, '⛀'), h('span', { class: 'logo-text' }, ' Damka')),
    h('nav', { class: 'main-nav', 'aria-label': t('nav.main') },
      h('a', { href: href('lobby') }, t('nav.rooms')),
      h('a', { href: href('rules') }, t('nav.rules')),
      h('a', { class: 'nav-wide', href: href('leaderboard'), 'data-link': 'leaderboard' }, t('nav.leaderboard')),
      // From 1024 px; below, in the account panel (the header's button).
      h('a', { class: 'nav-wide nav-wider', href: href('analyse'), 'data-link': 'analyse' }, t('nav.analyse')),
    ),
    // The seeds' promise: from any page, one click to a game against the computer
    // (American checkers, the visitor with Black, which moves first).
    h('button', {
      class: 'btn small quick-bot', type: 'button', 'data-action': 'quick-bot',
      title: t('nav.play_bot_hint'), 'aria-label': t('nav.play_bot'), onclick: quickBot,
    }, t('nav.play_bot_short')),
    h('span', { class: 'me', 'data-me': '', 'data-account': app.me?.account ? 'account' : 'guest' }, app.me ? app.me.name : ''),
    // Signing up or in for a guest, the account's own menu for an account.
    h('button', {
      class: `btn small account-btn${app.accountOpen ? ' on' : ''}`, type: 'button', 'data-action': 'account',
      'aria-expanded': app.accountOpen ? 'true' : 'false',
      'aria-label': app.me?.account ? t('account.menu', { name: app.me.name }) : t('account.sign_in_up'),
      onclick: () => {
        app.accountOpen = !app.accountOpen;
        renderHeader();
      },
    }, personIcon(),
    h('span', { class: 'account-label' }, app.me?.account ? t('account.account') : t('account.sign_in_up'))),
    languageSwitch(t),
  );
}

/**
 * The language switch: a native select (a phone shows its own picker) listing every
 * language in its own name, the current one selected. Closed, it shows a globe and the
 * current language's name, or its code on a phone: the select lies transparent over
 * them, so a click or a tap anywhere on the switch opens it.
 */
function languageSwitch(t) {
  return h('label', { class: 'lang', title: t('nav.language') },
    globeIcon(),
    h('span', { class: 'lang-name', 'aria-hidden': 'true' }, LANGUAGE_NAMES[app.lang]),
    h('span', { class: 'lang-code', 'aria-hidden': 'true' }, app.lang.toUpperCase()),
    h('select', {
      'data-lang-select': '', 'aria-label': t('nav.language'),
      onchange: (ev) => applyLanguage(ev.target.value),
    }, LANGUAGES.map((l) => h('option', { value: l, lang: l, 'data-lang': l, selected: l === app.lang ? '' : null }, LANGUAGE_NAMES[l]))),
  );
}

/** A globe (an emoji may have no font on the device). */
function globeIcon() {
  return svg('svg', { class: 'lang-icon', viewBox: '0 0 16 16', width: '16', height: '16', 'aria-hidden': 'true' },
    svg('circle', { cx: '8', cy: '8', r: '6.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.3' }),
    svg('ellipse', { cx: '8', cy: '8', rx: '2.8', ry: '6.5', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.1' }),
    svg('path', { d: 'M1.5 8h13M2.6 4.6h10.8M2.6 11.4h10.8', fill: 'none', stroke: 'currentColor', 'stroke-width': '1.1' }));
}

/** A head and shoulders (an emoji may have no font on the device). */
function personIcon() {
  return svg('svg', { class: 'account-icon', viewBox: '0 0 16 16', width: '16', height: '16', 'aria-hidden': 'true' },
    svg('circle', { cx: '8', cy: '5', r: '3.2', fill: 'currentColor' }),
    svg('path', { d: 'M1.8 15c0.4-3.6 3-5.6 6.2-5.6s5.8 2 6.2 5.6z', fill: 'currentColor' }));
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

let languageWanted = null;

/**
 * Applies a language: loads its texts, then draws the header and the page again in it.
 * The one way the language changes after the start: the switch calls it, and an
 * account's language kept on the server is to be applied with it too (with
 * `remember: false` when this browser's own choice should not change).
 * A choice made while an earlier one is still loading wins; a language whose texts
 * cannot be fetched (offline) is not applied, and the switch shows the current one again.
 * @param {string} lang one of `LANGUAGES` (anything else is ignored)
 * @param {{remember?: boolean}} [opts] remember it in this browser (the default)
 */
async function applyLanguage(lang, { remember = true } = {}) {
  if (!LANGUAGES.includes(lang)) return;
  languageWanted = lang;
  try {
    await loadLanguage(lang);
  } catch {
    if (languageWanted === lang) renderHeader();
    return;
  }
  if (languageWanted !== lang) return;
  if (remember) {
    rememberLanguage(lang);
    keepLanguage(lang);
  }
  if (lang === app.lang) return;
  app.lang = lang;
  renderHeader();
  route();
}

/**
 * An account keeps the language chosen here on the server, so that it follows it to
 * every browser it signs in from (a failure only means the next browser asks again).
 */
let keepTimer = null;
function keepLanguage(lang, { now = false } = {}) {
  if (!app.me?.account || app.me.account.language === lang) return;
  app.me.account.language = lang;
  clearTimeout(keepTimer);
  const who = app.me.id;
  const send = () => {
    // Not for a session that ended meanwhile (signed out here or everywhere).
    if (app.me?.account && app.me.id === who && !app.leaving) api.setLanguage(lang).catch(() => {});
  };
  // A switch: once the person has settled (trying the languages one after another is
  // one change); a new account: at once.
  if (now) send();
  else keepTimer = setTimeout(send, 1_500);
}

/**
 * The language an account keeps on the server, applied in this browser (and remembered
 * here) when it differs: at the start and on signing in.
 */
async function accountLanguage() {
  const lang = app.me?.account?.language;
  if (lang && lang !== app.lang && LANGUAGES.includes(lang)) await applyLanguage(lang);
}

function route() {
  app.unmount?.();
  app.unmount = null;
  const r = parseRoute(location.hash);
  const { name, id } = r;
  const page = PAGES[name] ?? lobby;
  document.title = `Damka · ${translator(app.lang)(`title.${name}`)}`;
  main.dataset.page = name;
  delete main.dataset.inGame;
  app.unmount = page.mount(main, { id, route: r, ctx: ctx() }) ?? null;
  main.focus({ preventScroll: true });
}

/**
 * A socket was closed because its session ended: who is this page now (the browser's
 * cookie may be gone, or another tab's new session), said in the header; the page is
 * mounted again so that its sockets open with that session. Every socket of the page
 * closes at once, so one of them does this.
 */
let reidentifying = false;
async function signedOut() {
  if (reidentifying || app.leaving) return;
  reidentifying = true;
  try {
    app.me = await api.ensureGuest();
    if (app.me?.account) app.me = await api.me();
  } catch {
    app.me = null;
  }
  app.signedOut = !app.me?.account;
  app.accountOpen = false;
  renderHeader();
  route();
  reidentifying = false;
}
window.addEventListener(SIGNED_OUT_EVENT, signedOut);

async function start() {
  try {
    await loadLanguage(app.lang);
  } catch {
    app.lang = 'en';
  }
  renderHeader();
  try {
    app.me = await api.ensureGuest();
    // An account's ratings and username come with `/api/me`.
    if (app.me?.account) app.me = await api.me();
  } catch {
    // Spectating works without a guest; acting will report `unauthorized`.
  }
  // The account's own language, kept on the server, before the page is drawn.
  const kept = app.me?.account?.language;
  if (kept && kept !== app.lang && LANGUAGES.includes(kept)) {
    try {
      await loadLanguage(kept);
      app.lang = kept;
      rememberLanguage(kept);
    } catch {
      // Its texts cannot be fetched: the page stays in the language it has.
    }
  }
  renderHeader();
  window.addEventListener('hashchange', route);
  route();
}

start();
