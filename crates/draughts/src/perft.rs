//! Perft: the number of move sequences of a given length, for testing the
//! move generator against published counts.

use crate::geometry::{Board8, Board10, Geometry};
use crate::{MoveList, Position, movegen};

/// Counts the leaves of the move tree of depth `depth` (distinct moves per
/// spec §1.1). Bulk-counts at depth 1: no move list when there is no capture.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    // One move list per level, made once: a fresh array per node would cost
    // more than generating the moves.
    let mut lists: Vec<MoveList> = (0..depth).map(|_| MoveList::new()).collect();
    if pos.variant().board_size() == 10 {
        perft_inner::<Board10>(pos, depth, &mut lists)
    } else {
        perft_inner::<Board8>(pos, depth, &mut lists)
    }
}

fn perft_inner<G: Geometry>(pos: &Position, depth: u32, lists: &mut [MoveList]) -> u64 {
    let Some((list, deeper)) = lists.split_first_mut() else {
        return 1;
    };
    let optional = pos.rules().capture_optional;
    if optional || movegen::has_capture::<G>(pos) {
        list.clear();
        if optional {
            pos.generate::<G>(list);
        } else {
            pos.generate_captures::<G>(list);
        }
        if depth == 1 {
            return list.len() as u64;
        }
        return list
            .iter()
            .map(|m| {
                let mut next = pos.clone();
                next.play_unchecked(m);
                perft_inner::<G>(&next, depth - 1, deeper)
            })
            .sum();
    }
    if depth == 1 {
        return movegen::count_simple::<G>(pos);
    }
    let mut total = 0;
    movegen::for_each_simple::<G>(pos, |from, to, promotes| {
        let mut next = pos.clone();
        next.play_simple(from, to, promotes);
        total += perft_inner::<G>(&next, depth - 1, deeper);
    });
    total
}

/// Perft split by first move: `(move text, count)` for each legal move.
#[must_use]
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(String, u64)> {
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            let n = perft(&next, depth.saturating_sub(1));
            (pos.move_to_string(m), n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Rules, Variant};

    #[test]
    fn shallow_start_counts() {
        let am = Position::new(Rules::new(Variant::American));
        assert_eq!(perft(&am, 1), 7);
        assert_eq!(perft(&am, 3), 302);
        let int = Position::new(Rules::new(Variant::International));
        assert_eq!(perft(&int, 2), 81);
        assert_eq!(perft(&int, 4), 4265);
    }
}
