// "Play now": against a person (a free seat at a compatible open table, or a new table
// others can join), against the computer (three levels) or two people on one screen, one
// click from the page to a game. Used on the home page (with a variant choice) and in
// every room (that room's variant).

import * as api from './api.js';
import { h } from './dom.js';
import { rememberVariant } from './homevariant.js';
import { ratingText } from './ratings.js';
import { href } from './router.js';

/** Clock presets offered for a game against the computer or on one screen. */
export const PRESETS = ['3+2', '5+3', '10+5', '15+10'];
const DEFAULT_PRESET = '5+3';
const PRESET_KEY = 'damka.preset';

/** The computer's levels, weakest first. */
export const LEVELS = [1, 2, 3];

function storedPreset() {
  try {
    const p = localStorage.getItem(PRESET_KEY);
    return PRESETS.includes(p) ? p : DEFAULT_PRESET;
  } catch {
    return DEFAULT_PRESET;
  }
}

function rememberPreset(p) {
  try {
    localStorage.setItem(PRESET_KEY, p);
  } catch {
    // Private mode: the choice is not remembered.
  }
}

/**
 * Creates a table against the computer (`level` 1–3) or for one screen (`level` null)
 * in `roomId`, and opens it with the game starting at once. Against the computer the
 * visitor takes the side that moves first (Black in American draughts, as the rules page
 * says), so the game begins with their move.
 */
export async function playNow(ctx, roomId, { level = null, preset = storedPreset() } = {}) {
  const room = await api.room(roomId);
  rememberVariant(room.variant);
  const variant = await api.variant(room.variant);
  const [minutes, increment] = preset.split('+').map(Number);
  const table = await api.createTable(roomId, {
    minutes,
    increment,
    seat: variant.first,
    ...(level ? { bot: level } : { local: true }),
  });
  ctx.setIntent(table.id, null, { start: true });
  ctx.go('table', table.id);
  return table;
}

/**
 * The open table "play a person" takes at `minutes`+`increment` among a room's tables:
 * someone else waits there alone (no game being played, one seat taken by a person),
 * with the same clock and the plain rules (no random opening, no optional capture), not
 * against the computer, not one screen, and casual (a rated table is chosen on purpose,
 * never by "play a person", which would seat a guest where it is refused and an account
 * at a game it never asked to be rated). Null when there is none.
 * @param {object[]} tables table views
 * @param {{minutes: number, increment: number}} clock
 * @param {string|null} meId
 * @param {Iterable<string>} [skip] tables not to take (lost to someone quicker)
 */
export function openTableFor(tables, { minutes, increment }, meId, skip = []) {
  const skipped = new Set(skip);
  return (tables ?? []).find((tb) => {
    const o = tb.options ?? {};
    const seated = [tb.seats?.white, tb.seats?.black].filter(Boolean);
    return !skipped.has(tb.id)
      && tb.game?.status !== 'playing'
      && seated.length === 1 && !seated[0].bot && seated[0].id !== meId
      && o.minutes === minutes && o.increment === increment
      && !o.random_opening && !o.capture_optional && !o.bot && !o.local && !o.tournament && !o.rated;
  }) ?? null;
}

/**
 * Plays a person in `roomId` at the clock `preset`: sits at a compatible open table
 * (`openTableFor`) or creates one, opens it, and presses Start there. The table page
 * looks again if the seat was taken meanwhile (`quick` in the intent).
 */
export async function playPerson(ctx, roomId, { preset = storedPreset(), skip = [] } = {}) {
  const room = await api.room(roomId);
  rememberVariant(room.variant);
  const [minutes, increment] = preset.split('+').map(Number);
  const quick = { room: roomId, preset, skip };
  const open = openTableFor(room.tables, { minutes, increment }, ctx.me?.id ?? null, skip);
  if (open) {
    ctx.setIntent(open.id, open.seats.white ? 'black' : 'white', { start: true, quick });
    ctx.go('table', open.id);
    return open;
  }
  const table = await api.createTable(roomId, { minutes, increment, random_opening: false, capture_optional: false, seat: 'random' });
  ctx.setIntent(table.id, null, { start: true });
  ctx.go('table', table.id);
  return table;
}

/**
 * The "play now" card. `rooms` lists the rooms to choose from (the home page); with a
 * single room the choice is not shown.
 * @param {object} ctx page context (`t`, `go`, `setIntent`)
 * @param {{rooms: object[], selected?: string}} opts
 */
