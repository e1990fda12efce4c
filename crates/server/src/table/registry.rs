//! The open tables by id: finding one, counting them, and what a table reports back (its
//! lease released, a tournament game's end). Opening one (its actor started) is
//! [`super::open`]'s.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use damka_protocol::{GameResult, Options, Player};
use draughts::ByColor;
use tokio::sync::mpsc;

use super::command::Command;
use super::game::LiveGame;
use super::parked::ParkedTables;
use crate::core::Core;
use crate::error::AppError;
use crate::placement::{Alone, Placement};
use crate::room::Room;

/// How to reach a table's actor.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// The actor's command queue.
    pub tx: mpsc::Sender<Command>,
    /// The room the table is in.
    pub room_id: String,
    /// The address the table was created from (for the per-address table cap; `None`
    /// for restored tables).
    pub creator_ip: Option<IpAddr>,
}

/// The open tables.
pub struct Tables {
    /// What every table uses.
    pub(super) core: Arc<Core>,
    /// By id. A std mutex: held only to look up, insert or remove, never across `.await`.
    map: Mutex<HashMap<String, TableHandle>>,
    /// Held while a guest's open tables are counted and they are seated at one more: see
    /// [`Tables::seat_within_limit`]. A std mutex: seating is synchronous (no `.await`).
    seating: Mutex<()>,
    /// Where table actors run (set once at start-up: a cluster's leases; else alone).
    placement: OnceLock<Arc<dyn Placement<Command>>>,
    /// Where a tournament table reports its game's end (set once at start-up; weak, as
    /// the tournaments hold the tables).
    tournaments: OnceLock<Weak<dyn TournamentReports>>,
    /// Parked correspondence tables ([`super::parking`]). A std mutex: never held across
    /// `.await`.
    parked: Mutex<ParkedTables>,
    /// Held while a table is parked or loaded again, so that two sockets opening a parked
    /// table load it once.
    pub(super) loading: tokio::sync::Mutex<()>,
    /// Wakes the parking task when a table is parked (its due time may be the next).
    pub(super) parking_changed: tokio::sync::Notify,
}

/// Where a tournament table's game end goes: the tournaments (a layer above the tables,
/// which implements this).
pub trait TournamentReports: Send + Sync {
    /// A tournament game ended and its end is stored. Never waits.
    fn game_over(&self, report: GameReport);
}

/// How a tournament game ended, as its table reports it once the end is stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameReport {
    /// Tournament id.
    pub tournament: String,
    /// The round.
    pub round: u32,
    /// The game's id.
    pub game: String,
    /// The result (`None`: no result, e.g. a game the server had to abort).
    pub result: Option<GameResult>,
    /// The reason's wire name.
    pub reason: String,
}

/// What a new table actor starts with.
pub struct TableSeed {
    /// Table id.
    pub id: String,
    /// The room.
    pub room: Arc<Room>,
    /// Options.
    pub options: Options,
    /// Seated players.
    pub seats: ByColor<Option<Player>>,
    /// A game in progress (restored at start-up).
    pub game: Option<LiveGame>,
    /// The table's last chat messages (restored at start-up).
    pub chat: Vec<damka_protocol::ChatMessage>,
    /// The tournament whose game the table plays.
    pub tournament: Option<damka_protocol::TableTournament>,
    /// At a micro-match table: the current or last match (restored at start-up).
    pub micro: Option<super::micro_match::MicroMatch>,
    /// In a cluster: the epoch of the lease this node holds on the table (taken over or
    /// adopted); `None` for a new table, claimed before its actor runs.
    pub epoch: Option<i64>,
    /// The address the table was made for: its creator's, or a tournament table's
    /// tournament creator's (the per-address table cap and the computer's fair share
    /// count it there); `None` for a restored table.
    pub creator_ip: Option<IpAddr>,
}

