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
        /// More of the room's tables follow in `room_tables` messages (a big room's
        /// snapshot comes in pages); absent or `false` when `tables` is the whole list.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        more: bool,
    },
    /// The next page of the snapshot begun by `room`: more open tables of the room.
    RoomTables {
        /// Open tables, to add to those of `room` and earlier `room_tables`.
        tables: Vec<TableView>,
        /// Another `room_tables` follows.
        more: bool,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_page_adds_fields_and_renames_none() {
        let page = RoomServerMessage::RoomTables {
            tables: Vec::new(),
            more: true,
        };
        assert_eq!(
            serde_json::to_value(&page).ok(),
            Some(serde_json::json!({"t": "room_tables", "tables": [], "more": true}))
        );
        // `more` is left out when the `room` message holds the whole list, so a room
        // message reads exactly as before; an old message without it still parses.
        let room = serde_json::json!({
            "t": "room",
            "room": {"id": "r", "name": "R", "names": {"pl": "R", "en": "R"},
                     "rules": {"pl": "", "en": ""}, "variant": "russian",
                     "tables": 0, "players": 0},
            "tables": [],
            "players": 0
        });
        let parsed: RoomServerMessage =
            serde_json::from_value(room.clone()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(serde_json::to_value(&parsed).ok(), Some(room));
    }
}
