//! The computer at a table, pure: when its side is to move, what to ask
//! [`crate::computer::Computer`] for ([`think`]); the actor asks and plays the answer through the same checks, clock and store as a
//! person's move. Also what a one-screen (local) table changes: its one guest moves for
//! the side to move.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use bot::ClockLimits;
use damka_protocol::Player;
use draughts::Color;

use super::game::LiveGame;
use crate::computer::{self, SearchRequest};
use crate::error::AppError;

/// The search running for a table: which game and ply it answers, and its stop flag.
pub struct Thinking {
    /// The game searched.
    pub game_id: String,
    /// The ply the answer is for.
    pub ply: u32,
    /// Stops the search.
    pub stop: Arc<AtomicBool>,
}

impl Drop for Thinking {
    fn drop(&mut self) {
        // A search nobody waits for any more stops at once.
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// What the computer does at a table now ([`think`]).
pub(super) enum Think {
    /// Nothing for it to search: a search still running is dropped (and so stopped).
    Stop,
    /// The search running goes on, or a held clock waits (the move would start it).
    Wait,
    /// A new search, and what the table keeps of it.
    Start(Box<SearchRequest>, Thinking),
}

/// The facts of a table that its computer's search depends on.
pub(super) struct Facts<'a> {
    /// The table's id (a computer-only game's owner, outside a tournament).
    pub table: &'a str,
    /// The tournament the table plays for, if any (a computer-only game's owner).
    pub tournament: Option<&'a str>,
    /// The increment, ms.
    pub increment_ms: u64,
    /// The address the table counts under (the computer's fair share).
    pub address: Option<std::net::IpAddr>,
    /// Now, server ms.
    pub now: u64,
    /// Draws the search's random seed (only when a search starts: no draw per event).
    pub seed: fn() -> u64,
}

/// Whether the computer is to search at a table whose game is `game`, with `thinking`
/// running: a search starts when the computer is to move in a game being played, its
/// clock not held, and none runs for this ply yet.
pub(super) fn think(game: Option<&LiveGame>, thinking: Option<&Thinking>, at: &Facts<'_>) -> Think {
    let Some(game) = game.filter(|g| g.playing()) else {
        return Think::Stop;
    };
    let turn = game.position().turn();
    let Some(level) = computer::level_of(game.player(turn)) else {
        return Think::Stop;
    };
    // The computer against itself (a tournament's computer entrants paired together)
    // plays nobody's game: cheaply (the beginner's shallow search) and after every
    // person's search. Otherwise the search serves the person at the table.
    let person = game.players.iter().map(|(_, p)| p).find(|p| !p.is_bot());
    let (class, level, owner) = match person {
        Some(p) => (computer::Class::Person, level, p.id.clone()),
        None => (
            computer::Class::FillIn,
            bot::Level::One,
            at.tournament.unwrap_or(at.table).to_owned(),
        ),
    };
    let ply = game.ply() + 1;
    if answers(thinking, &game.id, ply) {
        return Think::Wait;
    }
    // A held clock (a restart waiting for the guest, a database outage) waits: the
    // computer's move would start it.
    if game.held().is_some() {
        return Think::Wait;
    }
    // Before the clock runs, the first-move window is the limit (a quarter of what is
    // left of it, so the computer moves well inside it).
    let remaining_ms = match game.first_move_left(at.now) {
        Some(left) => (left / 4).min(game.clock.remaining(turn, at.now)),
        None => game.clock.remaining(turn, at.now),
    };
    let stop = Arc::new(AtomicBool::new(false));
    let req = SearchRequest {
        game: game.game.clone(),
        level,
        clock: ClockLimits {
            remaining_ms,
            increment_ms: at.increment_ms,
        },
        seed: (at.seed)(),
        stop: stop.clone(),
        class,
        who: computer::Who {
            address: at.address,
            owner,
        },
    };
    let thinking = Thinking {
        game_id: game.id.clone(),
        ply,
        stop,
    };
    Think::Start(Box::new(req), thinking)
}

/// Whether the search running, `thinking`, is the one for `ply` of game `game_id`.
pub(super) fn answers(thinking: Option<&Thinking>, game_id: &str, ply: u32) -> bool {
    thinking.is_some_and(|t| t.game_id == game_id && t.ply == ply)
}

/// The colour the computer plays the answer of a search for, if game `game_id` is still
/// being played with the computer to move (else the answer is stale).
pub(super) fn mover(game: Option<&LiveGame>, game_id: &str) -> Option<Color> {
    let game = game.filter(|g| g.playing() && g.id == game_id)?;
    let by = game.position().turn();
    computer::level_of(game.player(by)).map(|_| by)
}

/// The colour a guest moves for: at a one-screen (`local`) table, the side to move.
pub(super) fn local_color(local: bool, game: Option<&LiveGame>, guest: &Player) -> Option<Color> {
    let game = game.filter(|g| g.playing())?;
    (local && game.players.all(|p| p.id == guest.id)).then(|| game.position().turn())
}

/// A new table's second seat: the computer at the requested level, or the creator
/// again at a one-screen table.
///
/// Fails with `invalid_options` for an unknown level.
pub fn second_seat(creator: &Player, bot_level: Option<u8>, local: bool) -> Option<Player> {
    if local {
        return Some(creator.clone());
    }
    bot_level
        .and_then(bot::Level::from_number)
        .map(computer::player)
}

/// Refuses a table option combination the computer cannot serve.
///
/// Fails with `invalid_options`.
pub fn check_seat_options(bot_level: Option<u8>, local: bool) -> Result<(), AppError> {
    if let Some(n) = bot_level {
        if bot::Level::from_number(n).is_none() {
            return Err(AppError::InvalidOptions("bot must be 1, 2 or 3".into()));
        }
        if local {
            return Err(AppError::InvalidOptions(
                "a table is either against the computer or on one screen".into(),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use crate::table::game::Hold;
    use damka_protocol::Options;

    /// A new Russian game between `white` and `black`, started at 0 with a first-move
    /// window of 40 s and 5 minutes each.
    fn game(white: Player, black: Player) -> LiveGame {
        let options = Options {
            minutes: 5,
            ..Options::default()
        };
        crate::table::game::test_game(options, white, black, 40_000)
    }

    fn facts(now: u64) -> Facts<'static> {
        Facts {
            table: "t",
            tournament: None,
            increment_ms: 2_000,
            address: None,
            now,
            seed: || 7,
        }
    }

    fn computer(level: bot::Level) -> Player {
        computer::player(level)
    }

    #[test]
    fn the_computer_searches_only_on_its_turn_and_once_a_ply() {
        let person = Player::guest("p", "P");
        // Nobody's computer to move (or no game): nothing runs.
        let people = game(person.clone(), Player::guest("q", "Q"));
        assert!(matches!(think(Some(&people), None, &facts(0)), Think::Stop));
        assert!(matches!(think(None, None, &facts(0)), Think::Stop));
        let g = game(person.clone(), computer(bot::Level::Two));
        assert!(matches!(think(Some(&g), None, &facts(0)), Think::Stop));
        // Its turn: a search for the person at the table, inside the first-move window
        // (a quarter of what is left of it).
        let g = game(computer(bot::Level::Two), person);
        let Think::Start(req, thinking) = think(Some(&g), None, &facts(10_000)) else {
            panic!("the computer is to move");
        };
        assert_eq!((thinking.game_id.as_str(), thinking.ply), ("g", 1));
        assert_eq!(req.level, bot::Level::Two);
        assert_eq!(req.class, computer::Class::Person);
        assert_eq!(req.who.owner, "p");
        assert_eq!(req.clock.remaining_ms, 30_000 / 4);
        assert_eq!(req.clock.increment_ms, 2_000);
        assert_eq!(req.seed, 7);
        // The same ply again: the search running goes on.
        assert!(matches!(
            think(Some(&g), Some(&thinking), &facts(11_000)),
            Think::Wait
        ));
        assert!(answers(Some(&thinking), "g", 1) && !answers(Some(&thinking), "g", 2));
        assert_eq!(mover(Some(&g), "g"), Some(Color::White));
        assert_eq!(mover(Some(&g), "other"), None);
        // Dropping what the table kept stops the search.
        let stop = req.stop.clone();
        drop(thinking);
        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn a_held_clock_waits_and_the_computer_against_itself_plays_cheaply() {
        let mut g = game(computer(bot::Level::Three), Player::guest("p", "P"));
        g.hold_clock(Hold::Storage, 0);
        assert!(matches!(think(Some(&g), None, &facts(0)), Think::Wait));
        let g = game(computer(bot::Level::Three), computer(bot::Level::Three));
        let at = Facts {
            tournament: Some("tour"),
            ..facts(0)
        };
        let Think::Start(req, _) = think(Some(&g), None, &at) else {
            panic!("the computer is to move");
        };
        assert_eq!(req.class, computer::Class::FillIn);
        assert_eq!(req.level, bot::Level::One);
        assert_eq!(req.who.owner, "tour");
    }

    #[test]
    fn a_one_screen_guest_moves_for_the_side_to_move() {
        let me = Player::guest("me", "Me");
        let g = game(me.clone(), me.clone());
        assert_eq!(local_color(true, Some(&g), &me), Some(Color::White));
        assert_eq!(local_color(false, Some(&g), &me), None);
        let other = Player::guest("o", "O");
        assert_eq!(local_color(true, Some(&g), &other), None);
        assert_eq!(
            second_seat(&me, None, true).map(|p| p.id),
            Some("me".to_owned())
        );
        assert!(second_seat(&me, Some(3), false).is_some_and(|p| p.is_bot()));
        assert!(second_seat(&me, None, false).is_none());
    }
}
