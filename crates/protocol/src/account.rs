//! Accounts and ratings: the bodies of `POST /api/account`, `POST /api/session` and
//! `POST /api/account/password`, what `GET /api/me` says about an account, a rating on
//! the wire, a profile (`GET /api/players/{username}`) and a leaderboard
//! (`GET /api/leaderboard/{variant}`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::GameListItem;

/// Body of `POST /api/account` (a guest becomes an account) and `POST /api/session`
/// (signing in).
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Credentials {
    /// 3–20 characters of `A-Z a-z 0-9 _ -`.
    pub username: String,
    /// 8–128 characters, not the username.
    pub password: String,
}

impl std::fmt::Debug for Credentials {
    /// The password never shows.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("username", &self.username)
            .finish_non_exhaustive()
    }
}

/// Body of `POST /api/account/password`.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PasswordChange {
    /// The current password.
    pub old: String,
    /// The new one.
    pub new: String,
}

impl std::fmt::Debug for PasswordChange {
    /// The passwords never show.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordChange { .. }")
    }
}

/// An account's name as `GET /api/me` shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountInfo {
    /// The username.
    pub username: String,
    /// The client language the account chose (`PUT /api/account/language`), or `null`:
    /// the browser's then applies.
    #[serde(default)]
    pub language: Option<String>,
}

/// `PUT /api/account/language`: the client language an account keeps, one of
/// [`LANGUAGES`] (`null`: none, the browser's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LanguageChoice {
    /// A language code, or `null`.
    pub language: Option<String>,
}

/// The languages the client speaks, as `GET /api/me` and `PUT /api/account/language`
/// name them.
pub const LANGUAGES: [&str; 9] = ["pl", "en", "ru", "pt", "es", "it", "cs", "nl", "fr"];

/// A rating on the wire: rounded, with the number of rated games.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireRating {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub rd: i32,
    /// Rated games played in the variant.
    pub games: u32,
    /// RD 110 or more: not established yet (shown with a "?").
    pub provisional: bool,
}

/// `GET /api/me`, and the answer to `POST /api/account` and `POST /api/session`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Me {
    /// The player's id (kept from its guest days).
    pub id: String,
    /// The display name.
    pub name: String,
    /// The account, or `null` for a guest.
    pub account: Option<AccountInfo>,
    /// Ratings per variant (every variant; a guest's is empty).
    #[serde(default)]
    pub ratings: BTreeMap<String, WireRating>,
}

/// A player's results over games that ended with one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct Results {
    /// Won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Lost by leaving (the opponent claimed the game), counted among the losses too.
    #[serde(default)]
    pub abandoned: u32,
}

/// One point of a rating's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryPoint {
    /// When (RFC 3339).
    pub at: String,
    /// The rating after that game, rounded.
    pub rating: i32,
    /// The game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// `GET /api/players/{username}`: an account's public profile.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    /// The player's id.
    pub id: String,
    /// The username.
    pub username: String,
    /// When the account was made (RFC 3339).
    pub joined: String,
    /// Ratings per variant played rated.
    pub ratings: BTreeMap<String, WireRating>,
    /// Results over all finished games (rated or not).
    pub results: Results,
    /// Micro-matches whose two games ended with a result.
    #[serde(default)]
    pub micro_matches: MatchResults,
    /// The latest finished games, newest first.
    pub recent: Vec<GameListItem>,
    /// Rating after each rated game, per variant, oldest first.
    pub history: BTreeMap<String, Vec<HistoryPoint>>,
}

/// A player's micro-matches: won, drawn (1–1), lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct MatchResults {
    /// Won.
    pub won: u32,
    /// Drawn.
    pub drawn: u32,
    /// Lost.
    pub lost: u32,
}

/// One row of a leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaderboardEntry {
    /// The username.
    pub username: String,
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation, rounded.
    pub rd: i32,
    /// Rated games in the variant.
    pub games: u32,
}

/// `GET /api/leaderboard/{variant}`: the established (non-provisional) accounts, best
/// first, at most 100; below them the provisional accounts with a rated game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The variant.
    pub variant: String,
    /// The players.
    pub players: Vec<LeaderboardEntry>,
    /// Accounts whose rating is provisional as of now (RD 110 or more) with at least one
    /// rated game in the variant, best first, at most 100: shown below the established
    /// ones, so that a small server's board is not empty for weeks (an addition).
    #[serde(default)]
    pub provisional: Vec<LeaderboardEntry>,
}

/// A player's rating before and after a rated game (rounded).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingDiff {
    /// Before.
    pub before: i32,
    /// After.
    pub after: i32,
    /// Whether the rating after the game is provisional (RD 110 or more), so that a
    /// player bar can show the new rating as the seat would ("1662?"). Sent in
    /// `game_over` (an addition); absent where the game's store keeps no RD (a replay).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
}

/// Both players' rating changes of a rated game (in `game_over`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRatings {
    /// White's.
    pub white: RatingDiff,
    /// Black's.
    pub black: RatingDiff,
}
