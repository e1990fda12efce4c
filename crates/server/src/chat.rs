//! Chat, shared by rooms and tables: the text rules (plain text, 1–300 characters after
//! trimming, control and invisible formatting characters removed), the per-person flood
//! control, and the stored form of a message.
//!
//! Clients render chat as text, never as markup; the server still removes what could
//! hide or reorder text (control characters, zero-width and bidirectional formatting).

use std::time::Instant;

use damka_protocol::{ChatMessage, Player};

use crate::error::AppError;
use crate::store::ChatRow;
use crate::{random, time};

/// Longest message, in characters after trimming.
pub const MAX_CHARS: usize = 300;

/// Messages kept per room or table and sent on connect.
pub const HISTORY: usize = 50;

/// Messages a person may send in a burst to one room or table.
pub const BURST: f64 = 5.0;

/// Messages per second refilled after a burst (one every 2 s).
pub const PER_SECOND: f64 = 0.5;

/// Whether a character is removed from chat text (and names): control characters, and
/// invisible formatting (zero-width, joiners, bidirectional overrides, BOM).
pub fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
            | '\u{FFA0}' | '\u{FFF0}'..='\u{FFF8}')
}

/// The text as sent on: invisible characters removed (a newline or tab becomes a
/// space), then trimmed.
///
/// Fails with `bad_message` when nothing is left or it is longer than [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, AppError> {
    let kept: String = text
        .chars()
        .filter_map(|c| match c {
            '\n' | '\r' | '\t' => Some(' '),
            c if invisible(c) => None,
            c => Some(c),
        })
        .collect();
    let trimmed = kept.trim();
    let n = trimmed.chars().count();
    if n == 0 {
        return Err(AppError::BadMessage("an empty chat message".into()));
    }
    if n > MAX_CHARS {
        return Err(AppError::BadMessage(format!(
            "a chat message has at most {MAX_CHARS} characters"
        )));
    }
    Ok(trimmed.to_owned())
}

/// One person's flood control in one room or table: a token bucket (chat's by default,
/// other rates with [`Bucket::new`]).
#[derive(Debug, Clone)]
pub struct Bucket {
    /// Tokens left.
    tokens: f64,
    /// Last refill.
    at: Instant,
    /// Most tokens held (the burst).
    burst: f64,
    /// Tokens refilled per second.
    per_second: f64,
}

impl Default for Bucket {
    fn default() -> Bucket {
        Bucket::new(BURST, PER_SECOND)
    }
}

impl Bucket {
    /// A full bucket of `burst` tokens, refilled at `per_second`.
    pub fn new(burst: f64, per_second: f64) -> Bucket {
        Bucket {
            tokens: burst,
            at: Instant::now(),
            burst,
            per_second,
        }
    }

    /// Takes a token for one message.
    ///
    /// Fails with `rate_limited` when the burst is used up.
    pub fn take(&mut self) -> Result<(), AppError> {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> Result<(), AppError> {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(AppError::game(
                damka_protocol::ErrorCode::RateLimited,
                "too many messages: wait a little",
            ))
        }
    }
}

/// A new message from `from` in `scope` (`room:<id>` / `table:<id>`), to store.
pub fn new_row(scope: &str, from: &Player, text: String, spectators: bool) -> ChatRow {
    ChatRow {
        id: random::token_base36(12),
        scope: scope.to_owned(),
        from_id: from.id.clone(),
        from_name: from.name.clone(),
        text,
        spectators: i64::from(spectators),
        at: time::unix_ms(),
    }
}

/// The wire message of a stored one.
pub fn message(row: &ChatRow) -> ChatMessage {
    ChatMessage {
        id: row.id.clone(),
        from: crate::bots::stored_player(&row.from_id, &row.from_name),
        text: row.text.clone(),
        at: time::rfc3339(row.at),
        spectators: row.spectators != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn text_is_cleaned_and_measured() {
        assert_eq!(
            clean("  hello \u{200B}there\u{202E} ").ok().as_deref(),
            Some("hello there")
        );
        assert_eq!(clean("a\nb\u{7}").ok().as_deref(), Some("a b"));
        assert!(clean("   \u{200B} ").is_err());
        assert!(clean(&"x".repeat(301)).is_err());
        assert_eq!(
            clean(&format!(" {} ", "ż".repeat(300)))
                .map(|s| s.chars().count())
                .ok(),
            Some(300)
        );
        // Markup stays text: clients never render it.
        assert_eq!(clean("<b>hi</b>").ok().as_deref(), Some("<b>hi</b>"));
    }

    #[test]
    fn a_burst_then_rate_limited_then_refilled() {
        let mut b = Bucket::default();
        let t0 = b.at;
        for _ in 0..5 {
            assert!(b.take_at(t0).is_ok());
        }
        assert!(b.take_at(t0).is_err());
        assert!(b.take_at(t0 + Duration::from_millis(1_000)).is_err());
        assert!(b.take_at(t0 + Duration::from_millis(2_100)).is_ok());
    }
}
