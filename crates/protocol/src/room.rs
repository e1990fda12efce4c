//! Messages of the room socket (`GET /ws/rooms/{room}`).

use serde::{Deserialize, Serialize};

use crate::common::{RoomView, TableView};
use crate::error::ErrorCode;

/// Client → server on a room socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum RoomClientMessage {
    /// Latency probe, answered by `pong` with the same `ts`.
    Ping {
        /// Any number, echoed back unchanged.
        ts: serde_json::Number,
    },
}

/// Server → client on a room socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum RoomServerMessage {
    /// Sent on connect (and after falling behind): the room and all its tables.
    Room {
        /// The room.
        room: RoomView,
        /// Its open tables.
        tables: Vec<TableView>,
        /// Sockets connected to the room.
        players: u32,
    },
    /// A table was created.
    TableAdded {
        /// The new table.
        table: TableView,
    },
    /// A table changed (seats, readiness, spectators, game).
    TableUpdated {
        /// The table as it is now.
        table: TableView,
    },
    /// A table went away.
    TableRemoved {
        /// The table as it was last.
        table: TableView,
    },
    /// The number of sockets in the room changed.
    Presence {
        /// Sockets connected to the room.
        players: u32,
    },
    /// Answer to `ping`.
    Pong {
        /// The `ts` of the ping.
        ts: serde_json::Number,
    },
    /// A rejected message.
    Error {
        /// Error code.
        code: ErrorCode,
        /// Explanation.
        message: String,
    },
}
