//! The rules table: every variant is data over one capture search.

use crate::Variant;
use std::fmt;

/// What happens when a man reaches the last row in the middle of a capture.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CapturePromotion {
    /// It is crowned and the move ends there (American, Spanish, Italian, Czech).
    EndsMove,
    /// It is crowned and goes on capturing as a king (Russian).
    ContinuesAsKing,
    /// It stays a man and goes on capturing; crowned only if the move ends on
    /// the last row (Brazilian, International).
    ContinuesAsMan,
}

/// Which captures survive among the legal ones, after the majority rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Priority {
    /// No further filter.
    None,
    /// Among the longest captures, those taking the most kings (Spanish).
    MostKings,
    /// The Italian order: king captures first, most kings, earliest king.
    Italian,
    /// If any king can capture, a king must capture (Czech).
    KingFirst,
}

/// The rules of one variant plus the table options.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The variant these rules are for.
    pub variant: Variant,
    /// Men may capture backwards.
    pub men_capture_backward: bool,
    /// Kings move and capture along whole diagonals.
    pub flying_kings: bool,
    /// Men may capture kings (false only in Italian).
    pub men_capture_kings: bool,
    /// The capture taking the most pieces is compulsory.
    pub majority: bool,
    /// Further priority among captures.
    pub priority: Priority,
    /// Crowning during a capture.
    pub capture_promotion: CapturePromotion,
    /// Table option: capturing is not compulsory (8x8 only).
    pub capture_optional: bool,
}

/// Error for an option the variant does not allow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RulesError {
    /// `capture_optional` was asked for International draughts.
    CaptureOptionalOn10x10,
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::CaptureOptionalOn10x10 => {
                f.write_str("capture_optional is only allowed on 8x8 variants")
            }
        }
    }
}

impl std::error::Error for RulesError {}

impl Rules {
    /// The standard rules of `variant` (capture compulsory).
    #[must_use]
    pub const fn new(variant: Variant) -> Rules {
        use CapturePromotion::{ContinuesAsKing, ContinuesAsMan, EndsMove};
        let (men_capture_backward, flying_kings, majority, priority, capture_promotion) =
            match variant {
                Variant::American => (false, false, false, Priority::None, EndsMove),
                Variant::Russian => (true, true, false, Priority::None, ContinuesAsKing),
                Variant::Brazilian => (true, true, true, Priority::None, ContinuesAsMan),
                Variant::Spanish => (false, true, true, Priority::MostKings, EndsMove),
                Variant::Italian => (false, false, true, Priority::Italian, EndsMove),
                Variant::Czech => (false, true, false, Priority::KingFirst, EndsMove),
                Variant::International => (true, true, true, Priority::None, ContinuesAsMan),
            };
        Rules {
            variant,
            men_capture_backward,
            flying_kings,
            men_capture_kings: !matches!(variant, Variant::Italian),
            majority,
            priority,
            capture_promotion,
            capture_optional: false,
        }
    }

    /// The rules of `variant` with the `capture_optional` table option.
    ///
    /// # Errors
    ///
    /// [`RulesError::CaptureOptionalOn10x10`] when asked for International.
    pub const fn with_capture_optional(
        variant: Variant,
        capture_optional: bool,
    ) -> Result<Rules, RulesError> {
        if capture_optional && variant.board_size() != 8 {
            return Err(RulesError::CaptureOptionalOn10x10);
        }
        let mut rules = Rules::new(variant);
        rules.capture_optional = capture_optional;
        Ok(rules)
    }

    /// The variant.
    #[must_use]
    pub const fn variant(&self) -> Variant {
        self.variant
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capture_optional_is_8x8_only() {
        assert!(Rules::with_capture_optional(Variant::International, true).is_err());
        assert!(Rules::with_capture_optional(Variant::International, false).is_ok());
        let r = Rules::with_capture_optional(Variant::Russian, true).expect("8x8");
        assert!(r.capture_optional);
    }

    #[test]
    fn table_matches_the_spec() {
        let it = Rules::new(Variant::Italian);
        assert!(!it.men_capture_kings && !it.flying_kings && it.majority);
        let am = Rules::new(Variant::American);
        assert!(!am.majority && !am.flying_kings && !am.men_capture_backward);
        let ru = Rules::new(Variant::Russian);
        assert_eq!(ru.capture_promotion, CapturePromotion::ContinuesAsKing);
        assert!(!ru.majority);
    }
}
