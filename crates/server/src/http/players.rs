//! Players' public pages over HTTP: `GET /api/players/{username}` (a profile),
//! `GET /api/players/{username}/games` (its games, a page at a time), its games as one
//! PDN (streamed), and `GET /api/leaderboard/{variant}`.
//!
//! Every one is a public lookup ([`super::lookup`]): a token of the address's budget, and
//! the store's lookups' pool, never the game path's connections. Each reads a bounded
//! number of rows through the indexes of a player's games (migration 0010), whatever the
//! player's number of games; the whole PDN is read and sent a page at a time.

use std::collections::BTreeMap;
use std::time::Duration;

use axum::Json;
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use damka_protocol::GameListItem;
use damka_protocol::account::{
    HistoryPoint, Leaderboard, LeaderboardEntry, MatchResults, Profile, Results,
};
use damka_store::{GameCursor, GameRow, Store, StoreError};
use draughts::Variant;
use serde::Deserialize;

use super::lookup::{self, failed};
use crate::accounts;
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::limits::StreamPermit;
use crate::session::ClientIp;
use crate::time::rfc3339;
use crate::{ratings, time};

/// Games listed on a profile.
const RECENT: i64 = 20;

/// Rating points kept for a profile's charts (all variants together).
const HISTORY: i64 = 2000;

/// Games of a player's PDN read and sent at a time (three queries: the games, their
/// moves, their tournaments).
const PDN_PAGE: i64 = 100;

/// How often a page of a PDN being sent waits for a lookups' connection, and how long
/// each time, before the download is cut off.
const PDN_BUSY_TRIES: u32 = 50;
const PDN_BUSY_WAIT: Duration = Duration::from_millis(100);

/// Players on a leaderboard.
const BOARD: usize = 100;

/// The enabled account of a username, or `404`.
///
/// Fails with `not_found`, `429` when the lookups are busy, or a database error.
async fn account_named(store: &Store, username: &str) -> AppResult<damka_store::AccountRow> {
    if accounts::check_username(username).is_err() {
        return Err(AppError::NotFound("player"));
    }
    store
        .account_by_key(&accounts::username_key(username))
        .await
        .map_err(failed)?
        .filter(|a| !a.disabled)
        .ok_or(AppError::NotFound("player"))
}

/// A finished game as a list shows it.
pub fn list_item(g: &GameRow, plies: i64) -> GameListItem {
    GameListItem {
        id: g.id.clone(),
        white: crate::computer::stored_player(&g.white_id, &g.white_name),
        black: crate::computer::stored_player(&g.black_id, &g.black_name),
        result: g.result,
        reason: g.reason,
        plies: u32::try_from(plies).unwrap_or(0),
        ended_at: g.ended_at.map(rfc3339),
        variant: g.variant.clone(),
    }
}

/// `GET /api/players/{username}`: an account's public profile (a guest has none).
pub async fn profile(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(username): Path<String>,
) -> AppResult<Json<Profile>> {
    let store = &lookup::admit(&state, ip)?;
    let account = account_named(store, &username).await?;
    let id = &account.player_id;
    let now = time::unix_ms();
    let ratings = store
        .ratings_of(id)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.variant.clone(), ratings::wire(r, now)))
        .collect();
    let counts = store.result_counts(id).await.map_err(failed)?;
    let matches = store.match_counts(id).await.map_err(failed)?;
    let n = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    let recent = store
        .games_of_player(id, None, RECENT)
        .await
        .map_err(failed)?
        .iter()
        .map(|(g, plies)| list_item(g, *plies))
        .collect();
    let mut history: BTreeMap<String, Vec<HistoryPoint>> = BTreeMap::new();
    for p in store.rating_history(id, HISTORY).await.map_err(failed)? {
        history.entry(p.variant).or_default().push(HistoryPoint {
            at: rfc3339(p.at),
            rating: ratings::rounded(p.after),
            game: Some(p.game_id),
        });
    }
    Ok(Json(Profile {
        id: id.clone(),
        username: account.username,
        joined: rfc3339(account.created_at),
        ratings,
        results: Results {
            wins: n(counts.wins),
            draws: n(counts.draws),
            losses: n(counts.losses),
            abandoned: n(counts.abandoned),
        },
        micro_matches: MatchResults {
            won: n(matches.won),
            drawn: n(matches.drawn),
            lost: n(matches.lost),
        },
        recent,
        history,
    }))
}

