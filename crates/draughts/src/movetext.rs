//! Move text: parsing (syntax, then legality) and writing.
//!
//! Input accepts the full path (`28x19x10`, `c3:e5:c7`), a partial path,
//! and the short form `from x to` when it identifies exactly one legal move.
//! Real PDN files write captures with `-` and simple moves with `x`, so the
//! separator only breaks ties.

use crate::{Move, MoveList, Position, Square, notation};
use std::fmt;

/// Why move text was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoveError {
    /// Not move syntax: squares of the variant separated by `-`, `x` or `:`.
    Syntax,
    /// No legal move matches.
    Illegal,
    /// Several legal moves match; a fuller path is needed.
    Ambiguous,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            MoveError::Syntax => "invalid move syntax",
            MoveError::Illegal => "illegal move",
            MoveError::Ambiguous => "ambiguous move",
        })
    }
}

impl std::error::Error for MoveError {}

/// Which separators the text used.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Separators {
    Dash,
    Capture,
    Mixed,
}

/// Move text split into squares.
struct Parsed {
    squares: Vec<Square>,
    separators: Separators,
}

fn parse(pos: &Position, text: &str) -> Result<Parsed, MoveError> {
    let text = text.trim().trim_end_matches(['!', '?', '*', '+']);
    let variant = pos.variant();
    let mut squares = Vec::with_capacity(4);
    let (mut dash, mut cross) = (false, false);
    for token in text.split(|c: char| {
        let sep = matches!(c, '-' | 'x' | 'X' | ':');
        dash |= c == '-';
        cross |= sep && c != '-';
        sep
    }) {
        squares.push(variant.parse_square(token).ok_or(MoveError::Syntax)?);
    }
    if squares.len() < 2 {
        return Err(MoveError::Syntax);
    }
    let separators = match (dash, cross) {
        (true, false) => Separators::Dash,
        (false, true) => Separators::Capture,
        _ => Separators::Mixed,
    };
    Ok(Parsed {
        squares,
        separators,
    })
}

/// Whether `inner` appears in `route` in order (not necessarily adjacent).
fn is_subsequence(inner: &[Square], mut route: impl Iterator<Item = Square>) -> bool {
    inner.iter().all(|&s| route.any(|r| r == s))
}

/// How well a legal move fits the squares written between its start and end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Fit {
    Miss,
    /// One of its routes passes through them in order.
    Through,
    /// One of its routes lands on exactly them.
    Exact,
}

impl Position {
    /// Every legal move that `text` can mean: the PDN reader uses this to
    /// look ahead when a short capture is ambiguous.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`] when `text` is not move syntax. An empty list
    /// means no legal move matches.
    pub fn moves_matching(&self, text: &str) -> Result<MoveList, MoveError> {
        let parsed = parse(self, text)?;
        let mut list = self.legal_moves();
        self.keep_matching(&parsed, &mut list);
        Ok(list)
    }

