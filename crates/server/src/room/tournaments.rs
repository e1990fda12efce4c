//! The room's list of tournaments, kept current by the tournament actors, and the
//! events about them on the room's channel (`tournament_added` / `tournament_updated`,
//! and `tournament_game`, which is addressed to one guest).

use damka_protocol::room::RoomServerMessage;
use damka_protocol::tournament::{TournamentStatus, TournamentSummary};

use super::Room;
use crate::lock::lock;

/// Finished tournaments a room keeps listing.
pub const FINISHED_SHOWN: usize = 5;

impl Room {
    /// The room's tournaments (open, running, then the last finished), oldest first.
    pub fn tournaments(&self) -> Vec<TournamentSummary> {
        lock(&self.tournaments).clone()
    }

    /// A tournament was created or changed: list it and tell the room.
    pub fn tournament_changed(&self, summary: TournamentSummary) {
        self.emit(|| super::fact::Fact::Tournament {
            summary: summary.clone(),
        });
        self.tournament_changed_here(summary);
    }

    pub(super) fn tournament_changed_here(&self, summary: TournamentSummary) {
        let mut list = lock(&self.tournaments);
        let added = match list.iter_mut().find(|t| t.id == summary.id) {
            Some(slot) => {
                *slot = summary.clone();
                false
            }
            None => {
                list.push(summary.clone());
                true
            }
        };
        // Only the last few finished ones stay listed.
        let finished = list
            .iter()
            .filter(|t| t.status == TournamentStatus::Over)
            .count();
        if finished > FINISHED_SHOWN
            && let Some(oldest) = list.iter().position(|t| t.status == TournamentStatus::Over)
        {
            list.remove(oldest);
        }
        let msg = if added {
            RoomServerMessage::TournamentAdded {
                tournament: summary,
            }
        } else {
            RoomServerMessage::TournamentUpdated {
                tournament: summary,
            }
        };
        // Sent under the lock so snapshots and events are ordered the same way.
        self.publish(&msg);
    }

    /// Lists a tournament without an event (start-up).
    pub fn tournament_loaded(&self, summary: TournamentSummary) {
        let mut list = lock(&self.tournaments);
        if !list.iter().any(|t| t.id == summary.id) {
            list.push(summary);
        }
    }

    /// Tells guest `to` (on their room sockets only) that their game of `round` in
    /// `tournament` is ready at `table`.
    pub fn tournament_game(&self, to: &str, tournament: &str, table: &str, round: u32) {
        self.publish_shared(&RoomServerMessage::TournamentGame {
            to: to.to_owned(),
            tournament: tournament.to_owned(),
            table: table.to_owned(),
            round,
        });
    }
}
