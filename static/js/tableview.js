// The panels around the board on the table page: player bars with clocks, the status
// line, the action buttons, the game-over banner, the move list and the live draw-rule
// counters. Pure rendering from the table state; the controller (table.js) owns state.

import { DAY, formatClock, isLow, remaining, timeControl } from './clock.js';
import { h, replace } from './dom.js';
import { material, parseFen } from './fen.js';
import { href } from './router.js';
import { nameTag, playerName } from './playnow.js';
import { changeText, seatRefusal } from './ratings.js';
import { offerEvery, pliesUntilOffer, takebackPlies } from './offers.js';
import { claimLeft } from './chat.js';
import { canMove, inMatchBreak, isLocal, myColor, mySeat, rematchRequest } from './tablestate.js';
import { ballotFlag, ballotLine } from './ballot.js';
import { breakLeft, breakText, matchLine } from './micromatch.js';
import { ALL_PARTS } from './tableparts.js';

const OTHER = { white: 'black', black: 'white' };

/**
 * Redraws the panels among `parts` (tableparts.js; all of them by default) and leaves
 * the others as they are.
 */
export function renderPanels(panels, { t, page, state: s, pieces, act, redraw }, parts = ALL_PARTS) {
  const bottom = bottomSide(page, s);
  panels.t = t;
  if (parts.has('bars')) {
    const count = material(pieces);
    panels.clocks = {};
    replace(panels.top, playerBar(OTHER[bottom], { t, page, s, count, act, panels }));
    replace(panels.bottom, playerBar(bottom, { t, page, s, count, act, panels }));
  }
  if (parts.has('ballot')) {
    // The ballot the game started from, beside the board (below it on a phone).
    replace(panels.ballot, ballotLine(t, s.ballot));
    panels.ballot.hidden = !s.ballot;
  }
  if (parts.has('match')) {
    // A micro-match: which game, the score, the break's countdown, the result.
    replace(panels.match, matchLine(t, s.match, breakLeft(page, performance.now())));
    panels.match.hidden = !s.match;
  }
  if (parts.has('status')) {
    panels.status.textContent = statusText(t, page, s);
    panels.status.classList.toggle('offline', !page.online);
  }
  // The actions leave out the start button while the banner shows one.
  if (parts.has('banner')) panels.bannerShown = renderBanner(panels.banner, t, page, s, act, redraw);
  if (parts.has('prompt')) {
    const prompt = promptFor(t, page, s, act);
    panels.prompt.hidden = !prompt;
    panels.prompt.dataset.prompt = prompt?.kind ?? '';
    replace(panels.prompt, prompt?.content ?? []);
  }
  if (parts.has('actions')) replace(panels.actions, actionButtons(t, page, s, act, !!panels.bannerShown));
  if (parts.has('tools')) replace(panels.tools, tools(t, page, act, s));
  if (parts.has('info')) replace(panels.info, info(t, page, s, act));
  if (parts.has('counters')) {
    replace(panels.counters, counters(t, s));
    panels.counters.hidden = s.status !== 'playing' || !s.counters.length;
  }
  if (parts.has('moves')) {
    replace(panels.moves, moveList(t, page, s, act));
    const list = panels.moves.querySelector('[data-moves]');
    if (list) list.scrollTop = list.scrollHeight;
  }
}

/**
 * The side shown at the bottom, as the board is drawn: the player's own (White for a
 * spectator), White at a one-screen table, or there the side to move when the players
 * turn the board after each move; the flip button turns it round.
 */
export function bottomSide(page, s) {
  let side;
  if (isLocal(s)) side = page.autoflip && s.status === 'playing' && s.turn ? s.turn : 'white';
  else side = myColor(s) ?? 'white';
  return page.flipped ? OTHER[side] : side;
}

/**
 * Updates the clock faces from the last server clock and the time passed since.
 * @returns {Set<string>} the sides whose clock shows the low-time warning
 */
