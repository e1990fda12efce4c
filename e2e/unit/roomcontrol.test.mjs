// The room page's controller (static/js/roomcontrol.js): what each room-socket message
// does to the page, and which panels it redraws, without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { receive, roomPage } from '../../static/js/roomcontrol.js';

const env = (extra = {}) => ({ me: 'me', muted: new Set(), soundOff: false, ...extra });
const kinds = (fx) => fx.map((e) => e.do);
const table = (id, status = null) => ({ id, seats: {}, game: status ? { id: `g-${id}`, status } : null });

function withRoom() {
  const page = roomPage();
  receive(page, {
    t: 'room', room: { id: 'russian', variant: 'russian' }, players: 3,
    tables: [table('t1', 'playing'), table('t2')],
    people: [{ id: 'a', name: 'A', where: 'room' }],
    chat: [{ id: 1, from: { id: 'a', name: 'A' }, text: 'hej', at: 0 }],
    tournaments: [{ id: 'x', status: 'open' }],
  }, env());
  return page;
}

test('room: the snapshot replaces everything and redraws the whole page', () => {
  const page = roomPage();
  page.tables.set('old', table('old'));
  const fx = receive(page, {
    t: 'room', room: { id: 'russian', variant: 'russian' }, players: 3,
    tables: [table('t1')], people: [{ id: 'a' }], chat: [{ id: 1, from: { id: 'a' }, text: 'x', at: 0 }], tournaments: [],
  }, env());
  assert.deepEqual(kinds(fx), ['tournaments', 'room', 'chat', 'draw']);
  assert.deepEqual([...page.tables.keys()], ['t1']);
  assert.equal(page.players, 3);
  assert.equal(page.people.length, 1);
  assert.equal(page.chat.length, 1);
});

test('presence: only the head\'s count is redrawn', () => {
  const page = withRoom();
  assert.deepEqual(receive(page, { t: 'presence', players: 7 }, env()), [{ do: 'stats' }]);
  assert.equal(page.players, 7);
});

test('chat: only the chat is redrawn', () => {
  const page = withRoom();
  assert.deepEqual(receive(page, { t: 'chat', id: 2, from: { id: 'b' }, text: 'cześć', at: 1 }, env()), [{ do: 'chat' }]);
  assert.equal(page.chat.length, 2);
});

test('people: only the people list is redrawn', () => {
  const page = withRoom();
  assert.deepEqual(receive(page, { t: 'people_joined', person: { id: 'b', name: 'B', where: 'room' } }, env()), [{ do: 'people' }]);
  assert.deepEqual(receive(page, { t: 'people_left', id: 'a' }, env()), [{ do: 'people' }]);
  assert.deepEqual(page.people.map((p) => p.id), ['b']);
});

test('tables: a game that just ended brings the recent games; a removed table goes', () => {
  const page = withRoom();
  assert.deepEqual(kinds(receive(page, { t: 'table_updated', table: table('t1', 'over') }, env())), ['loadGames', 'draw']);
  assert.deepEqual(kinds(receive(page, { t: 'table_updated', table: table('t2', 'playing') }, env())), ['draw']);
  assert.deepEqual(kinds(receive(page, { t: 'table_added', table: table('t3') }, env())), ['draw']);
  receive(page, { t: 'table_removed', table: { id: 't2' } }, env());
  assert.deepEqual([...page.tables.keys()], ['t1', 't3']);
  receive(page, { t: 'room_tables', tables: [table('t4')] }, env());
  assert.ok(page.tables.has('t4'), 'the next page of a big room');
});

test('invited: one invitation per table, with a sound; none from the muted; the sender is told', () => {
  const page = withRoom();
  const inv = (from, tid) => ({ t: 'invited', id: `${from}-${tid}`, from: { id: from, name: from }, to: { id: 'me', name: 'Me' }, table: { id: tid } });
  assert.deepEqual(receive(page, inv('a', 't2'), env()), [{ do: 'invitations' }, { do: 'sound', name: 'offer' }]);
  receive(page, inv('b', 't2'), env({ soundOff: true }));
  assert.deepEqual(page.invitations.map((i) => i.from.id), ['b'], 'the newer replaces the older');
  assert.deepEqual(receive(page, inv('c', 't1'), env({ muted: new Set(['c']) })), []);
  const sent = { t: 'invited', from: { id: 'me' }, to: { id: 'a', name: 'Ala' }, table: { id: 't2' } };
  assert.deepEqual(receive(page, sent, env()), [{ do: 'inviteSent', name: 'Ala' }]);
  const other = { t: 'invited', from: { id: 'a' }, to: { id: 'b' }, table: { id: 't2' } };
  assert.deepEqual(receive(page, other, env()), [], 'an invitation for someone else');
});

test('error: a refused chat line or invitation is said where it was made, once', () => {
  const page = withRoom();
  page.chatAcks.add(1);
  page.inviteAcks.add(2);
  assert.deepEqual(receive(page, { t: 'error', code: 'chat_flood', ack: 1 }, env()), [{ do: 'chatError', code: 'chat_flood', message: '' }]);
  assert.deepEqual(receive(page, { t: 'error', code: 'chat_flood', ack: 1 }, env()), [], 'answered already');
  assert.deepEqual(receive(page, { t: 'error', code: 'busy', message: 'gra', ack: 2 }, env()), [{ do: 'inviteError', code: 'busy', message: 'gra' }]);
  assert.deepEqual(receive(page, { t: 'error', code: 'x', ack: 9 }, env()), []);
});

test('tournaments: a change redraws the list only; a pairing sends the player to the table', () => {
  const page = withRoom();
  assert.deepEqual(receive(page, { t: 'tournament_updated', tournament: { id: 'x', status: 'running' } }, env()), [{ do: 'tournaments' }]);
  assert.equal(page.tournaments[0].status, 'running');
  assert.deepEqual(receive(page, { t: 'tournament_game', table: 't9' }, env()), [{ do: 'go', table: 't9' }]);
});
