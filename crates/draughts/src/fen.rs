//! FEN in PDN form: `W:W21,22,K5:B1-12`.
//!
//! Input: the side to move, then one piece list per colour; `K` marks a king;
//! numeric ranges (`1-12`) are expanded; anything after the piece lists (an
//! engine's move counters, say) is ignored. Output: plain lists in the
//! variant's notation.

use crate::{Bitboard, Color, Position, Rules, Square, Variant, notation};
use std::fmt;
use std::sync::OnceLock;

/// Why a FEN was rejected. The payload is the offending text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The side to move is not `W` or `B`.
    InvalidTurn(String),
    /// A piece list item is not a square of the variant (or a bad range).
    InvalidSquare(String),
    /// A square is listed twice.
    DuplicateSquare(String),
    /// A colour has two piece lists.
    DuplicateColor(Color),
    /// More pieces than a side starts with.
    TooManyPieces(Color),
    /// A man stands on the row where it would have been crowned.
    ManOnPromotionRow(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::InvalidTurn(s) => {
                write!(f, "invalid FEN: side to move must be W or B, got {s:?}")
            }
            FenError::InvalidSquare(s) => {
                write!(f, "invalid FEN: not a square of this variant: {s:?}")
            }
            FenError::DuplicateSquare(s) => write!(f, "invalid FEN: square listed twice: {s}"),
            FenError::DuplicateColor(c) => write!(f, "invalid FEN: two piece lists for {c}"),
            FenError::TooManyPieces(c) => write!(f, "invalid FEN: too many {c} pieces"),
            FenError::ManOnPromotionRow(s) => {
                write!(f, "invalid FEN: a man on its promotion row: {s}")
            }
        }
    }
}

impl std::error::Error for FenError {}

/// Whether a FEN field after the side to move is an engine's counter (`H0`, `F12`):
/// one letter other than the colour letters, then digits. An empty field (a trailing
/// `:`) counts as one.
fn is_counter_field(part: &str) -> bool {
    let mut chars = part.chars();
    match chars.next() {
        None => true,
        Some(c) => {
            c.is_ascii_alphabetic()
                && !matches!(c, 'W' | 'w' | 'B' | 'b')
                && chars.all(|d| d.is_ascii_digit())
        }
    }
}

/// Parses one piece list (without its colour letter) into (pieces, kings).
fn parse_list(variant: Variant, list: &str) -> Result<(Bitboard, Bitboard), FenError> {
    let mut pieces = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    for item in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (king, body) = match item.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest.trim()),
            None => (false, item),
        };
        let squares: Vec<Square> = match body.split_once('-') {
            Some((lo, hi)) if !variant.is_algebraic() => {
                let bad = || FenError::InvalidSquare(item.to_string());
                let lo: u8 = lo.trim().parse().map_err(|_| bad())?;
                let hi: u8 = hi.trim().parse().map_err(|_| bad())?;
                if lo > hi {
                    return Err(bad());
                }
                (lo..=hi)
                    .map(|n| variant.parse_square(&n.to_string()).ok_or_else(bad))
                    .collect::<Result<_, _>>()?
            }
            _ => vec![
                variant
                    .parse_square(body)
                    .ok_or_else(|| FenError::InvalidSquare(item.to_string()))?,
            ],
        };
        for sq in squares {
            if pieces.contains(sq) {
                return Err(FenError::DuplicateSquare(variant.square_name(sq)));
            }
            pieces = pieces.with(sq);
            if king {
                kings = kings.with(sq);
            }
        }
    }
    Ok((pieces, kings))
}