export function tickClocks(panels, page, now) {
  const s = page.state;
  const low = new Set();
  const days = (d, h) => panels.t('clock.days', { d, h });
  for (const side of ['white', 'black']) {
    const el = panels.clocks?.[side];
    if (!el) continue;
    const initial = s.options?.days ? s.options.days * DAY : (s.options?.minutes ?? 0) * 60_000;
    const ms = page.clock ? remaining(page.clock, side, now) : initial;
    el.textContent = formatClock(ms, days);
    const running = page.clock?.running === side && s.status === 'playing';
    el.classList.toggle('running', running);
    const isLowNow = running && isLow(ms, s.options?.minutes, s.options?.days);
    el.classList.toggle('low', isLowNow);
    if (isLowNow) low.add(side);
  }
  // The break's countdown, beside the board and on the banner.
  const left = breakLeft(page, now);
  if (left !== null) {
    for (const box of [panels.match, panels.banner]) {
      for (const el of box?.querySelectorAll('[data-match-left]') ?? []) el.textContent = breakText(panels.t, left);
    }
  }
  const dl = panels.deadline;
  const show = !!page.deadline && s.status === 'playing';
  dl.hidden = !show;
  if (show) {
    const left = Math.max(0, page.deadline.ms - (now - page.deadline.at));
    // A correspondence game's first move has days, worded like its clock.
    dl.textContent = s.options?.days
      ? panels.t('first_move_time', { time: formatClock(left, days) })
      : panels.t('first_move', { s: Math.ceil(left / 1000) });
  }
  return low;
}

function playerOf(s, side) {
  return s.status === 'waiting' ? s.seats[side] : (s[side] ?? s.seats[side]);
}

function playerBar(side, { t, page, s, count, act, panels }) {
  const player = playerOf(s, side);
  const me = s.you?.id && player?.id === s.you.id;
  const online = !!s.presence?.[side];
  // A long name is cut with an ellipsis, never widening the page; the whole name is in
  // its title (hover) and shows when tapped or long-pressed (app.js).
  const name = player
    ? h('span', { class: 'name-line' },
      player.bot ? h('span', { class: 'bot-mark', 'aria-hidden': 'true' }, '⚙ ') : null,
      nameTag(t, player, { class: 'name', 'data-bot': player.bot ? String(player.bot) : null }),
      me ? h('span', { class: 'you' }, ` (${t('you')})`) : null)
    : h('span', { class: 'name free' }, t('seat.free'));
  const thinking = player?.bot && s.status === 'playing' && s.turn === side;
  const clock = h('span', { class: 'clock', 'data-clock': side, role: 'timer', 'aria-label': t(`clock.${side}`) });
  panels.clocks[side] = clock;
  const canSit = !player && !mySeat(s) && s.status !== 'playing' && page.online;
  return h('div', { class: `bar ${side}`, 'data-player': side },
    h('span', { class: `swatch ${side}`, 'aria-hidden': 'true' }),
    h('div', { class: 'who' },
      name,
      h('span', { class: 'meta' },
        // A closed table (gone after a restart, say) has nobody at it any more.
        player && !page.closed ? h('span', { class: `presence ${online ? 'on' : 'off'}`, 'data-presence': online ? 'on' : 'off' }, online ? t('presence.on') : t('presence.away')) : null,
        s.status === 'waiting' && s.ready[side] ? h('span', { class: 'badge ready' }, t('ready')) : null,
        s.status !== 'waiting' ? h('span', { class: 'count', 'data-count': side, title: t('pieces') }, t(`count.${side}`, { n: count[side] })) : null,
        thinking ? h('span', { class: 'thinking', 'data-thinking': side }, t('bot.thinking')) : null,
      ),
    ),
    canSit && seatRefusal(page.me, s.options, s.table?.variant) === 'guest'
      // A guest at a rated table: why there is no Sit button.
      ? h('span', { class: 'rated-note', 'data-rated-seat': side }, t(s.options?.days ? 'corr.sit_guest' : 'rated.sit_guest'))
      : canSit && seatRefusal(page.me, s.options, s.table?.variant) === 'range'
        // An account outside the free seat's range: why there is no Sit button.
        ? h('span', { class: 'rated-note', 'data-rated-seat': side, 'data-out-of-range': '' }, t('rated.range_seat', { min: s.options.rating_range.min, max: s.options.rating_range.max }))
      : canSit ? h('button', { class: 'btn small', 'data-action': 'sit', 'data-seat': side, onclick: () => act('sit', { seat: side }) }, t(`sit.${side}`)) : null,
    clock,
  );
}

