//! What the server takes as text from people (chat messages, names), by Unicode
//! properties rather than lists: which characters are removed (invisible: controls,
//! format characters, private use, unassigned code points and the other default
//! ignorable ones), which break a line (they become spaces), which show nothing (a
//! message of nothing else is refused), and how many combining marks a letter may carry
//! (stacked marks, "Zalgo", spill over the lines around them).

use unicode_general_category::{GeneralCategory as Gc, get_general_category};

/// Whether `c` is removed from chat text and names: a control (other than the line
/// breaks, which become spaces), a format character (zero-width, joiners, bidirectional
/// controls, tags, interlinear annotation, musical format), private use, a surrogate, or
/// unassigned; or one of the default ignorable code points outside those categories
/// (variation selectors, fillers, the combining grapheme joiner).
pub fn invisible(c: char) -> bool {
    match get_general_category(c) {
        Gc::Control | Gc::Format | Gc::PrivateUse | Gc::Surrogate | Gc::Unassigned => true,
        _ => matches!(c,
            // Default_Ignorable_Code_Point characters that are not Cf (UCD DerivedCoreProperties).
            '\u{034F}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
            | '\u{180B}'..='\u{180F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'),
    }
}

/// Whether `c` breaks a line (a newline, tab, line or paragraph separator, next line):
/// chat is one line, so it becomes a space.
pub fn line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\t' | '\u{000B}' | '\u{000C}' | '\u{0085}')
        || matches!(
            get_general_category(c),
            Gc::LineSeparator | Gc::ParagraphSeparator
        )
}

/// Whether `c` shows nothing on its own: white space, the blank braille pattern, or an
/// invisible character.
pub fn blank(c: char) -> bool {
    c.is_whitespace() || c == '\u{2800}' || invisible(c)
}

/// Whether `c` is a combining mark (it is drawn on the character before it).
pub fn is_mark(c: char) -> bool {
    matches!(
        get_general_category(c),
        Gc::NonspacingMark | Gc::SpacingMark | Gc::EnclosingMark
    )
}

/// The most combining marks on one character of `s` (marks in a row).
pub fn most_marks(s: &str) -> usize {
    let (mut most, mut run) = (0, 0);
    for c in s.chars() {
        if is_mark(c) {
            run += 1;
            most = most.max(run);
        } else {
            run = 0;
        }
    }
    most
}

/// `s` with at most `max` combining marks on each character (the rest dropped).
pub fn limit_marks(s: &str, max: usize) -> String {
    let mut run = 0;
    s.chars()
        .filter(|&c| {
            if is_mark(c) {
                run += 1;
                run <= max
            } else {
                run = 0;
                true
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_by_category() {
        // Tags, interlinear annotation, musical format, bidirectional and zero-width
        // formatting, private use, unassigned, controls.
        for c in [
            '\u{E0001}',
            '\u{E0041}',
            '\u{FFF9}',
            '\u{FFFB}',
            '\u{1D173}',
            '\u{1D17A}',
            '\u{202E}',
            '\u{200B}',
            '\u{2060}',
            '\u{FEFF}',
            '\u{E000}',
            '\u{F0000}',
            '\u{0378}',
            '\u{0007}',
            '\u{3164}',
            '\u{FE0F}',
        ] {
            assert!(invisible(c), "{:04X}", c as u32);
        }
        for c in ['a', 'ż', 'Ж', '中', '😀', ' ', '\u{0301}', '\u{2800}'] {
            assert!(!invisible(c), "{:04X}", c as u32);
        }
        for c in ['\u{2028}', '\u{2029}', '\n', '\u{0085}'] {
            assert!(line_break(c), "{:04X}", c as u32);
        }
        assert!(blank('\u{2800}') && blank('\u{3000}') && !blank('x'));
    }

    #[test]
    fn marks_are_counted_and_limited() {
        let zalgo = format!("a{}b", "\u{0301}".repeat(290));
        assert_eq!(most_marks(&zalgo), 290);
        assert_eq!(limit_marks(&zalgo, 3), "a\u{0301}\u{0301}\u{0301}b");
        // Vietnamese: two marks on a letter (decomposed).
        assert_eq!(most_marks("e\u{0323}\u{0302}"), 2);
        assert_eq!(most_marks("Zażółć"), 0);
    }
}
