//! Matching one move token (`32-28`, `28x19`, `26x17x10x1`, `c3:e5`, `06-11`) against the
//! legal moves of a position.
//!
//! The engine's [`Position::moves_matching`] does the matching (any route of a move may be
//! written; the separator only breaks ties, since real records write `x` on quiet moves
//! and `-` on captures). On top of it the reader normalizes squares (zero padding, upper
//! case), tells placeholders from syntax errors, and falls back to the start and end
//! squares alone when the squares in between match no route (a record written with
//! another convention, e.g. captured squares).

use super::error::MoveFault;
use crate::{Move, Position};

const SEPARATORS: [char; 4] = ['-', 'x', 'X', ':'];

/// The legal moves a token can stand for (several only when the record is ambiguous,
/// none when it is illegal).
///
/// # Errors
///
/// [`MoveFault::Unknown`] for a placeholder (`-`, `--`), [`MoveFault::Syntax`] when the
/// token is not squares of the variant joined by separators.
pub fn candidates(position: &Position, token: &str) -> Result<Vec<Move>, MoveFault> {
    if token.chars().all(|c| matches!(c, '-' | '.')) {
        return Err(MoveFault::Unknown);
    }
    let normalized = normalize(token).ok_or(MoveFault::Syntax)?;
    let found = position
        .moves_matching(&normalized)
        .map_err(|_| MoveFault::Syntax)?;
    if !found.is_empty() {
        return Ok(found.iter().copied().collect());
    }
    let squares: Vec<&str> = normalized.split(SEPARATORS).collect();
    let (Some(from), Some(to)) = (squares.first(), squares.last()) else {
        return Ok(Vec::new());
    };
    if squares.len() <= 2 {
        return Ok(Vec::new());
    }
    let variant = position.variant();
    let (from, to) = (variant.parse_square(from), variant.parse_square(to));
    Ok(position
        .legal_moves()
        .iter()
        .filter(|m| Some(m.from()) == from && Some(m.to()) == to)
        .copied()
        .collect())
}

/// The token with each square in the variant's canonical spelling (`06` → `6`,
/// `C3` → `c3`) and its separators kept; `None` if a part is empty or too long.
fn normalize(token: &str) -> Option<String> {
    let mut out = String::with_capacity(token.len());
    let mut rest = token;
    loop {
        let end = rest.find(SEPARATORS).unwrap_or(rest.len());
        let part = &rest[..end];
        if part.is_empty() || part.len() > 4 {
            return None;
        }
        if part.chars().all(|c| c.is_ascii_digit()) {
            let n: u32 = part.parse().ok()?;
            out.push_str(&n.to_string());
        } else {
            out.push_str(&part.to_ascii_lowercase());
        }
        let mut chars = rest[end..].chars();
        match chars.next() {
            None => break,
            Some(separator) => {
                out.push(separator);
                rest = chars.as_str();
            }
        }
    }
    Some(out)
}
