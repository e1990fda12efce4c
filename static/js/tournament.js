// The tournament page (`#/tournament/{id}`): who plays, the rounds with links to the live
// tables and the replays, the standings with their tie-breaks, join / leave / start, and
// the player's own game one click away. Live: it listens on the tournament's room socket,
// fetches the tournament again whenever its summary changes there, and goes to the
// player's table when the server sends them to it.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { href } from './router.js';
import { nameTag, playerName } from './playnow.js';
import { LiveSocket } from './socket.js';
import { tournamentState } from './tournamentlist.js';
import { canJoin, canLeave, canStart, isIn, matchScore, myGame, nextPairing, score, tiebreak, tournamentLabel, winnerLine } from './tournaments.js';
import { ballotFlag, ballotLine } from './ballot.js';

/** Mounts the tournament page; returns its unmount function. */
export function mount(root, { id, ctx }) {
  const { t } = ctx;
  let x = null;
  let fetchedAt = Date.now();
  let socket = null;
  let error = null;
  let busy = false;
  let loading = null;
  let again = false;

  const head = h('section', { class: 'card t-head' });
  const players = h('section', { class: 'card t-players' });
  const standings = h('section', { class: 'card t-standings', 'data-standings': '' });
  const rounds = h('section', { class: 't-rounds', 'data-rounds': '' });
  replace(root, h('div', { class: 'tournament-page', 'data-tournament': id },
    head,
    h('div', { class: 't-cols' }, h('div', { class: 't-left' }, standings, players), rounds)));
  replace(head, h('p', {}, t('connecting')));

  async function load() {
    // One request at a time; a change meanwhile asks for one more.
    if (loading) {
      again = true;
      return loading;
    }
    loading = (async () => {
      do {
        again = false;
        try {
          x = await api.tournament(id);
          fetchedAt = Date.now();
          error = null;
        } catch (err) {
          error = t(`error.${err.code}`);
        }
      } while (again);
      loading = null;
      listen();
      draw();
    })();
    return loading;
  }

  function listen() {
    if (socket || !x) return;
    socket = new LiveSocket(`/ws/rooms/${encodeURIComponent(x.room)}`, {
      onMessage: (msg) => {
        if (msg.t === 'tournament_game' && msg.tournament === id) {
          ctx.go('table', msg.table);
          return;
        }
        const changed = (msg.t === 'tournament_updated' || msg.t === 'tournament_added') && msg.tournament.id === id;
        // A fresh snapshot after a reconnect may hide changes made meanwhile.
        if (changed || msg.t === 'room') load();
      },
    });
  }

  async function act(what) {
    if (busy) return;
    busy = true;
    error = null;
    try {
      x = await api.tournamentAction(id, what);
      fetchedAt = Date.now();
    } catch (err) {
      error = t(`error.${err.code}`);
    }
    busy = false;
    draw();
  }

  function draw() {
    if (!x) {
      replace(head, error ? h('p', { class: 'error' }, error) : h('p', {}, t('connecting')));
      return;
    }
    const me = ctx.me?.id ?? null;
    const mine = myGame(x, me);
    const note = t(`tournament.tiebreaks.${x.kind}`);
    replace(head,
      h('p', { class: 'back' }, h('a', { href: href('room', x.room) }, `← ${t('nav.back_room')}`)),
      h('h1', {}, tournamentLabel(t, x)),
      h('p', { class: 'lead' },
        `${t(`tournament.kind.${x.kind}`)} · ${t('options.time', { minutes: x.minutes, increment: x.increment })} · `,
        h('span', { 'data-tournament-status': x.status }, tournamentState(t, x, Date.now(), fetchedAt))),
      h('p', { class: 'meta' },
        t('tournament.created_by', { name: playerName(t, x.created_by) }), ' · ',
        t('tournament.places', { n: x.players.length, max: x.max_players }),
        x.bots ? ` · ${t('tournament.with_bots', { n: x.bot_level ?? 1 })}` : '',
        x.rated ? [' · ', h('span', { class: 'badge rated', 'data-rated': '' }, t('option.rated'))] : null,
        x.ballot ? [' · ', h('span', { 'data-t-ballot': x.ballot }, ballotFlag(t, x.ballot))] : null,
        x.micro_match ? [' · ', h('span', { class: 'badge', 'data-t-micro': '' }, t('option.micro_match'))] : null,
        ' · ', t('tournament.scoring'), ' ', note),
      x.status === 'over' && winnerLine(t, x, (p) => playerName(t, p))
        ? h('p', { class: 'winner', 'data-winner': '' }, winnerLine(t, x, (p) => playerName(t, p)))
        : null,
      x.next_round ? nextRoundNote(me) : null,
      mine
        ? h('a', { class: 'btn primary next-game', href: href('table', mine.table), 'data-next-game': mine.table },
          t('tournament.your_game', { round: mine.round, name: playerName(t, mine.opponent) }))
        : x.status === 'running' && !x.next_round && isIn(x, me) && !x.standings.some((l) => l.player.id === me && l.withdrawn)
          ? h('p', { class: 'note', 'data-waiting-round': '' },
            x.rounds[x.rounds.length - 1]?.bye?.id === me ? t('tournament.your_bye') : t('tournament.waiting_round'))
          : null,
      h('div', { class: 'actions' },
        canJoin(x, me, !!ctx.me?.account) ? h('button', { class: 'btn primary', 'data-action': 'join-tournament', onclick: () => act('join') }, t('action.join'))
          : canJoin(x, me) ? h('span', { class: 'rated-note', 'data-rated-join': '' }, t('rated.join_guest')) : null,
        canStart(x, me) ? h('button', { class: 'btn', 'data-action': 'start-tournament', onclick: () => act('start') }, t('action.start_now')) : null,
        canLeave(x, me) ? h('button', { class: 'btn danger', 'data-action': 'leave-tournament', onclick: () => act('leave') }, t('action.leave')) : null,
      ),
      error ? h('p', { class: 'error', role: 'alert' }, error) : null,
    );
    drawStandings(me);
    drawPlayers(me);
    drawRounds(me);
  }

  /** The break between rounds: who plays whom next, and in how many seconds. */
  function nextRoundNote(me) {
    const left = Math.max(0, Math.ceil(((x.next_round_in_ms ?? 0) - (Date.now() - fetchedAt)) / 1000));
    const n = nextPairing(x, me);
    const what = n
      ? (n.bye ? t('next.bye', { n: n.round }) : t('next.round', { n: n.round, color: t(`next.round.${n.color}`), name: playerName(t, n.opponent) }))
      : t('tournament.round', { n: x.next_round.number });
    return h('p', { class: 'next-round', 'data-next-round': String(x.next_round.number), 'data-starts-in': String(left) },
      h('strong', {}, what), ' · ', left > 0 ? t('next.starts_in', { s: left }) : t('next.starting'));
  }

  function drawStandings(me) {
    if (!x.standings.length) {
      standings.hidden = true;
      return;
    }
    standings.hidden = false;
    const swiss = x.kind === 'swiss';
    replace(standings,
      h('h2', {}, t('tournament.standings')),
      h('div', { class: 'table-scroll' },
        h('table', { class: 'standings' },
          h('thead', {}, h('tr', {},
            h('th', { scope: 'col' }, '#'),
            h('th', { scope: 'col', class: 'player' }, t('tournament.col.player')),
            h('th', { scope: 'col', title: t('tournament.col.points_long') }, t('tournament.col.points')),
            h('th', { scope: 'col', title: t('tournament.col.games_long') }, t('tournament.col.games')),
            swiss ? h('th', { scope: 'col', title: 'Buchholz' }, t('tournament.col.bh')) : null,
            h('th', { scope: 'col', title: 'Sonneborn-Berger' }, t('tournament.col.sb')),
            h('th', { scope: 'col', title: t('tournament.col.wins_long') }, t('tournament.col.wins')),
          )),
          h('tbody', {}, x.standings.map((l) => h('tr', { class: l.player.id === me ? 'mine' : null, 'data-standing': l.player.id, 'data-points': String(l.points) },
            h('td', {}, String(l.rank)),
            h('td', { class: 'player' }, nameTag(t, l.player, { link: true }), l.withdrawn ? h('span', { class: 'meta withdrawn' }, `(${t('tournament.withdrawn')})`) : null),
            h('td', { class: 'points' }, String(l.points)),
            h('td', {}, String(l.games)),
            swiss ? h('td', {}, tiebreak(l.tiebreaks.buchholz)) : null,
            h('td', {}, tiebreak(l.tiebreaks.sonneborn_berger)),
            h('td', {}, tiebreak(l.tiebreaks.wins)),
          ))),
        )),
      // What the columns mean (their titles are never seen on a phone).
      h('p', { class: 'legend meta', 'data-standings-legend': '' }, t('tournament.legend'), swiss ? ` ${t('tournament.legend_bh')}` : ''));
  }

  function drawPlayers(me) {
    players.hidden = x.status !== 'open';
    if (players.hidden) return;
    replace(players,
      h('h2', {}, t('tournament.players')),
      h('ol', { class: 'entrants', 'data-entrants': '' }, x.players.map((p) =>
        h('li', { class: p.id === me ? 'mine' : null, 'data-entrant': p.id }, nameTag(t, p, { link: true })))));
  }

  function drawRounds(me) {
    if (!x.rounds.length) {
      replace(rounds);
      return;
    }
    replace(rounds, [...x.rounds].reverse().map((r) =>
      h('section', { class: 'card round', 'data-round': String(r.number) },
        h('h2', {}, t('tournament.round', { n: r.number })),
        ballotLine(t, r.opening ?? null),
        h('ul', { class: 'pairings' },
          r.pairings.map((p, i) => {
            const mineRow = p.white.id === me || p.black.id === me;
            const s = score(p);
            // After a micro-match's second game: the match's score.
            const match = p.match_game === 2 ? matchScore(r.pairings[i - 1], p) : null;
            return h('li', { class: mineRow ? 'mine' : null, 'data-board': String(p.board) },
              h('span', { class: 'board-no' }, `${p.board}.`),
              p.match_game ? h('span', { class: 'meta match-game', 'data-match-game': String(p.match_game) }, t('tournament.match_game', { n: p.match_game })) : null,
              h('span', { class: 'pair' },
                h('span', { class: 'swatch white', 'aria-hidden': 'true' }), nameTag(t, p.white),
                ' – ',
                h('span', { class: 'swatch black', 'aria-hidden': 'true' }), nameTag(t, p.black)),
              h('span', { class: 'outcome' },
                s ? h('strong', { 'data-score': s }, s) : null,
                p.reason === 'forfeit' ? h('span', { class: 'meta' }, ` ${t('tournament.forfeit')}`) : null,
                !s && p.table ? h('a', { class: 'btn small', href: href('table', p.table), 'data-action': mineRow ? 'play' : 'watch' }, mineRow ? t('tournament.play') : t('action.watch')) : null,
                s && p.game ? h('a', { class: 'replay', href: href('game', p.game) }, t('action.replay')) : null,
                match
                  ? h('span', { class: 'meta match-score', 'data-match-score': match }, ` ${t('tournament.match_score', { score: match })}`)
                  : null,
              ));
          }),
          r.bye ? h('li', { class: 'bye' }, t('tournament.bye', { name: playerName(t, r.bye) })) : null,
        ))));
  }

  load();
  // Start times count down.
  const ticker = setInterval(() => {
    if ((x?.status === 'open' && x.starts_in_ms != null) || x?.next_round) draw();
  }, 1000);
  return () => {
    clearInterval(ticker);
    socket?.close();
  };
}
