//! Creating a tournament: the request checked against the limits, stored, then its
//! actor started and the room told.

use std::net::IpAddr;
use std::sync::Arc;

use damka_protocol::Player;
use damka_protocol::tournament::{CreateTournament, TournamentKind, TournamentView};

use super::Tournaments;
use super::model::{MIN_PLAYERS, Settings, Tournament};
use crate::error::AppError;
use crate::room::Room;
use damka_store::{TournamentRow, TournamentWrite};

/// Open or running tournaments one guest may have created at once.
pub const PER_GUEST: usize = 2;

/// Open or running tournaments in one room at once.
pub const PER_ROOM: usize = 20;

/// Checks a creation request; a set start may be at most `open_secs` away (an open
/// tournament that has not started by then is cancelled).
///
/// Fails with `invalid_options`.
pub fn validate(req: &CreateTournament, now: i64, open_secs: u64) -> Result<Settings, AppError> {
    let bad = |m: &str| Err(AppError::InvalidOptions(m.into()));
    if !(1..=15).contains(&req.minutes) {
        return bad("minutes must be 1 to 15");
    }
    if req.increment > 10 {
        return bad("increment must be 0 to 10 seconds");
    }
    let (most, rounds) = match req.kind {
        TournamentKind::RoundRobin => (12, 0),
        TournamentKind::Swiss => match req.rounds {
            Some(r @ 1..=15) => (64, r),
            _ => return bad("a Swiss tournament has 1 to 15 rounds"),
        },
    };
    if !(MIN_PLAYERS as u32..=most).contains(&req.max_players) {
        return Err(AppError::InvalidOptions(format!(
            "max_players must be {MIN_PLAYERS} to {most}"
        )));
    }
    let latest = open_secs.max(60);
    let starts_at = match req.starts_in_secs {
        None => None,
        Some(s) if (60..=latest).contains(&s) => Some(now + i64::try_from(s * 1000).unwrap_or(0)),
        Some(_) => {
            return Err(AppError::InvalidOptions(format!(
                "starts_in_secs must be 60 to {latest} (or null: when full)"
            )));
        }
    };
    let bot_level = req.bot_level.unwrap_or(1);
    if bot::Level::from_number(bot_level).is_none() {
        return bad("bot_level must be 1, 2 or 3");
    }
    let name = match req.name.as_deref().map(crate::chat::clean).transpose() {
        Ok(name) => name.filter(|n| !n.is_empty()),
        Err(_) => return bad("a name has 1 to 40 characters"),
    };
    if name.as_ref().is_some_and(|n| n.chars().count() > 40) {
        return bad("a name has 1 to 40 characters");
    }
    if req.rated && req.bots {
        return bad("a rated tournament is played by accounts only: no computer places");
    }
    if req.micro_match && req.kind == TournamentKind::RoundRobin && req.max_players > 10 {
        return bad("a round-robin of micro-matches has at most 10 players");
    }
    Ok(Settings {
        kind: req.kind,
        rounds,
        minutes: req.minutes,
        increment: req.increment,
        max_players: req.max_players,
        bots: req.bots,
        bot_level,
        starts_at,
        name,
        rated: req.rated,
        ballot: req.ballot.clone(),
        micro_match: req.micro_match,
    })
}

/// Checks a tournament's ballot against its room's variant: a ballot of the variant (or
/// `"random"`), and for a rated tournament a federation's set unless it plays
/// micro-matches (as at a table: a start of Damka's own is fair only with both colours).
///
/// Fails with `unknown_ballot` or `invalid_options`.
pub fn check_ballot(settings: &Settings, variant: draughts::Variant) -> Result<(), AppError> {
    let Some(choice) = &settings.ballot else {
        return Ok(());
    };
    let set = crate::table::ballot::check(variant, choice)?;
    if settings.rated && !settings.micro_match && !crate::table::ballot::rated_set(set) {
        return Err(AppError::InvalidOptions(format!(
            "a rated tournament plays a federation's ballots (3move, fmjd64, idf150), not \
             {set}, unless it plays micro-matches"
        )));
    }
    Ok(())
}

/// Creates a tournament in `room` with `creator` (a request from `ip`) as its first
/// entrant.
///
/// Fails with `invalid_options`, `too_many_tables` (too many tournaments of the guest,
/// of the address or in the room) or a storage error.
pub async fn create(
    tournaments: &Arc<Tournaments>,
    room: &Arc<Room>,
    creator: Player,
    ip: IpAddr,
    req: &CreateTournament,
) -> Result<TournamentView, AppError> {
    let now = crate::time::unix_ms();
    let state = tournaments.core();
    let settings = validate(req, now, state.config.tournaments.tournament_open_secs)?;
    check_ballot(&settings, room.config.variant)?;
    if settings.rated && !creator.account {
        return Err(AppError::game(
            damka_protocol::ErrorCode::RatedNeedsAccount,
            "only accounts make rated tournaments: sign up (it keeps your games) or sign in",
        ));
    }
    let creator = crate::ratings::shown(state, creator, room.config.variant).await?;
    if tournaments.created_by(&creator.id) >= PER_GUEST {
        return Err(AppError::game(
            damka_protocol::ErrorCode::TooManyTables,
            format!("you already run {PER_GUEST} tournaments"),
        ));
    }
    let per_address = state.config.limits.max_open_tournaments_per_address;
    if per_address > 0 && tournaments.open_from(ip) >= per_address {
        tracing::info!(%ip, "tournament refused: too many open from one address");
        return Err(AppError::game(
            damka_protocol::ErrorCode::TooManyTables,
            format!("your address already has {per_address} tournaments waiting to start"),
        ));
    }
    if tournaments.in_room(&room.config.id) >= PER_ROOM {
        return Err(AppError::game(
            damka_protocol::ErrorCode::TooManyTables,
            format!("this room already has {PER_ROOM} tournaments"),
        ));
    }
    let id = format!("u{}", crate::random::token_base36(8));
    let row = TournamentRow {
        id: id.clone(),
        room: room.config.id.clone(),
        name: settings.name.clone(),
        kind: settings.kind,
        status: damka_protocol::tournament::TournamentStatus::Open,
        rounds: i64::from(settings.rounds),
        total_rounds: 0,
        minutes: i64::from(settings.minutes),
        increment_s: i64::from(settings.increment),
        max_players: i64::from(settings.max_players),
        bots: settings.bots,
        bot_level: i64::from(settings.bot_level),
        starts_at: settings.starts_at,
        created_by: creator.id.clone(),
        created_by_name: creator.name.clone(),
        created_at: now,
        started_at: None,
        ended_at: None,
        cancelled: false,
        rated: settings.rated,
        ballot: settings.ballot.clone().map(String::from),
        micro_match: settings.micro_match,
    };
    state
        .store
        .tournament_write(TournamentWrite::Create(Box::new(row)))
        .await?;
    let t = Tournament::new(id, room.config.id.clone(), settings, creator, now);
    let view = t.view(now);
    room.tournament_changed(t.summary(now));
    tracing::info!(tournament = %t.id, room = %room.config.id, "tournament created");
    super::actor::spawn(tournaments, room.clone(), t, 2, None, Some(ip));
    Ok(view)
}
