//! The one capture search, parameterised by the rules table.
//!
//! A depth-first search from each piece of the side to move. Jumped pieces
//! stay on the board until the move ends: they block the path and cannot be
//! jumped twice. Routes with the same start, end and captured set are one
//! move (kept once). The majority rule already prunes here (shorter captures
//! are dropped as soon as a longer one is found); the other priorities are
//! filters that run afterwards (`priority.rs`).

use crate::geometry::{Geometry, on_board, shift};
use crate::m::MAX_PATH;
use crate::movegen::{forward, promotion_row};
use crate::rules::CapturePromotion;
use crate::{Bitboard, Move, MoveList, Position, Rules, Square};

/// State of the search for one capturing piece.
struct Search<'a> {
    /// The rules (men backwards, flying kings, crowning, majority).
    rules: Rules,
    /// The opponent's pieces, captured ones included (they stay until the
    /// move ends).
    enemy: u64,
    /// The opponent's kings (Italian men may not take them; priorities).
    enemy_kings: u64,
    /// Empty squares, the capturing piece's start square included.
    empty: u64,
    /// Where the mover's men are crowned.
    promo_row: u64,
    /// The steps a man captures along: forward, plus backward if allowed.
    man_dirs: [i32; 4],
    /// How many of `man_dirs` are used (2 or 4).
    man_dir_count: usize,
    /// The capturing piece's start square.
    from: Square,
    /// Whether the capturing piece started as a king (a king never "promotes").
    start_king: bool,
    /// Pieces jumped so far.
    captured: u64,
    /// Landing squares so far (bits); `len` of them are used.
    path: [u8; MAX_PATH],
    /// Number of landings (= captures) so far.
    len: usize,
    /// Italian priority key of the route so far (see [`Move`]).
    king_key: u32,
    /// Keep every route (for move input) instead of one per move, but only
    /// those ending on this bit.
    all_routes_to: Option<u8>,
    /// Index in `list` of this piece's first move (duplicates are only
    /// possible among the moves of one piece).
    first: usize,
    /// Length of `list` before this search: where the captures start.
    base: usize,
    /// Under the majority rule, the most pieces taken so far: shorter
    /// captures are dropped at once instead of by the filter, which keeps the
    /// list short (and perft fast) in positions with many kings.
    most: usize,
    /// Where the moves go.
    list: &'a mut MoveList,
}

/// Appends the captures of the side to move, one per distinct move (or one
/// per route ending on `all_routes_to` when given), before any priority
/// filter. With `only_from` just the captures of the piece on that square.
pub(crate) fn generate<G: Geometry>(
    pos: &Position,
    list: &mut MoveList,
    all_routes_to: Option<Square>,
    only_from: Option<Square>,
) {
    let (own, enemy, kings) = pos.sides_to_move();
    let side = pos.side_to_move();
    let rules = *pos.rules();
    let [f1, f2] = forward::<G>(side);
    let [b1, b2] = forward::<G>(1 - side);
    let (man_dirs, man_dir_count) = if rules.men_capture_backward {
        ([f1, f2, b1, b2], 4)
    } else {
        ([f1, f2, 0, 0], 2)
    };
    let empty = G::MASK & !(own | enemy);
    // Only the men that have a jump now can start a capture; a cheap
    // bitboard test spares the search for the others.
    let men = own & !kings;
    let men_targets = if rules.men_capture_kings {
        enemy
    } else {
        enemy & !kings
    };
    let mut pieces = own & kings;
    for &d in &man_dirs[..man_dir_count] {
        pieces |= men & shift::<G>(shift::<G>(empty, -d) & men_targets, -d);
    }
    if let Some(sq) = only_from {
        pieces &= 1 << sq.bit();
    }
    let mut search = Search {
        rules,
        enemy,
        enemy_kings: enemy & kings,
        empty,
        promo_row: promotion_row::<G>(side),
        man_dirs,
        man_dir_count,
        from: Square::from_bit(0),
        start_king: false,
        captured: 0,
        path: [0; MAX_PATH],
        len: 0,
        king_key: 0,
        all_routes_to: all_routes_to.map(Square::bit),
        first: 0,
        base: list.len(),
        most: 0,
        list,
    };
    while pieces != 0 {
        let from = pieces.trailing_zeros() as i32;
        pieces &= pieces - 1;
        search.first = search.list.len();
        search.from = Square::from_bit(from as u8);
        search.start_king = kings >> from & 1 != 0;
        // The capturing piece has left its square (it may pass or land there).
        search.empty = empty | 1 << from;
        search.extend::<G>(from, search.start_king);
    }
}

