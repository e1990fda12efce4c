// The table page's controller: what each message of the table socket does to the page.
// The page holds the table state (tablestate.js) and its own (the move waiting for its
// ack, a premove, the chat, clock snapshots, the first-move window, a declined offer, the
// prepared replies). `receive` changes that page object and returns the effects the page
// then carries out, in order; it touches no DOM, sends nothing and reads no clock (the
// time comes in `env.now`), so each message type's handling is unit-tested in Node
// (e2e/unit/tablecontrol.test.mjs).
//
// Effects, `{do: …}`:
// - `draw` `{parts}`: redraw the parts of the page the message changed (tableparts.js;
//   every part when `parts` is absent); `drawChat`: redraw only the chat;
// - `send` `{msg, quiet}`: send a message (`quiet`: no "offline" note if it cannot go);
// - `resync`: ask for a fresh `state` (reconnect if the socket is down);
// - `move` `{move}`: send a move of the player's (a premove come due);
// - `sound` `{name}`; `fillConditional`: show `page.conditional` in the prepared-replies
//   input, unless the player is typing there;
// - `chatError` `{code, message}`: a chat line was refused;
// - `quickAgain` `{quick}`: "play now" lost its seat, look for another;
// - `follow`: follow the tournament the table plays for; `loadRatings`: read a finished
//   rated game's rating changes; `loadVariant`: fetch the board geometry (once).

import { snapshot } from './clock.js';
import { addChat } from './chat.js';
import { parseMove } from './moves.js';
import { pliesPlayed } from './offers.js';
import { TABLE } from './protocol.js';
import { soundFor } from './sound.js';
import { applyMessage, canMove, myColor, mySeat, pendingAfterState } from './tablestate.js';

// The parts of the page each event changes (tableparts.js); any other event (a move, a
// state, a game started or over, a seat taken or left, a takeback) redraws every part.
const OFFER_PARTS = ['status', 'prompt', 'actions', 'banner'];
export const EVENT_PARTS = Object.freeze({
  // Who is connected: the bars' presence, the spectators, and the claim window (prompt,
  // status and buttons).
  presence: ['bars', 'info', ...OFFER_PARTS],
  draw_offered: OFFER_PARTS,
  draw_declined: OFFER_PARTS,
  takeback_offered: OFFER_PARTS,
  takeback_declined: OFFER_PARTS,
  // A chat line is drawn by `drawChat` alone.
  chat: [],
});

/** The `draw` effect for `parts` (every part when none are named). */
const drawOf = (parts) => (parts ? { do: 'draw', parts } : { do: 'draw' });

// Messages after which the position (and so any half-entered move) is new.
const POSITION_CHANGES = new Set(['state', 'move', 'game_started', 'game_over']);

/** The message a pending move is sent (and resent) as. */
export const moveMessage = (p) => ({ t: TABLE.MOVE, move: p.move, ply: p.ply, ack: p.ack });

/**
 * What the socket's message `msg` does to `page`.
 * @param {object} page the page's state (changed in place)
 * @param {object} msg a parsed server message
 * @param {{now: number, t: Function}} env the time (performance.now()) and the translator
 * @returns {object[]} the effects, in order
 */
