// Tournaments as the client keeps and shows them: the room's list from the room socket,
// a tournament's label, and the player's place in it (may join, leave, start; the game to
// play now). Pure: no DOM, unit-tested (e2e/unit/tournaments.test.mjs).

/**
 * The room's tournament list after a room-socket message, or `null` when the message is
 * not about tournaments. `room` brings the whole list; `tournament_added` and
 * `tournament_updated` carry one tournament's summary, which replaces the listed one.
 */
export function applyTournaments(list, msg) {
  switch (msg?.t) {
    case 'room':
      return [...(msg.tournaments ?? [])];
    case 'tournament_added':
    case 'tournament_updated': {
      const next = list.filter((x) => x.id !== msg.tournament.id);
      const at = list.findIndex((x) => x.id === msg.tournament.id);
      next.splice(at < 0 ? next.length : at, 0, msg.tournament);
      return next;
    }
    default:
      return null;
  }
}

/** Open and running tournaments first (newest first), then the finished ones. */
export function sortTournaments(list) {
  const order = { running: 0, open: 1, over: 2 };
  return list
    .map((x, i) => ({ x, i }))
    .sort((a, b) => (order[a.x.status] ?? 3) - (order[b.x.status] ?? 3) || b.i - a.i)
    .map(({ x }) => x);
}

/** The tournament's name, or its system and clock ("Swiss 5+3"). */
export function tournamentLabel(t, x) {
  return x.name || `${t(`tournament.kind.${x.kind}`)} ${x.minutes}+${x.increment}`;
}

/** Whether guest `me` is an entrant. */
export function isIn(x, me) {
  return !!me && (x.players ?? []).some((p) => p.id === me);
}

/** Whether guest `me` has left the running tournament (their standing says so). */
export function hasLeft(x, me) {
  return (x.standings ?? []).some((l) => l.player.id === me && l.withdrawn);
}

/**
 * Whether `me` may join now: open, a place free, not in it, and (for a rated tournament)
 * an account: `account` says whether the viewer is one.
 */
export function canJoin(x, me, account = true) {
  return !!me && x.status === 'open' && !isIn(x, me) && (x.players?.length ?? 0) < x.max_players
    && !(x.rated && !account);
}

/** Whether `me` may leave: in it, not over, not left already. */
export function canLeave(x, me) {
  return isIn(x, me) && x.status !== 'over' && !hasLeft(x, me);
}

/** Whether `me` may start it now: its creator, while open. */
export function canStart(x, me) {
  return !!me && x.status === 'open' && x.created_by?.id === me;
}

/**
 * The game `me` is to play now: the pairing of the current round with them and no
 * result yet, as `{table, round, color, opponent}`; `null` if none.
 */
export function myGame(x, me) {
  const round = x.rounds?.[x.rounds.length - 1];
  if (!round || !me || x.status !== 'running') return null;
  for (const p of round.pairings) {
    if (p.result != null || p.reason != null || !p.table) continue;
    if (p.white.id === me) return { table: p.table, round: round.number, color: 'white', opponent: p.black };
    if (p.black.id === me) return { table: p.table, round: round.number, color: 'black', opponent: p.white };
  }
  return null;
}

/** A board's score in draughts points ("2–0", "1–1", "0–2"), or null while played. */
export function score(p) {
  switch (p.result) {
    case 'white': return '2–0';
    case 'black': return '0–2';
    case 'draw': return '1–1';
    default: return p.reason ? '0–0' : null;
  }
}

/**
 * A micro-match's score from its first game's White's side ("1½–½", "2–0", "1–1"), from
 * its two boards (the second with the colours swapped); null until both are decided.
 */
export function matchScore(first, second) {
  if (!first || !second || first.reason == null || second.reason == null) return null;
  // Half points of the first game's White: a win 2, a draw 1, in each game.
  const halves = (p, mine) => (p.result === mine ? 2 : p.result === 'draw' ? 1 : 0);
  const theirs = (p, mine) => (p.result && p.result !== 'draw' && p.result !== mine ? 2 : p.result === 'draw' ? 1 : 0);
  const a = halves(first, 'white') + halves(second, 'black');
  const b = theirs(first, 'white') + theirs(second, 'black');
  const show = (n) => (n % 2 ? `${n === 1 ? '' : (n - 1) / 2}½` : String(n / 2));
  return `${show(a)}–${show(b)}`;
}

/** "m:ss" (or "h:mm:ss") of a countdown in ms. */
export function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const pad = (n) => String(n).padStart(2, '0');
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

/** The tie-break value shown for a standing (Sonneborn-Berger keeps its half). */
export function tiebreak(v) {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

/**
 * `me`'s pairing in the round about to start (`next_round`, during the server's break
 * between rounds) as `{round, color, opponent, bye}`; `null` if not paired in it.
 */
export function nextPairing(x, me) {
  const r = x?.next_round;
  if (!r || !me) return null;
  if (r.bye?.id === me) return { round: r.number, color: null, opponent: null, bye: true };
  for (const p of r.pairings ?? []) {
    if (p.white.id === me) return { round: r.number, color: 'white', opponent: p.black, bye: false };
    if (p.black.id === me) return { round: r.number, color: 'black', opponent: p.white, bye: false };
  }
  return null;
}

const TIEBREAKS = { round_robin: ['sonneborn_berger', 'wins'], swiss: ['buchholz', 'sonneborn_berger', 'wins'] };

/**
 * The winner line of a finished tournament: the winner; or, with a tie on points at the
 * top, who shares first place and which tie-break decided it (with the values); or that
 * they share it, every tie-break being equal. `null` when there is nothing to say
 * (not over, cancelled, no standings). `playerName` names a player.
 */
export function winnerLine(t, x, name = (p) => p.name) {
  if (x?.status !== 'over' || x.cancelled || !x.standings?.length) return null;
  const top = x.standings[0];
  const tied = x.standings.filter((l) => l.points === top.points);
  const list = (ls) => {
    const names = ls.map((l) => name(l.player));
    return names.length > 1 ? `${names.slice(0, -1).join(', ')}${t('winner.and')}${names.at(-1)}` : names[0];
  };
  if (tied.length === 1) return t('winner.one', { name: name(top.player), points: top.points });
  const shared = tied.filter((l) => l.rank === top.rank);
  if (shared.length === tied.length) return t('winner.shared', { names: list(tied), points: top.points });
  // The first tie-break (in the system's order) on which the leader differs from the
  // next of the tied players decided it.
  const second = tied.find((l) => l.rank !== top.rank);
  const key = TIEBREAKS[x.kind]?.find((k) => top.tiebreaks?.[k] !== second.tiebreaks?.[k]) ?? TIEBREAKS[x.kind]?.[0];
  if (shared.length > 1) return t('winner.shared', { names: list(shared), points: top.points });
  return t('winner.decided', {
    names: list(tied),
    points: top.points,
    tiebreak: t(`tiebreak.${key}`),
    name: name(top.player),
    values: tied.map((l) => tiebreak(l.tiebreaks?.[key] ?? 0)).join(' – '),
  });
}