/// Query of a player's games.
#[derive(Deserialize)]
pub struct GamesQuery {
    /// The last game of the previous page: the page starts after it.
    before: Option<String>,
    /// 1–100, default 20.
    limit: Option<i64>,
}

/// `GET /api/players/{username}/games?before=&limit=`: an account's finished games,
/// newest first, a page at a time (the next page: `before` = the last game's id).
pub async fn games(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(username): Path<String>,
    query: Result<Query<GamesQuery>, QueryRejection>,
) -> AppResult<Json<Vec<GameListItem>>> {
    let Query(q) = query.map_err(|e| AppError::BadMessage(e.body_text()))?;
    let limit = lookup::page_size(q.limit, RECENT)?;
    let store = &lookup::admit(&state, ip)?;
    let account = account_named(store, &username).await?;
    let before = lookup::cursor(store, q.before.as_deref()).await?;
    let games = store
        .games_of_player(&account.player_id, before.as_ref(), limit)
        .await
        .map_err(failed)?;
    Ok(Json(
        games
            .iter()
            .map(|(g, plies)| list_item(g, *plies))
            .collect(),
    ))
}

/// `GET /api/players/{username}/pdn`: every finished game of the player as one PDN file,
/// newest first, streamed a page of 100 games at a time: a player with 100,000
/// games costs a thousand pages of three short queries each, one after the other as the
/// client reads, and never more than a page in memory. One download at a time per
/// address, `--pdn-downloads` in all.
pub async fn games_pdn(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(username): Path<String>,
) -> AppResult<Response> {
    let store = lookup::admit(&state, ip)?;
    let account = account_named(&store, &username).await?;
    let permit = state
        .core
        .limits
        .downloads
        .open(ip, 1, state.core.config.limits.pdn_downloads)
        .ok_or_else(|| {
            tracing::info!(%ip, "PDN download refused: too many at once");
            AppError::RetryAfter(5)
        })?;
    let pages = PdnPages {
        store,
        player: account.player_id,
        after: None,
        written: 0,
        done: false,
        _permit: permit,
    };
    // Fused: the compression layer polls a finished body once more (for trailers), and a
    // bare `unfold` panics when polled after its end (the browser saw the download cut
    // off: ERR_INCOMPLETE_CHUNKED_ENCODING).
    let body = Body::from_stream(futures_util::StreamExt::fuse(futures_util::stream::unfold(
        pages,
        PdnPages::next,
    )));
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"damka-{}.pdn\"", account.username),
            ),
        ],
        body,
    )
        .into_response())
}

/// A player's PDN being sent: where it is, and its place among the downloads.
struct PdnPages {
    /// The lookups' store.
    store: Store,
    /// Whose games.
    player: String,
    /// The last game sent.
    after: Option<GameCursor>,
    /// Games written so far.
    written: u64,
    /// Ended (by an error).
    done: bool,
    /// The download's place, given back when the response ends.
    _permit: StreamPermit,
}

/// Awaits a lookup, waiting for a connection again while they are all taken (a page of a
/// download under way is not refused like a new request: it waits its turn, a while).
macro_rules! patiently {
    ($lookup:expr) => {{
        let mut tries = 0;
        loop {
            match $lookup.await {
                Err(e) if e.is_busy() && tries < PDN_BUSY_TRIES => {
                    tries += 1;
                    tokio::time::sleep(PDN_BUSY_WAIT).await;
                }
                result => break result,
            }
        }
    }};
}