function statusText(t, page, s) {
  if (page.closed || s.status === 'closed') return t('status.closed');
  if (!page.online) return t('offline');
  if (page.pending) return t('status.sending', { move: page.pending.move });
  if (page.hint && s.status === 'playing') return page.hint;
  if (page.view != null && s.status === 'playing') {
    return page.view === 0 ? t('history.start') : t('history.viewing', { n: page.view, total: s.moves.length });
  }
  if (s.status === 'over') return resultText(t, s);
  if (s.status === 'playing') {
    if (canMove(s)) {
      if (page.path.length > 1) return t('status.continue');
      return isLocal(s) ? t(`status.to_move.${s.turn}`) : t('status.your_move');
    }
    if (page.premove) return t('premove.set', { move: page.premove.join('-') });
    if (playerOf(s, s.turn)?.bot) return t('status.bot_thinking');
    // An opponent's draw offer is shown in the prompt beside the board.
    return t(`status.to_move.${s.turn}`);
  }
  const seat = mySeat(s);
  if (!seat) return s.seats.white && s.seats.black ? t('status.waiting_start') : t('status.waiting_players');
  if (!s.seats[OTHER[seat]]) return t('status.waiting_opponent');
  return s.ready[seat] ? t('status.waiting_ready') : t('status.press_start');
}

/**
 * "White won (resignation)" and the like; who aborted or resigned when the server says
 * (`ended_by` of the state, `by` of `game_over`): "White aborted the game", "Black won
 * (White resigned)".
 */
export function resultText(t, s, { windowS = null } = {}) {
  const by = s.ended_by ?? null;
  if (!s.result && s.reason === 'aborted') {
    if (by) return t(`aborted_by.${by}`);
    // Nobody aborted it: the first-move window ran out (the side to move never moved).
    const late = lateSide(s);
    if (late) return t(`aborted.no_first_move.${late}`) + (windowS ? t('aborted.window', { s: windowS }) : '');
    return t('result.none');
  }
  const head = s.result ? t(`result.${s.result}`) : t('result.none');
  if (s.reason === 'resign' && by) return `${head} (${t(`resigned_by.${by}`)})`;
  if (s.reason === 'no_moves') return `${head} (${t(`reason.${noMovesWhy(s)}`)})`;
  return s.reason ? `${head} (${t(`reason.${s.reason}`)})` : head;
}

/** The final position of a table state or a stored game, if known. */
function finalFen(s) {
  return s.fen ?? s.moves?.[s.moves.length - 1]?.fen ?? (s.moves?.length ? null : s.initial_fen) ?? null;
}

/**
 * The side that did not make its first move in time in an aborted game (the server's
 * first-move window), from who was to move when it ended; null when not known.
 */
function lateSide(s) {
  const played = (s.moves ?? []).filter((m, i) => !(m.opening || i < (s.opening_plies ?? 0))).length;
  if (played >= 2) return null;
  if (s.turn === 'white' || s.turn === 'black') return s.turn;
  const fen = finalFen(s);
  try {
    return fen ? parseFen(fen).turn : null;
  } catch {
    return null;
  }
}

/** `no_moves`: the loser had no pieces left (`no_pieces`) or none could move (`blocked`). */
function noMovesWhy(s) {
  const fen = finalFen(s);
  const loser = s.result === 'white' ? 'black' : s.result === 'black' ? 'white' : null;
  if (!fen || !loser) return 'no_moves';
  try {
    return material(parseFen(fen).pieces)[loser] === 0 ? 'no_pieces' : 'blocked';
  } catch {
    return 'no_moves';
  }
}

/** The start button's label: Start, Play again, or Start game 2 in a micro-match's break. */
function startLabel(t, s) {
  if (inMatchBreak(s)) return t('action.next_game');
  return s.status === 'over' ? t('action.again') : t('action.start');
}

function button(action, label, act, opts = {}) {
  return h('button', { class: `btn ${opts.kind ?? ''}`, 'data-action': action, onclick: () => act(action) }, label);
}

