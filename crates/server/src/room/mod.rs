//! Rooms: their configuration, the live list of their tables and the fan-out of table
//! events and presence to room sockets.
//!
//! A room keeps a copy of each of its tables' public view, updated by the table actors
//! whenever a table changes, so listing a room never waits for an actor. Events go out on
//! a `broadcast` channel as already-serialised JSON; a room socket that falls behind gets
//! `Lagged` and is sent a fresh `room` snapshot instead of the events it missed.
//! Tournaments are listed the same way (`tournaments.rs`).
//!
//! Table and people events are coalesced: a change only marks the table or person, and
//! every [`EVENTS_EVERY`] the room announces each marked one once, as it is then (a
//! table added and removed within one tick is never announced). However fast one client
//! churns seats or sockets, a visitor receives at most one event per table and per
//! person per tick.

mod config;
mod defaults;
pub mod fact;
mod invite;
mod people;
mod tournaments;

use crate::lock::lock;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use damka_protocol::room::RoomServerMessage;
use damka_protocol::{
    ChatMessage, Person, Player, RoomDetail, RoomView, Side, TableView, Whereabouts,
};
use tokio::sync::broadcast;

pub use config::{RoomConfig, RoomsError, default_rooms, load_rooms, parse_rooms};
pub use defaults::variant_texts;
pub use invite::{INVITE_BURST, INVITE_PER_SECOND};

/// A room event on its way to the room's sockets: the serialised message, and the guests
/// it is for when it is not for everyone (an invitation).
#[derive(Debug, Clone)]
pub struct RoomEvent {
    /// The message, serialised once for every socket.
    pub text: Utf8Bytes,
    /// The guests whose sockets get it; `None`: every socket.
    pub only: Option<std::sync::Arc<[String]>>,
}

impl RoomEvent {
    /// Whether a socket of `guest` (`None`: a socket without a session) gets this event.
    pub fn is_for(&self, guest: Option<&str>) -> bool {
        match &self.only {
            None => true,
            Some(ids) => guest.is_some_and(|g| ids.iter().any(|id| id == g)),
        }
    }
}
pub use tournaments::FINISHED_SHOWN as FINISHED_TOURNAMENTS_SHOWN;

/// Largest share of a room snapshot sent in one frame (bytes of table JSON): well under
/// the socket's write limit, so a room with thousands of tables arrives in pages.
pub const SNAPSHOT_PAGE_BYTES: usize = 32 * 1024;

/// Room events buffered per room socket before it counts as lagging.
const ROOM_EVENT_BUFFER: usize = 256;

/// A room and its live tables.
pub struct Room {
    /// The room's configuration.
    pub config: RoomConfig,
    /// Public views of the open tables, by id. A std mutex: held only to copy or replace a
    /// view, never across an `.await`. A hash map: every move updates its table's view
    /// (a lookup among thousands), lists are rare and sorted when made.
    tables: Mutex<HashMap<String, TableView>>,
    /// Serialised room events for the room sockets.
    events: broadcast::Sender<RoomEvent>,
    /// Room sockets connected.
    sockets: AtomicU32,
    /// The socket count changed since the last `presence` event.
    presence_dirty: AtomicBool,
    /// Who is in the room.
    people: Mutex<people::People>,
    /// The room's last chat messages, oldest first.
    chat: Mutex<crate::chat::ChatLog>,
    /// Each person's invitation flood control in this room.
    invite_limits: Mutex<std::collections::HashMap<String, crate::chat::Bucket>>,
    /// Each person's invitations received in this room (flood control per invitee).
    invites_received: Mutex<std::collections::HashMap<String, crate::chat::Bucket>>,
    /// Tables changed since the last announcement, and how.
    pending_tables: Mutex<HashMap<String, Change>>,
    /// The room's tournaments as listed (open, running, the last finished ones).
    tournaments: Mutex<Vec<damka_protocol::tournament::TournamentSummary>>,
    /// Where local facts go in a cluster (unset on one node).
    sync: std::sync::OnceLock<std::sync::Arc<dyn fact::RoomSync>>,
}

