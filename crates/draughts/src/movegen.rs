//! Simple moves and capture detection on bitboards, generic over the board.
//!
//! These are the hot paths of perft: whole-board shifts and popcounts, no
//! per-square loops except for flying kings' slides.

use crate::geometry::{Geometry, on_board, shift};
use crate::{MoveList, Position};

/// The diagonal steps a man of `side` moves along (side 0 moves up).
#[inline(always)]
pub(crate) fn forward<G: Geometry>(side: usize) -> [i32; 2] {
    if side == 0 {
        [G::DIRS[0], G::DIRS[1]]
    } else {
        [G::DIRS[2], G::DIRS[3]]
    }
}

/// The row where a man of `side` is crowned.
#[inline(always)]
pub(crate) fn promotion_row<G: Geometry>(side: usize) -> u64 {
    if side == 0 { G::TOP } else { G::BOTTOM }
}

/// Whether the side to move has any capture.
#[inline]
pub(crate) fn has_capture<G: Geometry>(pos: &Position) -> bool {
    let rules = pos.rules();
    let (own, enemy, kings) = pos.sides_to_move();
    let empty = G::MASK & !(own | enemy);
    let men = own & !kings;
    let own_kings = own & kings;
    let men_targets = if rules.men_capture_kings {
        enemy
    } else {
        enemy & !kings
    };
    if men != 0 {
        let side = pos.side_to_move();
        let [f1, f2] = forward::<G>(side);
        let [b1, b2] = forward::<G>(1 - side);
        let jumps = |d: i32| shift::<G>(shift::<G>(men, d) & men_targets, d) & empty != 0;
        if jumps(f1) || jumps(f2) {
            return true;
        }
        if rules.men_capture_backward && (jumps(b1) || jumps(b2)) {
            return true;
        }
    }
    if own_kings != 0 {
        for d in G::DIRS {
            let mut reach = own_kings;
            if rules.flying_kings {
                let mut f = shift::<G>(own_kings, d) & empty;
                while f != 0 {
                    reach |= f;
                    f = shift::<G>(f, d) & empty;
                }
            }
            if shift::<G>(shift::<G>(reach, d) & enemy, d) & empty != 0 {
                return true;
            }
        }
    }
    false
}

/// Number of simple moves of the side to move (perft's bulk count).
#[inline]
pub(crate) fn count_simple<G: Geometry>(pos: &Position) -> u64 {
    let (own, enemy, kings) = pos.sides_to_move();
    let empty = G::MASK & !(own | enemy);
    let men = own & !kings;
    let own_kings = own & kings;
    let [f1, f2] = forward::<G>(pos.side_to_move());
    let mut n =
        (shift::<G>(men, f1) & empty).count_ones() + (shift::<G>(men, f2) & empty).count_ones();
    if own_kings != 0 {
        for d in G::DIRS {
            let mut f = shift::<G>(own_kings, d) & empty;
            if pos.rules().flying_kings {
                while f != 0 {
                    n += f.count_ones();
                    f = shift::<G>(f, d) & empty;
                }
            } else {
                n += f.count_ones();
            }
        }
    }
    u64::from(n)
}

/// Calls `visit(from, to, promotes)` for every simple move of the side to move.
#[inline]
pub(crate) fn for_each_simple<G: Geometry>(pos: &Position, mut visit: impl FnMut(u8, u8, bool)) {
    let (own, enemy, kings) = pos.sides_to_move();
    let empty = G::MASK & !(own | enemy);
    let side = pos.side_to_move();
    let men = own & !kings;
    let promo = promotion_row::<G>(side);
    for d in forward::<G>(side) {
        let mut targets = shift::<G>(men, d) & empty;
        while targets != 0 {
            let to = targets.trailing_zeros() as i32;
            targets &= targets - 1;
            visit((to - d) as u8, to as u8, promo >> to & 1 != 0);
        }
    }
    let mut own_kings = own & kings;
    let flying = pos.rules().flying_kings;
    while own_kings != 0 {
        let from = own_kings.trailing_zeros() as i32;
        own_kings &= own_kings - 1;
        for d in G::DIRS {
            let mut to = from + d;
            while on_board::<G>(to) && empty >> to & 1 != 0 {
                visit(from as u8, to as u8, false);
                if !flying {
                    break;
                }
                to += d;
            }
        }
    }
}

/// Appends every simple move of the side to move.
pub(crate) fn generate_simple<G: Geometry>(pos: &Position, list: &mut MoveList) {
    for_each_simple::<G>(pos, |from, to, promotes| {
        list.push_simple(from, to, promotes)
    });
}
