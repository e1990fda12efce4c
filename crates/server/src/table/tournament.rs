//! The table's side of a tournament: a tournament asks the registry for a table whose
//! game is already started (both seats taken, stored with the round), and the table,
//! once its game's end is stored, reports `(tournament, round, game, result)` through
//! [`crate::tournament::Tournaments::game_over`]. What a tournament table refuses
//! (seats, restarts, aborts, takebacks) and the first-move rule (a player who does not
//! make their first move in time loses, reason `abandoned`) live here too.

use damka_protocol::table::ClientMessage;
use damka_protocol::{EndReason, ErrorCode, GameResult, Options, Player, TableTournament};

use draughts::{ByColor, Color, Position, Reason, Rules};

use super::game::{GameStart, LiveGame};
use super::registry::{GameReport, TableSeed, Tables};
use crate::error::AppError;
use crate::room::Room;
use damka_store::NewGame;

/// A tournament game to set up at a new table.
#[derive(Debug, Clone)]
pub struct TournamentGameSpec {
    /// The table's id (from [`Tables::fresh_id`]).
    pub table_id: String,
    /// The game's id.
    pub game_id: String,
    /// The tournament and round.
    pub tournament: TableTournament,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment, seconds.
    pub increment: u32,
    /// A rated tournament's game.
    pub rated: bool,
    /// Whether this game is rated: the tournament's setting, unless the two players
    /// reached their daily number of rated games against each other.
    pub rate_game: bool,
    /// The tournament creator's address: the table counts against its table cap.
    pub creator_ip: Option<std::net::IpAddr>,
    /// The ballot the round's games start from (`None`: the start position).
    pub opening: Option<&'static draughts::ballot::Ballot>,
    /// A micro-match: the table plays a second game after this one, colours swapped,
    /// with the id [`super::second_game_id`] of this one's.
    pub micro_match: bool,
}

/// A tournament game made ready: the row to store (with the round) and the table to
/// open once it is stored.
pub struct PreparedTable {
    /// The game's row.
    pub game: NewGame,
    /// The table, game started.
    pub seed: TableSeed,
}

impl Tables {
    /// A table id not in use.
    pub fn fresh_id(&self) -> String {
        loop {
            let id = format!("t{}", crate::random::token_base36(7));
            if self.get(&id).is_none() {
                return id;
            }
        }
    }

    /// Builds the stored row and the table of a tournament game, started now (the
    /// first-move window runs from now). Nothing is stored or opened yet.
    pub fn prepare_tournament_game(
        &self,
        room: &std::sync::Arc<Room>,
        spec: &TournamentGameSpec,
    ) -> PreparedTable {
        let variant = room.config.variant;
        let rules = Rules::new(variant);
        let fen = spec.opening.map(draughts::ballot::Ballot::fen).or(self
            .core
            .config
            .test
            .test_start_fen
            .as_deref());
        let position = match fen {
            Some(fen) => Position::from_fen(rules, fen).unwrap_or_else(|_| Position::new(rules)),
            None => Position::new(rules),
        };
        let bot = crate::computer::level_of(&spec.white)
            .or_else(|| crate::computer::level_of(&spec.black))
            .map(bot::Level::number);
        let options = Options {
            minutes: spec.minutes,
            increment: spec.increment,
            days: None,
            bot,
            rated: spec.rated,
            ballot: spec
                .opening
                .map(|b| damka_protocol::ballot::BallotChoice::Id(b.id().to_owned())),
            micro_match: spec.micro_match,
            ..Options::default()
        };
        let players = ByColor {
            white: spec.white.clone(),
            black: spec.black.clone(),
        };
        let (live, game) = LiveGame::start(GameStart {
            id: spec.game_id.clone(),
            table_id: spec.table_id.clone(),
            room: room.config.id.clone(),
            variant,
            options: options.clone(),
            players: players.clone(),
            position,
            ballot: spec.opening,
            opening: Vec::new(),
            micro_match: spec.micro_match.then(|| damka_store::MatchSlot {
                id: spec.game_id.clone(),
                game: 1,
            }),
            now: self.core.time.now_ms(),
            started_at: crate::time::unix_ms(),
            first_move_ms: self.core.config.first_move_window().as_millis() as u64,
            rated: spec.rated && spec.rate_game,
        });
        let micro = spec
            .micro_match
            .then(|| super::micro_match::MicroMatch::first(&live));
        let seed = TableSeed {
            id: spec.table_id.clone(),
            room: room.clone(),
            options,
            seats: players.map(Some),
            game: Some(live),
            chat: Vec::new(),
            tournament: Some(spec.tournament.clone()),
            micro,
            epoch: None,
            creator_ip: spec.creator_ip,
        };
        PreparedTable { game, seed }
    }

