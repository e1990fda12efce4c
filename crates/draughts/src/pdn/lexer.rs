//! Splitting PDN text into game records: tags, move tokens and terminators.
//!
//! The lexer is deliberately forgiving, because real files are (see
//! `vectors/pdn/README.md`): it never fails, it only decides what each piece of text
//! is. Rules on top of PDN 3.0, each for a quirk seen in real files:
//! - the two characters `\r` (backslash, r) outside a string are whitespace;
//! - a word directly followed by a quoted string is a tag even without its `[`;
//! - `[` may be separated from the tag name by a line break, and a lone `[` before another
//!   `[` is dropped; a tag name may contain spaces (localized names), is trimmed;
//! - a tag without a value (`[Empty]`) is ignored;
//! - move numbers may be glued to the move (`1.33-29`) or zero-padded (`01.`);
//! - a separator followed by whitespace is joined with the next word (`1- 6`);
//! - `%` at the start of a line escapes the line; `;` comments run to the end of line;
//!   `{}` comments and `()` variations (nested, comments inside) are skipped, as are NAGs.

use super::scanner::{Item, Scanner};

/// One game as found in the text, before any move is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RawGame {
    /// Tag pairs in file order, names and values as written (unescaped and trimmed by
    /// [`super::tags`]).
    pub tags: Vec<(String, String)>,
    /// Move tokens in order, without move numbers and annotation marks.
    pub moves: Vec<String>,
    /// The game termination token (`1-0`, `2-0`, `*`, ...), if the movetext had one.
    pub terminator: Option<String>,
}

impl RawGame {
    fn is_empty(&self) -> bool {
        self.tags.is_empty() && self.moves.is_empty() && self.terminator.is_none()
    }

    /// True once the movetext has started: a tag now begins the next game.
    fn has_movetext(&self) -> bool {
        !self.moves.is_empty() || self.terminator.is_some()
    }
}

/// Result tokens that end a movetext wherever they appear.
pub const TERMINATORS: [&str; 9] = [
    "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*", "½-½",
];

/// Splits PDN text into game records. Never fails: text that is no tag, comment or known
/// token becomes a move token, for the replay to reject with its position.
pub fn split_games(text: &str) -> Vec<RawGame> {
    let mut scanner = Scanner::new(text);
    let mut games = Vec::new();
    let mut game = RawGame::default();
    let mut words: Vec<String> = Vec::new();
    while let Some(item) = scanner.next_item() {
        match item {
            Item::Tag(name, value) => {
                flush_words(&mut words, &mut game, &mut games);
                if game.has_movetext() {
                    games.push(std::mem::take(&mut game));
                }
                game.tags.push((name, value));
            }
            Item::Word(word) => {
                // A separator at the end of a word pads the next square (`1- 6`).
                match words.last_mut() {
                    Some(last) if ends_with_separator(last) && !is_terminator(last) => {
                        last.push_str(&word)
                    }
                    _ => words.push(word),
                }
            }
        }
    }
    flush_words(&mut words, &mut game, &mut games);
    if !game.is_empty() {
        games.push(game);
    }
    games
}

fn ends_with_separator(word: &str) -> bool {
    word.len() > 1 && word.ends_with(['-', 'x', 'X', ':'])
}

/// True for a token that always ends a movetext.
pub fn is_terminator(token: &str) -> bool {
    TERMINATORS.contains(&token)
}

/// Turns the words read since the last tag into move tokens and terminators.
fn flush_words(words: &mut Vec<String>, game: &mut RawGame, games: &mut Vec<RawGame>) {
    for word in words.drain(..) {
        let Some(token) = strip_move_number(&word) else {
            continue;
        };
        let token = token.trim_end_matches(['!', '?']);
        if token.is_empty() || token.chars().all(|c| c == '.') {
            continue;
        }
        if game.terminator.is_some() {
            // Movetext after a terminator with no tags in between: a game without tags.
            games.push(std::mem::take(game));
        }
        if is_terminator(token) {
            game.terminator = Some(token.to_owned());
        } else {
            game.moves.push(token.to_owned());
        }
    }
}

/// Removes a leading move number (`12.`, `12...`, `01.`); `None` if the word is only one.
fn strip_move_number(word: &str) -> Option<&str> {
    let digits = word.len() - word.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &word[digits..];
    if digits > 0 && rest.starts_with('.') {
        let rest = rest.trim_start_matches('.');
        (!rest.is_empty()).then_some(rest)
    } else {
        Some(word)
    }
}

#[cfg(test)]
mod tests {
    use super::split_games;

    #[test]
    fn tags_moves_and_terminator() {
        let games =
            split_games("[Event \"A\"]\n[Result \"2-0\"]\n1. 32-28 19-23 2. 28x19 14x23 2-0\n");
        assert_eq!(games.len(), 1);
        assert_eq!(
            games[0].tags,
            vec![
                ("Event".into(), "A".into()),
                ("Result".into(), "2-0".into())
            ]
        );
        assert_eq!(games[0].moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(games[0].terminator.as_deref(), Some("2-0"));
    }

    #[test]
    fn comments_variations_nags_and_numbers() {
        let text = "{intro} 1.33-29 {a (b} 18-23 (2. 29x18 (2... 12x23) {c)} ) 2... 01. 39-33! $3 ; x\n 12-18?!\n%no\n";
        let games = split_games(text);
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].moves, ["33-29", "18-23", "39-33", "12-18"]);
    }

    #[test]
    fn quirks_of_real_files() {
        let text = "[Event \"A\"]\\r\n[\nSite \"B\"]\n1. 1- 6 7- 1 *\\r\n\n[Empty]\nWhite \"C\"]\n1. 32-28 *\n1. 33-28 *";
        let games = split_games(text);
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].tags.len(), 2);
        assert_eq!(games[0].moves, ["1-6", "7-1"]);
        assert_eq!(games[1].tags, vec![("White".into(), "C".into())]);
        assert_eq!(games[2].tags, vec![]);
        assert_eq!(games[2].moves, ["33-28"]);
    }

    #[test]
    fn forfeit_and_tags_only_records() {
        let games = split_games("[A \"1\"]\n1. 0-2\n[B \"2\"]\n");
        assert_eq!(games.len(), 2);
        assert!(games[0].moves.is_empty());
        assert_eq!(games[0].terminator.as_deref(), Some("0-2"));
        assert_eq!(games[1].tags.len(), 1);
    }
}
