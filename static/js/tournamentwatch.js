// Sends a player on to their next tournament game: a room socket that listens for the
// `tournament_game` the server addresses to this guest (the server delivers it to their
// sockets only), for one tournament.

import { LiveSocket } from './socket.js';

/**
 * Listens in `room` for this guest's next game of `tournament`; `onGame(table, round)`
 * is called when one is ready, `onChange()` when the tournament changed (a result, the
 * next round paired) or the socket came back (it may have missed a change). Returns the
 * function that stops listening.
 */
export function watchTournament(room, tournament, onGame, onChange = () => {}) {
  const socket = new LiveSocket(`/ws/rooms/${encodeURIComponent(room)}`, {
    onMessage: (msg) => {
      if (msg.t === 'tournament_game' && msg.tournament === tournament) onGame(msg.table, msg.round);
      else if (msg.t === 'room') onChange();
      else if ((msg.t === 'tournament_updated' || msg.t === 'tournament_added') && msg.tournament?.id === tournament) onChange();
    },
  });
  return () => socket.close();
}
