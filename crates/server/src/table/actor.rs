//! The table actor: the one task that owns a table. It waits for a command, a timer (the
//! first-move window, the running side's flag, the empty-table grace, correspondence,
//! parking) or shutdown, and nothing else ever mutates the table. Here: the task, its
//! loop and `act` (every step run the same way), what it sends and shows (views,
//! presence, Web Push) and the computer's searches started. What each message, command
//! and timer does is in `handlers.rs`; everything else in `table/` is state and decisions
//! the two use (the layers test keeps it so).

use std::sync::Arc;
use std::time::Duration;

use damka_protocol::table::{ServerMessage, State as ServerState};
use damka_protocol::{ErrorCode, Options};
use draughts::{Color, Rules, Variant};
use tokio::sync::mpsc;
use tracing::Instrument;

use super::command::Command;
use super::computer::{self, Think, Thinking};
use super::correspondence;
use super::game::{Hold, LiveGame, to_i64};
use super::game::{reason_of, result_of};
use super::notices;
use super::presence::{self, Counts, Note, Presence};
use super::referee::{self, Action, Actor, Claim};
use super::registry::{TableSeed, Tables};
use super::seating::Seating;
use super::social;
use super::step::{Audience, Follow, Notify, Step, Write};
use super::subscribers::{Outgoing, Subscribers, encode};
use super::view::Sight;
use crate::chat::ChatLog;
use crate::core::Core;
use crate::error::AppError;
use crate::room::Room;

/// Who asked for an action, to answer: the socket, its acknowledgement id, and when the
/// session received the message (the move latency metric). Empty for the server's own.
#[derive(Debug, Default)]
pub(super) struct Request {
    /// The socket it came from.
    pub sub: Option<u64>,
    /// The id to acknowledge it with, once stored.
    pub ack: Option<serde_json::Value>,
    /// When the session received it.
    pub received: Option<std::time::Instant>,
}

/// How often stale sockets are checked while any exists.
const STALE_CHECK: Duration = Duration::from_millis(200);

/// The state of one table, owned by its task.
pub struct TableActor {
    /// What every table uses (store, time, config, rooms, metrics, search threads).
    pub(super) core: Arc<Core>,
    /// The table registry (this table leaves it when it closes; tournament reports go
    /// through it).
    pub(super) tables: Arc<Tables>,
    /// Table id.
    pub(super) id: String,
    /// The room the table is in.
    pub(super) room: Arc<Room>,
    /// The room's variant.
    pub(super) variant: Variant,
    /// Rules with the table's options.
    pub(super) rules: Rules,
    /// Options.
    pub(super) options: Options,
    /// Who sits where, and who pressed start.
    pub(super) seating: Seating,
    /// The sockets.
    pub(super) subs: Subscribers,
    /// The current or last game.
    pub(super) game: Option<LiveGame>,
    /// Version of the last broadcast event.
    pub(super) v: u64,
    /// Who is connected as last announced, who of the players is away, and the people
    /// reported to the room.
    pub(super) presence: Presence,
    /// Since when the table has been empty (no socket, no game running), in server ms.
    empty_since: Option<u64>,
    /// Since when a correspondence game has waited with nobody watching (server ms): the
    /// table parks after `--correspondence-park-secs` of it ([`super::parking`]).
    pub(super) idle_since: Option<u64>,
    /// The computer's search in progress, if any.
    pub(super) thinking: Option<Thinking>,
    /// The actor's own command queue, for answers of its background work (the computer's
    /// moves). Weak, so the queue still closes when the registry lets go.
    pub(super) tx: mpsc::WeakSender<Command>,
    /// When to try again to store a game end that failed (not for an outage).
    pub(super) end_retry: Option<tokio::time::Instant>,
    /// The table's chat: the last messages and each person's flood control.
    pub(super) chat: ChatLog,
    /// The tournament whose game this table plays (no takebacks, no aborts, no other
    /// games; the result is reported to it).
    pub(super) tournament: Option<damka_protocol::TableTournament>,
    /// The address the table counts under (see [`TableSeed::creator_ip`]).
    pub(super) creator_ip: Option<std::net::IpAddr>,
    /// At a micro-match table: the current or last match.
    pub(super) micro: Option<super::micro_match::MicroMatch>,
    /// A correspondence game's timers: the next clock save, the ply whose mover was told
    /// that time runs low.
    pub(super) correspondence: correspondence::Timers,
    /// Commands.
    rx: mpsc::Receiver<Command>,
}

