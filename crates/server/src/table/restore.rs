//! Start-up: every unfinished game is replayed from the store and its table recreated
//! (same id, room, players and seats) with the clocks as stored. The downtime is charged
//! to nobody, and neither is the time the players need to come back: the clock (or the
//! first-move window, with what was left of it at a graceful shutdown) is held until both
//! players are connected again, or until the restart grace has passed.
//!
//! A game whose stored moves already end it (its end was never stored) is marked over
//! with that result, never resumed.
//!
//! A micro-match comes back with its table: during its second game with the first
//! game's result, and between its games (a first game over, not aborted, and no second
//! game stored) as a table in the break, the first game shown over, the break started
//! again.

use std::sync::Arc;

use damka_protocol::table::PlayedMove;
use damka_protocol::{ClockTimes, Options, TableTournament};
use draughts::clock::Clock;
use draughts::{ByColor, Color, Outcome, Variant};

use super::game::{Hold, LiveGame, Phase, to_u64};
use super::offers::{Offers, stored_side};
use super::registry::{TableSeed, Tables};
use crate::core::Core;
use damka_store::{DrawOfferRow, GameRow, MoveRow};

/// Recreates the tables of all unfinished games; returns how many.
///
/// Fails only if the store cannot be read; a game that cannot be replayed is logged and
/// marked aborted.
pub async fn restore_tables(tables: &Arc<Tables>) -> Result<usize, damka_store::StoreError> {
    let rows = tables.core().store.unfinished_games().await?;
    let rows = park_waiting(tables, rows);
    let restored = restore_rows(tables, rows, None, None).await?;
    let breaks = tables.core().store.matches_in_break().await?;
    Ok(restored + restore_breaks(tables, breaks, None).await?)
}

/// In a cluster: recreates the tables this node now owns (`epochs`: table id → the
/// epoch of its lease) that have an unfinished game; returns how many, and the tables
/// that have none (nothing to restore).
///
/// Fails only if the store cannot be read.
pub async fn restore_owned(
    tables: &Arc<Tables>,
    epochs: &std::collections::HashMap<String, i64>,
) -> Result<(usize, Vec<String>), damka_store::StoreError> {
    let rows: Vec<GameRow> = tables
        .core()
        .store
        .unfinished_games()
        .await?
        .into_iter()
        .filter(|r| epochs.contains_key(&r.table_id))
        .collect();
    let breaks: Vec<GameRow> = tables
        .core()
        .store
        .matches_in_break()
        .await?
        .into_iter()
        .filter(|r| epochs.contains_key(&r.table_id))
        .collect();
    let idle = epochs
        .keys()
        .filter(|t| !rows.iter().chain(&breaks).any(|r| &r.table_id == *t))
        .cloned()
        .collect();
    let restored = restore_rows(tables, rows, Some(epochs), None).await?;
    let restored = restored + restore_breaks(tables, breaks, Some(epochs)).await?;
    Ok((restored, idle))
}

/// Parks the correspondence games in progress among `rows` (when tables are parked
/// here) straight from their rows, their clocks running from now on (a restart charges
/// nothing); returns the rows to restore the full way.
fn park_waiting(tables: &Tables, rows: Vec<GameRow>) -> Vec<GameRow> {
    if tables.parking().is_none() {
        return rows;
    }
    let now = tables.core().time.now_ms();
    let mut rest = Vec::new();
    let mut parked = 0;
    for row in rows {
        match super::parked::due_from_row(&row) {
            Some(due) => {
                let p = super::parked::Parked {
                    game: row.id.clone(),
                    since: now,
                    due: now + due,
                };
                tables.park_at_start(&row.table_id, p);
                parked += 1;
            }
            None => rest.push(row),
        }
    }
    if parked > 0 {
        tracing::info!(parked, "correspondence games parked until opened or due");
    }
    rest
}

/// Loads a parked table again: its game restored from the store, its clock running
/// from when it was parked. Returns whether the table runs (not if its game has ended).
///
/// Fails only if the store cannot be read.
pub(super) async fn reload(
    tables: &Arc<Tables>,
    id: &str,
    parked: &super::parked::Parked,
) -> Result<bool, damka_store::StoreError> {
    let Some(row) = tables.core().store.game(&parked.game).await? else {
        return Ok(false);
    };
    if row.status == damka_protocol::GameStatus::Over || row.table_id != id {
        return Ok(false);
    }
    Ok(restore_rows(tables, vec![row], None, Some(parked.since)).await? > 0)
}

