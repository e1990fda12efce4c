//! Tables: one actor task per table owns its seats, readiness, game, clock and
//! subscribers; everything else talks to it through a bounded command channel.
//!
//! The files stand in layers (no circle; `tests/it/layers.rs` checks it), and only two
//! implement the actor. Below it, its parts (state and decisions; none names it):
//! - `referee`: the rules of the actions on a running game, pure: an action becomes a
//!   `step` (what to write, the change, the events, what follows), which the actor runs
//!   the same way for every action (`actor`'s `act`); `moves`: a move checked, pure;
//! - `game`: the engine-facing game state, pure and synchronous, and the one game
//!   constructor; `offers`: its draw offer and takeback request; `sides`: colours and
//!   wire sides; `conditional`: prepared replies;
//! - `lifecycle`: what the next game starts from, its `game_started`, new ratings shown;
//! - `seating`, `presence`: who sits where and is ready, who is connected;
//! - `view`: the table and `state` objects; `social`: chat, people and claim rules;
//!   `notices`: who is told what by Web Push;
//! - `computer`: when the computer searches and for what, and one-screen tables (pure);
//! - `correspondence`: days per move (the options, the clock-save and time-low timers;
//!   pure); `tournament`: a tournament table's rules and reports, and its game prepared;
//! - `subscribers`: the sockets and their bounded queues; `command`: the actor's queue;
//! - `registry`: the open tables by id; `parked`: the parked tables' list;
//! - `ballot`: opening ballots at a table (checked at creation, drawn at each start);
//! - `micro_match`: two games from one opening, colours swapped, scored together.
//!
//! The actor: `actor` (the task, its loop and timers, `act`, what it sends and shows, the
//! computer's searches started) and `handlers` (what each message, command and timer
//! does: client messages, the computer's answer, forfeits, a game's start, the server's
//! ends, holds, correspondence timers, parking). Above it: `parking` (the parked tables'
//! task), `open` (opening a table: options, seats, its actor) and `restore` (the tables of
//! the games in progress at start-up).

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
