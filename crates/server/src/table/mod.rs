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
//! - `registry`: the open tables by id; `open`: opening one (options, seats, its actor);
//!   `parked`, `parking`: correspondence tables out of memory while they wait;
//! - `restore`: the tables of the games in progress at start-up;
//! - `tournament`: tournament tables (a started game for a pairing, the result reported);
//! - `ballot`: opening ballots at a table (checked at creation, drawn at each start);
//! - `micro_match`: two games from one opening, colours swapped, scored together.
//! - `correspondence`: days per move (the options, the clock saves, time running low).

mod actor;
pub mod ballot;
mod command;
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
mod open;
mod parked;
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

pub use command::{COMMAND_QUEUE, Command};
pub use micro_match::second_game_id;
pub use parked::Parked;
pub use registry::{GameReport, TableHandle, Tables, TournamentReports};
pub use restore::{restore_owned, restore_tables};
pub use subscribers::{Outgoing, QUEUE as SOCKET_QUEUE};
pub use tournament::{PreparedTable, TournamentGameSpec};

pub use game::side as side_of;

#[cfg(test)]
mod tests;
