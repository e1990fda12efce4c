// The table page's controller (static/js/tablecontrol.js): what each socket message does
// to the page, and the effects the page then carries out, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EVENT_PARTS, moveMessage, receive } from '../../static/js/tablecontrol.js';
import { ALL_PARTS, PARTS, partsOf } from '../../static/js/tableparts.js';

const alice = { id: 'a', name: 'Alice' };
const bob = { id: 'b', name: 'Bob' };
const t = (key, args) => (args ? `${key} ${JSON.stringify(args)}` : key);
const env = (now = 1000) => ({ now, t });

/** A page as table.js makes it, before any message. */
function page(extra = {}) {
  return {
    state: null, path: [], pending: null, online: true, error: null, clock: null,
    deadline: null, matchBreak: null, variantLoad: null, windowS: null,
    premove: null, premoveFrom: null, view: null, fens: new Map(), fensLoading: null,
    resyncing: false, intent: null, hint: null, declined: null, muted: false,
    chat: [], chatAcks: new Set(), claim: null, conditional: [],
    ...extra,
  };
}

function stateMsg(extra = {}) {
  return {
    t: 'state', v: 5,
    table: { id: 't1', room: 'russian', variant: 'russian' },
    you: { id: 'a', seat: 'white', conditional: [] },
    seats: { white: alice, black: bob },
    ready: { white: false, black: false },
    options: { minutes: 5, increment: 3 },
    presence: { white: true, black: true, spectators: 0 },
    status: 'playing', game_id: 'g1', white: alice, black: bob,
    initial_fen: 'W:W1:B2', opening_plies: 0, fen: 'W:W1:B2',
    moves: [], turn: 'white', legal: ['c3-d4', 'c3-b4'],
    clock: { white: 300000, black: 300000, running: 'white' },
    first_move_deadline: 30000, draw_offer: null, counters: [], result: null, reason: null,
    chat: [],
    ...extra,
  };
}

const moveMsg = (extra = {}) => ({
  t: 'move', v: 6, ply: 1, move: 'c3-d4', by: 'white', captures: [], fen: 'B:Wd4:B2', turn: 'black',
  clock: { white: 299000, black: 300000, running: 'black' }, legal: ['f6-e5'], counters: [], ...extra,
});

const kinds = (fx) => fx.map((e) => e.do);

test('state: the table state, the clock, the window and the chat; the board is fetched once', () => {
  const p = page({ resyncing: true });
  const fx = receive(p, stateMsg({ chat: [{ id: 1, from: bob, text: 'hej', at: 0 }] }), env(500));
  assert.equal(p.state.v, 5);
  assert.equal(p.resyncing, false);
  assert.deepEqual(p.clock.at, 500);
  assert.deepEqual(p.deadline, { ms: 30000, at: 500 });
  assert.equal(p.windowS, 30);
  assert.equal(p.chat.length, 1);
  assert.deepEqual(kinds(fx), ['fillConditional', 'loadRatings', 'follow', 'loadVariant', 'draw']);
  p.variantLoad = Promise.resolve();
  assert.ok(!kinds(receive(p, stateMsg({ v: 7 }), env())).includes('loadVariant'));
});

test('state: a pending move is resent, kept or dropped as the fresh state says', () => {
  const p = page({ pending: { move: 'c3-d4', ply: 1, ack: 4, acked: false } });
  const fx = receive(p, stateMsg(), env());
  assert.deepEqual(fx.find((e) => e.do === 'send'), { do: 'send', msg: moveMessage(p.pending), quiet: true });
  const played = { ply: 1, move: 'c3-d4', by: 'white', captures: [] };
  const q = page({ pending: { move: 'c3-d4', ply: 1, ack: 4, acked: false } });
  receive(q, stateMsg({ moves: [played], turn: 'black', legal: [] }), env());
  assert.equal(q.pending, null, 'acknowledged by the state itself');
  const r = page({ pending: { move: 'c3-d4', ply: 1, ack: 4, acked: false } });
  receive(r, stateMsg({ status: 'over', legal: [] }), env());
  assert.equal(r.pending, null, 'the game it was for is over');
});