impl Search<'_> {
    /// Tries every capture from `sq`; returns whether there was one (the
    /// moves through it are emitted by the deeper calls).
    fn extend<G: Geometry>(&mut self, sq: i32, king: bool) -> bool {
        if king && self.rules.flying_kings {
            return self.extend_flying::<G>(sq);
        }
        if self.len >= MAX_PATH {
            return false;
        }
        let (dirs, count) = if king {
            (G::DIRS, 4)
        } else {
            (self.man_dirs, self.man_dir_count)
        };
        let mut any = false;
        for &d in &dirs[..count] {
            let over = sq + d;
            let land = over + d;
            // `empty` and the enemy sets hold playing squares only, so a
            // step over a ghost bit fails the tests below; `land` in range
            // puts `over` in range too.
            if (land as u32) >= 64 || self.empty >> land & 1 == 0 || !self.capturable(over, king) {
                continue;
            }
            any = true;
            let saved_key = self.take(over);
            self.land::<G>(land, king);
            self.untake(over, saved_key);
        }
        any
    }

    /// Captures of a flying king from `sq`: any distance to the victim, any
    /// empty landing square beyond, but only the landings from which the
    /// capture continues when there are some.
    fn extend_flying<G: Geometry>(&mut self, sq: i32) -> bool {
        if self.len >= MAX_PATH {
            return false;
        }
        let mut any = false;
        for d in G::DIRS {
            let mut over = sq + d;
            while on_board::<G>(over) && self.empty >> over & 1 != 0 {
                over += d;
            }
            if !on_board::<G>(over) || !self.capturable(over, true) {
                continue;
            }
            let mut landings = [0i32; 9];
            let mut n = 0;
            let mut land = over + d;
            while on_board::<G>(land) && self.empty >> land & 1 != 0 && n < landings.len() {
                landings[n] = land;
                n += 1;
                land += d;
            }
            if n == 0 {
                continue;
            }
            any = true;
            let saved_key = self.take(over);
            let mut continued = false;
            for &l in &landings[..n] {
                self.push(l);
                continued |= self.extend_flying::<G>(l);
                self.len -= 1;
            }
            if !continued {
                for &l in &landings[..n] {
                    self.push(l);
                    self.emit(l, true);
                    self.len -= 1;
                }
            }
            self.untake(over, saved_key);
        }
        any
    }

    /// Whether the piece on `bit` can be captured now by a man or a king.
    #[inline]
    fn capturable(&self, bit: i32, king: bool) -> bool {
        let b = 1u64 << bit;
        self.enemy & b != 0
            && self.captured & b == 0
            && (king || self.rules.men_capture_kings || self.enemy_kings & b == 0)
    }

    /// After jumping, a short piece lands on `land`: crowning, then go on.
    fn land<G: Geometry>(&mut self, land: i32, king: bool) {
        self.push(land);
        if !king && self.promo_row >> land & 1 != 0 {
            match self.rules.capture_promotion {
                CapturePromotion::EndsMove => self.emit(land, true),
                CapturePromotion::ContinuesAsKing => {
                    if !self.extend::<G>(land, true) {
                        self.emit(land, true);
                    }
                }
                CapturePromotion::ContinuesAsMan => {
                    if !self.extend::<G>(land, false) {
                        self.emit(land, false);
                    }
                }
            }
        } else if !self.extend::<G>(land, king) {
            self.emit(land, king);
        }
        self.len -= 1;
    }

    #[inline]
    fn push(&mut self, bit: i32) {
        self.path[self.len] = bit as u8;
        self.len += 1;
    }

    /// Marks `bit` captured; returns the previous king key.
    #[inline]
    fn take(&mut self, bit: i32) -> u32 {
        let saved = self.king_key;
        self.captured |= 1 << bit;
        if self.enemy_kings >> bit & 1 != 0 {
            self.king_key |= 1 << (31 - self.len);
        }
        saved
    }

    #[inline]
    fn untake(&mut self, bit: i32, saved_key: u32) {
        self.captured &= !(1 << bit);
        self.king_key = saved_key;
    }

    /// Records the move ending on `end` (the last pushed square), where the
    /// piece is a king if `king`.
    fn emit(&mut self, end: i32, king: bool) {
        if self.rules.majority && self.all_routes_to.is_none() {
            if self.len < self.most {
                return;
            }
            if self.len > self.most {
                self.list.truncate(self.base);
                self.first = self.base;
                self.most = self.len;
            }
        }
        let promotes = !self.start_king && (king || self.promo_row >> end & 1 != 0);
        let m = Move::capture(
            self.from,
            &self.path[..self.len],
            Bitboard(self.captured),
            promotes,
            self.king_key,
        );
        if let Some(to) = self.all_routes_to {
            if end != i32::from(to) {
                return;
            }
        } else {
            for existing in &mut self.list.as_mut_slice()[self.first..] {
                if *existing == m {
                    // Same move by another route: keep the route that meets
                    // a king earliest (what the Italian priority compares).
                    if m.king_key > existing.king_key {
                        existing.set_route(&m);
                    }
                    return;
                }
            }
        }
        self.list.push(m);
    }
}

