//! Pairing: who plays whom, with which colour, in a round. Pure (no I/O, no clock, no
//! randomness): the same history always gives the same round.
//!
//! - [`berger`]: round-robin by the standard Berger tables;
//! - [`swiss`]: Swiss (score groups, no repeated pairing, colour rule, one bye at most);
//! - [`matching`]: maximum matching in a general graph, the Swiss pairing's oracle.
//!
//! Players are numbers: their index in the tournament's seed order (0 is seed 1).

pub mod berger;
pub mod matching;
pub mod swiss;

/// One round: the boards as (white, black) and the player without an opponent.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RoundPairing {
    /// Boards in order (board 1 first): (white, black).
    pub boards: Vec<(usize, usize)>,
    /// The player with the bye, if the number is odd.
    pub bye: Option<usize>,
}

#[cfg(test)]
mod swiss_properties;
