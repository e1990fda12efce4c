//! What a table actor is asked to do: the commands of its queue (from its sockets, the
//! computer's searches, the tournaments and the HTTP API).

use damka_protocol::Player;
use damka_protocol::table::ClientMessage;
use tokio::sync::{mpsc, oneshot};

use super::subscribers::Outgoing;

/// Commands a table actor accepts.
#[derive(Debug)]
pub enum Command {
    /// A socket opens: register it and send it the state.
    Join {
        /// The guest behind the socket, if any.
        guest: Option<Player>,
        /// The socket's outgoing queue.
        tx: mpsc::Sender<Outgoing>,
        /// Receives the subscriber id.
        reply: oneshot::Sender<u64>,
    },
    /// A socket closed.
    Leave {
        /// Its subscriber id.
        sub: u64,
    },
    /// A message from a socket.
    Client {
        /// The sender's subscriber id.
        sub: u64,
        /// The message.
        msg: ClientMessage,
        /// The connection's one-way network delay estimate, ms (lag compensation).
        lag_ms: u64,
        /// When the session received it (move latency metric).
        received: std::time::Instant,
    },
    /// The computer's search answered.
    ComputerMove {
        /// The game it searched.
        game_id: String,
        /// The ply its move is for.
        ply: u32,
        /// The move, full path.
        mv: String,
    },
    /// A player left the tournament whose game this table plays: resign it for them.
    Forfeit {
        /// The game.
        game_id: String,
        /// The player who left.
        player_id: String,
    },
    /// `POST /api/games/{id}/conditional`: a player's prepared replies.
    Conditional {
        /// The game they are for.
        game_id: String,
        /// Who sets them.
        player: Player,
        /// The lines (`[]` clears them).
        lines: Vec<Vec<String>>,
        /// The lines as kept, or why not.
        reply: oneshot::Sender<Result<Vec<Vec<String>>, crate::error::AppError>>,
    },
}

/// Capacity of a table's command queue.
pub const COMMAND_QUEUE: usize = 256;
