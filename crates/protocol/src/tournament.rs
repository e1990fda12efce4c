//! Tournaments in a room: the creation request, the whole tournament
//! (`GET /api/tournaments/{id}`) and the summary the room socket announces.

use serde::{Deserialize, Serialize};

use crate::common::{GameResult, Player};

/// The pairing system.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentKind {
    /// Everyone plays everyone once (Berger tables), 3–12 players.
    RoundRobin,
    /// A fixed number of rounds, each pairing players of equal score, up to 64 players.
    Swiss,
}

impl TournamentKind {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentKind::RoundRobin => "round_robin",
            TournamentKind::Swiss => "swiss",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<TournamentKind> {
        match name {
            "round_robin" => Some(TournamentKind::RoundRobin),
            "swiss" => Some(TournamentKind::Swiss),
            _ => None,
        }
    }
}

/// Where a tournament is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Players join and leave; not started.
    Open,
    /// Rounds are being played.
    Running,
    /// Finished (or cancelled for want of players).
    Over,
}

impl TournamentStatus {
    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Over => "over",
        }
    }

    /// Parses a wire name.
    pub fn from_name(name: &str) -> Option<TournamentStatus> {
        match name {
            "open" => Some(TournamentStatus::Open),
            "running" => Some(TournamentStatus::Running),
            "over" => Some(TournamentStatus::Over),
            _ => None,
        }
    }
}

/// Body of `POST /api/rooms/{room}/tournaments`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CreateTournament {
    /// Round-robin or Swiss.
    pub kind: TournamentKind,
    /// Swiss: the number of rounds (1–15). Ignored for a round-robin (its size decides).
    #[serde(default)]
    pub rounds: Option<u32>,
    /// Minutes per player (1–15, as at a table).
    pub minutes: u32,
    /// Increment in seconds (0–10).
    pub increment: u32,
    /// Places: 3–12 for a round-robin, 3–64 for a Swiss.
    pub max_players: u32,
    /// Start this many seconds from now (1 minute to 24 hours); `null` (default): start
    /// when full (or when the creator starts it).
    #[serde(default)]
    pub starts_in_secs: Option<u64>,
    /// Fill the empty places with the computer at the start (default off).
    #[serde(default)]
    pub bots: bool,
    /// The computer's level for those places, 1–3 (default 1). An addition.
    #[serde(default)]
    pub bot_level: Option<u8>,
    /// A name (1–40 characters after cleaning; default none: clients show the kind and
    /// clock). An addition.
    #[serde(default)]
    pub name: Option<String>,
    /// Rated: only accounts join (not with `bots`), every game is rated, and a Swiss
    /// seeds by rating.
    #[serde(default)]
    pub rated: bool,
    /// Start every game from an opening ballot of the room's variant: `"random"` (a new
    /// opening of the variant's default set for each round, the same on every board of
    /// the round) or a ballot's id (every game from it); `null` (default): the start
    /// position. An addition (fourth wave).
    #[serde(default)]
    pub ballot: Option<crate::ballot::BallotChoice>,
    /// Micro-match rounds: each pairing plays two games from the round's opening, the
    /// colours swapped (default off). Scored by games. An addition (fourth wave).
    #[serde(default)]
    pub micro_match: bool,
}

/// One board of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairingView {
    /// Board number from 1.
    pub board: u32,
    /// The player with White.
    pub white: Player,
    /// The player with Black.
    pub black: Player,
    /// The table where it is played (`null` for a forfeit).
    pub table: Option<String>,
    /// The stored game (`null` for a forfeit).
    pub game: Option<String>,
    /// `white`, `black`, `draw`, or `null` while being played (and for a double forfeit).
    pub result: Option<GameResult>,
    /// How it ended (`resign`, `timeout`, … , `abandoned` for a first move not made in
    /// time, `forfeit` for a game not played because a player had left); `null` while
    /// being played.
    pub reason: Option<String>,
    /// In a micro-match round: which game of the pairing's match this board is (1, or 2
    /// with the colours swapped); absent otherwise. An addition (fourth wave).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_game: Option<u32>,
}

