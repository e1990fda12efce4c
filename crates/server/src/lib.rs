//! The Damka server: rooms, tables, guests and timed draughts games over HTTP and
//! WebSockets, refereed by the `draughts` engine and stored by `damka-store`.
//!
//! Layout (one idea per module):
//!
//! - [`config`]: flags and environment (clap); [`server`]: start-up and graceful shutdown
//!   (used by `main` and the tests); [`accept`]: the HTTP accept loop;
//! - [`http`]: `fn app(state) -> Router` and one file per resource (guest, rooms, tables,
//!   games, variants, health);
//! - [`ws`]: WebSocket upgrade (origin check, size limits) and one session task per
//!   socket: [`ws::room_socket`], [`ws::table_socket`];
//! - [`room`]: rooms, their live table lists and the fan-out to room sockets;
//! - [`table`]: one actor task per table (seats, game, clock, subscribers);
//! - [`tournament`]: one actor task per tournament (entrants, rounds, results), pairing
//!   and standings;
//! - [`limits`]: per-address caps (sockets, guest creation, tables) and guest expiry;
//! - [`metrics`]: Prometheus text; [`error`]: the one error type; [`time`]: the server's
//!   monotonic milliseconds (real or manual for tests); [`random`]: OS randomness.
//!
//! Concurrency: each table is owned by its actor; rooms and the table registry are behind
//! std mutexes held for a map lookup only, never across `.await`; every task is spawned on
//! one [`tokio_util::task::TaskTracker`] and watches one
//! [`tokio_util::sync::CancellationToken`], so shutdown reaches all of them.

pub mod accept;
pub mod bots;
pub mod chat;
pub mod cluster;
pub mod config;
pub mod error;
pub mod http;
pub mod limits;
pub mod metrics;
pub mod names;
pub mod random;
pub mod room;
pub mod server;
pub mod table;
pub mod text;
pub mod time;
pub mod tournament;
pub mod ws;

use std::path::PathBuf;
use std::sync::Arc;

use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

pub use config::Config;
pub use http::app;
pub use server::{RunningServer, StartError, start};

/// State shared by every handler, session and table actor.
pub struct Shared {
    /// The configuration.
    pub config: Config,
    /// The database.
    pub store: damka_store::Store,
    /// The rooms.
    pub rooms: room::Rooms,
    /// The open tables.
    pub tables: table::Tables,
    /// The tournaments not over (each with its actor).
    pub tournaments: tournament::Tournaments,
    /// Where the computer's searches run.
    pub bots: bots::Bots,
    /// Metrics.
    pub metrics: metrics::Metrics,
    /// Every metric of the server, its store and its cluster node, for `/metrics`.
    pub registry: prometheus_client::registry::Registry,
    /// Per-address counters (sockets, guest creation) and guests seen lately.
    pub limits: limits::Limits,
    /// Monotonic time for clocks and timers.
    pub time: time::TimeSource,
    /// Cancelled when the server shuts down.
    pub shutdown: CancellationToken,
    /// Every spawned task, to wait for them at shutdown.
    pub tracker: TaskTracker,
    /// The web client's directory.
    pub static_dir: PathBuf,
    /// This node's part of a cluster (`--cluster`); `None` on a single node.
    pub cluster: Option<Arc<cluster::Cluster>>,
}

/// The shared state as handlers receive it.
pub type AppState = Arc<Shared>;
