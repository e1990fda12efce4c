//! The game being played at a table: the engine's `Game` and `Clock`, the moves with their
//! clock times, the first-move window and the offers. Pure and synchronous: the actor
//! decides when to store and broadcast; this file decides what a timer means, and
//! [`super::moves`] what a move means. [`LiveGame::start`] is the one way a new game is
//! made (at a table, or for a tournament's pairing).

use damka_protocol::ballot::BallotChoice;
use damka_protocol::table::PlayedMove;
use damka_protocol::{
    ClockTimes, ClockView, CounterView, EndReason, GameResult, GameStatus, Options, Player,
};
use draughts::ballot::Ballot;
use draughts::clock::Clock;
use draughts::{ByColor, Color, Game, Outcome, Position, Reason, Variant};

use super::offers::Offers;
pub use super::sides::{color, side};
use damka_store::{ClockRow, GameEnd, GameRow, MoveRow, NewGame, RatedEnd, RatingChanges};

thread_local! {
    /// A move list for [`LiveGame::legal`], one per thread.
    static SCRATCH: std::cell::RefCell<draughts::MoveList> =
        std::cell::RefCell::new(draughts::MoveList::new());
}

/// A game at a table, running or finished.
pub struct LiveGame {
    /// Game id.
    pub id: String,
    /// The players.
    pub players: ByColor<Player>,
    /// Position before ply 1.
    pub initial_fen: String,
    /// How many of the first plies were the random opening.
    pub opening_plies: u32,
    /// The opening ballot the game started from (`initial_fen` is its position).
    pub ballot: Option<&'static Ballot>,
    /// Position and history (draw rules).
    pub game: Game,
    /// The Fischer clock (or a correspondence game's, a period per move); not running
    /// until the second mover's first move.
    pub clock: Clock,
    /// Every ply with its clock times.
    pub moves: Vec<PlayedMove>,
    /// Where the game is in its life: first moves, on the clock, held, or over.
    pub phase: Phase,
    /// The draw offer and takeback request, and when each side may make the next.
    pub offers: Offers,
    /// The length of a first-move window, ms.
    pub first_move_ms: u64,
    /// Wall-clock start (Unix ms).
    pub started_at: i64,
    /// Each side's connection lag as of its last move (ms): the flag waits that much
    /// longer, so a move sent in time is judged by the clock's lag compensation instead.
    pub lag_ms: ByColor<u64>,
    /// Rated: an end with a result changes both players' ratings (stored with the end).
    pub rated: bool,
    /// A correspondence game's prepared replies of the side not to move.
    pub conditional: Option<super::conditional::Conditional>,
}

/// Where a game is in its life.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// A first move is pending (each side's first move has a window of its own, and the
    /// clock waits for the second mover's): the window closes at `due` (server ms).
    FirstMoves {
        /// When the window closes.
        due: u64,
    },
    /// The clock runs for the side to move.
    Clock,
    /// The server stopped the clock (and a pending first move's window) for now: the
    /// time is charged to nobody.
    Held {
        /// Why.
        why: Hold,
        /// A pending first move's window: what was left of it, ms (`None`: the clock
        /// was running).
        window_left: Option<u64>,
    },
    /// Over.
    Over(Ended),
}

/// How a game ended, as its table knows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Ended {
    /// The outcome.
    pub outcome: Outcome,
    /// The side whose action ended the game (resigned, aborted, claimed it, accepted the
    /// draw), `None` for an end the rules or the server ruled. Not stored.
    pub by: Option<Color>,
    /// Once a rated game's end is stored: both players' rating changes.
    pub ratings: Option<RatingChanges>,
}

/// What a new game is: where, between whom, on what clock, from what position.
pub struct GameStart {
    /// The game's id.
    pub id: String,
    /// The table it is played at.
    pub table_id: String,
    /// The room.
    pub room: String,
    /// The variant.
    pub variant: Variant,
    /// The table's options (clock, random opening, optional capture).
    pub options: Options,
    /// The players.
    pub players: ByColor<Player>,
    /// The position before the first ply (the variant's start, the ballot's, or a
    /// test's).
    pub position: Position,
    /// The opening ballot `position` is the position of, if any.
    pub ballot: Option<&'static Ballot>,
    /// The random opening's plies from `position` (empty for none).
    pub opening: Vec<draughts::Move>,
    /// The micro-match the game belongs to, and which of its games it is.
    pub micro_match: Option<damka_store::MatchSlot>,
    /// Server ms now: the first-move window runs from here.
    pub now: u64,
    /// Unix ms now: the game's start as stored.
    pub started_at: i64,
    /// The length of a first-move window, ms.
    pub first_move_ms: u64,
    /// Whether the game is rated: the table's (or tournament's) option, unless the two
    /// players reached their daily number of rated games against each other.
    pub rated: bool,
}