/// How often changed room presence is announced: people arriving together cost one
/// broadcast, not one each.
pub const PRESENCE_EVERY: Duration = Duration::from_millis(500);

/// How often changed tables and people are announced (each once, as it is then).
pub const EVENTS_EVERY: Duration = Duration::from_millis(200);

/// How a table changed since the last announcement.
#[derive(Debug, Clone)]
enum Change {
    /// New (announced as `table_added` with its view at the tick).
    Added,
    /// Changed (`table_updated`).
    Updated,
    /// Gone, with its last view (`table_removed`).
    Removed(Box<TableView>),
}

impl Room {
    /// A room with no tables.
    pub fn new(config: RoomConfig) -> Room {
        let (events, _) = broadcast::channel(ROOM_EVENT_BUFFER);
        Room {
            config,
            tables: Mutex::new(HashMap::new()),
            events,
            sockets: AtomicU32::new(0),
            presence_dirty: AtomicBool::new(false),
            people: Mutex::new(people::People::default()),
            chat: Mutex::new(crate::chat::ChatLog::default()),
            invite_limits: Mutex::new(std::collections::HashMap::new()),
            invites_received: Mutex::new(std::collections::HashMap::new()),
            pending_tables: Mutex::new(HashMap::new()),
            tournaments: Mutex::new(Vec::new()),
            sync: std::sync::OnceLock::new(),
        }
    }

    /// Hands every local fact of this room to `sync` from now on (a cluster node).
    pub fn set_sync(&self, sync: std::sync::Arc<dyn fact::RoomSync>) {
        if self.sync.set(sync).is_err() {
            tracing::error!(room = %self.config.id, "room sync set twice");
        }
    }

    /// Hands a local fact to the cluster, if there is one.
    fn emit(&self, fact: impl FnOnce() -> fact::Fact) {
        if let Some(sync) = self.sync.get() {
            sync.local(&self.config.id, fact());
        }
    }

    /// Applies a fact from another node: the room's copy changes and its sockets are
    /// told, as if it had happened here, but it is not handed on.
    pub fn apply(&self, fact: fact::Fact) {
        use fact::Fact;
        match fact {
            Fact::Table { view } => {
                let added = self.table(&view.id).is_none();
                self.table_changed_here(view, added);
            }
            Fact::Moved { moves } => {
                for (id, ply, turn) in moves {
                    self.table_moved_here(&id, ply, turn);
                }
            }
            Fact::TableGone { id } => self.table_removed_here(&id),
            Fact::TablePeople { table, people } => self.table_people_here(&table, people),
            Fact::Socket { guest, joined } => self.person_socket_here(&guest, joined),
            Fact::Chat { msg } => self.chat_posted_here(msg),
            Fact::Tournament { summary } => self.tournament_changed_here(summary),
            Fact::Event { text, only } => drop(self.events.send(RoomEvent {
                text: Utf8Bytes::from(text),
                only: only.map(Into::into),
            })),
        }
    }

    /// The room object with counts.
    pub fn view(&self) -> RoomView {
        let c = &self.config;
        RoomView {
            id: c.id.clone(),
            name: c.names.pl.clone(),
            names: c.names.clone(),
            rules: c.rules.clone(),
            variant: c.variant.name().to_owned(),
            tables: u32::try_from(self.lock_tables().len()).unwrap_or(u32::MAX),
            players: self.players(),
        }
    }

    /// The room with its tables.
    pub fn detail(&self) -> RoomDetail {
        let c = &self.config;
        RoomDetail {
            id: c.id.clone(),
            name: c.names.pl.clone(),
            names: c.names.clone(),
            rules: c.rules.clone(),
            variant: c.variant.name().to_owned(),
            tables: self.tables(),
            players: self.players(),
        }
    }

    /// The open tables' views, by id.
    pub fn tables(&self) -> Vec<TableView> {
        let mut tables: Vec<TableView> = self.lock_tables().values().cloned().collect();
        tables.sort_unstable_by(|a, b| a.id.cmp(&b.id));
        tables
    }

