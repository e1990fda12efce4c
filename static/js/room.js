// The room page: the live list of tables over the room socket, the create-table form,
// sit / watch, recent games with replay links, and the variant's rules page. Also the
// room's tournaments (tournamentlist.js): a player paired in one is sent to their table.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { rememberVariant } from './homevariant.js';
import { resultText } from './tableview.js';
import { href } from './router.js';
import { LiveSocket } from './socket.js';
import { nameTag, playCard, playerName } from './playnow.js';
import { sortPeople } from './chat.js';
import { chatPanel } from './chatpanel.js';
import { mutedIds } from './chat.js';
import { freeSeat, invitable, invitationCard, inviteButton, inviteTable, stillOpen } from './invite.js';
import * as sound from './sound.js';
import { receive, roomPage } from './roomcontrol.js';
import { seatRefusal } from './ratings.js';
import { CORRESPONDENCE_DAYS } from './clock.js';
import { createTournamentForm, tournamentRows } from './tournamentlist.js';
import { ballotFlag } from './ballot.js';

/** Mounts a room page; returns its unmount function. */
export function mount(root, { id, ctx }) {
  const { t } = ctx;
  // The room as the socket tells it (roomcontrol.js), and the page's own.
  const page = roomPage();
  const rowCache = new Map();
  let online = false;
  let nextAck = 1;
  const tournamentList = h('ul', { class: 'tournaments', 'data-tournaments': '' });
  const tournamentMsg = h('p', { class: 'form-msg error', role: 'alert' });

  const title = h('h1', {}, t('room'));
  const rulesLine = h('p', { class: 'lead' });
  const stats = h('p', { class: 'meta', role: 'status' });
  const list = h('ul', { class: 'tables', 'data-tables-list': '' });
  const games = h('ul', { class: 'games' });
  const formBox = h('div', { class: 'create card' });
  const playBox = h('div', { class: 'play-slot' });
  const peopleList = h('ul', { class: 'people-list', 'data-people': '' });
  const inviteNote = h('p', { class: 'form-msg', role: 'status', 'data-invite-note': '' });
  const peopleBox = h('section', { class: 'card people', hidden: true }, h('h2', {}, t('people.title')), peopleList, inviteNote);
  const invitationsBox = h('div', { class: 'invitations', 'data-invitations': '' });
  const roomChat = chatPanel({
    t, title: t('chat.title'), kind: 'room', me: () => ctx.me?.id ?? null,
    send: (text) => {
      const ack = nextAck++;
      page.chatAcks.add(ack);
      return socket.send({ t: 'chat', text, ack });
    },
  });
  replace(root,
    h('div', { class: 'room-page', 'data-room': id },
      h('section', { class: 'room-head' }, title, rulesLine, stats),
      // Invitations received show above everything, on a phone too.
      invitationsBox,
      h('div', { class: 'room-cols' },
        h('div', { class: 'room-main' },
          h('section', { class: 'room-tournaments' }, h('h2', {}, t('tournaments.title')), tournamentMsg, tournamentList, createTournamentForm(t, id, ctx)),
          h('section', { class: 'room-tables' }, h('h2', {}, t('room.tables')), list),
        ),
        h('aside', { class: 'room-side' },
          playBox,
          peopleBox,
          roomChat.el,
          formBox,
          h('section', { class: 'card' }, h('h2', {}, t('room.recent')), games),
        ),
      ),
    ),
  );

  function drawPeople() {
    peopleBox.hidden = !page.people.length;
    // A player seated at an open table here may invite the others (who are not playing).
    const mine = inviteTable(page.tables.values(), ctx.me?.id);
    const canInvite = new Set(mine ? invitable(page.people, ctx.me?.id).map((p) => p.id) : []);
    replace(peopleList, sortPeople(page.people).map((p) =>
      h('li', { 'data-person': p.id, 'data-where': p.where },
        p.table ? h('a', { class: 'person', href: href('table', p.table) }, nameTag(t, p)) : h('span', { class: 'person' }, nameTag(t, p, { link: true })),
        h('span', { class: 'where' }, t(`people.${p.where}`)),
        canInvite.has(p.id) ? inviteButton(t, p, (person) => invite(person, mine.id)) : null,
      )));
  }

  function invite(person, tableId) {
    const ack = nextAck++;
    page.inviteAcks.add(ack);
    inviteNote.classList.remove('error');
    if (!socket.send({ t: 'invite', to: person.id, table: tableId, ack })) inviteNote.textContent = t('error.offline');
  }

  /** The invitations received that still hold (their table is open), newest first. */
  function drawInvitations() {
    page.invitations = page.invitations
      .map((inv) => (!inv.listed && page.tables.has(inv.table?.id) ? { ...inv, listed: true } : inv))
      .filter((inv) => stillOpen(inv, page.tables));
    replace(invitationsBox, page.invitations.slice().reverse().map((inv) => invitationCard(t, inv, {
      onJoin: (i) => {
        ctx.setIntent(i.table.id, freeSeat(page.tables.get(i.table.id) ?? i.table), { start: true });
        ctx.go('table', i.table.id);
      },
      onDismiss: (i) => {
        page.invitations = page.invitations.filter((x) => x.id !== i.id);
        drawInvitations();
      },
    })));
  }

  // Rows are rebuilt only when the list changed (or a countdown is due), so room events
  // do not take a button away from under a click.
  let tournamentsKey = null;
  function drawTournaments(force = false) {
    const key = JSON.stringify(page.tournaments) + (ctx.me?.id ?? '');
    if (!force && key === tournamentsKey) return;
    tournamentsKey = key;
    replace(tournamentList, tournamentRows(t, page.tournaments, ctx, (text) => {
      tournamentMsg.textContent = text;
    }));
  }

  /** The head's line: players here, or offline. */
  function drawStats() {
    stats.textContent = online ? t('players_here', { n: page.players }) : t('offline');
    stats.classList.toggle('offline', !online);
  }

  function draw() {
    drawPeople();
    drawInvitations();
    drawTournaments();
    if (page.room) {
      title.textContent = t.pick(page.room.names, page.room.name ?? id);
      replace(rulesLine, t.pick(page.room.rules, ''), ' ', h('a', { href: href('rules', page.room.variant), 'data-link': 'rules' }, t('nav.rules_of')),
        ' · ', h('a', { href: href('leaderboard', page.room.variant), 'data-link': 'leaderboard' }, t('nav.leaderboard_of')));
    }
    drawStats();
    const rows = [...page.tables.values()];
    if (!rows.length) {
      replace(list, h('li', { class: 'empty' }, h('strong', {}, t('room.empty')), h('br'), t('room.empty_hint')));
      return;
    }
    // Rows are rebuilt only when their table changed, so a live update elsewhere in the
    // list does not take the focus or a pending tap away from the row being used.
    const els = rows.map((tb) => {
      const key = JSON.stringify(tb);
      const cached = rowCache.get(tb.id);
      if (cached?.key === key) return cached.el;
      const el = tableRow(t, tb, ctx);
      rowCache.set(tb.id, { key, el });
      return el;
    });
    for (const tid of rowCache.keys()) if (!page.tables.has(tid)) rowCache.delete(tid);
    const same = els.length === list.children.length && els.every((el, i) => list.children[i] === el);
    if (!same) replace(list, els);
  }

  async function loadGames() {
    try {
      const recent = await api.roomGames(id, 10);
      if (!recent.length) {
        replace(games, h('li', { class: 'empty' }, t('room.no_games')));
        return;
      }
      replace(games, recent.map((g) =>
        h('li', { 'data-game-id': g.id },
          h('a', { href: href('game', g.id) }, `${playerName(t, g.white) || '?'} – ${playerName(t, g.black) || '?'}`),
          h('span', { class: 'meta' }, ` ${resultText(t, g)}, ${t('plies', { n: g.plies ?? 0 })}`),
        ),
      ));
    } catch (err) {
      replace(games, h('li', { class: 'error' }, t(`error.${err.code}`)));
    }
  }

  const socket = new LiveSocket(`/ws/rooms/${encodeURIComponent(id)}`, {
    onStatus: (on) => {
      online = on;
      draw();
    },
    onMessage: (msg) => {
      const env = { me: ctx.me?.id ?? null, muted: mutedIds(), soundOff: sound.isMuted() };
      for (const e of receive(page, msg, env)) run(e);
    },
  });

  /** Carries out one of the controller's effects: redraws a panel or does what it says. */
  function run(e) {
    switch (e.do) {
      case 'draw':
        return draw();
      case 'stats':
        return drawStats();
      case 'people':
        return drawPeople();
      case 'invitations':
        return drawInvitations();
      case 'chat':
        return roomChat.set(page.chat);
      case 'tournaments':
        tournamentMsg.textContent = '';
        return drawTournaments();
      case 'room':
        // The home page offers this variant first next time.
        rememberVariant(page.room.variant);
        renderForm();
        // A game against the computer is one click away here (and from every page's
        // header), never started for a visitor who came to see the room.
        if (!playBox.firstChild) replace(playBox, playCard(ctx, { rooms: [page.room] }));
        return;
      case 'go':
        return ctx.go('table', e.table);
      case 'chatError':
        return roomChat.error(t(`error.${e.code}`, { message: e.message }));
      case 'inviteError':
        inviteNote.classList.add('error');
        inviteNote.textContent = t(`error.${e.code}`, { message: e.message });
        return;
      case 'inviteSent':
        inviteNote.classList.remove('error');
        inviteNote.textContent = t('invite.sent', { name: e.name });
        return;
      case 'sound':
        return sound.play(e.name);
      case 'loadGames':
        return loadGames();
      default:
        throw new Error(`unknown effect ${e.do}`);
    }
  }

  async function renderForm() {
    let eightByEight = true;
    try {
      eightByEight = (await api.variant(page.room.variant)).board === 8;
    } catch {
      // Without geometry the server still validates the option; offer it.
    }
    // The variant's ballots, its default set first (the one "random" draws from).
    let ballots = [];
    try {
      ballots = await api.ballots(page.room.variant);
    } catch {
      // Without the list the form offers no ballot.
    }
    replace(formBox, createForm(t, id, eightByEight, ctx, page.room.variant, ballots));
  }

  loadGames();
  draw();
  // Start times count down.
  const ticker = setInterval(() => {
    if (page.tournaments.some((x) => x.status === 'open' && x.starts_at)) drawTournaments(true);
  }, 1000);
  return () => {
    clearInterval(ticker);
    socket.close();
  };
}

