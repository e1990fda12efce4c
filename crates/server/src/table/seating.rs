//! Who sits where at a table and who pressed start. Its invariants: a seat changes only
//! with its readiness reset, an empty seat is never ready, the computer is always ready,
//! and a one-screen table's guest holds both seats.

use damka_protocol::{Player, Ready, Seats, Side};
use draughts::{ByColor, Color};

use super::game::{color, side};

/// The seats of a table.
#[derive(Debug, Clone, Default)]
pub(super) struct Seating {
    /// Who sits in each seat.
    seats: ByColor<Option<Player>>,
    /// Who pressed start (the computer always has).
    ready: ByColor<bool>,
}

impl Seating {
    /// The seats as they are (a new table's, or a restored game's players).
    pub(super) fn new(white: Option<Player>, black: Option<Player>) -> Seating {
        let mut seating = Seating {
            seats: ByColor { white, black },
            ready: ByColor::default(),
        };
        seating.computer_ready();
        seating
    }

    /// The player in the seat of `c`.
    pub(super) fn player(&self, c: Color) -> Option<&Player> {
        self.seats[c].as_ref()
    }

    /// Both players, once both seats are taken.
    pub(super) fn both(&self) -> Option<(Player, Player)> {
        Some((self.seats.white.clone()?, self.seats.black.clone()?))
    }

    /// The seat a guest holds (White's first at a one-screen table).
    pub(super) fn seat_of(&self, guest_id: &str) -> Option<Side> {
        self.seats
            .find(|p| p.as_ref().is_some_and(|p| p.id == guest_id))
            .map(side)
    }

    /// Whether a guest sits here.
    pub(super) fn seated(&self, guest_id: &str) -> bool {
        self.seat_of(guest_id).is_some()
    }

    /// Changes how a seated player is shown (a new rating), wherever they sit.
    pub(super) fn update(&mut self, guest_id: &str, f: impl Fn(&mut Player)) {
        for p in [&mut self.seats.white, &mut self.seats.black]
            .into_iter()
            .flatten()
        {
            if p.id == guest_id {
                f(p);
            }
        }
    }

    /// Seats `guest` in `s` (not ready yet).
    pub(super) fn take(&mut self, s: Side, guest: Player) {
        self.seats[color(s)] = Some(guest);
        self.ready[color(s)] = false;
    }

    /// Empties `s`; nobody is ready any more (but the computer).
    pub(super) fn vacate(&mut self, s: Side) {
        self.seats[color(s)] = None;
        self.reset_ready();
    }

    /// The players of a new game in their seats, nobody ready for the next (but the
    /// computer).
    pub(super) fn seat_game(&mut self, white: Player, black: Player) {
        self.seats = ByColor {
            white: Some(white),
            black: Some(black),
        };
        self.reset_ready();
    }

    /// Marks `s` ready; `false` if it was already.
    pub(super) fn set_ready(&mut self, s: Side) -> bool {
        !std::mem::replace(&mut self.ready[color(s)], true)
    }

    /// Whether both seats are taken and ready: a game can start.
    pub(super) fn all_set(&self) -> bool {
        self.ready.all(|r| *r) && self.seats.all(Option::is_some)
    }

    /// Nobody ready (but the computer).
    fn reset_ready(&mut self) {
        self.ready = ByColor::default();
        self.computer_ready();
    }

    /// The computer is always ready (at once, and again after every game).
    fn computer_ready(&mut self) {
        for (c, seat) in self.seats.iter() {
            if seat.as_ref().is_some_and(Player::is_bot) {
                self.ready[c] = true;
            }
        }
    }

    /// The seats as the wire object, each name as `shown` makes it.
    pub(super) fn view(&self, shown: impl Fn(&Player) -> Player) -> Seats {
        Seats {
            white: self.seats.white.as_ref().map(&shown),
            black: self.seats.black.as_ref().map(&shown),
        }
    }

    /// Who pressed start, as the wire object.
    pub(super) fn ready_view(&self) -> Ready {
        Ready {
            white: self.ready.white,
            black: self.ready.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seat_changes_only_with_its_readiness_and_the_computer_is_always_ready() {
        let bot = crate::computer::player(bot::Level::One);
        let mut s = Seating::new(Some(Player::guest("a", "Ala")), Some(bot));
        assert!(!s.all_set(), "Ala has not pressed start");
        assert!(s.set_ready(Side::White));
        assert!(!s.set_ready(Side::White), "already ready");
        assert!(s.all_set());
        s.vacate(Side::White);
        assert!(!s.all_set());
        s.take(Side::White, Player::guest("o", "Ola"));
        assert_eq!(s.seat_of("o"), Some(Side::White));
        assert!(
            s.set_ready(Side::White) && s.all_set(),
            "the computer stayed ready"
        );
    }
}
