// When a player may offer a draw. The server allows one offer per player per
// `draw_offer_plies` plies (10 by default, docs/protocol.md) and answers `rate_limited`
// otherwise; the client keeps the ply of its own last offer and disables the button
// until the limit allows a new one. Pure, unit-tested.

/** The server's default: one draw offer per player per this many plies. */
export const DRAW_OFFER_PLIES = 10;

/** The number of plies played in the game so far (opening plies included). */
export function pliesPlayed(state) {
  const last = state?.moves?.[state.moves.length - 1];
  return last ? last.ply : (state?.opening_plies ?? 0);
}

/**
 * How many plies remain before this player may offer again (0: may offer now).
 * @param {object} state the table state
 * @param {number|null} lastOfferPly plies played when this player last offered in this game
 * @param {number} [every]
 */
export function pliesUntilOffer(state, lastOfferPly, every = DRAW_OFFER_PLIES) {
  if (lastOfferPly == null) return 0;
  return Math.max(0, lastOfferPly + every - pliesPlayed(state));
}

/**
 * How many plies a takeback asked by `color` would undo now (its last move, and the
 * reply if made), or 0 when the server would refuse: the first move of each side is
 * never taken back (abort instead), and one request per player per N plies.
 * @param {object} state the table state (`turn`, `moves`, `opening_plies`)
 * @param {'white'|'black'} color
 * @param {number|null} lastAskPly plies played when this player last asked, in this game
 */
export function takebackPlies(state, color, lastAskPly = null, every = DRAW_OFFER_PLIES) {
  const plies = state?.turn === color ? 2 : 1;
  const played = pliesPlayed(state) - (state?.opening_plies ?? 0);
  if (played < 2 + plies) return 0;
  if (lastAskPly != null && pliesPlayed(state) < lastAskPly + every) return 0;
  return plies;
}
