//! The server's one error type, mapped to HTTP statuses and protocol error codes.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use damka_protocol::{ErrorBody, ErrorCode, ErrorDetail};

/// Everything a request or a socket message can fail with.
#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// An unknown room, table or game.
    #[error("{0} not found")]
    NotFound(&'static str),
    /// No valid session cookie.
    #[error("a guest session is required")]
    Unauthorized,
    /// Bad table options.
    #[error("invalid options: {0}")]
    InvalidOptions(String),
    /// Bad guest name.
    #[error("a name has 2 to 24 letters, digits, spaces, '-' or '_'")]
    InvalidName,
    /// The guest sits at too many tables.
    #[error("you already sit at {0} open tables")]
    TooManyTables(usize),
    /// Malformed request.
    #[error("bad message: {0}")]
    BadMessage(String),
    /// Too many messages.
    #[error("too many messages; slow down")]
    RateLimited,
    /// Too many attempts: try again in this many seconds (`Retry-After`).
    #[error("too many attempts; try again in {0} s")]
    RetryAfter(u64),
    /// Too many guests created from one address lately.
    #[error("too many new guests from your address; try again in a minute")]
    TooManyGuests,
    /// Too many open tables created from one address.
    #[error("your address already has {0} open tables")]
    TooManyAddressTables(usize),
    /// Too many open sockets from one address.
    #[error("your address already has {0} open connections")]
    TooManyConnections(usize),
    /// A mutating request from another site.
    #[error("cross-site requests are not allowed")]
    CrossSite,
    /// A mutating request whose body is not declared as JSON.
    #[error("send JSON with Content-Type: application/json")]
    NotJson,
    /// A request body over the limit.
    #[error("request body too large")]
    TooLarge,
    /// A method the route does not have.
    #[error("method not allowed")]
    MethodNotAllowed,
    /// The request was fine, but the game forbids it.
    #[error("{message}")]
    Game {
        /// Protocol code.
        code: ErrorCode,
        /// Explanation.
        message: String,
    },
    /// A database failure; the client sees a generic text, the log the details.
    #[error("database error")]
    Database(#[from] damka_store::StoreError),
    /// Any other server-side failure.
    #[error("internal error")]
    Internal(String),
}

impl AppError {
    /// A game-rule rejection with a code and message.
    pub fn game(code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError::Game {
            code,
            message: message.into(),
        }
    }

    /// The protocol error code.
    pub fn code(&self) -> ErrorCode {
        match self {
            AppError::NotFound(_) => ErrorCode::NotFound,
            AppError::Unauthorized => ErrorCode::Unauthorized,
            AppError::InvalidOptions(_) => ErrorCode::InvalidOptions,
            AppError::InvalidName => ErrorCode::InvalidName,
            AppError::TooManyTables(_) => ErrorCode::TooManyTables,
            AppError::BadMessage(_) => ErrorCode::BadMessage,
            AppError::RateLimited | AppError::TooManyGuests | AppError::RetryAfter(_) => {
                ErrorCode::RateLimited
            }
            AppError::TooManyAddressTables(_) => ErrorCode::TooManyTables,
            AppError::TooManyConnections(_) => ErrorCode::TooManyConnections,
            AppError::CrossSite => ErrorCode::Forbidden,
            AppError::NotJson | AppError::TooLarge | AppError::MethodNotAllowed => {
                ErrorCode::BadMessage
            }
            AppError::Game { code, .. } => *code,
            AppError::Database(e) if e.is_outage() => ErrorCode::StorageUnavailable,
            AppError::Database(_) | AppError::Internal(_) => ErrorCode::Internal,
        }
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotJson => return StatusCode::UNSUPPORTED_MEDIA_TYPE,
            AppError::TooLarge => return StatusCode::PAYLOAD_TOO_LARGE,
            AppError::MethodNotAllowed => return StatusCode::METHOD_NOT_ALLOWED,
            _ => {}
        }
        match self.code() {
            ErrorCode::NotFound => StatusCode::NOT_FOUND,
            ErrorCode::Unauthorized => StatusCode::UNAUTHORIZED,
            ErrorCode::TooManyTables | ErrorCode::RateLimited | ErrorCode::TooManyConnections => {
                StatusCode::TOO_MANY_REQUESTS
            }
            ErrorCode::Forbidden
            | ErrorCode::RatedNeedsAccount
            | ErrorCode::CorrespondenceNeedsAccount
            | ErrorCode::RatingOutOfRange => StatusCode::FORBIDDEN,
            ErrorCode::BadCredentials => StatusCode::UNAUTHORIZED,
            ErrorCode::UsernameTaken | ErrorCode::AlreadyAccount => StatusCode::CONFLICT,
            ErrorCode::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            ErrorCode::StorageUnavailable => StatusCode::SERVICE_UNAVAILABLE,
            ErrorCode::SeatTaken
            | ErrorCode::GameInProgress
            | ErrorCode::StalePly
            | ErrorCode::InGame => StatusCode::CONFLICT,
            _ => StatusCode::BAD_REQUEST,
        }
    }

    /// The text shown to clients; server-side details stay in the logs.
    pub fn client_message(&self) -> String {
        match self {
            AppError::Database(e) if e.is_outage() => {
                tracing::warn!(error = %e, "database unavailable");
                "the server cannot store anything right now; try again in a moment".to_owned()
            }
            AppError::Database(e) => {
                tracing::error!(error = %e, "database error");
                "internal error".to_owned()
            }
            AppError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                "internal error".to_owned()
            }
            other => other.to_string(),
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code(),
                message: self.client_message(),
            },
        };
        let retry = match self {
            AppError::RetryAfter(secs) => Some(secs),
            _ => None,
        };
        let mut response = (self.status(), Json(body)).into_response();
        if let Some(secs) = retry {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, secs.into());
        }
        response
    }
}

/// Result with [`AppError`].
pub type AppResult<T> = Result<T, AppError>;
