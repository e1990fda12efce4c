// The arrow keys' target square, the winner line of a
// finished tournament, the next pairing during a break, and why a game ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { arrowTarget, displayXY } from '../../static/js/board.js';
import { nextPairing, winnerLine } from '../../static/js/tournaments.js';
import { resultText } from '../../static/js/tableview.js';
import { translator } from '../../static/js/i18n.js';

/** The 32 dark squares of an 8x8 board as shown (x + y odd), named by position. */
function board(size) {
  const cells = [];
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if ((x + y) % 2) cells.push({ name: `${x},${y}`, pos: { x, y } });
  return cells;
}

test('arrows: Left/Right along the row, Up/Down to the nearest square of the next row, all reachable', () => {
  for (const size of [8, 10]) {
    const cells = board(size);
    const at = (name) => cells.find((c) => c.name === name).pos;
    assert.equal(arrowTarget(cells, at('1,0'), 'ArrowRight'), '3,0');
    assert.equal(arrowTarget(cells, at('1,0'), 'ArrowLeft'), null);
    assert.equal(arrowTarget(cells, at('3,2'), 'ArrowUp'), '4,1', 'up goes right on a tie');
    assert.equal(arrowTarget(cells, at('4,1'), 'ArrowDown'), '3,2', 'and down comes back');
    const seen = new Set([cells[0].name]);
    const todo = [cells[0].name];
    while (todo.length) {
      const from = at(todo.pop());
      for (const key of ['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight']) {
        const to = arrowTarget(cells, from, key);
        if (to && !seen.has(to)) {
          seen.add(to);
          todo.push(to);
        }
      }
    }
    assert.equal(seen.size, cells.length, `every square of ${size}x${size}`);
  }
  assert.deepEqual(displayXY({ x: 0, y: 7 }, 8, true), { x: 7, y: 0 });
});

const player = (id) => ({ id, name: id });
const line = (id, rank, points, sb, wins, bh = 0) => ({ rank, player: player(id), points, games: 2, tiebreaks: { buchholz: bh, sonneborn_berger: sb, wins } });

test('winner line: one winner, a tie decided by a tie-break, a shared first place', () => {
  const t = translator('en');
  const over = (standings, kind = 'round_robin') => ({ status: 'over', kind, standings });
  assert.equal(winnerLine(t, over([line('Ala', 1, 4, 2, 2), line('Ola', 2, 2, 0, 1)])), 'Winner: Ala (4 points).');
  assert.equal(
    winnerLine(t, over([line('Ala', 1, 3, 5.5, 1), line('Dan', 2, 3, 3.5, 1), line('Ola', 3, 2, 0, 1)])),
    'Ala and Dan have 3 points each; Sonneborn-Berger decided first place: Ala (5.5 – 3.5).',
  );
  assert.equal(
    winnerLine(t, over([line('A', 1, 2, 2, 1), line('B', 1, 2, 2, 1), line('C', 1, 2, 2, 1)])),
    'A, B and C share first place: 2 points each and every tie-break equal.',
  );
  assert.equal(
    winnerLine(translator('pl'), over([line('A', 1, 2, 2, 1), line('B', 1, 2, 2, 1)])),
    'A i B dzielą pierwsze miejsce: po 2 pkt i równe wszystkie kryteria dodatkowe.',
  );
  assert.equal(winnerLine(t, { status: 'running', standings: [line('A', 1, 2, 2, 1)] }), null);
  assert.equal(winnerLine(t, { status: 'over', cancelled: true, standings: [] }), null);
});

test('the next pairing during a break', () => {
  const x = { next_round: { number: 3, bye: player('C'), pairings: [{ board: 1, white: player('A'), black: player('B') }] } };
  assert.deepEqual(nextPairing(x, 'B'), { round: 3, color: 'black', opponent: player('A'), bye: false });
  assert.deepEqual(nextPairing(x, 'C'), { round: 3, color: null, opponent: null, bye: true });
  assert.equal(nextPairing(x, 'D'), null);
  assert.equal(nextPairing({ next_round: null }, 'A'), null);
});

test('why a game ended: every piece taken or no move left; the side that did not move in time', () => {
  const t = translator('en');
  const base = { result: 'white', reason: 'no_moves', moves: [] };
  assert.equal(resultText(t, { ...base, fen: 'B:W21,22:B' }), 'White won (all pieces taken)');
  assert.equal(resultText(t, { ...base, fen: 'B:W21,22:B1' }), 'White won (no moves left)');
  assert.equal(resultText(t, { result: 'white', reason: 'no_moves' }), 'White won (no pieces or moves left)');
  const aborted = { result: null, reason: 'aborted', ended_by: null, moves: [], turn: 'white' };
  assert.equal(resultText(t, aborted, { windowS: 30 }), 'Game aborted, no result: White did not make a first move in time (30 s)');
  assert.equal(resultText(translator('pl'), { ...aborted, moves: [{ ply: 1, move: 'c3-d4' }], turn: 'black' }), 'Partia przerwana bez wyniku: czarne nie wykonały pierwszego ruchu na czas');
  assert.equal(resultText(t, { ...aborted, ended_by: 'black' }), 'Black aborted the game');
});
