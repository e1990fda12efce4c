//! A running game's draw offer and takeback request, and how often each side may make
//! them. Its invariants: at most one of each stands, a side may make one per `every`
//! plies, and a move by the other side declines a standing draw offer and cancels a
//! takeback request. Only the draw offer is stored (a restart forgets a takeback
//! request).

use damka_protocol::table::{OfferLimits, SidePlies};
use damka_store::DrawOfferRow;
use draughts::{ByColor, Color};

use super::sides::{color, side};

/// The offers of one game.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Offers {
    /// The side whose draw offer stands.
    pub draw: Option<Color>,
    /// Ply count at each side's last draw offer.
    last_draw: ByColor<Option<u32>>,
    /// The side whose takeback request stands.
    pub takeback: Option<Color>,
    /// Ply count at each side's last takeback request.
    last_takeback: ByColor<Option<u32>>,
}

/// What a move did to the offers.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Withdrawn {
    /// The opponent's draw offer was declined by the move.
    pub draw_declined: bool,
    /// A takeback request was cancelled by the move.
    pub takeback_cancelled: bool,
}

impl Offers {
    /// The offers of a restored game: the stored draw offer if it still stands
    /// (`standing`, worked out from the moves since), the stored offer counts.
    pub fn restored(row: &DrawOfferRow, standing: Option<Color>) -> Offers {
        let ply = |p: Option<i64>| p.and_then(|p| u32::try_from(p).ok());
        Offers {
            draw: standing,
            last_draw: ByColor {
                white: ply(row.white_offer_ply),
                black: ply(row.black_offer_ply),
            },
            ..Offers::default()
        }
    }

    /// Ply count at `by`'s last draw offer.
    pub fn last_draw(&self, by: Color) -> Option<u32> {
        self.last_draw[by]
    }

    /// The draw offers as `by` offering one at `ply` would leave them, to store first.
    ///
    /// Fails within `every` plies of `by`'s last offer (the limit, to show).
    pub fn with_draw_offer(&self, by: Color, ply: u32, every: u32) -> Result<Offers, String> {
        if self.last_draw[by].is_some_and(|last| ply < last + every) {
            return Err(format!("one draw offer per {every} plies"));
        }
        let mut next = self.clone();
        next.last_draw[by] = Some(ply);
        next.draw = Some(by);
        Ok(next)
    }

    /// A takeback request of `by` at `ply`.
    ///
    /// Fails within `every` plies of `by`'s last request (the limit, to show).
    pub fn ask_takeback(&mut self, by: Color, ply: u32, every: u32) -> Result<(), String> {
        if self.last_takeback[by].is_some_and(|last| ply < last + every) {
            return Err(format!("one takeback request per {every} plies"));
        }
        self.last_takeback[by] = Some(ply);
        self.takeback = Some(by);
        Ok(())
    }

    /// A move of `by`: it declines the other side's draw offer and cancels any takeback
    /// request.
    pub fn moved(&mut self, by: Color) -> Withdrawn {
        let draw_declined = self.draw == Some(by.other());
        if draw_declined {
            self.draw = None;
        }
        Withdrawn {
            draw_declined,
            takeback_cancelled: self.takeback.take().is_some(),
        }
    }

    /// The game ended (or its moves were taken back): nothing stands any more.
    pub fn clear(&mut self) {
        self.draw = None;
        self.takeback = None;
    }

    /// The stored form of the draw offers.
    pub fn row(&self) -> DrawOfferRow {
        DrawOfferRow {
            draw_offer: self.draw.map(side),
            white_offer_ply: self.last_draw.white.map(i64::from),
            black_offer_ply: self.last_draw.black.map(i64::from),
        }
    }

    /// When each side may next offer a draw or ask for a takeback, one of each per
    /// `every` plies: the plies played from which it may (0 before its first).
    pub fn limits(&self, every: u32) -> OfferLimits {
        let next = |last: &ByColor<Option<u32>>| SidePlies {
            white: next_offer(last.white, every),
            black: next_offer(last.black, every),
        };
        OfferLimits {
            plies: every,
            draw: next(&self.last_draw),
            takeback: next(&self.last_takeback),
        }
    }
}

/// The plies played from which a side whose last offer was at `last` plies may offer
/// again, one offer per `every` plies (0: it never offered).
pub fn next_offer(last: Option<u32>, every: u32) -> u32 {
    last.map_or(0, |l| l.saturating_add(every))
}

/// The side a stored draw offer names.
pub fn stored_side(row: &DrawOfferRow) -> Option<Color> {
    row.draw_offer.map(color)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Color::{Black, White};

    #[test]
    fn one_offer_per_every_plies_and_a_move_declines_the_other_sides() {
        let o = Offers::default();
        let o = o.with_draw_offer(White, 4, 10).expect("first offer");
        assert_eq!(o.draw, Some(White));
        assert!(o.with_draw_offer(White, 13, 10).is_err(), "too soon");
        let mut o = o.with_draw_offer(White, 14, 10).expect("ten plies later");
        // White's own move keeps White's offer; Black's declines it.
        assert_eq!(o.moved(White), Withdrawn::default());
        assert_eq!(o.draw, Some(White));
        o.ask_takeback(Black, 15, 10).expect("a takeback request");
        let w = o.moved(Black);
        assert!(w.draw_declined && w.takeback_cancelled);
        assert_eq!((o.draw, o.takeback), (None, None));
        assert_eq!(o.limits(10).draw.white, 24);
        assert_eq!(o.row().white_offer_ply, Some(14));
    }
}
