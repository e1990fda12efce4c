//! Chat, shared by rooms and tables: the text rules (plain text on one line, 1–300
//! characters after trimming, invisible characters removed by Unicode category, at most
//! [`MAX_MARKS`] combining marks on a character, something visible), the per-person and
//! per-address flood control, and the stored form of a message.
//!
//! Clients render chat as text, never as markup; the server still removes what could
//! hide or reorder text (see [`crate::text`]).

use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use damka_protocol::{ChatMessage, Player};

use crate::refusal::Refusal;
use crate::{random, time};
use damka_store::ChatRow;

/// Longest message, in characters after trimming.
pub const MAX_CHARS: usize = 300;

/// Messages kept per room or table and sent on connect.
pub const HISTORY: usize = 50;

/// Messages a person may send in a burst to one room or table.
pub const BURST: f64 = 5.0;

/// Messages per second refilled after a burst (one every 2 s).
pub const PER_SECOND: f64 = 0.5;

/// Messages one address (all its guests together) may send in a burst to one room or
/// table.
pub const ADDRESS_BURST: f64 = 10.0;

/// Messages per second one address may send to one room or table after a burst.
pub const ADDRESS_PER_SECOND: f64 = 1.0;

/// Takes a token of the chat budget that `ip` shares across its guests in `scope`
/// (`room:<id>` / `table:<id>`).
///
/// Fails with `rate_limited`.
pub fn address_token(
    limits: &crate::limits::Limits,
    ip: crate::limits::RateKey,
    scope: &str,
) -> Result<(), Refusal> {
    if limits
        .chat
        .take((ip, scope.to_owned()), ADDRESS_BURST, ADDRESS_PER_SECOND)
    {
        Ok(())
    } else {
        Err(Refusal::game(
            damka_protocol::ErrorCode::RateLimited,
            "too many messages from your address: wait a little",
        ))
    }
}

/// Combining marks kept on one character (stacked marks beyond it are dropped).
pub const MAX_MARKS: usize = 3;

/// The text as sent on: in NFC, invisible characters removed, line breaks (newlines,
/// tabs, line and paragraph separators) made spaces, at most [`MAX_MARKS`] combining
/// marks on a character, then trimmed.
///
/// Fails with `bad_message` when nothing visible is left or it is longer than
/// [`MAX_CHARS`].
pub fn clean(text: &str) -> Result<String, Refusal> {
    use unicode_normalization::UnicodeNormalization;
    let kept: String = text
        .nfc()
        .filter_map(|c| {
            if crate::text::line_break(c) {
                Some(' ')
            } else if crate::text::invisible(c) {
                None
            } else {
                Some(c)
            }
        })
        .collect();
    let kept = crate::text::limit_marks(&kept, MAX_MARKS);
    let trimmed = kept.trim();
    let n = trimmed.chars().count();
    if trimmed.chars().all(crate::text::blank) {
        return Err(Refusal::bad("an empty chat message"));
    }
    if n > MAX_CHARS {
        return Err(Refusal::bad(format!(
            "a chat message has at most {MAX_CHARS} characters"
        )));
    }
    Ok(trimmed.to_owned())
}

/// A room's or a table's chat: its last messages (sent on connect) and each person's
/// flood control there. The room and the table each hold one, so a message goes the same
/// way in both: [`ChatLog::admit`] (cleaned, within the person's budget), stored, then
/// [`ChatLog::record`] and sent.
#[derive(Debug, Default)]
pub struct ChatLog {
    /// The last [`HISTORY`] messages, oldest first.
    history: VecDeque<ChatMessage>,
    /// Each person's flood control.
    buckets: HashMap<String, Bucket>,
}

impl ChatLog {
    /// A chat with `history` (read back from the store).
    pub fn new(history: Vec<ChatMessage>) -> ChatLog {
        let mut log = ChatLog::default();
        for m in history {
            log.record(m);
        }
        log
    }

    /// A message of `guest_id`, cleaned ([`clean`]) and within their budget; returns the
    /// text to store.
    ///
    /// Fails with `bad_message` or `rate_limited`.
    pub fn admit(&mut self, guest_id: &str, text: &str) -> Result<String, Refusal> {
        let text = clean(text)?;
        self.buckets
            .entry(guest_id.to_owned())
            .or_default()
            .take()?;
        Ok(text)
    }

    /// A stored message joins the history (the oldest goes past [`HISTORY`]).
    pub fn record(&mut self, msg: ChatMessage) {
        self.history.push_back(msg);
        while self.history.len() > HISTORY {
            self.history.pop_front();
        }
    }

    /// The last messages, oldest first.
    pub fn history(&self) -> impl Iterator<Item = &ChatMessage> {
        self.history.iter()
    }

    /// Whether nothing was said.
    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    /// Forgets the buckets that have refilled (they behave exactly like new ones), so
    /// the map holds only the people active lately.
    pub fn prune(&mut self) {
        self.buckets.retain(|_, b| !b.is_full());
    }

    /// Flood-control buckets held (one per person active lately).
    pub fn buckets_held(&self) -> usize {
        self.buckets.len()
    }
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
    pub fn take(&mut self) -> Result<(), Refusal> {
        self.take_at(Instant::now())
    }

    /// Whether the bucket has refilled by now (it then behaves exactly like a new one,
    /// and a map of buckets may forget it).
    pub fn is_full(&self) -> bool {
        let elapsed = self.at.elapsed().as_secs_f64();
        self.tokens + elapsed * self.per_second >= self.burst
    }

    fn take_at(&mut self, now: Instant) -> Result<(), Refusal> {
        let elapsed = now.saturating_duration_since(self.at).as_secs_f64();
        self.at = now;
        self.tokens = (self.tokens + elapsed * self.per_second).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            Ok(())
        } else {
            Err(Refusal::game(
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
        spectators,
        at: time::unix_ms(),
    }
}

/// The wire message of a stored one.
pub fn message(row: &ChatRow) -> ChatMessage {
    ChatMessage {
        id: row.id.clone(),
        from: crate::computer::stored_player(&row.from_id, &row.from_name),
        text: row.text.clone(),
        at: time::rfc3339(row.at),
        spectators: row.spectators,
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
    fn invisible_and_blank_text_by_category() {
        // Tags, interlinear annotation, musical format characters: removed.
        assert_eq!(
            clean("a\u{E0041}\u{E0042}b\u{FFF9}c\u{FFFB}\u{1D173}d")
                .ok()
                .as_deref(),
            Some("abcd")
        );
        // Line and paragraph separators break lines: a space, like a newline.
        assert_eq!(clean("a\u{2028}b\u{2029}c").ok().as_deref(), Some("a b c"));
        // Stacked marks: three kept.
        let zalgo = format!("a{}", "\u{0301}".repeat(290));
        assert_eq!(
            clean(&zalgo).map(|s| s.chars().count()).ok(),
            Some(1 + MAX_MARKS)
        );
        // Nothing visible: braille blanks, fillers, ideographic spaces.
        assert!(clean("\u{2800}\u{2800}\u{2800}").is_err());
        assert!(clean("\u{3164} \u{3000}\u{2800}").is_err());
        assert!(clean("\u{E0020}\u{E007F}").is_err());
        // Still fine: emoji, scripts, accents.
        assert_eq!(clean("gg 😀 Ж ż").ok().as_deref(), Some("gg 😀 Ж ż"));
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
