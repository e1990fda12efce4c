//! The services every part of the server shares: the configuration, the store, the
//! rooms, the computer's search threads, the metrics, the per-address limits, the clock,
//! and the shutdown signal with the tracker of every task. Tables, tournaments, the
//! cluster and the sockets each hold an `Arc<Core>` beside what is theirs; nothing here
//! knows them.

use damka_store::Store;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;

use crate::accounts::Passwords;
use crate::computer::Computer;
use crate::config::Config;
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::room::Rooms;
use crate::session_sockets::SessionSockets;
use crate::time::TimeSource;

/// What every part of the server shares.
pub struct Core {
    /// The configuration.
    pub config: Config,
    /// The database.
    pub store: Store,
    /// The rooms.
    pub rooms: Rooms,
    /// Where the computer's searches run.
    pub computer: Computer,
    /// Metrics.
    pub metrics: Metrics,
    /// Per-address counters and rate limits, and the guests seen lately.
    pub limits: Limits,
    /// Password hashing, a few at a time.
    pub passwords: Passwords,
    /// The open sockets of each session, closed when it ends.
    pub sessions: SessionSockets,
    /// Web Push: the server's key and the sender (`crate::push`).
    pub push: crate::push::Push,
    /// Monotonic time for clocks and timers.
    pub time: TimeSource,
    /// Cancelled when the server shuts down.
    pub shutdown: CancellationToken,
    /// Every spawned task that shutdown waits for: tables, tournaments, sockets, searches
    /// and the periodic tasks. Some run outside it on purpose: the accept loop (shutdown
    /// awaits it by itself), and a cluster node's lease loop, NATS publisher and
    /// subscriber and the NATS bridges of its tables and tournaments, which must outlive
    /// the actors (they hand them over at a graceful stop and are stopped after, by the
    /// cluster's own token), plus short background releases of leases; the store's
    /// writer tasks end when the store closes.
    pub tracker: TaskTracker,
}