    /// People in the room: with a room socket open or at one of its tables.
    pub fn players(&self) -> u32 {
        u32::try_from(lock(&self.people).count()).unwrap_or(u32::MAX)
    }

    /// Room sockets connected (with or without a session).
    pub fn sockets(&self) -> u32 {
        self.sockets.load(Ordering::Relaxed)
    }

    /// Whether the person `id` is in the room (a room socket open, or at a table).
    pub fn has_person(&self, id: &str) -> bool {
        lock(&self.people).contains(id)
    }

    /// Everyone in the room.
    pub fn people(&self) -> Vec<Person> {
        lock(&self.people).list()
    }

    /// `guest` with the name shown for them in this room (tagged if someone here has a
    /// name that looks the same).
    pub fn shown_player(&self, guest: &Player) -> Player {
        lock(&self.people).shown_player(guest)
    }

    /// A guest's room socket opened or closed.
    pub fn person_socket(&self, guest: &Player, joined: bool) {
        self.emit(|| fact::Fact::Socket {
            guest: guest.clone(),
            joined,
        });
        self.person_socket_here(guest, joined);
    }

    fn person_socket_here(&self, guest: &Player, joined: bool) {
        lock(&self.people).socket(guest, joined);
        self.presence_dirty.store(true, Ordering::Relaxed);
    }

    /// The people at one of the room's tables are now `at` (empty once it closed).
    pub fn table_people(&self, table: &str, at: Vec<(Player, Whereabouts)>) {
        self.emit(|| fact::Fact::TablePeople {
            table: table.to_owned(),
            people: at.clone(),
        });
        self.table_people_here(table, at);
    }

    fn table_people_here(&self, table: &str, at: Vec<(Player, Whereabouts)>) {
        if lock(&self.people).table(table, at) {
            self.presence_dirty.store(true, Ordering::Relaxed);
        }
    }

    /// The people at one of the room's tables (own names), as last reported.
    pub fn people_at(&self, table: &str) -> Vec<(Player, Whereabouts)> {
        lock(&self.people).at_table(table)
    }

    /// The room's last chat messages.
    pub fn chat(&self) -> Vec<ChatMessage> {
        lock(&self.chat).history().cloned().collect()
    }

    /// Sets the chat history (at start-up, from the store).
    pub fn set_chat(&self, messages: Vec<ChatMessage>) {
        *lock(&self.chat) = crate::chat::ChatLog::new(messages);
    }

    /// A chat message of `guest_id`, cleaned and within their budget here: the text to
    /// store ([`crate::chat::ChatLog::admit`]).
    ///
    /// Fails with `bad_message` or `rate_limited`.
    pub fn chat_admit(&self, guest_id: &str, text: &str) -> Result<String, crate::error::AppError> {
        Ok(lock(&self.chat).admit(guest_id, text)?)
    }

    /// Chat flood-control buckets held (per person).
    pub fn chat_limits_held(&self) -> usize {
        lock(&self.chat).buckets_held()
    }

    /// A stored chat message: kept in the history and sent to every room socket.
    pub fn chat_posted(&self, msg: ChatMessage) {
        self.emit(|| fact::Fact::Chat { msg: msg.clone() });
        self.chat_posted_here(msg);
    }

    fn chat_posted_here(&self, msg: ChatMessage) {
        let mut chat = lock(&self.chat);
        chat.record(msg.clone());
        // Sent under the lock, like the history it joins.
        self.publish(&RoomServerMessage::Chat(msg));
    }

    /// The `room` message with `tables` (all, or the first page: `more`).
    fn room_message(&self, tables: Vec<TableView>, more: bool) -> RoomServerMessage {
        let people = self.people();
        RoomServerMessage::Room {
            room: self.view(),
            tables,
            players: u32::try_from(people.len()).unwrap_or(u32::MAX),
            people,
            chat: self.chat(),
            tournaments: self.tournaments(),
            more,
        }
    }

