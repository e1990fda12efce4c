//! A table action as a value: what [`super::referee::decide`] rules an action does, and
//! what [`super::actor::TableActor::act`] then does with it, the same way for every
//! action: write, then apply, then version and publish the events, then the follow-ups.
//! A step is a plain value; [`Write::run`] is the one place it meets the store.
//!
//! A new action on a running game is three files: its rule in [`super::referee`], its
//! write, change or event here if it needs a new one, and its message in
//! [`super::handlers`].

use damka_protocol::Side;
use damka_protocol::table::{MovePlayed, ServerMessage};
use damka_store::{ClockRow, DrawOfferRow, GameEnd, MoveRow, RatingChanges, StoreError};
use draughts::{Color, Game, Reason};

use super::game::{LiveGame, side};
use super::moves::PreparedMove;
use super::offers::Offers;
use crate::refusal::Refusal;

/// What an action does, decided and not yet done.
#[derive(Debug)]
pub struct Step {
    /// What to store first (nothing is applied or announced if it cannot be).
    pub write: Write,
    /// The change to the game once stored.
    pub change: Change,
    /// The events to version and broadcast, in order.
    pub events: Vec<Event>,
    /// What follows once they are out.
    pub follow: Follow,
    /// The action's answer to its sender when the step ran but did not do what was asked
    /// (a move that came after the flag: the game is lost on time instead).
    pub refuse: Option<Refusal>,
}

impl Step {
    /// A step that does nothing (an action already done, say).
    pub fn nothing() -> Step {
        Step {
            write: Write::Nothing,
            change: Change::Nothing,
            events: Vec::new(),
            follow: Follow::default(),
            refuse: None,
        }
    }

    /// Whether the step stores anything (a held clock then runs again first).
    pub fn writes(&self) -> bool {
        !matches!(self.write, Write::Nothing)
    }
}

/// A write of one step, for the game of the table.
#[derive(Debug)]
pub enum Write {
    /// Nothing to store (a takeback request lives in memory only).
    Nothing,
    /// The draw offers as they now stand.
    DrawOffers(DrawOfferRow),
    /// The end of the game (and its ratings, when rated).
    End(GameEnd),
    /// A takeback: the moves after `ply` deleted, the clocks as after it.
    TakeBack(ClockRow),
    /// A move (with its clocks) that does not end the game.
    Move(MoveRow),
    /// A move that ends the game, stored with the end (one transaction).
    LastMove(MoveRow, GameEnd),
    /// A player's prepared replies (JSON; `None` clears them).
    Conditional(Option<String>),
}

impl Write {
    /// Stores it for game `game_id`: the one place a step meets the store. Returns what
    /// the store computed in the same transaction: a rated end's rating changes.
    ///
    /// Fails with the store's error (nothing is written then).
    pub async fn run(
        self,
        store: &damka_store::Store,
        game_id: &str,
    ) -> Result<Option<RatingChanges>, StoreError> {
        let nothing = |r: Result<(), StoreError>| r.map(|()| None);
        match self {
            Write::Nothing => Ok(None),
            Write::DrawOffers(row) => nothing(store.save_draw_offer(game_id, row).await),
            Write::End(end) => store.finish_game(game_id, end).await,
            Write::TakeBack(clock) => nothing(store.take_back(game_id, clock).await),
            Write::Move(row) => nothing(store.append_move(game_id, &row).await),
            Write::LastMove(row, end) => store.append_last_move(game_id, &row, end).await,
            Write::Conditional(lines) => nothing(store.save_conditional(game_id, lines).await),
        }
    }
}

/// The change a step makes to the table's game, applied once its write is stored.
#[derive(Debug)]
pub enum Change {
    /// None.
    Nothing,
    /// The draw offer and takeback request as they now stand.
    Offers(Offers),
    /// The game ends.
    End {
        /// The winner, `None` for a draw or an abort.
        winner: Option<Color>,
        /// Why.
        reason: Reason,
        /// The side whose action ended it (`None`: the server ruled).
        by: Option<Color>,
    },
    /// Moves are taken back.
    TakeBack(Box<TakenBack>),
    /// A player's prepared replies as they now stand.
    Conditional(Option<super::conditional::Conditional>),
    /// A move is played.
    Move {
        /// The move, checked, with the game and clock after it.
        played: Box<PreparedMove>,
        /// The offers after it (it declines the opponent's draw offer, cancels a
        /// takeback request; nothing stands once the game is over).
        offers: Offers,
    },
}

