//! The objects a table shows, pure: the public table view and the full `state`, from
//! what the actor holds ([`Sight`]).

use damka_protocol::table::{Paused, PresenceView, State, You};
use damka_protocol::{
    ChatMessage, ClockView, GameStatus, GameSummary, Options, Player, Seats, TableStatus,
    TableTournament, TableView,
};
use draughts::Variant;

use super::game::{Hold, LiveGame, reason_of, result_of, side};
use super::micro_match::MicroMatch;
use super::presence::Counts;
use super::seating::Seating;
use crate::room::Room;

/// What a table shows, as the actor holds it.
pub(super) struct Sight<'a> {
    /// Table id.
    pub id: &'a str,
    /// Its room (names are shown as there: a look-alike of someone there is tagged).
    pub room: &'a Room,
    /// The room's variant.
    pub variant: Variant,
    /// The table's options.
    pub options: &'a Options,
    /// Who sits where.
    pub seating: &'a Seating,
    /// Who is connected.
    pub counts: Counts,
    /// The current or last game.
    pub game: Option<&'a LiveGame>,
    /// The tournament the table plays for.
    pub tournament: Option<&'a TableTournament>,
    /// A micro-match table's match.
    pub micro: Option<&'a MicroMatch>,
    /// The last event's version.
    pub v: u64,
    /// Plies between a player's draw offers (`--draw-offer-plies`).
    pub offer_plies: u32,
}

impl Sight<'_> {
    /// Seats as the wire object.
    fn seats_view(&self) -> Seats {
        self.seating.view(|p| self.room.shown_player(p))
    }

    /// The public table object (room lists, `GET /api/tables/{id}`, `state.table`).
    pub(super) fn table_view(&self) -> TableView {
        let game = self.game.map(|g| GameSummary {
            id: g.id.clone(),
            status: if g.playing() {
                GameStatus::Playing
            } else {
                GameStatus::Over
            },
            ply: g.ply(),
            turn: side(g.position().turn()),
            result: g.over().as_ref().and_then(result_of),
            reason: g.over().as_ref().map(reason_of),
        });
        TableView {
            id: self.id.to_owned(),
            room: self.room.config.id.clone(),
            variant: self.variant.name().to_owned(),
            options: self.options.clone(),
            seats: self.seats_view(),
            ready: self.seating.ready_view(),
            spectators: self.counts.spectators,
            game,
            tournament: self.tournament.cloned(),
        }
    }

    /// The full state as seen by `guest` (or a spectator without a session) at `now`:
    /// with the chat they may see and the claim window (ms until a claim, if any).
    pub(super) fn state(
        &self,
        guest: Option<&Player>,
        chat: Vec<ChatMessage>,
        claim_at: Option<u64>,
        now: u64,
    ) -> State {
        let you = guest.map(|g| You {
            id: g.id.clone(),
            seat: self.seating.seat_of(&g.id),
            conditional: self
                .game
                .and_then(|game| {
                    let c = game.conditional.as_ref()?;
                    (game.player(c.by).id == g.id).then(|| c.lines.clone())
                })
                .unwrap_or_default(),
        });
        let counts = self.counts.clone();
        let presence = PresenceView {
            white: counts.connected.white,
            black: counts.connected.black,
            spectators: counts.spectators,
            watchers: counts.watchers,
        };
        let table = self.table_view();
        let initial_ms = self
            .options
            .period_ms()
            .unwrap_or(u64::from(self.options.minutes) * 60_000);
        let common = |status, initial_fen: String, fen| State {
            v: self.v,
            table: table.clone(),
            you: you.clone(),
            seats: self.seats_view(),
            ready: table.ready,
            options: self.options.clone(),
            presence,
            status,
            game_id: None,
            white: None,
            black: None,
            initial_fen,
            opening_plies: 0,
            ballot: None,
            fen,
            moves: Vec::new(),
            turn: side(self.variant.first_mover()),
            legal: Vec::new(),
            clock: ClockView {
                white: initial_ms,
                black: initial_ms,
                running: None,
            },
            first_move_deadline: None,
            draw_offer: None,
            counters: Vec::new(),
            result: None,
            reason: None,
            paused: None,
            claim_at: None,
            takeback_offer: None,
            chat,
            offer_limits: damka_protocol::table::OfferLimits {
                plies: self.offer_plies,
                ..Default::default()
            },
            ended_by: None,
            unrated: None,
            micro_match: self.micro.map(|m| m.view(now)),
        };
        let Some(g) = self.game else {
            let start = self.variant.start_fen().to_owned();
            return common(TableStatus::Waiting, start.clone(), start);
        };
        let status = if g.playing() {
            TableStatus::Playing
        } else {
            TableStatus::Over
        };
        State {
            game_id: Some(g.id.clone()),
            white: Some(g.players.white.clone()),
            black: Some(g.players.black.clone()),
            opening_plies: g.opening_plies,
            ballot: g.ballot.map(super::ballot::shown),
            moves: g.moves.clone(),
            turn: side(g.position().turn()),
            legal: g.legal(),
            clock: g.clock_view(now),
            first_move_deadline: g.first_move_left(now),
            paused: g.held().map(|h| match h {
                Hold::Restart { .. } => Paused::Restart,
                Hold::Storage => Paused::Storage,
            }),
            draw_offer: g.offers.draw.map(side),
            claim_at,
            takeback_offer: g.offers.takeback.map(side),
            offer_limits: g.offers.limits(self.offer_plies),
            ended_by: g.ended().and_then(|e| e.by).map(side),
            unrated: g.unrated(self.options.rated),
            counters: g.counters(),
            result: g.over().as_ref().and_then(result_of),
            reason: g.over().as_ref().map(reason_of),
            ..common(status, g.initial_fen.clone(), g.position().to_fen())
        }
    }
}
