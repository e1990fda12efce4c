//! Web Push from a table, pure (the actor sends): a player who is not watching the game is told that it is their
//! move, that the opponent offers something, or that the game ended
//! ([`crate::push::Push::deliver`] sends, on a task of its own; settings per kind apply
//! there).
//!
//! Only accounts have subscriptions (a guest's would be lost with the cookie), and the
//! computer gets none. "Not watching" means no socket of theirs is open at this table.

use draughts::{Color, Variant};

use super::game::LiveGame;
use super::subscribers::Subscribers;
use crate::push::{Kind, Notification};

/// The notification for the player of `color` in `game` about `kind`, and their id; none
/// for a guest or the computer, or a player watching this table through `subs`.
pub(super) fn notification(
    game: &LiveGame,
    table: &str,
    variant: Variant,
    subs: &Subscribers,
    color: Color,
    kind: Kind,
) -> Option<(String, Notification)> {
    let player = game.player(color);
    if !player.account || player.is_bot() || subs.has_guest(&player.id) {
        return None;
    }
    let n = Notification {
        kind,
        game: game.id.clone(),
        url: format!("/#/table/{table}"),
        opponent: game.player(color.other()).name.clone(),
        variant: variant.name().to_owned(),
    };
    Some((player.id.clone(), n))
}

/// Who is told what after a move: the player to move, or both once the game is over.
pub(super) fn after_move(game: &LiveGame) -> Vec<(Color, Kind)> {
    if game.playing() {
        vec![(game.position().turn(), Kind::YourTurn)]
    } else {
        after_end()
    }
}

/// Who is told what after the end: both players.
pub(super) fn after_end() -> Vec<(Color, Kind)> {
    vec![(Color::White, Kind::GameEnd), (Color::Black, Kind::GameEnd)]
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_protocol::{Options, Player};

    fn account(id: &str) -> Player {
        Player {
            account: true,
            ..Player::guest(id, id)
        }
    }

    fn game(white: Player, black: Player) -> LiveGame {
        crate::table::game::test_game(Options::default(), white, black, 30_000)
    }

    #[test]
    fn an_account_away_is_told_a_guest_or_a_watcher_is_not() {
        let g = game(account("w"), Player::guest("b", "B"));
        let mut subs = Subscribers::default();
        let to = |subs: &Subscribers, c| {
            notification(&g, "t1", Variant::Russian, subs, c, Kind::YourTurn)
                .map(|(id, n)| (id, n.url, n.opponent))
        };
        assert_eq!(
            to(&subs, Color::White),
            Some(("w".into(), "/#/table/t1".into(), "B".into()))
        );
        assert_eq!(to(&subs, Color::Black), None, "a guest has no subscription");
        let (tx, _rx) = tokio::sync::mpsc::channel(1);
        subs.add(Some(account("w")), tx);
        assert_eq!(to(&subs, Color::White), None, "watching this table");
        assert_eq!(after_move(&g), [(Color::White, Kind::YourTurn)]);
        assert_eq!(after_end().len(), 2);
    }
}
