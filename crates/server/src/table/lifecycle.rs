//! Starting a game, the server's own ends of a game (time, the first-move window: run as
//! actions, [`TableActor::act`]), and the clock's holds. Each change is stored before it
//! is announced.

use std::time::Duration;

use damka_protocol::Seats;
use damka_protocol::table::{GameStarted, ServerMessage};
use draughts::{ByColor, Color, Position, Reason};

use super::actor::{Request, TableActor};
use super::game::{GameStart, Hold, LiveGame, side};
use super::referee::{Action, Actor};
use crate::error::AppError;
use crate::random;

/// How soon a game end that could not be stored (and not for an outage) is tried again.
const END_RETRY: Duration = Duration::from_secs(1);

impl TableActor {
    /// Both seated players are ready: start a game (colours swapped if the same two
    /// players played the previous game here), store it, then announce it.
    pub(super) async fn start_game(&mut self) -> Result<(), AppError> {
        let Some((mut white, mut black)) = self.seating.both() else {
            return Ok(());
        };
        if let Some(prev) = self.game.as_ref()
            && prev.players.white.id == white.id
            && prev.players.black.id == black.id
        {
            std::mem::swap(&mut white, &mut black);
        }
        let now = self.core.time.now_ms();
        // The second game of a micro-match: the first game's opening, colours swapped
        // (the players cannot leave their seats in the break), its id the first's with
        // `b` added (a tournament stored its board under that id when it paired).
        let second = self.micro.as_ref().filter(|m| m.in_break());
        let id = match second {
            Some(m) => m.second_id(),
            None => random::token_base36(12),
        };
        let (position, opening, ballot, slot) = if let Some(m) = second {
            // The seated players as they are now (a rated first game changed their
            // ratings), the colours the other way round from the first game.
            if white.id != m.second_players().0.id {
                std::mem::swap(&mut white, &mut black);
            }
            let (position, opening) = m.opening.start(self.rules);
            (position, opening, m.opening.ballot, Some(m.second_slot()))
        } else {
            let (position, ballot) = self.new_start();
            let opening = match self.options.random_opening {
                true => draughts::random_opening(self.rules, random::u64()),
                false => Vec::new(),
            };
            let slot = self.options.micro_match.then(|| damka_store::MatchSlot {
                id: id.clone(),
                game: 1,
            });
            (position, opening, ballot, slot)
        };
        let rated = self.options.rated
            && crate::ratings::within_pair_limit(&self.core, &white.id, &black.id).await?;
        let (live, new) = LiveGame::start(GameStart {
            id,
            table_id: self.id.clone(),
            room: self.room.config.id.clone(),
            variant: self.variant,
            options: self.options.clone(),
            players: ByColor {
                white: white.clone(),
                black: black.clone(),
            },
            position,
            ballot,
            opening,
            micro_match: slot.clone(),
            now,
            started_at: crate::time::unix_ms(),
            first_move_ms: self.first_move_window_ms(),
            rated,
        });
        self.core.store.insert_game(&new).await?;
        self.seating.seat_game(white.clone(), black.clone());
        match slot {
            Some(s) if s.game == 2 => {
                if let Some(m) = self.micro.as_mut() {
                    m.second_started(&live.id);
                }
            }
            Some(_) => self.micro = Some(super::micro_match::MicroMatch::first(&live)),
            None => {}
        }
        let event = GameStarted {
            v: self.next_v(),
            id: live.id.clone(),
            white: white.clone(),
            black: black.clone(),
            seats: Seats {
                white: Some(white),
                black: Some(black),
            },
            initial_fen: live.initial_fen.clone(),
            fen: live.position().to_fen(),
            opening: live.moves.iter().map(|m| m.mv.clone()).collect(),
            ballot: live.ballot.map(super::ballot::shown),
            turn: side(live.position().turn()),
            legal: live.legal(),
            clock: live.clock_view(now),
            counters: live.counters(),
            first_move_deadline: live.first_move_left(now),
            unrated: live.unrated(self.options.rated),
            micro_match: self.micro.as_ref().map(|m| m.view(now)),
        };
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

    /// A new game's start position (the ballot's, drawn now for `"random"`: each game
    /// of a rematch has its own; a test's; or the variant's) and its ballot.
    fn new_start(&self) -> (Position, Option<&'static draughts::ballot::Ballot>) {
        let ballot = super::ballot::draw(self.variant, self.options.ballot.as_ref());
        let position = match (ballot, self.core.config.test.test_start_fen.as_deref()) {
            // Under the table's rules (optional capture, if set), not the variant's.
            (Some(b), _) => Position::from_fen(self.rules, b.fen())
                .unwrap_or_else(|_| Position::new(self.rules)),
            (None, Some(fen)) => {
                Position::from_fen(self.rules, fen).unwrap_or_else(|_| Position::new(self.rules))
            }
            (None, None) => Position::new(self.rules),
        };
        (position, ballot)
    }

    /// A micro-match's break is over: its second game starts, whoever is there (the
    /// first-move window then decides, as for any game). Tried again a little later if
    /// it cannot be stored.
    pub(super) async fn on_match_break_over(&mut self) {
        if let Err(e) = self.start_game().await {
            tracing::warn!(error = %e, "cannot start a micro-match's second game; trying again");
            let retry = self.core.time.now_ms() + END_RETRY.as_millis() as u64;
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

    /// After a rated game: the players' new ratings in their seats (and in the finished
    /// game's players), as the next `state` and the room's table list show them.
    fn rerate(&mut self, changes: &damka_store::RatingChanges) {
        for (c, change) in [
            (Color::White, &changes.white),
            (Color::Black, &changes.black),
        ] {
            let show = |p: &mut damka_protocol::Player| {
                p.rating = Some(crate::ratings::rounded(change.after.rating));
                p.provisional = change.after.provisional();
            };
            if let Some(game) = self.game.as_mut() {
                let id = game.players[c].id.clone();
                show(&mut game.players[c]);
                self.seating.update(&id, show);
                self.subs.update_guest(&id, show);
            }
        }
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
        if let Some(r) = &ratings {
            self.rerate(r);
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
        self.report_to_tournament(result, reason);
    }
}
