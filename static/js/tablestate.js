// The table as this client knows it, rebuilt from the server's `state` and kept current
// by the versioned events of docs/protocol.md. Pure: the table page feeds it messages and
// draws what comes out, so the ordering rules (versions, resync, pending moves) are
// unit-tested without a browser.

/**
 * Applies one server message to the state.
 *
 * A `state` message replaces everything. A versioned event is applied only when it is the
 * next version; an old version (a duplicate after a resync) is ignored; a gap means we
 * missed something, so the caller must ask for `resync` and wait for a fresh `state`.
 *
 * @param {object|null} state the current state (null before the first `state`)
 * @param {object} msg a parsed server message
 * @returns {{state: object|null, resync: boolean, applied: boolean}}
 */
export function applyMessage(state, msg) {
  if (msg.t === 'state') return { state: fromState(msg), resync: false, applied: true };
  if (typeof msg.v !== 'number') return { state, resync: false, applied: false };
  if (!state) return { state, resync: true, applied: false };
  if (msg.v <= state.v) return { state, resync: false, applied: false };
  if (msg.v !== state.v + 1) return { state, resync: true, applied: false };
  const next = applyEvent(structuredClone(state), msg);
  next.v = msg.v;
  return { state: next, resync: false, applied: true };
}

function fromState(msg) {
  return {
    v: msg.v,
    table: msg.table ?? null,
    you: msg.you ?? null,
    seats: { white: msg.seats?.white ?? null, black: msg.seats?.black ?? null },
    ready: { white: !!msg.ready?.white, black: !!msg.ready?.black },
    options: msg.options ?? msg.table?.options ?? {},
    presence: { watchers: [], ...(msg.presence ?? { white: false, black: false, spectators: 0 }) },
    status: msg.status ?? 'waiting',
    game_id: msg.game_id ?? null,
    white: msg.white ?? null,
    black: msg.black ?? null,
    initial_fen: msg.initial_fen ?? msg.fen,
    opening_plies: msg.opening_plies ?? 0,
    // The opening ballot the game started from (issue 38), or null.
    ballot: msg.ballot ?? null,
    // At a micro-match table, the current or last match (issue 38), or null.
    match: msg.match ?? null,
    fen: msg.fen,
    moves: (msg.moves ?? []).map((m) => ({ ...m, captures: m.captures ?? [], opening: m.ply <= (msg.opening_plies ?? 0) })),
    turn: msg.turn ?? null,
    legal: msg.legal ?? [],
    clock: msg.clock ?? null,
    first_move_deadline: msg.first_move_deadline ?? null,
    draw_offer: msg.draw_offer ?? null,
    counters: msg.counters ?? [],
    result: msg.result ?? null,
    reason: msg.reason ?? null,
    // Issue 9 additions: who offers a takeback now (colour or null); when each player
    // may next offer a draw or ask for a takeback; who ended the last game.
    takeback_offer: msg.takeback_offer ?? null,
    offer_limits: offerLimits(msg.offer_limits),
    ended_by: msg.ended_by ?? null,
  };
}

/** The server's offer limits, or none known (every offer allowed as far as we know). */
function offerLimits(o) {
  const sides = (x) => ({ white: x?.white ?? 0, black: x?.black ?? 0 });
  return { plies: o?.plies ?? 0, draw: sides(o?.draw), takeback: sides(o?.takeback) };
}

