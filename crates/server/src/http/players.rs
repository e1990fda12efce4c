//! Players' public pages over HTTP: `GET /api/players/{username}` (a profile), its games
//! as one PDN, and `GET /api/leaderboard/{variant}`.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use damka_protocol::GameListItem;
use damka_protocol::account::{HistoryPoint, Leaderboard, LeaderboardEntry, Profile, Results};
use draughts::Variant;

use crate::accounts;
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::time::rfc3339;
use crate::{ratings, time};

/// Games listed on a profile.
const RECENT: i64 = 20;

/// Rating points kept for a profile's charts (all variants together).
const HISTORY: i64 = 2000;

/// Games in a player's PDN download, newest first.
const PDN_GAMES: i64 = 1000;

/// Players on a leaderboard.
const BOARD: usize = 100;

/// The enabled account of a username, or `404`.
///
/// Fails with `not_found` or a database error.
async fn account_named(state: &AppState, username: &str) -> AppResult<damka_store::AccountRow> {
    if accounts::check_username(username).is_err() {
        return Err(AppError::NotFound("player"));
    }
    state
        .core
        .store
        .account_by_key(&accounts::username_key(username))
        .await?
        .filter(|a| !a.disabled)
        .ok_or(AppError::NotFound("player"))
}

/// `GET /api/players/{username}`: an account's public profile (a guest has none).
pub async fn profile(
    State(state): State<AppState>,
    Path(username): Path<String>,
) -> AppResult<Json<Profile>> {
    let account = account_named(&state, &username).await?;
    let store = &state.core.store;
    let id = &account.player_id;
    let now = time::unix_ms();
    let ratings = store
        .ratings_of(id)
        .await?
        .iter()
        .map(|r| (r.variant.clone(), ratings::wire(r, now)))
        .collect();
    let counts = store.result_counts(id).await?;
    let n = |v: i64| u32::try_from(v).unwrap_or(u32::MAX);
    let recent = store
        .games_of_player(id, RECENT)
        .await?
        .into_iter()
        .map(|(g, plies)| GameListItem {
            id: g.id.clone(),
            white: crate::bots::stored_player(&g.white_id, &g.white_name),
            black: crate::bots::stored_player(&g.black_id, &g.black_name),
            result: g.result,
            reason: g.reason,
            plies: u32::try_from(plies).unwrap_or(0),
            ended_at: g.ended_at.map(rfc3339),
            variant: g.variant.clone(),
        })
        .collect();
    let mut history: BTreeMap<String, Vec<HistoryPoint>> = BTreeMap::new();
    for p in store.rating_history(id, HISTORY).await? {
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
        recent,
        history,
    }))
}

/// `GET /api/players/{username}/pdn`: the player's finished games (the latest 1,000) as
/// one PDN file, newest first.
pub async fn games_pdn(
    State(state): State<AppState>,
    Path(username): Path<String>,
) -> AppResult<impl IntoResponse> {
    let account = account_named(&state, &username).await?;
    let store = &state.core.store;
    let mut text = String::new();
    for (g, _) in store.games_of_player(&account.player_id, PDN_GAMES).await? {
        let moves = store.moves(&g.id).await?;
        match super::games::pdn_record(&state, &g, &moves).await {
            Ok(record) => {
                if !text.is_empty() {
                    text.push('\n');
                }
                text.push_str(&draughts::pdn::write(&record));
            }
            // One unreadable game does not take the others with it.
            Err(e) => tracing::warn!(game = %g.id, error = %e, "a game left out of a PDN download"),
        }
    }
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("attachment; filename=\"damka-{}.pdn\"", account.username),
            ),
        ],
        text,
    ))
}

/// `GET /api/leaderboard/{variant}`: established accounts (not provisional as of now),
/// best first, at most 100.
pub async fn leaderboard(
    State(state): State<AppState>,
    Path(variant): Path<String>,
) -> AppResult<Json<Leaderboard>> {
    let v = Variant::from_name(&variant).ok_or(AppError::NotFound("variant"))?;
    let now = time::unix_ms();
    // Stored RDs only grow with time: read those under the line, then widen them to now
    // and drop who became provisional since.
    let rows = state
        .core
        .store
        .leaderboard(v.name(), damka_rating::PROVISIONAL_RD, 3 * BOARD as i64)
        .await?;
    let players = rows
        .iter()
        .filter_map(|b| {
            let w = ratings::wire(&b.rating, now);
            (!w.provisional).then(|| LeaderboardEntry {
                username: b.username.clone(),
                rating: w.rating,
                rd: w.rd,
                games: w.games,
            })
        })
        .take(BOARD)
        .collect();
    Ok(Json(Leaderboard {
        variant: v.name().to_owned(),
        players,
    }))
}
