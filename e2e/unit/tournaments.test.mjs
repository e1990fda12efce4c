import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyTournaments, canJoin, canLeave, canStart, countdown, matchScore, myGame, score, sortTournaments, tiebreak, tournamentLabel,
} from '../../static/js/tournaments.js';
import { translator } from '../../static/js/i18n.js';
import { playerName } from '../../static/js/playnow.js';

const summary = (id, extra = {}) => ({
  id, kind: 'swiss', status: 'open', minutes: 5, increment: 3, max_players: 4, name: null,
  players: [{ id: 'a', name: 'Ala' }], created_by: { id: 'a', name: 'Ala' }, version: 1, ...extra,
});

test('the room list follows the room socket', () => {
  let list = applyTournaments([], { t: 'room', tournaments: [summary('x')] });
  assert.deepEqual(list.map((x) => x.id), ['x']);
  list = applyTournaments(list, { t: 'tournament_added', tournament: summary('y') });
  list = applyTournaments(list, { t: 'tournament_updated', tournament: summary('x', { status: 'running' }) });
  assert.deepEqual(list.map((x) => [x.id, x.status]), [['x', 'running'], ['y', 'open']]);
  assert.equal(applyTournaments(list, { t: 'presence', players: 2 }), null);
  const sorted = sortTournaments([summary('old', { status: 'over' }), summary('o1'), summary('r', { status: 'running' }), summary('o2')]);
  assert.deepEqual(sorted.map((x) => x.id), ['r', 'o2', 'o1', 'old']);
});

test('who may join, leave or start', () => {
  const x = summary('x');
  assert.equal(canJoin(x, 'b'), true);
  // A rated tournament: accounts only.
  assert.equal(canJoin({ ...x, rated: true }, 'b', true), true);
  assert.equal(canJoin({ ...x, rated: true }, 'b', false), false);
  assert.equal(canJoin(x, 'b', false), true, 'a casual one takes guests');
  assert.equal(canJoin(x, 'a'), false, 'in it already');
  assert.equal(canJoin({ ...x, players: [1, 2, 3, 4].map((i) => ({ id: `p${i}` })) }, 'b'), false, 'full');
  assert.equal(canJoin(x, null), false);
  assert.equal(canLeave(x, 'a'), true);
  assert.equal(canLeave({ ...x, status: 'running', standings: [{ player: { id: 'a' }, withdrawn: true }] }, 'a'), false);
  assert.equal(canStart(x, 'a'), true);
  assert.equal(canStart(x, 'b'), false);
});

test('the player’s game of the current round', () => {
  const p = (w, b, extra = {}) => ({ board: 1, white: { id: w }, black: { id: b }, table: `t-${w}`, game: 'g', result: null, reason: null, ...extra });
  const x = {
    status: 'running',
    rounds: [
      { number: 1, pairings: [p('a', 'b', { result: 'white', reason: 'resign' })] },
      { number: 2, pairings: [p('c', 'a'), p('b', 'd', { result: 'draw', reason: 'agreement' })] },
    ],
  };
  assert.deepEqual(myGame(x, 'a'), { table: 't-c', round: 2, color: 'black', opponent: { id: 'c' } });
  assert.equal(myGame(x, 'b'), null, 'played already');
  assert.equal(myGame({ ...x, status: 'over' }, 'a'), null);
});

test('scores, countdowns, labels', () => {
  assert.equal(score({ result: 'white' }), '2–0');
  assert.equal(score({ result: 'draw' }), '1–1');
  assert.equal(score({ result: null, reason: null }), null);
  assert.equal(score({ result: null, reason: 'forfeit' }), '0–0');
  assert.equal(countdown(61_001), '1:02');
  assert.equal(countdown(3_600_000), '1:00:00');
  assert.equal(countdown(-5), '0:00');
  assert.equal(tiebreak(4.5), '4.5');
  assert.equal(tiebreak(18), '18');
  const t = translator('pl');
  assert.equal(tournamentLabel(t, summary('x')), 'Szwajcarski 5+3');
  assert.equal(tournamentLabel(t, summary('x', { name: 'Klub' })), 'Klub');
  assert.equal(playerName(translator('en'), { id: 'bot-1-2', name: 'Computer (level 1) #2', bot: 1 }), 'Computer · level 1 #2');
  assert.equal(playerName(translator('en'), { id: 'bot-3', name: 'x', bot: 3 }), 'Computer · level 3');
});

test('a micro-match score counts both games from the first White side', () => {
  const b = (result, reason = 'resign') => ({ result, reason });
  // A win with White, then a win with Black: 2–0.
  assert.equal(matchScore(b('white'), b('black')), '2–0');
  // A win, then a loss: 1–1; a draw, then a win with Black: 1½–½.
  assert.equal(matchScore(b('white'), b('white')), '1–1');
  assert.equal(matchScore(b('draw', 'agreement'), b('black')), '1½–½');
  assert.equal(matchScore(b('draw', 'agreement'), b('white')), '½–1½');
  // A forfeited second game counts; a void one (no result) counts for nobody.
  assert.equal(matchScore(b('black'), b('white', 'forfeit')), '0–2');
  assert.equal(matchScore(b(null, 'aborted'), b(null, 'aborted')), '0–0');
  // Not yet decided.
  assert.equal(matchScore(b('white'), { result: null, reason: null }), null);
  assert.equal(matchScore(undefined, b('white')), null);
});
