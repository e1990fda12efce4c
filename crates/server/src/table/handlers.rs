//! What each table-socket message, command and timer does: an action on the running game
//! is handed to the executor ([`TableActor::act`]) as it is; seats, readiness, moves'
//! requests, chat, the computer's answer, prepared replies and forfeits are handled here,
//! and so are a game's start ([`super::lifecycle`] says what it starts from), the
//! server's own ends (time, the first-move window), the clock's holds, the
//! correspondence timers and parking. Every rejection is an `error` to the sender only;
//! nothing a client sends can close the table or reach another player.

use std::time::Instant;

use damka_protocol::table::{ClientMessage, ServerMessage};
use damka_protocol::{ErrorCode, Player, Side};
use draughts::{ByColor, Color, Reason};

use super::actor::{Request, TableActor};
use super::conditional::Conditional;
use super::correspondence;
use super::game::{GameStart, Hold, LiveGame, color, side};
use super::lifecycle;
use super::parked::Parked;
use super::referee::{Action, Actor};
use super::social;
use super::subscribers::encode;
use super::tournament;
use crate::error::AppError;

/// A move to play: whose, what, for which ply, and who asked.
pub(super) struct MoveRequest<'a> {
    /// The side that moves.
    pub by: Color,
    /// The move as sent.
    pub text: &'a str,
    /// The ply it is meant for (a resent move is played at most once).
    pub ply: u32,
    /// The socket it came from (`None`: the computer's).
    pub sub: Option<u64>,
    /// The id to acknowledge it with.
    pub ack: Option<serde_json::Value>,
    /// The sender's one-way network delay estimate, ms (lag compensation).
    pub lag_ms: u64,
    /// When the session received it (move latency metric).
    pub received: Instant,
}

/// A reply due from prepared lines: who plays it, what, for which ply.
pub(super) struct DueReply {
    /// The side that prepared it.
    pub by: draughts::Color,
    /// The move.
    pub text: String,
    /// Its ply.
    pub ply: u32,
}

impl TableActor {
    /// Handles one message of socket `sub`.
    pub(super) async fn on_client(
        &mut self,
        sub: u64,
        msg: ClientMessage,
        lag_ms: u64,
        received: Instant,
    ) {
        tracing::debug!(sub, ?msg, "client message");
        let Some(guest) = self.subs.get(sub).map(|s| s.guest.clone()) else {
            return;
        };
        let ack = match &msg {
            ClientMessage::Move { ack, .. } | ClientMessage::Chat { ack, .. } => ack.clone(),
            _ => None,
        };
        let result = match (msg, guest) {
            (ClientMessage::Resync, _) => {
                self.send_state(sub);
                Ok(())
            }
            (ClientMessage::Ping { ts }, _) => {
                self.reply(sub, &ServerMessage::Pong { ts });
                Ok(())
            }
            (_, None) => Err(AppError::Unauthorized),
            (ref m, Some(_)) if tournament::refuses(self.tournament.is_some(), m).is_err() => {
                tournament::refuses(true, m)
            }
            (ClientMessage::Sit { seat }, Some(g)) => self.sit(g, seat).await,
            (ClientMessage::Stand, Some(g)) => self.stand(&g),
            (ClientMessage::Start, Some(g)) => self.start(&g).await,
            (ClientMessage::Move { mv, ply, ack }, Some(g)) => match self.game_color(&g) {
                Ok(by) => {
                    let req = MoveRequest {
                        by,
                        text: &mv,
                        ply,
                        sub: Some(sub),
                        ack,
                        lag_ms,
                        received,
                    };
                    self.play(req).await
                }
                Err(e) => Err(e),
            },
            (ClientMessage::Chat { text, .. }, Some(g)) => self.chat(&g, &text).await,
            (ClientMessage::DrawOffer, Some(g)) => self.player_acts(&g, Action::DrawOffer).await,
            (ClientMessage::DrawAccept, Some(g)) => {
                self.player_acts(&g, Action::DrawAnswer { accept: true })
                    .await
            }
            (ClientMessage::DrawDecline, Some(g)) => {
                self.player_acts(&g, Action::DrawAnswer { accept: false })
                    .await
            }
            (ClientMessage::Resign, Some(g)) => self.player_acts(&g, Action::Resign).await,
            (ClientMessage::Abort, Some(g)) => self.player_acts(&g, Action::Abort).await,
            (ClientMessage::ClaimVictory, Some(g)) => {
                self.player_acts(&g, Action::Claim { draw: false }).await
            }
            (ClientMessage::ClaimDraw, Some(g)) => {
                self.player_acts(&g, Action::Claim { draw: true }).await
            }
            (ClientMessage::TakebackOffer, Some(g)) => {
                self.player_acts(&g, Action::TakebackOffer).await
            }
            (ClientMessage::TakebackAccept, Some(g)) => {
                self.player_acts(&g, Action::TakebackAnswer { accept: true })
                    .await
            }
            (ClientMessage::TakebackDecline, Some(g)) => {
                self.player_acts(&g, Action::TakebackAnswer { accept: false })
                    .await
            }
            (ClientMessage::Conditional { lines }, Some(g)) => {
                self.player_acts(&g, Action::Conditional { lines }).await
            }
        };
        if let Err(e) = result {
            self.reply_error(sub, e, ack);
        }
    }