    /// The snapshot as frames of at most about [`SNAPSHOT_PAGE_BYTES`] each: a `room`
    /// message with the first tables, then `room_tables` messages with the rest; every
    /// frame but the last says `more: true`. A room of any size arrives whole, and no
    /// frame comes near the socket's write limit.
    ///
    /// Fails only if a message cannot be serialised (a bug).
    pub fn snapshot_frames(&self) -> Result<Vec<Utf8Bytes>, serde_json::Error> {
        let tables = self.tables();
        let mut pages: Vec<Vec<TableView>> = vec![Vec::new()];
        let mut bytes = 0;
        for table in tables {
            let size = serde_json::to_string(&table)?.len() + 1;
            if bytes + size > SNAPSHOT_PAGE_BYTES && pages.last().is_some_and(|p| !p.is_empty()) {
                pages.push(Vec::new());
                bytes = 0;
            }
            bytes += size;
            if let Some(page) = pages.last_mut() {
                page.push(table);
            }
        }
        let last = pages.len() - 1;
        let mut frames = Vec::with_capacity(pages.len());
        for (i, tables) in pages.into_iter().enumerate() {
            let more = i < last;
            let msg = if i == 0 {
                // People and chat come whole in the first page.
                self.room_message(tables, more)
            } else {
                RoomServerMessage::RoomTables { tables, more }
            };
            frames.push(Utf8Bytes::from(serde_json::to_string(&msg)?));
        }
        Ok(frames)
    }

    /// Subscribes to room events (subscribe before taking the snapshot, so nothing is
    /// missed: an event may then arrive twice, which is harmless since each carries the
    /// whole table).
    pub fn subscribe(&self) -> broadcast::Receiver<RoomEvent> {
        self.events.subscribe()
    }

    /// A table was created or changed: store its view and tell the room.
    pub fn table_changed(&self, view: TableView, added: bool) {
        self.emit(|| fact::Fact::Table { view: view.clone() });
        self.table_changed_here(view, added);
    }

    fn table_changed_here(&self, view: TableView, added: bool) {
        let mut tables = self.lock_tables();
        let mut pending = lock(&self.pending_tables);
        let change = pending.entry(view.id.clone()).or_insert(if added {
            Change::Added
        } else {
            Change::Updated
        });
        if added || matches!(change, Change::Removed(_)) {
            *change = Change::Added;
        }
        tables.insert(view.id.clone(), view);
    }

    /// A move was played (or taken back) at a table: the room's copy of it gets the new
    /// ply and side to move, without telling the room sockets (room lists do not show
    /// moves live). Only those two fields change on a move, so the table does not rebuild
    /// its whole view (names as shown here, seats, options) for every move.
    pub fn table_moved(&self, id: &str, ply: u32, turn: Side) {
        self.emit(|| fact::Fact::Moved {
            moves: vec![(id.to_owned(), ply, turn)],
        });
        self.table_moved_here(id, ply, turn);
    }

    fn table_moved_here(&self, id: &str, ply: u32, turn: Side) {
        let mut tables = self.lock_tables();
        if let Some(game) = tables.get_mut(id).and_then(|v| v.game.as_mut()) {
            game.ply = ply;
            game.turn = turn;
        }
    }

    /// A table went away.
    pub fn table_removed(&self, id: &str) {
        self.emit(|| fact::Fact::TableGone { id: id.to_owned() });
        self.table_removed_here(id);
    }

    fn table_removed_here(&self, id: &str) {
        let mut tables = self.lock_tables();
        if let Some(view) = tables.remove(id) {
            let mut pending = lock(&self.pending_tables);
            match pending.get(id) {
                // Never announced: nobody needs to hear of it.
                Some(Change::Added) => drop(pending.remove(id)),
                _ => drop(pending.insert(id.to_owned(), Change::Removed(Box::new(view)))),
            }
        }
        drop(tables);
        self.table_people_here(id, Vec::new());
    }

