// Sends a player on to their next tournament game: a room socket that listens for the
// `tournament_game` the server addresses to this guest (the server delivers it to their
// sockets only), for one tournament.

import { LiveSocket } from './socket.js';

/**
 * Listens in `room` for this guest's next game of `tournament`; `onGame(table, round)`
 * is called when one is ready. Returns the function that stops listening.
 */
export function watchTournament(room, tournament, onGame) {
  const socket = new LiveSocket(`/ws/rooms/${encodeURIComponent(room)}`, {
    onMessage: (msg) => {
      if (msg.t === 'tournament_game' && msg.tournament === tournament) onGame(msg.table, msg.round);
    },
  });
  return () => socket.close();
}
