// HTTP access to the server's JSON API (docs/protocol.md). Every failure is thrown as an
// ApiError carrying the protocol's error code, so pages can show a translated message.

/** An HTTP or network failure with the protocol's `code` (`network` when unreachable). */
export class ApiError extends Error {
  constructor(code, message, status, retryAfter = null) {
    super(message || code);
    this.code = code;
    this.status = status;
    // Seconds to wait before trying again (`Retry-After` of a `429`), when given.
    this.retryAfter = retryAfter;
  }
}

/** Longest `Retry-After` a lookup waits for by itself before it reports "busy". */
const RETRY_WITHIN_S = 5;

/**
 * A request; a GET refused for a moment (`429` with a short `Retry-After`: the server's
 * lookups are busy) is sent again after the wait, twice at most, so a busy server shows
 * as a short delay rather than an error.
 */
async function request(method, path, body, tries = 2) {
  try {
    return await once(method, path, body);
  } catch (err) {
    if (method !== 'GET' || tries <= 0 || err.status !== 429 || !err.retryAfter || err.retryAfter > RETRY_WITHIN_S) throw err;
    await new Promise((resolve) => setTimeout(resolve, err.retryAfter * 1000));
    return request(method, path, body, tries - 1);
  }
}

async function once(method, path, body) {
  // The server refuses a POST whose body is not declared JSON (its guard against
  // cross-site forms), so every POST sends a JSON body, `{}` when there is nothing to say.
  if (method === 'POST' && body === undefined) body = {};
  let res;
  try {
    res = await fetch(path, {
      method,
      credentials: 'same-origin',
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError('network', String(err?.message ?? err), 0);
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }
  if (!res.ok) {
    const e = data?.error;
    const wait = Number(res.headers.get('Retry-After'));
    throw new ApiError(e?.code ?? `http_${res.status}`, e?.message ?? res.statusText, res.status,
      Number.isFinite(wait) && wait > 0 ? wait : null);
  }
  return data;
}

/**
 * Gets the guest of this browser: `POST /api/guest` returns the cookie's guest, or
 * creates one (and sets its cookie) on the first visit, in one request.
 */
export function ensureGuest() {
  return request('POST', '/api/guest');
}

/** Renames the guest. Fails with `invalid_name`. */
export function renameGuest(name) {
  return request('POST', '/api/guest', { name });
}

let variantsPromise = null;

/** The variants with their board geometry; fetched once per page load. */
export function variants() {
  variantsPromise ??= request('GET', '/api/variants').catch((err) => {
    variantsPromise = null;
    throw err;
  });
  return variantsPromise;
}

/** One variant by id (geometry for the board). */
export async function variant(id) {
  const list = await variants();
  const found = list.find((v) => v.id === id);
  if (!found) throw new ApiError('not_found', `variant ${id}`, 404);
  return found;
}

const ballotsPromises = new Map();
/**
 * A variant's opening ballots, its default set first (`GET /api/ballots/{variant}`);
 * fetched once per variant and page load.
 */
export function ballots(variant) {
  if (!ballotsPromises.has(variant)) {
    ballotsPromises.set(variant, request('GET', `/api/ballots/${encodeURIComponent(variant)}`).catch((err) => {
      ballotsPromises.delete(variant);
      throw err;
    }));
  }
  return ballotsPromises.get(variant);
}

/** The rooms of the server. */
export const rooms = () => request('GET', '/api/rooms');
/** One room with its tables. */
export const room = (id) => request('GET', `/api/rooms/${encodeURIComponent(id)}`);
/** Recent finished games of a room, newest first. */
export const roomGames = (id, limit = 10) =>
  request('GET', `/api/rooms/${encodeURIComponent(id)}/games?limit=${limit}`);
/** Creates a table; the creator is seated. */
export const createTable = (roomId, options) =>
  request('POST', `/api/rooms/${encodeURIComponent(roomId)}/tables`, options);
/** One table. */
export const table = (id) => request('GET', `/api/tables/${encodeURIComponent(id)}`);
/** A stored game with every move and the position after it. */
export const game = (id) => request('GET', `/api/games/${encodeURIComponent(id)}`);
/** The room's tournaments (summaries). */
export const roomTournaments = (id) => request('GET', `/api/rooms/${encodeURIComponent(id)}/tournaments`);
/** Creates a tournament in a room; the creator is its first entrant. */
export const createTournament = (roomId, options) =>
  request('POST', `/api/rooms/${encodeURIComponent(roomId)}/tournaments`, options);
/** One tournament with its rounds and standings. */
export const tournament = (id) => request('GET', `/api/tournaments/${encodeURIComponent(id)}`);
/** Joins, leaves or (the creator) starts a tournament: `what` is `join`, `leave` or `start`. */
export const tournamentAction = (id, what) =>
  request('POST', `/api/tournaments/${encodeURIComponent(id)}/${what}`);
/** The URL of a stored game's PDN. */
export const pdnUrl = (id) => `/api/games/${encodeURIComponent(id)}/pdn`;

/** The session's player with its account (`null` for a guest) and ratings. */
export const me = () => request('GET', '/api/me');
/**
 * The guest becomes an account (same id, games kept) with a fresh session. Fails with
 * `username_taken`, `invalid_username`, `weak_password`, `already_account`, `rate_limited`.
 */
export const signUp = (username, password) => request('POST', '/api/account', { username, password });
/** Signs in (a fresh session). Fails with `bad_credentials` or `rate_limited`. */
export const signIn = (username, password) => request('POST', '/api/session', { username, password });
/** Ends this session, or every session of the account with `all`. */
export const signOut = (all = false) => request('DELETE', `/api/session${all ? '?all=true' : ''}`);
/** A new password (every other session ends). Fails with `bad_credentials`, `weak_password`. */
export const changePassword = (old, nw) => request('POST', '/api/account/password', { old, new: nw });
/** An account's public profile. */
export const profile = (username) => request('GET', `/api/players/${encodeURIComponent(username)}`);
/** A page of a player's finished games, newest first, older than game `before`. */
export const playerGames = (username, before, limit = 20) =>
  request('GET', `/api/players/${encodeURIComponent(username)}/games?limit=${limit}${before ? `&before=${encodeURIComponent(before)}` : ''}`);
/** The URL of all of an account's games as one PDN. */
export const playerPdnUrl = (username) => `/api/players/${encodeURIComponent(username)}/pdn`;
/** The established accounts of a variant, best first. */
export const leaderboard = (variant) => request('GET', `/api/leaderboard/${encodeURIComponent(variant)}`);
/** Asks for a finished game's analysis: `{status}` (the same job every time). */
export const requestAnalysis = (id) => request('POST', `/api/games/${encodeURIComponent(id)}/analysis`);
/** A game's analysis as it stands: `{status, plies, accuracy}`. */
export const analysis = (id) => request('GET', `/api/games/${encodeURIComponent(id)}/analysis`);
/** An analysed game's mistakes and blunders to try again: `{positions: [{ply, color, fen, legal, played, judgement, best}]}`. */
export const mistakes = (id) => request('GET', `/api/games/${encodeURIComponent(id)}/mistakes`);
/** A move tried instead of the mistake at `ply`: `{ok, judgement, eval|win}`. */
export const tryInstead = (id, ply, move) =>
  request('POST', `/api/games/${encodeURIComponent(id)}/mistakes/${ply}`, { move });
/** One position's analysis: `{best, eval|win, pv, depth}`. */
export const analysePosition = (variant, fen) =>
  request('GET', `/api/analyse?variant=${encodeURIComponent(variant)}&fen=${encodeURIComponent(fen)}`);
/** A pasted PDN game replayed by the server: its moves with the position after each. */
export const analysePdn = (pdn, variant) => request('POST', '/api/analyse/pdn', { pdn, variant });
/** The URL of a stored game's PDN with its analysis. */
export const annotatedPdnUrl = (id) => `${pdnUrl(id)}?annotate=true`;

/** The server's VAPID public key (base64url) for Web Push subscriptions. */
export const pushKey = () => request('GET', '/api/push/key');
/** Registers this browser's push subscription (`PushSubscription.toJSON()`) for the account. */
export const pushSubscribe = (sub) => request('POST', '/api/push/subscribe', sub);
/** Forgets this browser's push subscription. */
export const pushUnsubscribe = (endpoint) => request('DELETE', '/api/push/subscribe', { endpoint });
/** Which notifications the account wants: `{your_turn, offers, game_end, time_low}`. */
export const pushSettings = () => request('GET', '/api/push/settings');
/** Changes which notifications the account wants. */
export const setPushSettings = (s) => request('PUT', '/api/push/settings', s);
/** An account keeps its client language (`null`: the browser's). */
export const setLanguage = (language) => request('PUT', '/api/account/language', { language });
/** How many puzzles each variant has (and of each theme). */
export const puzzleCounts = () => request('GET', '/api/puzzles');
/** The next puzzle of a variant for this player (never one they played). */
export const nextPuzzle = (variant, theme = null) =>
  request('GET', `/api/puzzles/next?variant=${encodeURIComponent(variant)}${theme ? `&theme=${encodeURIComponent(theme)}` : ''}`);
/** The day's puzzle of a variant. */
export const dailyPuzzle = (variant) => request('GET', `/api/puzzles/daily?variant=${encodeURIComponent(variant)}`);
/** One puzzle. */
/** A puzzle streak of a variant: `{variant, puzzles: [id, ..]}`, easiest first (unrated). */
export const puzzleStreak = (variant) => request('GET', `/api/puzzles/streak?variant=${encodeURIComponent(variant)}`);
export const puzzle = (id) => request('GET', `/api/puzzles/${encodeURIComponent(id)}`);
/** The solver's moves so far: the server's answer (ok, replies, solved, fen, legal). */
export const puzzleMove = (id, moves) => request('POST', `/api/puzzles/${encodeURIComponent(id)}/move`, { moves });
/** The first try's result: the puzzle rating before and after, and the solution. */
export const puzzleResult = (id, solved) => request('POST', `/api/puzzles/${encodeURIComponent(id)}/result`, { solved });
/** The featured game of each variant (the start page's "Live now"). */
export const featured = () => request('GET', '/api/featured');
/** This player's games in progress, the ones where it is their move first. */
export const myGames = () => request('GET', '/api/me/games');
