//! Replaying a record's move tokens through the engine, with lookahead for ambiguous ones.
//!
//! When a token matches several legal moves (a short capture in a record that should have
//! written the full path), each candidate is tried with the rest of the game and the first
//! with which everything replays is kept. This is a depth-first search over the ambiguous
//! tokens, written with an explicit stack of choice points so that a record with thousands
//! of ambiguous tokens cannot overflow the call stack, and bounded by a ply budget so a
//! crafted record cannot make it exponential.

use super::error::MoveFault;
use super::resolve::candidates;
use crate::{Move, Position};

/// Most plies played in one game's replay, backtracking included. Real ambiguities are
/// settled within a few plies; the bound only stops crafted records.
const PLY_BUDGET: usize = 200_000;

/// Where and why replay stopped: the index of the faulty token and its fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stop {
    /// Index of the token in the record's move list.
    pub index: usize,
    /// What is wrong with it.
    pub fault: MoveFault,
}

/// A token that matched several moves: the position before it and the candidates left.
struct Choice {
    index: usize,
    position: Position,
    candidates: Vec<Move>,
    next: usize,
}

/// Plays every token from `start`, resolving ambiguous tokens by lookahead. On failure
/// the error is the one that got furthest into the game over all the candidates tried.
pub fn replay(start: &Position, tokens: &[String]) -> Result<Vec<Move>, Stop> {
    let mut budget = PLY_BUDGET;
    let mut choices: Vec<Choice> = Vec::new();
    let mut moves: Vec<Move> = Vec::with_capacity(tokens.len());
    let mut position = start.clone();
    let mut furthest: Option<Stop> = None;
    let mut index = 0;
    loop {
        let Some(token) = tokens.get(index) else {
            return Ok(moves);
        };
        let stop = match candidates(&position, token) {
            Err(fault) => Stop { index, fault },
            Ok(found) if found.is_empty() => Stop {
                index,
                fault: MoveFault::Illegal,
            },
            Ok(found) => {
                let first = found[0];
                if found.len() > 1 {
                    choices.push(Choice {
                        index,
                        position: position.clone(),
                        candidates: found,
                        next: 1,
                    });
                }
                position.play_unchecked(&first);
                moves.push(first);
                index += 1;
                budget = budget.saturating_sub(1);
                continue;
            }
        };
        if furthest.is_none_or(|f| stop.index > f.index) {
            furthest = Some(stop);
        }
        // Backtrack to the latest choice with a candidate left.
        loop {
            let Some(choice) = choices.last_mut().filter(|_| budget > 0) else {
                return Err(furthest.unwrap_or(stop));
            };
            if choice.next == choice.candidates.len() {
                choices.pop();
                continue;
            }
            let candidate = choice.candidates[choice.next];
            choice.next += 1;
            index = choice.index;
            position = choice.position.clone();
            position.play_unchecked(&candidate);
            moves.truncate(index);
            moves.push(candidate);
            index += 1;
            break;
        }
    }
}