/// Restores `rows`; `resume_from`: a parked table's game, whose clock runs from then
/// (server ms) instead of waiting for its players.
async fn restore_rows(
    tables: &Arc<Tables>,
    rows: Vec<GameRow>,
    epochs: Option<&std::collections::HashMap<String, i64>>,
    resume_from: Option<u64>,
) -> Result<usize, damka_store::StoreError> {
    let state = tables.core();
    let now = state.time.now_ms();
    let mut restored = 0;
    for row in rows {
        let moves = state.store.moves(&row.id).await?;
        let offer = state.store.draw_offer(&row.id).await?;
        // A tournament game's table reports its end to the tournament, restored or not.
        let tournament = stored_tournament(state, &row.id).await?;
        let Some(room) = state.rooms.get(&row.room).cloned() else {
            abandon(state, &row, "its room no longer exists").await;
            report(tables, tournament.as_ref(), &row.id, None);
            continue;
        };
        if tables.get(&row.table_id).is_some() {
            if epochs.is_some() {
                // Taken over twice (a hand-over and a reap): it runs here already.
                tracing::info!(table = %row.table_id, "table taken over already runs here");
                continue;
            }
            abandon(state, &row, "its table already has another unfinished game").await;
            report(tables, tournament.as_ref(), &row.id, None);
            continue;
        }
        let first_move = state.store.first_move_ms(&row.id).await?;
        // A correspondence game's first move has the period, like any other.
        let period_ms = row.days.map(|d| to_u64(d).saturating_mul(86_400_000));
        let timing = Timing {
            now,
            window_ms: period_ms.unwrap_or(state.config.first_move_window().as_millis() as u64),
            grace_ms: state.config.restart_grace().as_millis() as u64,
            first_move_left: first_move.map(to_u64),
        };
        let mut game = match replay(&row, &moves, &offer, &timing, false) {
            Ok(Replayed::Playing(mut g)) => {
                if row.rated {
                    show_rated(
                        state,
                        &mut g.players,
                        room.config.variant,
                        row.days.is_some(),
                    )
                    .await;
                }
                // Prepared replies still for this position (a crash between a move and
                // its reply leaves them a ply behind: dropped, the player moves).
                if row.days.is_some() {
                    g.conditional = state
                        .store
                        .conditional(&row.id)
                        .await?
                        .and_then(|text| super::conditional::Conditional::from_json(&text))
                        .filter(|c| c.ply == g.ply() && g.position().turn() != c.by);
                }
                *g
            }
            Ok(Replayed::Over(outcome)) => {
                finish_ended(state, &row, &moves, outcome).await;
                report(tables, tournament.as_ref(), &row.id, Some(outcome));
                continue;
            }
            Err(why) => {
                abandon(state, &row, &why).await;
                report(tables, tournament.as_ref(), &row.id, None);
                continue;
            }
        };
        // A parked table's clock ran while it was parked.
        if let Some(since) = resume_from {
            game.release(since);
        }
        let micro = match &row.micro_match {
            Some(slot) => stored_match(state, &slot.id, room.config.variant, 0).await?,
            None => None,
        };
        let seed = TableSeed {
            id: row.table_id.clone(),
            room,
            options: stored_options(&row),
            seats: game.players.clone().map(Some),
            game: Some(game),
            chat: table_chat(state, &row.table_id).await?,
            tournament: tournament.clone(),
            micro,
            epoch: epochs.and_then(|e| e.get(&row.table_id).copied()),
            creator_ip: None,
        };
        match tables.insert_restored(seed) {
            Ok(()) => restored += 1,
            Err(e) => {
                abandon(state, &row, &e.to_string()).await;
                report(tables, tournament.as_ref(), &row.id, None);
            }
        }
    }
    Ok(restored)
}

