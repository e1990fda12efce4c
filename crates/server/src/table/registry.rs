//! The open tables by id: creating a table (with its actor) and finding one.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex, OnceLock, Weak};

use damka_protocol::{CreateTable, Options, Player, SeatChoice, Side, TableView};
use draughts::{ByColor, Rules, Variant};
use tokio::sync::mpsc;
use tracing::Instrument;

use super::actor::TableActor;
use super::game::{LiveGame, color};
use super::tournament::GameReport;
use super::{COMMAND_QUEUE, Command};
use crate::core::Core;
use crate::error::AppError;
use crate::placement::{Actor, Alone, Placement};
use crate::random;
use crate::room::Room;

/// How to reach a table's actor.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// The actor's command queue.
    pub tx: mpsc::Sender<Command>,
    /// The room the table is in.
    pub room_id: String,
    /// The address the table was created from (for the per-address table cap; `None`
    /// for restored tables).
    pub creator_ip: Option<IpAddr>,
}

/// The open tables.
pub struct Tables {
    /// What every table uses.
    pub(super) core: Arc<Core>,
    /// By id. A std mutex: held only to look up, insert or remove, never across `.await`.
    map: Mutex<HashMap<String, TableHandle>>,
    /// Held while a guest's open tables are counted and they are seated at one more: see
    /// [`Tables::seat_within_limit`]. A std mutex: seating is synchronous (no `.await`).
    seating: Mutex<()>,
    /// Where table actors run (set once at start-up: a cluster's leases; else alone).
    placement: OnceLock<Arc<dyn Placement<Command>>>,
    /// Where a tournament table reports its game's end (set once at start-up; weak, as
    /// the tournaments hold the tables).
    tournaments: OnceLock<Weak<dyn TournamentReports>>,
    /// Parked correspondence tables ([`super::parking`]). A std mutex: never held across
    /// `.await`.
    parked: Mutex<super::parking::ParkedTables>,
    /// Held while a table is parked or loaded again, so that two sockets opening a parked
    /// table load it once.
    pub(super) loading: tokio::sync::Mutex<()>,
    /// Wakes the parking task when a table is parked (its due time may be the next).
    pub(super) parking_changed: tokio::sync::Notify,
}

/// Where a tournament table's game end goes: the tournaments (a layer above the tables,
/// which implements this).
pub trait TournamentReports: Send + Sync {
    /// A tournament game ended and its end is stored. Never waits.
    fn game_over(&self, report: GameReport);
}

/// What a new table actor starts with.
pub struct TableSeed {
    /// Table id.
    pub id: String,
    /// The room.
    pub room: Arc<Room>,
    /// Options.
    pub options: Options,
    /// Seated players.
    pub seats: ByColor<Option<Player>>,
    /// A game in progress (restored at start-up).
    pub game: Option<LiveGame>,
    /// The table's last chat messages (restored at start-up).
    pub chat: Vec<damka_protocol::ChatMessage>,
    /// The tournament whose game the table plays.
    pub tournament: Option<damka_protocol::TableTournament>,
    /// At a micro-match table: the current or last match (restored at start-up).
    pub micro: Option<super::micro_match::MicroMatch>,
    /// In a cluster: the epoch of the lease this node holds on the table (taken over or
    /// adopted); `None` for a new table, claimed before its actor runs.
    pub epoch: Option<i64>,
    /// The address the table was made for: its creator's, or a tournament table's
    /// tournament creator's (the per-address table cap and the computer's fair share
    /// count it there); `None` for a restored table.
    pub creator_ip: Option<IpAddr>,
}

impl Tables {
    /// No tables yet; actors run alone until [`Tables::place_with`].
    pub fn new(core: Arc<Core>) -> Arc<Tables> {
        Arc::new(Tables {
            core,
            map: Mutex::new(HashMap::new()),
            seating: Mutex::new(()),
            placement: OnceLock::new(),
            tournaments: OnceLock::new(),
            parked: Mutex::new(super::parking::ParkedTables::default()),
            loading: tokio::sync::Mutex::new(()),
            parking_changed: tokio::sync::Notify::new(),
        })
    }

