import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakLeft, pointsText, resultText, scoreText } from '../../static/js/micromatch.js';
import { LANGUAGES } from '../../static/js/i18n.js';

const t = (key, params = {}) => `${key}:${JSON.stringify(params)}`;
const players = { white_first: { id: 'a', name: 'Ala' }, black_first: { id: 'b', name: 'Bolek' } };

test('points read as players write them', () => {
  assert.deepEqual([0, 0.5, 1, 1.5, 2].map(pointsText), ['0', '½', '1', '1½', '2']);
  assert.equal(scoreText({ white_first: 1.5, black_first: 0.5 }), '1½–½');
});

test('the match result names the winner with their score first (issue 38)', () => {
  const m = (a, b) => ({ games: ['g1', 'g2'], score: { white_first: a, black_first: b }, players, status: 'over' });
  assert.equal(resultText(t, m(1.5, 0.5)), 'match.won:{"name":"Ala","score":"1½–½"}');
  assert.equal(resultText(t, m(0, 2)), 'match.won:{"name":"Bolek","score":"2–0"}');
  assert.equal(resultText(t, m(1, 1)), 'match.drawn:{"score":"1–1"}');
});

test('the break counts down from when the server said it', () => {
  assert.equal(breakLeft({ matchBreak: null }, 0), null);
  assert.equal(breakLeft({ matchBreak: { ms: 15000, at: 1000 } }, 5000), 11000);
  assert.equal(breakLeft({ matchBreak: { ms: 15000, at: 1000 } }, 99000), 0);
});

test('every micro-match text is in all nine languages, with its placeholders', async () => {
  const keys = {
    'create.micro_match': [], 'create.micro_match_note': [], 'option.micro_match': [], 'match.title': [],
    'match.game': ['{n}'], 'match.over': [], 'match.next': ['{s}'], 'match.starting': [],
    'match.won': ['{name}', '{score}'], 'match.drawn': ['{score}'], 'action.next_game': [], 'prompt.match_next': ['{name}'],
  };
  assert.equal(LANGUAGES.length, 9);
  for (const lang of LANGUAGES) {
    const dict = (await import(`../../static/js/i18n/${lang}.js`)).default;
    for (const [key, want] of Object.entries(keys)) {
      assert.ok(dict[key], `${lang}: ${key}`);
      assert.deepEqual([...new Set(dict[key].match(/\{\w+\}/g) ?? [])].sort(), want.sort(), `${lang}: ${key}`);
    }
  }
});