impl TableActor {
    /// A table from its seed.
    ///
    /// Fails if the room's variant or the options are unknown to the engine.
    pub fn new(
        tables: Arc<Tables>,
        seed: TableSeed,
        tx: mpsc::WeakSender<Command>,
        rx: mpsc::Receiver<Command>,
    ) -> Result<TableActor, AppError> {
        let variant = seed.room.config.variant;
        let rules = Rules::with_capture_optional(variant, seed.options.capture_optional)
            .map_err(|e| AppError::InvalidOptions(e.to_string()))?;
        let core = tables.core().clone();
        let now = core.time.now_ms();
        let mut actor = TableActor {
            core,
            tables,
            id: seed.id,
            room: seed.room,
            variant,
            rules,
            options: seed.options,
            seating: Seating::new(seed.seats.white, seed.seats.black),
            subs: Subscribers::default(),
            game: seed.game,
            v: 0,
            presence: Presence::default(),
            empty_since: None,
            idle_since: None,
            thinking: None,
            tx,
            end_retry: None,
            chat: ChatLog::new(seed.chat),
            tournament: seed.tournament,
            creator_ip: seed.creator_ip,
            micro: seed.micro,
            correspondence: correspondence::Timers::default(),
            rx,
        };
        actor.update_empty(now);
        Ok(actor)
    }

    /// The room.
    pub fn room(&self) -> &Arc<Room> {
        &self.room
    }

    /// Runs the table until it closes or the server shuts down.
    pub async fn run(mut self) {
        // However the task ends (closed, shut down, or a bug that panics), the table leaves
        // the registry and its room, so nobody is sent to a table that is gone.
        let _registered = Registered {
            tables: self.tables.clone(),
            id: self.id.clone(),
            room: self.room.clone(),
            tx: self.tx.clone(),
        };
        let grace = self.core.config.empty_table_grace().as_millis() as u64;
        let shutdown = self.core.shutdown.clone();
        let time = self.core.time.clone();
        let mut health = self.core.store.breaker().subscribe();
        // A restored game may have the computer to move.
        self.maybe_think();
        // One wait for shutdown for the table's life: a new one per turn of the loop would
        // register with the server-wide token (behind its lock) for every command.
        let cancelled = shutdown.cancelled();
        tokio::pin!(cancelled);
        loop {
            let now = time.now_ms();
            let end_retry = self.end_retry;
            let deadline = match end_retry {
                Some(_) => None,
                None => self.game.as_ref().and_then(|g| g.deadline(now)),
            };
            let close_at = self.empty_since.map(|t| t + grace);
            let stale = self.subs.any_stale();
            let presence_due = self.presence.due();
            let match_break = self.micro.as_ref().and_then(|m| m.break_until());
            let correspondence_due = self.correspondence_due(now);
            let park_at = self.park_at();
            let storage_held = self
                .game
                .as_ref()
                .is_some_and(|g| g.held() == Some(Hold::Storage));
            tokio::select! {
                biased;
                () = &mut cancelled => {
                    self.flush().await;
                    break;
                }
                cmd = self.rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = time.sleep_until(deadline.unwrap_or(u64::MAX)), if deadline.is_some() => {
                    self.on_deadline(deadline).await;
                }
                () = time.sleep_until(match_break.unwrap_or(u64::MAX)), if match_break.is_some() => {
                    self.on_match_break_over().await;
                }
                () = tokio::time::sleep_until(end_retry.unwrap_or_else(tokio::time::Instant::now)), if end_retry.is_some() => {
                    self.end_retry = None;
                    self.on_deadline(None).await;
                }
                _ = health.changed(), if storage_held => {
                    if *health.borrow_and_update() {
                        tracing::info!("database back: the clock runs again");
                        self.release_hold();
                    }
                }
                () = time.sleep_until(correspondence_due.unwrap_or(u64::MAX)), if correspondence_due.is_some() => {
                    self.on_correspondence_timer().await;
                }
                () = time.sleep_until(park_at.unwrap_or(u64::MAX)), if park_at.is_some() => {
                    if self.park().await {
                        break;
                    }
                }
                () = time.sleep_until(close_at.unwrap_or(u64::MAX)), if close_at.is_some() => {
                    self.close();
                    break;
                }
                () = tokio::time::sleep(STALE_CHECK), if stale => {}
                () = tokio::time::sleep_until(presence_due.unwrap_or_else(tokio::time::Instant::now)), if presence_due.is_some() => {
                    self.announce_presence(None);
                }
            }
            self.after_event();
        }
        // A closed table's chat is of no use to anyone: it goes with the table (kept at
        // shutdown, when the table comes back with its game).
        if !self.core.shutdown.is_cancelled()
            && !self.chat.is_empty()
            && let Err(e) = self.core.store.clear_chat(&self.chat_scope()).await
        {
            tracing::warn!(error = %e, "cannot delete a closed table's chat");
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join { guest, tx, reply } => {
                let sub = self.subs.add(guest, tx);
                if reply.send(sub).is_err() {
                    // The session went away before its join was answered; its queue is
                    // closed, so the next sweep of the subscribers drops it.
                    tracing::debug!(sub, "socket left before its join was answered");
                }
                // The newcomer's first message is its state, which already includes
                // this presence change.
                self.presence_changed_except(Some(sub));
                self.send_state(sub);
            }
            Command::Leave { sub } => {
                self.subs.remove(sub);
                self.presence_changed();
            }
            Command::Client {
                sub,
                msg,
                lag_ms,
                received,
            } => {
                self.on_client(sub, msg, lag_ms, received).await;
            }
            Command::ComputerMove { game_id, ply, mv } => {
                self.on_computer_move(&game_id, ply, &mv).await;
            }
            Command::Forfeit { game_id, player_id } => {
                self.forfeit(&game_id, &player_id).await;
            }
            Command::Conditional {
                game_id,
                player,
                lines,
                reply,
            } => {
                let result = if self.game.as_ref().is_some_and(|g| g.id == game_id) {
                    self.set_conditional(&player, lines).await
                } else {
                    Err(AppError::game(ErrorCode::NoGame, "that game is over"))
                };
                let _ = reply.send(result);
            }
        }
    }

