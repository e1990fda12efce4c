//! The state the HTTP handlers and the socket sessions share: the [`Core`], the table and
//! tournament registries, the cluster node (if any), the metrics registry and the web
//! client's folder. The lower layers never see it: each holds only what it uses.

use std::sync::Arc;

use crate::cluster::Cluster;
use crate::core::Core;
use crate::table::Tables;
use crate::tournament::Tournaments;

/// What the handlers and sessions share.
pub struct App {
    /// What every part of the server shares.
    pub core: Arc<Core>,
    /// The open tables.
    pub tables: Arc<Tables>,
    /// The tournaments not over (each with its actor).
    pub tournaments: Arc<Tournaments>,
    /// Analyses of games and positions.
    pub analyses: Arc<crate::analysis::Analyses>,
    /// The featured game of each variant (the start page's "Live now").
    pub featured: crate::featured::Featured,
    /// The puzzles and what players did with them.
    pub puzzles: Arc<crate::puzzles::Puzzles>,
    /// This node's part of a cluster (`--cluster`); `None` on a single node.
    pub cluster: Option<Arc<Cluster>>,
    /// Every metric of the server, its store and its cluster node, for `/metrics`.
    pub registry: prometheus_client::registry::Registry,
    /// The web client's files (its directory and their version).
    pub assets: Arc<crate::assets::Assets>,
}

impl App {
    /// The room a path names.
    ///
    /// Fails with `not_found`.
    pub fn room(&self, id: &str) -> Result<Arc<crate::room::Room>, crate::error::AppError> {
        self.core
            .rooms
            .get(id)
            .cloned()
            .ok_or(crate::error::AppError::NotFound("room"))
    }
}

/// The shared state as handlers receive it.
pub type AppState = Arc<App>;

impl AsRef<Core> for AppState {
    fn as_ref(&self) -> &Core {
        &self.core
    }
}