    /// What every table uses.
    pub fn core(&self) -> &Arc<Core> {
        &self.core
    }

    /// Runs every table actor from now on through `placement` (a cluster node's leases).
    pub fn place_with(&self, placement: Arc<dyn Placement<Command>>) {
        if self.placement.set(placement).is_err() {
            tracing::error!("table placement set twice");
        }
    }

    /// Sends the ends of tournament games to `tournaments` from now on.
    pub fn report_to(&self, tournaments: Weak<dyn TournamentReports>) {
        if self.tournaments.set(tournaments).is_err() {
            tracing::error!("tournament reports set twice");
        }
    }

    /// A tournament game ended (its end is stored): tell the tournaments.
    pub fn report(&self, report: GameReport) {
        match self.tournaments.get().and_then(Weak::upgrade) {
            Some(t) => t.game_over(report),
            None => tracing::debug!(tournament = %report.tournament, "no tournaments to report to"),
        }
    }

    fn placement(&self) -> &dyn Placement<Command> {
        self.placement.get().map_or(&Alone, |p| p.as_ref())
    }

    /// Whether this node runs its tables alone (no cluster placement).
    pub(super) fn alone(&self) -> bool {
        self.placement.get().is_none()
    }

    /// The parked tables.
    pub(super) fn parked_tables(&self) -> std::sync::MutexGuard<'_, super::parking::ParkedTables> {
        crate::lock::lock(&self.parked)
    }

    /// A closed table's lease goes (in a cluster).
    pub(super) fn released(&self, id: &str) {
        self.placement().release(id);
    }

    /// A table's handle.
    pub fn get(&self, id: &str) -> Option<TableHandle> {
        self.lock().get(id).cloned()
    }

    /// Number of open tables.
    pub fn len(&self) -> usize {
        self.lock().len()
    }

    /// Whether there are no open tables.
    pub fn is_empty(&self) -> bool {
        self.lock().is_empty()
    }

    /// Forgets a closed table.
    pub fn remove(&self, id: &str) {
        self.lock().remove(id);
    }

    /// Forgets table `id` if `tx` is its handle's queue (not a newer table of that id, as
    /// a parked table loaded again is); returns whether it did.
    pub(super) fn remove_own(&self, id: &str, tx: &mpsc::Sender<Command>) -> bool {
        let mut map = self.lock();
        if map.get(id).is_some_and(|h| h.tx.same_channel(tx)) {
            map.remove(id);
            return true;
        }
        false
    }

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

    /// Open tables created from `ip`.
    pub fn created_from(&self, ip: IpAddr) -> usize {
        self.lock()
            .values()
            .filter(|h| h.creator_ip == Some(ip))
            .count()
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
        let other = TableActor::second_seat(&creator, options.bot, options.local);
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

    /// Runs `seat`, which seats guest `guest_id` at one more table and shows that in the
    /// table's room (the rooms' table views are what is counted), only while the guest sits
    /// at fewer than `max_tables_per_guest` tables (0: no limit).
    ///
    /// Counting and seating happen under one lock, so two requests at once (two `sit`s at
    /// different tables, or a `sit` and a table creation) cannot both take the last place.
    ///
    /// Fails with `too_many_tables` (without running `seat`).
    pub fn seat_within_limit<R>(
        &self,
        guest_id: &str,
        seat: impl FnOnce() -> R,
    ) -> Result<R, AppError> {
        // Poisoning cannot leave anything half-done: the lock guards no data.
        let _seating = crate::lock::lock(&self.seating);
        let max = self.core.config.limits.max_tables_per_guest;
        if max > 0 && self.core.rooms.seated_tables(guest_id) >= max {
            return Err(AppError::TooManyTables(max));
        }
        Ok(seat())
    }

    /// Registers a restored table (start-up).
    pub fn insert_restored(self: &Arc<Self>, seed: TableSeed) -> Result<(), AppError> {
        let id = seed.id.clone();
        let (handle, _) = spawn(self, seed)?;
        self.lock().insert(id, handle);
        Ok(())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableHandle>> {
        // Every update is a single insert or remove: a poisoned map is still consistent.
        crate::lock::lock(&self.map)
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
