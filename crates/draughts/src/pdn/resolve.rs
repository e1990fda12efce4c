//! Matching one move token (`32-28`, `28x19`, `26x17x10x1`, `c3:e5`, `06-11`) against the
//! legal moves of a position.
//!
//! The engine's [`Position::moves_matching`] does the matching (any route of a move may be
//! written; the separator only breaks ties, since real records write `x` on quiet moves
//! and `-` on captures). On top of it the reader normalizes squares (zero padding, upper
//! case), tells placeholders from syntax errors, and also accepts the convention of
//! writing the captured pieces between the start and end squares.

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
    // Some programs write the captured pieces between the start and end squares.
    let variant = position.variant();
    let squares: Option<Vec<_>> = normalized
        .split(SEPARATORS)
        .map(|name| variant.parse_square(name))
        .collect();
    let Some(squares) = squares.filter(|s| s.len() > 2) else {
        return Ok(Vec::new());
    };
    let (from, to, inner) = (
        squares[0],
        squares[squares.len() - 1],
        &squares[1..squares.len() - 1],
    );
    Ok(position
        .legal_moves()
        .iter()
        .filter(|m| m.from() == from && m.to() == to)
        .filter(|m| inner.iter().all(|&sq| m.captures().contains(sq)))
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
