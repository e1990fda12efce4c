//! The opening book: for positions of the opening, the move a deep search of
//! our own engine chose (docs/engine.md, "Opening book").
//!
//! A book is a text file per variant (`crates/bot/books/<variant>.book`),
//! compiled in and read once per process: a header line `book VARIANT`, then
//! one line per position, `FEN<TAB>MOVE<TAB>SCORE<TAB>DEPTH` (the move in the
//! variant's notation, the score for the side to move in the evaluation's
//! unit, the depth of the search that chose it); `#` starts a comment. Every
//! position is one of the standard rules without kings, so a book move never
//! meets a repetition or a move limit.
//!
//! Level 3 and the Hub engine (so the match tool) play from it
//! ([`Engine::set_book`](crate::Engine::set_book)); analysis never does.

use draughts::{Move, Position, Rules, Variant};
use std::collections::HashMap;
use std::sync::OnceLock;

/// What the book says about a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Entry {
    /// The move to play.
    pub mv: Move,
    /// Its score for the side to move, in the evaluation's unit.
    pub score: i32,
    /// The depth of the search that chose it.
    pub depth: u32,
}

/// The positions of a variant's book and their moves.
#[derive(Debug, Clone, Default)]
pub struct Book {
    entries: HashMap<Position, Entry>,
}

impl Book {
    /// An empty book.
    #[must_use]
    pub fn new() -> Book {
        Book::default()
    }

    /// The number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the book has no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book's move for `pos`, if it has the position.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<&Entry> {
        self.entries.get(pos)
    }

    /// Every position and its entry, in no order.
    pub fn iter(&self) -> impl Iterator<Item = (&Position, &Entry)> {
        self.entries.iter()
    }

    /// Adds (or replaces) a position's move.
    ///
    /// # Errors
    ///
    /// When the move is not legal in the position, or the position has a king.
    pub fn insert(&mut self, pos: Position, entry: Entry) -> Result<(), String> {
        if !pos.kings().is_empty() {
            return Err(format!("{}: a book position has no king", pos.to_fen()));
        }
        if !pos.is_legal(&entry.mv) {
            return Err(format!(
                "{}: {} is not legal",
                pos.to_fen(),
                pos.move_to_string(&entry.mv)
            ));
        }
        self.entries.insert(pos, entry);
        Ok(())
    }

    /// Reads a book file of `variant` (the format in the module's docs).
    ///
    /// # Errors
    ///
    /// A wrong header, a bad line, an illegal move or a position with a king,
    /// with its line number.
    pub fn parse(variant: Variant, text: &str) -> Result<Book, String> {
        let rules = Rules::new(variant);
        let mut book = Book::new();
        let mut header = false;
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| format!("line {}: {why}: {line:?}", i + 1);
            if !header {
                if line != format!("book {}", variant.name()) {
                    return Err(bad(&format!("not a {} book header", variant.name())));
                }
                header = true;
                continue;
            }
            let parts: Vec<&str> = line.split('\t').collect();
            let [fen, mv, score, depth] = parts[..] else {
                return Err(bad("four tab-separated fields expected"));
            };
            let pos = Position::from_fen(rules, fen).map_err(|e| bad(&e.to_string()))?;
            let mv = pos.parse_move(mv).map_err(|e| bad(&e.to_string()))?;
            let score = score.parse().map_err(|_| bad("bad score"))?;
            let depth = depth.parse().map_err(|_| bad("bad depth"))?;
            book.insert(pos, Entry { mv, score, depth })
                .map_err(|e| bad(&e))?;
        }
        if !header {
            return Err("no header".into());
        }
        Ok(book)
    }

    /// The book file of `variant`, after `header` comment lines; the
    /// positions sorted by FEN, so the same book is the same file.
    #[must_use]
    pub fn format(&self, variant: Variant, header: &str) -> String {
        let mut s = String::new();
        for line in header.lines() {
            s.push_str("# ");
            s.push_str(line);
            s.push('\n');
        }
        s.push_str(&format!("book {}\n", variant.name()));
        let mut lines: Vec<String> = self
            .entries
            .iter()
            .map(|(pos, e)| {
                format!(
                    "{}\t{}\t{}\t{}\n",
                    pos.to_fen(),
                    pos.move_to_string(&e.mv),
                    e.score,
                    e.depth
                )
            })
            .collect();
        lines.sort();
        for l in lines {
            s.push_str(&l);
        }
        s
    }
}

/// The committed book file of `variant`.
fn committed_text(variant: Variant) -> &'static str {
    match variant {
        Variant::American => include_str!("../books/american.book"),
        Variant::Russian => include_str!("../books/russian.book"),
        Variant::Brazilian => include_str!("../books/brazilian.book"),
        Variant::Spanish => include_str!("../books/spanish.book"),
        Variant::Italian => include_str!("../books/italian.book"),
        Variant::Czech => include_str!("../books/czech.book"),
        Variant::International => include_str!("../books/international.book"),
    }
}

