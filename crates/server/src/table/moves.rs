//! A move's whole path at a table, in the order it runs: [`TableActor::play`] checks the
//! move against the ply, the turn, the rules and the clock into a [`PreparedMove`]
//! (nothing changed yet: [`LiveGame::check_move`]), stores it (with the end of the game,
//! when it ends it), and only then commits it ([`LiveGame::commit`]), acknowledges it and
//! announces it.

use std::time::Instant;

use damka_protocol::table::{MovePlayed, PlayedMove, ServerMessage};
use damka_protocol::{ClockTimes, ErrorCode};
use draughts::clock::Clock;
use draughts::{Color, Game, Move, Outcome, Reason};

use super::actor::{TableActor, encode};
use super::game::{LiveGame, reason_of, result_of, side, to_i64, to_u64};
use super::subscribers::Outgoing;
use crate::error::AppError;
use damka_store::{ClockRow, MoveRow};

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

/// A move that passed every check, ready to be stored; [`LiveGame::commit`] applies it.
pub struct PreparedMove {
    /// Ply of the move.
    pub ply: u32,
    /// The side that moved.
    pub by: Color,
    /// The engine's move.
    pub mv: Move,
    /// Full path.
    pub text: String,
    /// Captured squares' names.
    pub captures: Vec<String>,
    /// The game after the move.
    pub game: Game,
    /// The clock after the move.
    pub clock: Clock,
    /// The row to store.
    pub row: MoveRow,
    /// The game ended with this move.
    pub outcome: Option<Outcome>,
    /// When the first-move window closes after this move (`None` once the clock runs).
    pub first_move_due: Option<u64>,
    /// The mover's connection lag (ms).
    pub lag_ms: u64,
}

/// What a move message amounts to.
pub enum MoveCheck {
    /// A new move to store and apply.
    New(Box<PreparedMove>),
    /// The same move resent for a ply already played: acknowledge again, change nothing.
    AlreadyPlayed,
    /// The mover's time was already out: the game is lost on time.
    Flagged(Color),
}

/// Whether two move texts mean the same (`:` and `x` are the same separator).
fn same_text(a: &str, b: &str) -> bool {
    let norm = |s: &str| s.trim().replace(':', "x").to_ascii_lowercase();
    norm(a) == norm(b)
}

