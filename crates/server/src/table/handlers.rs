//! What each table-socket message does: an action on the running game is handed to the
//! executor ([`TableActor::act`]) as it is; seats, readiness and moves' requests are
//! handled here. Every rejection is an `error` to the sender only; nothing a client sends
//! can close the table or reach another player.

use std::time::Instant;

use damka_protocol::table::{ClientMessage, ServerMessage};
use damka_protocol::{ErrorCode, Player, Side};
use draughts::Color;

use super::actor::{Request, TableActor};
use super::conditional::Conditional;
use super::game::{Hold, LiveGame, color};
use super::referee::{Action, Actor};
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
            (ref m, Some(_)) if self.tournament_refuses(m).is_err() => self.tournament_refuses(m),
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
    pub(super) async fn on_bot_move(&mut self, game_id: &str, ply: u32, text: &str) {
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
}
