//! Tournaments from the store: at start-up every tournament not over gets its actor back
//! (which then reads the results of games that ended meanwhile and pairs the next round
//! if one is due), and each room lists its last finished tournaments; a finished
//! tournament is read back whenever it is asked for.

use std::sync::Arc;

use damka_protocol::Player;
use damka_protocol::ballot::BallotChoice;
use damka_protocol::tournament::TournamentStatus;

use super::Tournaments;
use super::model::{Board, BoardResult, Entrant, Round, Settings, Tournament};
use super::standings::Outcome;
use crate::core::Core;
use crate::room::FINISHED_TOURNAMENTS_SHOWN;
use damka_store::{EntrantRow, PairingRow, TournamentRow};

/// Restarts the actors of the tournaments not over and lists the rooms' tournaments;
/// returns how many were resumed.
///
/// Fails only if the store cannot be read; a tournament whose rows do not make sense is
/// logged and left alone.
///
/// With `resume_live` false (a cluster node) none is resumed here: a node resumes only
/// the tournaments it owns (adopted or taken over: [`restore_one`]).
pub async fn restore_tournaments(
    tournaments: &Arc<Tournaments>,
    resume_live: bool,
) -> Result<usize, damka_store::StoreError> {
    let state = tournaments.core();
    let now = crate::time::unix_ms();
    let mut resumed = 0;
    let live = if resume_live {
        state.store.live_tournaments().await?
    } else {
        Vec::new()
    };
    for row in live {
        if resume(tournaments, &row, None).await? {
            resumed += 1;
        }
    }
    for room in state.rooms.all() {
        let finished = state
            .store
            .finished_tournaments(&room.config.id, FINISHED_TOURNAMENTS_SHOWN as i64)
            .await?;
        for row in finished.iter().rev() {
            if let Some(t) = load_row(state, row).await? {
                room.tournament_loaded(t.summary(now));
            }
        }
    }
    Ok(resumed)
}

/// In a cluster: resumes tournament `id`, now this node's at lease `epoch`; `false` if
/// it is over (or gone, or runs here already).
///
/// Fails only if the store cannot be read.
pub async fn restore_one(
    tournaments: &Arc<Tournaments>,
    id: &str,
    epoch: i64,
) -> Result<bool, damka_store::StoreError> {
    if tournaments.get(id).is_some() {
        return Ok(true);
    }
    match tournaments.core().store.tournament(id).await? {
        Some(row) if row.status != TournamentStatus::Over => {
            resume(tournaments, &row, Some(epoch)).await
        }
        _ => Ok(false),
    }
}

/// Starts the actor of a stored tournament not over; `false` if its rows do not make
/// sense or its room is gone.
async fn resume(
    tournaments: &Arc<Tournaments>,
    row: &TournamentRow,
    epoch: Option<i64>,
) -> Result<bool, damka_store::StoreError> {
    let state = tournaments.core();
    let now = crate::time::unix_ms();
    let Some(room) = state.rooms.get(&row.room).cloned() else {
        tracing::error!(tournament = %row.id, "the room of a tournament is gone");
        return Ok(false);
    };
    let entrants = state.store.tournament_entrants(&row.id).await?;
    let next_seq = entrants.iter().map(|e| e.seq).max().unwrap_or(0) + 1;
    let pairings = state.store.tournament_pairings(&row.id).await?;
    let Some(mut t) = build(row, &entrants, &pairings, room.config.variant) else {
        tracing::error!(tournament = %row.id, "a stored tournament does not add up");
        return Ok(false);
    };
    show_ratings(state, &mut t, room.config.variant).await?;
    // Announced when taken over (the room lists of other nodes lost it with its old
    // owner); listed quietly at start-up.
    if epoch.is_some() {
        room.tournament_changed(t.summary(now));
    } else {
        room.tournament_loaded(t.summary(now));
    }
    super::actor::spawn(tournaments, room, t, next_seq, epoch, None);
    Ok(true)
}

/// A tournament read from the store (finished ones are not kept in memory).
///
/// Fails on a database error.
pub async fn load(state: &Core, id: &str) -> Result<Option<Tournament>, damka_store::StoreError> {
    match state.store.tournament(id).await? {
        Some(row) => load_row(state, &row).await,
        None => Ok(None),
    }
}

