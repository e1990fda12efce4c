//! A move's whole path at a table, in the order it runs: [`TableActor::play`] checks the
//! move against the ply, the turn, the rules and the clock into a [`PreparedMove`]
//! (nothing changed yet: [`LiveGame::check_move`]), stores it (with the end of the game,
//! when it ends it), and only then commits it ([`LiveGame::commit`]), acknowledges it and
//! announces it.

use std::time::Instant;

use damka_protocol::table::PlayedMove;
use damka_protocol::{ClockTimes, ErrorCode};
use draughts::clock::Clock;
use draughts::{Color, Game, Move, Outcome};

use super::actor::{Request, TableActor};
use super::game::{Ended, LiveGame, Phase, to_i64, to_u64};
use super::referee::{Action, Actor, Refusal};
use crate::error::AppError;
use damka_store::MoveRow;

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
#[derive(Debug)]
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
    /// The game's phase after the move (the next first move's window, the clock, or
    /// over).
    pub phase: Phase,
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
    ) -> Result<MoveCheck, Refusal> {
        if !self.playing() {
            return Err(Refusal::Game(ErrorCode::NoGame, "the game is over".into()));
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
                return Err(Refusal::Game(
                    ErrorCode::NotYourTurn,
                    format!("ply {ply} was your opponent's"),
                ));
            }
            return if same_text(&played.mv, text) {
                Ok(MoveCheck::AlreadyPlayed)
            } else {
                Err(Refusal::Game(
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
            return Err(Refusal::Game(
                ErrorCode::NotYourTurn,
                "it is your opponent's turn".into(),
            ));
        }
        if ply != next {
            return Err(Refusal::Game(
                ErrorCode::StalePly,
                format!("the next ply is {next}, not {ply}"),
            ));
        }
        let mv = pos
            .parse_move(text)
            .map_err(|e| Refusal::Game(ErrorCode::IllegalMove, e.to_string()))?;
        let mut clock = self.clock.clone();
        let mut used_ms = 0;
        if clock.running().is_some() {
            match clock.press(now, lag_ms) {
                Ok(t) => used_ms = t.used_ms,
                Err(draughts::clock::PressError::Flagged(c)) => return Ok(MoveCheck::Flagged(c)),
                Err(draughts::clock::PressError::NotRunning) => {}
            }
        } else if let Phase::FirstMoves { due } = self.phase {
            used_ms = self.first_move_ms.saturating_sub(due.saturating_sub(now));
        }
        let variant = pos.variant();
        let text = pos.move_to_string(&mv);
        let captures = mv.captures().map(|sq| variant.square_name(sq)).collect();
        let mut game = self.game.clone();
        game.play(&mv)
            .map_err(|e| Refusal::Internal(format!("engine refused a parsed move: {e}")))?;
        let outcome = game.outcome();
        // The first-move window: the first mover's first move opens the second mover's
        // window; the second mover's first move starts the clock.
        let phase = match (&outcome, &self.phase) {
            (Some(o), _) => {
                clock.stop(now);
                Phase::Over(Ended {
                    outcome: *o,
                    by: None,
                    ratings: None,
                })
            }
            (None, Phase::FirstMoves { .. }) if ply >= self.opening_plies + 2 => {
                clock.start(game.position().turn(), now);
                Phase::Clock
            }
            (None, Phase::FirstMoves { .. }) => Phase::FirstMoves {
                due: now + self.first_move_ms,
            },
            (None, other) => other.clone(),
        };
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
            phase,
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
        self.phase = p.phase;
    }
}

impl TableActor {
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
}