export function playCard(ctx, { rooms, selected }) {
  const { t } = ctx;
  const msg = h('p', { class: 'form-msg', role: 'alert' });
  const roomSelect = rooms.length > 1
    ? h('select', {
      id: 'play-room', name: 'room', 'data-play-room': '',
      onchange: () => rememberVariant(rooms.find((r) => r.id === roomSelect.value)?.variant),
    },
      rooms.map((r) => h('option', { value: r.id, selected: r.id === selected }, t.pick(r.names, r.name ?? r.id))))
    : null;
  const preset = h('select', { id: 'play-preset', name: 'preset', 'data-play-preset': '', onchange: () => rememberPreset(preset.value) },
    PRESETS.map((p) => h('option', { value: p, selected: p === storedPreset() }, p)));
  const roomId = () => roomSelect?.value ?? rooms[0]?.id;
  let busy = false;
  async function go(level) {
    if (busy) return;
    busy = true;
    msg.textContent = '';
    try {
      if (level === 'person') await playPerson(ctx, roomId(), { preset: preset.value });
      else await playNow(ctx, roomId(), { level, preset: preset.value });
    } catch (err) {
      msg.textContent = t(`error.${err.code}`, { message: err.message ?? '' });
    } finally {
      busy = false;
    }
  }
  return h('section', { class: 'play-now card', 'data-play-now': '' },
    h('h2', {}, t('play.title')),
    h('div', { class: 'play-opts' },
      roomSelect ? h('label', { class: 'field' }, h('span', {}, t('play.variant')), roomSelect) : null,
      h('label', { class: 'field' }, h('span', {}, t('play.clock')), preset),
    ),
    h('button', { class: 'btn primary play-person', type: 'button', 'data-action': 'play-person', title: t('play.person_hint'), onclick: () => go('person') },
      h('span', { class: 'level-name' }, t('play.person')), h('span', { class: 'level-hint' }, t('play.person_hint'))),
    h('p', { class: 'play-label' }, t('play.computer')),
    h('div', { class: 'play-levels' },
      LEVELS.map((n) => h('button', {
        class: 'btn level', type: 'button', 'data-action': 'play-bot', 'data-level': String(n), onclick: () => go(n),
      }, h('span', { class: 'level-name' }, t(`bot.level.${n}`)), h('span', { class: 'level-hint' }, t(`bot.hint.${n}`)))),
    ),
    h('button', { class: 'btn', type: 'button', 'data-action': 'play-local', onclick: () => go(null) }, t('play.local')),
    msg,
  );
}

/**
 * A name as one line that never widens the page: cut with an ellipsis by the CSS, the
 * whole name in its title (hover) and in `data-full-name` (app.js shows it on a tap or
 * a long press when it is cut).
 * @param {Function} t
 * @param {object} p a player
 * @param {Record<string, unknown>} [attrs] more attributes (`class` is added to `name`)
 */
export function nameTag(t, p, attrs = {}) {
  const { link = false, ...rest } = attrs;
  const text = playerName(t, p);
  // An account's name links to its profile where asked (never inside another link).
  const tag = link && p?.account && !p.bot ? 'a' : 'span';
  const name = h(tag, {
    ...rest, class: `name-cut ${rest.class ?? ''}`.trim(), title: text, 'data-full-name': text,
    href: tag === 'a' ? href('player', p.name) : null, 'data-profile-link': tag === 'a' ? p.name : null,
  }, text);
  const rating = ratingText(p);
  if (!rating) return name;
  // The rating never shrinks: the name gives way (ellipsis) before it does.
  return h('span', { class: 'name-rated' }, name,
    h('span', { class: 'rating', 'data-rating': rating, title: p.provisional ? t('rating.provisional') : t('rating.title') }, rating));
}

/**
 * A seated player's display name: the computer's is translated, with its level (and,
 * for a tournament's computer entrants `bot-N-k`, its number k).
 */
export function playerName(t, p) {
  if (!p) return '';
  if (!p.bot) return p.name;
  const k = /^bot-\d+-(\d+)$/.exec(p.id ?? '')?.[1];
  return k ? `${t('bot.name', { n: p.bot })} #${k}` : t('bot.name', { n: p.bot });
}
