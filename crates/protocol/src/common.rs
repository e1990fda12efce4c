//! The common objects of the protocol: players, options, clocks, tables, rooms, games.

use serde::{Deserialize, Serialize};

/// A colour on the wire: `"white"` or `"black"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl Side {
    /// The other colour.
    pub fn other(self) -> Side {
        match self {
            Side::White => Side::Black,
            Side::Black => Side::White,
        }
    }

    /// Index 0 for white, 1 for black (for two-element arrays).
    pub fn index(self) -> usize {
        match self {
            Side::White => 0,
            Side::Black => 1,
        }
    }

    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Side::White => "white",
            Side::Black => "black",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<Side> {
        match name {
            "white" => Some(Side::White),
            "black" => Some(Side::Black),
            _ => None,
        }
    }
}

/// A guest or an account as others see it, or the computer in a seat (`bot` set).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    /// Stable player id (`bot-N` for the computer at level N); an account keeps the id
    /// it had as a guest.
    pub id: String,
    /// Display name (an account's is its username).
    pub name: String,
    /// The computer's level (1–3) when this seat is the built-in engine; absent for a
    /// person.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<u8>,
    /// An account (absent for a guest).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// An account's rating (rounded) in the variant of where it is shown, when a variant
    /// is known there (seats, a room's people, tournament players and standings).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// That rating is provisional (RD 110 or more): shown with a "?".
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
}

impl Player {
    /// A person (a guest).
    pub fn guest(id: impl Into<String>, name: impl Into<String>) -> Player {
        Player {
            id: id.into(),
            name: name.into(),
            bot: None,
            account: false,
            rating: None,
            provisional: false,
        }
    }

    /// A person with an account (no rating shown yet).
    pub fn account(id: impl Into<String>, username: impl Into<String>) -> Player {
        Player {
            account: true,
            ..Player::guest(id, username)
        }
    }

    /// The same player without a rating (where no variant is known).
    pub fn unrated(&self) -> Player {
        Player {
            rating: None,
            provisional: false,
            ..self.clone()
        }
    }

    /// Whether this seat is the computer.
    pub fn is_bot(&self) -> bool {
        self.bot.is_some()
    }
}

/// Options of a table, fixed when it is created. The default is a 5-minute game without
/// increment, from the start position, capturing compulsory, between people.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Initial time per player, 1–15 minutes; 0 (absent in a request) at a correspondence
    /// table.
    #[serde(default)]
    pub minutes: u32,
    /// Fischer increment per move, 0–10 seconds; 0 at a correspondence table.
    #[serde(default)]
    pub increment: u32,
    /// A correspondence table: days per move (one of [`CORRESPONDENCE_DAYS`]) instead of
    /// minutes and increment; each move resets the mover's time to this many days. Only
    /// accounts sit at one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// Start every game from a few random opening plies.
    #[serde(default)]
    pub random_opening: bool,
    /// Start every game from an opening ballot: a new one of the variant's default set
    /// for each game (`"random"`), or the one with this id; `null` (absent): the start
    /// position. Never with `random_opening`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ballot: Option<crate::ballot::BallotChoice>,
    /// Play micro-matches: two games from one opening (the ballot's, the random
    /// opening's or the start position) with the colours swapped, one match result.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub micro_match: bool,
    /// Capturing is not compulsory (8x8 variants only).
    #[serde(default)]
    pub capture_optional: bool,
    /// The computer's level (1–3) when the other seat is the built-in engine.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<u8>,
    /// One guest plays both sides on one screen.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub local: bool,
    /// Rated: only accounts sit, and the game changes both players' ratings (never with
    /// `bot`, `local` or `capture_optional`; with `random_opening` or a `ballot` of
    /// Damka's own sets only in a micro-match).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The ratings welcome in the free seat of a rated table (the creator's own may be
    /// outside it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating_range: Option<RatingRange>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            minutes: 5,
            increment: 0,
            days: None,
            random_opening: false,
            ballot: None,
            micro_match: false,
            capture_optional: false,
            bot: None,
            local: false,
            rated: false,
            rating_range: None,
        }
    }
}

