// The start page: the player's games in progress (`mygames.js`), the rooms (variant,
// one-line rules, tables, players) and the guest's name, which can be changed here.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { href } from './router.js';
import { preferredVariant } from './homevariant.js';
import { playCard } from './playnow.js';
import { myGamesCard } from './mygames.js';
import { FEATURED_REFRESH_MS, featuredCard, miniBoard } from './featured.js';

const REFRESH_MS = 10_000;

/** Mounts the start page; returns its unmount function. */
export function mount(root, { ctx }) {
  const { t } = ctx;
  const list = h('ul', { class: 'rooms', 'aria-busy': 'true' });
  const nameForm = guestForm(ctx);
  const play = h('div', { class: 'play-slot' });
  const mine = h('div', { class: 'my-games-slot' });
  const live = h('div', { class: 'featured-slot' });
  const daily = h('div', { class: 'daily-slot' });
  replace(root,
    h('section', { class: 'hero' },
      h('h1', {}, t('lobby.title')),
      h('p', { class: 'lead' }, t('lobby.lead')),
      nameForm,
    ),
    mine,
    play,
    daily,
    live,
    h('h2', {}, t('lobby.rooms')),
    list,
  );

  async function load() {
    try {
      const rooms = await api.rooms();
      list.removeAttribute('aria-busy');
      replace(list, rooms.map((room) => roomCard(t, room)));
      // Built once: the periodic refresh must not reset the visitor's choices. The
      // variant offered first is the person's last, else their language's.
      if (!play.firstChild) {
        const want = preferredVariant(ctx.lang, rooms.map((r) => r.variant));
        const selected = rooms.find((r) => r.variant === want)?.id ?? rooms[0]?.id;
        replace(play, playCard(ctx, { rooms, selected }));
      }
      const games = await api.myGames().then((r) => r.games).catch(() => null);
      if (games) {
        replace(mine, myGamesCard(t, games, rooms));
        mine.dataset.loaded = 'true';
      }
    } catch (err) {
      replace(list, h('li', { class: 'error', role: 'alert' }, t(`error.${err.code}`)));
    }
  }
  // The featured games follow their moves more often than the rooms their tables, and
  // only while the page is in sight.
  let liveBusy = false;
  async function loadLive() {
    if (liveBusy || document.visibilityState === 'hidden') return;
    liveBusy = true;
    try {
      const [games, variants] = await Promise.all([api.featured(), api.variants()]);
      const first = preferredVariant(ctx.lang, variants.map((v) => v.id));
      replace(live, featuredCard(t, games, variants, first));
      live.dataset.loaded = 'true';
    } catch {
      // Kept as it was: the next round tries again.
    } finally {
      liveBusy = false;
    }
  }
  // The day's puzzle of the person's variant, once.
  (async () => {
    try {
      const [variants, counts] = await Promise.all([api.variants(), api.puzzleCounts()]);
      const v = preferredVariant(ctx.lang, variants.map((x) => x.id));
      if (!counts.some((c) => c.variant === v && c.count > 0)) return;
      const p = await api.dailyPuzzle(v);
      const variant = variants.find((x) => x.id === p.variant);
      replace(daily, dailyCard(t, p, variant));
    } catch {
      // No puzzle for the variant (or offline): nothing shown.
    }
  })();
  load();
  loadLive();
  const timer = setInterval(load, REFRESH_MS);
  const liveTimer = setInterval(loadLive, FEATURED_REFRESH_MS);
  return () => {
    clearInterval(timer);
    clearInterval(liveTimer);
  };
}

/** The day's puzzle: its position, one click to solve it, and more puzzles. */
function dailyCard(t, p, variant) {
  const turn = p.fen.trim().toUpperCase().startsWith('B') ? 'black' : 'white';
  return h('section', { class: 'daily card', 'data-daily-puzzle': p.id },
    h('a', { class: 'daily-board', href: href('puzzle', p.id), 'aria-label': t('puzzle.daily') }, miniBoard(variant, p.fen)),
    h('div', { class: 'daily-text' },
      h('h2', {}, t('puzzle.daily')),
      h('p', {}, t.pick(variant.names, variant.id), ' · ', t(`puzzle.find.${turn}`)),
      h('p', { class: 'actions' },
        h('a', { class: 'btn primary', href: href('puzzle', p.id), 'data-action': 'daily-puzzle' }, t('puzzle.solve')),
        h('a', { class: 'btn', href: href('puzzles', p.variant), 'data-action': 'more-puzzles' }, t('puzzle.more')))));
}

function roomCard(t, room) {
  return h('li', { class: 'room card', 'data-room': room.id },
    h('a', { class: 'room-link', href: href('room', room.id) },
      h('span', { class: 'room-name' }, t.pick(room.names, room.name ?? room.id)),
      h('span', { class: 'room-rules' }, t.pick(room.rules, '')),
    ),
    h('span', { class: 'room-stats' },
      h('span', { 'data-tables': String(room.tables) }, t('tables', { n: room.tables })),
      ' · ',
      h('span', { 'data-players': String(room.players) }, t('players', { n: room.players })),
    ),
    h('a', { class: 'rules-link', href: href('rules', room.variant) }, t('nav.rules')),
  );
}

/** The guest name form: shows the name and renames through `POST /api/guest`. */
export function guestForm(ctx) {
  const { t } = ctx;
  // An account's name is its username: nothing to rename, its profile instead.
  if (ctx.me?.account) {
    const name = ctx.me.account.username ?? ctx.me.name;
    return h('p', { class: 'guest-form', 'data-signed-in': name },
      t('account.signed_in_as'), ' ', h('a', { class: 'name-cut', href: href('player', name), title: name, 'data-full-name': name }, name));
  }
  const input = h('input', {
    id: 'guest-name', name: 'name', value: ctx.me?.name ?? '', minlength: '2', maxlength: '24',
    autocomplete: 'nickname', required: true, 'data-guest-name': '',
  });
  const msg = h('span', { class: 'form-msg', role: 'status' });
  const form = h('form', { class: 'guest-form', 'data-form': 'guest' },
    h('label', { for: 'guest-name' }, t('guest.name')),
    input,
    h('button', { class: 'btn', type: 'submit', 'data-action': 'rename' }, t('guest.save')),
    msg,
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    try {
      const me = await api.renameGuest(input.value.trim());
      ctx.setMe(me);
      msg.textContent = t('guest.saved');
      msg.className = 'form-msg ok';
    } catch (err) {
      msg.textContent = t(`error.${err.code}`);
      msg.className = 'form-msg error';
    }
  });
  return form;
}
