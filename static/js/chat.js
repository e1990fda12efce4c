// Chat and people, the pure part: the message log (history from `room`/`state`, live
// `chat` events), the 300-character limit, the people muted by this player (remembered
// in localStorage), spectators' table chat kept apart during a game, and the room's
// people list kept current by `people_joined` / `people_left` / `people_updated`.
// Contract: docs/protocol.md (chat, people, claims, rematch, takeback).

/** The server's limit, after trimming. */
export const CHAT_MAX = 300;
/** Messages kept on screen. */
export const CHAT_KEEP = 100;
const MUTE_KEY = 'damka.muted';

/** The text to send, or null when it would be refused (empty or too long). */
export function chatText(raw) {
  const text = String(raw ?? '').trim();
  if (!text || [...text].length > CHAT_MAX) return null;
  return text;
}

/**
 * Adds messages to a log: by `id`, so a message seen twice (history and a live event
 * after a reconnect) shows once; in the order the server sent them; the last CHAT_KEEP.
 * @param {object[]} log
 * @param {object[]} messages `{id, from, text, at}`
 */
export function addChat(log, messages) {
  const seen = new Set(log.map((m) => m.id));
  const out = [...log];
  for (const m of messages ?? []) {
    if (!m || seen.has(m.id)) continue;
    seen.add(m.id);
    out.push(m);
  }
  return out.slice(-CHAT_KEEP);
}

/**
 * Splits a table's chat into the players' and the spectators' messages: the server marks
 * a spectator's message during a game with `spectators: true` (only spectators get it).
 * @param {object[]} log
 */
export function splitChat(log) {
  const out = { players: [], spectators: [] };
  for (const m of log) (m.spectators === true ? out.spectators : out.players).push(m);
  return out;
}

/** The muted people's ids. */
export function mutedIds(storage = globalThis.localStorage) {
  try {
    const v = JSON.parse(storage?.getItem(MUTE_KEY) ?? '[]');
    return new Set(Array.isArray(v) ? v.map(String) : []);
  } catch {
    return new Set();
  }
}

/** Mutes or unmutes a person for this player; returns the new set. */
export function setPersonMuted(id, muted, storage = globalThis.localStorage) {
  const ids = mutedIds(storage);
  if (muted) ids.add(String(id));
  else ids.delete(String(id));
  try {
    storage?.setItem(MUTE_KEY, JSON.stringify([...ids]));
  } catch {
    // Not remembered: the switch holds for this page.
  }
  return ids;
}

/** The messages to show: without those of muted people. */
export function visibleChat(log, muted) {
  return log.filter((m) => !muted.has(String(m.from?.id)));
}

/**
 * Applies a room socket message to the people list; returns the new list, or null when
 * the message is not about people.
 * @param {object[]} people `[{id, name, where, table}]`
 */
export function applyPeople(people, msg) {
  switch (msg?.t) {
    case 'room':
      return [...(msg.people ?? [])];
    case 'people_joined':
    case 'people_updated': {
      const p = msg.person ?? msg.people ?? msg.player;
      const list = Array.isArray(p) ? p : [p];
      const byId = new Map(people.map((x) => [x.id, x]));
      for (const x of list) if (x?.id) byId.set(x.id, { ...byId.get(x.id), ...x });
      return [...byId.values()];
    }
    case 'people_left': {
      const ids = new Set([msg.id, msg.person?.id, ...(msg.ids ?? [])].filter(Boolean));
      return people.filter((x) => !ids.has(x.id));
    }
    default:
      return null;
  }
}

/** People sorted for the list: playing, then at a table, then in the room; by name. */
export function sortPeople(people) {
  const rank = { playing: 0, table: 1, room: 2 };
  return [...people].sort((a, b) => (rank[a.where] ?? 3) - (rank[b.where] ?? 3) || String(a.name).localeCompare(String(b.name)));
}

/**
 * Seconds left before a claim is allowed, from the state's `claim_at` (ms until a claim
 * is allowed, or null) and the time it arrived.
 * @returns {number|null} null: no claim pending; 0: the claim buttons show
 */
export function claimLeft(claim, now) {
  if (!claim || typeof claim.ms !== 'number') return null;
  return Math.max(0, Math.ceil((claim.ms - (now - claim.at)) / 1000));
}
