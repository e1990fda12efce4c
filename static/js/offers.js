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