/// One round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundView {
    /// Round number from 1.
    pub number: u32,
    /// The boards.
    pub pairings: Vec<PairingView>,
    /// The player without an opponent this round (odd numbers), if any.
    pub bye: Option<Player>,
    /// The opening ballot every game of the round starts from (absent: the start
    /// position, or a round not started yet). An addition (fourth wave).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<crate::ballot::GameBallot>,
}

/// The tie-breaks of a standings line (all computed for both kinds; the order they
/// apply in depends on the kind, see `docs/tournaments.md`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Tiebreaks {
    /// Sum of the points of the opponents met (byes add nothing).
    pub buchholz: u32,
    /// Points of the opponents beaten plus half those of the opponents drawn.
    pub sonneborn_berger: f64,
    /// Games won (forfeits included, byes not).
    pub wins: u32,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StandingView {
    /// Place (players equal on points and every tie-break share it).
    pub rank: u32,
    /// The player.
    pub player: Player,
    /// Points: win 2, draw 1, loss 0 (a Swiss bye 2).
    pub points: u32,
    /// Games counted against an opponent (forfeits included, byes not).
    pub games: u32,
    /// Tie-breaks.
    pub tiebreaks: Tiebreaks,
    /// The player left the tournament (the rest is forfeited).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// A whole tournament (`GET /api/tournaments/{id}`, and the answer to create, join,
/// leave and start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TournamentView {
    /// Tournament id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Round-robin or Swiss.
    pub kind: TournamentKind,
    /// Open, running or over.
    pub status: TournamentStatus,
    /// The players (in seed order once started, in joining order before).
    pub players: Vec<Player>,
    /// The rounds paired so far.
    pub rounds: Vec<RoundView>,
    /// The standings, best first.
    pub standings: Vec<StandingView>,
    /// The name, if one was given.
    pub name: Option<String>,
    /// Who created it.
    pub created_by: Player,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment, seconds.
    pub increment: u32,
    /// Places.
    pub max_players: u32,
    /// Rounds to play (Swiss: as asked, or fewer for few players; round-robin: known
    /// at the start, 0 before).
    pub total_rounds: u32,
    /// The round being played (0 before the start).
    pub round: u32,
    /// Empty places filled by the computer at the start.
    pub bots: bool,
    /// The computer's level for those places.
    pub bot_level: u8,
    /// When it starts (RFC 3339), if at a set time.
    pub starts_at: Option<String>,
    /// Milliseconds until then as of sending (0 once due), if at a set time and open.
    pub starts_in_ms: Option<u64>,
    /// Ended for want of players at its start time.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// Rated (only accounts join; the games are rated).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The games start from opening ballots (`"random"` or a ballot's id), as created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ballot: Option<crate::ballot::BallotChoice>,
    /// Micro-match rounds (two games per pairing, colours swapped).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub micro_match: bool,
    /// During the break between two rounds: the next round as paired now (no tables
    /// yet), else `None`. An addition to the contract.
    #[serde(default)]
    pub next_round: Option<RoundView>,
    /// Milliseconds until that round's games start, as of sending (with `next_round`).
    #[serde(default)]
    pub next_round_in_ms: Option<u64>,
    /// Counts the tournament's changes (a client refetching knows whether it is newer).
    pub version: u64,
}

