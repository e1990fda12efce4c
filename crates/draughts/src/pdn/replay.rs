//! Replaying a record's move tokens through the engine, with lookahead for ambiguous ones.

use super::error::MoveFault;
use super::resolve::candidates;
use crate::{Move, Position};

/// Most plies tried in lookahead for one game. Real ambiguities are resolved within a
/// few plies; the bound only stops a crafted record from making replay exponential.
const LOOKAHEAD_BUDGET: usize = 100_000;

/// Where and why replay stopped: the index of the faulty token and its fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop {
    /// Index of the token in the record's move list.
    pub index: usize,
    /// What is wrong with it.
    pub fault: MoveFault,
}

/// Plays every token from `start`. When a token matches several legal moves, each is
/// tried with the rest of the game and the first with which everything replays is kept;
/// if none does, the error is the one that got furthest.
pub fn replay(start: &Position, tokens: &[String]) -> Result<Vec<Move>, Stop> {
    let mut budget = LOOKAHEAD_BUDGET;
    replay_from(start.clone(), tokens, 0, &mut budget)
}

fn replay_from(
    mut position: Position,
    tokens: &[String],
    offset: usize,
    budget: &mut usize,
) -> Result<Vec<Move>, Stop> {
    let mut moves = Vec::with_capacity(tokens.len());
    for (i, token) in tokens.iter().enumerate() {
        let index = offset + i;
        let found = candidates(&position, token).map_err(|fault| Stop { index, fault })?;
        let chosen = match found.as_slice() {
            [] => {
                return Err(Stop {
                    index,
                    fault: MoveFault::Illegal,
                });
            }
            [only] => *only,
            _ => match lookahead(&position, &found, &tokens[i + 1..], index + 1, budget) {
                Ok((first, rest)) => {
                    moves.push(first);
                    moves.extend(rest);
                    return Ok(moves);
                }
                Err(stop) => return Err(stop),
            },
        };
        *budget = budget.saturating_sub(1);
        position.play_unchecked(&chosen);
        moves.push(chosen);
    }
    Ok(moves)
}

/// Tries each candidate with the rest of the game.
fn lookahead(
    position: &Position,
    found: &[Move],
    rest: &[String],
    offset: usize,
    budget: &mut usize,
) -> Result<(Move, Vec<Move>), Stop> {
    let mut furthest: Option<Stop> = None;
    for candidate in found {
        let mut next = position.clone();
        next.play_unchecked(candidate);
        match replay_from(next, rest, offset, budget) {
            Ok(moves) => return Ok((*candidate, moves)),
            Err(stop) => {
                if furthest.is_none_or(|f| stop.index > f.index) {
                    furthest = Some(stop);
                }
            }
        }
        if *budget == 0 {
            break;
        }
    }
    Err(furthest.unwrap_or(Stop {
        index: offset - 1,
        fault: MoveFault::Illegal,
    }))
}