/// The days per move a correspondence table may have.
pub const CORRESPONDENCE_DAYS: [u32; 7] = [1, 2, 3, 5, 7, 10, 14];

impl Options {
    /// The time each side has per move at a correspondence table, ms (`None` for a live
    /// table).
    pub fn period_ms(&self) -> Option<u64> {
        self.days.map(|d| u64::from(d) * 86_400_000)
    }
}

/// A range of ratings, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingRange {
    /// The lowest rating welcome.
    pub min: u32,
    /// The highest.
    pub max: u32,
}

impl RatingRange {
    /// Whether a (rounded) rating is in the range.
    pub fn contains(&self, rating: i32) -> bool {
        i64::from(self.min) <= i64::from(rating) && i64::from(rating) <= i64::from(self.max)
    }
}

/// The seat a table's creator asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeatChoice {
    /// The white seat.
    White,
    /// The black seat.
    Black,
    /// Either, drawn at random.
    #[default]
    Random,
}

/// Body of `POST /api/rooms/{room}/tables`: the table's options (`minutes` required, or
/// `days` instead for correspondence; the increment 0, random opening, optional capture,
/// the computer's level `bot` and `local` off by default) and the seat the creator takes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateTable {
    /// The table's options, as the table will show them.
    #[serde(flatten)]
    pub options: Options,
    /// The seat the creator takes (default random).
    #[serde(default)]
    pub seat: SeatChoice,
}

/// Body of `POST /api/guest`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuestRequest {
    /// A new display name, if any.
    #[serde(default)]
    pub name: Option<String>,
}

/// Remaining time of both sides and the side whose time runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockView {
    /// White's remaining time in ms.
    pub white: u64,
    /// Black's remaining time in ms.
    pub black: u64,
    /// The side whose time is running, or `null`.
    pub running: Option<Side>,
}

/// Remaining times after a stored move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockTimes {
    /// White's remaining time in ms.
    pub white: u64,
    /// Black's remaining time in ms.
    pub black: u64,
}

/// A live draw-rule counter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CounterView {
    /// Rule id (`forty_moves`, `kings_only`, ...).
    pub rule: String,
    /// Moves counted so far.
    pub moves: u32,
    /// Moves at which the rule draws.
    pub limit: u32,
}

/// Both seats of a table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Seats {
    /// The white seat.
    pub white: Option<Player>,
    /// The black seat.
    pub black: Option<Player>,
}

/// Who pressed start.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ready {
    /// White is ready.
    pub white: bool,
    /// Black is ready.
    pub black: bool,
}

/// Status of a table's game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameStatus {
    /// Being played.
    Playing,
    /// Finished (or aborted).
    Over,
}

impl GameStatus {
    /// The wire (and stored) name.
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Playing => "playing",
            GameStatus::Over => "over",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<GameStatus> {
        match name {
            "playing" => Some(GameStatus::Playing),
            "over" => Some(GameStatus::Over),
            _ => None,
        }
    }
}

/// Status of a table as a whole (the `status` of `state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TableStatus {
    /// No game yet.
    Waiting,
    /// A game is being played.
    Playing,
    /// The last game is over.
    Over,
}

/// The outcome of a finished game: the winner or a draw.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameResult {
    /// White won.
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// The wire (and stored) name.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::White => "white",
            GameResult::Black => "black",
            GameResult::Draw => "draw",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<GameResult> {
        match name {
            "white" => Some(GameResult::White),
            "black" => Some(GameResult::Black),
            "draw" => Some(GameResult::Draw),
            _ => None,
        }
    }
}

