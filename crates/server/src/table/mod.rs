//! Tables: one actor task per table owns its seats, readiness, game, clock and
//! subscribers; everything else talks to it through a bounded command channel.
//!
//! - `actor`: the task, its `select!` loop and timers (first-move window, flag, empty
//!   grace, shutdown flush);
//! - `handlers`: what each client message does;
//! - `lifecycle`: starting and ending games (stored before announced);
//! - `moves`: a move's whole path (check, store, commit, announce);
//! - `referee`: the rules of the actions on a running game, pure: an action becomes a
//!   `step` (what to write, the change, the events, what follows), which the actor runs
//!   the same way for every action (`actor`'s `act`);
//! - `game`: the engine-facing game state, pure and synchronous, and the one game
//!   constructor; `offers`: its draw offer and takeback request; `sides`: colours and
//!   wire sides;
//! - `seating`, `presence`: who sits where and is ready, who is connected;
//! - `view`: the table, state and clock objects sent to clients;
//! - `subscribers`: the sockets and their bounded queues;
//! - `computer`: the computer's searches and moves, and one-screen tables;
//! - `registry`: the open tables by id, creation and start-up restore;
//! - `tournament`: tournament tables (a started game for a pairing, the result reported);
//! - `ballot`: opening ballots at a table (checked at creation, drawn at each start);
//! - `micro_match`: two games from one opening, colours swapped, scored together.
//! - `correspondence`: days per move (the options, the clock saves, time running low).

mod actor;
pub mod ballot;
mod computer;
mod conditional;
mod correspondence;
mod game;
mod handlers;
mod lifecycle;
mod micro_match;
mod moves;
mod notices;
mod offers;
mod parking;
mod presence;
mod referee;
mod registry;
mod restore;
mod seating;
mod sides;
mod social;
mod step;
mod subscribers;
mod tournament;
mod view;

use damka_protocol::Player;
use damka_protocol::table::ClientMessage;
use tokio::sync::{mpsc, oneshot};

pub use micro_match::second_game_id;
pub use parking::Parked;
pub use registry::{TableHandle, Tables, TournamentReports};
pub use restore::{restore_owned, restore_tables};
pub use subscribers::{Outgoing, QUEUE as SOCKET_QUEUE};
pub use tournament::{GameReport, PreparedTable, TournamentGameSpec};

/// Commands a table actor accepts.
#[derive(Debug)]
pub enum Command {
    /// A socket opens: register it and send it the state.
    Join {
        /// The guest behind the socket, if any.
        guest: Option<Player>,
        /// The socket's outgoing queue.
        tx: mpsc::Sender<Outgoing>,
        /// Receives the subscriber id.
        reply: oneshot::Sender<u64>,
    },
    /// A socket closed.
    Leave {
        /// Its subscriber id.
        sub: u64,
    },
    /// A message from a socket.
    Client {
        /// The sender's subscriber id.
        sub: u64,
        /// The message.
        msg: ClientMessage,
        /// The connection's one-way network delay estimate, ms (lag compensation).
        lag_ms: u64,
        /// When the session received it (move latency metric).
        received: std::time::Instant,
    },
    /// The computer's search answered.
    BotMove {
        /// The game it searched.
        game_id: String,
        /// The ply its move is for.
        ply: u32,
        /// The move, full path.
        mv: String,
    },
    /// A player left the tournament whose game this table plays: resign it for them.
    Forfeit {
        /// The game.
        game_id: String,
        /// The player who left.
        player_id: String,
    },
    /// `POST /api/games/{id}/conditional`: a player's prepared replies.
    Conditional {
        /// The game they are for.
        game_id: String,
        /// Who sets them.
        player: Player,
        /// The lines (`[]` clears them).
        lines: Vec<Vec<String>>,
        /// The lines as kept, or why not.
        reply: oneshot::Sender<Result<Vec<Vec<String>>, crate::error::AppError>>,
    },
}

/// Capacity of a table's command queue.
pub const COMMAND_QUEUE: usize = 256;

pub use game::side as side_of;

#[cfg(test)]
mod tests;
