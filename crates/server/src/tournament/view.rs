//! A tournament as clients see it: the whole tournament (`GET /api/tournaments/{id}`)
//! with its rounds and standings, and the summary a room lists.

use damka_protocol::GameResult;
use damka_protocol::tournament::{
    PairingView, RoundView, StandingView, Tiebreaks, TournamentKind, TournamentStatus,
    TournamentSummary, TournamentView,
};

use super::model::{Board, PlannedRound, Tournament};
use super::standings::{self, Outcome};

impl Tournament {
    /// The standings, best first.
    pub fn standings(&self) -> Vec<StandingView> {
        let (games, byes) = self.decided();
        standings::standings(
            self.settings.kind,
            self.bye_points(),
            self.players.len(),
            &games,
            &byes,
        )
        .into_iter()
        .map(|l| StandingView {
            rank: l.rank,
            player: self.players[l.player].player.clone(),
            points: l.points,
            games: l.games,
            tiebreaks: Tiebreaks {
                buchholz: l.buchholz,
                sonneborn_berger: f64::from(l.sonneborn_berger_x2) / 2.0,
                wins: l.wins,
            },
            withdrawn: self.players[l.player].left_round.is_some(),
        })
        .collect()
    }

    /// The round about to start after the break, as paired now (no tables yet; a
    /// forfeit shows its result; the opening is drawn when it starts).
    fn next_round_view(&self, planned: &PlannedRound) -> RoundView {
        let boards = self.boards_of(planned, &vec![None; planned.boards.len()]);
        RoundView {
            number: planned.number,
            pairings: self.pairings(&boards),
            bye: planned.bye.map(|i| self.players[i].player.clone()),
            opening: None,
        }
    }

    /// Boards as the wire shows them.
    fn pairings(&self, boards: &[Board]) -> Vec<PairingView> {
        let player = |i: usize| self.players[i].player.clone();
        boards
            .iter()
            .enumerate()
            .map(|(i, b)| PairingView {
                board: u32::try_from(i + 1).unwrap_or(u32::MAX),
                white: player(b.white),
                black: player(b.black),
                table: b.table.clone(),
                game: b.game.clone(),
                result: b.result.as_ref().and_then(|r| game_result(r.outcome)),
                reason: b.result.as_ref().map(|r| r.reason.clone()),
                match_game: b.match_game.map(u32::from),
            })
            .collect()
    }

    /// The whole tournament as sent to clients, as of `now` (Unix ms).
    pub fn view(&self, now: i64) -> TournamentView {
        let player = |i: usize| self.players[i].player.clone();
        let rounds = self
            .rounds
            .iter()
            .map(|r| RoundView {
                number: r.number,
                pairings: self.pairings(&r.boards),
                bye: r.bye.map(player),
                opening: r.opening.map(crate::table::ballot::shown),
            })
            .collect();
        let open = self.status == TournamentStatus::Open;
        TournamentView {
            id: self.id.clone(),
            room: self.room.clone(),
            kind: self.settings.kind,
            status: self.status,
            players: self.players.iter().map(|e| e.player.clone()).collect(),
            rounds,
            standings: if open { Vec::new() } else { self.standings() },
            name: self.settings.name.clone(),
            created_by: self.created_by.clone(),
            minutes: self.settings.minutes,
            increment: self.settings.increment,
            max_players: self.settings.max_players,
            total_rounds: if open && self.settings.kind == TournamentKind::Swiss {
                self.settings.rounds
            } else {
                self.total_rounds
            },
            round: self.round(),
            bots: self.settings.bots,
            bot_level: self.settings.bot_level,
            starts_at: self.settings.starts_at.map(crate::time::rfc3339),
            starts_in_ms: self
                .settings
                .starts_at
                .filter(|_| open)
                .map(|at| u64::try_from(at - now).unwrap_or(0)),
            cancelled: self.cancelled,
            rated: self.settings.rated,
            ballot: self.settings.ballot.clone(),
            micro_match: self.settings.micro_match,
            next_round: self
                .next_round
                .as_ref()
                .map(|(p, _)| self.next_round_view(p)),
            next_round_in_ms: self
                .next_round
                .as_ref()
                .map(|&(_, at)| u64::try_from(at - now).unwrap_or(0)),
            version: self.version,
        }
    }

    /// What the room shows.
    pub fn summary(&self, now: i64) -> TournamentSummary {
        TournamentSummary::from(&self.view(now))
    }
}

/// A board's result on the wire (`None`: no result).
fn game_result(outcome: Outcome) -> Option<GameResult> {
    match outcome {
        Outcome::White => Some(GameResult::White),
        Outcome::Black => Some(GameResult::Black),
        Outcome::Draw => Some(GameResult::Draw),
        Outcome::Void => None,
    }
}