/// Recreates the tables of the micro-matches between their two games (`rows`: their
/// first games): the first game shown over, the break started again; returns how many.
///
/// Fails only if the store cannot be read; a match that cannot be resumed is logged and
/// left (its table is not recreated).
async fn restore_breaks(
    tables: &Arc<Tables>,
    rows: Vec<GameRow>,
    epochs: Option<&std::collections::HashMap<String, i64>>,
) -> Result<usize, damka_store::StoreError> {
    let state = tables.core();
    let now = state.time.now_ms();
    let until = now + state.config.match_break().as_millis() as u64;
    let mut restored = 0;
    for row in rows {
        let Some(room) = state.rooms.get(&row.room).cloned() else {
            tracing::warn!(game = %row.id, "a micro-match's room no longer exists");
            continue;
        };
        if tables.get(&row.table_id).is_some() {
            tracing::info!(table = %row.table_id, "a micro-match's table already runs");
            continue;
        }
        let moves = state.store.moves(&row.id).await?;
        let timing = Timing {
            now,
            window_ms: 0,
            grace_ms: 0,
            first_move_left: None,
        };
        let mut game = match replay(&row, &moves, &DrawOfferRow::default(), &timing, true) {
            Ok(Replayed::Playing(g)) => *g,
            Ok(Replayed::Over(_)) => continue,
            Err(why) => {
                tracing::error!(game = %row.id, why, "cannot resume a micro-match");
                continue;
            }
        };
        let Some(outcome) = crate::replay::stored_outcome(&row) else {
            tracing::error!(game = %row.id, "a micro-match's first game is over with no reason stored");
            continue;
        };
        game.end(outcome.winner, outcome.reason, now);
        if row.rated {
            show_rated(state, &mut game.players, room.config.variant, false).await;
        }
        let micro = stored_match(state, &row.id, room.config.variant, until).await?;
        // A tournament's micro-match: its second game is the tournament's too.
        let tournament = stored_tournament(state, &row.id).await?;
        let seed = TableSeed {
            id: row.table_id.clone(),
            room,
            options: stored_options(&row),
            seats: game.players.clone().map(Some),
            game: Some(game),
            chat: table_chat(state, &row.table_id).await?,
            tournament,
            micro,
            epoch: epochs.and_then(|e| e.get(&row.table_id).copied()),
            creator_ip: None,
        };
        match tables.insert_restored(seed) {
            Ok(()) => restored += 1,
            Err(e) => tracing::error!(error = %e, game = %row.id, "cannot resume a micro-match"),
        }
    }
    Ok(restored)
}

/// The tournament and round game `game_id` belongs to, as stored, if any.
///
/// Fails only if the store cannot be read.
async fn stored_tournament(
    state: &Core,
    game_id: &str,
) -> Result<Option<TableTournament>, damka_store::StoreError> {
    Ok(state
        .store
        .tournament_of_game(game_id)
        .await?
        .map(|(id, round)| TableTournament {
            id,
            round: u32::try_from(round).unwrap_or(0),
        }))
}

/// The micro-match whose first game is `match_id`, as stored (`until`: when its break,
/// if it is in it, ends).
///
/// Fails only if the store cannot be read.
async fn stored_match(
    state: &Core,
    match_id: &str,
    variant: Variant,
    until: u64,
) -> Result<Option<super::micro_match::MicroMatch>, damka_store::StoreError> {
    let rows = state.store.match_games(match_id).await?;
    let first_moves: Vec<String> = state
        .store
        .moves(match_id)
        .await?
        .into_iter()
        .map(|m| m.mv)
        .collect();
    Ok(super::micro_match::MicroMatch::restored(
        &rows,
        &first_moves,
        until,
        variant,
    ))
}

/// A rated game's players are accounts: shown so, with their ratings.
async fn show_rated(
    state: &Core,
    players: &mut ByColor<damka_protocol::Player>,
    variant: Variant,
    correspondence: bool,
) {
    for p in [&mut players.white, &mut players.black] {
        p.account = true;
        match crate::ratings::shown_in(state, p.clone(), variant, correspondence).await {
            Ok(shown) => *p = shown,
            Err(e) => tracing::warn!(error = %e, "a restored player's rating"),
        }
    }
}

/// The options of the table a stored game was played at.
fn stored_options(row: &GameRow) -> Options {
    Options {
        minutes: u32::try_from(row.minutes).unwrap_or(1),
        increment: u32::try_from(row.increment_s).unwrap_or(0),
        days: row.days.and_then(|d| u32::try_from(d).ok()),
        random_opening: row.random_opening,
        ballot: super::ballot::stored_choice(row.ballot.as_deref(), row.ballot_random),
        micro_match: row.micro_match.is_some(),
        capture_optional: row.capture_optional,
        bot: crate::computer::level_of_id(&row.white_id)
            .or_else(|| crate::computer::level_of_id(&row.black_id))
            .map(bot::Level::number),
        local: row.white_id == row.black_id,
        rated: row.rated,
        rating_range: None,
    }
}

