// The table page: one table socket, the state it feeds (tablestate.js), the board and
// move entry, and the player's actions. A move is never shown as played before the
// server accepted it: it waits, highlighted as pending, for the `move` event and its
// `ack`, and is resent with the same `ply` after a reconnect.

import * as api from './api.js';
import { Board } from './board.js';
import { h, replace } from './dom.js';
import { parseFen } from './fen.js';
import { jumpedSquares, nextSquares, parseMove } from './moves.js';
import * as sound from './sound.js';
import { claimLeft, splitChat } from './chat.js';
import { chatPanel } from './chatpanel.js';
import { freeSeat } from './invite.js';
import { invitePanel } from './invitepanel.js';
import { playPerson } from './playnow.js';
import { LiveSocket } from './socket.js';
import { TABLE, actionMessage } from './protocol.js';
import { canMove, isLocal, myColor, mySeat, nextPly } from './tablestate.js';
import { moveMessage, receive } from './tablecontrol.js';
import { ALL_PARTS, partsOf } from './tableparts.js';
import { bottomSide, renderPanels, tickClocks } from './tableview.js';
import { tournamentFollower } from './tablefollow.js';
import { historyTarget, squareClicked, viewAt, viewedFen } from './tableinput.js';
import { linesText, renderConditional } from './conditional.js';

const CLOCK_TICK_MS = 100;
const RESIGN_CONFIRM_MS = 4_000;
const AUTOFLIP_KEY = 'damka.autoflip';
const ACK_TIMEOUT_MS = 8_000;
// What the claim and next-round countdowns show in: redrawn each second they run.
const COUNTDOWN_PARTS = ['status', 'prompt', 'actions', 'banner'];

/**
 * Mounts the table page.
 * @param {HTMLElement} root
 * @param {{id: string, ctx: object}} args `ctx.t` translator, `ctx.takeIntent(id)` a seat
 *   chosen in the room list or a game to start at once
 * @returns {() => void} unmount
 */
