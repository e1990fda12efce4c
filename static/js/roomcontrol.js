// The room page's controller: what each message of the room socket does to the page (the
// room, its tables, people, chat, tournaments and the invitations received), with a
// handler per message type. Pure: it touches no DOM, sends nothing and reads no storage
// (who this viewer is and whom they muted come in `env`); it returns which panels to
// redraw and what else the page must do, and room.js carries that out
// (e2e/unit/roomcontrol.test.mjs).
//
// Effects, `{do: …}`:
// - `draw`: the whole page; `stats`: the head's player count only; `people`: the people
//   list; `invitations`: the invitations received; `chat`: the room chat;
//   `tournaments`: the room's tournaments (the list's message cleared);
// - `room`: a new snapshot (the variant remembered, the create form and the play card);
// - `go` `{table}`: off to a table (paired in a tournament);
// - `chatError` / `inviteError` `{code, message}`: a chat line or an invitation refused;
// - `inviteSent` `{name}`: this viewer's invitation went out;
// - `sound` `{name}`; `loadGames`: the recent games changed (a game just ended).

import { addChat, applyPeople } from './chat.js';
import { applyTournaments } from './tournaments.js';

/** A room page before its first message. */
export function roomPage() {
  return {
    room: null,
    players: 0,
    tables: new Map(),
    people: [],
    chat: [],
    chatAcks: new Set(),
    inviteAcks: new Set(),
    // Invitations received, newest last (see invite.js).
    invitations: [],
    tournaments: [],
  };
}

/**
 * What the room socket's message `msg` does to `page`.
 * @param {object} page the page's state (changed in place)
 * @param {object} msg a parsed server message
 * @param {{me: string|null, muted: Set<string>, soundOff: boolean}} env this viewer's id,
 *   the people they muted, whether sounds are off
 * @returns {object[]} the effects, in order
 */
export function receive(page, msg, env) {
  if (msg.t === 'tournament_game') return [{ do: 'go', table: msg.table }];
  const fx = [];
  const tournaments = applyTournaments(page.tournaments, msg);
  if (tournaments) {
    page.tournaments = tournaments;
    fx.push({ do: 'tournaments' });
    if (msg.t !== 'room') return fx;
  }
  const people = applyPeople(page.people, msg);
  if (people) page.people = people;
  const handle = ON[msg.t];
  if (handle) handle(page, msg, env, fx);
  return fx;
}

const ON = {
  room(page, msg, _env, fx) {
    page.room = msg.room;
    page.players = msg.players ?? 0;
    page.tables.clear();
    for (const tb of msg.tables ?? []) page.tables.set(tb.id, tb);
    page.chat = addChat([], msg.chat ?? []);
    fx.push({ do: 'room' }, { do: 'chat' }, { do: 'draw' });
  },

  /** The next page of a big room's snapshot. */
  room_tables(page, msg, _env, fx) {
    for (const tb of msg.tables ?? []) page.tables.set(tb.id, tb);
    fx.push({ do: 'draw' });
  },

  table_added: tableChanged,
  table_updated: tableChanged,

  table_removed(page, msg, _env, fx) {
    page.tables.delete(msg.table.id);
    fx.push({ do: 'draw' });
  },

  presence(page, msg, _env, fx) {
    page.players = msg.players ?? page.players;
    fx.push({ do: 'stats' });
  },

  chat(page, msg, _env, fx) {
    page.chat = addChat(page.chat, [msg]);
    fx.push({ do: 'chat' });
  },

  people_joined: peopleChanged,
  people_left: peopleChanged,
  people_updated: peopleChanged,

  invited(page, msg, env, fx) {
    if (msg.from?.id === env.me) {
      fx.push({ do: 'inviteSent', name: msg.to?.name ?? '' });
      return;
    }
    // Someone this player muted cannot invite them either.
    if (msg.to?.id !== env.me || env.muted.has(String(msg.from?.id))) return;
    // One invitation per table: a repeated one replaces the older.
    page.invitations = page.invitations.filter((x) => x.table?.id !== msg.table?.id).concat([msg]);
    fx.push({ do: 'invitations' });
    if (!env.soundOff) fx.push({ do: 'sound', name: 'offer' });
  },

  error(page, msg, _env, fx) {
    const what = { code: msg.code, message: msg.message ?? '' };
    if (page.chatAcks.delete(msg.ack)) fx.push({ do: 'chatError', ...what });
    else if (page.inviteAcks.delete(msg.ack)) fx.push({ do: 'inviteError', ...what });
  },
};

function tableChanged(page, msg, _env, fx) {
  // A game that just ended shows up in the recent games.
  if (page.tables.get(msg.table.id)?.game?.status === 'playing' && msg.table.game?.status === 'over') fx.push({ do: 'loadGames' });
  page.tables.set(msg.table.id, msg.table);
  fx.push({ do: 'draw' });
}

function peopleChanged(_page, _msg, _env, fx) {
  fx.push({ do: 'people' });
}