/// A table's last chat messages.
///
/// Fails only if the store cannot be read.
async fn table_chat(
    state: &Core,
    table_id: &str,
) -> Result<Vec<damka_protocol::ChatMessage>, damka_store::StoreError> {
    Ok(state
        .store
        .chat_history(&format!("table:{table_id}"), crate::chat::HISTORY as i64)
        .await?
        .iter()
        .map(crate::chat::message)
        .collect())
}

/// Tells a tournament how its game ended during the restore (`None`: aborted). The
/// tournament also reads its games' ends from the store when it is restored, so this
/// only matters for a tournament already running.
fn report(
    tables: &Tables,
    tournament: Option<&TableTournament>,
    game: &str,
    outcome: Option<Outcome>,
) {
    let Some(t) = tournament else {
        return;
    };
    let (result, reason) = match &outcome {
        Some(o) => (super::game::result_of(o), super::game::reason_of(o)),
        None => (None, damka_protocol::EndReason::Aborted),
    };
    tables.report(super::registry::GameReport {
        tournament: t.id.clone(),
        round: t.round,
        game: game.to_owned(),
        result,
        reason: reason.as_str().to_owned(),
    });
}

/// Marks a game that cannot be resumed as aborted, so it is not retried forever.
async fn abandon(state: &Core, row: &GameRow, why: &str) {
    tracing::error!(game = %row.id, why, "cannot resume a game; marking it aborted");
    let end = damka_store::GameEnd {
        result: None,
        reason: damka_protocol::EndReason::Aborted,
        clock: row.clock,
        ended_at: crate::time::unix_ms(),
        rated: None,
    };
    if let Err(e) = state.store.finish_game(&row.id, end).await {
        tracing::error!(error = %e, game = %row.id, "cannot mark the game aborted");
    }
}

/// Stores the end of a game whose last stored move ended it, so it is never resumed.
async fn finish_ended(state: &Core, row: &GameRow, moves: &[MoveRow], outcome: Outcome) {
    tracing::warn!(game = %row.id, "the stored moves end the game: storing its end");
    let clock = moves.last().map_or(row.clock, |m| damka_store::ClockRow {
        white_ms: m.white_ms,
        black_ms: m.black_ms,
        ply: m.ply,
    });
    let pool = match Variant::from_name(&row.variant) {
        Some(v) => crate::ratings::pool(v, row.days.is_some()),
        None => row.variant.clone(),
    };
    let rated = row
        .rated
        .then(|| damka_store::RatedEnd::new(&pool, &row.white_id, &row.black_id));
    let end = super::game::game_end(&outcome, clock, rated, crate::time::unix_ms());
    if let Err(e) = state.store.finish_game(&row.id, end).await {
        tracing::error!(error = %e, game = %row.id, "cannot store the end of the game");
    }
}

/// The times a replayed game starts from.
struct Timing {
    /// Server ms at start-up.
    now: u64,
    /// The first-move window, ms.
    window_ms: u64,
    /// The restart grace, ms.
    grace_ms: u64,
    /// What was left of the first-move window at a graceful shutdown.
    first_move_left: Option<u64>,
}

/// A replayed game.
enum Replayed {
    /// Still being played.
    Playing(Box<LiveGame>),
    /// The stored moves end it.
    Over(Outcome),
}