    /// After every wake-up: refresh sockets that fell behind, drop those that stay behind,
    /// and start or stop the empty-table countdown.
    fn after_event(&mut self) {
        self.update_gone();
        for sub in self.subs.ready_for_state() {
            self.send_state(sub);
        }
        let dropped = self.subs.drop_laggards();
        if dropped > 0 {
            tracing::info!(dropped, "disconnected lagging sockets");
            for _ in 0..dropped {
                self.core.metrics.lagging_dropped.inc();
            }
            self.presence_changed();
        }
        let now = self.core.time.now_ms();
        self.update_empty(now);
        // A restored game's clock waits for both players (or the grace's end).
        let restart_hold = self
            .game
            .as_ref()
            .is_some_and(|g| matches!(g.held(), Some(Hold::Restart { .. })));
        if restart_hold && self.presence_now().connected.all(|c| *c) {
            tracing::info!("both players are back: the clock runs again");
            self.release_hold();
        }
        self.maybe_think();
        self.publish_people();
    }

    fn update_empty(&mut self, now: u64) {
        // A micro-match's break is part of the match: its second game starts by itself.
        let playing = self.game.as_ref().is_some_and(LiveGame::playing)
            || self.micro.as_ref().is_some_and(|m| m.in_break());
        if self.subs.is_empty() && !playing {
            self.empty_since.get_or_insert(now);
        } else {
            self.empty_since = None;
        }
        if self.parkable_now() {
            self.idle_since.get_or_insert(now);
        } else {
            self.idle_since = None;
        }
    }

