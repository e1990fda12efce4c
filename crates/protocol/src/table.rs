//! Messages of the table socket (`GET /ws/tables/{id}`).

use serde::{Deserialize, Serialize};

use crate::common::{
    ChatMessage, ClockTimes, ClockView, CounterView, EndReason, GameResult, Options, Player, Ready,
    Seats, Side, TableStatus, TableView,
};
use crate::error::ErrorCode;

/// Client → server on a table socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    /// Take a free seat.
    Sit {
        /// The seat wanted.
        seat: Side,
    },
    /// Leave one's seat (not during a game).
    Stand,
    /// Ready to start.
    Start,
    /// Play a move.
    Move {
        /// The move in the variant's notation.
        #[serde(rename = "move")]
        mv: String,
        /// The ply this move is meant for (from 1).
        ply: u32,
        /// Client-chosen id echoed in `ack` / `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<serde_json::Value>,
    },
    /// Offer a draw.
    DrawOffer,
    /// Accept the opponent's draw offer.
    DrawAccept,
    /// Decline the opponent's draw offer.
    DrawDecline,
    /// Resign the game.
    Resign,
    /// Abort the game (only before both players moved).
    Abort,
    /// Ask for a fresh `state`.
    Resync,
    /// A chat message to the table.
    Chat {
        /// The text (1–300 characters after trimming).
        text: String,
        /// Client-chosen id echoed in an `error`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ack: Option<serde_json::Value>,
    },
    /// Claim the win: the opponent has been disconnected for the claim delay.
    ClaimVictory,
    /// Claim a draw: the opponent has been disconnected for the claim delay.
    ClaimDraw,
    /// Ask the opponent to take back one's last move (and their reply, if made).
    TakebackOffer,
    /// Accept the opponent's takeback request.
    TakebackAccept,
    /// Decline the opponent's takeback request.
    TakebackDecline,
    /// Prepared replies at a correspondence table (`docs/protocol.md`, "Conditional
    /// moves"): each line starts with an opponent's move, then the reply, and so on; they
    /// replace any set before, and `[]` clears them. Set while the opponent is to move.
    Conditional {
        /// The lines, each a list of moves in the variant's notation.
        lines: Vec<Vec<String>>,
    },
    /// Latency probe.
    Ping {
        /// Any number, echoed back unchanged.
        ts: serde_json::Number,
    },
}

/// The caller's identity and seat in `state`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct You {
    /// Guest id.
    pub id: String,
    /// The seat the guest holds at this table, if any.
    pub seat: Option<Side>,
    /// The guest's prepared replies in the running correspondence game (absent when none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditional: Vec<Vec<String>>,
}

/// Who is connected to the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PresenceView {
    /// The white seat's player has a socket open.
    pub white: bool,
    /// The black seat's player has a socket open.
    pub black: bool,
    /// Other sockets.
    pub spectators: u32,
    /// Who of the spectators has a session (a guest or an account), each once, in the
    /// order they came, at most 50: the table page names who watches (an addition; a
    /// spectator without a session is counted in `spectators` only).
    #[serde(default)]
    pub watchers: Vec<Player>,
}

/// A played move in `state`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedMove {
    /// Ply from 1.
    pub ply: u32,
    /// Full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// Captured squares.
    pub captures: Vec<String>,
    /// Clocks after the move.
    pub clock: ClockTimes,
}

