//! Move numbers: PDN numbers a pair of plies, the first mover's then the other's.

use crate::Position;

/// The move number of `ply` (from 1) in a game starting at `start`, as PDN writes it
/// before that ply: `12.` for the variant's first mover, `12...` for the other side.
/// A game whose first ply is the second mover's starts at `1...`.
pub fn move_number(start: &Position, ply: usize) -> String {
    let (number, first_mover) = number_of(start, ply);
    if first_mover {
        format!("{number}.")
    } else {
        format!("{number}...")
    }
}

/// The number of `ply` and whether it is the first mover's.
pub fn number_of(start: &Position, ply: usize) -> (usize, bool) {
    let offset = usize::from(start.turn() != start.variant().first_mover());
    let k = ply.saturating_sub(1) + offset;
    (k / 2 + 1, k.is_multiple_of(2))
}