    /// Announces the tables and people changed since the last call, each once, as they
    /// are now (see [`EVENTS_EVERY`]).
    pub fn flush_events(&self) {
        {
            let tables = self.lock_tables();
            let pending = std::mem::take(&mut *lock(&self.pending_tables));
            let mut changes: Vec<(String, Change)> = pending.into_iter().collect();
            changes.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            for (id, change) in changes {
                let msg = match change {
                    Change::Added => tables
                        .get(&id)
                        .map(|v| RoomServerMessage::TableAdded { table: v.clone() }),
                    Change::Updated => tables
                        .get(&id)
                        .map(|v| RoomServerMessage::TableUpdated { table: v.clone() }),
                    Change::Removed(view) => Some(RoomServerMessage::TableRemoved { table: *view }),
                };
                // Sent under the lock so snapshots and events are ordered the same way.
                if let Some(msg) = msg {
                    self.publish(&msg);
                }
            }
        }
        let mut people = lock(&self.people);
        for e in people.flush() {
            self.publish(&e);
        }
    }

    /// Forgets the chat and invitation buckets that have refilled (they behave exactly
    /// like new ones), so the maps hold only the people active lately.
    pub fn prune_limits(&self) {
        lock(&self.chat).prune();
        for map in [&self.invite_limits, &self.invites_received] {
            lock(map).retain(|_, b| !b.is_full());
        }
    }

    /// A socket joined (+1) or left (-1) the room; announced by [`events_ticker`].
    pub fn socket_joined(&self, joined: bool) {
        if joined {
            self.sockets.fetch_add(1, Ordering::Relaxed);
        } else {
            self.sockets.fetch_sub(1, Ordering::Relaxed);
        }
        self.presence_dirty.store(true, Ordering::Relaxed);
    }

    /// Announces the socket count if it changed since the last announcement.
    fn announce_presence(&self) {
        if self.presence_dirty.swap(false, Ordering::Relaxed) {
            self.publish(&RoomServerMessage::Presence {
                players: self.players(),
            });
        }
    }

    /// The view of one of the room's tables.
    pub fn table(&self, id: &str) -> Option<TableView> {
        self.lock_tables().get(id).cloned()
    }

    /// Whether a guest sits at this table view.
    pub fn seated_tables(&self, guest_id: &str) -> usize {
        self.lock_tables()
            .values()
            .filter(|t| {
                [&t.seats.white, &t.seats.black]
                    .iter()
                    .any(|s| s.as_ref().is_some_and(|p| p.id == guest_id))
            })
            .count()
    }

    /// Whether a guest plays a live game at one of this room's tables against a person,
    /// or any game of a tournament (where the analysis board would be engine help).
    pub fn in_live_game(&self, guest_id: &str) -> bool {
        self.lock_tables()
            .values()
            .any(|t| live_game_of(t, guest_id))
    }

    /// The guests seated at this room's tables.
    pub fn seated_guests(&self, into: &mut HashSet<String>) {
        for t in self.lock_tables().values() {
            for p in [&t.seats.white, &t.seats.black].into_iter().flatten() {
                into.insert(p.id.clone());
            }
        }
    }

    /// [`Room::publish`] for an event that is not a change of the room's state (an
    /// invitation, a tournament game ready): in a cluster it goes to every node's sockets.
    fn publish_shared(&self, msg: &RoomServerMessage) {
        if self.sync.get().is_some()
            && let Ok(text) = serde_json::to_string(msg)
        {
            self.emit(|| fact::Fact::Event {
                text,
                only: msg
                    .addressees()
                    .map(|ids| ids.iter().map(|id| (*id).to_owned()).collect()),
            });
        }
        self.publish(msg);
    }

    /// Sends a room event to the room's sockets (those it is addressed to, if it is).
    fn publish(&self, msg: &RoomServerMessage) {
        match serde_json::to_string(msg) {
            // No receivers is fine: nobody is watching the room.
            Ok(text) => drop(
                self.events.send(RoomEvent {
                    text: Utf8Bytes::from(text),
                    only: msg
                        .addressees()
                        .map(|ids| ids.iter().map(|id| (*id).to_owned()).collect()),
                }),
            ),
            Err(e) => tracing::error!(error = %e, "cannot serialise a room event"),
        }
    }

    fn lock_tables(&self) -> std::sync::MutexGuard<'_, HashMap<String, TableView>> {
        // A panic while holding this lock cannot leave a half-written map (every update is
        // one insert or remove), so a poisoned lock is still usable.
        crate::lock::lock(&self.tables)
    }
}