impl LiveGame {
    /// A new game and the rows to store for it (the game and its random-opening plies),
    /// started now: the first-move window runs, the clock waits for the second mover's
    /// first move.
    pub fn start(s: GameStart) -> (LiveGame, NewGame) {
        let (initial_ms, clock) = match s.options.period_ms() {
            Some(period) => (period, Clock::per_move(period)),
            None => {
                let initial = u64::from(s.options.minutes) * 60_000;
                let increment = u64::from(s.options.increment) * 1000;
                (initial, Clock::new(initial, increment))
            }
        };
        let initial_fen = s.position.to_fen();
        let mut game = Game::new(s.position);
        let mut moves = Vec::new();
        let mut opening = Vec::new();
        for m in s.opening {
            let pos = game.position();
            let text = pos.move_to_string(&m);
            let captures = m.captures().map(|sq| s.variant.square_name(sq)).collect();
            if game.play(&m).is_err() {
                break;
            }
            let ply = u32::try_from(moves.len() + 1).unwrap_or(u32::MAX);
            opening.push(MoveRow {
                ply: i64::from(ply),
                mv: text.clone(),
                fen_after: game.position().to_fen(),
                white_ms: to_i64(initial_ms),
                black_ms: to_i64(initial_ms),
                used_ms: 0,
            });
            moves.push(PlayedMove {
                ply,
                mv: text,
                captures,
                clock: ClockTimes {
                    white: initial_ms,
                    black: initial_ms,
                },
            });
        }
        let opening_plies = u32::try_from(moves.len()).unwrap_or(u32::MAX);
        let started_at = s.started_at;
        let row = GameRow {
            id: s.id.clone(),
            table_id: s.table_id,
            room: s.room,
            variant: s.variant.name().to_owned(),
            minutes: i64::from(s.options.minutes),
            increment_s: i64::from(s.options.increment),
            days: s.options.days.map(i64::from),
            random_opening: s.options.random_opening,
            capture_optional: s.options.capture_optional,
            rated: s.rated,
            white_id: s.players.white.id.clone(),
            white_name: s.players.white.name.clone(),
            black_id: s.players.black.id.clone(),
            black_name: s.players.black.name.clone(),
            initial_fen: initial_fen.clone(),
            opening_plies: i64::from(opening_plies),
            ballot: s.ballot.map(|b| b.id().to_owned()),
            ballot_random: matches!(s.options.ballot, Some(BallotChoice::Random)),
            micro_match: s.micro_match,
            status: GameStatus::Playing,
            result: None,
            reason: None,
            clock: ClockRow {
                white_ms: to_i64(initial_ms),
                black_ms: to_i64(initial_ms),
                ply: i64::from(opening_plies),
            },
            started_at,
            ended_at: None,
        };
        let live = LiveGame {
            id: s.id,
            players: s.players,
            initial_fen,
            opening_plies,
            ballot: s.ballot,
            game,
            clock,
            moves,
            phase: Phase::FirstMoves {
                due: s.now + s.first_move_ms,
            },
            offers: Offers::default(),
            first_move_ms: s.first_move_ms,
            started_at,
            lag_ms: ByColor::default(),
            rated: s.rated,
            conditional: None,
        };
        (live, NewGame { row, opening })
    }
}

/// Why the server stops a running game's clock and first-move window for a while: the
/// time is charged to nobody.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hold {
    /// Restored after a restart: until both players are back, or `until` (server ms).
    Restart {
        /// When the grace ends.
        until: u64,
    },
    /// A write of this table failed because the database is unavailable: until it takes
    /// writes again.
    Storage,
}

/// The wire result of an outcome (`None` for an aborted game).
pub fn result_of(outcome: &Outcome) -> Option<GameResult> {
    match (outcome.winner, outcome.reason) {
        (_, Reason::Aborted) => None,
        (Some(Color::White), _) => Some(GameResult::White),
        (Some(Color::Black), _) => Some(GameResult::Black),
        (None, _) => Some(GameResult::Draw),
    }
}

/// The wire reason of an outcome.
pub fn reason_of(outcome: &Outcome) -> EndReason {
    match outcome.reason {
        Reason::NoMoves => EndReason::NoMoves,
        Reason::Resign => EndReason::Resign,
        Reason::Timeout => EndReason::Timeout,
        Reason::Agreement => EndReason::Agreement,
        Reason::Threefold => EndReason::Threefold,
        Reason::MoveLimit => EndReason::MoveLimit,
        Reason::Aborted => EndReason::Aborted,
        Reason::Abandoned => EndReason::Abandoned,
    }
}