test('state: a seat chosen before (play now) is taken, and Start pressed once seated', () => {
  const p = page({ intent: { seat: 'black', start: true } });
  const waiting = stateMsg({ you: { id: 'c' }, seats: { white: alice, black: null }, status: 'waiting', game_id: null });
  const fx = receive(p, waiting, env());
  assert.deepEqual(fx.find((e) => e.do === 'send'), { do: 'send', msg: { t: 'sit', seat: 'black' } });
  assert.equal(p.intent, null);
  assert.equal(p.startWhenSeated, true);
  const fx2 = receive(p, { t: 'seated', v: 6, seat: 'black', player: { id: 'c', name: 'C' } }, env());
  assert.deepEqual(fx2.find((e) => e.do === 'send'), { do: 'send', msg: { t: 'start' } });
  assert.equal(p.startWhenSeated, false);
  // Somebody was quicker: play now looks again.
  const q = page({ intent: { seat: 'black', quick: { room: 'russian' } } });
  const fx3 = receive(q, stateMsg({ you: { id: 'c' } }), env());
  assert.deepEqual(fx3.find((e) => e.do === 'quickAgain'), { do: 'quickAgain', quick: { room: 'russian' } });
});

test('move: the position changes, a half-entered move goes, the sound plays unless muted', () => {
  const p = page({ path: ['c3'] });
  receive(p, stateMsg(), env());
  p.path = ['c3'];
  const fx = receive(p, moveMsg(), env(2000));
  assert.equal(p.state.moves.length, 1);
  assert.deepEqual(p.path, []);
  assert.equal(p.fens.get(1), 'B:Wd4:B2');
  assert.equal(p.clock.at, 2000);
  assert.deepEqual(fx.find((e) => e.do === 'sound'), { do: 'sound', name: 'move' });
  const q = page({ muted: true });
  receive(q, stateMsg(), env());
  assert.ok(!kinds(receive(q, moveMsg(), env())).includes('sound'));
});

test('move: a gap asks for one resync, and nothing else until the fresh state', () => {
  const p = page();
  receive(p, stateMsg(), env());
  assert.deepEqual(receive(p, moveMsg({ v: 8 }), env()), [{ do: 'resync' }]);
  assert.deepEqual(receive(p, moveMsg({ v: 9 }), env()), [], 'one request per gap');
  assert.deepEqual(receive(p, moveMsg({ v: 5 }), env()), [], 'an old version is ignored');
  receive(p, stateMsg({ v: 9 }), env());
  assert.equal(p.resyncing, false);
});

test('move: a premove that became the one legal move is played; another is dropped with a note', () => {
  const p = page();
  receive(p, stateMsg({ you: { id: 'b', seat: 'black' }, turn: 'white' }), env());
  p.premove = ['f6', 'e5'];
  const fx = receive(p, moveMsg(), env());
  assert.deepEqual(fx.find((e) => e.do === 'move'), { do: 'move', move: 'f6-e5' });
  assert.equal(p.premove, null);
  const q = page();
  receive(q, stateMsg({ you: { id: 'b', seat: 'black' }, turn: 'white' }), env());
  q.premove = ['f6', 'g5'];
  const fx2 = receive(q, moveMsg(), env());
  assert.ok(!kinds(fx2).includes('move'));
  assert.equal(q.hint, 'premove.dropped {"move":"f6-g5"}');
});