/// Replays the stored moves of a game (`over`: a game whose end is stored, replayed to
/// be shown, never [`Replayed::Over`]).
fn replay(
    row: &GameRow,
    moves: &[MoveRow],
    offer: &DrawOfferRow,
    t: &Timing,
    over: bool,
) -> Result<Replayed, String> {
    let (variant, _) = crate::replay::rules_of(row).map_err(|e| e.to_string())?;
    let mut played = Vec::with_capacity(moves.len());
    // Who made each ply, to tell whether a stored draw offer was declined by a move.
    let mut movers = Vec::with_capacity(moves.len());
    let game = crate::replay::replay(row, moves, |before, mv, m| {
        movers.push(before.position().turn());
        played.push(PlayedMove {
            ply: u32::try_from(m.ply).unwrap_or(0),
            mv: m.mv.clone(),
            captures: mv.captures().map(|sq| variant.square_name(sq)).collect(),
            clock: ClockTimes {
                white: to_u64(m.white_ms),
                black: to_u64(m.black_ms),
            },
        });
    })
    .map_err(|e| e.to_string())?;
    if let Some(outcome) = game.outcome().filter(|_| !over) {
        return Ok(Replayed::Over(outcome));
    }
    let initial_ms = to_u64(row.minutes) * 60_000;
    let increment_ms = to_u64(row.increment_s) * 1000;
    // The newest clock: the shutdown snapshot if it is as recent as the last move.
    let last_ply = moves.last().map_or(0, |m| m.ply);
    let (white_ms, black_ms) = match moves.last() {
        Some(m) if m.ply > row.clock.ply => (m.white_ms, m.black_ms),
        _ => (row.clock.white_ms, row.clock.black_ms),
    };
    let opening_plies = u32::try_from(row.opening_plies).unwrap_or(0);
    let ply = u32::try_from(last_ply).unwrap_or(0);
    let control = match row.days {
        Some(days) => Clock::per_move(to_u64(days).saturating_mul(86_400_000)),
        None => Clock::new(initial_ms, increment_ms),
    };
    let mut clock = control.with_times(to_u64(white_ms), to_u64(black_ms));
    let both_moved = ply >= opening_plies + 2;
    if both_moved {
        // Held (paused) until the players are back: `LiveGame::release` resumes it.
        clock.start(game.position().turn(), t.now);
        clock.pause(t.now);
    }
    // The first-move window keeps what was left of it at a graceful shutdown (a stored
    // snapshot as recent as the last move); after a crash it is unknown: a whole window.
    let first_move_held = (!both_moved).then(|| match t.first_move_left {
        Some(left) if row.clock.ply >= last_ply => left.min(t.window_ms),
        _ => t.window_ms,
    });
    Ok(Replayed::Playing(Box::new(LiveGame {
        id: row.id.clone(),
        players: ByColor {
            white: crate::computer::stored_player(&row.white_id, &row.white_name),
            black: crate::computer::stored_player(&row.black_id, &row.black_name),
        },
        initial_fen: row.initial_fen.clone(),
        opening_plies,
        ballot: row
            .ballot
            .as_deref()
            .and_then(|id| draughts::ballot::find(variant, id)),
        game,
        clock,
        moves: played,
        phase: Phase::Held {
            why: Hold::Restart {
                until: t.now + t.grace_ms,
            },
            window_left: first_move_held,
        },
        offers: Offers::restored(offer, standing_offer(offer, &movers)),
        first_move_ms: t.window_ms,
        started_at: row.started_at,
        lag_ms: ByColor::default(),
        rated: row.rated,
        conditional: None,
    })))
}

/// The stored offer if it still stands: the other side has not moved since it was made
/// (its move would have declined it).
fn standing_offer(offer: &DrawOfferRow, movers: &[Color]) -> Option<Color> {
    let by = stored_side(offer)?;
    let made_at = match by {
        Color::White => offer.white_offer_ply,
        Color::Black => offer.black_offer_ply,
    };
    let made_at = usize::try_from(made_at?).ok()?;
    let since = movers.get(made_at..)?;
    (!since.contains(&by.other())).then_some(by)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(by: &str, white: Option<i64>, black: Option<i64>) -> DrawOfferRow {
        DrawOfferRow {
            draw_offer: damka_protocol::Side::from_name(by),
            white_offer_ply: white,
            black_offer_ply: black,
        }
    }

    #[test]
    fn an_offer_stands_until_the_other_side_moves() {
        use Color::{Black, White};
        let movers = [White, Black, White, Black, White];
        // White offered after 4 plies and then moved: still standing.
        let o = stored("white", Some(4), None);
        assert_eq!(standing_offer(&o, &movers), Some(White));
        // Offered after 3 plies (on Black's turn): Black's move at ply 4 declined it.
        let o = stored("white", Some(3), None);
        assert_eq!(standing_offer(&o, &movers), None);
        // Black offered after all 5 plies: nobody has moved since.
        let o = stored("black", None, Some(5));
        assert_eq!(standing_offer(&o, &movers), Some(Black));
        // Nothing stored, a ply beyond the moves, or a bad side: no offer.
        assert_eq!(standing_offer(&DrawOfferRow::default(), &movers), None);
        let o = stored("black", None, Some(9));
        assert_eq!(standing_offer(&o, &movers), None);
        let o = stored("green", Some(4), Some(4));
        assert_eq!(standing_offer(&o, &movers), None);
    }
}