impl Position {
    /// Parses a FEN in the notation of `rules`' variant.
    ///
    /// # Errors
    ///
    /// [`FenError`] for a bad side to move, a bad or repeated square, too
    /// many pieces, or a man on its promotion row. Never panics.
    pub fn from_fen(rules: Rules, fen: &str) -> Result<Position, FenError> {
        let variant = rules.variant;
        let fen = fen.trim().trim_matches('"').trim().trim_end_matches('.');
        let mut parts = fen.split(':');
        let turn_text = parts.next().unwrap_or("").trim();
        let turn = match turn_text {
            "W" | "w" => Color::White,
            "B" | "b" => Color::Black,
            _ => return Err(FenError::InvalidTurn(turn_text.to_string())),
        };
        let mut lists: [Option<(Bitboard, Bitboard)>; 2] = [None, None];
        for part in parts {
            let part = part.trim();
            let (color, list) = match part.chars().next() {
                Some('W' | 'w') => (Color::White, &part[1..]),
                Some('B' | 'b') => (Color::Black, &part[1..]),
                // An engine-specific field such as move counters (`H0`, `F12`): a letter
                // and digits. Anything else is a piece list gone wrong (`31B`, `21,22`
                // after a lost colour letter), never read as an empty side.
                _ if is_counter_field(part) => continue,
                _ => return Err(FenError::InvalidSquare(part.to_string())),
            };
            let slot = &mut lists[usize::from(color == Color::Black)];
            if slot.is_some() {
                return Err(FenError::DuplicateColor(color));
            }
            *slot = Some(parse_list(variant, list)?);
        }
        let [white, black] = lists.map(Option::unwrap_or_default);
        if let Some(sq) = (white.0 & black.0).first() {
            return Err(FenError::DuplicateSquare(variant.square_name(sq)));
        }
        for (color, (pieces, _)) in [(Color::White, white), (Color::Black, black)] {
            if pieces.count() > u32::from(variant.men_per_side()) {
                return Err(FenError::TooManyPieces(color));
            }
        }
        let pos = Position::from_parts(rules, [white, black], turn);
        for color in Color::ALL {
            let row = crowning_row(variant, color);
            let men = pos.pieces(color) & !pos.kings() & row;
            if let Some(sq) = men.first() {
                return Err(FenError::ManOnPromotionRow(variant.square_name(sq)));
            }
        }
        Ok(pos)
    }

    /// Builds a position from piece sets (what an endgame table generator
    /// enumerates), with the checks of [`Position::from_fen`].
    ///
    /// # Errors
    ///
    /// [`FenError`] for a bit that is not a playing square, a square held by
    /// both colours or a king on an empty square, too many pieces, or a man
    /// on its promotion row.
    pub fn from_pieces(
        rules: Rules,
        white: Bitboard,
        black: Bitboard,
        kings: Bitboard,
        turn: Color,
    ) -> Result<Position, FenError> {
        let variant = rules.variant;
        // Per variant: the board, White's and Black's promotion rows.
        static MASKS: OnceLock<Vec<[Bitboard; 3]>> = OnceLock::new();
        let masks = MASKS.get_or_init(|| {
            Variant::ALL
                .iter()
                .map(|&v| {
                    [
                        v.squares().collect(),
                        crowning_row(v, Color::White),
                        crowning_row(v, Color::Black),
                    ]
                })
                .collect()
        });
        let [board, white_row, black_row] =
            masks[Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0)];
        let stray = (white | black | kings) & !board;
        if !stray.is_empty() {
            return Err(FenError::InvalidSquare(format!("bits {:#x}", stray.0)));
        }
        if let Some(sq) = (white & black).first() {
            return Err(FenError::DuplicateSquare(variant.square_name(sq)));
        }
        if let Some(sq) = (kings & !(white | black)).first() {
            return Err(FenError::InvalidSquare(variant.square_name(sq)));
        }
        for (color, pieces, row) in [
            (Color::White, white, white_row),
            (Color::Black, black, black_row),
        ] {
            if pieces.count() > u32::from(variant.men_per_side()) {
                return Err(FenError::TooManyPieces(color));
            }
            if let Some(sq) = (pieces & !kings & row).first() {
                return Err(FenError::ManOnPromotionRow(variant.square_name(sq)));
            }
        }
        Ok(Position::from_parts(
            rules,
            [(white, white & kings), (black, black & kings)],
            turn,
        ))
    }

    /// The FEN of the position, in the variant's notation.
    #[must_use]
    pub fn to_fen(&self) -> String {
        let variant = self.variant();
        let mut fen = String::with_capacity(160);
        fen.push(self.turn().letter());
        for color in Color::ALL {
            fen.push(':');
            fen.push(color.letter());
            let pieces = self.pieces(color);
            let mut first = true;
            // The squares in output order, so no list to sort (the server writes a FEN
            // after every move).
            for &sq in fen_order(variant) {
                if !pieces.contains(sq) {
                    continue;
                }
                if !first {
                    fen.push(',');
                }
                first = false;
                if self.kings().contains(sq) {
                    fen.push('K');
                }
                notation::push_square_name(variant, sq, &mut fen);
            }
        }
        fen
    }
}

