//! Parked correspondence tables: a game of days spends nearly all its life waiting for a
//! move with nobody watching, so its table does not stay in memory. After
//! `--correspondence-park-secs` with no socket (and its clock saved), the actor stops and
//! leaves only a [`Parked`] entry here: the game, when it was parked, and when its next
//! timer is due (the time-low notice or the flag). The table is loaded again, from the
//! store, when someone opens it ([`Tables::get_or_load`]: its socket, a conditional-moves
//! request) or when that timer is due (one task for all parked tables, [`Tables::run_parking`]).
//!
//! A reloaded game's clock runs from the moment it was parked: the time it spent parked
//! is charged to the side to move, as if the table had stayed. At start-up, a
//! correspondence game in progress (both sides have moved) is parked straight from its
//! stored row, without replaying it, from the start-up time on: a restart charges nothing,
//! as for any game. Only a node that runs alone parks (a cluster's tables move between
//! nodes by lease, and stay loaded).

use std::sync::Arc;

use super::parked::Parked;
use super::registry::{TableHandle, Tables};

impl Tables {
    /// How long a waiting correspondence table stays loaded with nobody watching, if
    /// tables are parked here (a node alone, parking not turned off).
    pub fn parking(&self) -> Option<std::time::Duration> {
        self.core
            .config
            .correspondence_park()
            .filter(|_| self.alone())
    }

    /// Number of parked tables.
    pub fn parked(&self) -> usize {
        self.parked_tables().len()
    }

    /// Parks table `id` (its actor is ending): it leaves the registry (if `tx` is still
    /// its handle there) and its room, and is loaded again by [`Tables::get_or_load`].
    pub async fn park(
        &self,
        id: &str,
        tx: &tokio::sync::mpsc::Sender<super::command::Command>,
        parked: Parked,
    ) {
        // Under the load lock: a socket opening the table meanwhile waits, then loads it.
        let _loading = self.loading.lock().await;
        self.remove_own(id, tx);
        tracing::info!(table = %id, game = %parked.game, due = parked.due, "table parked");
        self.parked_tables().insert(id.to_owned(), parked);
        self.core.metrics.tables_parked.inc();
        self.parking_changed.notify_one();
    }

    /// Parks a table at start-up, before any actor runs.
    pub(super) fn park_at_start(&self, id: &str, parked: Parked) {
        self.parked_tables().insert(id.to_owned(), parked);
        self.core.metrics.tables_parked.inc();
    }

    /// A table's handle, loading it first if it is parked.
    pub async fn get_or_load(self: &Arc<Self>, id: &str) -> Option<TableHandle> {
        if let Some(h) = self.get(id) {
            return Some(h);
        }
        if !self.parked_tables().contains(id) {
            return None;
        }
        let _loading = self.loading.lock().await;
        if let Some(h) = self.get(id) {
            return Some(h);
        }
        let parked = self.parked_tables().remove(id)?;
        self.core.metrics.tables_parked.dec();
        match super::restore::reload(self, id, &parked).await {
            Ok(true) => tracing::info!(table = %id, game = %parked.game, "parked table loaded"),
            Ok(false) => tracing::info!(table = %id, game = %parked.game, "a parked game is over"),
            Err(e) => {
                // Tried again a minute later (or when opened again).
                tracing::error!(error = %e, table = %id, "cannot load a parked table");
                let retry = self.core.time.now_ms() + 60_000;
                self.parked_tables().insert(
                    id.to_owned(),
                    Parked {
                        due: retry,
                        ..parked
                    },
                );
                self.core.metrics.tables_parked.inc();
                self.parking_changed.notify_one();
            }
        }
        self.get(id)
    }

    /// Loads each parked table when its timer is due, until shutdown.
    pub async fn run_parking(self: Arc<Self>) {
        let time = self.core.time.clone();
        let shutdown = self.core.shutdown.clone();
        loop {
            let next = self.parked_tables().next_due();
            tokio::select! {
                () = shutdown.cancelled() => break,
                () = self.parking_changed.notified() => {}
                () = time.sleep_until(next.unwrap_or(u64::MAX)), if next.is_some() => {
                    let due = self.parked_tables().due(time.now_ms());
                    for id in due {
                        self.get_or_load(&id).await;
                    }
                }
            }
        }
    }
}
