//! The Damka server: rooms, tables, guests and timed draughts games over HTTP and
//! WebSockets, refereed by the `draughts` engine and stored by `damka-store`.
//!
//! The layers, from the top down (a module uses only those below it; the test
//! `module_layers` in `tests/it` checks it):
//!
//! - [`server`]: start-up and graceful shutdown (used by `main` and the tests), wiring the
//!   layers together; [`accept`]: the HTTP accept loop;
//! - [`http`]: `fn app(state) -> Router` and one file per resource; [`ws`]: WebSocket
//!   upgrades and one session task per socket; [`mod@app`]: the state they share;
//!   [`assets`]: the web client's files as one version (their cache-busting hash);
//! - [`cluster`]: several nodes on one PostgreSQL and NATS: leases, room facts, proxied
//!   sockets; it places the table and tournament actors ([`placement`]);
//! - [`tournament`]: one actor task per tournament, pairing and standings;
//! - [`table`]: one actor task per table (seats, game, clock, subscribers);
//! - [`analysis`]: analyses of finished games (jobs claimed through the store, searched on
//!   the computer's threads below every live game) and of positions;
//! - [`sweep`]: periodic clean-ups; [`session`]: who a request is from (cookie,
//!   address); [`session_sweep`]: sessions checked, touched and expired over time;
//! - [`core`]: the services every layer shares; [`room`]: rooms, their live table
//!   lists and the fan-out to room sockets; [`computer`]: the computer's search threads;
//!   [`chat`], [`names`], [`text`]: what people write; [`limits`]: per-address counters;
//!   [`session_sockets`]: the open sockets of each session; [`password_gate`]: password
//!   hashes a few at a time, those of addresses without recent failures first;
//! - [`config`], [`metrics`], [`error`], [`time`], [`random`], [`lock`]: the ground
//!   floor.
//!
//! Concurrency: each table is owned by its actor; rooms and the registries are behind
//! std mutexes held for a map lookup only, never across `.await`; every task is spawned
//! on one [`tokio_util::task::TaskTracker`] and watches one
//! [`tokio_util::sync::CancellationToken`], so shutdown reaches all of them (except, on
//! purpose, the accept loop and a cluster node's lease and NATS tasks: see
//! [`core::Core::tracker`]).

pub mod accept;
pub mod accounts;
pub mod analysis;
pub mod app;
pub mod assets;
pub mod chat;
pub mod cluster;
pub mod computer;
pub mod config;
pub mod core;
pub mod error;
pub mod fair_play;
pub mod featured;
pub mod http;
pub mod limits;
pub mod lock;
pub mod metrics;
pub mod names;
pub mod operator;
pub mod operator_fair_play;
pub mod password_gate;
pub mod placement;
pub mod push;
pub mod puzzles;
pub mod random;
pub mod ratings;
pub mod refusal;
pub mod replay;
pub mod room;
pub mod server;
pub mod session;
pub mod session_sockets;
pub mod session_sweep;
pub mod sweep;
pub mod table;
pub mod text;
pub mod time;
pub mod tournament;
pub mod ws;

pub use app::{App, AppState};
pub use config::Config;
pub use http::app;
pub use server::{RunningServer, StartError, start};