/// The full state of a table and its game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    /// Version of the last event included.
    pub v: u64,
    /// The table object.
    pub table: TableView,
    /// The receiver, or `null` without a session.
    pub you: Option<You>,
    /// Seats.
    pub seats: Seats,
    /// Who pressed start.
    pub ready: Ready,
    /// Options.
    pub options: Options,
    /// Who is connected.
    pub presence: PresenceView,
    /// Waiting, playing or over.
    pub status: TableStatus,
    /// Current or last game id.
    pub game_id: Option<String>,
    /// White player of the game.
    pub white: Option<Player>,
    /// Black player of the game.
    pub black: Option<Player>,
    /// Position before ply 1.
    pub initial_fen: String,
    /// Random-opening plies at the start of `moves`.
    pub opening_plies: u32,
    /// The opening ballot the current or last game started from (`initial_fen` is its
    /// position), or `null`.
    #[serde(default)]
    pub ballot: Option<crate::ballot::GameBallot>,
    /// Current position.
    pub fen: String,
    /// Moves so far.
    pub moves: Vec<PlayedMove>,
    /// Side to move.
    pub turn: Side,
    /// Legal moves of the side to move (empty unless playing).
    pub legal: Vec<String>,
    /// Clock as of sending.
    pub clock: ClockView,
    /// Time left for the pending first move, while the first-move window applies.
    pub first_move_deadline: Option<u64>,
    /// Side with a pending draw offer.
    pub draw_offer: Option<Side>,
    /// Active draw-rule counters.
    pub counters: Vec<CounterView>,
    /// Result when over.
    pub result: Option<GameResult>,
    /// Reason when over.
    pub reason: Option<EndReason>,
    /// Why the game's clock (and first-move window) is stopped for now, or `null`.
    #[serde(default)]
    pub paused: Option<Paused>,
    /// Ms until a claim (`claim_victory` / `claim_draw`) is allowed against the
    /// disconnected player of a running game (0: allowed now), or `null`.
    #[serde(default)]
    pub claim_at: Option<u64>,
    /// Side with a pending takeback request.
    #[serde(default)]
    pub takeback_offer: Option<Side>,
    /// The table's last chat messages, oldest first (for a player during a game, without
    /// the spectators' messages).
    #[serde(default)]
    pub chat: Vec<ChatMessage>,
    /// When each player of the current game may next offer a draw or ask for a takeback
    /// (the server's limit, whatever it is configured to).
    #[serde(default)]
    pub offer_limits: OfferLimits,
    /// The side whose action ended the last game (resigned, aborted, claimed it, or
    /// accepted the draw), as `by` of `game_over`; `null` while playing, for an end the
    /// server ruled (time, rules, the first-move window), or when not known.
    #[serde(default)]
    pub ended_by: Option<Side>,
    /// At a rated table: why the current or last game is not rated (absent when it is,
    /// or the table is casual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<crate::Unrated>,
    /// At a micro-match table: the current or last match (absent before its first game
    /// and at other tables).
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub micro_match: Option<crate::micro_match::MatchView>,
}

/// When each player may next offer a draw or ask for a takeback: the server allows one
/// of each per player per `plies` plies.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferLimits {
    /// The limit: one draw offer and one takeback request per player per this many plies.
    pub plies: u32,
    /// The number of plies played from which each side may offer a draw again (0 before
    /// its first offer of the game).
    pub draw: SidePlies,
    /// The same for takeback requests.
    pub takeback: SidePlies,
}

/// A ply count for each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SidePlies {
    /// White's.
    pub white: u32,
    /// Black's.
    pub black: u32,
}

impl SidePlies {
    /// Sets one side's count.
    pub fn set(&mut self, side: Side, plies: u32) {
        match side {
            Side::White => self.white = plies,
            Side::Black => self.black = plies,
        }
    }
}

/// Why a running game's clock is stopped by the server (an addition to the protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Paused {
    /// Restored after a restart: waiting for both players to reconnect (or the grace to
    /// pass).
    Restart,
    /// The server cannot store moves right now; the clock runs again once it can.
    Storage,
}

