//! The character level of the PDN lexer: tags, comments, variations, NAGs and words.
//!
//! [`Scanner::next_item`] returns the next tag or word and skips everything else; the
//! quirks it tolerates are listed in [`super::lexer`].

/// What the scanner found.
pub enum Item {
    /// A tag pair: name and value as written.
    Tag(String, String),
    /// A word of movetext (move, move number, result, or junk for the replay to reject).
    Word(String),
}

/// A cursor over the text's characters.
pub struct Scanner {
    chars: Vec<char>,
    pos: usize,
}

impl Scanner {
    /// A scanner at the start of `text`.
    pub fn new(text: &str) -> Scanner {
        Scanner {
            chars: text.chars().collect(),
            pos: 0,
        }
    }

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

    /// The next tag or word; `None` at the end of the text.
    pub fn next_item(&mut self) -> Option<Item> {
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