/// All rooms, in configuration order.
pub struct Rooms {
    /// The rooms.
    list: Vec<std::sync::Arc<Room>>,
}

impl Rooms {
    /// Builds the rooms.
    pub fn new(configs: Vec<RoomConfig>) -> Rooms {
        Rooms {
            list: configs
                .into_iter()
                .map(|c| std::sync::Arc::new(Room::new(c)))
                .collect(),
        }
    }

    /// A room by id.
    pub fn get(&self, id: &str) -> Option<&std::sync::Arc<Room>> {
        self.list.iter().find(|r| r.config.id == id)
    }

    /// Every room.
    pub fn all(&self) -> &[std::sync::Arc<Room>] {
        &self.list
    }

    /// Open tables a guest is seated at, over all rooms.
    pub fn seated_tables(&self, guest_id: &str) -> usize {
        self.list.iter().map(|r| r.seated_tables(guest_id)).sum()
    }

    /// Whether a guest plays a live game against a person or in a tournament, in any
    /// room (room views are shared by a cluster's nodes, so any node can tell).
    pub fn in_live_game(&self, guest_id: &str) -> bool {
        self.list.iter().any(|r| r.in_live_game(guest_id))
    }

    /// The correspondence games a guest plays now, in any room: (game id, variant).
    pub fn correspondence_games_of(&self, guest_id: &str) -> Vec<(String, draughts::Variant)> {
        let mut out = Vec::new();
        for r in &self.list {
            for t in r.lock_tables().values() {
                let seated = [&t.seats.white, &t.seats.black]
                    .iter()
                    .any(|s| s.as_ref().is_some_and(|p| p.id == guest_id));
                if let (true, Some(_), Some(g)) = (seated, t.options.days, &t.game)
                    && g.status == damka_protocol::GameStatus::Playing
                {
                    out.push((g.id.clone(), r.config.variant));
                }
            }
        }
        out
    }

    /// Every guest seated at an open table.
    pub fn seated_guests(&self) -> HashSet<String> {
        let mut set = HashSet::new();
        for r in &self.list {
            r.seated_guests(&mut set);
        }
        set
    }

    /// A table's view, from whichever room holds it.
    pub fn table(&self, id: &str) -> Option<TableView> {
        self.list.iter().find_map(|r| r.table(id))
    }
}

/// Announces changed tables and people of every room every [`EVENTS_EVERY`] and changed
/// room presence every [`PRESENCE_EVERY`] until `shutdown`.
pub async fn events_ticker(rooms: &Rooms, shutdown: &tokio_util::sync::CancellationToken) {
    let mut tick = tokio::time::interval(EVENTS_EVERY);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut presence_at = tokio::time::Instant::now();
    loop {
        tokio::select! {
            () = shutdown.cancelled() => break,
            _ = tick.tick() => {
                let presence = presence_at.elapsed() >= PRESENCE_EVERY;
                if presence {
                    presence_at = tokio::time::Instant::now();
                }
                for room in rooms.all() {
                    room.flush_events();
                    if presence {
                        room.announce_presence();
                    }
                }
            }
        }
    }
}

/// Whether `guest_id` sits at `table`, whose game is in progress, against a person or in
/// a tournament.
fn live_game_of(table: &TableView, guest_id: &str) -> bool {
    let seats = [&table.seats.white, &table.seats.black];
    let Some(me) = seats
        .iter()
        .position(|s| s.as_ref().is_some_and(|p| p.id == guest_id))
    else {
        return false;
    };
    let playing = table
        .game
        .as_ref()
        .is_some_and(|g| g.status == damka_protocol::GameStatus::Playing);
    let opponent_is_person = seats[1 - me].as_ref().is_some_and(|p| p.bot.is_none());
    // A correspondence game lasts weeks: it closes only its own positions to the
    // analysis board (`Rooms::correspondence_games_of`), not the board.
    let correspondence = table.options.days.is_some();
    playing && !correspondence && (opponent_is_person || table.tournament.is_some())
}