impl PdnPages {
    /// The next page's text, or `None` after the last.
    async fn next(mut self) -> Option<(Result<Bytes, std::io::Error>, PdnPages)> {
        if self.done {
            return None;
        }
        match self.page().await {
            Ok(Some(text)) => Some((Ok(Bytes::from(text)), self)),
            Ok(None) => None,
            Err(e) => {
                tracing::warn!(player = %self.player, written = self.written, error = %e, "a PDN download cut off");
                self.done = true;
                Some((Err(std::io::Error::other("the download was cut off")), self))
            }
        }
    }

    /// Reads and writes one page; `None` when no game is left.
    async fn page(&mut self) -> Result<Option<String>, StoreError> {
        let games = patiently!(self.store.games_of_player(
            &self.player,
            self.after.as_ref(),
            PDN_PAGE
        ))?;
        let Some((last, _)) = games.last() else {
            return Ok(None);
        };
        self.after = last.ended_at.map(|ended_at| GameCursor {
            ended_at,
            id: last.id.clone(),
        });
        let ids: Vec<String> = games.iter().map(|(g, _)| g.id.clone()).collect();
        let mut moves = patiently!(self.store.moves_of_games(&ids))?;
        let tournaments = patiently!(self.store.tournaments_of_games(&ids))?;
        let mut text = String::new();
        for (g, _) in &games {
            let moves = moves.remove(&g.id).unwrap_or_default();
            match super::games::pdn_record(g, &moves, tournaments.get(&g.id)) {
                Ok(record) => {
                    if self.written > 0 {
                        text.push('\n');
                    }
                    text.push_str(&draughts::pdn::write(&record));
                    self.written += 1;
                }
                // One unreadable game does not take the others with it.
                Err(e) => {
                    tracing::warn!(game = %g.id, error = %e, "a game left out of a PDN download")
                }
            }
        }
        if self.after.is_none() {
            // A listed game always has an end; without one there is no next page.
            self.done = true;
        }
        Ok(Some(text))
    }
}

/// `GET /api/leaderboard/{variant}`: established accounts (not provisional as of now),
/// best first, at most 100; then `provisional`, the provisional accounts with a rated
/// game, best first, at most 100.
pub async fn leaderboard(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(variant): Path<String>,
) -> AppResult<Json<Leaderboard>> {
    // A variant, or its correspondence rating (`russian_correspondence`).
    let (base, correspondence) = match variant.strip_suffix(ratings::CORRESPONDENCE) {
        Some(base) => (base, true),
        None => (variant.as_str(), false),
    };
    let v = Variant::from_name(base).ok_or(AppError::NotFound("variant"))?;
    let pool = ratings::pool(v, correspondence);
    let store = lookup::admit(&state, ip)?;
    let now = time::unix_ms();
    // Stored RDs only grow with time: read those under the line, then widen them to now
    // and drop who became provisional since.
    let rows = store
        .leaderboard(&pool, damka_rating::PROVISIONAL_RD, 3 * BOARD as i64)
        .await
        .map_err(failed)?;
    let below = store
        .provisional_board(&pool, damka_rating::PROVISIONAL_RD, BOARD as i64)
        .await
        .map_err(failed)?;
    let entry = |b: &damka_store::BoardRow| {
        let w = ratings::wire(&b.rating, now);
        let e = LeaderboardEntry {
            username: b.username.clone(),
            rating: w.rating,
            rd: w.rd,
            games: w.games,
        };
        (w.provisional, e)
    };
    let (mut provisional, established): (Vec<_>, Vec<_>) =
        rows.iter().map(entry).partition(|(p, _)| *p);
    let players = established
        .into_iter()
        .map(|(_, e)| e)
        .take(BOARD)
        .collect();
    // Below the line: the stored provisional ones, and those whose RD grew past the line
    // since their last game.
    provisional.extend(below.iter().map(entry));
    let mut provisional: Vec<LeaderboardEntry> = provisional.into_iter().map(|(_, e)| e).collect();
    provisional.sort_by(|a, b| {
        b.rating
            .cmp(&a.rating)
            .then_with(|| a.username.cmp(&b.username))
    });
    provisional.truncate(BOARD);
    Ok(Json(Leaderboard {
        variant: pool,
        players,
        provisional,
    }))
}