impl Tables {
    /// No tables yet; actors run alone until [`Tables::place_with`].
    pub fn new(core: Arc<Core>) -> Arc<Tables> {
        Arc::new(Tables {
            core,
            map: Mutex::new(HashMap::new()),
            seating: Mutex::new(()),
            placement: OnceLock::new(),
            tournaments: OnceLock::new(),
            parked: Mutex::new(ParkedTables::default()),
            loading: tokio::sync::Mutex::new(()),
            parking_changed: tokio::sync::Notify::new(),
        })
    }

    /// What every table uses.
    pub fn core(&self) -> &Arc<Core> {
        &self.core
    }

    /// Runs every table actor from now on through `placement` (a cluster node's leases).
    pub fn place_with(&self, placement: Arc<dyn Placement<Command>>) {
        if self.placement.set(placement).is_err() {
            tracing::error!("table placement set twice");
        }
    }

    /// Sends the ends of tournament games to `tournaments` from now on.
    pub fn report_to(&self, tournaments: Weak<dyn TournamentReports>) {
        if self.tournaments.set(tournaments).is_err() {
            tracing::error!("tournament reports set twice");
        }
    }

    /// A tournament game ended (its end is stored): tell the tournaments.
    pub fn report(&self, report: GameReport) {
        match self.tournaments.get().and_then(Weak::upgrade) {
            Some(t) => t.game_over(report),
            None => tracing::debug!(tournament = %report.tournament, "no tournaments to report to"),
        }
    }

    pub(super) fn placement(&self) -> &dyn Placement<Command> {
        self.placement.get().map_or(&Alone, |p| p.as_ref())
    }

    /// Whether this node runs its tables alone (no cluster placement).
    pub(super) fn alone(&self) -> bool {
        self.placement.get().is_none()
    }

    /// The parked tables.
    pub(super) fn parked_tables(&self) -> std::sync::MutexGuard<'_, ParkedTables> {
        crate::lock::lock(&self.parked)
    }

    /// A closed table's lease goes (in a cluster).
    pub(super) fn released(&self, id: &str) {
        self.placement().release(id);
    }

    /// A table's handle.
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.lock().get(id).cloned()
    }

    /// Number of open tables.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether there are no open tables.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Forgets a closed table.
    pub fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Forgets table `id` if `tx` is its handle's queue (not a newer table of that id, as
    /// a parked table loaded again is); returns whether it did.
    pub(super) fn remove_own(&self, id: &str, tx: &mpsc::Sender<Command>) -> bool {
        let mut map = self.lock();
        if map.get(id).is_some_and(|h| h.tx.same_channel(tx)) {
            map.remove(id);
            return true;
        }
        false
    }

    /// Open tables created from `ip`.
    pub fn created_from(&self, ip: IpAddr) -> usize {
        self.lock()
            .values()
            .filter(|h| h.creator_ip == Some(ip))
            .count()
    }

    /// Runs `seat`, which seats guest `guest_id` at one more table and shows that in the
    /// table's room (the rooms' table views are what is counted), only while the guest sits
    /// at fewer than `max_tables_per_guest` tables (0: no limit).
    ///
    /// Counting and seating happen under one lock, so two requests at once (two `sit`s at
    /// different tables, or a `sit` and a table creation) cannot both take the last place.
    ///
    /// Fails with `too_many_tables` (without running `seat`).
    pub fn seat_within_limit<R>(
        &self,
        guest_id: &str,
        seat: impl FnOnce() -> R,
    ) -> Result<R, AppError> {
        // Poisoning cannot leave anything half-done: the lock guards no data.
        let _seating = crate::lock::lock(&self.seating);
        let max = self.core.config.limits.max_tables_per_guest;
        if max > 0 && self.core.rooms.seated_tables(guest_id) >= max {
            return Err(AppError::TooManyTables(max));
        }
        Ok(seat())
    }

    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        // Every update is a single insert or remove: a poisoned map is still consistent.
        crate::lock::lock(&self.map)
    }
}
