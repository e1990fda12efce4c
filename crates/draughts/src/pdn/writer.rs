//! Writing a game as PDN 3.0 text.

use super::game::PdnGame;
use super::numbering::number_of;
use crate::{Move, Position, Rules, Variant};

/// Movetext lines are wrapped before this many characters.
const LINE_WIDTH: usize = 80;

/// Tags the writer derives from the game itself, never copied from [`PdnGame::tags`].
const DERIVED: [&str; 4] = ["Result", "GameType", "FEN", "SetUp"];

/// The seven-tag roster order (PDN/PGN); other tags follow in the game's order.
const ROSTER: [&str; 6] = ["Event", "Site", "Date", "Round", "White", "Black"];

/// Writes one game as PDN: tags (the roster with `?` for unknown values, `Result`, the full
/// `GameType`, the game's other tags, `SetUp "1"` and `FEN` when the start is not the
/// standard one), a blank line, the numbered moves in the variant's notation wrapped at 80
/// columns, and the result token. Ends with a blank line so games can be concatenated.
///
/// # Panics
///
/// Never for moves that are legal in sequence from `game.start` (as the reader returns
/// them); a move that is not legal is written by its squares anyway.
pub fn write(game: &PdnGame) -> String {
    write_annotated(game, &[])
}

/// What an annotated game adds after one move: a suffix (`!`, `?`, `!?`, `?!`, `??`...)
/// and a `{...}` comment.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Written right after the move (the reader skips it).
    pub suffix: Option<String>,
    /// Written as `{text}` after the move (braces in it are dropped).
    pub comment: Option<String>,
}

/// [`write()`] with an annotation after each move: `notes[i]` goes with ply `i + 1` (missing
/// ones are none). A second mover's move after a comment is numbered again (`12...`).
/// [`super::read`] reads the game back as [`write()`] wrote it.
pub fn write_annotated(game: &PdnGame, notes: &[Annotation]) -> String {
    let variant = game.variant();
    let mut out = String::new();
    for name in ROSTER {
        let value = game.tag(name).unwrap_or("?");
        push_tag(&mut out, name, value);
    }
    push_tag(&mut out, "Result", game.result.token(variant));
    push_tag(&mut out, "GameType", variant.game_type());
    for (name, value) in &game.tags {
        if !ROSTER.contains(&name.as_str()) && !DERIVED.contains(&name.as_str()) {
            push_tag(&mut out, name, value);
        }
    }
    // Compared as FEN: a table option (optional capture) does not make the start non-standard.
    let fen = game.start.to_fen();
    if fen != Position::new(Rules::new(variant)).to_fen() {
        push_tag(&mut out, "SetUp", "1");
        push_tag(&mut out, "FEN", &fen);
    }
    out.push('\n');
    let mut words = movetext_words(game, notes);
    words.push(game.result.token(variant).to_owned());
    wrap(&mut out, &words);
    out.push('\n');
    out
}

/// Writes several games, one after the other.
pub fn write_all<'a>(games: impl IntoIterator<Item = &'a PdnGame>) -> String {
    games.into_iter().map(write).collect()
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    // Tag names cannot hold spaces or brackets; a name from elsewhere is kept readable.
    let name: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    out.push_str(&format!("[{name} \"{escaped}\"]\n"));
}

/// The movetext as units that are never split over two lines: a move with its number
/// (`12. 32-28`) or a move alone (the second mover's, after the first ply).
fn movetext_words(game: &PdnGame, notes: &[Annotation]) -> Vec<String> {
    let mut words = Vec::with_capacity(game.moves.len() + 1);
    let mut position = game.start.clone();
    let mut after_comment = false;
    for (i, m) in game.moves.iter().enumerate() {
        let ply = i + 1;
        let (number, first_mover) = number_of(&game.start, ply);
        let mut text = move_text(&position, m);
        let note = notes.get(i);
        if let Some(suffix) = note.and_then(|n| n.suffix.as_deref()) {
            text.push_str(suffix);
        }
        words.push(if first_mover {
            format!("{number}. {text}")
        } else if ply == 1 || after_comment {
            format!("{number}... {text}")
        } else {
            text
        });
        after_comment = false;
        if let Some(comment) = note.and_then(|n| n.comment.as_deref()) {
            let clean: String = comment.chars().filter(|&c| c != '}' && c != '{').collect();
            words.push(format!("{{{clean}}}"));
            after_comment = true;
        }
        position.play_unchecked(m);
    }
    words
}

/// A move in the variant's PDN notation: `from-to` for a simple move; a capture as
/// `from x to` (`:` in Russian), or its full path when another legal move has the same
/// start and end squares.
pub fn move_text(position: &Position, m: &Move) -> String {
    let variant = position.variant();
    let name = |sq| variant.square_name(sq);
    if !m.is_capture() {
        return format!("{}-{}", name(m.from()), name(m.to()));
    }
    let separator = if variant == Variant::Russian {
        ":"
    } else {
        "x"
    };
    let ambiguous = position
        .legal_moves()
        .iter()
        .any(|other| other != m && other.from() == m.from() && other.to() == m.to());
    let mut text = name(m.from());
    if ambiguous {
        for sq in m.path() {
            text.push_str(separator);
            text.push_str(&name(sq));
        }
    } else {
        text.push_str(separator);
        text.push_str(&name(m.to()));
    }
    text
}

/// Appends words separated by spaces, breaking lines before `LINE_WIDTH`.
fn wrap(out: &mut String, words: &[String]) {
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() >= LINE_WIDTH {
            out.push('\n');
            line_len = 0;
        }
        if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(word);
        line_len += word.len();
    }
    out.push('\n');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn annotations_are_read_back_as_the_same_game() {
        let text = "[GameType \"20\"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 *\n";
        let game = super::super::read(text, None).remove(0).expect("legal");
        let notes = vec![
            Annotation::default(),
            Annotation {
                suffix: Some("?".into()),
                comment: Some("-0.45 {best} 20-24".into()),
            },
            Annotation {
                suffix: Some("??".into()),
                comment: None,
            },
            Annotation {
                suffix: Some("?!".into()),
                comment: Some("+1.00".into()),
            },
        ];
        let written = write_annotated(&game, &notes);
        assert!(
            written.contains(
                "1. 32-28 19-23? {-0.45 best 20-24} 2. 28x19?? 14x23?! {+1.00} 3. 37-32 10-14 *"
            ),
            "{written}"
        );
        let back = super::super::read(&written, None)
            .remove(0)
            .expect("reads back");
        assert_eq!(back.moves, game.moves);
        assert_eq!(write(&back), write(&game));
    }
}
