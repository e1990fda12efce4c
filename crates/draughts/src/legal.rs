//! The legal moves of a position: generating them, checking one move, and
//! playing a checked move.
//!
//! Generation goes through a [`MoveList`]; checking a single move avoids one
//! where it can (a simple move is looked for among the simple moves, which
//! need no list), since the server checks every move a client sends.

use crate::geometry::{Board8, Board10, Geometry};
use crate::{Move, MoveList, Position, Square};
use crate::{capture, movegen, priority};
use std::fmt;

/// Error of [`Position::play`]: the move is not legal here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayError {
    /// The rejected move.
    pub m: Move,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("illegal move")
    }
}

impl std::error::Error for PlayError {}

impl Position {
    /// Every legal move. Allocates only past [`MOVE_LIST_CAPACITY`](crate::MOVE_LIST_CAPACITY)
    /// moves, which no simple move and no real game's capture reaches.
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        if self.variant().board_size() == 10 {
            self.generate::<Board10>(&mut list);
        } else {
            self.generate::<Board8>(&mut list);
        }
        list
    }

    /// Every legal move, into `list` (emptied first): [`Position::legal_moves`]
    /// without building a new list, for a search that keeps a list per ply.
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        if self.variant().board_size() == 10 {
            self.generate::<Board10>(list);
        } else {
            self.generate::<Board8>(list);
        }
    }

    /// Whether the side to move has at least one legal move.
    #[must_use]
    pub fn has_legal_moves(&self) -> bool {
        fn any<G: Geometry>(pos: &Position) -> bool {
            movegen::has_capture::<G>(pos) || movegen::count_simple::<G>(pos) > 0
        }
        if self.variant().board_size() == 10 {
            any::<Board10>(self)
        } else {
            any::<Board8>(self)
        }
    }

    /// Whether the side to move has a capture (whether or not capturing is
    /// compulsory); cheaper than generating the moves.
    #[must_use]
    pub fn has_capture(&self) -> bool {
        if self.variant().board_size() == 10 {
            movegen::has_capture::<Board10>(self)
        } else {
            movegen::has_capture::<Board8>(self)
        }
    }

    pub(crate) fn generate<G: Geometry>(&self, list: &mut MoveList) {
        let capture_first = !self.rules().capture_optional;
        if !capture_first || movegen::has_capture::<G>(self) {
            self.generate_captures::<G>(list);
        }
        if list.is_empty() || !capture_first {
            movegen::generate_simple::<G>(self, list);
        }
    }

    /// The legal captures (after the priority filters).
    pub(crate) fn generate_captures<G: Geometry>(&self, list: &mut MoveList) {
        capture::generate::<G>(self, list, None, None);
        let (own, enemy, kings) = self.sides_to_move();
        priority::filter(self.rules(), own & kings, enemy & kings, list);
    }

    /// Appends every capture route from `from` to `to` (no deduplication,
    /// no priority filter), for matching move text against the route written.
    pub(crate) fn capture_routes_to(&self, from: Square, to: Square, list: &mut MoveList) {
        if self.variant().board_size() == 10 {
            capture::generate::<Board10>(self, list, Some(to), Some(from));
        } else {
            capture::generate::<Board8>(self, list, Some(to), Some(from));
        }
    }

    /// Whether every legal move is a simple one: captures are compulsory and
    /// there is none.
    pub(crate) fn only_simple_moves(&self) -> bool {
        !self.rules().capture_optional
            && !if self.variant().board_size() == 10 {
                movegen::has_capture::<Board10>(self)
            } else {
                movegen::has_capture::<Board8>(self)
            }
    }

    /// Plays a legal move, returning the new position.
    ///
    /// # Errors
    ///
    /// [`PlayError`] when `m` is not among [`Position::legal_moves`].
    pub fn play(&self, m: &Move) -> Result<Position, PlayError> {
        let legal = self.find_legal(m).ok_or(PlayError { m: *m })?;
        let mut next = self.clone();
        next.play_unchecked(&legal);
        Ok(next)
    }

    /// Whether `m` is among [`Position::legal_moves`] (moves are equal when
    /// their start, end and captured pieces are).
    #[must_use]
    pub fn is_legal(&self, m: &Move) -> bool {
        self.find_legal(m).is_some()
    }

    /// The legal move equal to `m`, as the generator made it: playing that
    /// one rather than `m` ignores whatever else a caller's move claims (its
    /// promotion flag). A simple move is looked for without building a move
    /// list, which is most moves of a game.
    pub(crate) fn find_legal(&self, m: &Move) -> Option<Move> {
        if self.variant().board_size() == 10 {
            self.find_legal_on::<Board10>(m)
        } else {
            self.find_legal_on::<Board8>(m)
        }
    }

    fn find_legal_on<G: Geometry>(&self, m: &Move) -> Option<Move> {
        let optional = self.rules().capture_optional;
        if m.is_capture() {
            if !optional && !movegen::has_capture::<G>(self) {
                return None;
            }
            let mut list = MoveList::new();
            self.generate_captures::<G>(&mut list);
            return list.iter().find(|l| *l == m).copied();
        }
        if !optional && movegen::has_capture::<G>(self) {
            return None;
        }
        let (from, to) = (m.from().bit(), m.to().bit());
        let mut found = None;
        movegen::for_each_simple::<G>(self, |f, t, promotes| {
            if (f, t) == (from, to) {
                found = Some(Move::simple(m.from(), m.to(), promotes));
            }
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Role, Rules, Variant};

    /// Positions with simple moves only, with captures, with kings, and with
    /// optional captures (where a position has both).
    fn positions() -> Vec<Position> {
        let optional = Rules::with_capture_optional(Variant::Russian, true).expect("8x8");
        let mut out: Vec<Position> = Variant::ALL
            .into_iter()
            .map(|v| Position::new(Rules::new(v)))
            .collect();
        for (rules, fen) in [
            (Rules::new(Variant::Russian), "W:Wc3,Kh2:Bd4,f6,f4"),
            (Rules::new(Variant::Russian), "W:Wf6,a1:Bc7,e7"),
            (Rules::new(Variant::International), "W:WK46,28:B22,K19"),
            (
                Rules::new(Variant::International),
                "W:WK46,28:B22,K19,K37,38",
            ),
            (Rules::new(Variant::Italian), "W:WK22,23:BK18,19,K27"),
            (Rules::new(Variant::American), "B:BK14,9:W18,K30"),
            (optional, "W:Wc3,Kh2:Bd4,f6,f4"),
            (optional, "W:Wf6,a1:Bc7,e7"),
        ] {
            out.push(Position::from_fen(rules, fen).expect("valid FEN"));
        }
        out
    }

    #[test]
    fn has_capture_pass_and_legal_moves_into_agree_with_the_generated_moves() {
        for pos in positions() {
            let legal = pos.legal_moves();
            assert_eq!(
                pos.has_capture(),
                legal.iter().any(Move::is_capture),
                "{pos:?}"
            );
            let passed = pos.pass();
            assert_eq!(passed.turn(), pos.turn().other());
            assert_eq!(passed.occupied(), pos.occupied());
            assert_eq!(passed.kings(), pos.kings());
            assert_eq!(passed.pass(), pos);
        }
        // White to move has no capture here; Black, to move instead, has one.
        let pos =
            Position::from_fen(Rules::new(Variant::Russian), "W:Wa1:Bc7,d6").expect("valid FEN");
        assert!(!pos.has_capture());
        let passed = pos.pass();
        assert!(!passed.has_capture());
        let pos =
            Position::from_fen(Rules::new(Variant::Russian), "W:Wc3:Bb6,d4").expect("valid FEN");
        assert!(pos.has_capture());
        assert!(pos.pass().has_capture());
    }

    #[test]
    fn a_move_is_legal_exactly_when_it_is_generated() {
        let mut ruled_out = 0;
        for pos in positions() {
            let legal = pos.legal_moves();
            assert!(!legal.is_empty(), "{pos:?}");
            for m in &legal {
                assert!(pos.is_legal(m), "{pos:?} {}", pos.move_to_string(m));
                let mut next = pos.clone();
                next.play_unchecked(m);
                assert_eq!(pos.play(m), Ok(next));
            }
            // Every capture route of the side to move, the ones that
            // priorities rule out included.
            let mut routes = MoveList::new();
            for from in pos.pieces(pos.turn()) {
                for to in pos.variant().squares() {
                    pos.capture_routes_to(from, to, &mut routes);
                }
            }
            for route in &routes {
                assert_eq!(pos.is_legal(route), legal.contains(route), "{pos:?}");
                ruled_out += usize::from(!legal.contains(route));
            }
            // Every simple move a board could have, legal or not.
            let squares: Vec<Square> = pos.variant().squares().collect();
            for &from in &squares {
                for &to in &squares {
                    let m = Move::simple(from, to, false);
                    let expected = legal.contains(&m);
                    assert_eq!(pos.is_legal(&m), expected, "{pos:?} {from:?}-{to:?}");
                    assert_eq!(pos.play(&m).is_ok(), expected);
                }
            }
        }
        assert!(ruled_out > 0, "some captures are ruled out by priorities");
    }

    #[test]
    fn play_uses_the_generated_move_not_the_callers_flags() {
        let pos = Position::from_fen(Rules::new(Variant::Russian), "W:Wa7,d4:Bh2").expect("FEN");
        let sq = |name| Variant::Russian.parse_square(name).expect("square");
        let role_on = |p: &Position, name| p.piece_at(sq(name)).map(|piece| piece.role);
        let crowning = Move::simple(sq("a7"), sq("b8"), false);
        let next = pos.play(&crowning).expect("legal");
        assert_eq!(
            role_on(&next, "b8"),
            Some(Role::King),
            "reaching the last row crowns"
        );
        let quiet = Move::simple(sq("d4"), sq("e5"), true);
        let next = pos.play(&quiet).expect("legal");
        assert_eq!(
            role_on(&next, "e5"),
            Some(Role::Man),
            "a claimed crowning is ignored"
        );
    }
}
