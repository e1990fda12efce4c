import { test } from 'node:test';
import assert from 'node:assert/strict';
import { linesText, parseLines } from '../../static/js/conditional.js';

test('conditional lines are read a row at a time, blank rows and extra spaces skipped', () => {
  assert.deepEqual(parseLines('b6-a5 g3-h4\n\n  f6-g5,  g3-h4 ; g7-f6 h2-g3 \n'), [
    ['b6-a5', 'g3-h4'],
    ['f6-g5', 'g3-h4', 'g7-f6', 'h2-g3'],
  ]);
  assert.deepEqual(parseLines('   \n'), []);
  assert.deepEqual(parseLines(''), []);
});

test('the kept lines become the text to edit, and back', () => {
  const lines = [['32-28', '19-23'], ['33-29', '17-21', '28x19', '14x23']];
  assert.equal(linesText(lines), '32-28 19-23\n33-29 17-21 28x19 14x23');
  assert.deepEqual(parseLines(linesText(lines)), lines);
  assert.equal(linesText(null), '');
});
