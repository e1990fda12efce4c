//! Stored games: `GET /api/games/{id}`, `GET /api/games/{id}/pdn`,
//! `GET /api/rooms/{room}/games`. Each is a public lookup ([`super::lookup`]): a token
//! of the address's budget, read through the store's lookups' pool.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::IntoResponse;
use damka_protocol::micro_match::MatchGame;
use damka_protocol::{ClockTimes, GameListItem, GameRecord, Options, Player, StoredMove};
use draughts::Variant;
use draughts::pdn::{self, PdnGame};
use serde::Deserialize;

use super::lookup::{self, failed};
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::session::ClientIp;
use crate::time::rfc3339;
use damka_store::{GameRow, GameTournament, MoveRow, Store};

/// Query of the recent-games list.
#[derive(Deserialize)]
pub struct RecentQuery {
    /// 1–100, default 20.
    limit: Option<i64>,
    /// The last game of the previous page: the page starts after it.
    before: Option<String>,
}

fn players(row: &GameRow) -> (Player, Player) {
    (
        crate::computer::stored_player(&row.white_id, &row.white_name),
        crate::computer::stored_player(&row.black_id, &row.black_name),
    )
}

fn ms(v: i64) -> u64 {
    u64::try_from(v).unwrap_or(0)
}

/// Recent finished games of a room, newest first, a page at a time (the next page:
/// `before` = the last game's id).
pub async fn recent(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(room): Path<String>,
    query: Result<Query<RecentQuery>, QueryRejection>,
) -> AppResult<Json<Vec<GameListItem>>> {
    let Query(q) = query.map_err(|e| AppError::BadMessage(e.body_text()))?;
    state.room(&room)?;
    let limit = lookup::page_size(q.limit, 20)?;
    let store = &lookup::admit(&state, ip)?;
    let before = lookup::cursor(store, q.before.as_deref()).await?;
    let games = store
        .recent_games(&room, before.as_ref(), limit)
        .await
        .map_err(failed)?;
    Ok(Json(
        games
            .iter()
            .map(|(g, plies)| super::players::list_item(g, *plies))
            .collect(),
    ))
}

/// A stored game's row and moves.
///
/// Fails with `not_found`, `429` when the lookups are busy, or a database error.
async fn stored(store: &Store, id: &str) -> AppResult<(GameRow, Vec<MoveRow>)> {
    let g = store
        .game(id)
        .await
        .map_err(failed)?
        .ok_or(AppError::NotFound("game"))?;
    let moves = store.moves(id).await.map_err(failed)?;
    Ok((g, moves))
}

/// A stored game with its moves.
pub async fn show(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
) -> AppResult<Json<GameRecord>> {
    let store = &lookup::admit(&state, ip)?;
    let (g, moves) = stored(store, &id).await?;
    let (white, black) = players(&g);
    let tournament = store
        .tournament_of_game(&id)
        .await
        .map_err(failed)?
        .map(|(id, round)| damka_protocol::TableTournament {
            id,
            round: u32::try_from(round).unwrap_or(0),
        });
    let ratings = if g.rated {
        game_ratings(store, &g).await?
    } else {
        None
    };
    Ok(Json(GameRecord {
        id: g.id.clone(),
        room: g.room.clone(),
        variant: g.variant.clone(),
        options: Options {
            minutes: u32::try_from(g.minutes).unwrap_or(0),
            increment: u32::try_from(g.increment_s).unwrap_or(0),
            days: g.days.and_then(|d| u32::try_from(d).ok()),
            random_opening: g.random_opening,
            ballot: crate::table::ballot::stored_choice(g.ballot.as_deref(), g.ballot_random),
            micro_match: g.micro_match.is_some(),
            capture_optional: g.capture_optional,
            bot: white.bot.or(black.bot),
            local: g.white_id == g.black_id,
            rated: g.rated,
            rating_range: None,
        },
        white,
        black,
        initial_fen: g.initial_fen.clone(),
        opening_plies: u32::try_from(g.opening_plies).unwrap_or(0),
        ballot: stored_ballot(&g).map(crate::table::ballot::shown),
        micro_match: g.micro_match.as_ref().map(|m| MatchGame {
            id: m.id.clone(),
            game: u8::try_from(m.game).unwrap_or(0),
        }),
        moves: moves
            .into_iter()
            .map(|m| StoredMove {
                ply: u32::try_from(m.ply).unwrap_or(0),
                mv: m.mv,
                fen: m.fen_after,
                clock: ClockTimes {
                    white: ms(m.white_ms),
                    black: ms(m.black_ms),
                },
                used_ms: ms(m.used_ms),
            })
            .collect(),
        result: g.result,
        reason: g.reason,
        started_at: rfc3339(g.started_at),
        ended_at: g.ended_at.map(rfc3339),
        tournament,
        ratings,
    }))
}

