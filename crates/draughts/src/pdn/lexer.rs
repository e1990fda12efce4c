//! Splitting PDN text into game records: tags, move tokens and terminators.
//!
//! The lexer is deliberately forgiving, because real files are (see
//! `shared/vectors/pdn/README.md`): it never fails, it only decides what each piece of text
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
    let mut scanner = Scanner {
        chars: text.chars().collect(),
        pos: 0,
    };
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

enum Item {
    Tag(String, String),
    Word(String),
}

struct Scanner {
    chars: Vec<char>,
    pos: usize,
}

impl Scanner {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    /// True at a literal `\r` or `\n` (two characters), which Dambo exports leave in files.
    fn at_escaped_newline(&self) -> bool {
        self.peek() == Some('\\') && matches!(self.peek_at(1), Some('r' | 'n'))
    }

    fn at_line_start(&self) -> bool {
        self.pos == 0 || matches!(self.chars.get(self.pos - 1), Some('\n' | '\r'))
    }

    fn skip_whitespace(&mut self) {
        loop {
            match self.peek() {
                Some(c) if c.is_whitespace() || c == '\u{feff}' => self.pos += 1,
                Some('\\') if self.at_escaped_newline() => self.pos += 2,
                _ => return,
            }
        }
    }

    /// Skips to just after the next `end` (or to the end of the text).
    fn skip_past(&mut self, end: char) {
        while let Some(c) = self.peek() {
            self.pos += 1;
            if c == end {
                return;
            }
        }
    }

    /// Skips a variation, `(` already consumed, with nested variations and comments.
    fn skip_variation(&mut self) {
        let mut depth = 1;
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return;
                    }
                }
                '{' => self.skip_past('}'),
                ';' => self.skip_past('\n'),
                _ => {}
            }
        }
    }

    fn next_item(&mut self) -> Option<Item> {
        loop {
            self.skip_whitespace();
            let c = self.peek()?;
            match c {
                '%' if self.at_line_start() => self.skip_past('\n'),
                '{' => self.skip_past('}'),
                ';' => self.skip_past('\n'),
                '(' => {
                    self.pos += 1;
                    self.skip_variation();
                }
                ')' | ']' | '}' => self.pos += 1,
                '$' => {
                    self.pos += 1;
                    while self.peek().is_some_and(|c| c.is_ascii_digit()) {
                        self.pos += 1;
                    }
                }
                '[' => {
                    self.pos += 1;
                    if let Some(tag) = self.tag_after_bracket() {
                        return Some(tag);
                    }
                }
                '"' => {
                    // A stray string: skip it whole so its words are not read as moves.
                    self.pos += 1;
                    self.read_string();
                }
                _ => return Some(self.word_or_bracketless_tag()),
            }
        }
    }

    /// Reads `Name "value"]` after a `[`; `None` for a valueless tag or junk, which is
    /// skipped up to the end of the line or the next `[`.
    fn tag_after_bracket(&mut self) -> Option<Item> {
        self.skip_whitespace();
        let start = self.pos;
        while let Some(c) = self.peek() {
            match c {
                '"' => {
                    let name: String = self.chars[start..self.pos].iter().collect();
                    self.pos += 1;
                    let value = self.read_string();
                    self.skip_to_tag_end();
                    return Some(Item::Tag(name.trim().to_owned(), value));
                }
                ']' => {
                    self.pos += 1;
                    return None;
                }
                '[' | '\n' | '{' => return None,
                _ => self.pos += 1,
            }
        }
        None
    }

    /// After a tag value: skips to the closing `]` if it is on the same line.
    fn skip_to_tag_end(&mut self) {
        let mut probe = self.pos;
        while let Some(&c) = self.chars.get(probe) {
            match c {
                ']' => {
                    self.pos = probe + 1;
                    return;
                }
                '\n' | '[' | '{' => return,
                _ => probe += 1,
            }
        }
    }

    /// Reads a string body, `"` already consumed, with `\"` and `\\` escapes.
    fn read_string(&mut self) -> String {
        let mut value = String::new();
        while let Some(c) = self.peek() {
            self.pos += 1;
            match c {
                '"' => break,
                '\\' if matches!(self.peek(), Some('"' | '\\')) => {
                    value.extend(self.peek());
                    self.pos += 1;
                }
                _ => value.push(c),
            }
        }
        value
    }

    fn word_or_bracketless_tag(&mut self) -> Item {
        let start = self.pos;
        while let Some(c) = self.peek() {
            if c.is_whitespace() || "{}()[];\"$".contains(c) || self.at_escaped_newline() {
                break;
            }
            self.pos += 1;
        }
        if self.pos == start {
            // Cannot happen (next_item handles those characters), but never loop forever.
            self.pos += 1;
        }
        let word: String = self.chars[start..self.pos].iter().collect();
        if word.starts_with(|c: char| c.is_alphabetic()) && word.chars().all(char::is_alphanumeric)
        {
            // A tag line that lost its `[`: `Event "..."]`.
            let mut probe = self.pos;
            while self
                .chars
                .get(probe)
                .is_some_and(|&c| c == ' ' || c == '\t')
            {
                probe += 1;
            }
            if self.chars.get(probe) == Some(&'"') {
                self.pos = probe + 1;
                let value = self.read_string();
                self.skip_to_tag_end();
                return Item::Tag(word, value);
            }
        }
        Item::Word(word)
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
