// Move entry on the table page, without the DOM: what a click on a square does to the
// page (a step of a move, a premove, back to the live position), and the looking back
// through the game's past positions. table.js sends what these return; the rules stay
// with the server (the client only follows the legal moves it was sent).

import { parseFen } from './fen.js';
import { clickSquare, movableFrom, parseMove } from './moves.js';
import { canMove, isLocal, myColor } from './tablestate.js';

/**
 * A click on square `sq`: changes `page` and says what follows.
 * @returns {null | {move: string | null}} `null` when the click does nothing; else the
 *   page is to be redrawn, and `move` (a whole legal move) sent when there is one
 */
export function squareClicked(page, sq, t) {
  const s = page.state;
  // Looking at a past position: a click on the board is back to the game.
  if (page.view != null) {
    page.view = null;
    return { move: null };
  }
  if (s && !page.pending && page.online && !canMove(s) && premoveAllowed(s)) {
    premoveClick(page, s, sq);
    return { move: null };
  }
  if (!s || page.pending || !page.online || !canMove(s)) return null;
  const { path, send: move } = clickSquare(s.legal, page.path, sq);
  page.hint = null;
  if (!move && !path.length) {
    // A piece of the player's that cannot move while a capture is compulsory: say why.
    const piece = parseFen(s.fen).pieces.get(sq);
    const allCaptures = s.legal.length > 0 && s.legal.every((m) => parseMove(m).capture);
    if (piece && piece.color === s.turn && allCaptures && !movableFrom(s.legal).has(sq)) page.hint = t('status.capture_compulsory');
  }
  page.path = path;
  return { move: move ?? null };
}

/**
 * Premoves: during the opponent's turn at a two-person (or computer) table the player
 * may pick one of their pieces and a square; the client does not judge it (it knows no
 * rules): when the turn comes, the one legal move from that piece to that square is
 * played at once, otherwise the premove is dropped with a note (tablecontrol.js).
 */
export function premoveAllowed(s) {
  const me = myColor(s);
  return s.status === 'playing' && !!me && !isLocal(s) && s.turn !== me;
}

/** A click during the opponent's turn: picks the piece, then the square; again cancels. */
export function premoveClick(page, s, sq) {
  const me = myColor(s);
  const piece = parseFen(s.fen).pieces.get(sq);
  page.hint = null;
  if (page.premove) {
    // A click on the queued move cancels it; anything else starts again.
    page.premove = null;
  }
  if (page.premoveFrom && page.premoveFrom !== sq) {
    page.premove = [page.premoveFrom, sq];
    page.premoveFrom = null;
  } else if (page.premoveFrom === sq || !piece || piece.color !== me) {
    page.premoveFrom = null;
  } else {
    page.premoveFrom = sq;
  }
}

/**
 * Looks at the position after `at` plies of the live game (`null`, or the last ply: the
 * live position). Returns whether positions must be fetched to show it.
 */
export function viewAt(page, at) {
  const s = page.state;
  if (!s) return false;
  page.view = at == null || at >= s.moves.length ? null : Math.max(0, at);
  page.premoveFrom = null;
  return page.view != null && fensMissing(page, s);
}

/** The ply a history button goes to (`null`: the live position). */
export function historyTarget(page, action, extra = {}) {
  const plies = page.state?.moves.length ?? 0;
  const at = page.view ?? plies;
  if (action === 'history-back') return at - 1;
  if (action === 'history-forward') return at + 1;
  if (action === 'history-to') return extra.at;
  return null;
}

/** Whether a move this page did not see played (from `state`) lacks its position. */
export function fensMissing(page, s) {
  return s.moves.some((m) => !m.opening && !page.fens.has(m.ply)) || (!!s.opening_plies && !page.fens.has(s.opening_plies));
}

/** The position shown while looking back: `null` when it is not known yet. */
export function viewedFen(page, s) {
  if (page.view === 0) return s.initial_fen ?? null;
  const m = s.moves[page.view - 1];
  return m ? page.fens.get(m.ply) ?? m.fen ?? null : null;
}
