//! Opening a table: its options checked against the spec and the room's variant, who may
//! sit, its seats, and its actor started through the tables' placement (a new table, a
//! restored one, a tournament's).

use std::net::IpAddr;
use std::sync::Arc;

use damka_protocol::{CreateTable, Options, Player, SeatChoice, Side, TableView};
use draughts::{ByColor, Rules, Variant};
use tokio::sync::mpsc;
use tracing::Instrument;

use super::actor::TableActor;
use super::command::COMMAND_QUEUE;
use super::game::color;
use super::registry::{TableHandle, TableSeed, Tables};
use crate::error::AppError;
use crate::placement::Actor;
use crate::random;
use crate::room::Room;

impl Tables {
    /// Creates a table in `room` with `creator` seated.
    ///
    /// Fails with `invalid_options` or `too_many_tables`.
    pub fn create(
        self: &Arc<Self>,
        room: &Arc<Room>,
        creator: Player,
        req: &CreateTable,
    ) -> Result<TableView, AppError> {
        self.create_from(room, creator, req, None)
    }

    /// [`Tables::create`] for a request from `ip`, which may have at most
    /// `max_tables_per_address` open tables.
    ///
    /// Fails with `invalid_options` or `too_many_tables`.
    pub fn create_from(
        self: &Arc<Self>,
        room: &Arc<Room>,
        creator: Player,
        req: &CreateTable,
        ip: Option<IpAddr>,
    ) -> Result<TableView, AppError> {
        let options = validate_options(room.config.variant, req)?;
        // The creator's own rating may be outside the range it sets for the other seat.
        may_sit(&options, &creator, false)?;
        let seat = match req.seat {
            SeatChoice::White => Side::White,
            SeatChoice::Black => Side::Black,
            SeatChoice::Random if random::u64().is_multiple_of(2) => Side::White,
            SeatChoice::Random => Side::Black,
        };
        let other = super::computer::second_seat(&creator, options.bot, options.local);
        self.seat_within_limit(&creator.id, || {
            // Counted under the seating lock too: two requests at once cannot both take
            // the address's last table.
            let max = self.core.config.limits.max_tables_per_address;
            if let Some(ip) = ip
                && max > 0
                && self.created_from(ip) >= max
            {
                return Err(AppError::TooManyAddressTables(max));
            }
            let mut seats = ByColor::default();
            seats[color(seat)] = Some(creator.clone());
            seats[color(seat.other())] = other;
            let mut map = self.lock();
            let id = loop {
                let id = format!("t{}", random::token_base36(7));
                if !map.contains_key(&id) {
                    break id;
                }
            };
            let seed = TableSeed {
                id: id.clone(),
                room: room.clone(),
                options,
                seats,
                game: None,
                chat: Vec::new(),
                tournament: None,
                micro: None,
                epoch: None,
                creator_ip: ip,
            };
            let (handle, view) = spawn(self, seed)?;
            map.insert(id, handle);
            Ok(view)
        })?
    }

    /// Registers a restored table (start-up).
    pub fn insert_restored(self: &Arc<Self>, seed: TableSeed) -> Result<(), AppError> {
        let id = seed.id.clone();
        let (handle, _) = spawn(self, seed)?;
        self.lock().insert(id, handle);
        Ok(())
    }
}

/// Starts a table's actor on the task tracker, through the tables' placement; the room
/// learns about the table at once.
fn spawn(tables: &Arc<Tables>, seed: TableSeed) -> Result<(TableHandle, TableView), AppError> {
    let core = &tables.core;
    let (tx, rx) = mpsc::channel(COMMAND_QUEUE);
    let room_id = seed.room.config.id.clone();
    let span = tracing::info_span!("table", id = %seed.id, room = %room_id);
    let id = seed.id.clone();
    let epoch = seed.epoch;
    let creator_ip = seed.creator_ip;
    let actor = TableActor::new(tables.clone(), seed, tx.downgrade(), rx)?;
    let view = actor.table_view();
    actor.room().table_changed(view.clone(), true);
    core.metrics.tables.inc();
    let run = tables.placement().run(Actor {
        id,
        room: room_id.clone(),
        epoch,
        commands: tx.clone(),
        run: Box::pin(actor.run()),
    });
    drop(core.tracker.spawn(run.instrument(span)));
    Ok((
        TableHandle {
            tx,
            room_id,
            creator_ip,
        },
        view,
    ))
}

