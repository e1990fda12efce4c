// Meeting people, the pure parts: which table a player may invite to and who, whether a
// received invitation still holds, the compatible table "Play a person" takes, and the
// result line that says who aborted or resigned.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { freeSeat, invitable, inviteTable, isOpen, optionsText, stillOpen } from '../../static/js/invite.js';
import { openTableFor } from '../../static/js/playnow.js';
import { resultText } from '../../static/js/tableview.js';
import { translator } from '../../static/js/i18n.js';

const ala = { id: 'a', name: 'Ala' };
const ola = { id: 'o', name: 'Ola' };
const opts = (o = {}) => ({ minutes: 5, increment: 3, random_opening: false, capture_optional: false, ...o });
const table = (id, white, black, o = {}, game = null) => ({ id, seats: { white, black }, options: opts(o), game });

test('a player invites to an open table they sit at, and people not playing', () => {
  const tables = [
    table('t1', ola, null),
    table('t2', ala, ola),
    table('t3', null, ala, {}, { status: 'playing' }),
    table('t4', ala, null, { bot: 1 }),
    table('t5', null, ala),
  ];
  assert.equal(inviteTable(tables, 'a')?.id, 't5');
  assert.equal(inviteTable(tables, null), null);
  assert.equal(inviteTable(tables.slice(0, 4), 'a'), null);
  assert.equal(freeSeat(tables[0]), 'black');
  assert.equal(freeSeat(tables[4]), 'white');
  assert.equal(freeSeat(tables[1]), null);
  assert.equal(isOpen(table('t6', ala, null, {}, { status: 'over' })), true);
  const people = [
    { id: 'a', where: 'table' }, { id: 'o', where: 'room' }, { id: 'p', where: 'playing' }, { id: 'q', where: 'table' },
  ];
  assert.deepEqual(invitable(people, 'a').map((p) => p.id), ['o', 'q']);
});

test('an invitation holds while its table is listed and open', () => {
  const inv = { id: 'i', table: { id: 't1' } };
  assert.equal(stillOpen(inv, new Map([['t1', table('t1', ala, null)]])), true);
  assert.equal(stillOpen(inv, new Map([['t1', table('t1', ala, ola)]])), false);
  assert.equal(stillOpen(inv, new Map([['t1', table('t1', ala, null, {}, { status: 'playing' })]])), false);
  // Sent before the room announced its table: the invitation's own view of it holds
  // until the room lists the table; once listed and gone, the invitation is too.
  const early = { id: 'i', table: table('t1', ala, null) };
  assert.equal(stillOpen(early, new Map()), true);
  assert.equal(stillOpen({ ...early, listed: true }, new Map()), false);
  assert.equal(stillOpen(early, new Map([['t1', table('t1', ala, ola)]])), false);
  assert.equal(stillOpen({ id: 'i', table: table('t1', ala, ola) }, new Map()), false);
  assert.equal(stillOpen(inv, new Map()), false);
  const t = translator('en');
  assert.equal(optionsText(t, opts({ random_opening: true })), '5 min + 3 s · Random opening');
});

test('"Play a person" takes someone else\'s open table with the same clock and plain rules', () => {
  const clock = { minutes: 5, increment: 3 };
  const bot = { id: 'bot-1', name: 'C', bot: 1 };
  assert.equal(openTableFor([], clock, 'a'), null);
  const tables = [
    table('mine', ala, null),
    table('other-clock', ola, null, { minutes: 3 }),
    table('random', ola, null, { random_opening: true }),
    table('optional', ola, null, { capture_optional: true }),
    table('bot', ola, bot, { bot: 1 }),
    table('full', ola, { id: 'p' }),
    table('playing', ola, null, {}, { status: 'playing' }),
    table('empty', null, null),
    table('rated', null, ola, { rated: true }),
    table('yes', null, ola),
    table('yes2', ola, null),
  ];
  assert.equal(openTableFor(tables, clock, 'a')?.id, 'yes');
  assert.equal(openTableFor(tables, clock, 'a', ['yes'])?.id, 'yes2');
  assert.equal(openTableFor(tables, clock, 'a', ['yes', 'yes2']), null);
  // After a game the table takes a player again.
  assert.equal(openTableFor([table('over', ola, null, {}, { status: 'over' })], clock, 'a')?.id, 'over');
});

test('the result says who aborted or resigned when the server says so', () => {
  const t = translator('en');
  assert.equal(resultText(t, { result: null, reason: 'aborted', ended_by: 'white' }), 'White aborted the game');
  assert.equal(resultText(t, { result: null, reason: 'aborted' }), 'Game aborted');
  assert.equal(resultText(t, { result: 'black', reason: 'resign', ended_by: 'white' }), 'Black won (White resigned)');
  assert.equal(resultText(t, { result: 'black', reason: 'resign' }), 'Black won (resignation)');
  assert.equal(resultText(t, { result: 'white', reason: 'timeout', ended_by: null }), 'White won (time out)');
  const pl = translator('pl');
  assert.equal(resultText(pl, { result: null, reason: 'aborted', ended_by: 'black' }), 'Czarne przerwały partię');
});
