//! Messages of the room socket (`GET /ws/rooms/{room}`).

use serde::{Deserialize, Serialize};

use crate::common::{ChatMessage, Person, Player, RoomView, TableView};
use crate::error::ErrorCode;
use crate::tournament::TournamentSummary;

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
    /// Invite a person in the room to the sender's table (needs the session cookie; the
    /// sender sits at that table, which has a free seat and no game being played).
    Invite {
        /// The invited person's guest id.
        to: String,
        /// The table, in this room.
        table: String,
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
// `Room` carries the room's names and rules in nine languages, which makes it twice the
// size of the next variant; a message is serialised as soon as it is made, never queued
// or stored as a value, so the size costs nothing and boxing it would only add a hop.
#[allow(clippy::large_enum_variant)]
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
        /// The room's tournaments: open and running ones, and the last finished ones.
        #[serde(default)]
        tournaments: Vec<TournamentSummary>,
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
    /// An invitation to a table: sent only to the invited person's room sockets and, as
    /// the confirmation, to the inviter's.
    Invited(Box<Invitation>),
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
    /// A tournament was created in the room.
    TournamentAdded {
        /// The tournament.
        tournament: TournamentSummary,
    },
    /// A tournament changed (players, round, results, status).
    TournamentUpdated {
        /// The tournament as it is now.
        tournament: TournamentSummary,
    },
    /// A player's tournament game is ready: the table is created with both seats taken
    /// and the game started. Published on the room's channel addressed to one guest
    /// (`to`); only that guest's room sockets receive it.
    TournamentGame {
        /// The guest it is for.
        to: String,
        /// Tournament id.
        tournament: String,
        /// The table to go to.
        table: String,
        /// The round.
        round: u32,
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

/// An invitation to a table, addressed to one person: a whole fact (ids and names), so it
/// can be delivered by whichever server holds the invited person's sockets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invitation {
    /// Invitation id.
    pub id: String,
    /// Who invites (the name shown in the room).
    pub from: Player,
    /// Who is invited (the name shown in the room).
    pub to: Player,
    /// The table as it was when the invitation was sent (options, seats).
    pub table: TableView,
    /// When it was sent, RFC 3339 (UTC).
    pub at: String,
}

impl RoomServerMessage {
    /// The guests a message is for, when it is not for every socket of the room: an
    /// invitation goes to its invitee and its inviter only, a `tournament_game` to the
    /// player it sends to a table.
    pub fn addressees(&self) -> Option<[&str; 2]> {
        match self {
            RoomServerMessage::Invited(i) => Some([i.to.id.as_str(), i.from.id.as_str()]),
            RoomServerMessage::TournamentGame { to, .. } => Some([to.as_str(), to.as_str()]),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addressed_events_name_their_guests() {
        let msg = RoomServerMessage::TournamentGame {
            to: "g1".into(),
            tournament: "x".into(),
            table: "t".into(),
            round: 2,
        };
        assert_eq!(msg.addressees(), Some(["g1", "g1"]));
        let presence = RoomServerMessage::Presence { players: 1 };
        assert_eq!(presence.addressees(), None);
    }

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
        // Written again it gains only the additions (`people`, `chat`, `tournaments`).
        let mut again = room;
        again["people"] = serde_json::json!([]);
        again["chat"] = serde_json::json!([]);
        again["tournaments"] = serde_json::json!([]);
        assert_eq!(serde_json::to_value(&parsed).ok(), Some(again));
    }
}
