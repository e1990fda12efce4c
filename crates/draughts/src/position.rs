//! A validated position: the pieces, the side to move, the rules, and
//! playing a move on it (which moves are legal is `legal.rs`).

use crate::{Bitboard, Color, Move, Piece, Role, Rules, Square, Variant};
use std::fmt;

/// A position: the pieces, the side to move and the rules they play by.
///
/// Internally the two sides are indexed by who moved first (side 0 plays
/// from the bottom of the reference board upwards), so one move generator
/// serves American (Black first) and the others alike. Equality compares
/// every piece, every king, the side to move and the rules: what threefold
/// repetition needs.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Position {
    rules: Rules,
    /// Pieces by side: 0 = the first mover, 1 = the other.
    sides: [u64; 2],
    kings: u64,
    /// Side to move (0 or 1).
    turn: u8,
}

impl Position {
    /// The start position of the rules' variant.
    #[must_use]
    pub fn new(rules: Rules) -> Position {
        let variant = rules.variant;
        let size = variant.board_size();
        let n = variant.square_count();
        let men = variant.men_per_side();
        let range = |lo: u8, hi: u8| -> u64 {
            (lo..=hi)
                .filter_map(|r| Square::from_reference(size, r))
                .fold(0, |b, sq| b | 1 << sq.bit())
        };
        Position {
            rules,
            sides: [range(n - men + 1, n), range(1, men)],
            kings: 0,
            turn: 0,
        }
    }

    /// Builds a position from pieces; used by the FEN parser after it has
    /// validated them.
    pub(crate) fn from_parts(
        rules: Rules,
        by_color: [(Bitboard, Bitboard); 2],
        turn: Color,
    ) -> Position {
        let first = rules.variant.first_mover();
        let side_of = |c: Color| usize::from(c != first);
        let mut sides = [0; 2];
        let mut kings = 0;
        for (c, (pieces, k)) in Color::ALL.into_iter().zip(by_color) {
            sides[side_of(c)] = pieces.0;
            kings |= k.0;
        }
        Position {
            rules,
            sides,
            kings,
            turn: side_of(turn) as u8,
        }
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    fn color_of_side(&self, side: usize) -> Color {
        let first = self.rules.variant.first_mover();
        if side == 0 { first } else { first.other() }
    }

    fn side_of(&self, color: Color) -> usize {
        usize::from(color != self.rules.variant.first_mover())
    }

    /// The side to move.
    #[must_use]
    pub fn turn(&self) -> Color {
        self.color_of_side(usize::from(self.turn))
    }

    /// The pieces of one colour.
    #[must_use]
    pub fn pieces(&self, color: Color) -> Bitboard {
        Bitboard(self.sides[self.side_of(color)])
    }

    /// Every king, of both colours.
    #[must_use]
    pub fn kings(&self) -> Bitboard {
        Bitboard(self.kings)
    }

    /// Every piece, of both colours.
    #[must_use]
    pub fn occupied(&self) -> Bitboard {
        Bitboard(self.sides[0] | self.sides[1])
    }

    /// The piece on `sq`, if any.
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let side = (0..2).find(|&s| self.sides[s] >> sq.bit() & 1 != 0)?;
        let role = if self.kings >> sq.bit() & 1 != 0 {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece {
            color: self.color_of_side(side),
            role,
        })
    }

    /// The side to move as an index (0 = first mover).
    #[inline]
    pub(crate) fn side_to_move(&self) -> usize {
        usize::from(self.turn)
    }

    /// `(own pieces, enemy pieces, all kings)` for the side to move.
    #[inline]
    pub(crate) fn sides_to_move(&self) -> (u64, u64, u64) {
        let s = usize::from(self.turn);
        (self.sides[s], self.sides[s ^ 1], self.kings)
    }

    /// The same pieces with the other side to move (a "null move"): what a
    /// search uses to see the opponent's threats. Not a legal move in any
    /// variant.
    #[must_use]
    pub fn pass(&self) -> Position {
        let mut next = self.clone();
        next.turn ^= 1;
        next
    }

    /// Plays `m` without checking that it is legal. A move that is not legal
    /// leaves a consistent but meaningless position.
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        let side = usize::from(self.turn);
        let from = 1u64 << m.from().bit();
        let to = 1u64 << m.to().bit();
        let was_king = self.kings & from != 0;
        self.sides[side] = (self.sides[side] & !from) | to;
        self.kings &= !from;
        if was_king || m.promotes() {
            self.kings |= to;
        }
        let captured = m.captures().0;
        self.sides[side ^ 1] &= !captured;
        self.kings &= !captured;
        self.turn ^= 1;
    }

    /// Plays a simple move given as bits (perft's fast path).
    #[inline]
    pub(crate) fn play_simple(&mut self, from: u8, to: u8, promotes: bool) {
        let side = usize::from(self.turn);
        let from = 1u64 << from;
        let to = 1u64 << to;
        self.sides[side] ^= from | to;
        if self.kings & from != 0 || promotes {
            self.kings = (self.kings & !from) | to;
        }
        self.turn ^= 1;
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({} {})", self.rules.variant, self.to_fen())
    }
}