    /// Runs an action on the running game, the same way for every action: ruled by
    /// [`referee::decide`], its write stored, then its change applied, its events
    /// versioned and broadcast, and what follows done. Nothing changes and nothing is
    /// announced if the write fails (a database outage holds the clock).
    ///
    /// Fails with the referee's refusal, `storage_unavailable` or the store's error.
    pub(super) async fn act(
        &mut self,
        actor: Actor,
        action: Action,
        from: Request,
    ) -> Result<(), AppError> {
        if matches!(action, Action::Claim { .. }) {
            // Who is gone, as of now.
            self.update_gone();
        }
        let now = self.core.time.now_ms();
        let mut step = self.decide(actor, &action, now)?;
        let held = self.game.as_ref().is_some_and(|g| g.held().is_some());
        if held && step.writes() && matches!(actor, Actor::Player(_)) {
            // A player's action on a held clock: it runs again first (or the action is
            // refused at once while the database is down), and the action is ruled again
            // on the running clock.
            self.before_write()?;
            step = self.decide(actor, &action, now)?;
        }
        tracing::debug!(?actor, ?action, "table action");
        let Step {
            write,
            change,
            events,
            follow,
            refuse,
        } = step;
        let ends = matches!(write, Write::End(_) | Write::LastMove(..));
        let stored = match self.game.as_ref() {
            Some(g) => write.run(&self.core.store, &g.id).await,
            None => Ok(None),
        };
        if let (Err(e), true, Some(g)) = (&stored, ends, self.game.as_ref()) {
            tracing::error!(error = %e, game = %g.id, "cannot store the end of a game; not announced");
        }
        let ratings = self.stored(stored, now)?;
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        referee::apply(game, change, now, ratings);
        let over = game.over();
        if let Some(refusal) = refuse {
            // The step ran, but the sender's action was not what it did.
            self.after_step(events, follow, over, now, None);
            return Err(refusal.into());
        }
        if let (Some(sub), Some(ack)) = (from.sub, from.ack) {
            self.reply(sub, &ServerMessage::Ack { ack });
        }
        self.after_step(events, follow, over, now, from.received);
        Ok(())
    }

    /// A stored and applied step's events, versioned and broadcast, and what follows.
    fn after_step(
        &mut self,
        events: Vec<super::step::Event>,
        follow: Follow,
        over: Option<draughts::Outcome>,
        now: u64,
        received: Option<std::time::Instant>,
    ) {
        for event in events {
            // Only an event for one player keeps its player's id (rare: no copy per move).
            let player = match event.audience() {
                Audience::All => None,
                Audience::Player(id) => Some(id.to_owned()),
            };
            let v = match player {
                None => self.next_v(),
                Some(_) => 0,
            };
            let Some(game) = self.game.as_ref() else {
                return;
            };
            let msg = event.message(v, game, now);
            match player {
                None => self.broadcast(&msg),
                Some(id) => self.send_to_player(&id, &msg),
            }
        }
        if follow.moved {
            self.core.metrics.moves.inc();
            if let Some(received) = received {
                self.core.metrics.move_latency.observe(received.elapsed());
            }
        }
        if follow.states {
            self.resend_states();
        }
        if follow.position {
            self.refresh_room_copy();
            self.correspondence_moved();
        }
        if let (true, Some(o)) = (follow.ended, over) {
            self.announce_end(result_of(&o), reason_of(&o), now);
        }
        match follow.notify {
            Some(Notify::Offer(c)) => self.notify_away(c, crate::push::Kind::Offer),
            Some(Notify::Turn) => {
                if let Some(g) = self.game.as_ref() {
                    self.notify(notices::after_move(g));
                }
            }
            Some(Notify::Ended) => self.notify(notices::after_end()),
            None => {}
        }
    }

    /// What `action` would do now ([`referee::decide`] on this table's facts).
    ///
    /// Fails with the referee's refusal (`no_game` with no game at all).
    fn decide(&self, actor: Actor, action: &Action, now: u64) -> Result<Step, AppError> {
        let Some(game) = self.game.as_ref() else {
            return match actor {
                Actor::Server => Ok(Step::nothing()),
                Actor::Player(_) => {
                    Err(AppError::game(ErrorCode::NoGame, "no game is being played"))
                }
            };
        };
        let claim = match actor {
            Actor::Player(me)
                if self
                    .presence
                    .one_away()
                    .is_some_and(|(c, _)| c == me.other()) =>
            {
                self.claim_at(now).map_or(Claim::Nothing, Claim::In)
            }
            _ => Claim::Nothing,
        };
        let table = referee::Table {
            rules: self.rules,
            local: self.options.local,
            tournament: self.tournament.is_some(),
            correspondence: self.options.days.is_some(),
            computer: self.options.bot.is_some(),
            offer_every: self.core.config.tables.draw_offer_plies,
            claim,
            now,
            unix_ms: crate::time::unix_ms(),
        };
        Ok(referee::decide(&table, game, actor, action)?)
    }