/// Why a game at a rated table (or of a rated tournament) is played unrated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unrated {
    /// The two players already played the server's daily number of rated games against
    /// each other (`--rated-games-per-pair`): this one is casual.
    PairLimit,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// The side to move had no legal move.
    NoMoves,
    /// A player resigned.
    Resign,
    /// A player's time ran out.
    Timeout,
    /// Draw agreed.
    Agreement,
    /// Threefold repetition.
    Threefold,
    /// A draw-rule move limit.
    MoveLimit,
    /// Aborted before both players moved.
    Aborted,
    /// Claimed by the connected player after the opponent stayed disconnected for the
    /// claim delay (a win or a draw, as claimed).
    Abandoned,
}

impl EndReason {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::NoMoves => "no_moves",
            EndReason::Resign => "resign",
            EndReason::Timeout => "timeout",
            EndReason::Agreement => "agreement",
            EndReason::Threefold => "threefold",
            EndReason::MoveLimit => "move_limit",
            EndReason::Aborted => "aborted",
            EndReason::Abandoned => "abandoned",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<EndReason> {
        Some(match name {
            "no_moves" => EndReason::NoMoves,
            "resign" => EndReason::Resign,
            "timeout" => EndReason::Timeout,
            "agreement" => EndReason::Agreement,
            "threefold" => EndReason::Threefold,
            "move_limit" => EndReason::MoveLimit,
            "aborted" => EndReason::Aborted,
            "abandoned" => EndReason::Abandoned,
            _ => return None,
        })
    }
}

/// Summary of a table's current or last game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Game id.
    pub id: String,
    /// Playing or over.
    pub status: GameStatus,
    /// Plies played.
    pub ply: u32,
    /// Side to move.
    pub turn: Side,
    /// Result when over.
    pub result: Option<GameResult>,
    /// Reason when over.
    pub reason: Option<EndReason>,
}

/// A table as listed in rooms and returned by `GET /api/tables/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableView {
    /// Table id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Variant id.
    pub variant: String,
    /// Options.
    pub options: Options,
    /// Seats.
    pub seats: Seats,
    /// Who pressed start.
    pub ready: Ready,
    /// Connected sockets that are not a seated player's.
    pub spectators: u32,
    /// The current or last game.
    pub game: Option<GameSummary>,
    /// The tournament whose game this table plays (absent at a casual table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TableTournament>,
}

/// A text in the client's languages: Polish and English always, the others when known
/// (a rooms file may give only `pl` and `en`; the client then shows English).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Texts {
    /// Polish.
    pub pl: String,
    /// English.
    pub en: String,
    /// Russian.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ru: Option<String>,
    /// Portuguese (Brazil).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pt: Option<String>,
    /// Spanish.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub es: Option<String>,
    /// Italian.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub it: Option<String>,
    /// Czech.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cs: Option<String>,
    /// Dutch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nl: Option<String>,
    /// French.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fr: Option<String>,
}

/// A room as listed by `GET /api/rooms`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomView {
    /// Room id.
    pub id: String,
    /// Display name (Polish).
    pub name: String,
    /// Names in both languages.
    pub names: Texts,
    /// One-line rules in both languages.
    pub rules: Texts,
    /// Variant id.
    pub variant: String,
    /// Number of open tables.
    pub tables: u32,
    /// Sockets connected to the room.
    pub players: u32,
}

/// A room with its tables (`GET /api/rooms/{room}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomDetail {
    /// Room id.
    pub id: String,
    /// Display name (Polish).
    pub name: String,
    /// Names in both languages.
    pub names: Texts,
    /// One-line rules in both languages.
    pub rules: Texts,
    /// Variant id.
    pub variant: String,
    /// The open tables.
    pub tables: Vec<TableView>,
    /// Sockets connected to the room.
    pub players: u32,
}

/// One playing square of a variant's board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SquareView {
    /// PDN name (`"a1"` or `"32"`).
    pub name: String,
    /// Column from the left.
    pub x: u8,
    /// Row from the top.
    pub y: u8,
}

