//! Why a pure model refuses a request: a protocol code and a text for the sender, and
//! nothing about HTTP or sockets. [`crate::error::AppError`] (which knows both) is made
//! from it where a handler answers.

use damka_protocol::ErrorCode;

/// Why a request is refused, to its sender only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The game or the tournament forbids it (a protocol code and why).
    Game(ErrorCode, String),
    /// The request makes no sense now (`bad_message`).
    Bad(String),
    /// A bug: the server contradicts itself (logged; the client sees `internal`).
    Internal(String),
}

impl Refusal {
    /// A refusal with a protocol code.
    pub fn game(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal::Game(code, message.into())
    }

    /// A `bad_message` refusal.
    pub fn bad(message: impl Into<String>) -> Refusal {
        Refusal::Bad(message.into())
    }

    /// The protocol code the sender sees.
    pub fn code(&self) -> ErrorCode {
        match self {
            Refusal::Game(code, _) => *code,
            Refusal::Bad(_) => ErrorCode::BadMessage,
            Refusal::Internal(_) => ErrorCode::Internal,
        }
    }
}

impl From<Refusal> for crate::error::AppError {
    fn from(r: Refusal) -> Self {
        match r {
            Refusal::Game(code, message) => crate::error::AppError::game(code, message),
            Refusal::Bad(message) => crate::error::AppError::BadMessage(message),
            Refusal::Internal(detail) => crate::error::AppError::Internal(detail),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::AppError;

    #[test]
    fn a_refusal_keeps_its_code_and_text_as_an_app_error() {
        for r in [
            Refusal::game(ErrorCode::RateLimited, "one per 10 plies"),
            Refusal::bad("nothing to answer"),
            Refusal::Internal("a bug".into()),
        ] {
            let e = AppError::from(r.clone());
            assert_eq!(e.code(), r.code(), "{r:?}");
        }
        let e = AppError::from(Refusal::bad("nothing to answer"));
        assert_eq!(e.client_message(), "bad message: nothing to answer");
        let e = AppError::from(Refusal::Internal("a bug".into()));
        assert_eq!(
            e.client_message(),
            "internal error",
            "details stay in the log"
        );
    }
}