/// Output order: numeric squares ascending, algebraic ones by rank then file.
fn sort_key(variant: Variant, sq: Square) -> (u8, u8) {
    let (x, y) = variant.square_xy(sq);
    if variant.is_algebraic() {
        (variant.board_size() - y, x)
    } else {
        (notation::square_number(variant, sq), 0)
    }
}

/// Every playing square of the variant in FEN output order, worked out once per variant.
fn fen_order(variant: Variant) -> &'static [Square] {
    static ORDERS: OnceLock<Vec<Vec<Square>>> = OnceLock::new();
    let orders = ORDERS.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|&v| {
                let mut squares: Vec<Square> = v.squares().collect();
                squares.sort_by_key(|&sq| sort_key(v, sq));
                squares
            })
            .collect()
    });
    let i = Variant::ALL.iter().position(|&v| v == variant).unwrap_or(0);
    orders.get(i).map_or(&[], Vec::as_slice)
}

/// The row where men of `color` are crowned.
pub(crate) fn crowning_row(variant: Variant, color: Color) -> Bitboard {
    let size = variant.board_size();
    let target_y = if color == Color::White { 0 } else { size - 1 };
    variant
        .squares()
        .filter(|&sq| variant.square_xy(sq).1 == target_y)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fens_parse_to_the_start_position() {
        for v in Variant::ALL {
            let rules = Rules::new(v);
            let parsed = Position::from_fen(rules, v.start_fen()).expect("start FEN");
            assert_eq!(parsed, Position::new(rules), "{v}");
            assert_eq!(parsed.turn(), v.first_mover());
            let again = Position::from_fen(rules, &parsed.to_fen()).expect("own FEN");
            assert_eq!(again, parsed);
        }
    }

    #[test]
    fn rejects_bad_fens_without_panicking() {
        let rules = Rules::new(Variant::International);
        for bad in [
            "",
            "X:W1:B2",
            "W:W1,1:B2",
            "W:W1:B1",
            "W:W0:B2",
            "W:W51:B2",
            "W:W1-25:B30",
            "W:W3-1:B40",
            "W:W1:B2:W3",
            "W:W2:B47",
            "W:Wx:B",
            "W:W5-:B",
            "W:WK:B",
            // A field that is neither a piece list nor a counter: not an empty side.
            "W:W31:31B",
            "W:W31:21,22",
            "W:W31:B1:K19x",
        ] {
            assert!(Position::from_fen(rules, bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn accepts_suffixes_and_kings() {
        let rules = Rules::new(Variant::International);
        let pos = Position::from_fen(rules, "B:WK1,33:B20-22:H0:F12").expect("valid");
        assert_eq!(pos.to_fen(), "B:WK1,33:B20,21,22");
        let trailing = Position::from_fen(rules, "B:W33:B20:").expect("a trailing colon");
        assert_eq!(trailing.to_fen(), "B:W33:B20");
        let ru = Position::from_fen(Rules::new(Variant::Russian), "W:Wa1,Kh8:Bb8").expect("valid");
        assert_eq!(ru.to_fen(), "W:Wa1,Kh8:Bb8");
    }

    #[test]
    fn from_pieces_matches_the_fen() {
        let rules = Rules::new(Variant::International);
        let pos = Position::from_fen(rules, "B:WK1,33:B20,21,22").expect("valid");
        let built = Position::from_pieces(
            rules,
            pos.pieces(Color::White),
            pos.pieces(Color::Black),
            pos.kings(),
            Color::Black,
        )
        .expect("valid");
        assert_eq!(built, pos);
        let sq = |n| Square::from_reference(10, n).expect("square").bit();
        let bb = |n| Bitboard(1 << sq(n));
        // A white man on 1 (its promotion row), two colours on one square,
        // a king on an empty square, a ghost bit.
        for (w, b, k) in [
            (bb(1), bb(20), Bitboard::EMPTY),
            (bb(20), bb(20), Bitboard::EMPTY),
            (bb(20), bb(21), bb(22)),
            (Bitboard(1 << 10), bb(21), Bitboard::EMPTY),
        ] {
            assert!(Position::from_pieces(rules, w, b, k, Color::White).is_err());
        }
    }
}
