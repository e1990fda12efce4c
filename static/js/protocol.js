// The table socket's client messages (docs/protocol.md, "Table socket"): their types, and
// the table page's actions that send one. One place for the wire's names: a button's
// `data-action` is the page's word, never turned into a message type by rewriting it.

/** The message types a client sends on a table socket. */
export const TABLE = Object.freeze({
  SIT: 'sit',
  STAND: 'stand',
  START: 'start',
  MOVE: 'move',
  DRAW_OFFER: 'draw_offer',
  DRAW_ACCEPT: 'draw_accept',
  DRAW_DECLINE: 'draw_decline',
  RESIGN: 'resign',
  ABORT: 'abort',
  RESYNC: 'resync',
  CHAT: 'chat',
  CLAIM_VICTORY: 'claim_victory',
  CLAIM_DRAW: 'claim_draw',
  TAKEBACK_OFFER: 'takeback_offer',
  TAKEBACK_ACCEPT: 'takeback_accept',
  TAKEBACK_DECLINE: 'takeback_decline',
  CONDITIONAL: 'conditional',
  PING: 'ping',
});

/** The message a table page's action sends, by the action's name (`data-action`); an
 * action not listed here stays on the page (flip, sound, history, …). */
export const ACTION_MESSAGES = Object.freeze({
  sit: TABLE.SIT,
  stand: TABLE.STAND,
  start: TABLE.START,
  // The rematch is the same Start as before, answered in one click.
  rematch: TABLE.START,
  'draw-offer': TABLE.DRAW_OFFER,
  'draw-accept': TABLE.DRAW_ACCEPT,
  'draw-decline': TABLE.DRAW_DECLINE,
  resign: TABLE.RESIGN,
  abort: TABLE.ABORT,
  'claim-victory': TABLE.CLAIM_VICTORY,
  'claim-draw': TABLE.CLAIM_DRAW,
  'takeback-offer': TABLE.TAKEBACK_OFFER,
  'takeback-accept': TABLE.TAKEBACK_ACCEPT,
  'takeback-decline': TABLE.TAKEBACK_DECLINE,
});

/** The message for a page action with its fields, or `null` for an action the server
 * does not take. */
export function actionMessage(action, extra = {}) {
  const t = Object.hasOwn(ACTION_MESSAGES, action) ? ACTION_MESSAGES[action] : null;
  return t ? { t, ...extra } : null;
}