function actionButtons(t, page, s, act, bannerShown) {
  const out = [];
  const seat = mySeat(s);
  const color = myColor(s);
  const live = page.online && !page.closed;
  if (page.closed) {
    // The table is gone (closed, or not restored after a restart: only unfinished games
    // come back): its last game is stored, and the room is where the next one starts.
    if (s.game_id && s.moves.length) out.push(h('a', { class: 'btn', href: href('game', s.game_id), 'data-action': 'replay' }, t('action.replay')));
    if (s.table?.room) out.push(h('a', { class: 'btn primary', href: href('room', s.table.room), 'data-action': 'room' }, t('nav.back_room')));
    return out;
  }
  // A tournament table plays only its game: no restart, no standing up, no abort.
  const tournament = !!s.table?.tournament;
  if (live && s.status !== 'playing' && seat && !tournament) {
    // While the game-over banner shows, its own button starts the next game.
    if (!s.ready[seat] && !bannerShown) out.push(button('start', startLabel(t, s), act, { kind: 'primary' }));
    // Between the two games of a micro-match the seats stay taken.
    if (!inMatchBreak(s)) out.push(button('stand', t('action.stand'), act));
  }
  if (live && s.status === 'playing' && color) {
    // The computer takes no draw offers (the server's draw rules still apply).
    const vsBot = !!playerOf(s, OTHER[color])?.bot;
    // Before both players have moved the server takes no draw offer (and makes a
    // resignation an abort, never rated, but in a tournament): the offer button waits.
    const played = s.moves.filter((m) => !m.opening).length;
    if (vsBot) {
      // No offer button.
    } else if (s.draw_offer && s.draw_offer !== color) {
      // Answered in the prompt beside the board.
    } else if (isLocal(s)) {
      // On one screen an offer is a draw at once: it asks for a second click first.
      const armed = performance.now() < page.drawArmedUntil;
      out.push(button('draw-offer', armed ? t('action.draw_confirm') : t('action.draw_offer'), act, { kind: armed ? 'armed-draw' : '' }));
    } else if (!s.draw_offer && played < 2) {
      out.push(waiting(button('draw-offer', t('action.draw_offer'), act), t, 'draw.wait_first_moves', s, 2 - played));
    } else if (!s.draw_offer) {
      // The server allows one offer per N plies and says when: the button waits, and
      // says why.
      out.push(waiting(button('draw-offer', t('action.draw_offer'), act), t, 'draw.wait', s, pliesUntilOffer(s, color, 'draw')));
    } else {
      out.push(h('span', { class: 'note' }, t('status.draw_sent')));
    }
    // A takeback: casual tables only (never against the computer, never in a tournament),
    // not for the first moves (the server's rules, offers.js).
    const casual = !vsBot && !isLocal(s) && !s.table?.tournament && !s.options?.tournament;
    if (casual) {
      if (s.takeback_offer === color) out.push(h('span', { class: 'note', 'data-takeback-sent': '' }, t('status.takeback_sent')));
      else if (!s.takeback_offer && takebackPlies(s, color) > 0) {
        out.push(waiting(button('takeback-offer', t('action.takeback_offer'), act), t, 'takeback.wait', s, pliesUntilOffer(s, color, 'takeback')));
      }
    }
    const armed = performance.now() < page.resignArmedUntil;
    out.push(button('resign', armed ? t('action.resign_confirm') : t('action.resign'), act, { kind: armed ? 'danger armed' : 'danger' }));
    if (played < 2 && !tournament) out.push(button('abort', t('action.abort'), act));
  }
  if (live && s.status === 'playing' && page.premove) out.push(button('premove-cancel', t('action.premove_cancel'), act));
  if (page.error) out.push(h('p', { class: 'error', 'data-error': '', role: 'alert' }, page.error));
  return out;
}

/** Disables an offer button while the server's limit forbids a new offer, saying why. */
function waiting(btn, t, key, s, left) {
  if (left > 0) {
    btn.disabled = true;
    btn.title = t(key, { n: left, every: offerEvery(s) });
    btn.setAttribute('aria-label', `${btn.textContent}: ${btn.title}`);
    btn.dataset.wait = String(left);
    // The reason in short on the button itself (a title is never seen on a phone).
    btn.append(h('span', { class: 'wait', 'aria-hidden': 'true' }, ` · ${t('wait.plies', { n: left })}`));
  }
  return btn;
}

/**
 * The prominent prompt beside the board: the opponent's draw offer (Accept/Decline), or
 * the news that the player's own offer was declined.
 * @returns {{kind: string, content: Node[]}|null}
 */