/// The clocks to store: both sides' time left at `now` on `clock`, as of `ply`.
pub fn clock_row(clock: &Clock, now: u64, ply: u32) -> ClockRow {
    ClockRow {
        white_ms: to_i64(clock.remaining(Color::White, now)),
        black_ms: to_i64(clock.remaining(Color::Black, now)),
        ply: i64::from(ply),
    }
}

/// How a game ended, to store: its outcome with the final clocks, at `ended_at` (Unix
/// ms); a rated game (`rated`: its variant and players) with a result is rated with it.
pub fn game_end(
    outcome: &Outcome,
    clock: ClockRow,
    rated: Option<RatedEnd>,
    ended_at: i64,
) -> GameEnd {
    let result = result_of(outcome);
    GameEnd {
        result,
        reason: reason_of(outcome),
        clock,
        ended_at,
        rated: rated.filter(|_| result.is_some()),
    }
}

impl LiveGame {
    /// How this game ended, to store (rated with it when the game is rated and both
    /// players have moved: a game that ends before is never rated, so a resignation or
    /// a flag before the first moves farms nothing).
    pub fn end_row(&self, outcome: &Outcome, clock: ClockRow, ended_at: i64) -> GameEnd {
        let rated = (self.rated && self.both_moved()).then(|| {
            RatedEnd::new(
                &crate::ratings::pool(self.position().variant(), self.clock.is_per_move()),
                &self.players.white.id,
                &self.players.black.id,
            )
        });
        game_end(outcome, clock, rated, ended_at)
    }

    /// Notes a stored end's rating changes (if it was rated) in the ended game.
    pub fn rated(&mut self, ratings: Option<RatingChanges>) {
        if let Phase::Over(ended) = &mut self.phase {
            ended.ratings = ratings;
        }
    }

    /// The outcome, once over.
    pub fn over(&self) -> Option<Outcome> {
        match &self.phase {
            Phase::Over(e) => Some(e.outcome),
            _ => None,
        }
    }

    /// How the game ended, once over.
    pub fn ended(&self) -> Option<&Ended> {
        match &self.phase {
            Phase::Over(e) => Some(e),
            _ => None,
        }
    }