    /// An action of the guest's on the running game, as the player of their colour.
    ///
    /// Fails with `no_game`, `not_seated` or the action's refusal.
    async fn player_acts(&mut self, guest: &Player, action: Action) -> Result<(), AppError> {
        let me = self.game_color(guest)?;
        self.act(Actor::Player(me), action, Request::default())
            .await
    }

    /// `POST /api/games/{id}/conditional`: the player's prepared replies set as the
    /// socket's `conditional` sets them; the lines as kept.
    ///
    /// Fails as [`Action::Conditional`] is refused.
    pub(super) async fn set_conditional(
        &mut self,
        player: &Player,
        lines: Vec<Vec<String>>,
    ) -> Result<Vec<Vec<String>>, AppError> {
        self.player_acts(player, Action::Conditional { lines })
            .await?;
        let kept = self.game.as_ref().and_then(|g| g.conditional.as_ref());
        Ok(kept.map(|c| c.lines.clone()).unwrap_or_default())
    }

    /// Sends an error to one socket (with the legal moves for `illegal_move`).
    pub(super) fn reply_error(&mut self, sub: u64, e: AppError, ack: Option<serde_json::Value>) {
        let code = e.code();
        let legal = (code == ErrorCode::IllegalMove)
            .then(|| self.game.as_ref().map(|g| g.legal()).unwrap_or_default());
        let msg = ServerMessage::Error {
            code,
            message: e.client_message(),
            ack,
            legal,
        };
        self.reply(sub, &msg);
    }

