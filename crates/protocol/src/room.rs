//! Messages of the room socket (`GET /ws/rooms/{room}`).

use serde::{Deserialize, Serialize};

use crate::common::{ChatMessage, Person, RoomView, TableView};
use crate::error::ErrorCode;

/// Client → server on a room socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum RoomClientMessage {
    /// A chat message to the room (needs the session cookie).
    Chat {
        /// The text (1–300 characters after trimming).
        text: String,
        /// Client-chosen id echoed in an `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<serde_json::Value>,
    },
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
        /// People in the room: on a room socket or at one of its tables (`people`'s
        /// length).
        players: u32,
        /// Everyone in the room or at one of its tables.
        #[serde(default)]
        people: Vec<Person>,
        /// The room's last chat messages, oldest first.
        #[serde(default)]
        chat: Vec<ChatMessage>,
    },
    /// Someone came into the room (a room socket, or a table of the room).
    PeopleJoined {
        /// The person.
        person: Person,
    },
    /// Someone left the room and all its tables.
    PeopleLeft {
        /// Guest id.
        id: String,
    },
    /// Someone moved (room, table, playing) or their shown name changed.
    PeopleUpdated {
        /// The person as they are now.
        person: Person,
    },
    /// A chat message to the room.
    Chat(ChatMessage),
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
    /// The number of people in the room changed.
    Presence {
        /// People in the room (as `players` of `room`).
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
        /// The `ack` of the failing message, if it had one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<serde_json::Value>,
    },
}