/// The opening ballot a stored game started from, if it did (and the data still has it).
fn stored_ballot(g: &GameRow) -> Option<&'static draughts::ballot::Ballot> {
    let variant = Variant::from_name(&g.variant)?;
    draughts::ballot::find(variant, g.ballot.as_deref()?)
}

/// A rated game's stored rating changes (rounded), if it has them.
///
/// Fails on a database error.
async fn game_ratings(
    store: &Store,
    g: &GameRow,
) -> AppResult<Option<damka_protocol::account::GameRatings>> {
    let changes = store.game_rating_changes(&g.id).await.map_err(failed)?;
    let diff = |id: &str| {
        changes
            .iter()
            .find(|(p, _, _)| p == id)
            .map(|(_, before, after)| damka_protocol::account::RatingDiff {
                before: crate::ratings::rounded(*before),
                after: crate::ratings::rounded(*after),
                provisional: None,
            })
    };
    Ok(diff(&g.white_id)
        .zip(diff(&g.black_id))
        .map(|(white, black)| damka_protocol::account::GameRatings { white, black }))
}

/// Query of a game's PDN.
#[derive(Deserialize)]
pub struct PdnQuery {
    /// With the analysis (when it is done): `?!`, `?`, `??` after judged moves and the
    /// evaluation after each move as a `{…}` comment.
    #[serde(default)]
    annotate: bool,
}

/// A stored game as PDN, written by the engine.
pub async fn pdn(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Path(id): Path<String>,
    query: Result<Query<PdnQuery>, QueryRejection>,
) -> AppResult<impl IntoResponse> {
    let Query(q) = query.map_err(|e| AppError::BadMessage(e.body_text()))?;
    let store = &lookup::admit(&state, ip)?;
    let (g, moves) = stored(store, &id).await?;
    let tournament = store
        .tournaments_of_games(std::slice::from_ref(&id))
        .await
        .map_err(failed)?
        .remove(&id);
    let record = pdn_record(&g, &moves, tournament.as_ref())?;
    let notes = if q.annotate {
        state
            .analyses
            .done_plies(&id)
            .await?
            .map(|plies| crate::analysis::annotations(&record, &plies))
    } else {
        None
    };
    let text = match notes {
        Some(notes) => pdn::write_annotated(&record, &notes),
        None => pdn::write(&record),
    };
    Ok((
        [
            (CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!("inline; filename=\"damka-{id}.pdn\""),
            ),
        ],
        text,
    ))
}

/// A stored game as a PDN record (its moves checked by the engine, its tags; a game of a
/// tournament names it and its round).
///
/// Fails when the stored game cannot be replayed.
pub fn pdn_record(
    g: &GameRow,
    moves: &[MoveRow],
    tournament: Option<&GameTournament>,
) -> AppResult<PdnGame> {
    let mut played = Vec::with_capacity(moves.len());
    let game = crate::replay::replay(g, moves, |_, mv, _| played.push(*mv))?;
    let mut record = PdnGame::new(game.initial().clone());
    record.moves = played;
    let date = rfc3339(g.started_at);
    match tournament {
        Some(t) => {
            let name = t
                .name
                .clone()
                .unwrap_or_else(|| format!("Damka tournament {}", t.id));
            record.set_tag("Event", name);
        }
        // A micro-match's two games: one event, rounds 1 and 2 (a tournament game is
        // never one).
        None => match &g.micro_match {
            Some(m) => record.set_tag("Event", format!("Damka micro-match {}", m.id)),
            None => record.set_tag("Event", "Damka"),
        },
    }
    record.set_tag("Site", format!("room {}, table {}", g.room, g.table_id));
    record.set_tag(
        "Date",
        date.get(..10).unwrap_or("????-??-??").replace('-', "."),
    );
    match (tournament, &g.micro_match) {
        (Some(t), _) => record.set_tag("Round", t.round.to_string()),
        (None, Some(m)) => record.set_tag("Round", m.game.to_string()),
        (None, None) => {}
    }
    record.set_tag("White", g.white_name.as_str());
    record.set_tag("Black", g.black_name.as_str());
    // A correspondence game has no time control in seconds: "-", as lichess writes it.
    let time_control = match g.days {
        Some(_) => "-".to_owned(),
        None => format!("{}+{}", g.minutes * 60, g.increment_s),
    };
    record.set_tag("TimeControl", time_control);
    // The ballot's name, as lidraughts names a game's opening (the writer adds `SetUp` and
    // `FEN`, the ballot's position).
    if let Some(b) = stored_ballot(g) {
        record.set_tag("Opening", b.name());
    }
    record.set_outcome(crate::replay::stored_outcome(g).as_ref());
    Ok(record)
}
