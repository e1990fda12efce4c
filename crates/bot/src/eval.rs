//! The static evaluation, per variant: material (king value per variant),
//! advancement, centre and back-rank control, runaway men and, on
//! flying-king boards, king mobility. Scores are in hundredths of a man
//! from the side to move's point of view.

use draughts::{Position, Variant};

/// Per-variant weights and the board tables the evaluation reads.
#[derive(Debug, Clone)]
pub(crate) struct Eval {
    /// King value (a man is 100).
    king: i32,
    flying: bool,
    /// Squares per row on the board (4 or 5).
    h: i32,
    size: i32,
    /// Every playing square's bit.
    mask: u64,
    /// Advancement of a man of side 0 (the first mover, at the bottom) on
    /// each bit, 0 on its own back row; side 1's is `size - 1 -` that.
    adv0: [u8; 64],
    /// Display column of each bit.
    col: [u8; 64],
    /// Back row of side 0 and of side 1.
    back: [u64; 2],
    /// Central squares (the middle columns of the middle rows).
    centre: u64,
}

impl Eval {
    pub(crate) fn new(variant: Variant) -> Eval {
        let size = variant.board_size();
        let h = size / 2;
        let mut adv0 = [0u8; 64];
        let mut col = [0u8; 64];
        let mut mask = 0u64;
        let mut back = [0u64; 2];
        let mut centre = 0u64;
        for sq in variant.squares() {
            let n = sq.reference(size) - 1;
            let (r, i) = (n / h, n % h);
            let x = if r % 2 == 0 { 2 * i + 1 } else { 2 * i };
            let bit = sq.bit();
            adv0[usize::from(bit)] = size - 1 - r;
            col[usize::from(bit)] = x;
            mask |= 1 << bit;
            if r == size - 1 {
                back[0] |= 1 << bit;
            }
            if r == 0 {
                back[1] |= 1 << bit;
            }
            let mid = |v: u8| v >= 2 && v <= size - 3;
            if mid(x) && mid(r) {
                centre |= 1 << bit;
            }
        }
        let king = match variant {
            Variant::American => 150,
            Variant::Italian => 170,
            Variant::Czech | Variant::Spanish => 280,
            Variant::Russian | Variant::Brazilian => 300,
            Variant::International => 320,
        };
        Eval {
            king,
            flying: draughts::Rules::new(variant).flying_kings,
            h: i32::from(h),
            size: i32::from(size),
            mask,
            adv0,
            col,
            back,
            centre,
        }
    }

    /// One diagonal step of a whole set, in direction `d` (a bit offset).
    fn shift(&self, b: u64, d: i32) -> u64 {
        let s = if d > 0 { b << d } else { b >> -d };
        s & self.mask
    }

    /// The squares one step forward of `b` for `side`.
    fn forward(&self, b: u64, side: usize) -> u64 {
        let h = self.h;
        if side == 0 {
            self.shift(b, -(h + 1)) | self.shift(b, -h)
        } else {
            self.shift(b, h) | self.shift(b, h + 1)
        }
    }

    /// Empty squares a king on `bit` reaches along its diagonals.
    fn king_reach(&self, bit: u8, empty: u64) -> i32 {
        let h = self.h;
        let mut n = 0;
        for d in [-(h + 1), -h, h, h + 1] {
            let mut b = 1u64 << bit;
            loop {
                b = self.shift(b, d) & empty;
                if b == 0 {
                    break;
                }
                n += 1;
                if !self.flying {
                    break;
                }
            }
        }
        n
    }

    /// The evaluation of one side's pieces (`side` 0 = first mover).
    fn side_score(&self, own: u64, enemy: u64, kings: u64, side: usize, phase: i32) -> i32 {
        let men = own & !kings;
        let own_kings = own & kings;
        let enemy_kings = enemy & kings;
        let empty = self.mask & !(own | enemy);
        let top = self.size - 1;
        let mut score = men.count_ones() as i32 * 100 + own_kings.count_ones() as i32 * self.king;
        // phase: 256 at the start, 0 with no men left.
        let endgame = 256 - phase;
        let mut b = men;
        while b != 0 {
            let bit = b.trailing_zeros() as u8;
            b &= b - 1;
            let a0 = i32::from(self.adv0[usize::from(bit)]);
            let adv = if side == 0 { a0 } else { top - a0 };
            // Advancement: worth more as the board empties.
            score += adv * (2 * phase + 10 * endgame) / 256;
            let x = i32::from(self.col[usize::from(bit)]);
            if x == 0 || x == top {
                score -= 3 * phase / 256;
            }
            // Runaway: nothing of the enemy ahead within its cone.
            if adv * 2 >= top {
                let mut cone = 1u64 << bit;
                let mut free = true;
                let mut steps = 0;
                for _ in adv..top {
                    cone = self.forward(cone, side);
                    steps += 1;
                    if cone & enemy != 0 {
                        free = false;
                        break;
                    }
                }
                if free && self.forward(1u64 << bit, side) & empty != 0 {
                    let bonus = (self.king - 100) * (8 - steps.min(7)) / 10;
                    score += if enemy_kings == 0 { bonus } else { bonus / 3 };
                }
            }
        }
        score += (men & self.back[side]).count_ones() as i32 * 8 * phase / 256;
        score += (men & self.centre).count_ones() as i32 * 5 * phase / 256;
        if self.flying {
            let mut b = own_kings;
            while b != 0 {
                let bit = b.trailing_zeros() as u8;
                b &= b - 1;
                score += 2 * self.king_reach(bit, empty);
            }
        }
        score
    }

