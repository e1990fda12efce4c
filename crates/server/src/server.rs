//! Start-up (database, rooms, restored tables, listener) and graceful shutdown.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tracing::Instrument;

use crate::app::{App, AppState};
use crate::config::{Config, redact_url};
use crate::core::Core;
use crate::room::{Rooms, RoomsError, default_rooms, load_rooms};
use crate::table::{Tables, restore_tables};
use crate::time::TimeSource;
use crate::tournament::Tournaments;
use crate::{http, metrics};
use damka_store::{Store, StoreOptions};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The rooms file is bad.
    #[error(transparent)]
    Rooms(#[from] RoomsError),
    /// The database is unreachable or a migration failed.
    #[error("database: {0}")]
    Database(#[from] damka_store::StoreError),
    /// The address cannot be bound.
    #[error("cannot listen: {0}")]
    Bind(#[from] std::io::Error),
    /// The node cannot join its cluster.
    #[error(transparent)]
    Cluster(#[from] crate::cluster::JoinError),
}

/// A started server.
pub struct RunningServer {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The separate `/metrics` address, when configured.
    pub metrics_addr: Option<SocketAddr>,
    /// Its shared state (tests use the time source and the store).
    pub state: AppState,
    /// The HTTP server task.
    serve: JoinHandle<()>,
    /// In a cluster: the task publishing room facts (it says goodbye last).
    cluster_publisher: Option<JoinHandle<()>>,
}

/// The web client's directory: the configured one, else `./static`, else the
/// repository's `static/` (so tests and `cargo run` work from any directory).
fn static_dir(config: &Config) -> PathBuf {
    if let Some(dir) = &config.static_dir {
        return dir.clone();
    }
    let local = PathBuf::from("static");
    if local.is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../static")
}

/// Connects the database, recreates the tables of unfinished games, binds `config.bind`
/// and starts serving.
///
/// Fails if the rooms file is bad, the database cannot be opened or migrated, or the
/// address cannot be bound.
pub async fn start(config: Config) -> Result<RunningServer, StartError> {
    let rooms = match &config.rooms {
        Some(path) => load_rooms(path)?,
        None => default_rooms(),
    };
    let store = Store::connect_with(
        &config.database_url,
        StoreOptions {
            acquire_timeout: config.db_acquire_timeout(),
            sqlite_max_page_count: config.test.test_sqlite_max_page_count.clone(),
            abort_before_ratings: config.test.test_abort_before_ratings,
            lookup_connections: config.db.db_lookup_connections,
            lookup_wait: std::time::Duration::from_millis(config.db.db_lookup_wait_ms),
            ..StoreOptions::default()
        },
    )
    .await?;
    tracing::info!(
        database = %redact_url(&config.database_url),
        backend = store.backend(),
        "database ready"
    );
    let time = if config.test.manual_time {
        TimeSource::manual()
    } else {
        TimeSource::real()
    };
    let listener = TcpListener::bind(config.bind).await?;
    let addr = listener.local_addr()?;
    let computer = crate::computer::Computer::new(
        config.computer.bot_searches,
        std::time::Duration::from_millis(config.computer.bot_slice_ms),
    );
    let metrics_listener = match config.metrics_bind {
        Some(bind) => Some(TcpListener::bind(bind).await?),
        None => None,
    };
    let metrics_addr = match &metrics_listener {
        Some(l) => Some(l.local_addr()?),
        None => None,
    };
    let cluster = match &config.nodes.cluster {
        None => None,
        Some(url) => {
            let leases = store
                .leases()
                .ok_or(crate::cluster::JoinError::NotPostgres)?;
            let name = config
                .nodes
                .node_name
                .clone()
                .unwrap_or_else(crate::cluster::host_name);
            let lease = std::time::Duration::from_millis(config.nodes.lease_ms.max(300));
            let joined = crate::cluster::Cluster::join(
                leases,
                url,
                &name,
                &addr.to_string(),
                lease,
                &config.nodes.nats_prefix,
            )
            .await?;
            Some(Arc::new(joined))
        }
    };
    let metrics = metrics::Metrics::default();
    let mut registry = prometheus_client::registry::Registry::default();
    metrics.register(&mut registry);
    store.stats().register(&mut registry);
    if let Some(cluster) = &cluster {
        cluster.register_metrics(&mut registry);
    }
    let passwords = crate::accounts::Passwords::new(
        config.limits.password_hashes,
        config.limits.password_queue,
    );
    let push = crate::push::Push::load(&store, &config).await?;
    let core = Arc::new(Core {
        config,
        store,
        rooms: Rooms::new(rooms),
        computer,
        metrics,
        limits: crate::limits::Limits::default(),
        passwords,
        sessions: crate::session_sockets::SessionSockets::default(),
        push,
        time,
        shutdown: CancellationToken::new(),
        tracker: TaskTracker::new(),
    });
    let tables = Tables::new(core.clone());
    let tournaments = Tournaments::new(tables.clone());
    if let Some(cluster) = &cluster {
        let placed = Arc::new(crate::cluster::tables::Leased(cluster.clone()));
        tables.place_with(placed.clone());
        tournaments.place_with(placed);
    }
    let analyses = crate::analysis::Analyses::new(core.clone(), cluster.is_none());
    let puzzles = Arc::new(crate::puzzles::Puzzles::load(&core.store).await?);
    analyses.find_puzzles_for(puzzles.clone());
    let state: AppState = Arc::new(App {
        analyses: analyses.clone(),
        featured: crate::featured::Featured::default(),
        puzzles,
        assets: Arc::new(crate::assets::Assets::new(static_dir(&core.config))),
        core: core.clone(),
        tables: tables.clone(),
        tournaments: tournaments.clone(),
        cluster,
        registry,
    });
    let mut cluster_publisher = None;
    if let Some(cluster) = &state.cluster {
        for room in core.rooms.all() {
            room.set_sync(cluster.sync.clone());
        }
        use crate::cluster::sync;
        cluster_publisher = Some(tokio::spawn(
            sync::publisher(cluster.clone()).instrument(tracing::info_span!("cluster_publish")),
        ));
        let (core, cluster) = (core.clone(), cluster.clone());
        tokio::spawn(
            async move { sync::subscriber(&core.rooms, cluster).await }
                .instrument(tracing::info_span!("cluster_sync")),
        );
    }
    // Tournaments first: a restored table whose game ends reports to its tournament. In
    // a cluster a node resumes only what it owns (adopted here, or taken over later).
    let resumed =
        crate::tournament::restore_tournaments(&tournaments, state.cluster.is_none()).await?;
    let restored = match &state.cluster {
        None => restore_tables(&tables).await?,
        Some(cluster) => {
            // Only what nobody owns (a single node's games, failed claims); the rest is
            // taken over from expired nodes by the lease loop, or handed over.
            let local = crate::cluster::tables::Local {
                tables: tables.clone(),
                tournaments: tournaments.clone(),
            };
            let adopted = cluster.leases.adopt(cluster.id()).await?;
            let restored = crate::cluster::tables::restore(&local, cluster, adopted).await;
            tokio::spawn(
                crate::cluster::tables::run(local, cluster.clone())
                    .instrument(tracing::info_span!("cluster_lease")),
            );
            restored
        }
    };
    for room in state.core.rooms.all() {
        let scope = format!("room:{}", room.config.id);
        let history = state
            .core
            .store
            .chat_history(&scope, crate::chat::HISTORY as i64)
            .await?;
        room.set_chat(history.iter().map(crate::chat::message).collect());
    }
    if tables.parking().is_some() {
        // Loads each parked correspondence table when its timer is due.
        core.tracker.spawn(
            tables
                .clone()
                .run_parking()
                .instrument(tracing::info_span!("parking")),
        );
    }
    let ticker = core.clone();
    core.tracker.spawn(
        async move { crate::room::events_ticker(&ticker.rooms, &ticker.shutdown).await }
            .instrument(tracing::info_span!("room_events")),
    );
    core.tracker.spawn(
        crate::sweep::limits_pruner(core.clone()).instrument(tracing::info_span!("limits_prune")),
    );
    core.tracker.spawn(
        crate::sweep::chat_sweeper(core.clone()).instrument(tracing::info_span!("chat_sweep")),
    );
    core.tracker.spawn(
        crate::sweep::guest_sweeper(core.clone()).instrument(tracing::info_span!("guest_sweep")),
    );
    core.tracker.spawn(
        crate::fair_play::forget_loop(core.clone())
            .instrument(tracing::info_span!("address_forget")),
    );
    core.tracker.spawn(
        crate::session_sweep::session_sweeper(core.clone())
            .instrument(tracing::info_span!("session_sweep")),
    );
    analyses.start();
    core.computer.endgames().start(
        core.config.computer.bitbases_dir.clone(),
        core.config.computer.bitbase_pieces,
        core.config.computer.bitbase_priority,
        core.shutdown.clone(),
    );
    tracing::info!(%addr, restored, tournaments = resumed, "listening");
    let app = http::app(state.clone());
    let shutdown = state.core.shutdown.clone();
    let header_timeout = state.core.config.header_read_timeout();
    if let Some(listener) = metrics_listener {
        tracing::info!(addr = ?metrics_addr, "metrics listening");
        state.core.tracker.spawn(
            crate::accept::serve(
                listener,
                http::metrics_app(state.clone()),
                shutdown.clone(),
                header_timeout,
            )
            .instrument(tracing::info_span!("metrics_http")),
        );
    }
    let serve = tokio::spawn(
        crate::accept::serve(listener, app, shutdown, header_timeout)
            .instrument(tracing::info_span!("http")),
    );
    Ok(RunningServer {
        addr,
        metrics_addr,
        state,
        serve,
        cluster_publisher,
    })
}

impl RunningServer {
    /// Shuts down gracefully: sockets are closed with 1001, every table stores its clock,
    /// and the tasks get `shutdown_timeout` to finish before the database is closed.
    pub async fn shutdown(self) {
        let state = self.state;
        tracing::info!("shutting down");
        if let Some(cluster) = &state.cluster {
            // No new tables come here; readiness fails, so the balancer stops sending.
            cluster.set_leaving();
            if let Err(e) = cluster.leases.leaving(cluster.id()).await {
                tracing::warn!(error = %e, "cannot mark the node as leaving");
            }
        }
        state.core.shutdown.cancel();
        state.core.tracker.close();
        let timeout = state.core.config.shutdown_timeout();
        if tokio::time::timeout(timeout, state.core.tracker.wait())
            .await
            .is_err()
        {
            tracing::warn!(?timeout, "tasks still running at the shutdown timeout");
        }
        if tokio::time::timeout(timeout, self.serve).await.is_err() {
            tracing::warn!("the HTTP server did not stop in time");
        }
        if let Some(cluster) = &state.cluster {
            // Every actor has stored its clock: hand the tables over, say goodbye.
            if !cluster.is_lost() {
                crate::cluster::tables::hand_over(cluster).await;
            }
            cluster.stop.cancel();
            if let Some(publisher) = self.cluster_publisher
                && tokio::time::timeout(timeout, publisher).await.is_err()
            {
                tracing::warn!("the room sync did not stop in time");
            }
        }
        state.core.store.close().await;
        tracing::info!("stopped");
    }

    /// Whether the server's accept loop has ended by itself (it does not, unless it
    /// fails).
    pub fn is_finished(&self) -> bool {
        self.serve.is_finished()
    }

    /// Completes when the server decided to stop by itself (a cluster node that lost
    /// its lease); `main` then shuts it down and exits with a failure.
    pub async fn stopping(&self) {
        self.state.core.shutdown.cancelled().await;
    }

    /// Whether this node lost its cluster lease.
    pub fn lost_lease(&self) -> bool {
        self.state.cluster.as_ref().is_some_and(|c| c.is_lost())
    }
}