function promptFor(t, page, s, act) {
  const color = myColor(s);
  if (!color || !page.online) return null;
  const rematch = rematchRequest(s);
  if (rematch) {
    return {
      kind: 'rematch',
      content: [
        h('p', { class: 'prompt-text' }, t(inMatchBreak(s) ? 'prompt.match_next' : 'prompt.rematch', { name: playerName(t, s.seats[rematch]) })),
        h('div', { class: 'prompt-actions' }, button('rematch', inMatchBreak(s) ? t('action.next_game') : t('action.rematch'), act, { kind: 'primary' })),
      ],
    };
  }
  if (s.status !== 'playing') return null;
  // The opponent has been away: a countdown, then the claim buttons (reason `abandoned`).
  const left = claimLeft(page.claim, performance.now());
  if (left != null && !isLocal(s)) {
    return {
      kind: 'claim',
      content: left > 0
        ? [h('p', { class: 'prompt-text', 'data-claim-left': String(left) }, t('claim.in', { s: left }))]
        : [
          h('p', { class: 'prompt-text', 'data-claim-left': '0' }, t('claim.now')),
          h('div', { class: 'prompt-actions' },
            button('claim-victory', t('action.claim_victory'), act, { kind: 'primary' }),
            button('claim-draw', t('action.claim_draw'), act)),
        ],
    };
  }
  if (s.takeback_offer && s.takeback_offer !== color) {
    const who = playerOf(s, s.takeback_offer);
    return {
      kind: 'takeback',
      content: [
        h('p', { class: 'prompt-text' }, t('prompt.takeback', { name: who ? playerName(t, who) : t(`seat.${s.takeback_offer}`) })),
        h('div', { class: 'prompt-actions' },
          button('takeback-accept', t('action.takeback_accept'), act, { kind: 'primary' }),
          button('takeback-decline', t('action.takeback_decline'), act)),
      ],
    };
  }
  if (s.draw_offer && s.draw_offer !== color) {
    const who = playerOf(s, s.draw_offer);
    return {
      kind: 'draw',
      content: [
        h('p', { class: 'prompt-text' }, t('prompt.draw', { name: who ? playerName(t, who) : t(`seat.${s.draw_offer}`) })),
        h('div', { class: 'prompt-actions' },
          button('draw-accept', t('action.accept'), act, { kind: 'primary' }),
          button('draw-decline', t('action.decline'), act)),
      ],
    };
  }
  const d = page.declined;
  // Shown until a move after the one that declined it.
  if (d && d.game === s.game_id && (s.moves[s.moves.length - 1]?.ply ?? 0) <= d.ply + 1) {
    return { kind: 'declined', content: [h('p', { class: 'prompt-text' }, t('prompt.draw_declined'))] };
  }
  return null;
}

/** Small switches: step through the moves, turn the board, sound on/off. */
function tools(t, page, act, s) {
  const plies = s.moves.length;
  const at = page.view ?? plies;
  const local = isLocal(s);
  return [
    plies ? h('span', { class: 'history', role: 'group', 'aria-label': t('moves') },
      h('button', { class: 'btn small', 'data-action': 'history-back', title: t('action.history_back'), 'aria-label': t('action.history_back'), disabled: at === 0, onclick: () => act('history-back') }, '‹'),
      h('button', { class: 'btn small', 'data-action': 'history-forward', title: t('action.history_forward'), 'aria-label': t('action.history_forward'), disabled: page.view == null, onclick: () => act('history-forward') }, '›'),
      page.view != null ? h('button', { class: 'btn small primary', 'data-action': 'history-live', onclick: () => act('history-live') }, t('action.history_live')) : null,
    ) : null,
    local ? h('button', { class: 'btn small', 'data-action': 'autoflip', 'aria-pressed': page.autoflip ? 'true' : 'false', title: t('action.autoflip'), 'aria-label': t('action.autoflip'), onclick: () => act('autoflip') }, '⟲', h('span', { class: 'tool-label' }, ` ${t('autoflip.label')}`)) : null,
    h('button', { class: 'btn small', 'data-action': 'flip', 'aria-pressed': page.flipped ? 'true' : 'false', title: t('action.flip'), 'aria-label': t('action.flip'), onclick: () => act('flip') }, '⇅', h('span', { class: 'tool-label' }, ` ${t('action.flip')}`)),
    h('button', {
      class: 'btn small', 'data-action': 'sound', 'aria-pressed': page.muted ? 'false' : 'true', 'data-muted': page.muted ? 'true' : 'false',
      title: page.muted ? t('action.sound_on') : t('action.sound_off'), 'aria-label': page.muted ? t('action.sound_on') : t('action.sound_off'), onclick: () => act('sound'),
    }, page.muted ? '♪̸' : '♪', h('span', { class: 'tool-label' }, ` ${page.muted ? t('sound.off') : t('sound.on')}`)),
  ];
}