function seatCell(t, tb, side, ctx) {
  const p = tb.seats?.[side];
  const playing = tb.game?.status === 'playing';
  return h('span', { class: `seat ${side}` },
    h('span', { class: `swatch ${side}`, 'aria-hidden': 'true' }),
    p ? h('span', { class: 'seat-who' }, nameTag(t, p, { class: 'name', link: true, 'data-bot': p.bot ? String(p.bot) : null }), tb.ready?.[side] && !p.bot ? h('span', { class: 'badge ready' }, t('ready')) : null)
      : playing ? h('span', { class: 'free' }, t('seat.free'))
        : seatRefusal(ctx.me, tb.options, tb.variant) === 'guest' ? h('span', { class: 'free rated-note', 'data-rated-seat': side }, t('rated.accounts_only'))
        : seatRefusal(ctx.me, tb.options, tb.variant) === 'range' ? h('span', { class: 'free rated-note', 'data-rated-seat': side, 'data-out-of-range': '' }, t('rated.range_short', { min: tb.options.rating_range.min, max: tb.options.rating_range.max }))
        : h('a', { class: 'btn small', href: href('table', tb.id), 'data-action': 'sit', 'data-seat': side, 'aria-label': t(`sit.${side}`), onclick: () => ctx.setIntent(tb.id, side) }, t('sit')),
  );
}

