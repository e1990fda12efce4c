// The parts of the table page that redraw apart: the board, each panel around it, the
// chat and the invitation panel. The controller (tablecontrol.js) names the parts a
// message changed; the page (table.js) and the panels' views (tableview.js) redraw those
// and leave the rest of the page's DOM alone.

/** Every part, in drawing order. */
export const PARTS = Object.freeze([
  'board', // the board: pieces, the last move, the move being entered
  'bars', // the two player bars: names, ratings, presence, clocks, material
  'ballot', // the opening ballot line
  'match', // the micro-match line
  'status', // the status line
  'banner', // the game-over banner on the board
  'prompt', // an offer to answer, the claim countdown
  'actions', // the player's buttons and the last error
  'tools', // sound, flip, one-screen turning
  'info', // the table card: variant, time control, spectators, link
  'counters', // the live draw-rule counters
  'moves', // the move list
  'conditional', // the prepared replies
  'chat', // the table chat (players' and spectators')
  'invites', // the invitation panel
  'title', // the tab's title
]);

/** Every part: a full redraw. */
export const ALL_PARTS = new Set(PARTS);

/** The parts named, as a set (every part for none). */
export function partsOf(names) {
  return names ? new Set(names) : ALL_PARTS;
}