/** Draws the game-over banner; returns whether it is shown. */
function renderBanner(el, t, page, s, act, redraw) {
  const show = s.status === 'over' && !!s.game_id && page.bannerHidden !== s.game_id;
  el.hidden = !show;
  if (!show) return false;
  const seat = mySeat(s);
  const color = myColor(s);
  let title = resultText(t, s, { windowS: page.windowS });
  if (!s.result && s.reason === 'aborted' && color && s.ended_by === color) title = t('banner.you_aborted');
  else if (!s.result && s.reason === 'aborted') title = t('result.none');
  else if (color && s.result && s.result !== 'draw') title = s.result === color ? t('banner.won') : t('banner.lost');
  else if (color && s.result === 'draw') title = t('banner.draw');
  replace(el,
    h('p', { class: 'banner-title' }, title),
    h('p', { class: 'banner-reason' }, bannerReason(t, s, title, page)),
    ratingChanges(t, s),
    matchLine(t, s.match, breakLeft(page, performance.now())),
    nextRound(t, page),
    h('div', { class: 'banner-actions' },
      s.table?.tournament
        ? h('a', { class: 'btn primary', href: href('tournament', s.table.tournament.id), 'data-action': 'tournament' }, t('tournament.back'))
        : seat && !s.ready[seat] && page.online ? button('start', startLabel(t, s), act, { kind: 'primary' }) : null,
      seat && s.ready[seat] && !page.closed ? h('span', { class: 'note' }, t('status.waiting_ready')) : null,
      // An aborted game without a move has nothing to replay.
      s.moves.length ? h('a', { class: 'btn', href: href('game', s.game_id), 'data-action': 'replay' }, t('action.replay')) : null,
      h('button', { class: 'btn ghost', 'aria-label': t('action.close'), onclick: () => { page.bannerHidden = s.game_id; redraw(); } }, '×'),
    ),
  );
  return true;
}

/** A rated game's rating changes, one line per side: "White Ala: 1500 → 1662 (+162)". */
function ratingChanges(t, s) {
  const r = s.ratings;
  if (!r || s.status !== 'over') return null;
  return h('ul', { class: 'rating-changes', 'data-rating-changes': '' },
    ['white', 'black'].map((side) => {
      const d = r[side];
      if (!d) return null;
      const diff = d.after - d.before;
      return h('li', { 'data-rating-change': side },
        h('span', { class: `swatch ${side}`, 'aria-hidden': 'true' }),
        h('span', { class: 'name-cut', title: playerName(t, playerOf(s, side)), 'data-full-name': playerName(t, playerOf(s, side)) }, playerName(t, playerOf(s, side)) || t(`seat.${side}`)),
        h('span', { class: `change ${diff > 0 ? 'up' : diff < 0 ? 'down' : 'same'}` }, changeText(d)));
    }));
}

/**
 * At a finished tournament table: the player's next pairing with the time left before
 * it starts (the server's break between rounds), or the tournament's end.
 */
function nextRound(t, page) {
  const n = page.next;
  if (!n) return null;
  if (n.over) return h('p', { class: 'next-round', 'data-next-round': 'over' }, n.over);
  const left = Math.max(0, Math.ceil((n.ms - (performance.now() - n.at)) / 1000));
  const what = n.bye
    ? t('next.bye', { n: n.number })
    : t('next.round', { n: n.number, color: t(`next.round.${n.color}`), name: n.opponent });
  return h('p', { class: 'next-round', 'data-next-round': String(n.number), 'data-starts-in': String(left) },
    h('strong', {}, what), ' · ', left > 0 ? t('next.starts_in', { s: left }) : t('next.starting'));
}

/** The line under the banner's title: what the title does not say already. */
function bannerReason(t, s, title, page) {
  const full = resultText(t, s, { windowS: page.windowS });
  if (title === full) return '';
  if (s.result === 'draw' && s.reason) {
    const reason = t(`reason.${s.reason}`);
    return reason.charAt(0).toUpperCase() + reason.slice(1);
  }
  return full;
}