    fn game_playing(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.playing())
    }

    /// Seats change and games start only between games.
    ///
    /// Fails with `game_in_progress`.
    fn between_games(&self) -> Result<(), AppError> {
        if self.game_playing() {
            return Err(AppError::game(
                ErrorCode::GameInProgress,
                "a game is being played",
            ));
        }
        Ok(())
    }

    /// Nobody changes seats between the two games of a micro-match: its second game
    /// is between the same two players.
    ///
    /// Fails with `game_in_progress`.
    fn seats_kept_for_the_match(&self) -> Result<(), AppError> {
        if self.micro.as_ref().is_some_and(|m| m.in_break()) {
            return Err(AppError::game(
                ErrorCode::GameInProgress,
                "the micro-match's second game follows",
            ));
        }
        Ok(())
    }

    /// The guest's seat, when they may leave it or get ready (no game being played).
    ///
    /// Fails with `not_seated` or `game_in_progress`.
    fn seat_between_games(&self, guest: &Player) -> Result<Side, AppError> {
        let seat = self
            .seating
            .seat_of(&guest.id)
            .ok_or_else(|| AppError::game(ErrorCode::NotSeated, "you are not seated here"))?;
        self.between_games()?;
        Ok(seat)
    }

    /// The colour the guest plays in the running game.
    ///
    /// Fails with `no_game` or `not_seated`.
    pub(super) fn game_color(&self, guest: &Player) -> Result<Color, AppError> {
        let game = self
            .game
            .as_ref()
            .filter(|g| g.playing())
            .ok_or_else(|| AppError::game(ErrorCode::NoGame, "no game is being played"))?;
        if let Some(c) = super::computer::local_color(self.options.local, self.game.as_ref(), guest)
        {
            return Ok(c);
        }
        game.color_of(&guest.id)
            .ok_or_else(|| AppError::game(ErrorCode::NotSeated, "you do not play this game"))
    }

    /// Takes a seat. An account sits with its rating as it is now (read again: the one
    /// its socket opened with may be hours old), which is what a rated table's range is
    /// checked against.
    async fn sit(&mut self, guest: Player, seat: Side) -> Result<(), AppError> {
        self.between_games()?;
        self.seats_kept_for_the_match()?;
        let guest = if guest.account {
            let correspondence = self.options.days.is_some();
            crate::ratings::shown_in(&self.core, guest, self.variant, correspondence).await?
        } else {
            guest
        };
        super::open::may_sit(&self.options, &guest, true)?;
        match self.seating.player(color(seat)) {
            Some(p) if p.id == guest.id => return Ok(()),
            Some(_) => return Err(AppError::game(ErrorCode::SeatTaken, "that seat is taken")),
            None => {}
        }
        match self.seating.seat_of(&guest.id) {
            // Changing seats at the same table: the guest's table count stays the same.
            Some(other) => {
                self.vacate(other);
                self.take_seat(guest, seat);
            }
            None => {
                let (tables, id) = (self.tables.clone(), guest.id.clone());
                tables.seat_within_limit(&id, || self.take_seat(guest, seat))?;
            }
        }
        Ok(())
    }

    /// Seats a guest in an empty seat and tells the table and the room.
    fn take_seat(&mut self, guest: Player, seat: Side) {
        self.seating.take(seat, guest.clone());
        let v = self.next_v();
        self.broadcast(&ServerMessage::Seated {
            v,
            seat,
            player: guest,
        });
        self.presence_changed();
        // Updates the room's view, which is what `seat_within_limit` counts.
        self.publish();
    }

    fn stand(&mut self, guest: &Player) -> Result<(), AppError> {
        let seat = self.seat_between_games(guest)?;
        self.seats_kept_for_the_match()?;
        self.vacate(seat);
        if self.options.local {
            // One guest held both seats of the one-screen table.
            self.vacate(seat.other());
        }
        self.presence_changed();
        self.publish();
        Ok(())
    }

    /// Empties a seat and announces it.
    fn vacate(&mut self, seat: Side) {
        self.seating.vacate(seat);
        let v = self.next_v();
        self.broadcast(&ServerMessage::Stood { v, seat });
    }

    async fn start(&mut self, guest: &Player) -> Result<(), AppError> {
        let seat = self.seat_between_games(guest)?;
        // At a one-screen table the guest holds both seats: one press readies both.
        let seats = if self.options.local {
            vec![seat, seat.other()]
        } else {
            vec![seat]
        };
        for seat in seats {
            if self.seating.set_ready(seat) {
                let v = self.next_v();
                self.broadcast(&ServerMessage::Ready { v, seat });
            }
        }
        if self.seating.all_set() {
            self.start_game().await?;
        }
        self.publish();
        Ok(())
    }

    /// Before a player's action is stored: a restored game's clock runs again (the
    /// player is obviously back), and one held for an outage refuses the action at once
    /// while the database is still down (or runs again if it is back).
    ///
    /// Fails with `storage_unavailable`.
    pub(super) fn before_write(&mut self) -> Result<(), AppError> {
        let Some(hold) = self.game.as_ref().and_then(LiveGame::held) else {
            return Ok(());
        };
        if hold == Hold::Storage && !self.core.store.breaker().healthy() {
            return Err(AppError::Database(damka_store::StoreError::Unavailable(
                "the store's circuit is open".into(),
            )));
        }
        self.release_hold();
        Ok(())
    }

    /// Plays a move (a person's, or the computer's) as an action ([`TableActor::act`]):
    /// checked, stored, then applied, acknowledged and announced; then a correspondence
    /// game's prepared replies that are due, each as its player's own move.
    ///
    /// Fails with `no_game`, `stale_ply`, `not_your_turn`, `illegal_move` or
    /// `storage_unavailable`.
    pub(super) async fn play(&mut self, req: MoveRequest<'_>) -> Result<(), AppError> {
        let MoveRequest {
            by,
            text,
            ply,
            sub,
            ack,
            lag_ms,
            received,
        } = req;
        let action = Action::Move {
            text: text.to_owned(),
            ply,
            lag_ms,
        };
        let from = Request {
            sub,
            ack,
            received: Some(received),
        };
        let (mut by, mut ply) = (by, ply);
        self.act(Actor::Player(by), action, from).await?;
        // Each prepared reply due is played at once as its player's own move (and may
        // meet the next prepared reply, and so on).
        while let Some(played) = self.played(ply) {
            let Some(due) = self.conditional_after(by, &played).await else {
                break;
            };
            let action = Action::Move {
                text: due.text,
                ply: due.ply,
                lag_ms: 0,
            };
            let from = Request {
                received: Some(received),
                ..Request::default()
            };
            if let Err(e) = self.act(Actor::Player(due.by), action, from).await {
                tracing::warn!(error = %e, "a prepared reply was not played");
                break;
            }
            (by, ply) = (due.by, due.ply);
        }
        Ok(())
    }

    /// The move played as ply `ply` of the game, if that is its last ply (a move just
    /// played, not one resent).
    fn played(&self, ply: u32) -> Option<String> {
        let game = self.game.as_ref()?;
        (game.ply() == ply).then(|| game.moves.last().map(|m| m.mv.clone()))?
    }

    /// The computer's answer for `ply` of game `game_id`: played like a person's move,
    /// on its clock, stored before it is shown. A stale answer (the game ended or moved
    /// on) is dropped.
    pub(super) async fn on_computer_move(&mut self, game_id: &str, ply: u32, text: &str) {
        if !super::computer::answers(self.thinking.as_ref(), game_id, ply) {
            return;
        }
        self.thinking = None;
        let Some(by) = super::computer::mover(self.game.as_ref(), game_id) else {
            return;
        };
        // The same path as a person's move: checks, clock, store, then announce. If it
        // fails (the database is down), the next wake-up asks the computer again.
        let req = MoveRequest {
            by,
            text,
            ply,
            sub: None,
            ack: None,
            lag_ms: 0,
            received: std::time::Instant::now(),
        };
        if let Err(e) = self.play(req).await {
            tracing::warn!(error = %e, "the computer's move was not played");
        }
    }

    /// Tells a player's own sockets their prepared replies (nobody else sees them).
    fn tell_conditional(&mut self, player_id: &str, lines: &[Vec<String>]) {
        let msg = ServerMessage::Conditional {
            lines: lines.to_vec(),
        };
        self.send_to_player(player_id, &msg);
    }

    /// After `by` played `played` (stored and applied): the opponent's prepared reply, if
    /// a line expected the move. The lines go on (two moves shorter) or go, stored
    /// before the reply is played; the opponent is told what is left.
    pub(super) async fn conditional_after(
        &mut self,
        by: draughts::Color,
        played: &str,
    ) -> Option<DueReply> {
        let game = self.game.as_ref()?;
        let prepared = game.conditional.as_ref().filter(|c| c.by == by.other())?;
        // Lines set for the position before this move (not one a takeback undid).
        let (reply, left) = if game.playing() && prepared.ply + 1 == game.ply() {
            prepared.after(played)
        } else {
            (None, None)
        };
        let (game_id, ply, owner) = (
            game.id.clone(),
            game.ply() + 1,
            game.player(by.other()).id.clone(),
        );
        let now = self.core.time.now_ms();
        let stored = self
            .core
            .store
            .save_conditional(&game_id, left.as_ref().map(Conditional::to_json))
            .await;
        let shown = left.as_ref().map(|c| c.lines.clone()).unwrap_or_default();
        if let Some(game) = self.game.as_mut() {
            game.conditional = left;
        }
        if let Err(e) = self.stored(stored, now) {
            // Not stored: nothing is played for the player (a restart would not know).
            tracing::warn!(error = %e, "conditional moves not stored; none played");
            if let Some(game) = self.game.as_mut() {
                game.conditional = None;
            }
            self.tell_conditional(&owner, &[]);
            return None;
        }
        self.tell_conditional(&owner, &shown);
        reply.map(|text| DueReply {
            by: by.other(),
            text,
            ply,
        })
    }

    /// A chat message: cleaned, rate-limited, stored, then sent to the table (a
    /// spectator's during a game to the spectators only).
    ///
    /// Fails with `bad_message`, `rate_limited` or a storage error.
    pub(super) async fn chat(&mut self, guest: &Player, text: &str) -> Result<(), AppError> {
        let text = self.chat.admit(&guest.id, text)?;
        let game = self.game.as_ref();
        let spectators = social::spectators_only(game, &guest.id);
        let from = self.room.shown_player(guest);
        let row = crate::chat::new_row(&self.chat_scope(), &from, text, spectators);
        self.core.store.save_chat(&row).await?;
        let msg = crate::chat::message(&row);
        self.chat.record(msg.clone());
        let Some(text) = encode(&ServerMessage::Chat(msg)) else {
            return Ok(());
        };
        if spectators {
            let game = self.game.as_ref();
            let players: Vec<u64> = self
                .subs
                .iter()
                .filter(|s| {
                    s.guest
                        .as_ref()
                        .is_some_and(|g| social::plays_now(game, &g.id))
                })
                .map(|s| s.id)
                .collect();
            self.subs.broadcast_to(&text, |id| !players.contains(&id));
        } else {
            self.subs.broadcast(&text);
        }
        Ok(())
    }

    /// A player left the tournament: their running game here is resigned, and a
    /// micro-match's second game not started yet (`game_id` is its id, or the first
    /// game's while it runs) is not played: reported to the tournament as forfeited
    /// ([`tournament::forfeit_second`]).
    pub(super) async fn forfeit(&mut self, game_id: &str, player_id: &str) {
        if let Some(color) = self
            .game
            .as_ref()
            .filter(|g| g.playing() && g.id == game_id)
            .and_then(|g| g.color_of(player_id))
            && let Err(e) = self
                .finish(Some(color.other()), draughts::Reason::Resign)
                .await
        {
            tracing::warn!(error = %e, "cannot store a forfeited tournament game now");
            return;
        }
        let (Some(t), Some(m)) = (self.tournament.as_ref(), self.micro.as_mut()) else {
            return;
        };
        let Some(report) = tournament::forfeit_second(t, m, game_id, player_id) else {
            return;
        };
        tracing::info!(game = %report.game, "a micro-match's second game forfeited");
        self.tables.report(report);
        self.resend_states();
        self.publish();
    }

    /// Both seated players are ready (or a micro-match's break is over): start a game
    /// ([`lifecycle::next_game`]), store it, then announce it.
    ///
    /// Fails with the store's error.
    pub(super) async fn start_game(&mut self) -> Result<(), AppError> {
        let Some(seated) = self.seating.both() else {
            return Ok(());
        };
        let now = self.core.time.now_ms();
        let draws = lifecycle::Draws {
            id: crate::random::token_base36(12),
            ballot: super::ballot::draw(self.variant, self.options.ballot.as_ref()),
            opening_seed: crate::random::u64(),
        };
        let next = lifecycle::next_game(
            seated,
            self.game.as_ref(),
            self.micro.as_ref(),
            self.rules,
            &self.options,
            self.core.config.test.test_start_fen.as_deref(),
            draws,
        );
        let rated = self.options.rated
            && crate::ratings::within_pair_limit(&self.core, &next.white.id, &next.black.id)
                .await?;
        let (white, black) = (next.white.clone(), next.black.clone());
        let (live, new) = LiveGame::start(GameStart {
            id: next.id,
            table_id: self.id.clone(),
            room: self.room.config.id.clone(),
            variant: self.variant,
            options: self.options.clone(),
            players: ByColor {
                white: next.white,
                black: next.black,
            },
            position: next.position,
            ballot: next.ballot,
            opening: next.opening,
            micro_match: next.slot.clone(),
            now,
            started_at: crate::time::unix_ms(),
            first_move_ms: self.first_move_window_ms(),
            rated,
        });
        self.core.store.insert_game(&new).await?;
        self.seating.seat_game(white, black);
        match next.slot {
            Some(s) if s.game == 2 => {
                if let Some(m) = self.micro.as_mut() {
                    m.second_started(&live.id);
                }
            }
            Some(_) => self.micro = Some(super::micro_match::MicroMatch::first(&live)),
            None => {}
        }
        let v = self.next_v();
        let event = lifecycle::started(&live, self.micro.as_ref(), self.options.rated, v, now);
        let ended = live.game.outcome();
        self.game = Some(live);
        self.presence.game_started();
        self.correspondence_moved();
        self.core.metrics.games_started.inc();
        tracing::info!(game = %event.id, "game started");
        self.broadcast(&ServerMessage::GameStarted(Box::new(event)));
        self.presence_changed();
        if let Some(o) = ended {
            // A set-up position that is already decided (tests only).
            self.finish(o.winner, o.reason).await?;
        }
        Ok(())
    }

    /// A micro-match's break is over: its second game starts, whoever is there (the
    /// first-move window then decides, as for any game). Tried again a little later if
    /// it cannot be stored.
    pub(super) async fn on_match_break_over(&mut self) {
        if let Err(e) = self.start_game().await {
            tracing::warn!(error = %e, "cannot start a micro-match's second game; trying again");
            let retry = self.core.time.now_ms() + lifecycle::END_RETRY.as_millis() as u64;
            if let Some(m) = self.micro.as_mut().filter(|m| m.in_break()) {
                m.stage = super::micro_match::Stage::Break { until: retry };
            }
            return;
        }
        // Nobody to play it (never: the seats are kept in the break): the match is over,
        // rather than a break that never ends.
        if let Some(m) = self.micro.as_mut().filter(|m| m.in_break()) {
            tracing::warn!("a micro-match's second game has no players: the match ends");
            m.stage = super::micro_match::Stage::Over;
            self.resend_states();
        }
        self.publish();
    }

    /// The server ends the running game now (time, the first-move window, a forfeit):
    /// stored, then applied and announced ([`TableActor::act`]). Nothing changes if it
    /// cannot be stored, and a database outage holds the clock until the database is back.
    ///
    /// Fails with the store's error.
    pub(super) async fn finish(
        &mut self,
        winner: Option<Color>,
        reason: Reason,
    ) -> Result<(), AppError> {
        let end = Action::End { winner, reason };
        self.act(Actor::Server, end, Request::default()).await
    }

    /// The first-move window or a flag timer expired (`deadline`: when it was due, server
    /// ms; `None` for a retry), or a restart's grace ended.
    pub(super) async fn on_deadline(&mut self, deadline: Option<u64>) {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_mut().filter(|g| g.playing()) else {
            return;
        };
        if let Some(Hold::Restart { until }) = game.held() {
            if now >= until {
                tracing::info!(game = %game.id, "restart grace over: the clock runs again");
                self.release_hold();
            }
            return;
        }
        let ended = if game.first_move_left(now) == Some(0) {
            tracing::info!(game = %game.id, "first move not made in time");
            let (winner, reason) =
                super::tournament::first_move_missed(self.tournament.is_some(), self.game.as_ref());
            self.finish(winner, reason).await
        } else if let Some(flagged) = game.clock.flagged(now) {
            let ruled = self.finish(Some(flagged.other()), Reason::Timeout).await;
            if let (Ok(()), Some(due)) = (&ruled, deadline) {
                // How late the flag was ruled: stored and announced, after the timer.
                let late = self
                    .core
                    .time
                    .now_us()
                    .saturating_sub(due.saturating_mul(1000));
                self.core
                    .metrics
                    .flag_late
                    .observe(std::time::Duration::from_micros(late));
            }
            ruled
        } else {
            Ok(())
        };
        if ended.is_err() {
            // Tried again later: on recovery for an outage, else after a while.
            self.end_retry = Some(tokio::time::Instant::now() + lifecycle::END_RETRY);
        }
    }

    /// The outcome of a write of this table, as the player's action sees it: a failure
    /// holds the clock first if the database is out ([`Self::storage_failed`]).
    ///
    /// Fails with the store's error.
    pub(super) fn stored<T>(
        &mut self,
        result: Result<T, damka_store::StoreError>,
        now: u64,
    ) -> Result<T, AppError> {
        result.map_err(|e| {
            self.storage_failed(&e, now);
            e.into()
        })
    }

    /// A write of this table failed: if the database is unavailable, hold the clock
    /// (charged to nobody) until it takes writes again, and show why.
    pub(super) fn storage_failed(&mut self, e: &damka_store::StoreError, now: u64) {
        if !e.is_outage() {
            return;
        }
        let Some(game) = self.game.as_mut().filter(|g| g.playing()) else {
            return;
        };
        if game.held() == Some(Hold::Storage) {
            return;
        }
        game.hold_clock(Hold::Storage, now);
        tracing::warn!(game = %game.id, "database unavailable: the clock is held");
        self.resend_states();
    }

    /// Runs a held clock again from now and tells every socket; a game whose time ran
    /// out, or whose first-move window closed, while its end could not be stored ends now.
    pub(super) fn release_hold(&mut self) {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_mut().filter(|g| g.held().is_some()) else {
            return;
        };
        game.release(now);
        self.resend_states();
        self.correspondence_moved();
    }

    /// Sends every socket a fresh `state` (the clock was held or released: no event
    /// says so).
    pub(super) fn resend_states(&mut self) {
        let subs: Vec<u64> = self.subs.iter().map(|s| s.id).collect();
        for sub in subs {
            self.send_state(sub);
        }
    }

    pub(super) fn announce_end(
        &mut self,
        result: Option<damka_protocol::GameResult>,
        reason: damka_protocol::EndReason,
        now: u64,
    ) {
        let Some((clock, by, ratings)) = self.game.as_ref().map(|g| {
            let ended = g.ended();
            (
                g.clock_view(now),
                ended.and_then(|e| e.by).map(side),
                ended.and_then(|e| e.ratings),
            )
        }) else {
            return;
        };
        self.core.metrics.games_finished.inc();
        tracing::info!(?result, reason = reason.as_str(), "game over");
        let micro_match = self.micro.as_mut().map(|m| {
            let winner = match result {
                Some(damka_protocol::GameResult::White) => Some(Color::White),
                Some(damka_protocol::GameResult::Black) => Some(Color::Black),
                _ => None,
            };
            let until = now + self.core.config.match_break().as_millis() as u64;
            m.game_over(winner, result.is_none(), until);
            Box::new(m.view(now))
        });
        if let (Some(r), Some(game)) = (&ratings, self.game.as_mut()) {
            lifecycle::rerate(game, &mut self.seating, &mut self.subs, r);
        }
        let ratings = ratings.as_ref().map(crate::ratings::wire_ratings);
        let v = self.next_v();
        self.broadcast(&ServerMessage::GameOver {
            v,
            result,
            reason,
            clock,
            by,
            ratings,
            micro_match,
        });
        self.publish();
        if let Some(report) =
            super::tournament::report(self.tournament.as_ref(), self.game.as_ref(), result, reason)
        {
            self.tables.report(report);
        }
    }

    /// When this table parks if nothing happens (server ms): a correspondence game
    /// waiting for a move, clock running and saved, nobody watching, parking on.
    pub(super) fn park_at(&self) -> Option<u64> {
        let after = self.tables.parking()?;
        self.idle_since?;
        self.correspondence_game()?;
        if self.thinking.is_some() || self.tournament.is_some() || self.micro.is_some() {
            return None;
        }
        Some(self.idle_since? + after.as_millis() as u64)
    }

    /// Whether the table may count as idle for parking now.
    pub(super) fn parkable_now(&self) -> bool {
        self.options.days.is_some() && self.subs.is_empty() && self.correspondence_game().is_some()
    }

    /// Parks the table if it still may: its clock saved, then its entry left with the
    /// registry. Returns whether it is parked (the actor then ends).
    pub(super) async fn park(&mut self) -> bool {
        let now = self.core.time.now_ms();
        if !self.parkable_now() {
            self.idle_since = None;
            return false;
        }
        let Some(g) = self.correspondence_game() else {
            return false;
        };
        let flag = g.deadline(now);
        let game = g.id.clone();
        let due = [self.time_low_at(now), flag].into_iter().flatten().min();
        let Some(due) = due else {
            return false;
        };
        if !self.save_correspondence_clock(now).await {
            // Kept loaded; tried again after another idle period.
            self.idle_since = Some(now);
            return false;
        }
        let Some(tx) = self.tx.upgrade() else {
            return false;
        };
        self.tables
            .park(
                &self.id,
                &tx,
                Parked {
                    game,
                    since: now,
                    due,
                },
            )
            .await;
        self.room.table_removed(&self.id);
        true
    }

    /// A correspondence timer fired: tell the side to move its time runs low, save the
    /// clock, or both.
    pub(super) async fn on_correspondence_timer(&mut self) {
        let now = self.core.time.now_ms();
        if self.time_low_at(now).is_some_and(|at| at <= now)
            && let Some(g) = self.correspondence_game()
        {
            let (turn, ply) = (g.position().turn(), g.ply());
            tracing::info!(game = %g.id, ply, "correspondence: time runs low");
            self.notify_away(turn, crate::push::Kind::TimeLow);
            self.correspondence.told_time_low(ply);
        }
        if self.correspondence.save_due(now) {
            self.save_correspondence_clock(now).await;
        }
    }

    /// Saves the running clock with the side to move's deadline (Unix ms)
    /// ([`correspondence::clock_save`]). Returns whether it is saved.
    pub(super) async fn save_correspondence_clock(&mut self, now: u64) -> bool {
        self.correspondence.saving(now);
        let Some(g) = self.correspondence_game() else {
            return false;
        };
        let (snapshot, first_move, deadline) =
            correspondence::clock_save(g, now, crate::time::unix_ms());
        let id = g.id.clone();
        if let Err(e) = self
            .core
            .store
            .save_clock(&id, snapshot, first_move, deadline)
            .await
        {
            tracing::warn!(error = %e, game = %id, "cannot save a correspondence clock");
            return false;
        }
        true
    }
}
