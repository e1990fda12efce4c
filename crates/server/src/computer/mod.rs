//! The computer opponent at tables: who it is in a seat ([`player`], [`entrant`]), and
//! where its searches run ([`Computer`]: a few search threads shared fairly, see `searches`
//! and `queue`).

mod endgames;
mod queue;
mod searches;

use bot::Level;
use damka_protocol::Player;

pub use endgames::Endgames;
pub use queue::{AGE, Class, Who};
pub use searches::{Computer, SearchOutcome, SearchRequest};

/// The id prefix of the computer's seats (`bot-1` .. `bot-3`); no guest id has a `-`.
const ID_PREFIX: &str = "bot-";

/// The computer at `level` as a seated player.
pub fn player(level: Level) -> Player {
    let n = level.number();
    Player {
        bot: Some(n),
        ..Player::guest(format!("{ID_PREFIX}{n}"), format!("Computer (level {n})"))
    }
}

/// A player as stored with a game: the computer when the id is one of its seats.
pub fn stored_player(id: &str, name: &str) -> Player {
    Player {
        bot: level_of_id(id).map(Level::number),
        ..Player::guest(id, name)
    }
}

/// The `k`-th computer entrant of a tournament at `level`: `bot-N-k`, so several
/// computer players of one tournament (who may meet each other) keep distinct ids. Their
/// guest rows are made when a tournament starts with them.
pub fn entrant(level: Level, k: u32) -> Player {
    let n = level.number();
    Player {
        bot: Some(n),
        ..Player::guest(
            format!("{ID_PREFIX}{n}-{k}"),
            format!("Computer (level {n}) #{k}"),
        )
    }
}

/// The level of a computer seat's id (`bot-N`, or a tournament entrant's `bot-N-k`).
pub fn level_of_id(id: &str) -> Option<Level> {
    let rest = id.strip_prefix(ID_PREFIX)?;
    let (level, entrant) = match rest.split_once('-') {
        Some((level, k)) => (level, Some(k)),
        None => (rest, None),
    };
    if entrant.is_some_and(|k| k.parse::<u32>().is_err()) {
        return None;
    }
    Level::from_number(level.parse().ok()?)
}

/// The level of a seated player that is the computer.
pub fn level_of(player: &Player) -> Option<Level> {
    player.bot.and_then(Level::from_number)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_are_distinct_computer_players() {
        let a = entrant(Level::One, 1);
        let b = entrant(Level::One, 2);
        assert_ne!(a.id, b.id);
        assert_eq!(level_of_id(&a.id), Some(Level::One));
        assert_eq!(level_of_id("bot-3"), Some(Level::Three));
        assert_eq!(level_of_id("bot-2-x"), None);
        assert_eq!(level_of_id("bot-9-1"), None);
        assert_eq!(stored_player(&b.id, &b.name).bot, Some(1));
    }
}