function tableRow(t, tb, ctx) {
  const o = tb.options ?? {};
  const flags = [
    tb.tournament ? t('tournament.round_of', { n: tb.tournament.round }) : null,
    o.bot ? t('option.bot', { n: o.bot }) : null,
    o.local ? t('option.local') : null,
    o.random_opening ? t('option.random_opening') : null,
    ballotFlag(t, o.ballot),
    o.micro_match ? t('option.micro_match') : null,
    o.capture_optional ? t('option.capture_optional') : null,
    o.rated ? t('option.rated') : null,
    o.rated && o.rating_range ? t('option.range', { min: o.rating_range.min, max: o.rating_range.max }) : null,
  ].filter(Boolean);
  const g = tb.game;
  const state = g?.status === 'playing' ? t('table.playing', { ply: g.ply ?? 0 }) : g?.status === 'over' ? t('table.over') : t('table.waiting');
  return h('li', { class: 'table-row card', 'data-table-id': tb.id },
    h('div', { class: 'tr-head' },
      h('span', { class: 'time' }, o.days ? t('options.days', { n: o.days }) : `${o.minutes}+${o.increment}`),
      flags.length ? h('span', { class: 'flags' }, flags.join(' · ')) : null,
      h('span', { class: `state ${g?.status ?? 'waiting'}` }, state),
    ),
    h('div', { class: 'tr-seats' }, seatCell(t, tb, 'white', ctx), seatCell(t, tb, 'black', ctx)),
    h('div', { class: 'tr-foot' },
      h('span', { class: 'meta' }, t('spectators', { n: tb.spectators ?? 0 })),
      h('a', { class: 'btn small', href: href('table', tb.id), 'data-action': 'watch' }, t('action.watch')),
    ),
  );
}