function applyEvent(s, msg) {
  switch (msg.t) {
    case 'seated':
      s.seats[msg.seat] = msg.player;
      s.ready[msg.seat] = false;
      break;
    case 'stood':
      s.seats[msg.seat] = null;
      s.ready[msg.seat] = false;
      break;
    case 'ready':
      s.ready[msg.seat] = true;
      break;
    case 'game_started': {
      const opening = msg.opening ?? [];
      s.status = 'playing';
      s.game_id = msg.id;
      s.white = msg.white ?? null;
      s.black = msg.black ?? null;
      if (msg.seats) s.seats = { white: msg.seats.white ?? null, black: msg.seats.black ?? null };
      // The computer is always ready, for the next game too.
      s.ready = { white: !!s.seats.white?.bot, black: !!s.seats.black?.bot };
      s.initial_fen = msg.initial_fen ?? msg.fen;
      s.opening_plies = opening.length;
      s.ballot = msg.ballot ?? null;
      s.match = msg.match ?? null;
      s.fen = msg.fen;
      // The opening plies are real plies of the game (ply 1..n); the fen after each one is
      // not sent, so only the last position is known until a replay fetches the record.
      s.moves = opening.map((move, i) => ({ ply: i + 1, move, captures: [], opening: true }));
      s.turn = msg.turn;
      s.legal = msg.legal ?? [];
      s.clock = msg.clock ?? null;
      s.counters = msg.counters ?? [];
      s.draw_offer = null;
      s.takeback_offer = null;
      s.result = null;
      s.reason = null;
      s.ended_by = null;
      s.ratings = null;
      s.unrated = msg.unrated ?? null;
      s.first_move_deadline = null;
      // A new game: nobody has offered anything yet.
      s.offer_limits = offerLimits({ plies: s.offer_limits?.plies });
      break;
    }
    case 'move':
      s.moves.push({ ply: msg.ply, move: msg.move, by: msg.by, captures: msg.captures ?? [], clock: msg.clock });
      s.fen = msg.fen;
      s.turn = msg.turn;
      s.legal = msg.legal ?? [];
      s.clock = msg.clock ?? s.clock;
      s.counters = msg.counters ?? [];
      // A move declines a standing draw offer (product.md §6).
      s.draw_offer = null;
      s.takeback_offer = null;
      s.first_move_deadline = null;
      break;
    case 'draw_offered':
      s.draw_offer = msg.by;
      if (typeof msg.next === 'number' && s.offer_limits) s.offer_limits.draw[msg.by] = msg.next;
      break;
    case 'draw_declined':
      s.draw_offer = null;
      break;
    case 'takeback_offered':
      s.takeback_offer = msg.by ?? null;
      if (typeof msg.next === 'number' && s.offer_limits) s.offer_limits.takeback[msg.by] = msg.next;
      break;
    case 'takeback_declined':
      s.takeback_offer = null;
      break;
    case 'game_over':
      s.status = 'over';
      s.result = msg.result ?? null;
      s.reason = msg.reason ?? null;
      s.clock = msg.clock ?? s.clock;
      s.legal = [];
      s.draw_offer = null;
      s.takeback_offer = null;
      s.first_move_deadline = null;
      s.ended_by = msg.by ?? null;
      // A micro-match's game counts in its score; the match goes to its break or ends.
      if (msg.match) s.match = msg.match;
      // A rated game's rating changes (issue 23); the seats show the new ratings at once
      // (issue 39), as a fresh state would.
      s.ratings = msg.ratings ?? null;
      for (const side of ['white', 'black']) {
        const r = s.ratings?.[side];
        if (typeof r?.after !== 'number') continue;
        const rerated = (p) => {
          const { provisional, ...rest } = p;
          const still = typeof r.provisional === 'boolean' ? r.provisional : !!provisional;
          return { ...rest, rating: r.after, ...(still ? { provisional: true } : {}) };
        };
        // The game's player of that colour, and the seat if the same player holds it.
        const player = s[side] ?? s.seats?.[side];
        if (s[side]) s[side] = rerated(s[side]);
        if (s.seats?.[side] && (!player || s.seats[side].id === player.id)) s.seats[side] = rerated(s.seats[side]);
      }
      break;
    case 'presence':
      s.presence = { white: !!msg.white, black: !!msg.black, spectators: msg.spectators ?? 0, watchers: msg.watchers ?? [] };
      break;
    case 'table_closed':
      s.status = 'closed';
      s.legal = [];
      break;
    default:
      // An event this client does not know yet: the version still advances, the rest of
      // the state stays as it was (the protocol may add messages).
      break;
  }
  return s;
}

/**
 * The seat this client sits in, found by identity: seats swap between games, so the
 * seat in `you` can be stale after a `game_started`.
 * @returns {'white'|'black'|null}
 */
export function mySeat(state) {
  const id = state?.you?.id;
  if (!id) return null;
  if (state.seats.white?.id === id) return 'white';
  if (state.seats.black?.id === id) return 'black';
  return null;
}

/** True at a one-screen table whose both seats are this client's. */
export function isLocal(state) {
  const id = state?.you?.id;
  return !!(id && state.options?.local && state.seats.white?.id === id && state.seats.black?.id === id);
}

/**
 * The colour this client plays in the current (or last) game, else its seat. At a
 * one-screen table it moves for the side to move, and after the game it is neither side.
 * @returns {'white'|'black'|null}
 */
export function myColor(state) {
  const id = state?.you?.id;
  if (!id) return null;
  if (isLocal(state)) return state.status === 'playing' ? state.turn : null;
  if (state.status !== 'waiting') {
    if (state.white?.id === id) return 'white';
    if (state.black?.id === id) return 'black';
  }
  return mySeat(state);
}

/** The ply number the next move of the game will have. */
export function nextPly(state) {
  const last = state.moves[state.moves.length - 1];
  return last ? last.ply + 1 : (state.opening_plies ?? 0) + 1;
}

/** True when this client may enter a move now. */
export function canMove(state) {
  return state?.status === 'playing' && state.turn != null && myColor(state) === state.turn && state.legal.length > 0;
}

/**
 * What to do with a move still waiting for its `ack` once a fresh `state` arrived
 * (after a reconnect): `done` when that ply holds our move, `resend` (same `ply`, same
 * `ack` id) when the game still waits for it, `drop` when it can no longer apply.
 * @param {object} state
 * @param {{move: string, ply: number}} pending
 * @returns {'done'|'resend'|'drop'}
 */
export function pendingAfterState(state, pending) {
  const played = state.moves.find((m) => m.ply === pending.ply);
  if (played) return sameMove(played.move, pending.move) ? 'done' : 'drop';
  if (canMove(state) && nextPly(state) === pending.ply) return 'resend';
  return 'drop';
}

/** Compares two moves ignoring the separator spelling (`x` vs `:`) and case. */
export function sameMove(a, b) {
  const norm = (m) => String(m).toLowerCase().replace(/:/g, 'x');
  return norm(a) === norm(b);
}

/**
 * The opponent's rematch request: after a game, the colour of the opponent who pressed
 * Start again (a `ready` event) while this player has not; null otherwise.
 * @returns {'white'|'black'|null}
 */
/** Whether the table is between the two games of a micro-match (nobody leaves a seat). */
export function inMatchBreak(state) {
  return state?.status === 'over' && state.match?.status === 'break';
}

export function rematchRequest(state) {
  if (state?.status !== 'over') return null;
  const seat = mySeat(state);
  if (!seat || isLocal(state) || state.ready[seat]) return null;
  const other = seat === 'white' ? 'black' : 'white';
  const p = state.seats[other];
  return p && !p.bot && state.ready[other] ? other : null;
}