    /// The evaluation of `pos` for the side to move.
    pub(crate) fn evaluate(&self, pos: &Position) -> i32 {
        let first = pos.variant().first_mover();
        let s0 = pos.pieces(first).0;
        let s1 = pos.pieces(first.other()).0;
        let kings = pos.kings().0;
        let start = 2 * i32::from(pos.variant().men_per_side());
        let men = ((s0 | s1) & !kings).count_ones() as i32;
        let phase = (men * 256 / start).min(256);
        let a = self.side_score(s0, s1, kings, 0, phase);
        let b = self.side_score(s1, s0, kings, 1, phase);
        let mut score = a - b;
        // Drawish: a lone king against little material on a flying board,
        // or a king each and nothing else.
        let (n0, n1) = (s0.count_ones(), s1.count_ones());
        let (k0, k1) = ((s0 & kings).count_ones(), (s1 & kings).count_ones());
        let small = if self.size == 10 { 3 } else { 2 };
        if self.flying
            && ((n0 == 1 && k0 == 1 && n1 <= small && k1 >= 1)
                || (n1 == 1 && k1 == 1 && n0 <= small && k0 >= 1))
        {
            score /= 8;
        } else if !self.flying && n0 == k0 && n1 == k1 && n0.abs_diff(n1) == 0 {
            score /= 4;
        }
        // Ahead in material: trading down helps.
        let total = (n0 + n1) as i32;
        score += score.signum() * (score.abs().min(300)) * 4 / (total + 4);
        let stm = if pos.turn() == first { score } else { -score };
        stm + 4
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::Rules;

    #[test]
    fn the_start_is_balanced_and_material_counts() {
        for v in Variant::ALL {
            let e = Eval::new(v);
            let pos = Position::new(Rules::new(v));
            assert!(e.evaluate(&pos).abs() < 20, "{v}: {}", e.evaluate(&pos));
            assert_eq!(e.mask.count_ones(), u32::from(v.square_count()));
        }
        // A man up is clearly better; a king more than a man.
        let e = Eval::new(Variant::International);
        let rules = Rules::new(Variant::International);
        let up = Position::from_fen(rules, "W:W31,32,33:B1,2").expect("fen");
        assert!(e.evaluate(&up) > 70);
        let king = Position::from_fen(rules, "W:WK31,32:B1,2").expect("fen");
        let man = Position::from_fen(rules, "W:W31,32:B1,2").expect("fen");
        assert!(e.evaluate(&king) > e.evaluate(&man) + 150);
    }

    fn eval(v: Variant, fen: &str) -> i32 {
        let pos = Position::from_fen(Rules::new(v), fen).expect("valid FEN");
        Eval::new(v).evaluate(&pos)
    }

    #[test]
    fn king_values_follow_the_variant() {
        // A king against a man, side to move White: worth more where kings fly.
        let short = eval(Variant::American, "W:WK18:B5") - eval(Variant::American, "W:W18:B5");
        let flying = eval(Variant::Russian, "W:WKd4:Bb8") - eval(Variant::Russian, "W:Wd4:Bb8");
        assert!(short > 30 && flying > short + 80, "{short} {flying}");
    }

    #[test]
    fn a_runaway_man_is_worth_more_than_a_blocked_one() {
        // White man on 12 (International): free road to the crown, or a
        // black man ahead of it in its cone.
        let free = eval(Variant::International, "W:W12,50:B45");
        let blocked = eval(Variant::International, "W:W12,50:B7");
        assert!(free > blocked + 50, "{free} {blocked}");
    }

    #[test]
    fn a_flying_king_likes_open_diagonals() {
        // Russian: a white king in the middle of the board against one in
        // a corner (same material).
        let open = eval(Variant::Russian, "W:WKd4,g1:Bb8");
        let corner = eval(Variant::Russian, "W:WKh2,g1:Bb8");
        assert!(open > corner, "{open} {corner}");
    }

    #[test]
    fn back_rank_and_centre_men_count_while_the_board_is_full() {
        let v = Variant::International;
        let with = |extra: &str| eval(v, &format!("W:W31-40,{extra}:B1-20"));
        // A man kept on the back rank (47) beats one a row up (42).
        assert!(with("47") > with("42"), "{} {}", with("47"), with("42"));
        // In the centre (28) beats on the edge of the same row (26).
        assert!(with("28") > with("26"), "{} {}", with("28"), with("26"));
    }

    #[test]
    fn drawish_endings_are_scaled_down() {
        // International: two kings against one cannot win; four pieces can.
        let two = eval(Variant::International, "W:WK1,K5:BK46");
        let four = eval(Variant::International, "W:WK1,K5,K4,K3:BK46");
        assert!(two < 100, "{two}");
        assert!(four > 500, "{four}");
    }
}