function info(t, page, s, act) {
  const o = s.options ?? {};
  const variant = page.variant;
  const flags = [
    o.random_opening ? t('option.random_opening') : null,
    ballotFlag(t, o.ballot),
    o.micro_match ? t('option.micro_match') : null,
    o.capture_optional ? t('option.capture_optional') : null,
    o.rated && !s.unrated ? t('option.rated') : null,
    o.rated && s.unrated ? t(`option.unrated.${s.unrated}`) : null,
    o.rated && o.rating_range ? t('option.range', { min: o.rating_range.min, max: o.rating_range.max }) : null,
  ].filter(Boolean);
  return [
    h('h2', {}, variant ? t.pick(variant.names, variant.id) : t('table')),
    h('p', { class: 'options', 'data-time-control': o.days ? `${o.days}d` : `${o.minutes}+${o.increment}` }, timeControl(t, o), flags.length ? ` · ${flags.join(' · ')}` : ''),
    page.closed ? null : h('p', { class: 'meta' },
      h('span', { 'data-spectators': String(s.presence?.spectators ?? 0) }, t('spectators', { n: s.presence?.spectators ?? 0 })),
    ),
    // Who watches (those with a session; the count has everyone), each name cut alone.
    !page.closed && s.presence?.watchers?.length
      ? h('p', { class: 'meta watchers', 'data-watchers': String(s.presence.watchers.length) },
        `${t('spectators.watching')} `,
        s.presence.watchers.map((p, i) => [i ? ', ' : '', nameTag(t, p, { link: true, 'data-watcher': p.id })]))
      : null,
    h('p', { class: 'links' },
      h('button', { class: 'btn small', 'data-action': 'copy-link', onclick: () => act('copy-link') }, page.copied ? t('copied') : t('action.copy_link')),
      s.table?.room ? h('a', { href: href('room', s.table.room) }, `← ${t('nav.back_room')}`) : null,
      s.table?.tournament ? [' ', h('a', { href: href('tournament', s.table.tournament.id), 'data-link': 'tournament' }, t('tournament.round_of', { n: s.table.tournament.round }))] : null,
      ' ',
      variant ? h('a', { href: href('rules', variant.id) }, t('nav.rules_of')) : null,
    ),
  ];
}

const COUNTER_KEYS = new Set(['forty_moves', 'kings_only', 'fmjd64_7_2_4', 'fmjd64_7_2_6', 'fmjd64_7_2_7', 'fmjd64_7_2_8', 'intl_16', 'intl_5']);

function counters(t, s) {
  if (!s.counters.length) return [];
  return [
    h('h3', {}, t('counters')),
    h('ul', { class: 'counter-list' },
      s.counters.map((c) =>
        h('li', { 'data-counter': c.rule },
          h('span', {}, COUNTER_KEYS.has(c.rule) ? t(`counter.${c.rule}`) : c.rule),
          h('span', { class: 'value' }, `${c.moves}/${c.limit}`),
          h('progress', { max: String(c.limit), value: String(Math.min(c.moves, c.limit)) }),
        ),
      ),
    ),
  ];
}

function moveList(t, page, s, act) {
  const first = page.variant?.first ?? 'white';
  const rows = [];
  for (let i = 0; i < s.moves.length; i += 2) {
    const a = s.moves[i];
    const b = s.moves[i + 1];
    rows.push(h('li', {},
      h('span', { class: 'no' }, `${i / 2 + 1}.`),
      cell(a, i === s.moves.length - 1),
      b ? cell(b, i + 1 === s.moves.length - 1) : h('span', { class: 'mv' }),
    ));
  }
  if (page.pending) rows.push(h('li', { class: 'pending' }, h('span', { class: 'no' }, '…'), h('span', { class: 'mv' }, page.pending.move)));
  return [
    h('h3', {}, t('moves'), h('span', { class: 'first' }, ` (${t(`first.${first}`)})`)),
    h('ol', { class: 'move-list', 'data-moves': '', 'aria-label': t('moves') }, rows),
  ];

  // A move of a live game shows its position on the board (back to the game from the
  // tools); the game goes on meanwhile.
  function cell(m, last) {
    const i = s.moves.indexOf(m) + 1;
    const viewed = page.view === i;
    return h('button', {
      type: 'button',
      class: `mv${m.opening ? ' opening' : ''}${last ? ' last' : ''}${viewed ? ' viewed' : ''}`,
      'data-ply': String(m.ply),
      'aria-current': viewed ? 'step' : null,
      title: m.opening ? t('opening') : null,
      onclick: () => act('history-to', { at: i }),
    }, m.move);
  }
}
