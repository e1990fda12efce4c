//! The error codes of the protocol and the HTTP error body.

use serde::{Deserialize, Serialize};

/// Every error code of `docs/protocol.md`, serialised in `snake_case`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// A move or draw action when it is not the sender's turn.
    NotYourTurn,
    /// A move that is not legal in the position (the legal moves go along).
    IllegalMove,
    /// A different move for a ply that has already been played.
    StalePly,
    /// `sit` on a seat someone else holds.
    SeatTaken,
    /// A player action by someone who is not seated at the table.
    NotSeated,
    /// An action that is not allowed while a game is being played.
    GameInProgress,
    /// A game action when the table has no game in progress.
    NoGame,
    /// Table options out of range or not allowed for the variant.
    InvalidOptions,
    /// A table's `ballot` names no ballot of the room's variant (HTTP 400).
    UnknownBallot,
    /// A guest name that breaks the naming rules.
    InvalidName,
    /// Too many messages on one connection.
    RateLimited,
    /// A message that is not valid JSON or not a known message.
    BadMessage,
    /// An action that needs a guest session without one.
    Unauthorized,
    /// An unknown room, table or game.
    NotFound,
    /// The guest already sits at the maximum number of open tables.
    TooManyTables,
    /// A server-side failure (details are only in the server's logs).
    Internal,
    /// The server cannot store anything right now (its database is unreachable or out of
    /// space): nothing was changed; try again once it recovers. The table's clock is
    /// paused meanwhile (`state.paused` is `storage`).
    StorageUnavailable,
    /// One address holds as many sockets as it may (HTTP 429 on the upgrade).
    TooManyConnections,
    /// A cross-site request to a mutating endpoint (HTTP 403).
    Forbidden,
    /// The username is taken (folded: case and look-alikes) (HTTP 409).
    UsernameTaken,
    /// A username that breaks the rules: 3–20 of `A-Z a-z 0-9 _ -`, not the computer's
    /// (HTTP 400).
    InvalidUsername,
    /// A password of fewer than 8 or more than 128 characters, or the username (HTTP 400).
    WeakPassword,
    /// The player is an account already (HTTP 409).
    AlreadyAccount,
    /// A wrong username or password (the same for both, HTTP 401).
    BadCredentials,
    /// A guest at a rated table or tournament: only accounts play rated (HTTP 403).
    RatedNeedsAccount,
    /// A guest at a correspondence table: only accounts play by correspondence, a game
    /// of weeks would be lost with a guest's cookie (HTTP 403).
    CorrespondenceNeedsAccount,
    /// A rating outside the free seat's range of a rated table (HTTP 403).
    RatingOutOfRange,
    /// The analysis board asked by a person who plays a live game against another
    /// person or in a tournament (HTTP 409).
    InGame,
}

impl ErrorCode {
    /// The wire name of the code, as serialised.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::StalePly => "stale_ply",
            ErrorCode::SeatTaken => "seat_taken",
            ErrorCode::NotSeated => "not_seated",
            ErrorCode::GameInProgress => "game_in_progress",
            ErrorCode::NoGame => "no_game",
            ErrorCode::InvalidOptions => "invalid_options",
            ErrorCode::UnknownBallot => "unknown_ballot",
            ErrorCode::InvalidName => "invalid_name",
            ErrorCode::RateLimited => "rate_limited",
            ErrorCode::BadMessage => "bad_message",
            ErrorCode::Unauthorized => "unauthorized",
            ErrorCode::NotFound => "not_found",
            ErrorCode::TooManyTables => "too_many_tables",
            ErrorCode::Internal => "internal",
            ErrorCode::StorageUnavailable => "storage_unavailable",
            ErrorCode::TooManyConnections => "too_many_connections",
            ErrorCode::Forbidden => "forbidden",
            ErrorCode::UsernameTaken => "username_taken",
            ErrorCode::InvalidUsername => "invalid_username",
            ErrorCode::WeakPassword => "weak_password",
            ErrorCode::AlreadyAccount => "already_account",
            ErrorCode::BadCredentials => "bad_credentials",
            ErrorCode::RatedNeedsAccount => "rated_needs_account",
            ErrorCode::CorrespondenceNeedsAccount => "correspondence_needs_account",
            ErrorCode::RatingOutOfRange => "rating_out_of_range",
            ErrorCode::InGame => "in_game",
        }
    }
}

/// The HTTP error body: `{"error": {"code": ..., "message": ...}}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorBody {
    /// The error itself.
    pub error: ErrorDetail,
}

/// Code and human-readable message of an HTTP error.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ErrorDetail {
    /// Machine-readable code.
    pub code: ErrorCode,
    /// Human-readable explanation (English).
    pub message: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn as_str_matches_serde() {
        for code in [
            ErrorCode::NotYourTurn,
            ErrorCode::IllegalMove,
            ErrorCode::StalePly,
            ErrorCode::SeatTaken,
            ErrorCode::NotSeated,
            ErrorCode::GameInProgress,
            ErrorCode::NoGame,
            ErrorCode::InvalidOptions,
            ErrorCode::UnknownBallot,
            ErrorCode::InvalidName,
            ErrorCode::RateLimited,
            ErrorCode::BadMessage,
            ErrorCode::Unauthorized,
            ErrorCode::NotFound,
            ErrorCode::TooManyTables,
            ErrorCode::Internal,
            ErrorCode::StorageUnavailable,
            ErrorCode::TooManyConnections,
            ErrorCode::Forbidden,
            ErrorCode::UsernameTaken,
            ErrorCode::InvalidUsername,
            ErrorCode::WeakPassword,
            ErrorCode::AlreadyAccount,
            ErrorCode::BadCredentials,
            ErrorCode::RatedNeedsAccount,
            ErrorCode::CorrespondenceNeedsAccount,
            ErrorCode::RatingOutOfRange,
            ErrorCode::InGame,
        ] {
            let json = serde_json::to_string(&code).expect("serialises");
            assert_eq!(json, format!("\"{}\"", code.as_str()));
        }
    }
}
