//! Tournaments in rooms: round-robin (Berger tables) and Swiss, live standings.
//!
//! - [`model`]: the tournament as values (entrants, rounds, results), pure;
//! - [`pairing`]: who plays whom each round, pure;
//! - [`standings`]: points and tie-breaks, pure; `view`: the wire objects;
//! - `actor`: one task per tournament owns it (joins, leaves, the start, results, the
//!   next round); every change is stored before it is applied and announced; `round`:
//!   starting a round (stored with its games, then the tables opened);
//! - `create`: checking a creation request and starting the actor;
//! - `restore`: rebuilding tournaments from the store (start-up, finished ones).
//!
//! The interface with tables is narrow and made of self-contained facts, so it can later
//! travel between nodes: a round asks the table registry to prepare started games
//! ([`crate::table::TournamentGameSpec`]), stores them with the round, then opens the
//! tables; a tournament table reports its stored end with [`Tournaments::game_over`].
//! The room hears `tournament_added` / `tournament_updated` with a summary, and each
//! paired person a `tournament_game` addressed to them.

mod actor;
mod create;
pub mod model;
pub mod pairing;
mod restore;
mod round;
pub mod standings;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use damka_protocol::Player;
use tokio::sync::{mpsc, oneshot};

pub use create::{create, validate};
pub use restore::{load, restore_one, restore_tournaments};

use crate::core::Core;
use crate::error::AppError;
use crate::placement::Placement;
use crate::table::{GameReport, Tables, TournamentReports};
use model::Tournament;

/// What a tournament's actor is asked to do.
#[derive(Debug)]
pub enum Command {
    /// A guest joins (before the start).
    Join {
        /// The guest.
        player: Player,
        /// The outcome.
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    /// A guest leaves (before the start: frees the place; after: forfeits the rest).
    Leave {
        /// The guest.
        player: Player,
        /// The outcome.
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    /// The creator starts it now (the computer fills empty places if asked for).
    Start {
        /// Who asks.
        player: Player,
        /// The outcome.
        reply: oneshot::Sender<Result<(), AppError>>,
    },
    /// A game of the tournament ended (and its end is stored).
    GameOver(GameReport),
}

/// Capacity of a tournament's command queue.
pub const COMMAND_QUEUE: usize = 64;

/// How to reach a tournament's actor, and its latest state.
#[derive(Clone, Debug)]
pub struct TournamentHandle {
    /// The actor's command queue.
    pub tx: mpsc::Sender<Command>,
    /// The room it is in.
    pub room_id: String,
    /// The address it was created from (`None` when restored after a restart).
    pub creator_ip: Option<std::net::IpAddr>,
    /// The tournament as of its last change (replaced by the actor after each).
    snapshot: Arc<Mutex<Arc<Tournament>>>,
}

impl TournamentHandle {
    /// The tournament as of its last change.
    pub fn snapshot(&self) -> Arc<Tournament> {
        crate::lock::lock(&self.snapshot).clone()
    }

    /// Asks the actor to do something and waits for the answer.
    ///
    /// Fails with the command's error, or `not_found` if the tournament has ended
    /// meanwhile.
    pub async fn ask(
        &self,
        command: impl FnOnce(oneshot::Sender<Result<(), AppError>>) -> Command,
    ) -> Result<(), AppError> {
        let (reply, answer) = oneshot::channel();
        self.tx
            .send(command(reply))
            .await
            .map_err(|_| AppError::NotFound("tournament"))?;
        answer.await.map_err(|_| AppError::NotFound("tournament"))?
    }
}

/// The tournaments not over, by id.
pub struct Tournaments {
    /// What every tournament uses.
    core: Arc<Core>,
    /// The tables their games are played at.
    tables: Arc<Tables>,
    /// By id. A std mutex: held only to look up, insert or remove, never across `.await`.
    map: Mutex<HashMap<String, TournamentHandle>>,
    /// Where tournament actors run (set once at start-up: a cluster's leases; else alone).
    placement: OnceLock<Arc<dyn Placement<Command>>>,
}

impl Tournaments {
    /// No tournaments yet; the tables report their games' ends here from now on.
    pub fn new(tables: Arc<Tables>) -> Arc<Tournaments> {
        let tournaments = Arc::new(Tournaments {
            core: tables.core().clone(),
            tables,
            map: Mutex::new(HashMap::new()),
            placement: OnceLock::new(),
        });
        let weak = Arc::downgrade(&tournaments);
        tournaments.tables.report_to(weak);
        tournaments
    }

    /// Runs every tournament actor from now on through `placement` (a cluster node's
    /// leases).
    pub fn place_with(&self, placement: Arc<dyn Placement<Command>>) {
        if self.placement.set(placement).is_err() {
            tracing::error!("tournament placement set twice");
        }
    }

    pub(crate) fn placement(&self) -> &dyn Placement<Command> {
        self.placement
            .get()
            .map_or(&crate::placement::Alone, |p| p.as_ref())
    }

    /// The tables the games are played at.
    pub fn tables(&self) -> &Arc<Tables> {
        &self.tables
    }

    /// What every tournament uses.
    pub fn core(&self) -> &Arc<Core> {
        &self.core
    }

    /// A running or open tournament.
    pub fn get(&self, id: &str) -> Option<TournamentHandle> {
        self.lock().get(id).cloned()
    }

    /// Open or running tournaments created by `guest`.
    pub fn created_by(&self, guest: &str) -> usize {
        self.lock()
            .values()
            .filter(|h| h.snapshot().created_by.id == guest)
            .count()
    }

    /// Open tournaments (not started yet) created from `ip`.
    pub fn open_from(&self, ip: std::net::IpAddr) -> usize {
        self.lock()
            .values()
            .filter(|h| h.creator_ip == Some(ip))
            .filter(|h| h.snapshot().status == damka_protocol::tournament::TournamentStatus::Open)
            .count()
    }

    /// Open or running tournaments in `room`.
    pub fn in_room(&self, room: &str) -> usize {
        self.lock().values().filter(|h| h.room_id == room).count()
    }

    pub(crate) fn insert(&self, id: String, handle: TournamentHandle) {
        self.lock().insert(id, handle);
    }
    pub(crate) fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TournamentHandle>> {
        // Every update is one insert or remove: a poisoned map is still consistent.
        crate::lock::lock(&self.map)
    }
}

impl TournamentReports for Tournaments {
    /// A tournament game's end is stored: tell its tournament. Never waits: the report
    /// is queued (by a task when the queue is full). A report that finds no tournament
    /// is dropped; a tournament restored later reads its games' ends from the store.
    fn game_over(&self, report: GameReport) {
        let Some(handle) = self.get(&report.tournament) else {
            tracing::debug!(tournament = %report.tournament, "a game ended for a tournament that is not running here");
            return;
        };
        match handle.tx.try_send(Command::GameOver(report)) {
            Ok(()) => {}
            Err(mpsc::error::TrySendError::Full(cmd)) => {
                let tx = handle.tx.clone();
                self.core.tracker.spawn(async move {
                    if tx.send(cmd).await.is_err() {
                        tracing::debug!("a tournament ended before a game's report");
                    }
                });
            }
            Err(mpsc::error::TrySendError::Closed(_)) => {
                tracing::debug!("a tournament ended before a game's report");
            }
        }
    }
}