    /// Parses move text and resolves it against the legal moves.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`], then [`MoveError::Illegal`] when no legal move
    /// matches and [`MoveError::Ambiguous`] when several do.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = parse(self, text)?;
        if let [from, to] = parsed.squares[..]
            && self.only_simple_moves()
        {
            // Most moves of a game: one from-to pair is at most one simple
            // move, found without a move list.
            return self
                .find_legal(&Move::simple(from, to, false))
                .ok_or(MoveError::Illegal);
        }
        let mut list = self.legal_moves();
        self.keep_matching(&parsed, &mut list);
        match list[..] {
            [] => Err(MoveError::Illegal),
            [m] => Ok(m),
            // A text that is one move's route in full (what `move_to_string` writes for
            // it, so what a client echoing the legal moves sends) is that move, even when
            // a longer route joins the same squares (a one-jump capture and a circular
            // one that ends where it does).
            _ => list
                .iter()
                .find(|m| m.path().eq(parsed.squares[1..].iter().copied()))
                .copied()
                .ok_or(MoveError::Ambiguous),
        }
    }

    /// Keeps the moves of `list` (the legal moves) that `parsed` can mean.
    fn keep_matching(&self, parsed: &Parsed, list: &mut MoveList) {
        let sq = &parsed.squares;
        let (from, to) = (sq[0], sq[sq.len() - 1]);
        let inner = &sq[1..sq.len() - 1];
        if inner.is_empty() {
            list.retain(|m| m.from() == from && m.to() == to);
        } else if let Some(&kept) = list
            .iter()
            .find(|m| m.from() == from && m.path().eq(sq[1..].iter().copied()))
        {
            // The route the generator kept, written in full (what
            // `move_to_string` writes): the landing squares fix the captured
            // pieces, so no other move has this route and the other routes
            // need not be generated.
            list.retain(|m| *m == kept);
        } else {
            self.keep_routes_through(list, from, to, inner);
        }
        if list.len() > 1 {
            let captures = list.iter().filter(|m| m.is_capture()).count();
            match parsed.separators {
                Separators::Capture if captures > 0 => list.retain(Move::is_capture),
                Separators::Dash if captures < list.len() => list.retain(|m| !m.is_capture()),
                _ => {}
            }
        }
    }

    /// Keeps the moves of `list` from `from` to `to` with a route through
    /// `inner`. Any route of a legal move may be written, not just the one
    /// the generator kept (a kept move takes the route written); a route
    /// written in full beats routes that merely pass through the squares.
    fn keep_routes_through(&self, list: &mut MoveList, from: Square, to: Square, inner: &[Square]) {
        let mut routes = MoveList::new();
        self.capture_routes_to(from, to, &mut routes);
        let moves = list.as_mut_slice();
        let mut fit = vec![Fit::Miss; moves.len()];
        for route in routes.iter() {
            let before_end = route.path().len() - 1;
            let landings = || route.path().take(before_end);
            let exact = before_end == inner.len() && landings().eq(inner.iter().copied());
            if !exact && !is_subsequence(inner, landings()) {
                continue;
            }
            let Some(i) = moves.iter().position(|m| m == route) else {
                continue;
            };
            if exact && fit[i] != Fit::Exact {
                moves[i].set_route(route);
                fit[i] = Fit::Exact;
            } else if fit[i] == Fit::Miss {
                fit[i] = Fit::Through;
            }
        }
        let best = fit.iter().copied().max().unwrap_or(Fit::Miss);
        let mut fits = fit.into_iter();
        list.retain(|_| best != Fit::Miss && fits.next() == Some(best));
    }

    /// The move's full path in the variant's notation: `-` for a simple move,
    /// `x` between the landing squares of a capture.
    #[must_use]
    pub fn move_to_string(&self, m: &Move) -> String {
        let variant = self.variant();
        let sep = if m.is_capture() { 'x' } else { '-' };
        let mut s = String::with_capacity(3 * (m.path().len() + 1));
        notation::push_square_name(variant, m.from(), &mut s);
        for sq in m.path() {
            s.push(sep);
            notation::push_square_name(variant, sq, &mut s);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};

    fn pos(variant: Variant, fen: &str) -> Position {
        Position::from_fen(Rules::new(variant), fen).expect("valid FEN")
    }

    #[test]
    fn simple_moves_any_separator() {
        let p = Position::new(Rules::new(Variant::International));
        let m = p.parse_move("32-28").expect("legal");
        assert_eq!(p.move_to_string(&m), "32-28");
        assert_eq!(
            p.parse_move("32x28"),
            Ok(m),
            "PDN files write x for simple moves"
        );
        assert_eq!(p.parse_move("32-26"), Err(MoveError::Illegal));
        assert_eq!(p.parse_move("32-28-23"), Err(MoveError::Illegal));
        for bad in ["", "32", "32-", "-28", "a1-b2", "32--28", "32-99"] {
            assert_eq!(p.parse_move(bad), Err(MoveError::Syntax), "{bad:?}");
        }
    }

    #[test]
    fn short_form_must_identify_one_move() {
        // Two routes from e1 to e5 taking different pieces (Czech men only
        // capture forwards, so neither goes on from e5).
        let p = pos(Variant::Czech, "W:We1:Bd2,d4,f2,f4");
        assert_eq!(p.legal_moves().len(), 2);
        assert_eq!(p.parse_move("e1xe5"), Err(MoveError::Ambiguous));
        assert_eq!(p.moves_matching("e1:e5").map(|l| l.len()), Ok(2));
        let left = p.parse_move("e1xc3xe5").expect("full path");
        assert_eq!(p.move_to_string(&left), "e1xc3xe5");
        assert!(
            left.captures()
                .contains(Variant::Czech.parse_square("d4").expect("square"))
        );
        let right = p.parse_move("e1:g3:e5").expect("colon separator");
        assert_ne!(left, right);
        assert_eq!(
            p.parse_move("e1-c3-e5"),
            Ok(left),
            "captures written with -"
        );
        assert_eq!(
            p.parse_move("e1xc3"),
            Err(MoveError::Illegal),
            "a capture must be completed"
        );
    }

    #[test]
    fn a_full_route_beats_routes_through_the_same_squares() {
        // c3xe5xg7 takes two; c3xa5xc7xe5xg7 also passes e5 and ends on g7.
        let p = pos(
            Variant::Russian,
            "W:Wa1,e1,g1,b2,d2,f2,h2,c3,h4,c5,a7:Bb4,d4,g5,b6,d6,f6,e7,b8,d8,h8",
        );
        let m = p.parse_move("c3xe5xg7").expect("exact route");
        assert_eq!(m.captures().count(), 2);
        assert_eq!(p.parse_move("c3xg7"), Err(MoveError::Ambiguous));
    }

    #[test]
    fn a_one_jump_written_in_full_is_not_the_circular_capture_to_the_same_square() {
        // The king takes c7 landing on b8, or goes round the four others first and
        // still takes c7 last: both from d6 to b8 (Russian has no majority rule).
        let p = pos(Variant::Russian, "W:WKd6:Bc7,e5,g5,g7,e7");
        let texts: Vec<String> = p
            .legal_moves()
            .iter()
            .map(|m| p.move_to_string(m))
            .collect();
        assert_eq!(texts.len(), 2, "{texts:?}");
        assert!(texts.contains(&"d6xb8".to_owned()), "{texts:?}");
        // Every legal move's own text plays that move (a client echoing the list).
        for text in &texts {
            let m = p.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(&p.move_to_string(&m), text);
        }
        assert_eq!(p.parse_move("d6xb8").map(|m| m.captures().count()), Ok(1));
    }

    #[test]
    fn capture_routes_past_the_list_capacity_are_all_kept() {
        // Found by a hill-climbing search: a flying king among 20 pieces has
        // 363 distinct routes from 27 to 1 (most of them take fewer than the
        // most pieces, so majority rules them out). A list that dropped
        // moves past its capacity kept 256 of them.
        let p = pos(
            Variant::International,
            "W:WK27:BK6,K7,8,K10,11,K13,14,17,K23,24,28,K30,31,K32,K35,41,42,K43,K44,45",
        );
        let legal = p.legal_moves();
        assert_eq!(legal.len(), 1, "one capture of 16 pieces");
        let mut routes = MoveList::new();
        p.capture_routes_to(legal[0].from(), legal[0].to(), &mut routes);
        assert!(routes.is_spilled());
        let texts: std::collections::HashSet<String> =
            routes.iter().map(|r| p.move_to_string(r)).collect();
        assert_eq!(texts.len(), 363, "every route, each once");
        assert_eq!(routes.len(), 363);
        for route in routes.iter().filter(|r| legal.contains(r)) {
            let text = p.move_to_string(route);
            let m = p
                .parse_move(&text)
                .unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(p.move_to_string(&m), text, "the route written is kept");
        }
    }

    #[test]
    fn errors_have_fixed_messages() {
        assert_eq!(MoveError::Syntax.to_string(), "invalid move syntax");
        assert_eq!(MoveError::Illegal.to_string(), "illegal move");
        assert_eq!(MoveError::Ambiguous.to_string(), "ambiguous move");
    }
}