/// Checks table options against the spec and the room's variant.
///
/// Fails with `invalid_options`, or `unknown_ballot` for a ballot the variant does not
/// have.
pub fn validate_options(variant: Variant, req: &CreateTable) -> Result<Options, AppError> {
    let options = req.options.clone();
    if options.days.is_some() {
        super::correspondence::check_options(&options)?;
    } else if !(1..=15).contains(&options.minutes) {
        return Err(AppError::InvalidOptions("minutes must be 1 to 15".into()));
    }
    if options.increment > 10 {
        return Err(AppError::InvalidOptions(
            "increment must be 0 to 10 seconds".into(),
        ));
    }
    if Rules::with_capture_optional(variant, options.capture_optional).is_err() {
        return Err(AppError::InvalidOptions(
            "capture_optional is only allowed on 8x8 boards".into(),
        ));
    }
    super::computer::check_seat_options(options.bot, options.local)?;
    // A start of no federation's (a random opening, Damka's own ballots) is fair only
    // when both players play it with both colours: rated only in a micro-match.
    if options.rated
        && (options.bot.is_some()
            || options.local
            || options.capture_optional
            || (options.random_opening && !options.micro_match))
    {
        return Err(AppError::InvalidOptions(
            "a rated game is between two people at two screens, capturing compulsory, \
             from the start position (or a random opening in a micro-match)"
                .into(),
        ));
    }
    if let Some(choice) = &options.ballot {
        if options.random_opening {
            return Err(AppError::InvalidOptions(
                "a ballot and random_opening exclude each other".into(),
            ));
        }
        let set = super::ballot::check(variant, choice)?;
        if options.rated && !options.micro_match && !super::ballot::rated_set(set) {
            return Err(AppError::InvalidOptions(format!(
                "a rated table plays a federation's ballots (3move, fmjd64, idf150), not \
                 {set}, unless it plays micro-matches"
            )));
        }
    }
    if let Some(r) = options.rating_range {
        if !options.rated {
            return Err(AppError::InvalidOptions(
                "a rating range is for a rated table".into(),
            ));
        }
        if r.min > r.max || r.max > 4000 {
            return Err(AppError::InvalidOptions(
                "a rating range is min <= max <= 4000".into(),
            ));
        }
    }
    Ok(options)
}

/// Whether `player` may sit at a table with `options` (in its free seat, when the
/// range applies): a correspondence table takes accounts only, and so does a rated table,
/// within its rating range.
///
/// Fails with `correspondence_needs_account`, `rated_needs_account` or
/// `rating_out_of_range`.
pub fn may_sit(options: &Options, player: &Player, range_applies: bool) -> Result<(), AppError> {
    if options.days.is_some() && !player.account && !player.is_bot() {
        return Err(AppError::game(
            damka_protocol::ErrorCode::CorrespondenceNeedsAccount,
            "only accounts play by correspondence (a game of weeks would be lost with a \
             guest's cookie): sign up or sign in",
        ));
    }
    if !options.rated || player.is_bot() {
        return Ok(());
    }
    if !player.account {
        return Err(AppError::game(
            damka_protocol::ErrorCode::RatedNeedsAccount,
            "only accounts play rated games: sign up (it keeps your games) or sign in",
        ));
    }
    if let (true, Some(range), Some(rating)) = (range_applies, options.rating_range, player.rating)
        && !range.contains(rating)
    {
        return Err(AppError::game(
            damka_protocol::ErrorCode::RatingOutOfRange,
            format!(
                "this seat is for ratings {} to {}; yours is {rating}",
                range.min, range.max
            ),
        ));
    }
    Ok(())
}