    /// The first-move window in ms (for a new game): a correspondence table's is its
    /// period (a first move takes days like any other).
    pub(super) fn first_move_window_ms(&self) -> u64 {
        self.options
            .period_ms()
            .unwrap_or(self.core.config.first_move_window().as_millis() as u64)
    }

    /// The next version number, for a broadcast event.
    pub(super) fn next_v(&mut self) -> u64 {
        self.v += 1;
        self.v
    }

    /// Serialises and sends an event to every socket.
    pub(super) fn broadcast(&mut self, msg: &ServerMessage) {
        if let Some(text) = encode(msg) {
            self.subs.broadcast(&text);
        }
    }

    /// Sends a reply to one socket.
    pub(super) fn reply(&mut self, sub: u64, msg: &ServerMessage) {
        if let Some(text) = encode(msg) {
            self.subs.send_to(sub, Outgoing::Text(text));
        }
    }

    /// Sends a message to every socket of one player.
    pub(super) fn send_to_player(&mut self, player_id: &str, msg: &ServerMessage) {
        let Some(text) = encode(msg) else {
            return;
        };
        let mine: Vec<u64> = self
            .subs
            .iter()
            .filter(|s| s.guest.as_ref().is_some_and(|g| g.id == player_id))
            .map(|s| s.id)
            .collect();
        for sub in mine {
            self.subs.send_to(sub, Outgoing::Text(text.clone()));
        }
    }

    /// Sends the full state to one socket.
    pub(super) fn send_state(&mut self, sub: u64) {
        let Some(guest) = self.subs.get(sub).map(|s| s.guest.clone()) else {
            return;
        };
        let state = self.state_for(guest.as_ref());
        if let Some(text) = encode(&ServerMessage::State(Box::new(state))) {
            self.subs.send_state(sub, text);
        }
    }

    /// Tells the room the table changed (seats, readiness, spectators, game status).
    pub(super) fn publish(&self) {
        self.room.table_changed(self.table_view(), false);
    }

    /// Updates the room's copy of the table without an event (a move changes only the ply
    /// and the side to move).
    pub(super) fn refresh_room_copy(&self) {
        if let Some(g) = self.game.as_ref() {
            let turn = super::game::side(g.position().turn());
            self.room.table_moved(&self.id, g.ply(), turn);
        }
    }

    /// Graceful shutdown: store the live clock of a running game, so the restart resumes
    /// from exactly here.
    async fn flush(&mut self) {
        self.thinking = None;
        let now = self.core.time.now_ms();
        if let Some(g) = self.game.as_mut().filter(|g| g.playing()) {
            let first_move = g.first_move_left(now).map(to_i64);
            g.clock.pause(now);
            let snapshot = g.clock_snapshot(now);
            if let Err(e) = self
                .core
                .store
                .save_clock(&g.id, snapshot, first_move, None)
                .await
            {
                tracing::error!(error = %e, game = %g.id, "cannot save the clock at shutdown");
            }
        }
    }

    /// The empty table goes away.
    fn close(&mut self) {
        let v = self.next_v();
        self.broadcast(&ServerMessage::TableClosed { v });
        self.subs
            .close_all(damka_protocol::close::NORMAL, "table closed");
        tracing::info!("table closed");
    }
}

/// Removes a table from the registry and its room when its task ends.
struct Registered {
    /// The registry (and through it the metrics).
    tables: Arc<Tables>,
    /// Table id.
    id: String,
    /// The table's room.
    room: Arc<Room>,
    /// The actor's queue: what the registry holds for this table (and not for a newer
    /// table of the same id, as a parked table loaded again is).
    tx: mpsc::WeakSender<Command>,
}