/// What the room socket shows of a tournament (`tournament_added` /
/// `tournament_updated`, `room.tournaments`): the tournament without its rounds and
/// standings, plus who leads.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TournamentSummary {
    /// Tournament id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Round-robin or Swiss.
    pub kind: TournamentKind,
    /// Open, running or over.
    pub status: TournamentStatus,
    /// The players.
    pub players: Vec<Player>,
    /// The name, if one was given.
    pub name: Option<String>,
    /// Who created it.
    pub created_by: Player,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment, seconds.
    pub increment: u32,
    /// Places.
    pub max_players: u32,
    /// Rounds to play (0 before a round-robin starts).
    pub total_rounds: u32,
    /// The round being played.
    pub round: u32,
    /// Empty places filled by the computer.
    pub bots: bool,
    /// The computer's level for those places (an addition).
    #[serde(default = "one")]
    pub bot_level: u8,
    /// When it starts (RFC 3339), if at a set time.
    pub starts_at: Option<String>,
    /// The leader (first in the standings) once a game has ended.
    pub leader: Option<Player>,
    /// Ended for want of players.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cancelled: bool,
    /// Rated (only accounts join; the games are rated), so that the room's list says so.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The games start from opening ballots, as created.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ballot: Option<crate::ballot::BallotChoice>,
    /// Micro-match rounds.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub micro_match: bool,
    /// Counts the tournament's changes.
    pub version: u64,
}

/// The default computer level.
fn one() -> u8 {
    1
}

impl From<&TournamentView> for TournamentSummary {
    fn from(t: &TournamentView) -> TournamentSummary {
        let decided = t
            .rounds
            .iter()
            .any(|r| r.pairings.iter().any(|p| p.reason.is_some()) || r.bye.is_some());
        TournamentSummary {
            id: t.id.clone(),
            room: t.room.clone(),
            kind: t.kind,
            status: t.status,
            players: t.players.clone(),
            name: t.name.clone(),
            created_by: t.created_by.clone(),
            minutes: t.minutes,
            increment: t.increment,
            max_players: t.max_players,
            total_rounds: t.total_rounds,
            round: t.round,
            bots: t.bots,
            bot_level: t.bot_level,
            starts_at: t.starts_at.clone(),
            leader: t
                .standings
                .first()
                .filter(|_| decided)
                .map(|s| s.player.clone()),
            cancelled: t.cancelled,
            rated: t.rated,
            ballot: t.ballot.clone(),
            micro_match: t.micro_match,
            version: t.version,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_names_stay() {
        let req: CreateTournament = serde_json::from_value(serde_json::json!({
            "kind": "round_robin", "minutes": 5, "increment": 3, "max_players": 4,
            "starts_in_secs": null, "bots": true
        }))
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(req.kind, TournamentKind::RoundRobin);
        assert!(req.bots && req.rounds.is_none());
        let p = PairingView {
            board: 1,
            white: Player::guest("a", "A"),
            black: Player::guest("b", "B"),
            table: Some("t1".into()),
            game: Some("g1".into()),
            result: Some(GameResult::Draw),
            reason: Some("agreement".into()),
            match_game: None,
        };
        let v = serde_json::to_value(&p).unwrap_or_default();
        for key in ["white", "black", "table", "game", "result"] {
            assert!(v.get(key).is_some(), "{key} in {v}");
        }
        assert_eq!(
            serde_json::to_value(TournamentStatus::Running).ok(),
            Some(serde_json::json!("running"))
        );
    }

    #[test]
    fn a_rated_tournament_says_so_in_its_summary() {
        let view = |rated: bool| -> TournamentView {
            serde_json::from_value(serde_json::json!({
                "id": "x1", "room": "russian", "kind": "swiss", "status": "open",
                "players": [], "rounds": [], "standings": [], "name": null,
                "created_by": {"id": "a", "name": "Ala_K", "account": true},
                "minutes": 5, "increment": 0, "max_players": 8, "total_rounds": 3,
                "round": 0, "bots": false, "bot_level": 1, "starts_at": null,
                "starts_in_ms": null, "rated": rated, "version": 1
            }))
            .unwrap_or_else(|e| panic!("{e}"))
        };
        let rated = serde_json::to_value(TournamentSummary::from(&view(true))).unwrap_or_default();
        assert_eq!(rated["rated"], true, "{rated}");
        let casual =
            serde_json::to_value(TournamentSummary::from(&view(false))).unwrap_or_default();
        assert!(
            casual.get("rated").is_none(),
            "as before for a casual one: {casual}"
        );
    }
}
