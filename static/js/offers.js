// When a player may offer a draw or ask for a takeback. The server allows one of each per
// player per N plies (`--draw-offer-plies`, whatever it is set to) and says when each
// player may offer again: `state.offer_limits` and the `next` of `draw_offered` /
// `takeback_offered` (docs/protocol.md). The client only compares that with the plies
// played, and disables the button with the reason meanwhile. Pure, unit-tested.

/** The number of plies played in the game so far (opening plies included). */
export function pliesPlayed(state) {
  const last = state?.moves?.[state.moves.length - 1];
  return last ? last.ply : (state?.opening_plies ?? 0);
}

/** The server's limit: one offer (and one takeback request) per this many plies. */
export function offerEvery(state) {
  return state?.offer_limits?.plies ?? 0;
}

/**
 * How many plies remain before `color` may offer again (0: may offer now).
 * @param {object} state the table state with `offer_limits`
 * @param {'white'|'black'} color
 * @param {'draw'|'takeback'} [kind]
 */
export function pliesUntilOffer(state, color, kind = 'draw') {
  const next = state?.offer_limits?.[kind]?.[color] ?? 0;
  return Math.max(0, next - pliesPlayed(state));
}

/**
 * How many plies a takeback asked by `color` would undo now (its last move, and the
 * reply if made), or 0 when the game is too young for one: the first move of each side
 * is never taken back (abort instead). The request limit is `pliesUntilOffer(…,
 * 'takeback')`.
 * @param {object} state the table state (`turn`, `moves`, `opening_plies`)
 * @param {'white'|'black'} color
 */
export function takebackPlies(state, color) {
  const plies = state?.turn === color ? 2 : 1;
  const played = pliesPlayed(state) - (state?.opening_plies ?? 0);
  return played < 2 + plies ? 0 : plies;
}
