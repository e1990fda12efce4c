// Opening ballots (issue 38): the line that names the ballot a game started from, on the
// table page and the replay, and the table option's short text for table lists.

import { h } from './dom.js';

/**
 * The ballot a game started from: `Ballot: FMJD-64 7-XIII · e3-f4 b6-a5 …` (its moves,
 * the men set up by hand for an arrangement, or the start position itself); null
 * without a ballot.
 * @param {Function} t the translator
 * @param {{id: string, name: string, moves: string[], arrangement?: string}|null} ballot
 */
export function ballotLine(t, ballot) {
  if (!ballot) return null;
  // Each move (`a3-h4`) kept on one line: a break at its hyphen would read as two moves.
  const words = (text) => text.split(' ').map((w, i) => [i ? ' ' : '', h('span', { class: 'nowrap' }, w)]);
  const moves = ballot.moves?.length
    ? words(ballot.moves.join(' '))
    : ballot.arrangement ? [`${t('ballot.arrangement')} `, words(ballot.arrangement)] : t('ballot.start');
  return h('p', { class: 'ballot', 'data-ballot': ballot.id },
    h('span', { class: 'ballot-name' }, `${t('ballot.title')}: `, h('strong', { 'data-ballot-name': '' }, ballot.name)),
    ' · ',
    h('span', { class: 'ballot-moves', 'data-ballot-moves': '' }, moves));
}

/** A table's `ballot` option as a flag of its row: `Random ballot`, `Ballot 3move-004`. */
export function ballotFlag(t, option) {
  if (!option) return null;
  return option === 'random' ? t('option.ballot_random') : t('option.ballot', { id: option });
}
