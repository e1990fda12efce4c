// "Play now" for a visitor alone: against the computer (three levels) or two people on one
// screen, one click from the page to a running game. Used on the home page (with a
// variant choice) and in every room (that room's variant).

import * as api from './api.js';
import { h } from './dom.js';

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
 * The "play now" card. `rooms` lists the rooms to choose from (the home page); with a
 * single room the choice is not shown.
 * @param {object} ctx page context (`t`, `go`, `setIntent`)
 * @param {{rooms: object[], selected?: string}} opts
 */
export function playCard(ctx, { rooms, selected }) {
  const { t } = ctx;
  const msg = h('p', { class: 'form-msg', role: 'alert' });
  const roomSelect = rooms.length > 1
    ? h('select', { id: 'play-room', name: 'room', 'data-play-room': '' },
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
      await playNow(ctx, roomId(), { level, preset: preset.value });
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
    h('p', { class: 'play-label' }, t('play.computer')),
    h('div', { class: 'play-levels' },
      LEVELS.map((n) => h('button', {
        class: `btn level${n === 1 ? ' primary' : ''}`, type: 'button', 'data-action': 'play-bot', 'data-level': String(n), onclick: () => go(n),
      }, h('span', { class: 'level-name' }, t(`bot.level.${n}`)), h('span', { class: 'level-hint' }, t(`bot.hint.${n}`)))),
    ),
    h('button', { class: 'btn', type: 'button', 'data-action': 'play-local', onclick: () => go(null) }, t('play.local')),
    msg,
  );
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