    /// Why the server holds the clock, if it does.
    pub fn held(&self) -> Option<Hold> {
        match self.phase {
            Phase::Held { why, .. } => Some(why),
            _ => None,
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// Whether the game is still being played.
    pub fn playing(&self) -> bool {
        !matches!(self.phase, Phase::Over(_))
    }

    /// Plies played, opening included.
    pub fn ply(&self) -> u32 {
        u32::try_from(self.moves.len()).unwrap_or(u32::MAX)
    }

    /// The player of a colour.
    pub fn player(&self, color: Color) -> &Player {
        &self.players[color]
    }

    /// The colour a guest plays, if they play this game (White first at a one-screen
    /// table).
    pub fn color_of(&self, guest_id: &str) -> Option<Color> {
        self.players.find(|p| p.id == guest_id)
    }

    /// At a table whose options say rated: why this game is not.
    pub fn unrated(&self, table_rated: bool) -> Option<damka_protocol::Unrated> {
        (table_rated && !self.rated).then_some(damka_protocol::Unrated::PairLimit)
    }

    /// Whether both players have made their first move (abort no longer allowed).
    pub fn both_moved(&self) -> bool {
        self.ply() >= self.opening_plies + 2
    }

    /// The legal moves of the side to move as text (empty once over).
    pub fn legal(&self) -> Vec<String> {
        if !self.playing() {
            return Vec::new();
        }
        let pos = self.position();
        // A move list is a 10 KiB array: fill this thread's instead of making (zeroing)
        // and moving a new one after every move.
        SCRATCH.with_borrow_mut(|list| {
            pos.legal_moves_into(list);
            list.iter().map(|m| pos.move_to_string(m)).collect()
        })
    }

    /// The live draw-rule counters.
    pub fn counters(&self) -> Vec<CounterView> {
        self.game
            .counters()
            .into_iter()
            .map(|c| CounterView {
                rule: c.rule.to_owned(),
                moves: c.moves,
                limit: c.limit,
            })
            .collect()
    }

    /// The clock as of `now`.
    pub fn clock_view(&self, now: u64) -> ClockView {
        ClockView {
            white: self.clock.remaining(Color::White, now),
            black: self.clock.remaining(Color::Black, now),
            running: self.clock.running().map(side),
        }
    }

    /// Time left for the pending first move, while the first-move window applies.
    pub fn first_move_left(&self, now: u64) -> Option<u64> {
        match self.phase {
            Phase::FirstMoves { due } => Some(due.saturating_sub(now)),
            Phase::Held { window_left, .. } => window_left,
            Phase::Clock | Phase::Over(_) => None,
        }
    }

    /// Stops the clock and the first-move window at `now` for `hold` (a storage hold
    /// outlasts a restart hold).
    pub fn hold_clock(&mut self, hold: Hold, now: u64) {
        let window_left = match &mut self.phase {
            Phase::Over(_) => return,
            Phase::Held { why, .. } => {
                if *why != Hold::Storage {
                    *why = hold;
                }
                return;
            }
            Phase::FirstMoves { due } => Some(due.saturating_sub(now)),
            Phase::Clock => None,
        };
        self.clock.pause(now);
        self.phase = Phase::Held {
            why: hold,
            window_left,
        };
    }

    /// Runs the clock (or the first-move window) again from `now`, with the times it had
    /// when it was held.
    pub fn release(&mut self, now: u64) {
        let Phase::Held { window_left, .. } = self.phase else {
            return;
        };
        self.phase = match window_left {
            Some(left) => Phase::FirstMoves { due: now + left },
            None => Phase::Clock,
        };
        self.clock.resume(now);
    }

    /// When the actor must wake up for this game: the first-move deadline, the running
    /// side's flag, or the end of a restart's grace.
    pub fn deadline(&self, now: u64) -> Option<u64> {
        match self.phase {
            Phase::Over(_) => None,
            Phase::Held {
                why: Hold::Restart { until },
                ..
            } => Some(until),
            Phase::Held {
                why: Hold::Storage, ..
            } => None,
            Phase::FirstMoves { due } => Some(due),
            Phase::Clock => {
                if self.clock.flagged(now).is_some() {
                    // Ran out while held (the end could not be stored then): end it now.
                    return Some(now);
                }
                let running = self.clock.running()?;
                let left = self.clock.time_to_flag(now)?;
                let grace = self.lag_ms[running].min(self.clock.lag_quota(running).quota_ms());
                Some(now + left + grace)
            }
        }
    }

    /// Ends the game at `now` (resign, agreement, timeout, abort).
    pub fn end(&mut self, winner: Option<Color>, reason: Reason, now: u64) {
        self.end_by(winner, reason, None, now);
    }

    /// Ends the game by `by`'s action (resignation, abort, claim, accepted draw).
    pub fn end_by(&mut self, winner: Option<Color>, reason: Reason, by: Option<Color>, now: u64) {
        self.clock.stop(now);
        self.offers.clear();
        self.phase = Phase::Over(Ended {
            outcome: Outcome { winner, reason },
            by,
            ratings: None,
        });
    }

    /// The clock snapshot to store: `(white_ms, black_ms, ply)`.
    pub fn clock_snapshot(&self, now: u64) -> ClockRow {
        clock_row(&self.clock, now, self.ply())
    }
}

/// Milliseconds to a database integer.
pub fn to_i64(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A database integer to milliseconds.
pub fn to_u64(ms: i64) -> u64 {
    u64::try_from(ms).unwrap_or(0)
}

/// For the table's unit tests: a new Russian game `g` at table `t` between `white` and
/// `black` with `options`, started at 0 (server ms and Unix ms) with a first-move window of
/// `first_move_ms`, unrated.
#[cfg(test)]
pub(crate) fn test_game(
    options: Options,
    white: Player,
    black: Player,
    first_move_ms: u64,
) -> LiveGame {
    let rules = draughts::Rules::new(Variant::Russian);
    LiveGame::start(GameStart {
        id: "g".into(),
        table_id: "t".into(),
        room: "r".into(),
        variant: Variant::Russian,
        options,
        players: ByColor { white, black },
        position: Position::new(rules),
        ballot: None,
        opening: Vec::new(),
        micro_match: None,
        now: 0,
        started_at: 0,
        first_move_ms,
        rated: false,
    })
    .0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::moves::MoveCheck;
    use draughts::Rules;

    fn player(id: &str) -> Player {
        Player::guest(id, id)
    }

    /// A Russian game past the first moves, White's minute running from 0.
    fn running_game() -> LiveGame {
        let start = Position::new(Rules::new(Variant::Russian));
        let mut clock = Clock::new(60_000, 0);
        clock.start(Color::White, 0);
        LiveGame {
            id: "g".into(),
            players: ByColor {
                white: player("w"),
                black: player("b"),
            },
            initial_fen: start.to_fen(),
            opening_plies: 0,
            ballot: None,
            game: Game::new(start),
            clock,
            moves: Vec::new(),
            phase: Phase::Clock,
            offers: Offers::default(),
            first_move_ms: 30_000,
            started_at: 0,
            lag_ms: ByColor::default(),
            rated: false,
            conditional: None,
        }
    }

    #[test]
    fn every_outcome_has_its_own_wire_reason_and_result() {
        let mut seen = Vec::new();
        for reason in Reason::ALL {
            let wire = reason_of(&Outcome {
                winner: None,
                reason,
            });
            assert_eq!(wire.as_str(), reason.name(), "one name on both sides");
            assert!(!seen.contains(&wire), "{reason:?} shares its wire reason");
            seen.push(wire);
        }
        let won = Outcome {
            winner: Some(Color::Black),
            reason: Reason::Resign,
        };
        assert_eq!(result_of(&won), Some(GameResult::Black));
        let aborted = Outcome {
            winner: None,
            reason: Reason::Aborted,
        };
        assert_eq!(result_of(&aborted), None);
    }

    #[test]
    fn the_flag_waits_for_the_movers_lag() {
        let mut g = running_game();
        assert_eq!(g.deadline(0), Some(60_000));
        g.lag_ms = ByColor {
            white: 150,
            black: 0,
        };
        assert_eq!(g.deadline(0), Some(60_150));
        // Within the quota only.
        g.lag_ms = ByColor {
            white: 100_000,
            black: 0,
        };
        let quota = g.clock.lag_quota(Color::White).quota_ms();
        assert_eq!(g.deadline(0), Some(60_000 + quota));
    }

    #[test]
    fn a_move_sent_in_time_but_arriving_late_is_saved_by_its_lag() {
        let g = running_game();
        let mv = g.legal()[0].clone();
        // Arrives 100 ms after the flag; 150 ms of lag are forgiven.
        assert!(matches!(
            g.check_move(Color::White, &mv, 1, 60_100, 150),
            Ok(MoveCheck::New(_))
        ));
        // Without lag it is a loss on time.
        assert!(matches!(
            g.check_move(Color::White, &mv, 1, 60_100, 0),
            Ok(MoveCheck::Flagged(Color::White))
        ));
    }

    #[test]
    fn the_clock_starts_after_the_second_movers_first_move() {
        let mut g = running_game();
        g.clock = Clock::new(60_000, 0);
        g.phase = Phase::FirstMoves { due: 30_000 };
        assert_eq!(g.deadline(0), Some(30_000));
        let mv = g.legal()[0].clone();
        let Ok(MoveCheck::New(p)) = g.check_move(Color::White, &mv, 1, 5_000, 0) else {
            panic!("a legal first move");
        };
        assert_eq!(
            p.phase,
            Phase::FirstMoves { due: 35_000 },
            "Black's window opens"
        );
        assert_eq!(p.clock.running(), None);
        g.commit(*p);
        let mv = g.legal()[0].clone();
        let Ok(MoveCheck::New(p)) = g.check_move(Color::Black, &mv, 2, 9_000, 0) else {
            panic!("a legal first move");
        };
        assert_eq!(p.phase, Phase::Clock);
        assert_eq!(p.clock.running(), Some(Color::White));
        assert_eq!(p.row.white_ms, 60_000, "first moves are not on the clock");
        assert_eq!(p.row.used_ms, 4_000, "Black used 4 s of its window");
    }

    #[test]
    fn a_hold_stops_the_clock_and_the_window_and_charges_nobody() {
        let mut g = running_game();
        g.hold_clock(Hold::Storage, 10_000);
        assert_eq!(g.clock_view(50_000).white, 50_000, "paused at 10 s");
        assert_eq!(g.deadline(50_000), None);
        g.hold_clock(Hold::Restart { until: 99 }, 20_000);
        assert_eq!(
            g.held(),
            Some(Hold::Storage),
            "a storage hold is not shortened"
        );
        g.release(60_000);
        assert_eq!(g.clock_view(61_000).white, 49_000);
        // The first-move window keeps what was left of it.
        let mut g = running_game();
        g.clock = Clock::new(60_000, 0);
        g.phase = Phase::FirstMoves { due: 30_000 };
        g.hold_clock(Hold::Restart { until: 40_000 }, 12_000);
        assert_eq!(g.first_move_left(39_000), Some(18_000));
        assert_eq!(
            g.deadline(39_000),
            Some(40_000),
            "wakes up at the grace's end"
        );
        g.release(40_000);
        assert_eq!(g.first_move_left(40_000), Some(18_000));
        assert_eq!(g.deadline(40_000), Some(58_000));
    }
}
