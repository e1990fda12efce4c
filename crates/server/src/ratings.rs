//! Ratings as players see them: rounded for the wire, provisional while the RD is 110 or
//! more, and an account's rating in the variant of where it is shown (seats, a room's
//! people, tournament players). The Glicko-2 arithmetic is `damka_rating`'s; the update
//! of a rated game is the store's (in the transaction that stores the game's end).

use damka_protocol::Player;
use damka_protocol::account::{GameRatings, RatingDiff, WireRating};
use damka_store::{RatingChanges, RatingRow};
use draughts::Variant;

use crate::core::Core;
use crate::error::AppError;

/// A rating rounded for the wire.
pub fn rounded(r: f64) -> i32 {
    // Ratings stay within a few thousand: the cast cannot overflow.
    #[allow(clippy::cast_possible_truncation)]
    let r = r.round() as i32;
    r
}

/// Rating changes as `game_over` shows them (rounded).
pub fn wire_ratings(c: &RatingChanges) -> GameRatings {
    let diff = |c: &damka_store::RatingChange| RatingDiff {
        before: rounded(c.before.rating),
        after: rounded(c.after.rating),
        provisional: Some(c.after.provisional()),
    };
    GameRatings {
        white: diff(&c.white),
        black: diff(&c.black),
    }
}

/// A stored rating as it stands at `now` (Unix ms), for the wire.
pub fn wire(row: &RatingRow, now: i64) -> WireRating {
    let r = row.now(now);
    WireRating {
        rating: rounded(r.rating),
        rd: rounded(r.rd),
        games: u32::try_from(row.games).unwrap_or(u32::MAX),
        provisional: r.provisional(),
    }
}

/// A new account's rating in a variant it has not played rated.
pub fn new_rating() -> WireRating {
    let r = damka_rating::Rating::NEW;
    WireRating {
        rating: rounded(r.rating),
        rd: rounded(r.rd),
        games: 0,
        provisional: true,
    }
}

/// Whether two players may play one more rated game against each other now: fewer than
/// `--rated-games-per-pair` rated games between them started in the last 24 hours (0:
/// no limit). Past that their games are casual, so two accounts that only play each other
/// cannot farm a rating.
///
/// Fails on a database error.
pub async fn within_pair_limit(core: &Core, a: &str, b: &str) -> Result<bool, AppError> {
    let limit = core.config.tables.rated_games_per_pair;
    if limit == 0 {
        return Ok(true);
    }
    let since = crate::time::unix_ms().saturating_sub(24 * 3600 * 1000);
    let played = core.store.rated_games_between(a, b, since).await?;
    Ok(played < i64::from(limit))
}

/// The suffix of a variant's correspondence rating's name (`russian_correspondence`).
pub const CORRESPONDENCE: &str = "_correspondence";

/// The name a rating is stored and shown under: the variant's for live play, and a
/// separate one per variant for correspondence (days per move), as lichess keeps them
/// apart: a game of days says little about play on the clock.
pub fn pool(variant: Variant, correspondence: bool) -> String {
    if correspondence {
        format!("{}{CORRESPONDENCE}", variant.name())
    } else {
        variant.name().to_owned()
    }
}

/// `player` as shown where `variant` is played live: an account with its rating there (a
/// new account's 1500?), anyone else as is.
///
/// Fails on a database error.
pub async fn shown(core: &Core, player: Player, variant: Variant) -> Result<Player, AppError> {
    shown_in(core, player, variant, false).await
}

/// [`shown`] in the variant's live or correspondence rating.
///
/// Fails on a database error.
pub async fn shown_in(
    core: &Core,
    player: Player,
    variant: Variant,
    correspondence: bool,
) -> Result<Player, AppError> {
    if !player.account {
        return Ok(player);
    }
    let row = core
        .store
        .rating_of(&player.id, &pool(variant, correspondence))
        .await?;
    let now = crate::time::unix_ms();
    let w = row.map_or_else(new_rating, |r| wire(&r, now));
    Ok(Player {
        rating: Some(w.rating),
        provisional: w.provisional,
        ..player
    })
}
