//! Room facts: every change to a room's shared state (its tables, the people in it, its
//! chat, its tournaments, events addressed to some of its people) as one serialisable
//! value with no pointers into this process.
//!
//! On one node a fact is applied where it happens and goes nowhere else. In a cluster
//! (`--cluster`) the room also hands each local fact to its [`RoomSync`], which carries it
//! over NATS to the other nodes; they apply it with [`super::Room::apply`], which changes
//! their copy of the room and tells their room sockets, without handing it on again.

use damka_protocol::tournament::TournamentSummary;
use damka_protocol::{ChatMessage, Player, Side, TableView, Whereabouts};
use serde::{Deserialize, Serialize};

/// One change to a room's shared state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "snake_case")]
pub enum Fact {
    /// A table was opened or changed: its whole public view.
    Table {
        /// The view.
        view: TableView,
    },
    /// Moves were played at tables (the list copy's ply and side to move; room sockets
    /// are not told).
    Moved {
        /// Table id, ply, side to move.
        moves: Vec<(String, u32, Side)>,
    },
    /// A table closed.
    TableGone {
        /// The table id.
        id: String,
    },
    /// The people at a table (empty once it closed).
    TablePeople {
        /// The table id.
        table: String,
        /// Who is there, doing what.
        people: Vec<(Player, Whereabouts)>,
    },
    /// A guest's room socket opened or closed.
    Socket {
        /// The guest.
        guest: Player,
        /// Opened (`true`) or closed.
        joined: bool,
    },
    /// A chat message was stored.
    Chat {
        /// The message.
        msg: ChatMessage,
    },
    /// A tournament was created or changed.
    Tournament {
        /// Its summary.
        summary: TournamentSummary,
    },
    /// A room event for some people only (an invitation, a tournament game ready),
    /// already serialised.
    Event {
        /// The `RoomServerMessage` JSON.
        text: String,
        /// The guests it is for.
        only: Option<Vec<String>>,
    },
}

/// Where a room hands its local facts (the cluster's NATS link).
pub trait RoomSync: Send + Sync {
    /// A fact that happened here, in room `room`.
    fn local(&self, room: &str, fact: Fact);
}