impl LiveGame {
    /// Checks a move message of `by` for ply `ply` at `now`, without changing anything.
    ///
    /// Fails with `no_game`, `stale_ply`, `not_your_turn` or `illegal_move`.
    pub fn check_move(
        &self,
        by: Color,
        text: &str,
        ply: u32,
        now: u64,
        lag_ms: u64,
    ) -> Result<MoveCheck, AppError> {
        if !self.playing() {
            return Err(AppError::game(ErrorCode::NoGame, "the game is over"));
        }
        let next = self.ply() + 1;
        if ply >= 1 && ply < next {
            let played = &self.moves[(ply - 1) as usize];
            // Sides alternate every ply: ply `next` is the side to move's.
            let to_move = self.position().turn();
            let mover = if (next - ply).is_multiple_of(2) {
                to_move
            } else {
                to_move.other()
            };
            if mover != by {
                return Err(AppError::game(
                    ErrorCode::NotYourTurn,
                    format!("ply {ply} was your opponent's"),
                ));
            }
            return if same_text(&played.mv, text) {
                Ok(MoveCheck::AlreadyPlayed)
            } else {
                Err(AppError::game(
                    ErrorCode::StalePly,
                    format!(
                        "ply {ply} was already played ({}); the next ply is {next}",
                        played.mv
                    ),
                ))
            };
        }
        let pos = self.position();
        if pos.turn() != by {
            return Err(AppError::game(
                ErrorCode::NotYourTurn,
                "it is your opponent's turn",
            ));
        }
        if ply != next {
            return Err(AppError::game(
                ErrorCode::StalePly,
                format!("the next ply is {next}, not {ply}"),
            ));
        }
        let mv = pos
            .parse_move(text)
            .map_err(|e| AppError::game(ErrorCode::IllegalMove, e.to_string()))?;
        let mut clock = self.clock.clone();
        let mut used_ms = 0;
        if clock.running().is_some() {
            match clock.press(now, lag_ms) {
                Ok(t) => used_ms = t.used_ms,
                Err(draughts::clock::PressError::Flagged(c)) => return Ok(MoveCheck::Flagged(c)),
                Err(draughts::clock::PressError::NotRunning) => {}
            }
        } else if let Some(due) = self.first_move_due {
            used_ms = self.first_move_ms.saturating_sub(due.saturating_sub(now));
        }
        let variant = pos.variant();
        let text = pos.move_to_string(&mv);
        let captures = mv.captures().map(|sq| variant.square_name(sq)).collect();
        let mut game = self.game.clone();
        game.play(&mv)
            .map_err(|e| AppError::Internal(format!("engine refused a parsed move: {e}")))?;
        let outcome = game.outcome();
        // The first-move window: the first mover's first move opens the second mover's
        // window; the second mover's first move starts the clock.
        let mut first_move_due = self.first_move_due;
        if first_move_due.is_some() {
            if ply >= self.opening_plies + 2 {
                first_move_due = None;
                if outcome.is_none() {
                    clock.start(game.position().turn(), now);
                }
            } else {
                first_move_due = Some(now + self.first_move_ms);
            }
        }
        if outcome.is_some() {
            clock.stop(now);
        }
        let row = MoveRow {
            ply: i64::from(ply),
            mv: text.clone(),
            fen_after: game.position().to_fen(),
            white_ms: to_i64(clock.remaining(Color::White, now)),
            black_ms: to_i64(clock.remaining(Color::Black, now)),
            used_ms: to_i64(used_ms),
        };
        Ok(MoveCheck::New(Box::new(PreparedMove {
            ply,
            by,
            mv,
            text,
            captures,
            game,
            clock,
            row,
            outcome,
            first_move_due,
            lag_ms,
        })))
    }

    /// Applies a stored move.
    pub fn commit(&mut self, p: PreparedMove) {
        self.moves.push(PlayedMove {
            ply: p.ply,
            mv: p.text,
            captures: p.captures,
            clock: ClockTimes {
                white: to_u64(p.row.white_ms),
                black: to_u64(p.row.black_ms),
            },
        });
        self.game = p.game;
        self.clock = p.clock;
        self.lag_ms[p.by] = p.lag_ms;
        self.first_move_due = p.first_move_due;
        if let Some(o) = p.outcome {
            self.over = Some(o);
        }
    }
}