/// Server → client on a table socket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage {
    /// Full state (on connect, on `resync`, after falling behind).
    State(Box<State>),
    /// A move was stored.
    Ack {
        /// The `ack` of the move message.
        ack: serde_json::Value,
    },
    /// A player sat down.
    Seated {
        /// Version.
        v: u64,
        /// Seat.
        seat: Side,
        /// Player.
        player: Player,
    },
    /// A player stood up.
    Stood {
        /// Version.
        v: u64,
        /// Seat.
        seat: Side,
    },
    /// A player pressed start.
    Ready {
        /// Version.
        v: u64,
        /// Seat.
        seat: Side,
    },
    /// A game started.
    GameStarted(Box<GameStarted>),
    /// A move was played.
    Move(Box<MovePlayed>),
    /// A draw was offered.
    DrawOffered {
        /// Version.
        v: u64,
        /// The offering side.
        by: Side,
        /// The number of plies played from which `by` may offer again (as in
        /// `state.offer_limits.draw`).
        #[serde(default)]
        next: u32,
    },
    /// A draw offer was declined (explicitly or by moving).
    DrawDeclined {
        /// Version.
        v: u64,
        /// The declining side.
        by: Side,
    },
    /// The game ended.
    GameOver {
        /// Version.
        v: u64,
        /// Result (`null` when aborted).
        result: Option<GameResult>,
        /// Reason.
        reason: EndReason,
        /// Final clock.
        clock: ClockView,
        /// The side whose action ended the game: who resigned, aborted, claimed it or
        /// accepted the draw; absent for an end the server ruled (time, the rules, the
        /// first-move window).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<Side>,
        /// Both players' rating changes, in a rated game with a result.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ratings: Option<crate::account::GameRatings>,
        /// At a micro-match table: the match with this game's result counted; after
        /// the second game (`status` `over`) the match result.
        #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
        micro_match: Option<Box<crate::micro_match::MatchView>>,
    },
    /// Who is connected changed.
    Presence {
        /// Version.
        v: u64,
        /// White's player connected.
        white: bool,
        /// Black's player connected.
        black: bool,
        /// Other sockets.
        spectators: u32,
        /// Ms until a claim against the disconnected player is allowed, or `null`.
        #[serde(default)]
        claim_at: Option<u64>,
        /// The spectators with a session, as in `state.presence.watchers`.
        #[serde(default)]
        watchers: Vec<Player>,
    },
    /// A chat message (not versioned: spectators' messages during a game reach only
    /// spectators).
    Chat(ChatMessage),
    /// A takeback was requested.
    TakebackOffered {
        /// Version.
        v: u64,
        /// The requesting side.
        by: Side,
        /// The number of plies played from which `by` may ask again (as in
        /// `state.offer_limits.takeback`).
        #[serde(default)]
        next: u32,
    },
    /// A takeback request was declined (explicitly, or by a move).
    TakebackDeclined {
        /// Version.
        v: u64,
        /// The declining side.
        by: Side,
    },
    /// A takeback was accepted and stored: the game is back at ply `ply`. Every socket
    /// is sent a fresh `state` (same `v`) right after it.
    Takeback {
        /// Version.
        v: u64,
        /// The side whose move was taken back.
        by: Side,
        /// Plies taken back (1 or 2).
        plies: u32,
        /// Plies played now.
        ply: u32,
    },
    /// The table went away.
    TableClosed {
        /// Version.
        v: u64,
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
        /// Legal moves, for `illegal_move`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        legal: Option<Vec<String>>,
    },
    /// Answer to `ping`.
    Pong {
        /// The `ts` of the ping.
        ts: serde_json::Number,
    },
    /// The player's prepared replies now (to that player's sockets only): after they set
    /// them, after one was played (what is left), or `[]` once cancelled by a move that
    /// no line expected.
    Conditional {
        /// The lines left.
        lines: Vec<Vec<String>>,
    },
}

/// The `game_started` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameStarted {
    /// Version.
    pub v: u64,
    /// Game id.
    pub id: String,
    /// White player.
    pub white: Player,
    /// Black player.
    pub black: Player,
    /// Seats (colours swap from one game to the next).
    pub seats: Seats,
    /// Position before ply 1.
    pub initial_fen: String,
    /// Position after the random opening (if any).
    pub fen: String,
    /// Random-opening plies, full paths.
    pub opening: Vec<String>,
    /// The opening ballot the game starts from (`initial_fen` is its position), or `null`.
    #[serde(default)]
    pub ballot: Option<crate::ballot::GameBallot>,
    /// Side to move.
    pub turn: Side,
    /// Legal moves.
    pub legal: Vec<String>,
    /// Clock.
    pub clock: ClockView,
    /// Draw-rule counters.
    pub counters: Vec<CounterView>,
    /// Time for the first move (the first-move window), ms.
    pub first_move_deadline: Option<u64>,
    /// At a rated table: why this game is not rated (absent when it is, or the table is
    /// casual).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unrated: Option<crate::Unrated>,
    /// At a micro-match table: the match this game is played in, the game counted in
    /// its `games` (absent at other tables).
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub micro_match: Option<crate::micro_match::MatchView>,
}

