//! Move text: parsing (syntax, then legality) and writing.
//!
//! Input accepts the full path (`28x19x10`, `c3:e5:c7`), a partial path,
//! and the short form `from x to` when it identifies exactly one legal move.
//! Real PDN files write captures with `-` and simple moves with `x`, so the
//! separator only breaks ties.

use crate::{Move, MoveList, Position, Square};
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
fn is_subsequence(inner: &[Square], route: &[Square]) -> bool {
    let mut it = route.iter();
    inner.iter().all(|s| it.any(|r| r == s))
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
        let sq = &parsed.squares;
        let (from, to) = (sq[0], sq[sq.len() - 1]);
        let inner = &sq[1..sq.len() - 1];
        let legal = self.legal_moves();
        let mut out = MoveList::new();
        if inner.is_empty() {
            for m in legal.iter().filter(|m| m.from() == from && m.to() == to) {
                out.push(*m);
            }
        } else {
            // Any route of a legal move may be written, not just the one
            // the generator kept.
            let routes = self.capture_routes_to(from, to);
            for route in routes.iter() {
                let path: Vec<Square> = route.path().collect();
                let exact = path.len() == sq.len() - 1 && path[..path.len() - 1] == *inner;
                if !exact && !is_subsequence(inner, &path[..path.len() - 1]) {
                    continue;
                }
                let Some(m) = legal.iter().find(|m| *m == route) else {
                    continue;
                };
                let mut m = *m;
                if exact {
                    m.set_route(route);
                }
                match out.iter().position(|o| *o == m) {
                    Some(i) if exact => out.as_mut_slice()[i] = m,
                    Some(_) => {}
                    None => out.push(m),
                }
            }
        }
        if out.len() > 1 {
            let captures = out.iter().filter(|m| m.is_capture()).count();
            match parsed.separators {
                Separators::Capture if captures > 0 => out.retain(Move::is_capture),
                Separators::Dash if captures < out.len() => out.retain(|m| !m.is_capture()),
                _ => {}
            }
        }
        Ok(out)
    }

    /// Parses move text and resolves it against the legal moves.
    ///
    /// # Errors
    ///
    /// [`MoveError::Syntax`], then [`MoveError::Illegal`] when no legal move
    /// matches and [`MoveError::Ambiguous`] when several do.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let matching = self.moves_matching(text)?;
        match matching.len() {
            0 => Err(MoveError::Illegal),
            1 => Ok(matching[0]),
            _ => Err(MoveError::Ambiguous),
        }
    }

    /// The move's full path in the variant's notation: `-` for a simple move,
    /// `x` between the landing squares of a capture.
    #[must_use]
    pub fn move_to_string(&self, m: &Move) -> String {
        let variant = self.variant();
        let sep = if m.is_capture() { 'x' } else { '-' };
        let mut s = variant.square_name(m.from());
        for sq in m.path() {
            s.push(sep);
            s.push_str(&variant.square_name(sq));
        }
        s
    }
}
