//! What players and spectators say and ask at a table besides moves: chat (players'
//! and spectators' kept apart during a game), claims against an opponent who left, and
//! takebacks agreed by both players.

use damka_protocol::table::ServerMessage;
use damka_protocol::{ChatMessage, ClockTimes, ErrorCode, Player, Whereabouts};
use draughts::{ByColor, Color, Game, Position, Reason};

use super::actor::{TableActor, encode};
use super::game::side;
use crate::chat;
use crate::error::AppError;

impl TableActor {
    /// The chat scope of this table in the store.
    pub(super) fn chat_scope(&self) -> String {
        format!("table:{}", self.id)
    }

    /// Whether `guest_id` plays the running game (its chat reaches everyone).
    fn plays_now(&self, guest_id: &str) -> bool {
        self.game
            .as_ref()
            .is_some_and(|g| g.playing() && g.color_of(guest_id).is_some())
    }

    /// The chat history as `guest` may see it: during a game, a player does not see
    /// the spectators' messages.
    pub(super) fn chat_for(&self, guest: Option<&Player>) -> Vec<ChatMessage> {
        let player = guest.is_some_and(|g| self.plays_now(&g.id));
        self.chat
            .history()
            .filter(|m| !(player && m.spectators))
            .cloned()
            .collect()
    }

    /// A chat message: cleaned, rate-limited, stored, then sent to the table (a
    /// spectator's during a game to the spectators only).
    ///
    /// Fails with `bad_message`, `rate_limited` or a storage error.
    pub(super) async fn chat(&mut self, guest: &Player, text: &str) -> Result<(), AppError> {
        let text = self.chat.admit(&guest.id, text)?;
        let spectators =
            self.game.as_ref().is_some_and(|g| g.playing()) && !self.plays_now(&guest.id);
        let from = self.room.shown_player(guest);
        let row = chat::new_row(&self.chat_scope(), &from, text, spectators);
        self.core.store.save_chat(&row).await?;
        let msg = chat::message(&row);
        self.chat.record(msg.clone());
        let Some(text) = encode(&ServerMessage::Chat(msg)) else {
            return Ok(());
        };
        if spectators {
            let players: Vec<u64> = self
                .subs
                .iter()
                .filter(|s| s.guest.as_ref().is_some_and(|g| self.plays_now(&g.id)))
                .map(|s| s.id)
                .collect();
            self.subs.broadcast_to(&text, |id| !players.contains(&id));
        } else {
            self.subs.broadcast(&text);
        }
        Ok(())
    }

    /// Tells the room who is here (guests with a socket open: playing the running game,
    /// or at the table), if that changed.
    pub(super) fn publish_people(&mut self) {
        // Run after every wake-up of the table (every move): compared in place, and the
        // list built only when it changed.
        if self.presence.people_unchanged(self.people_now()) {
            return;
        }
        let at: Vec<(Player, Whereabouts)> =
            self.people_now().map(|(p, w)| (p.clone(), w)).collect();
        self.room.table_people(&self.id, at.clone());
        self.presence.people_reported(at);
    }