/// A variant as listed by `GET /api/variants`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct VariantView {
    /// Wire id.
    pub id: String,
    /// Names.
    pub names: Texts,
    /// One-line rules.
    pub rules: Texts,
    /// Full PDN GameType.
    pub game_type: String,
    /// Board size (8 or 10).
    pub board: u8,
    /// The side that moves first.
    pub first: Side,
    /// Start position as FEN.
    pub start_fen: String,
    /// Playing squares with display coordinates.
    pub squares: Vec<SquareView>,
}

/// A stored move of `GET /api/games/{id}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StoredMove {
    /// Ply number from 1.
    pub ply: u32,
    /// The move, full path.
    #[serde(rename = "move")]
    pub mv: String,
    /// Position after the move.
    pub fen: String,
    /// Clocks after the move.
    pub clock: ClockTimes,
    /// Time the mover used, in ms.
    pub used_ms: u64,
}

/// A stored game (`GET /api/games/{id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Game id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Variant id.
    pub variant: String,
    /// Table options.
    pub options: Options,
    /// White player.
    pub white: Player,
    /// Black player.
    pub black: Player,
    /// Position before ply 1.
    pub initial_fen: String,
    /// How many of the first plies were a random opening.
    pub opening_plies: u32,
    /// The opening ballot the game started from (`initial_fen` is its position), or
    /// `null`.
    #[serde(default)]
    pub ballot: Option<crate::ballot::GameBallot>,
    /// The moves.
    pub moves: Vec<StoredMove>,
    /// Result, or `null` (aborted or unfinished).
    pub result: Option<GameResult>,
    /// Reason, or `null` while playing.
    pub reason: Option<EndReason>,
    /// Start time (RFC 3339).
    pub started_at: String,
    /// End time (RFC 3339), or `null`.
    pub ended_at: Option<String>,
    /// The tournament and round it was played in (absent for a casual game).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tournament: Option<TableTournament>,
    /// A rated game's rating changes (absent for a casual game or one without result).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ratings: Option<crate::account::GameRatings>,
    /// The micro-match the game belongs to, and which of its games it is (absent
    /// outside one).
    #[serde(default, rename = "match", skip_serializing_if = "Option::is_none")]
    pub micro_match: Option<crate::micro_match::MatchGame>,
}

/// One line of `GET /api/rooms/{room}/games`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameListItem {
    /// Game id.
    pub id: String,
    /// White player.
    pub white: Player,
    /// Black player.
    pub black: Player,
    /// Result.
    pub result: Option<GameResult>,
    /// Reason.
    pub reason: Option<EndReason>,
    /// Plies played.
    pub plies: u32,
    /// End time (RFC 3339).
    pub ended_at: Option<String>,
    /// The variant's wire id (a player's games span rooms).
    #[serde(default)]
    pub variant: String,
}

/// A chat message of a room or a table, as broadcast and as kept in the history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// Message id.
    pub id: String,
    /// The sender (name as shown in that room: disambiguated).
    pub from: Player,
    /// Plain text, 1–300 characters, trimmed, control characters removed.
    pub text: String,
    /// When the server received it, RFC 3339 (UTC).
    pub at: String,
    /// A spectator's table message during a game: only spectators receive it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub spectators: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Where a person in a room is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Whereabouts {
    /// On the room page (a room socket), at no table.
    Room,
    /// At a table (seated between games, or watching).
    Table,
    /// Playing a game at a table.
    Playing,
}

/// A person in a room (`people` of the room socket).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    /// Guest id.
    pub id: String,
    /// Display name, disambiguated within the room (`Name #a3f` when another person
    /// there has a name that looks the same).
    pub name: String,
    /// Where they are.
    #[serde(rename = "where")]
    pub whereabouts: Whereabouts,
    /// The table they are at, if any (for `table` and `playing`).
    pub table: Option<String>,
    /// An account (absent for a guest).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub account: bool,
    /// An account's rating (rounded) in the room's variant.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<i32>,
    /// That rating is provisional (shown with a "?").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub provisional: bool,
}

/// Where a table belongs when it plays a tournament game (`table.tournament`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableTournament {
    /// Tournament id.
    pub id: String,
    /// The round.
    pub round: u32,
}