/// The game after a takeback.
#[derive(Debug)]
pub struct TakenBack {
    /// The position and history after the kept moves.
    pub game: Game,
    /// The plies kept.
    pub keep: u32,
    /// White's time as after the last kept move, ms.
    pub white_ms: u64,
    /// Black's time as after the last kept move, ms.
    pub black_ms: u64,
}

/// An event of a step, versioned when it is published.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// `move`: the rest (the side to move, the clock, the legal moves, the counters) is
    /// read off the game once the move is applied.
    Move {
        /// Its ply.
        ply: u32,
        /// Full path.
        mv: String,
        /// The side that moved.
        by: Side,
        /// Captured squares' names.
        captures: Vec<String>,
        /// The position after it.
        fen: String,
    },
    /// `draw_offered`.
    DrawOffered {
        /// Who offered.
        by: Side,
        /// The plies played from which they may offer again.
        next: u32,
    },
    /// `draw_declined`.
    DrawDeclined {
        /// Who declined.
        by: Side,
    },
    /// `takeback_offered`.
    TakebackOffered {
        /// Who asked.
        by: Side,
        /// The plies played from which they may ask again.
        next: u32,
    },
    /// `takeback_declined`.
    TakebackDeclined {
        /// Who declined (or whose request was withdrawn).
        by: Side,
    },
    /// `conditional`, to one player's own sockets (unversioned: nobody else sees it).
    Conditional {
        /// The player's id.
        player: String,
        /// Their lines as kept.
        lines: Vec<Vec<String>>,
    },
    /// `takeback`.
    Takeback {
        /// Whose moves were taken back.
        by: Side,
        /// How many plies.
        plies: u32,
        /// The plies left.
        ply: u32,
    },
}

/// Who an event is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Audience<'a> {
    /// Every socket at the table (the event takes the next version).
    All,
    /// The sockets of one player (no version: the others never see it).
    Player(&'a str),
}

impl Event {
    /// Who the event is for.
    pub fn audience(&self) -> Audience<'_> {
        match self {
            Event::Conditional { player, .. } => Audience::Player(player),
            _ => Audience::All,
        }
    }

    /// The wire message of the event, as version `v`, with `game` as the step left it at
    /// server time `now` (the event's own texts are moved into it, not copied: a move's
    /// FEN is written once, for its stored row, and cloned once for its event).
    pub fn message(self, v: u64, game: &LiveGame, now: u64) -> ServerMessage {
        match self {
            Event::Move {
                ply,
                mv,
                by,
                captures,
                fen,
            } => ServerMessage::Move(Box::new(MovePlayed {
                v,
                ply,
                mv,
                by,
                captures,
                fen,
                turn: side(game.position().turn()),
                clock: game.clock_view(now),
                legal: game.legal(),
                counters: game.counters(),
                first_move_deadline: game.first_move_left(now),
            })),
            Event::DrawOffered { by, next } => ServerMessage::DrawOffered { v, by, next },
            Event::DrawDeclined { by } => ServerMessage::DrawDeclined { v, by },
            Event::TakebackOffered { by, next } => ServerMessage::TakebackOffered { v, by, next },
            Event::TakebackDeclined { by } => ServerMessage::TakebackDeclined { v, by },
            Event::Takeback { by, plies, ply } => ServerMessage::Takeback { v, by, plies, ply },
            Event::Conditional { lines, .. } => ServerMessage::Conditional { lines },
        }
    }
}

/// What follows a step once its events are out, in this order.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Follow {
    /// A move was played (counted, and its latency measured).
    pub moved: bool,
    /// Every socket gets a fresh `state` (the moves changed in a way no event carries).
    pub states: bool,
    /// The position changed: the room's copy and the correspondence timers follow.
    pub position: bool,
    /// The game ended: announce it (`game_over`, the micro-match, the ratings, the room,
    /// the tournament).
    pub ended: bool,
    /// Whom to tell, if away (Web Push).
    pub notify: Option<Notify>,
}

/// Whom a step tells (if they are not watching the table).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notify {
    /// This side's player: an offer waits for their answer.
    Offer(Color),
    /// After a move: the side to move, or both players once it ended the game.
    Turn,
    /// Both players: the game ended.
    Ended,
}