async fn load_row(
    state: &Core,
    row: &TournamentRow,
) -> Result<Option<Tournament>, damka_store::StoreError> {
    let entrants = state.store.tournament_entrants(&row.id).await?;
    let pairings = state.store.tournament_pairings(&row.id).await?;
    let room = state.rooms.get(&row.room);
    // A room no longer configured: its rounds' openings are not shown.
    let variant = room.map_or(draughts::Variant::Russian, |r| r.config.variant);
    let Some(mut t) = build(row, &entrants, &pairings, variant) else {
        return Ok(None);
    };
    if let Some(room) = room {
        show_ratings(state, &mut t, room.config.variant).await?;
    }
    Ok(Some(t))
}

/// Shows the restored players as they are now: the stored entrants know ids and names
/// only, so which are accounts, and their ratings in the tournament's variant, are read
/// back (without this a tournament lost every rating at a restart).
///
/// Fails on a database error.
async fn show_ratings(
    state: &Core,
    t: &mut Tournament,
    variant: draughts::Variant,
) -> Result<(), damka_store::StoreError> {
    let now = crate::time::unix_ms();
    for e in &mut t.players {
        if e.player.is_bot() || state.store.account_of(&e.player.id).await?.is_none() {
            continue;
        }
        let rating = state.store.rating_of(&e.player.id, variant.name()).await?;
        let w = rating.map_or_else(crate::ratings::new_rating, |r| {
            crate::ratings::wire(&r, now)
        });
        e.player.account = true;
        e.player.rating = Some(w.rating);
        e.player.provisional = w.provisional;
    }
    Ok(())
}

/// Rebuilds the model from its rows (a tournament of `variant`'s room); `None` if they
/// do not fit together.
pub fn build(
    row: &TournamentRow,
    entrants: &[EntrantRow],
    pairings: &[PairingRow],
    variant: draughts::Variant,
) -> Option<Tournament> {
    let (kind, status) = (row.kind, row.status);
    let players: Vec<Entrant> = entrants
        .iter()
        .map(|e| Entrant {
            player: crate::computer::stored_player(&e.player_id, &e.name),
            left_round: e.left_round.and_then(|r| u32::try_from(r).ok()),
        })
        .collect();
    let index = |id: &str| players.iter().position(|e| e.player.id == id);
    let mut rounds: Vec<Round> = Vec::new();
    for p in pairings {
        let number = u32::try_from(p.round).ok()?;
        if rounds.last().is_none_or(|r| r.number != number) {
            rounds.push(Round {
                number,
                boards: Vec::new(),
                bye: None,
                opening: None,
            });
        }
        let round = rounds.last_mut()?;
        if round.opening.is_none() {
            round.opening = p
                .ballot
                .as_deref()
                .and_then(|id| draughts::ballot::find(variant, id));
        }
        let forfeit = p.reason.as_deref() == Some("forfeit");
        let white = index(&p.white_id)?;
        match &p.black_id {
            None => round.bye = Some(white),
            Some(black) => round.boards.push(Board {
                white,
                black: index(black)?,
                // A forfeit is not a game (a micro-match's second game stored its id
                // when paired).
                table: p.table_id.clone().filter(|_| !forfeit),
                game: p.game_id.clone().filter(|_| !forfeit),
                // Micro-match rounds store a pairing's two games as boards 2k-1, 2k.
                match_game: row
                    .micro_match
                    .then_some(if p.board % 2 == 1 { 1 } else { 2 }),
                result: p.result.map(|r| BoardResult {
                    outcome: match r {
                        damka_store::BoardResult::White => Outcome::White,
                        damka_store::BoardResult::Black => Outcome::Black,
                        damka_store::BoardResult::Draw => Outcome::Draw,
                        damka_store::BoardResult::Void => Outcome::Void,
                    },
                    reason: p.reason.clone().unwrap_or_default(),
                }),
            }),
        }
    }
    Some(Tournament {
        id: row.id.clone(),
        room: row.room.clone(),
        settings: Settings {
            kind,
            rounds: u32::try_from(row.rounds).ok()?,
            minutes: u32::try_from(row.minutes).ok()?,
            increment: u32::try_from(row.increment_s).ok()?,
            max_players: u32::try_from(row.max_players).ok()?,
            bots: row.bots,
            bot_level: u8::try_from(row.bot_level).ok()?,
            starts_at: row.starts_at,
            name: row.name.clone(),
            rated: row.rated,
            ballot: row.ballot.clone().map(BallotChoice::from),
            micro_match: row.micro_match,
        },
        created_by: Player::guest(&row.created_by, &row.created_by_name),
        created_at: row.created_at,
        status,
        players,
        rounds,
        total_rounds: u32::try_from(row.total_rounds).ok()?,
        started_at: row.started_at,
        ended_at: row.ended_at,
        cancelled: row.cancelled,
        // A break is not stored: a restarted tournament gives the break again.
        next_round: None,
        version: 1,
    })
}