/// The `move` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MovePlayed {
    /// Version.
    pub v: u64,
    /// Ply of this move.
    pub ply: u32,
    /// Full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// The side that moved.
    pub by: Side,
    /// Captured squares.
    pub captures: Vec<String>,
    /// Position after the move.
    pub fen: String,
    /// Side to move next.
    pub turn: Side,
    /// Clock after the move.
    pub clock: ClockView,
    /// Legal moves of the side to move (empty when the game ended).
    pub legal: Vec<String>,
    /// Draw-rule counters.
    pub counters: Vec<CounterView>,
    /// Time for the next first move, while the first-move window applies.
    pub first_move_deadline: Option<u64>,
}

impl ServerMessage {
    /// The version of a broadcast event (`None` for replies to one client).
    pub fn version(&self) -> Option<u64> {
        match self {
            ServerMessage::Seated { v, .. }
            | ServerMessage::Stood { v, .. }
            | ServerMessage::Ready { v, .. }
            | ServerMessage::DrawOffered { v, .. }
            | ServerMessage::DrawDeclined { v, .. }
            | ServerMessage::GameOver { v, .. }
            | ServerMessage::Presence { v, .. }
            | ServerMessage::TakebackOffered { v, .. }
            | ServerMessage::TakebackDeclined { v, .. }
            | ServerMessage::Takeback { v, .. }
            | ServerMessage::TableClosed { v } => Some(*v),
            ServerMessage::GameStarted(g) => Some(g.v),
            ServerMessage::Move(m) => Some(m.v),
            ServerMessage::State(_)
            | ServerMessage::Chat(_)
            | ServerMessage::Ack { .. }
            | ServerMessage::Error { .. }
            | ServerMessage::Pong { .. }
            | ServerMessage::Conditional { .. } => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_parse() {
        let m: ClientMessage = serde_json::from_str(r#"{"t":"sit","seat":"black"}"#).expect("sit");
        assert_eq!(m, ClientMessage::Sit { seat: Side::Black });
        let m: ClientMessage = serde_json::from_str(r#"{"t":"draw_offer"}"#).expect("offer");
        assert_eq!(m, ClientMessage::DrawOffer);
        let m: ClientMessage =
            serde_json::from_str(r#"{"t":"ping","ts":1.5}"#).expect("float ping");
        assert!(matches!(m, ClientMessage::Ping { .. }));
        assert!(serde_json::from_str::<ClientMessage>(r#"{"t":"fly"}"#).is_err());
        assert!(serde_json::from_str::<ClientMessage>(r#"{"t":"move","move":"1-5"}"#).is_err());
    }

    #[test]
    fn events_serialise_with_tag() {
        let e = ServerMessage::DrawOffered {
            v: 3,
            by: Side::White,
            next: 12,
        };
        assert_eq!(
            serde_json::to_string(&e).expect("json"),
            r#"{"t":"draw_offered","v":3,"by":"white","next":12}"#
        );
        // An older message without `next` still parses.
        let old: ServerMessage =
            serde_json::from_str(r#"{"t":"draw_offered","v":3,"by":"white"}"#).expect("old");
        assert!(matches!(old, ServerMessage::DrawOffered { next: 0, .. }));
        let over = ServerMessage::GameOver {
            v: 9,
            result: None,
            reason: EndReason::Aborted,
            clock: ClockView {
                white: 1,
                black: 2,
                running: None,
            },
            by: Some(Side::Black),
            ratings: None,
            micro_match: None,
        };
        assert_eq!(
            serde_json::to_value(&over).expect("json")["by"],
            serde_json::json!("black")
        );
        let e = ServerMessage::Error {
            code: ErrorCode::StalePly,
            message: "x".into(),
            ack: None,
            legal: None,
        };
        assert_eq!(
            serde_json::to_string(&e).expect("json"),
            r#"{"t":"error","code":"stale_ply","message":"x"}"#
        );
    }
}
