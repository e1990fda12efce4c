//! Wire types of the Damka protocol (`docs/protocol.md`): the JSON objects of the HTTP API
//! and the messages of the room and table WebSockets.
//!
//! The server serialises these types and its tests deserialise them, so a field renamed
//! here is caught by both. Every type mirrors one object or message of the contract:
//!
//! - [`account`]: accounts, sessions, ratings, profiles and leaderboards;
//! - [`analysis`]: analysis of finished games and of positions;
//! - [`ballot`]: opening ballots (a variant's list, a table's choice, a game's ballot);
//! - [`close`]: the WebSocket close codes;
//! - [`common`]: players, options, clocks, counters, tables, rooms, variants, games;
//! - [`error`]: the error codes and the one error shape;
//! - [`micro_match`]: micro-matches (two games from one opening, colours swapped);
//! - [`room`]: room socket messages;
//! - [`table`]: table socket messages;
//! - [`tournament`]: tournaments (creation, the whole tournament, the room's summary).
//!
//! ```
//! use damka_protocol::table::ClientMessage;
//! let msg: ClientMessage =
//!     serde_json::from_str(r#"{"t": "move", "move": "c3-d4", "ply": 1, "ack": 7}"#).unwrap();
//! assert!(matches!(msg, ClientMessage::Move { ply: 1, .. }));
//! ```

pub mod account;
pub mod analysis;
pub mod ballot;
pub mod close;
pub mod common;
pub mod error;
pub mod micro_match;
pub mod room;
pub mod table;
pub mod tournament;

pub use common::*;
pub use error::{ErrorBody, ErrorCode, ErrorDetail};