test('ack: the pending move is acknowledged, and settled once the state has it', () => {
  const p = page();
  receive(p, stateMsg(), env());
  p.pending = { move: 'c3-d4', ply: 1, ack: 3, acked: false };
  assert.deepEqual(receive(p, { t: 'ack', ack: 2 }, env()), [], 'not ours');
  assert.deepEqual(receive(p, { t: 'ack', ack: 3 }, env()), [{ do: 'draw', parts: ['board', 'status', 'title'] }]);
  assert.equal(p.pending.acked, true, 'acknowledged, the move event not seen yet');
  receive(p, moveMsg(), env());
  assert.equal(p.pending, null);
});

test('error: a refused move asks for the state; a refused chat line goes to the chat; others are shown', () => {
  const p = page();
  receive(p, stateMsg(), env());
  p.pending = { move: 'c3-d4', ply: 1, ack: 3, acked: false };
  p.path = ['c3'];
  const fx = receive(p, { t: 'error', code: 'illegal_move', message: 'no', ack: 3 }, env());
  assert.equal(p.pending, null);
  assert.deepEqual(p.path, []);
  assert.deepEqual(kinds(fx), ['send', 'draw']);
  assert.deepEqual(fx[1].parts, ['board', 'status', 'actions', 'title'], 'the error shows with the buttons');
  assert.equal(p.error, 'error.illegal_move {"message":"no"}');
  p.chatAcks.add(9);
  assert.deepEqual(receive(p, { t: 'error', code: 'chat_flood', ack: 9 }, env()), [{ do: 'chatError', code: 'chat_flood', message: '' }]);
  assert.equal(p.chatAcks.has(9), false);
  // The table is gone while shown: the close that follows says so.
  p.error = null;
  assert.deepEqual(receive(p, { t: 'error', code: 'not_found' }, env()), []);
  assert.equal(p.error, null);
});

test('error: refused prepared replies are shown in their panel', () => {
  const p = page({ condSent: true });
  assert.deepEqual(receive(p, { t: 'error', code: 'bad_message', message: 'e5 is not legal' }, env()), [{ do: 'draw', parts: ['conditional'] }]);
  assert.equal(p.condError, 'e5 is not legal');
  assert.equal(p.condSent, false);
});

test('conditional: the player\'s own lines are kept and shown', () => {
  const p = page({ condSent: true, condError: 'x' });
  const fx = receive(p, { t: 'conditional', lines: [['c3-d4', 'f6-e5']] }, env());
  assert.deepEqual(p.conditional, [['c3-d4', 'f6-e5']]);
  assert.equal(p.condSent, false);
  assert.equal(p.condError, null);
  assert.deepEqual(fx, [{ do: 'fillConditional' }, { do: 'draw', parts: ['conditional'] }]);
});

test('chat: an unversioned line redraws only the chat', () => {
  const p = page();
  receive(p, stateMsg(), env());
  const fx = receive(p, { t: 'chat', id: 2, from: bob, text: 'gg', at: 0 }, env());
  assert.deepEqual(fx, [{ do: 'drawChat' }]);
  assert.equal(p.chat.length, 1);
});

test('game_started: what belonged to the last game goes, and the window is the new one', () => {
  const p = page();
  receive(p, stateMsg({ status: 'over', legal: [] }), env());
  Object.assign(p, { premove: ['c3', 'd4'], view: 2, declined: { game: 'g1', ply: 4 } });
  p.fens.set(1, 'x');
  receive(p, {
    t: 'game_started', v: 6, id: 'g2', white: bob, black: alice, fen: 'W:W1:B2', turn: 'white',
    legal: ['c3-d4'], clock: { white: 300000, black: 300000, running: null }, first_move_deadline: 40000,
  }, env(3000));
  assert.equal(p.state.game_id, 'g2');
  assert.equal(p.windowS, 40);
  assert.deepEqual(p.deadline, { ms: 40000, at: 3000 });
  assert.equal(p.fens.size, 0);
  assert.equal(p.premove, null);
  assert.equal(p.view, null);
  assert.equal(p.declined, null);
});

