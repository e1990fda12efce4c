//! The puzzle endpoints (docs/protocol.md "Puzzles"; the puzzles in
//! [`crate::puzzles`]): `GET /api/puzzles`, `GET /api/puzzles/next`, `GET /api/puzzles/daily`,
//! `GET /api/puzzles/{id}`, `POST /api/puzzles/{id}/move`, `POST /api/puzzles/{id}/result`.
//! Each takes a token of the address's puzzle budget: a burst of 60, then 4 a second.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Path, Query, State};
use draughts::Variant;
use serde::Deserialize;

use crate::accounts::retry_after;
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::limits::RateKey;
use crate::puzzles::{MoveAnswer, PuzzleView, ResultAnswer, VariantPuzzles};
use crate::session::{ClientIp, Guest};

/// An address's burst of puzzle requests.
const BURST: f64 = 60.0;
/// Then this many a second.
const PER_SECOND: f64 = 4.0;

fn admit(state: &AppState, ip: RateKey) -> AppResult<()> {
    state
        .core
        .limits
        .puzzles_from
        .take_or_wait(ip, BURST, PER_SECOND)
        .map_err(retry_after)
}

fn body<T>(json: Result<Json<T>, JsonRejection>) -> AppResult<T> {
    json.map(|Json(t)| t)
        .map_err(|e| AppError::BadMessage(e.body_text()))
}

/// How many puzzles each variant has, and of each theme.
pub async fn counts(State(state): State<AppState>) -> Json<Vec<VariantPuzzles>> {
    Json(state.puzzles.counts())
}

/// `?variant=V[&theme=T]`.
#[derive(Debug, Deserialize)]
pub struct Which {
    variant: String,
    theme: Option<String>,
}

fn variant(name: &str) -> AppResult<Variant> {
    name.parse()
        .map_err(|_| AppError::BadMessage(format!("unknown variant {name:?}")))
}

/// The next puzzle for the asker (never one they played, near their puzzle rating).
///
/// Fails with `404 not_found` when they played every one (of the theme).
pub async fn next(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    Query(q): Query<Which>,
) -> AppResult<Json<PuzzleView>> {
    admit(&state, ip)?;
    let v = variant(&q.variant)?;
    let seed = crate::random::u64();
    Ok(Json(
        state
            .puzzles
            .next(&state.core, &player, v, q.theme.as_deref(), seed)
            .await?,
    ))
}

/// `?variant=V`.
#[derive(Debug, Deserialize)]
pub struct Daily {
    variant: String,
}

/// A streak: its puzzles, easiest first.
#[derive(Debug, serde::Serialize)]
pub struct Streak {
    /// Variant id.
    pub variant: String,
    /// The puzzles' ids in the order to play them.
    pub puzzles: Vec<String>,
}

/// A puzzle streak of a variant (unrated): puzzles of rising ratings, one from each band
/// of the pool, drawn anew for each request.
///
/// Fails with `404 not_found` for a variant without puzzles.
pub async fn streak(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<Daily>,
) -> AppResult<Json<Streak>> {
    admit(&state, ip)?;
    let v = variant(&q.variant)?;
    let puzzles = state.puzzles.streak(v, crate::random::u64());
    if puzzles.is_empty() {
        return Err(AppError::NotFound("puzzle"));
    }
    Ok(Json(Streak {
        variant: v.name().to_owned(),
        puzzles,
    }))
}

/// The day's puzzle of a variant (UTC), the same for everyone.
///
/// Fails with `404 not_found` for a variant without puzzles.
pub async fn daily(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Query(q): Query<Daily>,
) -> AppResult<Json<PuzzleView>> {
    admit(&state, ip)?;
    let v = variant(&q.variant)?;
    let day = crate::time::unix_ms().div_euclid(86_400_000);
    let e = state
        .puzzles
        .catalog
        .daily(v, day)
        .ok_or(AppError::NotFound("puzzle"))?;
    Ok(Json(state.puzzles.view(e)?))
}

/// One puzzle (a link to it).
pub async fn show(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
) -> AppResult<Json<PuzzleView>> {
    admit(&state, ip)?;
    let e = state
        .puzzles
        .entry(&id)
        .ok_or(AppError::NotFound("puzzle"))?;
    Ok(Json(state.puzzles.view(&e)?))
}

/// `POST /api/puzzles/{id}/move` body.
#[derive(Debug, Deserialize)]
pub struct Moves {
    moves: Vec<String>,
}

/// The solver's moves so far.
pub async fn play(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    Path(id): Path<String>,
    json: Result<Json<Moves>, JsonRejection>,
) -> AppResult<Json<MoveAnswer>> {
    let req = body(json)?;
    admit(&state, ip)?;
    Ok(Json(state.puzzles.play(&player.id, &id, &req.moves)?))
}

/// `POST /api/puzzles/{id}/result` body.
#[derive(Debug, Deserialize)]
pub struct Outcome {
    solved: bool,
}

/// The first try's result: the puzzle rating before and after, and the solution.
pub async fn result(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    Path(id): Path<String>,
    json: Result<Json<Outcome>, JsonRejection>,
) -> AppResult<Json<ResultAnswer>> {
    let req = body(json)?;
    admit(&state, ip)?;
    Ok(Json(
        state
            .puzzles
            .result(&state.core, &player, &id, req.solved)
            .await?,
    ))
}
