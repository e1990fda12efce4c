//! What a move means, pure: [`LiveGame::check_move`] checks a move against the ply, the
//! turn, the rules and the clock into a [`PreparedMove`] (nothing changed yet), and
//! [`LiveGame::commit`] applies one once stored. The referee
//! ([`super::referee`]) makes a step of it; the actor stores, applies and announces it.

use damka_protocol::table::PlayedMove;
use damka_protocol::{ClockTimes, ErrorCode};
use draughts::clock::Clock;
use draughts::{Color, Game, Move, Outcome};

use super::game::{Ended, LiveGame, Phase, to_i64, to_u64};
use crate::refusal::Refusal;
use damka_store::MoveRow;

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