#[cfg(test)]
mod tests {
    use crate::{Position, Rules, Variant};

    fn moves(variant: Variant, fen: &str) -> Vec<(String, bool)> {
        let pos = Position::from_fen(Rules::new(variant), fen).expect("valid FEN");
        let mut out: Vec<(String, bool)> = pos
            .legal_moves()
            .iter()
            .map(|m| (pos.move_to_string(m), m.promotes()))
            .collect();
        out.sort();
        out
    }

    fn one(text: &str, promotes: bool) -> Vec<(String, bool)> {
        vec![(text.to_string(), promotes)]
    }

    #[test]
    fn promotion_during_a_capture_follows_the_variant() {
        let fen = "W:Wf6:Bc7,e7";
        // Russian: crowned on d8 and goes on as a (flying) king.
        let ru = vec![
            ("f6xd8xa5".to_string(), true),
            ("f6xd8xb6".to_string(), true),
        ];
        assert_eq!(moves(Variant::Russian, fen), ru);
        // Brazilian: goes on as a man, not crowned off the last row.
        assert_eq!(moves(Variant::Brazilian, fen), one("f6xd8xb6", false));
        // Czech: crowned, the move ends on d8.
        assert_eq!(moves(Variant::Czech, fen), one("f6xd8", true));
    }

    #[test]
    fn italian_men_never_capture_kings() {
        assert_eq!(moves(Variant::Italian, "W:W22:B18"), one("22x13", false));
        assert_eq!(moves(Variant::Italian, "W:W22:BK18"), one("22-19", false));
        assert_eq!(
            moves(Variant::Spanish, "W:W11:BK15"),
            moves(Variant::Spanish, "W:W11:B15")
        );
    }

    #[test]
    fn czech_king_must_capture_first() {
        // The man could take two (c3xe5xg7), but a king can capture.
        let all = moves(Variant::Czech, "W:Wc3,Kh2:Bd4,f6,f4");
        assert!(!all.is_empty());
        assert!(all.iter().all(|(m, _)| m.starts_with("h2x")), "{all:?}");
        // Russian has no such rule: both pieces may capture.
        let ru = moves(Variant::Russian, "W:Wc3,Kh2:Bd4,f6,f4");
        assert!(ru.iter().any(|(m, _)| m.starts_with("c3x")), "{ru:?}");
    }

    #[test]
    fn a_flying_king_lands_where_the_capture_goes_on() {
        // Beyond c3 the king may stop on d4 ... h8, but only from e5 can it
        // take again (c7), so it must land there.
        assert_eq!(
            moves(Variant::Russian, "W:WKa1:Bc3,c7"),
            one("a1xe5xb8", false)
        );
        // Nothing to continue: every landing square is a move.
        assert_eq!(moves(Variant::Russian, "W:WKa1:Bc3").len(), 5);
    }

    #[test]
    fn jumped_pieces_block_until_the_move_ends() {
        // Crowned on h8 after taking g7, the new king's only diagonal runs
        // back over g7, which still stands: it cannot go on to take b2.
        assert_eq!(moves(Variant::Russian, "W:Wf6:BKg7,b2"), one("f6xh8", true));
        // e7 and c5 lie on one diagonal through the king: one capture only.
        assert_eq!(moves(Variant::Brazilian, "W:WKd6:Be7,c5").len(), 3);
    }
}