/// The committed book of `variant` (read once per process; every variant
/// has one).
///
/// # Panics
///
/// When a committed file is unreadable (the tests read every one).
#[must_use]
pub fn committed(variant: Variant) -> &'static Book {
    static BOOKS: [OnceLock<Book>; Variant::ALL.len()] =
        [const { OnceLock::new() }; Variant::ALL.len()];
    BOOKS[variant as usize].get_or_init(|| {
        Book::parse(variant, committed_text(variant))
            .unwrap_or_else(|e| panic!("crates/bot/books/{}.book: {e}", variant.name()))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::Game;

    #[test]
    fn every_committed_book_reads_and_its_moves_are_legal() {
        for v in Variant::ALL {
            let book = committed(v);
            assert!(!book.is_empty(), "{v:?}");
            // A game without a ballot begins in the book: the initial
            // position and every first move.
            let initial = Position::new(Rules::new(v));
            assert!(book.probe(&initial).is_some(), "{v:?}");
            for m in initial.legal_moves().iter() {
                let mut after = initial.clone();
                after.play_unchecked(m);
                assert!(book.probe(&after).is_some(), "{v:?} {}", after.to_fen());
            }
            for (pos, e) in book.iter() {
                assert_eq!(pos.variant(), v);
                assert!(pos.is_legal(&e.mv), "{}", pos.to_fen());
                assert!(pos.kings().is_empty());
                assert!(Game::new(pos.clone()).outcome().is_none());
            }
        }
    }

    #[test]
    fn level_three_and_an_engine_told_to_play_from_the_book_analysis_never() {
        use crate::{ClockLimits, Engine, Level, Limits, think};
        use std::sync::atomic::AtomicBool;
        let book = committed(Variant::American);
        let (pos, e) = book
            .iter()
            .min_by_key(|(p, _)| p.to_fen())
            .expect("not empty");
        let game = Game::new(pos.clone());
        let stop = AtomicBool::new(false);
        let clock = ClockLimits {
            remaining_ms: 60_000,
            increment_ms: 0,
        };
        let r = think(&game, Level::Three, clock, 1, &stop).expect("a move");
        assert_eq!(
            (r.mv, r.score, r.depth, r.nodes),
            (e.mv, e.score, e.depth, 0)
        );
        // The weaker levels search.
        let r = think(&game, Level::Two, clock, 1, &stop).expect("a move");
        assert!(r.nodes > 0);
        // An engine searches unless told to use the book, and analysis
        // (a forced search) always searches.
        let limits = Limits {
            depth: Some(4),
            ..Limits::default()
        };
        let mut engine = Engine::new(12);
        assert!(engine.search(&game, &limits, &stop).expect("a move").nodes > 0);
        engine.set_book(true);
        let r = engine.search(&game, &limits, &stop).expect("a move");
        assert_eq!((r.mv, r.nodes), (e.mv, 0));
        let analysis = Limits {
            search_forced: true,
            ..limits
        };
        assert!(
            engine
                .search(&game, &analysis, &stop)
                .expect("a move")
                .nodes
                > 0
        );
        // A position out of the book is searched.
        let mut out = Game::new(Position::new(Rules::new(Variant::American)));
        while book.probe(out.position()).is_some() || out.position().legal_moves().len() < 2 {
            let m = out.position().legal_moves()[0];
            out.play(&m).expect("legal");
        }
        assert!(engine.search(&out, &limits, &stop).expect("a move").nodes > 0);
    }

    #[test]
    fn a_book_round_trips_and_refuses_bad_lines() {
        let v = Variant::Russian;
        let start = Position::new(Rules::new(v));
        let mut book = Book::new();
        for m in start.legal_moves().iter().take(3) {
            let mut next = start.clone();
            next.play_unchecked(m);
            let reply = next.legal_moves()[0];
            book.insert(
                next,
                Entry {
                    mv: reply,
                    score: -12,
                    depth: 9,
                },
            )
            .expect("a legal move without kings");
        }
        let text = book.format(v, "a test\nof two lines");
        assert!(
            text.starts_with("# a test\n# of two lines\nbook russian\n"),
            "{text}"
        );
        let back = Book::parse(v, &text).expect("it reads back");
        assert_eq!(back.len(), 3);
        for (pos, e) in book.iter() {
            assert_eq!(back.probe(pos), Some(e));
        }
        assert_eq!(back.format(v, "a test\nof two lines"), text);

        // Another variant's header, a move that is not legal, a short line.
        assert!(Book::parse(Variant::Czech, &text).is_err());
        let fen = start.to_fen();
        let illegal = format!("book russian\n{fen}\ta3-a5\t0\t5\n");
        assert!(
            Book::parse(v, &illegal)
                .expect_err("illegal")
                .contains("line 2")
        );
        assert!(Book::parse(v, &format!("book russian\n{fen}\tc3-d4\t0\n")).is_err());
        assert!(Book::parse(v, "").is_err());
        // A position with a king is never a book position.
        let mut with_king = Book::new();
        let king = Position::from_fen(Rules::new(v), "W:WKc3:Bh8").expect("a FEN");
        let mv = king.legal_moves()[0];
        assert!(
            with_king
                .insert(
                    king,
                    Entry {
                        mv,
                        score: 0,
                        depth: 1
                    }
                )
                .is_err()
        );
    }
}