    /// Opens a tournament table whose game is stored: its actor starts, the room lists
    /// it, and the game's first-move window runs.
    ///
    /// Fails if the table cannot be made (unknown variant or options).
    pub fn open_tournament_table(
        self: &std::sync::Arc<Self>,
        seed: TableSeed,
    ) -> Result<(), AppError> {
        self.insert_restored(seed)
    }
}

/// Whether a tournament table refuses this message: its seats are the pairing's and it
/// plays only the tournament's game (no sitting, standing, restarting); a game is never
/// aborted (a player who cannot play resigns; one who does not show up loses by the
/// first-move rule). Any other table refuses nothing here.
///
/// Fails with `bad_message` (seats, start) or `game_in_progress` (abort).
pub(super) fn refuses(tournament: bool, msg: &ClientMessage) -> Result<(), AppError> {
    if !tournament {
        return Ok(());
    }
    match msg {
        ClientMessage::Sit { .. } | ClientMessage::Stand | ClientMessage::Start => Err(
            AppError::BadMessage("a tournament table plays only its tournament game".into()),
        ),
        ClientMessage::Abort => Err(AppError::game(
            ErrorCode::GameInProgress,
            "a tournament game cannot be aborted: resign instead",
        )),
        _ => Ok(()),
    }
}

/// How a first-move window that ran out ends `game`: aborted at a casual table, lost by
/// the side that did not move (`abandoned`) at a tournament table.
pub(super) fn first_move_missed(
    tournament: bool,
    game: Option<&LiveGame>,
) -> (Option<Color>, Reason) {
    match (tournament, game) {
        (true, Some(g)) => (Some(g.position().turn().other()), Reason::Abandoned),
        _ => (None, Reason::Aborted),
    }
}

/// What a tournament table reports once `game`'s end is stored.
pub(super) fn report(
    tournament: Option<&TableTournament>,
    game: Option<&LiveGame>,
    result: Option<GameResult>,
    reason: EndReason,
) -> Option<GameReport> {
    let (t, g) = (tournament?, game?);
    Some(GameReport {
        tournament: t.id.clone(),
        round: t.round,
        game: g.id.clone(),
        result,
        reason: reason.as_str().to_owned(),
    })
}

/// A player left the tournament while its micro-match `m` waits for its second game
/// (`game_id` is the second game's id, or the first's): that game is not played, and is
/// reported lost by the leaver (`forfeit`). `None` if the match is not in its break, or
/// the game or the player is not its.
pub(super) fn forfeit_second(
    tournament: &TableTournament,
    m: &mut super::micro_match::MicroMatch,
    game_id: &str,
    player_id: &str,
) -> Option<GameReport> {
    if !(m.in_break() && (m.games[0] == game_id || m.second_id() == game_id)) {
        return None;
    }
    // In the second game the colours are swapped: the leaver's opponent had their colour
    // in the first.
    let (white, black) = m.second_players();
    let result = if white.id == player_id {
        GameResult::Black
    } else if black.id == player_id {
        GameResult::White
    } else {
        return None;
    };
    m.stage = super::micro_match::Stage::Over;
    Some(GameReport {
        tournament: tournament.id.clone(),
        round: tournament.round,
        game: m.second_id(),
        result: Some(result),
        reason: "forfeit".to_owned(),
    })
}