impl Drop for Registered {
    fn drop(&mut self) {
        // On shutdown the table stays listed: the server is going away with it, and its
        // game is resumed by the next start.
        let core = self.tables.core();
        // A parked table has left the registry already (and may be loaded again by now:
        // that table is not this one's to remove).
        let own = || {
            self.tx
                .upgrade()
                .is_some_and(|tx| self.tables.remove_own(&self.id, &tx))
        };
        if !core.shutdown.is_cancelled() && own() {
            self.room.table_removed(&self.id);
            // In a cluster the table's lease goes with it (kept at shutdown: it is
            // handed over with the game).
            self.tables.released(&self.id);
        }
        core.metrics.tables.dec();
    }
}

impl TableActor {
    /// What the table shows, read from its state ([`super::view`]).
    fn sight(&self) -> Sight<'_> {
        Sight {
            id: &self.id,
            room: &self.room,
            variant: self.variant,
            options: &self.options,
            seating: &self.seating,
            counts: self.presence_now(),
            game: self.game.as_ref(),
            tournament: self.tournament.as_ref(),
            micro: self.micro.as_ref(),
            v: self.v,
            offer_plies: self.core.config.tables.draw_offer_plies,
        }
    }

    /// The public table object (room lists, `GET /api/tables/{id}`, `state.table`).
    pub fn table_view(&self) -> damka_protocol::TableView {
        self.sight().table_view()
    }

    /// The full state as seen by `guest` (or a spectator without a session).
    pub fn state_for(&self, guest: Option<&damka_protocol::Player>) -> ServerState {
        let now = self.core.time.now_ms();
        self.sight()
            .state(guest, self.chat_for(guest), self.claim_at(now), now)
    }

    /// The chat scope of this table in the store.
    pub(super) fn chat_scope(&self) -> String {
        social::chat_scope(&self.id)
    }

    /// The chat history as `guest` may see it ([`social::chat_for`]).
    pub(super) fn chat_for(
        &self,
        guest: Option<&damka_protocol::Player>,
    ) -> Vec<damka_protocol::ChatMessage> {
        social::chat_for(&self.chat, self.game.as_ref(), guest)
    }

    /// Ms until the connected player may claim against the disconnected one
    /// ([`social::claim_at`]).
    pub(super) fn claim_at(&self, now: u64) -> Option<u64> {
        let delay = self.core.config.claim_delay_ms(self.options.minutes);
        social::claim_at(
            self.game.as_ref(),
            &self.options,
            self.presence.one_away(),
            delay,
            now,
        )
    }

    /// Tells the room who is here (guests with a socket open: playing the running game,
    /// or at the table), if that changed.
    fn publish_people(&mut self) {
        // Run after every wake-up of the table (every move): compared in place, and the
        // list built only when it changed.
        let game = self.game.as_ref();
        if self
            .presence
            .people_unchanged(social::people(&self.subs, game))
        {
            return;
        }
        let at: Vec<_> = social::people(&self.subs, game)
            .map(|(p, w)| (p.clone(), w))
            .collect();
        self.room.table_people(&self.id, at.clone());
        self.presence.people_reported(at);
    }

    /// Tells the player of `color` about `kind`, unless they are watching this table
    /// ([`notices::notification`]); sent on a task of its own.
    pub(super) fn notify_away(&self, color: Color, kind: crate::push::Kind) {
        let Some((player, n)) = self.game.as_ref().and_then(|g| {
            notices::notification(g, &self.id, self.variant, &self.subs, color, kind)
        }) else {
            return;
        };
        let core = self.core.clone();
        self.core.tracker.spawn(
            async move {
                let sent = core
                    .push
                    .deliver(&core.store, &core.metrics, &player, &n)
                    .await;
                if let Err(e) = sent {
                    tracing::warn!(error = %e, "push notifications not sent");
                }
            }
            .instrument(tracing::debug_span!("push")),
        );
    }

    /// Tells each of `whom` (a colour and what about).
    fn notify(&self, whom: Vec<(Color, crate::push::Kind)>) {
        for (color, kind) in whom {
            self.notify_away(color, kind);
        }
    }

    /// The running correspondence game, unless its clock is held.
    pub(super) fn correspondence_game(&self) -> Option<&LiveGame> {
        correspondence::running(self.options.days, self.game.as_ref())
    }

    /// When the time-low notice of the move being thought is due (server ms), if not
    /// sent yet.
    pub(super) fn time_low_at(&self, now: u64) -> Option<u64> {
        let g = self.correspondence_game()?;
        self.correspondence
            .time_low_at(g, self.options.period_ms()?, now)
    }

    /// When a correspondence timer is due (server ms), if any.
    fn correspondence_due(&self, now: u64) -> Option<u64> {
        let g = self.correspondence_game()?;
        self.correspondence.due(g, self.options.period_ms()?, now)
    }

    /// A correspondence table's clock changed (a move, a start, a takeback, a hold's
    /// end): save it at once.
    pub(super) fn correspondence_moved(&mut self) {
        if self.options.days.is_some() {
            self.correspondence.moved(self.core.time.now_ms());
        }
    }

    /// Starts a search if the computer is to move and none runs for this ply
    /// ([`computer::think`]); its answer comes back as [`Command::ComputerMove`].
    pub(super) fn maybe_think(&mut self) {
        let facts = computer::Facts {
            table: &self.id,
            tournament: self.tournament.as_ref().map(|t| t.id.as_str()),
            increment_ms: u64::from(self.options.increment) * 1000,
            address: self.creator_ip,
            now: self.core.time.now_ms(),
            seed: crate::random::u64,
        };
        let (req, thinking) =
            match computer::think(self.game.as_ref(), self.thinking.as_ref(), &facts) {
                Think::Stop => {
                    self.thinking = None;
                    return;
                }
                Think::Wait => return,
                Think::Start(req, thinking) => (req, thinking),
            };
        let (game_id, ply) = (thinking.game_id.clone(), thinking.ply);
        self.thinking = Some(thinking);
        let Some(tx) = self.tx.upgrade() else {
            return;
        };
        let core = self.core.clone();
        self.core.tracker.spawn(async move {
            let outcome = core.computer.search(*req).await;
            tracing::debug!(
                ply,
                ms = outcome.elapsed_ms,
                waited_ms = outcome.waited_ms,
                depth = outcome.depth,
                nodes = outcome.nodes,
                "computer move"
            );
            if let Some(mv) = outcome.mv {
                // The table may be gone (closed, shut down): nothing to do then.
                if tx
                    .send(Command::ComputerMove { game_id, ply, mv })
                    .await
                    .is_err()
                {
                    tracing::debug!("the table closed before the computer's move");
                }
            }
        });
    }

    /// Broadcasts `presence` if who is connected changed, and updates the room.
    pub(super) fn presence_changed(&mut self) {
        self.presence_changed_except(None);
    }

    /// [`Self::presence_changed`], not telling socket `except`. A player arriving or
    /// leaving is announced at once; a change in the spectator count alone within
    /// [`super::presence::PRESENCE_COALESCE`].
    pub(super) fn presence_changed_except(&mut self, except: Option<u64>) {
        let now = self.presence_now();
        if self.presence.note(now) == Note::Now {
            self.announce_presence(except);
        }
    }

    /// Broadcasts the current presence (if it changed since the last one) and updates the
    /// room.
    pub(super) fn announce_presence(&mut self, except: Option<u64>) {
        self.update_gone();
        let now = self.presence_now();
        if !self.presence.announce(now.clone()) {
            return;
        }
        let v = self.next_v();
        let claim_at = self.claim_at(self.core.time.now_ms());
        let msg = ServerMessage::Presence {
            v,
            white: now.connected.white,
            black: now.connected.black,
            spectators: now.spectators,
            claim_at,
            watchers: now.watchers,
        };
        if let Some(text) = encode(&msg) {
            self.subs.broadcast_except(&text, except);
        }
        self.publish();
    }

    /// Who is connected as of now.
    pub(super) fn presence_now(&self) -> Counts {
        presence::counts(&self.seating, &self.subs)
    }

    /// Notes since when each player of the running game has been disconnected.
    pub(super) fn update_gone(&mut self) {
        let now = self.core.time.now_ms();
        let connected = presence::players_connected(self.game.as_ref(), &self.subs);
        self.presence.players_connected(connected, now);
    }
}