export function mount(root, { id, ctx }) {
  const { t } = ctx;
  const page = {
    // The viewer is an account (a rated table seats only accounts); read when drawn, so
    // signing up at the table takes effect at once.
    get me() {
      return ctx.me ?? null;
    },
    get account() {
      return !!ctx.me?.account;
    },
    state: null,
    variant: null,
    board: null,
    path: [],
    pending: null,
    online: false,
    error: null,
    clock: null,
    closed: false,
    deadline: null,
    // A micro-match's break: {ms, at} (the countdown to its second game), or null.
    matchBreak: null,
    variantLoad: null,
    resignArmedUntil: 0,
    // One screen: a draw needs a second click too (it ends the game at once there).
    drawArmedUntil: 0,
    // The first-move window in seconds, as the server gave it in this game (to say why
    // a game was aborted).
    windowS: null,
    // A move queued during the opponent's turn: [from, to], played at once if legal.
    premove: null,
    premoveFrom: null,
    // A past position of the live game shown on the board (plies from the start), or
    // null for the live one; the positions after each move, by ply.
    view: null,
    fens: new Map(),
    fensLoading: null,
    // One screen: the board turns to the side to move after each move.
    autoflip: storedAutoflip(),
    // At a finished tournament table: the next pairing and its countdown.
    next: null,
    resyncing: false,
    missing: false,
    intent: ctx.takeIntent?.(id) ?? null,
    // The board turned around by the player (spectators, or anyone who asks).
    flipped: false,
    // A short explanation in the status line (a capture is compulsory), until the next click.
    hint: null,
    // The player's own draw offer was declined: {game, ply}.
    declined: null,
    muted: sound.isMuted(),
    lowWas: false,
    // Issue 9: the table chat, and the claim window ({ms, at}: ms until a claim is allowed).
    chat: [],
    chatAcks: new Set(),
    claim: null,
  };
  let nextAck = 1;

  const boardWrap = h('div', { class: 'board-wrap' });
  const tablePage = h('div', { class: 'table-page live', 'data-table': id });
  const panels = {
    top: h('div', { class: 'player-bar top' }),
    bottom: h('div', { class: 'player-bar bottom' }),
    ballot: h('div', { class: 'ballot-box', 'data-ballot-box': '', hidden: true }),
    match: h('div', { class: 'match-box', 'data-match-box': '', hidden: true }),
    status: h('p', { class: 'status', 'data-status': '', role: 'status', 'aria-live': 'polite' }),
    deadline: h('p', { class: 'deadline', 'data-deadline': '', hidden: true }),
    prompt: h('div', { class: 'prompt', 'data-prompt': '', role: 'alert', hidden: true }),
    actions: h('div', { class: 'actions' }),
    tools: h('div', { class: 'tools' }),
    banner: h('div', { class: 'banner', 'data-banner': '', hidden: true }),
    info: h('section', { class: 'info card' }),
    counters: h('section', { class: 'counters card' }),
    moves: h('section', { class: 'moves card' }),
    conditional: h('section', { class: 'conditional card', 'data-conditional': '', hidden: true }),
  };
  // The prepared replies' text, kept across redraws while the player types.
  const condInput = h('textarea', { class: 'cond-input', 'data-cond-input': '', rows: '3', spellcheck: 'false', autocomplete: 'off' });
  const sendChat = (text) => {
    const ack = nextAck++;
    page.chatAcks.add(ack);
    return socket.send({ t: TABLE.CHAT, text, ack });
  };
  const meId = () => page.state?.you?.id ?? null;
  const chats = {
    players: chatPanel({ t, title: t('chat.title'), kind: 'table', send: sendChat, me: meId }),
    spectators: chatPanel({ t, title: t('chat.spectators'), kind: 'spectators', send: sendChat, me: meId }),
  };
  const invites = invitePanel({ t, me: meId });
  boardWrap.append(panels.banner);
  replace(
    root,
    replace(tablePage,
      // The play column holds only the board and its two bars, so that it fits the
      // window's height; the status and the buttons sit beside it (below it on phones).
      h('div', { class: 'play' }, panels.top, boardWrap, panels.bottom),
      h('section', { class: 'controls card', 'data-controls': '' }, panels.ballot, panels.match, panels.status, panels.deadline, panels.prompt, panels.actions, panels.tools),
      h('aside', { class: 'side' }, panels.info, invites.el, panels.conditional, panels.counters, panels.moves, chats.players.el, chats.spectators.el),
    ),
  );
  panels.status.textContent = t('connecting');

  const socket = new LiveSocket(`/ws/tables/${encodeURIComponent(id)}`, {
    onMessage: (msg) => onMessage(msg),
    onStatus: (online) => {
      page.online = online;
      page.resyncing = false;
      if (!online) page.path = [];
      if (!online && !page.state) checkExists();
      draw();
    },
    onClosedForGood: () => {
      page.closed = true;
      draw();
      drawChat();
    },
  });

  // At a tournament table the player is sent on to their next game when it is ready.
  const follower = tournamentFollower({ page, id, t, go: (table) => ctx.go('table', table), draw });

  // A socket that never opened may mean the table is gone (a stale link): ask once, and
  // stop reconnecting if the server says it does not exist.
  let checked = false;
  async function checkExists() {
    if (checked) return;
    checked = true;
    try {
      await api.table(id);
    } catch (err) {
      if (err.code === 'not_found') {
        page.missing = true;
        socket.close();
        draw();
      }
    }
  }

  function send(msg) {
    page.error = null;
    if (!socket.send(msg)) {
      page.error = t('error.offline');
      draw();
    }
  }

  /** A message of the table socket: the controller's effects carried out (tablecontrol.js). */
  function onMessage(msg) {
    for (const e of receive(page, msg, { now: performance.now(), t })) run(e);
  }

  function run(e) {
    switch (e.do) {
      case 'draw':
        return draw(e.parts);
      case 'drawChat':
        return drawChat();
      case 'send':
        return e.quiet ? socket.send(e.msg) : send(e.msg);
      case 'resync':
        if (!socket.send({ t: TABLE.RESYNC })) socket.reconnect();
        return;
      case 'move':
        return sendMove(page.state, e.move);
      case 'sound':
        return sound.play(e.name);
      case 'fillConditional':
        if (document.activeElement !== condInput) condInput.value = linesText(page.conditional);
        return;
      case 'chatError': {
        const s = page.state;
        const panel = s && myColor(s) == null && s.status === 'playing' ? chats.spectators : chats.players;
        return panel.error(t(`error.${e.code}`, { message: e.message }));
      }
      case 'quickAgain':
        return quickAgain(e.quick);
      case 'follow':
        return follower.follow(page.state);
      case 'loadRatings':
        return loadRatings(page.state);
      case 'loadVariant':
        page.variantLoad = loadVariant().then(draw);
        return;
      default:
        throw new Error(`unknown effect ${e.do}`);
    }
  }

  // A rated game's rating changes come with `game_over`; a page opened (or mounted
  // again) after it reads them from the stored game, to show them on the banner.
  function loadRatings(s) {
    if (s.status !== 'over' || !s.game_id || s.ratings || !s.options?.rated || page.ratingsFor === s.game_id) return;
    const gameId = s.game_id;
    page.ratingsFor = gameId;
    api.game(gameId).then((g) => {
      if (g.ratings && page.state?.game_id === gameId && page.state.status === 'over') {
        page.state.ratings = g.ratings;
        draw();
      }
    }, () => {});
  }

  /** "Play now" lost its seat to someone quicker: another table, or a new one. */
  function quickAgain(quick) {
    playPerson(ctx, quick.room, { preset: quick.preset, skip: [...(quick.skip ?? []), id] }).catch((err) => {
      page.error = t(`error.${err.code}`, { message: err.message ?? '' });
      draw();
    });
  }

  async function loadVariant() {
    const vid = page.state?.table?.variant;
    try {
      page.variant = await api.variant(vid);
    } catch (err) {
      page.error = t(`error.${err.code}`);
      page.variantLoad = null;
      return;
    }
    page.board = new Board(page.variant, {
      title: t('board.keys'),
      onSquare: (sq) => onSquare(sq),
      label: (name, piece) =>
        piece ? t('square.piece', { name, piece: t(`piece.${piece.color}-${piece.king ? 'king' : 'man'}`) }) : t('square.empty', { name }),
    });
    boardWrap.replaceChildren(page.board.element, panels.banner);
  }

  function onSquare(sq) {
    const r = squareClicked(page, sq, t);
    if (!r) return;
    // No answer in time (sendMove): the connection is likely half-dead. A fresh one
    // resends the move for the same ply, which the server applies at most once.
    if (r.move) sendMove(page.state, r.move);
    draw();
  }

  /** Sends a move of the player's (entered now, or a premove that became legal). */
  function sendMove(s, move) {
    const pending = { move, ply: nextPly(s), ack: nextAck++, acked: false };
    page.pending = pending;
    socket.send(moveMessage(pending));
    setTimeout(() => {
      if (page.pending === pending && !pending.acked) socket.reconnect();
    }, ACK_TIMEOUT_MS);
  }

  /** Shows the position after `at` plies of the live game (null: the live position). */
  function showPly(at) {
    if (viewAt(page, at)) loadFens(page.state);
    draw();
  }

  /** The positions of moves this page did not see played (from `state`): the game record. */
  function loadFens(s) {
    if (page.fensLoading || !s.game_id) return;
    const game = s.game_id;
    page.fensLoading = api.game(game).then((g) => {
      if (page.state?.game_id !== game) return;
      for (const m of g.moves) if (m.fen) page.fens.set(m.ply, m.fen);
      page.fensLoading = null;
      draw();
    }, () => {
      page.fensLoading = null;
    });
  }

  function act(action, extra = {}) {
    if (action === 'flip') {
      page.flipped = !page.flipped;
      draw();
      return;
    }
    if (action === 'autoflip') {
      page.autoflip = !page.autoflip;
      rememberAutoflip(page.autoflip);
      draw();
      return;
    }
    if (action === 'premove-cancel') {
      page.premove = null;
      page.premoveFrom = null;
      draw();
      return;
    }
    if (action.startsWith('history-')) {
      showPly(historyTarget(page, action, extra));
      return;
    }
    // On one screen a draw offer ends the game at once: a second click confirms it.
    if (action === 'draw-offer' && isLocal(page.state) && !(performance.now() < page.drawArmedUntil)) {
      page.drawArmedUntil = performance.now() + RESIGN_CONFIRM_MS;
      draw();
      setTimeout(draw, RESIGN_CONFIRM_MS);
      return;
    }
    page.drawArmedUntil = 0;
    if (action === 'sound') {
      page.muted = !page.muted;
      sound.setMuted(page.muted);
      // The switch is a user gesture: a good moment to let the audio context start.
      if (!page.muted) sound.play('move');
      draw();
      return;
    }
    // Resigning takes a second click within a few seconds: a stray tap must not lose a game.
    if (action === 'resign' && !(performance.now() < page.resignArmedUntil)) {
      page.resignArmedUntil = performance.now() + RESIGN_CONFIRM_MS;
      draw();
      setTimeout(draw, RESIGN_CONFIRM_MS);
      return;
    }
    page.resignArmedUntil = 0;
    if (action === 'copy-link') {
      navigator.clipboard?.writeText(location.href).then(() => {
        page.copied = true;
        draw();
      }, () => {});
      return;
    }
    const msg = actionMessage(action, extra);
    if (!msg) return;
    send(msg);
    draw();
  }

  /**
   * Redraws the page's `parts` (names of tableparts.js; every part when not given, as
   * when called back by a timer or a button).
   */
  function draw(parts) {
    const want = Array.isArray(parts) ? partsOf(parts) : ALL_PARTS;
    const s = page.state;
    // Whether this viewer plays the game going on here: signing up then keeps the
    // socket (and the game) as it is (app.js).
    root.dataset.inGame = s?.status === 'playing' && mySeat(s) ? 'true' : 'false';
    if (!s) {
      if (page.missing) {
        // One message and the way back, instead of an empty board, cards and chats.
        replace(tablePage, h('section', { class: 'card missing', 'data-missing': '', role: 'alert' },
          h('h1', {}, t('table.missing_title')),
          h('p', {}, t('table.missing_text')),
          h('p', {}, h('a', { class: 'btn primary', href: '#/', 'data-action': 'rooms' }, t('table.missing_back'))),
        ));
        tablePage.className = 'missing-page';
        invites.close();
      } else {
        panels.status.textContent = page.online ? t('connecting') : t('offline');
      }
      return;
    }
    const past = page.view != null ? viewedFen(page, s) : null;
    const viewing = page.view != null && !!past;
    const position = parseFen(s.fen).pieces;
    let pieces = viewing ? parseFen(past).pieces : position;
    const mine = canMove(s) && !page.pending && page.online && !viewing;
    const last = viewing ? s.moves[page.view - 1] : s.moves[s.moves.length - 1];
    // A capture being entered: the piece travels along the path, the pieces jumped so far
    // are marked (drawn from the geometry; the server still judges the move).
    const entering = page.path.length > 1 && page.variant && !viewing;
    let taking = [];
    if (entering) {
      pieces = new Map(position);
      const from = page.path[0];
      const to = page.path[page.path.length - 1];
      const piece = position.get(from);
      pieces.delete(from);
      if (piece) pieces.set(to, piece);
      taking = jumpedSquares(page.variant.squares, page.path, position);
    }
    if (page.board && want.has('board')) {
      // A one-screen table keeps one orientation for both players (unless they turn it
      // after each move); a player with Black sees the board from Black's side.
      page.board.setFlipped(bottomSide(page, s) === 'black');
      page.board.element.classList.toggle('viewing', viewing);
      page.board.render({
        pieces,
        path: page.path,
        taking,
        slide: entering ? { from: page.path[page.path.length - 2], to: page.path[page.path.length - 1] } : null,
        targets: mine && page.path.length ? nextSquares(s.legal, page.path) : new Set(),
        movable: mine && !page.path.length ? nextSquares(s.legal, []) : new Set(),
        last: last ? parseMove(last.move).squares : [],
        captured: last?.captures ?? [],
        pending: page.pending ? parseMove(page.pending.move).squares : [],
        premove: page.premove ?? (page.premoveFrom ? [page.premoveFrom] : []),
      });
    }
    renderPanels(panels, { t, page, state: s, pieces: viewing ? pieces : position, act, redraw: draw }, want);
    if (want.has('conditional')) drawConditional(s);
    if (want.has('chat')) drawChat();
    if (want.has('invites')) {
      // A seated player waiting for an opponent may invite someone from the room.
      const seat = mySeat(s);
      const inviting = page.online && seat && s.status !== 'playing' && freeSeat({ seats: s.seats }) && !isLocal(s) && !s.options?.bot && !s.options?.local;
      invites.show(inviting ? s.table?.room ?? null : null, id);
    }
    // A player in another tab sees that it is their move from the tab's title.
    if (want.has('title')) document.title = `${mine ? '● ' : ''}Damka · ${t('title.table')}`;
    tick();
  }

  /** The prepared replies (a correspondence game's conditional moves). */
  function drawConditional(s) {
    renderConditional(panels.conditional, condInput, {
      t,
      state: s,
      me: myColor(s),
      lines: page.conditional ?? [],
      error: page.condError,
      send: (lines) => {
        page.condSent = true;
        page.condError = null;
        send({ t: TABLE.CONDITIONAL, lines });
      },
    });
  }

  /** The table chat: one panel, and the spectators' apart while a game is played. */
  function drawChat() {
    const s = page.state;
    if (!s) return;
    const playing = s.status === 'playing';
    const parts = splitChat(page.chat);
    chats.players.set(parts.players);
    chats.spectators.set(parts.spectators);
    // Spectators talk among themselves during a game; players never see that panel (the
    // server does not send them those messages either). After the game the spectators'
    // messages stay in their panel.
    chats.spectators.el.hidden = !!myColor(s) || (!playing && !parts.spectators.length);
    // A spectator writes in the spectators' panel while the game is played; nobody
    // writes at a closed table (the messages stay to read).
    chats.players.readOnly(page.closed || (playing && !myColor(s)));
    chats.spectators.readOnly(page.closed);
  }

  function tick() {
    const low = tickClocks(panels, page, performance.now());
    // One warning when the player's own clock turns low.
    const me = myColor(page.state);
    const lowNow = !!me && low.has(me);
    if (sound.lowTimeCrossed(page.lowWas, lowNow) && !page.muted) sound.play('low');
    page.lowWas = lowNow;
    // The claim countdown changes every second: redraw the prompt when it does.
    const left = claimLeft(page.claim, performance.now());
    // The next round's countdown (a finished tournament table) changes every second.
    const nextLeft = page.next && !page.next.over ? Math.ceil((page.next.ms - (performance.now() - page.next.at)) / 1000) : null;
    if (left !== page.claimShown || nextLeft !== page.nextShown) {
      page.claimShown = left;
      page.nextShown = nextLeft;
      draw(COUNTDOWN_PARTS);
    }
  }

  function storedAutoflip() {
    try {
      return localStorage.getItem(AUTOFLIP_KEY) === 'on';
    } catch {
      return false;
    }
  }

  function rememberAutoflip(on) {
    try {
      if (on) localStorage.setItem(AUTOFLIP_KEY, 'on');
      else localStorage.removeItem(AUTOFLIP_KEY);
    } catch {
      // Private mode: not remembered.
    }
  }

  const timer = setInterval(() => {
    if (page.state) tick();
  }, CLOCK_TICK_MS);

  return () => {
    clearInterval(timer);
    invites.close();
    follower.stop();
    socket.close();
  };
}
