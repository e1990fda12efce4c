//! The WebSocket close codes of the protocol (`docs/protocol.md`, "Close codes"): why the
//! server closed a socket, and so what a client does next.

/// The table closed (a client stops reconnecting).
pub const NORMAL: u16 = 1000;
/// The server is shutting down (reconnect later).
pub const GOING_AWAY: u16 = 1001;
/// The client sent a kind of data the protocol does not take (a binary frame).
pub const UNSUPPORTED: u16 = 1003;
/// Policy: rate-limit abuse, an oversize message, a bad origin, too slow a reader.
pub const POLICY: u16 = 1008;
/// Internal error.
pub const INTERNAL: u16 = 1011;
/// The table moves to another node of a cluster: reconnect now (to any node).
pub const MOVING: u16 = 1012;
/// The table is between nodes: reconnect in a moment.
pub const TRY_AGAIN: u16 = 1013;
/// The socket's session ended (signed out here or everywhere, the password changed, the
/// operator disabled the account or reset its password, the session expired): the client
/// asks who it is now (`GET /api/me`, a new guest if need be) before it reconnects, and
/// tells the person they were signed out. An application code (4000–4999).
pub const SIGNED_OUT: u16 = 4001;
