// Micro-matches (issue 38): two games from one opening with the colours swapped. The
// match's line on the table page (which game, the score, the break's countdown, the
// result) and on its game-over banner.

import { h } from './dom.js';
import { playerName } from './playnow.js';

/** Points as a player reads them: `0`, `½`, `1`, `1½`, `2`. */
export function pointsText(x) {
  const whole = Math.floor(x);
  const half = x - whole >= 0.5;
  if (!half) return String(whole);
  return whole ? `${whole}½` : '½';
}

/** The score `1½–½`, the first game's White first. */
export function scoreText(score) {
  return `${pointsText(score?.white_first ?? 0)}–${pointsText(score?.black_first ?? 0)}`;
}

/** Ms left of the break (`page.matchBreak`: what the server said, and when). */
export function breakLeft(page, now) {
  const b = page.matchBreak;
  return b ? Math.max(0, b.ms - (now - b.at)) : null;
}

/** The countdown's text: the seconds left, or that game 2 is starting. */
export function breakText(t, left) {
  return left > 0 ? t('match.next', { s: Math.ceil(left / 1000) }) : t('match.starting');
}

/** The match's result: `Ala wins the match 1½–½.` or `The match is drawn 1–1.` */
export function resultText(t, m) {
  const { white_first: a, black_first: b } = m.score;
  if (a === b) return t('match.drawn', { score: scoreText(m.score) });
  const winner = a > b ? m.players.white_first : m.players.black_first;
  const score = a > b ? scoreText(m.score) : `${pointsText(b)}–${pointsText(a)}`;
  return t('match.won', { name: playerName(t, winner), score });
}

/**
 * The match line: `Micro-match · game 1 of 2` over `Ala 1½ – ½ Bolek`, then the break's
 * countdown or the match's result; null outside a micro-match.
 * @param {Function} t the translator
 * @param {object|null} m the state's `match`
 * @param {number|null} left ms left of the break
 */
export function matchLine(t, m, left) {
  if (!m) return null;
  const n = m.games?.length ?? 1;
  const stage = m.status === 'over' ? t('match.over') : t('match.game', { n });
  const who = (p) => h('span', { class: 'name-cut', title: playerName(t, p) }, playerName(t, p));
  return h('div', { class: 'match', 'data-match': m.status, 'data-match-game': String(n) },
    h('p', { class: 'match-title' }, h('strong', {}, t('match.title')), ` · ${stage}`),
    h('p', { class: 'match-score', 'data-match-score': scoreText(m.score) },
      who(m.players?.white_first),
      h('strong', { class: 'points' }, ` ${pointsText(m.score?.white_first ?? 0)} – ${pointsText(m.score?.black_first ?? 0)} `),
      who(m.players?.black_first)),
    m.status === 'break'
      ? h('p', { class: 'match-next', 'data-match-left': '' }, breakText(t, left ?? 0))
      : null,
    m.status === 'over' && m.games?.length === 2
      ? h('p', { class: 'match-result', 'data-match-result': '' }, resultText(t, m))
      : null);
}
