//! Starting a game, applying a stored move, and ending a game. Each change is stored
//! before it is announced.

use std::time::{Duration, Instant};

use damka_protocol::table::{GameStarted, MovePlayed, ServerMessage};
use damka_protocol::{ClockTimes, Seats};
use draughts::clock::Clock;
use draughts::{Color, Game, Position, Reason, random_opening};

use super::actor::{TableActor, encode};
use super::game::{Hold, LiveGame, reason_of, result_of, side, to_i64};
use super::moves::PreparedMove;
use super::subscribers::Outgoing;
use crate::error::AppError;
use crate::{random, time};
use damka_store::{GameRow, MoveRow, NewGame};

/// How soon a game end that could not be stored (and not for an outage) is tried again.
const END_RETRY: Duration = Duration::from_secs(1);

impl TableActor {
    /// Both seated players are ready: start a game (colours swapped if the same two
    /// players played the previous game here), store it, then announce it.
    pub(super) async fn start_game(&mut self) -> Result<(), AppError> {
        let (Some(mut white), Some(mut black)) = (self.seats[0].clone(), self.seats[1].clone())
        else {
            return Ok(());
        };
        if let Some(prev) = self.game.as_ref()
            && prev.white.id == white.id
            && prev.black.id == black.id
        {
            std::mem::swap(&mut white, &mut black);
        }
        let now = self.core.time.now_ms();
        let start = match self.core.config.test_start_fen.as_deref() {
            Some(fen) => {
                Position::from_fen(self.rules, fen).unwrap_or_else(|_| Position::new(self.rules))
            }
            None => Position::new(self.rules),
        };
        let initial_fen = start.to_fen();
        let mut game = Game::new(start);
        let initial_ms = u64::from(self.options.minutes) * 60_000;
        let clock = Clock::new(initial_ms, u64::from(self.options.increment) * 1000);
        let mut opening = Vec::new();
        let mut opening_rows = Vec::new();
        if self.options.random_opening {
            for m in random_opening(self.rules, random::u64()) {
                let pos = game.position();
                let text = pos.move_to_string(&m);
                let captures: Vec<String> = m
                    .captures()
                    .map(|sq| self.variant.square_name(sq))
                    .collect();
                if game.play(&m).is_err() {
                    break;
                }
                opening_rows.push(MoveRow {
                    ply: opening_rows.len() as i64 + 1,
                    mv: text.clone(),
                    fen_after: game.position().to_fen(),
                    white_ms: to_i64(initial_ms),
                    black_ms: to_i64(initial_ms),
                    used_ms: 0,
                });
                opening.push((text, captures));
            }
        }
        let id = random::token_base36(12);
        let started_at = time::unix_ms();
        let opening_plies = opening.len() as u32;
        let row = GameRow {
            id: id.clone(),
            table_id: self.id.clone(),
            room: self.room.config.id.clone(),
            variant: self.variant.name().to_owned(),
            minutes: i64::from(self.options.minutes),
            increment_s: i64::from(self.options.increment),
            random_opening: self.options.random_opening,
            capture_optional: self.options.capture_optional,
            white_id: white.id.clone(),
            white_name: white.name.clone(),
            black_id: black.id.clone(),
            black_name: black.name.clone(),
            initial_fen: initial_fen.clone(),
            opening_plies: i64::from(opening_plies),
            status: damka_protocol::GameStatus::Playing,
            result: None,
            reason: None,
            clock: damka_store::ClockRow {
                white_ms: to_i64(initial_ms),
                black_ms: to_i64(initial_ms),
                ply: i64::from(opening_plies),
            },
            started_at,
            ended_at: None,
        };
        self.core
            .store
            .insert_game(&NewGame {
                row,
                opening: opening_rows,
            })
            .await?;
        let moves = opening
            .iter()
            .enumerate()
            .map(|(i, (text, captures))| damka_protocol::table::PlayedMove {
                ply: i as u32 + 1,
                mv: text.clone(),
                captures: captures.clone(),
                clock: ClockTimes {
                    white: initial_ms,
                    black: initial_ms,
                },
            })
            .collect();
        self.seats = [Some(white.clone()), Some(black.clone())];
        self.ready = [false, false];
        self.bot_ready();
        let live = LiveGame {
            id: id.clone(),
            white: white.clone(),
            black: black.clone(),
            initial_fen: initial_fen.clone(),
            opening_plies,
            game,
            clock,
            moves,
            over: None,
            draw_offer: None,
            last_offer: [None, None],
            first_move_due: Some(now + self.first_move_window_ms()),
            first_move_ms: self.first_move_window_ms(),
            hold: None,
            first_move_held: None,
            takeback_offer: None,
            last_takeback: [None, None],
            started_at,
            lag_ms: [0, 0],
            ended_by: None,
        };
        let event = GameStarted {
            v: self.next_v(),
            id,
            white: white.clone(),
            black: black.clone(),
            seats: Seats {
                white: Some(white),
                black: Some(black),
            },
            initial_fen,
            fen: live.position().to_fen(),
            opening: opening.into_iter().map(|(t, _)| t).collect(),
            turn: side(live.position().turn()),
            legal: live.legal(),
            clock: live.clock_view(now),
            counters: live.counters(),
            first_move_deadline: live.first_move_left(now),
        };
        let ended = live.game.outcome();
        self.game = Some(live);
        self.gone_since = [None, None];
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

    /// A move is stored (with the end of the game, if it ended it): apply it, acknowledge
    /// it, announce it, and announce the end.
    pub(super) async fn commit_move(
        &mut self,
        prepared: PreparedMove,
        sub: u64,
        ack: Option<serde_json::Value>,
        received: Instant,
    ) {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let by = prepared.by;
        let declined = game.draw_offer == Some(by.other());
        // A move cancels a takeback request (announced as declined by the mover).
        let takeback_cancelled = game.takeback_offer.take().is_some();
        // The FEN was written once for the stored row: the event reuses it.
        let (ply, text, captures, fen) = (
            prepared.ply,
            prepared.text.clone(),
            prepared.captures.clone(),
            prepared.row.fen_after.clone(),
        );
        game.commit(prepared);
        if declined || game.draw_offer.is_some() && !game.playing() {
            game.draw_offer = None;
        }
        let event = MovePlayed {
            v: 0,
            ply,
            mv: text,
            by: side(by),
            captures,
            fen,
            turn: side(game.position().turn()),
            clock: game.clock_view(now),
            legal: game.legal(),
            counters: game.counters(),
            first_move_deadline: game.first_move_left(now),
        };
        let outcome = game.over;
        // Everything serialised first, then queued in one burst: the mover's session
        // finds the `ack` and the `move` together and writes them at once.
        let ack = ack.and_then(|ack| encode(&ServerMessage::Ack { ack }));
        let declined = declined.then(|| {
            let v = self.next_v();
            encode(&ServerMessage::DrawDeclined { v, by: side(by) })
        });
        let takeback_cancelled = takeback_cancelled.then(|| {
            let v = self.next_v();
            encode(&ServerMessage::TakebackDeclined { v, by: side(by) })
        });
        let event = MovePlayed {
            v: self.next_v(),
            ..event
        };
        let event = encode(&ServerMessage::Move(Box::new(event)));
        if let Some(ack) = ack {
            self.subs.send_to(sub, Outgoing::Text(ack));
        }
        for text in [declined, takeback_cancelled, Some(event)]
            .into_iter()
            .flatten()
            .flatten()
        {
            self.subs.broadcast(&text);
        }
        self.core.metrics.moves.inc();
        self.core.metrics.move_latency.observe(received.elapsed());
        self.refresh_room_copy();
        if let Some(o) = outcome {
            self.announce_end(result_of(&o), reason_of(&o), now);
        }
    }

    /// Ends the running game now (resign, agreement, abort, timeout): stores the end,
    /// then applies and announces it. Nothing changes if it cannot be stored, and a
    /// database outage holds the clock until the database is back.
    ///
    /// Fails with the store's error.
    pub(super) async fn finish(
        &mut self,
        winner: Option<Color>,
        reason: Reason,
    ) -> Result<(), AppError> {
        self.finish_by(winner, reason, None).await
    }

    /// [`TableActor::finish`] by the action of the player of `by` (a resignation, an
    /// abort, a claim, an accepted draw), which `game_over` names.
    ///
    /// Fails with the store's error.
    pub(super) async fn finish_by(
        &mut self,
        winner: Option<Color>,
        reason: Reason,
        by: Option<Color>,
    ) -> Result<(), AppError> {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_ref().filter(|g| g.playing()) else {
            return Ok(());
        };
        let outcome = draughts::Outcome { winner, reason };
        // The clock as it will be once stopped, without touching the live one yet.
        let mut clock = game.clock.clone();
        clock.stop(now);
        let end = super::game::game_end(&outcome, super::game::clock_row(&clock, now, game.ply()));
        let id = game.id.clone();
        let stored = self.core.store.finish_game(&id, end).await;
        if let Err(e) = stored {
            tracing::error!(error = %e, game = %id, "cannot store the end of a game; not announced");
            self.storage_failed(&e, now);
            return Err(e.into());
        }
        if let Some(game) = self.game.as_mut() {
            game.end_by(winner, reason, by, now);
        }
        self.announce_end(result_of(&outcome), reason_of(&outcome), now);
        Ok(())
    }

    /// The first-move window or a flag timer expired (`deadline`: when it was due, server
    /// ms; `None` for a retry), or a restart's grace ended.
    pub(super) async fn on_deadline(&mut self, deadline: Option<u64>) {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_mut().filter(|g| g.playing()) else {
            return;
        };
        if let Some(Hold::Restart { until }) = game.hold {
            if now >= until {
                tracing::info!(game = %game.id, "restart grace over: the clock runs again");
                self.release_hold();
            }
            return;
        }
        let ended = if game.first_move_left(now) == Some(0) {
            tracing::info!(game = %game.id, "first move not made in time");
            let (winner, reason) = self.first_move_missed();
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
            self.end_retry = Some(tokio::time::Instant::now() + END_RETRY);
        }
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
        if game.hold == Some(Hold::Storage) {
            return;
        }
        game.hold(Hold::Storage, now);
        tracing::warn!(game = %game.id, "database unavailable: the clock is held");
        self.resend_states();
    }

    /// Runs a held clock again from now and tells every socket; a game whose time ran
    /// out, or whose first-move window closed, while its end could not be stored ends now.
    pub(super) fn release_hold(&mut self) {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_mut().filter(|g| g.hold.is_some()) else {
            return;
        };
        game.release(now);
        self.resend_states();
    }

    /// Sends every socket a fresh `state` (the clock was held or released: no event
    /// says so).
    pub(super) fn resend_states(&mut self) {
        let subs: Vec<u64> = self.subs.iter().map(|s| s.id).collect();
        for sub in subs {
            self.send_state(sub);
        }
    }

    fn announce_end(
        &mut self,
        result: Option<damka_protocol::GameResult>,
        reason: damka_protocol::EndReason,
        now: u64,
    ) {
        let Some((clock, by)) = self
            .game
            .as_ref()
            .map(|g| (g.clock_view(now), g.ended_by.map(side)))
        else {
            return;
        };
        self.core.metrics.games_finished.inc();
        tracing::info!(?result, reason = reason.as_str(), "game over");
        let v = self.next_v();
        self.broadcast(&ServerMessage::GameOver {
            v,
            result,
            reason,
            clock,
            by,
        });
        self.publish();
        self.report_to_tournament(result, reason);
    }
}