function createForm(t, roomId, eightByEight, ctx, variant, ballots = []) {
  const minutes = h('input', { type: 'number', id: 'opt-minutes', name: 'minutes', min: '1', max: '15', value: '5', required: true });
  const increment = h('input', { type: 'number', id: 'opt-increment', name: 'increment', min: '0', max: '10', value: '3', required: true });
  const random = h('input', { type: 'checkbox', id: 'opt-random', name: 'random_opening' });
  const optional = h('input', { type: 'checkbox', id: 'opt-optional', name: 'capture_optional' });
  // A micro-match (issue 38): two games from one opening, colours swapped.
  const micro = h('input', { type: 'checkbox', id: 'opt-micro', name: 'micro_match' });
  const microNote = h('p', { class: 'meta', 'data-micro-note': '', hidden: true }, t('create.micro_match_note'));
  // A ballot (issue 38): none, or a new one of the variant's default set for each game.
  const defaultSet = ballots[0] ?? null;
  const ballot = defaultSet ? h('select', { id: 'opt-ballot', name: 'ballot' },
    h('option', { value: '' }, t('create.ballot_none')),
    h('option', { value: 'random' }, t('create.ballot_random'))) : null;
  const setSize = ballots.filter((b) => b.set === defaultSet?.set).length;
  const ballotNote = h('p', { class: 'meta', 'data-ballot-set': defaultSet?.set ?? '', hidden: true },
    defaultSet ? t('create.ballot_from', { set: defaultSet.source, n: setSize }) : '');
  const seat = h('select', { id: 'opt-seat', name: 'seat' },
    ['random', 'white', 'black'].map((v) => h('option', { value: v }, t(`seat.${v}`))),
  );
  // Rated or casual (issue 23): rated is for accounts, from the start position with
  // compulsory captures; the free seat may ask for a range of ratings.
  const account = !!ctx.me?.account;
  const casual = h('input', { type: 'radio', id: 'opt-casual', name: 'rated', value: 'casual', checked: true });
  const rated = h('input', { type: 'radio', id: 'opt-rated', name: 'rated', value: 'rated', disabled: !account });
  const min = h('input', { type: 'number', id: 'opt-min', name: 'rating_min', min: '0', max: '4000', step: '50', placeholder: '0' });
  const max = h('input', { type: 'number', id: 'opt-max', name: 'rating_max', min: '0', max: '4000', step: '50', placeholder: '4000' });
  const mine = ctx.me?.ratings?.[variant];
  const rangeBox = h('fieldset', { class: 'range', 'data-rating-range': '', hidden: true },
    h('legend', {}, t('create.range', { rating: mine ? String(mine.rating) : '—' })),
    h('div', { class: 'range-fields' },
      h('div', { class: 'field' }, h('label', { for: 'opt-min' }, t('create.range_min')), min),
      h('div', { class: 'field' }, h('label', { for: 'opt-max' }, t('create.range_max')), max)));
  const ratedNote = h('p', { class: 'meta', 'data-rated-note': '' }, account ? t('rated.rules') : t('rated.guest'));
  // Correspondence (issue 40): days per move instead of minutes, for accounts; rated in
  // the variant's correspondence rating, or casual.
  const days = h('select', { id: 'opt-days', name: 'days', disabled: !account },
    h('option', { value: '' }, t('create.days_live')),
    CORRESPONDENCE_DAYS.map((n) => h('option', { value: String(n) }, t('options.days', { n }))));
  const daysNote = h('p', { class: 'meta', 'data-days-note': '' }, account ? t('corr.rules') : t('corr.guest'));
  const minutesField = h('div', { class: 'field' }, h('label', { for: 'opt-minutes' }, t('create.minutes')), minutes);
  const incrementField = h('div', { class: 'field' }, h('label', { for: 'opt-increment' }, t('create.increment')), increment);
  const sync = () => {
    const corr = !!days.value;
    for (const input of [minutes, increment]) input.disabled = corr;
    // A correspondence table has no minutes: the fields go while days are chosen.
    minutesField.hidden = corr;
    incrementField.hidden = corr;
    // Rated or casual by correspondence too (its own rating); one game at a time there.
    if (corr) micro.checked = false;
    micro.disabled = corr;
    rated.disabled = !account;
    const on = rated.checked;
    // A random opening is rated only in a micro-match (both play it with both colours).
    for (const box of on && micro.checked ? [optional] : [random, optional]) {
      box.disabled = on;
      if (on) box.checked = false;
    }
    if (!on || micro.checked) random.disabled = false;
    microNote.hidden = !micro.checked;
    // A rated table plays a federation's ballots only (any in a micro-match); a ballot or
    // a random opening.
    if (ballot) {
      const refused = (on && !defaultSet.rated && !micro.checked) || random.checked;
      if (refused) ballot.value = '';
      ballot.disabled = refused;
      if (ballot.value) {
        random.checked = false;
        random.disabled = true;
      }
      ballotNote.hidden = !ballot.value;
    }
    rangeBox.hidden = !on;
  };
  casual.addEventListener('change', sync);
  rated.addEventListener('change', sync);
  random.addEventListener('change', sync);
  micro.addEventListener('change', sync);
  ballot?.addEventListener('change', sync);
  days.addEventListener('change', sync);
  const msg = h('p', { class: 'form-msg', role: 'alert' });
  const form = h('form', { class: 'create-form', 'data-form': 'create-table' },
    h('h2', {}, t('create.title')),
    minutesField,
    incrementField,
    h('div', { class: 'field', 'data-days-field': '' }, h('label', { for: 'opt-days' }, t('create.days')), days, daysNote),
    h('fieldset', { class: 'kind', 'data-kind': '' },
      h('legend', {}, t('create.kind')),
      h('div', { class: 'field check' }, casual, h('label', { for: 'opt-casual' }, t('create.casual'))),
      h('div', { class: 'field check' }, rated, h('label', { for: 'opt-rated' }, t('create.rated'))),
      ratedNote),
    rangeBox,
    ballot ? h('div', { class: 'field', 'data-ballot-field': '' }, h('label', { for: 'opt-ballot' }, t('create.ballot')), ballot, ballotNote) : null,
    h('div', { class: 'field check' }, random, h('label', { for: 'opt-random' }, t('option.random_opening'))),
    h('div', { class: 'field check', 'data-micro-field': '' }, micro, h('label', { for: 'opt-micro' }, t('create.micro_match'))),
    microNote,
    eightByEight ? h('div', { class: 'field check' }, optional, h('label', { for: 'opt-optional' }, t('option.capture_optional'))) : null,
    h('div', { class: 'field' }, h('label', { for: 'opt-seat' }, t('create.seat')), seat),
    h('button', { class: 'btn primary', type: 'submit', 'data-action': 'create-table' }, t('create.submit')),
    msg,
  );
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    // Days per move replace minutes and increment (the server refuses both at once).
    const clock = days.value ? { days: Number(days.value) }
      : { minutes: Number(minutes.value), increment: Number(increment.value) };
    const options = {
      ...clock,
      random_opening: random.checked,
      capture_optional: eightByEight && optional.checked,
      seat: seat.value,
    };
    if (ballot?.value) options.ballot = ballot.value;
    if (micro.checked) options.micro_match = true;
    if (rated.checked) {
      options.rated = true;
      if (min.value !== '' || max.value !== '') {
        options.rating_range = { min: Number(min.value || 0), max: Number(max.value || 4000) };
      }
    }
    try {
      const table = await api.createTable(roomId, options);
      ctx.go('table', table.id);
    } catch (err) {
      msg.textContent = t(`error.${err.code}`);
    }
  });
  return form;
}