    /// The guests with a socket open here (each once, in joining order), and whether they
    /// play the running game.
    fn people_now(&self) -> impl Iterator<Item = (&Player, Whereabouts)> + '_ {
        self.subs.iter().enumerate().filter_map(move |(i, s)| {
            let g = s.guest.as_ref().filter(|g| !g.is_bot())?;
            let earlier = self.subs.iter().take(i);
            if earlier
                .filter_map(|o| o.guest.as_ref())
                .any(|o| o.id == g.id)
            {
                return None;
            }
            let w = if self.plays_now(&g.id) {
                Whereabouts::Playing
            } else {
                Whereabouts::Table
            };
            Some((g, w))
        })
    }

    /// Ms until the connected player of the running game may claim against the
    /// disconnected one (0: now), or `None` (nobody gone, both gone, the first moves not
    /// made yet, a computer or one-screen table).
    pub(super) fn claim_at(&self, now: u64) -> Option<u64> {
        let g = self
            .game
            .as_ref()
            .filter(|g| g.playing() && g.both_moved())?;
        // Correspondence players are away most of the time: no claims, the clock decides.
        if self.options.local || self.options.days.is_some() || g.players.any(Player::is_bot) {
            return None;
        }
        let (_, since) = self.presence.one_away()?;
        let due = since + self.core.config.claim_delay_ms(self.options.minutes);
        Some(due.saturating_sub(now))
    }

    /// `claim_victory` / `claim_draw`: the opponent has been gone for the claim delay.
    ///
    /// Fails with `no_game`, `not_seated`, `bad_message` (nobody to claim against, or
    /// too early) or a storage error.
    pub(super) async fn claim(&mut self, guest: &Player, draw: bool) -> Result<(), AppError> {
        let me = self.game_color(guest)?;
        self.update_gone();
        let now = self.core.time.now_ms();
        let opponent_gone = self
            .presence
            .one_away()
            .is_some_and(|(c, _)| c == me.other());
        match self.claim_at(now) {
            Some(0) if opponent_gone => {}
            Some(ms) if opponent_gone => {
                return Err(AppError::BadMessage(format!(
                    "your opponent may still come back: you can claim in {} s",
                    ms.div_ceil(1000)
                )));
            }
            _ => {
                return Err(AppError::BadMessage(
                    "there is nothing to claim: your opponent is connected".into(),
                ));
            }
        }
        self.before_write()?;
        let winner = (!draw).then_some(me);
        tracing::info!(draw, "claim against an absent opponent");
        self.finish_by(winner, Reason::Abandoned, Some(me)).await
    }

    /// Whether takebacks are allowed here: casual tables only (never with the computer,
    /// never at a tournament table).
    fn takebacks_allowed(&self) -> bool {
        self.tournament.is_none() && self.options.bot.is_none()
    }

    /// How many plies a takeback for `by` undoes now (its last move and the reply, if
    /// made), checked against the first moves (which only an abort undoes).
    fn takeback_plies(&self, by: Color) -> Result<u32, AppError> {
        let g = self
            .game
            .as_ref()
            .ok_or_else(|| AppError::game(ErrorCode::NoGame, "no game is being played"))?;
        let plies = if g.position().turn() == by { 2 } else { 1 };
        if g.ply() < g.opening_plies + 2 + plies {
            return Err(AppError::BadMessage(
                "the first moves cannot be taken back (abort instead)".into(),
            ));
        }
        Ok(plies)
    }

    /// `takeback_offer`.
    ///
    /// Fails with `no_game`, `not_seated`, `bad_message` (not here, nothing to take
    /// back) or `rate_limited`.
    pub(super) async fn takeback_offer(&mut self, guest: &Player) -> Result<(), AppError> {
        let me = self.game_color(guest)?;
        if !self.takebacks_allowed() {
            return Err(AppError::BadMessage(
                "takebacks are for casual games between people".into(),
            ));
        }
        self.takeback_plies(me)?;
        if self.options.local {
            return self.take_back(me).await;
        }
        let every = self.core.config.draw_offer_plies;
        let Some(game) = self.game.as_mut() else {
            return Ok(());
        };
        if game.offers.takeback == Some(me.other()) {
            // Asking while the opponent's request stands is accepting it.
            return self.take_back(me.other()).await;
        }
        if game.offers.takeback == Some(me) {
            return Ok(());
        }
        let ply = game.ply();
        game.offers.ask_takeback(me, ply, every)?;
        let v = self.next_v();
        self.broadcast(&ServerMessage::TakebackOffered {
            v,
            by: side(me),
            next: super::offers::next_offer(Some(ply), every),
        });
        self.notify_away(me.other(), crate::push::Kind::Offer);
        Ok(())
    }

    /// `takeback_accept` / `takeback_decline`.
    ///
    /// Fails with `no_game`, `not_seated`, `bad_message` (no request) or a storage
    /// error.
    pub(super) async fn takeback_answer(
        &mut self,
        guest: &Player,
        accept: bool,
    ) -> Result<(), AppError> {
        let me = self.game_color(guest)?;
        if self.game.as_ref().and_then(|g| g.offers.takeback) != Some(me.other()) {
            return Err(AppError::BadMessage(
                "there is no takeback request to answer".into(),
            ));
        }
        if accept {
            return self.take_back(me.other()).await;
        }
        if let Some(g) = self.game.as_mut() {
            g.offers.takeback = None;
        }
        let v = self.next_v();
        self.broadcast(&ServerMessage::TakebackDeclined { v, by: side(me) });
        Ok(())
    }

    /// Undoes `by`'s last move (and the reply, if made): stored first (the moves deleted,
    /// the clock as after the remaining last move), then applied, announced with
    /// `takeback` and a fresh `state` to every socket.
    ///
    /// Fails with `bad_message` or a storage error (nothing changes then).
    async fn take_back(&mut self, by: Color) -> Result<(), AppError> {
        let plies = self.takeback_plies(by)?;
        self.before_write()?;
        let now = self.core.time.now_ms();
        let Some(g) = self.game.as_ref() else {
            return Ok(());
        };
        let keep = g.ply() - plies;
        let keep_idx = usize::try_from(keep).unwrap_or(0);
        let Some(clock_after) = g.moves.get(keep_idx.wrapping_sub(1)).map(|m| m.clock) else {
            return Err(AppError::BadMessage("nothing to take back".into()));
        };
        // The position after the kept moves, replayed from the start.
        let start = Position::from_fen(self.rules, &g.initial_fen)
            .map_err(|e| AppError::Internal(e.to_string()))?;
        let mut game = Game::new(start);
        for m in &g.moves[..keep_idx] {
            let mv = game
                .position()
                .parse_move(&m.mv)
                .map_err(|e| AppError::Internal(e.to_string()))?;
            game.play(&mv)
                .map_err(|e| AppError::Internal(e.to_string()))?;
        }
        let ClockTimes { white, black } = clock_after;
        let id = g.id.clone();
        let stored = self
            .core
            .store
            .take_back(
                &id,
                damka_store::ClockRow {
                    white_ms: super::game::to_i64(white),
                    black_ms: super::game::to_i64(black),
                    ply: i64::from(keep),
                },
            )
            .await;
        self.stored(stored, now)?;
        let Some(g) = self.game.as_mut() else {
            return Ok(());
        };
        let mut clock = g.clock.with_times(white, black);
        clock.start(game.position().turn(), now);
        g.game = game;
        g.clock = clock;
        g.moves.truncate(keep_idx);
        g.offers.clear();
        // Prepared replies were for a position no longer on the board (cleared in the
        // store with the moves; the state resent below shows none).
        g.conditional = None;
        g.lag_ms = ByColor::default();
        tracing::info!(game = %id, plies, "takeback");
        let v = self.next_v();
        self.broadcast(&ServerMessage::Takeback {
            v,
            by: side(by),
            plies,
            ply: keep,
        });
        self.resend_states();
        self.refresh_room_copy();
        self.correspondence_moved();
        Ok(())
    }
}