export function receive(page, msg, env) {
  const fx = [];
  const own = OWN[msg.t];
  if (own) {
    own(page, msg, env, fx);
    return fx;
  }
  if (Object.hasOwn(msg, 'claim_at')) page.claim = typeof msg.claim_at === 'number' ? { ms: msg.claim_at, at: env.now } : null;
  if (msg.t === 'state') page.chat = addChat([], msg.chat ?? []);
  if (msg.t === 'chat') {
    page.chat = addChat(page.chat, [msg]);
    fx.push({ do: 'drawChat' });
    // Chat may or may not be a versioned event; a versioned one still advances `v`.
    if (typeof msg.v !== 'number') return fx;
  }
  const { state, resync, applied } = applyMessage(page.state, msg);
  if (resync) {
    // One request per gap: later events are ignored until the fresh `state` arrives.
    if (!page.resyncing) {
      page.resyncing = true;
      fx.push({ do: 'resync' });
    }
    return fx;
  }
  if (!applied) return fx;
  const before = page.state;
  page.state = state;
  if (msg.t !== 'state') {
    const name = soundFor(msg, myColor(before) ?? myColor(state));
    if (name && !page.muted) fx.push({ do: 'sound', name });
  }
  if (msg.clock || msg.t === 'state') page.clock = state.clock ? snapshot(state.clock, env.now) : null;
  if (POSITION_CHANGES.has(msg.t)) {
    // A half-entered move belongs to the old position.
    page.path = [];
    // The first-move window: in `state`, and (an addition to the protocol) in the
    // events that open a new window.
    const ms = msg.t === 'game_over' ? null : msg.first_move_deadline;
    page.deadline = typeof ms === 'number' ? { ms, at: env.now } : null;
  }
  AFTER[msg.t]?.(page, msg, before, env, fx);
  noteOffers(page, before, msg);
  fx.push({ do: 'follow' });
  startIfSeated(page, fx);
  settlePending(page);
  playPremove(page, env, fx);
  // The geometry is fetched once; events arriving meanwhile are applied and drawn
  // without a board, which appears when the fetch is done.
  if (!page.variantLoad) fx.push({ do: 'loadVariant' });
  const parts = EVENT_PARTS[msg.t];
  if (!parts || parts.length) fx.push(drawOf(parts));
  return fx;
}

/** Messages that are not the table's state or events: the page's own. */
const OWN = {
  ack(page, msg, _env, fx) {
    if (page.pending && page.pending.ack === msg.ack) {
      page.pending.acked = true;
      settlePending(page);
      // The move's highlight and the "sending" line go; it is the opponent's move.
      fx.push(drawOf(['board', 'status', 'title']));
    }
  },

  /** The player's own prepared replies (private): set, advanced, or cancelled. */
  conditional(page, msg, _env, fx) {
    page.conditional = msg.lines ?? [];
    page.condSent = false;
    page.condError = null;
    fx.push({ do: 'fillConditional' }, drawOf(['conditional']));
  },

  error(page, msg, env, fx) {
    if (page.condSent && msg.ack == null && msg.code === 'bad_message') {
      // The lines were refused: the server's message names the move.
      page.condSent = false;
      page.condError = msg.message ?? '';
      fx.push(drawOf(['conditional']));
      return;
    }
    if (msg.code === 'seat_taken' && page.sitting?.quick) {
      quickAgain(page, page.sitting.quick, fx);
      return;
    }
    if (msg.ack != null && page.chatAcks.has(msg.ack)) {
      page.chatAcks.delete(msg.ack);
      fx.push({ do: 'chatError', code: msg.code, message: msg.message ?? '' });
      return;
    }
    if (page.pending && msg.ack != null && msg.ack === page.pending.ack) {
      // Rejected: the board never showed it as played, so there is nothing to revert;
      // ask for the authoritative state in case ours is behind.
      page.pending = null;
      page.path = [];
      fx.push({ do: 'send', msg: { t: TABLE.RESYNC }, quiet: true });
    }
    // The table is gone while its page shows it (a restart that did not bring it back,
    // the game being over): the close that follows says so, without a bare "Not found".
    if (msg.code === 'not_found' && page.state && msg.ack == null) return;
    page.error = env.t(`error.${msg.code}`, { message: msg.message ?? '' });
    // The error sits with the buttons; a refused move leaves the board and the status.
    fx.push(drawOf(['board', 'status', 'actions', 'title']));
  },
};

/** What an applied state or event does besides the table state, by message type. */
const AFTER = {
  state(page, msg, before, env, fx) {
    page.resyncing = false;
    page.conditional = msg.you?.conditional ?? [];
    fx.push({ do: 'fillConditional' });
    firstMoveWindow(page, msg);
    if (page.state.game_id !== before?.game_id) newGame(page, msg);
    matchBreak(page, env);
    // The move this page waits for: resent, done, or gone with the old position.
    if (page.pending) {
      const what = pendingAfterState(page.state, page.pending);
      if (what === 'resend') fx.push({ do: 'send', msg: moveMessage(page.pending), quiet: true });
      else if (what === 'done') page.pending.acked = true;
      else page.pending = null;
    }
    followIntent(page, fx);
    fx.push({ do: 'loadRatings' });
  },

  game_started(page, msg, _before, env) {
    firstMoveWindow(page, msg);
    newGame(page, msg);
    matchBreak(page, env);
  },

  game_over(page, _msg, _before, env) {
    matchBreak(page, env);
    page.premove = null;
    page.premoveFrom = null;
  },

  move(page, msg) {
    if (msg.fen) page.fens.set(msg.ply, msg.fen);
  },
};

