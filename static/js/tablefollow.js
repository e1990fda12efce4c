// A tournament table's page follows its tournament: once the game is over it shows the
// player's next pairing and its countdown (or the tournament's end), and goes to the next
// game's table when it is ready. `nextAfter` is the decision, from the tournament as the
// server sent it; `followTournament` watches the room and fetches the tournament.

import * as api from './api.js';
import { playerName } from './playnow.js';
import { mySeat } from './tablestate.js';
import { watchTournament } from './tournamentwatch.js';
import { myGame, nextPairing, winnerLine } from './tournaments.js';

/**
 * What the tournament `x` means for the page showing table `id` in state `s`.
 * @param {boolean} wasWaiting the page showed a next pairing already
 * @returns {{next: object | null, go: string | null}} the page's `next` (the next round's
 *   line, or the tournament's end), and a table to go to (the next game, ready)
 */
export function nextAfter(x, s, { t, now, id, wasWaiting }) {
  const me = s?.you?.id;
  if (!s || !me || s.status !== 'over') return { next: null, go: null };
  if (x.status === 'over') return { next: { over: `${t('tournament.over_line')} ${winnerLine(t, x) ?? ''}`.trim() }, go: null };
  const n = nextPairing(x, me);
  const next = n ? {
    number: n.round,
    bye: n.bye,
    color: n.color,
    opponent: n.opponent ? playerName(t, n.opponent) : '',
    ms: x.next_round_in_ms ?? 0,
    at: now,
  } : null;
  // The break is over and the game is ready (a missed `tournament_game`, e.g. after a
  // reconnect): off to it.
  const game = !x.next_round ? myGame(x, me) : null;
  return { next, go: wasWaiting && game && game.table !== id ? game.table : null };
}

/**
 * Follows the tournament of the page's table, once the viewer is seated there.
 * @param {{page: object, id: string, t: Function, go: (table: string) => void, draw: () => void}} deps
 * @returns {{follow: (s: object) => void, stop: () => void}}
 */
export function tournamentFollower({ page, id, t, go, draw }) {
  let stopWatching = null;
  // A change of the tournament while its fetch is under way is fetched again after it
  // (its end may come just then: the last game's result, then the tournament over).
  let fetching = null;
  let fetchAgain = false;

  function fetchNext(tour) {
    if (fetching) {
      fetchAgain = true;
      return;
    }
    fetching = api.tournament(tour.id).then((x) => {
      const { next, go: table } = nextAfter(x, page.state, { t, now: performance.now(), id, wasWaiting: !!page.next });
      page.next = next;
      if (table) go(table);
      draw();
    }, () => {}).finally(() => {
      fetching = null;
      if (fetchAgain) {
        fetchAgain = false;
        fetchNext(tour);
      }
    });
  }

  return {
    follow(s) {
      const tour = s?.table?.tournament;
      if (!tour || stopWatching || !s.table.room || !mySeat(s)) return;
      stopWatching = watchTournament(s.table.room, tour.id, (table) => {
        if (table !== id) go(table);
      }, () => fetchNext(tour));
      fetchNext(tour);
    },
    stop() {
      stopWatching?.();
    },
  };
}
