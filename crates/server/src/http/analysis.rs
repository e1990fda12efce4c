//! Analysis: `POST`/`GET /api/games/{id}/analysis` (a finished game's job) and
//! `GET /api/analyse` (one position, the analysis board), and learning from an analysed
//! game's mistakes (`GET /api/games/{id}/mistakes`, `POST /api/games/{id}/mistakes/{ply}`).

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use damka_protocol::ErrorCode;
use damka_protocol::analysis::{
    AnalysisStatus, GameAnalysis, MistakePositions, MistakeTry, MistakeVerdict, PositionAnalysis,
};
use serde::Deserialize;

use crate::accounts::retry_after;
use crate::app::AppState;
use crate::computer::Who;
use crate::error::{AppError, AppResult};
use crate::limits::RateKey;
use crate::session::{ClientIp, Guest, MaybeGuest};

/// Burst of game analyses per address.
const GAMES_BURST_ADDRESS: f64 = 5.0;
/// Burst of game analyses per player.
const GAMES_BURST_PLAYER: f64 = 3.0;
/// Burst of analysis-board positions per address.
const POSITIONS_BURST: f64 = 20.0;

/// Asks for a finished game's analysis: `202 {"status"}`, the same job every time.
/// A new job counts against the address's and the player's limits (`429` with
/// `Retry-After`); asking about a job that exists does not.
pub async fn request(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    Path(id): Path<String>,
) -> AppResult<(StatusCode, Json<AnalysisStatus>)> {
    let config = &state.core.config;
    let limits = &state.core.limits;
    let take = || -> AppResult<()> {
        let per_address = config.analysis.game_analyses_per_hour / 3600.0;
        let per_player = config.analysis.game_analyses_per_player_hour / 3600.0;
        // Both looked at before either is taken: a refusal costs nothing.
        limits
            .game_analyses_from
            .check(ip, GAMES_BURST_ADDRESS, per_address)
            .map_err(retry_after)?;
        limits
            .game_analyses_of
            .take_or_wait(player.id.clone(), GAMES_BURST_PLAYER, per_player)
            .map_err(retry_after)?;
        limits
            .game_analyses_from
            .take_or_wait(ip, GAMES_BURST_ADDRESS, per_address)
            .map_err(retry_after)
    };
    let status = state
        .analyses
        .request(&id, &player, ip.addr(), take)
        .await?;
    Ok((StatusCode::ACCEPTED, Json(status)))
}

/// A game's analysis as it stands (`"status": "none"` when never asked for, `404` for an
/// unknown game).
pub async fn show(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<GameAnalysis>> {
    Ok(Json(state.analyses.show(&id).await?))
}

/// Takes a token of the address's analysis-board budget (`burst`, then
/// `--position-analyses-per-minute`): the board, a move tried instead of a mistake and a
/// pasted PDN share it. Returns who asks, for the search queue.
///
/// Fails with `429 rate_limited` (`Retry-After`) past it.
pub(super) fn board_budget(state: &AppState, ip: RateKey, burst: f64) -> AppResult<Who> {
    state
        .core
        .limits
        .analyses_from
        .take_or_wait(
            ip,
            burst,
            state.core.config.analysis.position_analyses_per_minute / 60.0,
        )
        .map_err(retry_after)?;
    Ok(Who {
        address: Some(ip.addr()),
        owner: ip.to_string(),
    })
}

/// Query of `GET /api/analyse`.
#[derive(Deserialize)]
pub struct PositionQuery {
    /// Variant id.
    variant: String,
    /// The position.
    fen: String,
}

/// One position's analysis (limited per address; refused with `409 in_game` to a person
/// playing a live game against another person or in a tournament, where it would be
/// engine help).
pub async fn position(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    MaybeGuest(asker): MaybeGuest,
    query: Result<Query<PositionQuery>, QueryRejection>,
) -> AppResult<Json<PositionAnalysis>> {
    let Query(q) = query.map_err(|e| AppError::BadMessage(e.body_text()))?;
    if let Some(asker) = &asker
        && state.core.rooms.in_live_game(&asker.id)
    {
        return Err(AppError::game(
            ErrorCode::InGame,
            "the analysis board is closed while you play a game",
        ));
    }
    if let Some(asker) = &asker {
        correspondence_check(&state, &asker.id, &q.variant, &q.fen).await?;
    }
    let who = board_budget(&state, ip, POSITIONS_BURST)?;
    Ok(Json(
        state.analyses.position(&q.variant, &q.fen, who).await?,
    ))
}

/// A position of a correspondence game the asker plays now (the game's position, or one
/// move from it) is not analysed while the game runs, as lichess forbids; any other
/// position is.
///
/// Fails with `409 in_game` for such a position, or a database error.
async fn correspondence_check(
    state: &AppState,
    asker: &str,
    variant: &str,
    fen: &str,
) -> AppResult<()> {
    let games = state.core.rooms.correspondence_games_of(asker);
    if games.is_empty() {
        return Ok(());
    }
    let Ok(v) = variant.parse::<draughts::Variant>() else {
        return Ok(());
    };
    let Ok(asked) = draughts::Position::from_fen(draughts::Rules::new(v), fen) else {
        return Ok(());
    };
    for (game, gv) in games {
        if gv != v {
            continue;
        }
        // The room's view of a table follows its events: a game that has just ended
        // (stored before its players are told) may still show as running there.
        if state
            .core
            .store
            .game(&game)
            .await?
            .is_some_and(|g| g.ended_at.is_some())
        {
            continue;
        }
        let Some(now) = state.core.store.last_fen(&game).await? else {
            continue;
        };
        let Ok(pos) = draughts::Position::from_fen(draughts::Rules::new(v), &now) else {
            continue;
        };
        let near = std::iter::once(pos.clone()).chain(
            pos.legal_moves()
                .iter()
                .filter_map(|m| pos.play(m).ok())
                .collect::<Vec<_>>(),
        );
        let same = |p: &draughts::Position| {
            p.turn() == asked.turn()
                && p.pieces(draughts::Color::White) == asked.pieces(draughts::Color::White)
                && p.pieces(draughts::Color::Black) == asked.pieces(draughts::Color::Black)
                && p.kings() == asked.kings()
        };
        if near.into_iter().any(|p| same(&p)) {
            return Err(AppError::game(
                ErrorCode::InGame,
                "your correspondence game is not analysed while it runs",
            ));
        }
    }
    Ok(())
}

/// An analysed game's mistakes and blunders, each with the position before it and its
/// legal moves ("learn from your mistakes"): a public lookup.
pub async fn mistakes(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
) -> AppResult<Json<MistakePositions>> {
    let store = super::lookup::admit(&state, ip)?;
    Ok(Json(state.analyses.mistakes(&store, &id).await?))
}

/// Judges a move tried instead of a mistake: a token of the address's analysis-board
/// budget (two searches at most).
pub async fn try_instead(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path((id, ply)): Path<(String, u32)>,
    body: Result<Json<MistakeTry>, JsonRejection>,
) -> AppResult<Json<MistakeVerdict>> {
    let Json(body) = body.map_err(|e| AppError::BadMessage(e.body_text()))?;
    let who = board_budget(&state, ip, POSITIONS_BURST)?;
    Ok(Json(
        state.analyses.try_instead(&id, ply, &body.mv, who).await?,
    ))
}