/** The first-move window in seconds, as the server gave it (to say why a game was aborted). */
function firstMoveWindow(page, msg) {
  if (typeof msg.first_move_deadline === 'number') {
    page.windowS = Math.max(page.windowS ?? 0, Math.round(msg.first_move_deadline / 1000)) || null;
  }
}

/** A new game at the table: what belonged to the last one goes. */
function newGame(page, msg) {
  page.windowS = typeof msg.first_move_deadline === 'number' ? Math.round(msg.first_move_deadline / 1000) : null;
  page.fens = new Map();
  page.fensLoading = null;
  page.view = null;
  page.premove = null;
  page.premoveFrom = null;
}

/** A micro-match's break: its countdown runs from when the server said it. */
function matchBreak(page, env) {
  const left = page.state.match?.status === 'break' ? page.state.match.next_game_in : null;
  page.matchBreak = typeof left === 'number' ? { ms: left, at: env.now } : null;
}

/**
 * When each player may offer again comes from the server (`offer_limits`); the client
 * only notes that its own offer was declined, to say so.
 */
function noteOffers(page, before, msg) {
  const s = page.state;
  const me = myColor(s);
  if (!me) return;
  if (msg.t === 'draw_declined' && before?.draw_offer === me && msg.by !== me) page.declined = { game: s.game_id, ply: pliesPlayed(s) };
  if (msg.t === 'game_started') page.declined = null;
}

/** A seat chosen before the page opened ("play now", an invitation): taken now. */
function followIntent(page, fx) {
  const intent = page.intent;
  page.intent = null;
  if (!intent) return;
  // Start is pressed once seated (at once if already, else after our `seated`).
  page.startWhenSeated = !!intent.start;
  if (intent.seat && !myColor(page.state)) {
    // "Play now" found this seat free; if someone was quicker, it looks again.
    if (intent.quick && (page.state.seats[intent.seat] || page.state.status === 'playing')) {
      quickAgain(page, intent.quick, fx);
      return;
    }
    page.sitting = intent;
    fx.push({ do: 'send', msg: { t: TABLE.SIT, seat: intent.seat } });
  }
}

/** Presses Start for a "play now" or an accepted invitation, once seated. */
function startIfSeated(page, fx) {
  const s = page.state;
  const seat = mySeat(s);
  if (!page.startWhenSeated || !seat) return;
  page.startWhenSeated = false;
  page.sitting = null;
  if (s.status !== 'playing' && !s.ready[seat]) fx.push({ do: 'send', msg: { t: TABLE.START } });
}

/** "Play now" lost its seat to someone quicker: another table, or a new one. */
function quickAgain(page, quick, fx) {
  page.startWhenSeated = false;
  page.sitting = null;
  fx.push({ do: 'quickAgain', quick });
}

/** A move acknowledged and seen in the state is no longer pending. */
export function settlePending(page) {
  const p = page.pending;
  if (p && p.acked && page.state?.moves.some((m) => m.ply === p.ply)) page.pending = null;
}

/** The queued premove, if it is now the player's turn and it names one legal move. */
function playPremove(page, env, fx) {
  const s = page.state;
  if (!page.premove || !s || !canMove(s) || page.pending || !page.online) return;
  const [from, to] = page.premove;
  page.premove = null;
  page.premoveFrom = null;
  const matches = s.legal.filter((m) => {
    const sq = parseMove(m).squares;
    return sq[0] === from && sq[sq.length - 1] === to;
  });
  if (matches.length === 1) {
    page.path = [];
    fx.push({ do: 'move', move: matches[0] });
  } else {
    page.hint = env.t('premove.dropped', { move: `${from}-${to}` });
  }
}