test('game_over: the premove goes and the first-move window closes', () => {
  const p = page();
  receive(p, stateMsg({ you: { id: 'b', seat: 'black' } }), env());
  p.premove = ['f6', 'e5'];
  const fx = receive(p, { t: 'game_over', v: 6, result: 'white', reason: 'resign', by: 'black' }, env());
  assert.equal(p.premove, null);
  assert.equal(p.deadline, null);
  assert.equal(p.state.status, 'over');
  assert.deepEqual(fx.find((e) => e.do === 'sound'), { do: 'sound', name: 'end' });
});

test('draw_declined: the player notes that their own offer was declined', () => {
  const p = page();
  receive(p, stateMsg({ draw_offer: 'white' }), env());
  receive(p, { t: 'draw_declined', v: 6, by: 'black' }, env());
  assert.deepEqual(p.declined, { game: 'g1', ply: 0 });
  const q = page();
  receive(q, stateMsg({ you: { id: 'b', seat: 'black' }, draw_offer: 'white' }), env());
  receive(q, { t: 'draw_declined', v: 6, by: 'black' }, env());
  assert.equal(q.declined, null, 'the one who declined notes nothing');
});

test('presence: a claim window comes with its time', () => {
  const p = page();
  receive(p, stateMsg(), env());
  receive(p, { t: 'presence', v: 6, white: true, black: false, spectators: 0, claim_at: 60000 }, env(4000));
  assert.deepEqual(p.claim, { ms: 60000, at: 4000 });
  receive(p, { t: 'presence', v: 7, white: true, black: true, spectators: 0, claim_at: null }, env());
  assert.equal(p.claim, null);
});

/** The parts the `draw` effects of `fx` redraw (every part for a plain `draw`). */
const drawn = (fx) => {
  const out = new Set();
  for (const e of fx) if (e.do === 'draw') for (const x of partsOf(e.parts)) out.add(x);
  return out;
};

test('redraws: only the panels an event changes', () => {
  const p = page();
  receive(p, stateMsg(), env());
  p.variantLoad = Promise.resolve();
  // Presence: the bars, the spectators' card and the claim window; not the board, the
  // move list, the counters or the chat.
  const presence = drawn(receive(p, { t: 'presence', v: 6, white: true, black: false, spectators: 2, claim_at: 30000 }, env()));
  assert.deepEqual([...presence].sort(), ['actions', 'banner', 'bars', 'info', 'prompt', 'status']);
  assert.deepEqual(p.claim, { ms: 30000, at: 1000 });
  // An offer: the status, the prompt, the buttons and the banner.
  const offer = drawn(receive(p, { t: 'draw_offered', v: 7, by: 'black', next: 4 }, env()));
  assert.deepEqual([...offer].sort(), ['actions', 'banner', 'prompt', 'status']);
  assert.equal(p.state.draw_offer, 'black');
  const declined = drawn(receive(p, { t: 'draw_declined', v: 8, by: 'white' }, env()));
  assert.deepEqual([...declined].sort(), ['actions', 'banner', 'prompt', 'status']);
  // A versioned chat line: the chat alone.
  const fx = receive(p, { t: 'chat', v: 9, id: 4, from: bob, text: 'hi', at: 0 }, env());
  assert.equal(fx.filter((e) => e.do === 'draw').length, 0, JSON.stringify(fx));
  assert.ok(fx.some((e) => e.do === 'drawChat'));
  assert.equal(p.state.v, 9, 'the version advances');
  // A move: everything.
  assert.deepEqual(drawn(receive(p, moveMsg({ v: 10 }), env())), ALL_PARTS);
});

test('redraws: every part an event names is a part of the page', () => {
  for (const [t, parts] of Object.entries(EVENT_PARTS)) {
    for (const part of parts) assert.ok(PARTS.includes(part), `${t}: ${part}`);
  }
  assert.equal(new Set(PARTS).size, PARTS.length);
  assert.deepEqual(partsOf(undefined), ALL_PARTS);
});