impl TableActor {
    /// Plays a move (a person's, or the computer's): checked, stored, then committed,
    /// acknowledged and announced.
    ///
    /// Fails with `no_game`, `stale_ply`, `not_your_turn`, `illegal_move` or
    /// `storage_unavailable`.
    pub(super) async fn play(&mut self, req: MoveRequest<'_>) -> Result<(), AppError> {
        let by = req.by;
        let received = req.received;
        let Some(played) = self.play_one(req).await? else {
            return Ok(());
        };
        // A correspondence game's prepared replies: each one due is played at once as
        // its player's own move (and may meet the next prepared reply, and so on).
        let (mut by, mut played) = (by, played);
        while let Some(due) = self.conditional_after(by, &played).await {
            let req = MoveRequest {
                by: due.by,
                text: &due.text,
                ply: due.ply,
                sub: None,
                ack: None,
                lag_ms: 0,
                received,
            };
            match self.play_one(req).await {
                Ok(Some(next)) => (by, played) = (due.by, next),
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "a prepared reply was not played");
                    break;
                }
            }
        }
        Ok(())
    }

    /// [`TableActor::play`] for one move: the move as stored when it was a new one.
    async fn play_one(&mut self, req: MoveRequest<'_>) -> Result<Option<String>, AppError> {
        let now = self.core.time.now_ms();
        let check = |game: &LiveGame| game.check_move(req.by, req.text, req.ply, now, req.lag_ms);
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let mut checked = check(game)?;
        if game.hold.is_some() && !matches!(checked, MoveCheck::AlreadyPlayed) {
            // A new move on a held clock: run it again first (or refuse at once while the
            // database is down), and check the move against the running clock.
            self.before_write()?;
            checked = check(self.game.as_ref().ok_or_else(no_game)?)?;
        }
        match checked {
            MoveCheck::AlreadyPlayed => {
                if let (Some(sub), Some(ack)) = (req.sub, req.ack) {
                    self.reply(sub, &ServerMessage::Ack { ack });
                }
                Ok(None)
            }
            MoveCheck::Flagged(c) => {
                self.finish(Some(c.other()), Reason::Timeout).await?;
                Err(AppError::game(
                    ErrorCode::NoGame,
                    "your time ran out before the move",
                ))
            }
            MoveCheck::New(prepared) => {
                self.store_move(&prepared, now).await?;
                let text = prepared.text.clone();
                self.commit_move(*prepared, req.sub, req.ack, req.received);
                Ok(Some(text))
            }
        }
    }

    /// Durable first: a move is acknowledged and shown only once stored, and a move that
    /// ends the game is stored with the end (one transaction).
    ///
    /// Fails with the store's error (a database outage holds the clock).
    async fn store_move(&mut self, p: &PreparedMove, now: u64) -> Result<(), AppError> {
        let game = self.game.as_ref().ok_or_else(no_game)?;
        let game_id = &game.id;
        let store = &self.core.store;
        let (stored, end) = match &p.outcome {
            None => (store.append_move(game_id, &p.row).await, None),
            Some(o) => {
                let clock = ClockRow {
                    white_ms: p.row.white_ms,
                    black_ms: p.row.black_ms,
                    ply: p.row.ply,
                };
                let end = game.end_row(o, clock);
                (
                    store.append_last_move(game_id, &p.row, end.clone()).await,
                    Some(end),
                )
            }
        };
        self.stored(stored, now)?;
        if let (Some(game), Some(end)) = (self.game.as_mut(), end) {
            game.stored_end(&end);
        }
        Ok(())
    }

    /// A stored move: applied, acknowledged to its sender and announced to the table
    /// (with the draw offer it declined, the takeback request it cancelled, and the end
    /// of the game it ended).
    fn commit_move(
        &mut self,
        prepared: PreparedMove,
        sub: Option<u64>,
        ack: Option<serde_json::Value>,
        received: Instant,
    ) {
        let now = self.core.time.now_ms();
        let Some(game) = self.game.as_mut() else {
            return;
        };
        let by = prepared.by;
        let withdrawn = game.offers.moved(by);
        // The FEN was written once for the stored row: the event reuses it.
        let (ply, text, captures, fen) = (
            prepared.ply,
            prepared.text.clone(),
            prepared.captures.clone(),
            prepared.row.fen_after.clone(),
        );
        game.commit(prepared);
        if !game.playing() {
            game.offers.clear();
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
        let declined = withdrawn.draw_declined.then(|| {
            let v = self.next_v();
            encode(&ServerMessage::DrawDeclined { v, by: side(by) })
        });
        let takeback_cancelled = withdrawn.takeback_cancelled.then(|| {
            let v = self.next_v();
            encode(&ServerMessage::TakebackDeclined { v, by: side(by) })
        });
        let event = MovePlayed {
            v: self.next_v(),
            ..event
        };
        let event = encode(&ServerMessage::Move(Box::new(event)));
        if let (Some(sub), Some(ack)) = (sub, ack) {
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
        self.notify_moved();
        self.correspondence_moved();
    }
}

fn no_game() -> AppError {
    AppError::game(ErrorCode::NoGame, "no game is being played")
}
