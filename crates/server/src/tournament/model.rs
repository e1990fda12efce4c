//! A tournament as values: its entrants, rounds and results, and what joining, leaving,
//! starting, pairing and a result do to them. Pure: the actor (`actor.rs`) stores
//! every change before it applies it here and announces it.
//!
//! Entrants keep their joining order, which is also the seed order once the tournament
//! starts (there are no ratings; the creator, first to join, is seed 1): a player's
//! index in [`Tournament::players`] is their seed minus one, for the pairing and the
//! standings alike.

use damka_protocol::ballot::BallotChoice;
use damka_protocol::tournament::{TournamentKind, TournamentStatus};
use damka_protocol::{ErrorCode, GameResult, Player};
use draughts::Color;
use draughts::ballot::Ballot;

use super::pairing::{RoundPairing, berger, swiss};
use super::standings::{self, Decided, Outcome};
use crate::refusal::Refusal;

/// The fewest players a tournament starts with (the computer's places included).
pub const MIN_PLAYERS: usize = 3;

/// The fewest people a tournament starts with: the computer fills places for people, it
/// does not play tournaments for nobody.
pub const MIN_PEOPLE: usize = 2;

/// What the creator chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Settings {
    /// Round-robin or Swiss.
    pub kind: TournamentKind,
    /// Swiss: rounds asked for.
    pub rounds: u32,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment, seconds.
    pub increment: u32,
    /// Places.
    pub max_players: u32,
    /// Fill empty places with the computer at the start.
    pub bots: bool,
    /// The computer's level for them.
    pub bot_level: u8,
    /// Start time (Unix ms), or `None`: when full (or started by the creator).
    pub starts_at: Option<i64>,
    /// The name, if given.
    pub name: Option<String>,
    /// Rated: accounts only, rated games, a Swiss seeded by rating.
    pub rated: bool,
    /// Every game from an opening ballot: a new one each round (`Random`, the same on
    /// every board of the round) or always the named one; `None`: the start position.
    pub ballot: Option<BallotChoice>,
    /// Micro-match rounds: each pairing plays two games from the round's opening, the
    /// colours swapped (boards 2k-1 and 2k of the round).
    pub micro_match: bool,
}

/// A player in the tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entrant {
    /// Who.
    pub player: Player,
    /// Left the tournament: the first round they do not play (forfeited).
    pub left_round: Option<u32>,
}

/// A result on a board.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardResult {
    /// For the points.
    pub outcome: Outcome,
    /// The wire reason (`resign`, …, `forfeit`).
    pub reason: String,
}

/// One board of a round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    /// White (seed index).
    pub white: usize,
    /// Black (seed index).
    pub black: usize,
    /// The table (`None`: a forfeit, not played).
    pub table: Option<String>,
    /// The game (`None`: a forfeit).
    pub game: Option<String>,
    /// The result once known.
    pub result: Option<BoardResult>,
    /// In a micro-match round: 1 for the pairing's first game, 2 for the second (the
    /// colours swapped, the board after the first).
    pub match_game: Option<u8>,
}

/// One round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Round {
    /// Number from 1.
    pub number: u32,
    /// The boards.
    pub boards: Vec<Board>,
    /// The player sitting out.
    pub bye: Option<usize>,
    /// The ballot every game of the round starts from (`None`: the start position).
    pub opening: Option<&'static Ballot>,
}

/// A tournament.
#[derive(Debug, Clone, PartialEq)]
pub struct Tournament {
    /// Id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// What the creator chose.
    pub settings: Settings,
    /// Who created it.
    pub created_by: Player,
    /// Unix ms.
    pub created_at: i64,
    /// Open, running or over.
    pub status: TournamentStatus,
    /// Entrants in seed order.
    pub players: Vec<Entrant>,
    /// Rounds paired so far.
    pub rounds: Vec<Round>,
    /// Rounds to play (fixed at the start).
    pub total_rounds: u32,
    /// Unix ms.
    pub started_at: Option<i64>,
    /// Unix ms.
    pub ended_at: Option<i64>,
    /// Ended for want of players.
    pub cancelled: bool,
    /// The next round during the break before it (paired, not stored yet) and when its
    /// games start (Unix ms); `None` otherwise. Paired again when it starts, so a player
    /// who leaves meanwhile is not paired.
    pub next_round: Option<(PlannedRound, i64)>,
    /// Counts changes (for clients; not stored, so it restarts at a restart, which a
    /// client sees as a change anyway).
    pub version: u64,
}

/// What leaving did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Left {
    /// Before the start: the place is free again.
    Removed,
    /// During the tournament: the rest is forfeited from round `from`; a game being
    /// played now (table, game) is to be resigned.
    Withdrew {
        /// First round forfeited.
        from: u32,
        /// The running game to resign, if any.
        running: Option<(String, String)>,
    },
}

/// A round about to be stored: its pairings, forfeits decided, tables still to make.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedRound {
    /// Number from 1.
    pub number: u32,
    /// (white, black, forfeit result if a player had left).
    pub boards: Vec<(usize, usize, Option<Outcome>)>,
    /// The player sitting out.
    pub bye: Option<usize>,
}

impl Tournament {
    /// A new open tournament with its creator as the first entrant.
    pub fn new(
        id: String,
        room: String,
        settings: Settings,
        creator: Player,
        now: i64,
    ) -> Tournament {
        Tournament {
            id,
            room,
            settings,
            created_by: creator.clone(),
            created_at: now,
            status: TournamentStatus::Open,
            players: vec![Entrant {
                player: creator,
                left_round: None,
            }],
            rounds: Vec::new(),
            total_rounds: 0,
            started_at: None,
            ended_at: None,
            cancelled: false,
            next_round: None,
            version: 1,
        }
    }

    /// Shows (or, with `None`, stops showing) the next round during the break before it.
    pub fn set_next_round(&mut self, next: Option<(PlannedRound, i64)>) {
        self.next_round = next;
        self.version += 1;
    }

    /// A player's seed index.
    pub fn index_of(&self, id: &str) -> Option<usize> {
        self.players.iter().position(|e| e.player.id == id)
    }

    /// Whether every place is taken.
    pub fn is_full(&self) -> bool {
        self.players.len() >= self.settings.max_players as usize
    }

    /// The round being played (0 before the start).
    pub fn round(&self) -> u32 {
        u32::try_from(self.rounds.len()).unwrap_or(u32::MAX)
    }

    /// Checks that `player` may join now.
    ///
    /// Fails with `bad_message` (started, full, already in).
    pub fn check_join(&self, player: &Player) -> Result<(), Refusal> {
        if self.status != TournamentStatus::Open {
            return Err(Refusal::bad("the tournament has started"));
        }
        if self.index_of(&player.id).is_some() {
            return Err(Refusal::bad("you are in this tournament already"));
        }
        if self.is_full() {
            return Err(Refusal::bad("the tournament is full"));
        }
        if self.settings.rated && !player.account {
            return Err(Refusal::game(
                damka_protocol::ErrorCode::RatedNeedsAccount,
                "only accounts play rated tournaments: sign up (it keeps your games) or sign in",
            ));
        }
        Ok(())
    }

    /// A rated Swiss's seeds: the players by rating, best first (the joining order
    /// among equals). Returns the new order as old indices.
    pub fn seed_by_rating(&mut self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.players.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.players[i].player.rating.unwrap_or(0)));
        let old = std::mem::take(&mut self.players);
        self.players = order.iter().map(|&i| old[i].clone()).collect();
        self.version += 1;
        order
    }

    /// Adds a player (after [`Tournament::check_join`]).
    pub fn join(&mut self, player: Player) {
        self.players.push(Entrant {
            player,
            left_round: None,
        });
        self.version += 1;
    }

    /// What leaving would do for `id`, without doing it.
    ///
    /// Fails with `bad_message` (not in it, left already, over).
    pub fn plan_leave(&self, id: &str) -> Result<Left, Refusal> {
        let i = self
            .index_of(id)
            .ok_or_else(|| Refusal::bad("you are not in this tournament"))?;
        match self.status {
            TournamentStatus::Open => Ok(Left::Removed),
            TournamentStatus::Over => Err(Refusal::bad("the tournament is over")),
            TournamentStatus::Running if self.players[i].left_round.is_some() => {
                Err(Refusal::bad("you have left this tournament"))
            }
            TournamentStatus::Running => {
                let running = self.rounds.last().and_then(|r| {
                    r.boards
                        .iter()
                        .find(|b| b.result.is_none() && (b.white == i || b.black == i))
                        .and_then(|b| Some((b.table.clone()?, b.game.clone()?)))
                });
                Ok(Left::Withdrew {
                    from: self.round() + 1,
                    running,
                })
            }
        }
    }

    /// Applies a leave planned by [`Tournament::plan_leave`].
    pub fn leave(&mut self, id: &str, left: &Left) {
        let Some(i) = self.index_of(id) else {
            return;
        };
        match left {
            Left::Removed => {
                self.players.remove(i);
            }
            Left::Withdrew { from, .. } => self.players[i].left_round = Some(*from),
        }
        self.version += 1;
    }

    /// The computer entrants that fill the empty places at the start (none unless the
    /// creator asked for them): `bot-L-k`, each id distinct in the tournament.
    pub fn computer_entrants(&self) -> Vec<Player> {
        if !self.settings.bots {
            return Vec::new();
        }
        let level = bot::Level::from_number(self.settings.bot_level).unwrap_or(bot::Level::One);
        let empty = (self.settings.max_players as usize).saturating_sub(self.players.len());
        let mut k = 0;
        let mut out = Vec::with_capacity(empty);
        while out.len() < empty {
            k += 1;
            let p = crate::computer::entrant(level, k);
            if self.index_of(&p.id).is_none() {
                out.push(p);
            }
        }
        out
    }

    /// Whether it can start with the players it has (after filling with the computer):
    /// at least [`MIN_PEOPLE`] people and [`MIN_PLAYERS`] players.
    pub fn enough_players(&self) -> bool {
        let people = self.players.iter().filter(|e| !e.player.is_bot()).count();
        people >= MIN_PEOPLE && self.players.len() + self.computer_entrants().len() >= MIN_PLAYERS
    }

    /// The boards a round has once started with the computer's places filled.
    pub fn boards_per_round(&self) -> usize {
        (self.players.len() + self.computer_entrants().len()) / 2
    }

    /// The rounds a tournament of `n` players plays.
    pub fn rounds_for(&self, n: usize) -> u32 {
        let even = u32::try_from(n + n % 2).unwrap_or(u32::MAX);
        match self.settings.kind {
            TournamentKind::RoundRobin => even.saturating_sub(1),
            TournamentKind::Swiss => self.settings.rounds.min(even.saturating_sub(1)).max(1),
        }
    }

    /// Starts: the computer fills the empty places, the number of rounds is fixed.
    pub fn begin(&mut self, now: i64) {
        for p in self.computer_entrants() {
            self.join(p);
        }
        self.total_rounds = self.rounds_for(self.players.len());
        self.status = TournamentStatus::Running;
        self.started_at = Some(now);
        self.version += 1;
    }

    /// Ends it (all rounds played, no pairing possible, or cancelled).
    pub fn end(&mut self, now: i64, cancelled: bool) {
        self.status = TournamentStatus::Over;
        self.ended_at = Some(now);
        self.cancelled = cancelled;
        self.version += 1;
    }

    /// Whether a player is still playing in round `round`.
    fn plays_in(&self, i: usize, round: u32) -> bool {
        self.players[i].left_round.is_none_or(|from| round < from)
    }

    /// Whether the last round's boards all have results.
    pub fn round_done(&self) -> bool {
        self.rounds
            .last()
            .is_none_or(|r| r.boards.iter().all(|b| b.result.is_some()))
    }

    /// The next round's pairings, or `None` when the tournament is complete (every round
    /// played, or a Swiss that cannot be paired any further).
    pub fn plan_round(&self) -> Option<PlannedRound> {
        if self.status != TournamentStatus::Running || self.round() >= self.total_rounds {
            return None;
        }
        let number = self.round() + 1;
        let pairing = match self.settings.kind {
            TournamentKind::RoundRobin => berger::rounds(self.players.len())
                .into_iter()
                .nth(self.rounds.len())?,
            TournamentKind::Swiss => swiss::pair(&self.swiss_players(number))?,
        };
        Some(self.with_forfeits(number, pairing))
    }

    /// Decides the boards of players who left (round-robin: the schedule is fixed).
    fn with_forfeits(&self, number: u32, pairing: RoundPairing) -> PlannedRound {
        let boards = pairing
            .boards
            .into_iter()
            .map(|(w, b)| {
                let forfeit = match (self.plays_in(w, number), self.plays_in(b, number)) {
                    (true, true) => None,
                    (true, false) => Some(Outcome::White),
                    (false, true) => Some(Outcome::Black),
                    (false, false) => Some(Outcome::Void),
                };
                (w, b, forfeit)
            })
            .collect();
        PlannedRound {
            number,
            boards,
            bye: pairing.bye,
        }
    }

    /// The boards of a planned round as stored: one per pairing, or in micro-match
    /// rounds two per pairing (the first game as paired, then the second with the colours
    /// swapped, a forfeit forfeiting both). `places` gives each pairing to be played its
    /// (table, first game); the second game's id is
    /// [`crate::table::second_game_id`] of the first.
    pub fn boards_of(
        &self,
        planned: &PlannedRound,
        places: &[Option<(String, String)>],
    ) -> Vec<Board> {
        let forfeited = |outcome: Option<Outcome>| {
            outcome.map(|outcome| BoardResult {
                outcome,
                reason: "forfeit".into(),
            })
        };
        let mut boards = Vec::with_capacity(planned.boards.len() * 2);
        for (&(white, black, forfeit), place) in planned.boards.iter().zip(places) {
            let table = place.as_ref().map(|p| p.0.clone());
            let game = place.as_ref().map(|p| p.1.clone());
            if !self.settings.micro_match {
                boards.push(Board {
                    white,
                    black,
                    table,
                    game,
                    result: forfeited(forfeit),
                    match_game: None,
                });
                continue;
            }
            boards.push(Board {
                white,
                black,
                table: table.clone(),
                game: game.clone(),
                result: forfeited(forfeit),
                match_game: Some(1),
            });
            boards.push(Board {
                white: black,
                black: white,
                table,
                game: game.as_deref().map(crate::table::second_game_id),
                result: forfeited(forfeit.map(Outcome::swapped)),
                match_game: Some(2),
            });
        }
        boards
    }

    /// Adds a stored round (`boards` from [`Tournament::boards_of`]) played from
    /// `opening`.
    pub fn add_round(
        &mut self,
        planned: &PlannedRound,
        boards: Vec<Board>,
        opening: Option<&'static Ballot>,
    ) {
        self.rounds.push(Round {
            number: planned.number,
            boards,
            bye: planned.bye,
            opening,
        });
        self.version += 1;
    }

    /// What a bye is worth: a win in a Swiss (both games' worth in micro-match rounds),
    /// nothing in a round-robin.
    pub fn bye_points(&self) -> u32 {
        let games = if self.settings.micro_match { 2 } else { 1 };
        standings::bye_points(self.settings.kind) * games
    }

    /// In a micro-match round: the second game of the match whose first game is board
    /// `board` (index) of round `round`, while it has no result.
    pub fn pending_second(&self, round: u32, board: usize) -> Option<String> {
        let r = self
            .rounds
            .get(usize::try_from(round).ok()?.checked_sub(1)?)?;
        let first = r.boards.get(board)?;
        let second = r.boards.get(board + 1)?;
        let pending =
            first.match_game == Some(1) && second.match_game == Some(2) && second.result.is_none();
        second.game.clone().filter(|_| pending)
    }

    /// The board playing `game` in round `round` while it has no result.
    pub fn pending_board(&self, round: u32, game: &str) -> Option<usize> {
        let r = self
            .rounds
            .get(usize::try_from(round).ok()?.checked_sub(1)?)?;
        r.boards
            .iter()
            .position(|b| b.result.is_none() && b.game.as_deref() == Some(game))
    }

    /// Records a result on board `board` (index) of round `round`.
    pub fn record(&mut self, round: u32, board: usize, result: BoardResult) {
        let Some(r) = usize::try_from(round)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .and_then(|r| self.rounds.get_mut(r))
        else {
            return;
        };
        if let Some(b) = r.boards.get_mut(board) {
            // A forfeit is not a game: no game to show, no colour for the pairing.
            if result.reason == "forfeit" {
                b.game = None;
                b.table = None;
            }
            b.result = Some(result);
            self.version += 1;
        }
    }

    /// The decided games and the byes so far.
    pub fn decided(&self) -> (Vec<Decided>, Vec<usize>) {
        let mut games = Vec::new();
        let mut byes = Vec::new();
        for r in &self.rounds {
            for b in &r.boards {
                if let Some(res) = &b.result {
                    games.push(Decided {
                        white: b.white,
                        black: b.black,
                        outcome: res.outcome,
                    });
                }
            }
            byes.extend(r.bye);
        }
        (games, byes)
    }

    /// The players as the Swiss pairing of round `number` sees them.
    pub fn swiss_players(&self, number: u32) -> Vec<swiss::SwissPlayer> {
        let (games, byes) = self.decided();
        let points = standings::points(self.bye_points(), self.players.len(), &games, &byes);
        let mut out: Vec<swiss::SwissPlayer> = (0..self.players.len())
            .map(|i| swiss::SwissPlayer {
                points: points[i],
                colours: Vec::new(),
                opponents: Vec::new(),
                had_bye: byes.contains(&i),
                active: self.plays_in(i, number),
            })
            .collect();
        for r in &self.rounds {
            for b in &r.boards {
                out[b.white].opponents.push(b.black);
                out[b.black].opponents.push(b.white);
                // A forfeit is not a game: it gives no colour.
                if b.game.is_some() {
                    out[b.white].colours.push(Color::White);
                    out[b.black].colours.push(Color::Black);
                }
            }
        }
        out
    }
}

/// The wire result of a finished game as the tournament scores it.
pub fn outcome_of(result: Option<GameResult>) -> Outcome {
    match result {
        Some(GameResult::White) => Outcome::White,
        Some(GameResult::Black) => Outcome::Black,
        Some(GameResult::Draw) => Outcome::Draw,
        None => Outcome::Void,
    }
}

/// Refuses an action by someone other than the creator.
///
/// Fails with `bad_message`.
pub fn creator_only(t: &Tournament, player: &Player) -> Result<(), Refusal> {
    if t.created_by.id != player.id {
        return Err(Refusal::game(
            ErrorCode::BadMessage,
            "only the tournament's creator can start it",
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rated(id: &str, rating: i32) -> Player {
        Player {
            account: true,
            rating: Some(rating),
            ..Player::guest(id, id)
        }
    }

    fn micro_matches(kind: TournamentKind, players: &[&str], rounds: u32) -> Tournament {
        let settings = Settings {
            kind,
            rounds,
            minutes: 5,
            increment: 0,
            max_players: u32::try_from(players.len()).unwrap_or(0),
            bots: false,
            bot_level: 1,
            starts_at: None,
            name: None,
            rated: false,
            ballot: Some(BallotChoice::Random),
            micro_match: true,
        };
        let guest = |id: &str| Player::guest(id, id);
        let mut t = Tournament::new("t".into(), "russian".into(), settings, guest(players[0]), 0);
        for id in &players[1..] {
            t.join(guest(id));
        }
        t.begin(0);
        t
    }

    /// Pairs the next round, gives each pairing a table and a game, and stores it.
    fn play_round(t: &mut Tournament) -> PlannedRound {
        let planned = t.plan_round().expect("a round to pair");
        let places: Vec<Option<(String, String)>> = planned
            .boards
            .iter()
            .enumerate()
            .map(|(i, &(_, _, forfeit))| {
                forfeit.is_none().then(|| {
                    (
                        format!("t{}{i}", planned.number),
                        format!("g{}{i}", planned.number),
                    )
                })
            })
            .collect();
        let boards = t.boards_of(&planned, &places);
        t.add_round(&planned, boards, None);
        planned
    }

    fn result(outcome: Outcome) -> BoardResult {
        BoardResult {
            outcome,
            reason: "resign".into(),
        }
    }

    /// A micro-match Swiss of five: each pairing plays both colours at one table, the
    /// second game's id known when paired; scored by games (a bye is both games' win);
    /// nobody meets twice; the standings add up by hand.
    #[test]
    fn a_micro_match_swiss_pairs_and_scores_by_games() {
        let mut t = micro_matches(TournamentKind::Swiss, &["a", "b", "c", "d", "e"], 2);
        let r1 = play_round(&mut t);
        assert_eq!(r1.boards.len(), 2, "five players: two matches and a bye");
        let bye1 = r1.bye.expect("a bye");
        let round = &t.rounds[0];
        assert_eq!(round.boards.len(), 4, "two games per pairing");
        for (k, &(w, b, _)) in r1.boards.iter().enumerate() {
            let (first, second) = (&round.boards[2 * k], &round.boards[2 * k + 1]);
            assert_eq!((first.white, first.black), (w, b));
            assert_eq!((second.white, second.black), (b, w), "colours swapped");
            assert_eq!((first.match_game, second.match_game), (Some(1), Some(2)));
            assert_eq!(first.table, second.table, "one table plays the match");
            let g1 = first.game.clone().expect("a game");
            assert_eq!(second.game, Some(crate::table::second_game_id(&g1)));
            assert_eq!(t.pending_board(1, &g1), Some(2 * k));
            assert_eq!(t.pending_second(1, 2 * k), second.game.clone());
        }
        // Round 1: the first match 2-0 for its first White (a win with each colour),
        // the second 1½-½ for its first Black (a draw, then a win with White).
        let (w0, b0, _) = r1.boards[0];
        let (w1, b1, _) = r1.boards[1];
        t.record(1, 0, result(Outcome::White));
        t.record(1, 1, result(Outcome::Black));
        assert!(!t.round_done(), "a match is two games");
        t.record(1, 2, result(Outcome::Draw));
        assert_eq!(t.pending_second(1, 2), t.rounds[0].boards[3].game.clone());
        t.record(1, 3, result(Outcome::White));
        assert!(t.round_done());
        assert_eq!(t.pending_second(1, 2), None, "decided");
        let points = |t: &Tournament| {
            let (games, byes) = t.decided();
            standings::points(t.bye_points(), t.players.len(), &games, &byes)
        };
        let p = points(&t);
        assert_eq!(p[w0], 4, "2-0: two wins");
        assert_eq!(p[b0], 0);
        assert_eq!(p[b1], 3, "1½-½: a draw and a win");
        assert_eq!(p[w1], 1);
        assert_eq!(p[bye1], 4, "a Swiss bye is a match won");
        // Round 2: nobody meets the same opponent again, nobody has a second bye.
        let r2 = play_round(&mut t);
        let met: Vec<(usize, usize)> = r1.boards.iter().map(|&(w, b, _)| (w, b)).collect();
        for &(w, b, _) in &r2.boards {
            assert!(
                !met.contains(&(w, b)) && !met.contains(&(b, w)),
                "{w} and {b} met in round 1"
            );
        }
        assert_ne!(r2.bye, Some(bye1));
        // By hand: round 1 is 1-3 (a against c), 4-2 (d against b), e's bye. Then a and
        // e on 4, c on 3, d on 1, b on 0: the bye to b (lowest, none yet); a-e would
        // leave c-d, who met: a meets c (the closest score left), d meets e.
        assert_eq!((r1.boards[0].0, r1.boards[0].1), (0, 2), "{r1:?}");
        assert_eq!((r1.boards[1].0, r1.boards[1].1), (3, 1), "{r1:?}");
        assert_eq!(bye1, 4);
        let pairs: Vec<(usize, usize)> = r2.boards.iter().map(|&(w, b, _)| (w, b)).collect();
        assert_eq!(pairs, [(0, 1), (3, 4)], "{r2:?}");
        assert_eq!(r2.bye, Some(2));
        // Every pairing of round 2 ends 1-1 (each wins with White).
        for b in 0..t.rounds[1].boards.len() {
            t.record(2, b, result(Outcome::White));
        }
        let p2 = points(&t);
        for i in 0..5 {
            let extra = if Some(i) == r2.bye { 4 } else { 2 };
            assert_eq!(p2[i], p[i] + extra, "player {i}");
        }
        assert!(t.plan_round().is_none(), "two rounds asked for");
        // The view shows the matches: game numbers, the second game's id.
        let view = t.view(0);
        let games: Vec<Option<u32>> = view.rounds[0]
            .pairings
            .iter()
            .map(|p| p.match_game)
            .collect();
        assert_eq!(games, [Some(1), Some(2), Some(1), Some(2)]);
        // a: 2-0 over c, 1-1 with b: 6; e: a bye, 1-1 with d: 6, behind a on Buchholz
        // (by games: a met c twice (4 each) and b twice (5 each), 18; e met d twice, 6);
        // b: 1½-½ over d, then 1-1: 5; c: 0, then a bye: 4; d: ½ then 1: 3.
        let table: Vec<(&str, u32, u32)> = view
            .standings
            .iter()
            .map(|l| (l.player.id.as_str(), l.points, l.tiebreaks.buchholz))
            .collect();
        assert_eq!(
            table,
            [
                ("a", 6, 18),
                ("e", 6, 6),
                ("b", 5, 18),
                ("c", 4, 12),
                ("d", 3, 22)
            ]
        );
        assert!(view.micro_match);
    }

    /// A round-robin of micro-matches: a player who leaves loses the second game of the
    /// match they left (reported by its table, no game shown) and both games of every
    /// later match (forfeits, no table).
    #[test]
    fn a_forfeit_counts_as_both_games_of_a_match() {
        let mut t = micro_matches(TournamentKind::RoundRobin, &["a", "b", "c", "d"], 3);
        let r1 = play_round(&mut t);
        // A player of the first pairing withdraws: the rest of their matches are lost.
        let (w, _, _) = r1.boards[0];
        let id = t.players[w].player.id.clone();
        let left = t.plan_leave(&id).expect("in it");
        t.leave(&id, &left);
        // Their current match's second game is reported as forfeited by its table.
        t.record(1, 0, result(Outcome::Black));
        t.record(
            1,
            1,
            BoardResult {
                outcome: Outcome::White,
                reason: "forfeit".into(),
            },
        );
        assert_eq!(t.rounds[0].boards[1].game, None, "no game was played");
        for b in 2..4 {
            t.record(1, b, result(Outcome::Draw));
        }
        let r2 = play_round(&mut t);
        let board = r2
            .boards
            .iter()
            .position(|&(a, b, _)| a == w || b == w)
            .expect("still paired (and forfeited)");
        let boards = &t.rounds[1].boards[2 * board..2 * board + 2];
        assert!(boards.iter().all(|b| b.game.is_none() && b.table.is_none()));
        let (games, byes) = t.decided();
        let p = standings::points(t.bye_points(), 4, &games, &byes);
        assert_eq!(p[w], 0, "lost every game");
        assert!(
            boards
                .iter()
                .all(|b| b.result.as_ref().is_some_and(|r| r.reason == "forfeit"))
        );
    }

    /// A rated Swiss seeds best first; equal ratings keep the joining order.
    #[test]
    fn a_rated_swiss_seeds_by_rating() {
        let settings = Settings {
            kind: TournamentKind::Swiss,
            rounds: 3,
            minutes: 5,
            increment: 0,
            max_players: 8,
            bots: false,
            bot_level: 1,
            starts_at: None,
            name: None,
            rated: true,
            ballot: None,
            micro_match: false,
        };
        let mut t = Tournament::new("t".into(), "russian".into(), settings, rated("a", 1400), 0);
        for (id, r) in [("b", 1700), ("c", 1500), ("d", 1700)] {
            t.check_join(&rated(id, r)).expect("an account may join");
            t.join(rated(id, r));
        }
        let version = t.version;
        assert_eq!(t.seed_by_rating(), vec![1, 3, 2, 0]);
        let order: Vec<&str> = t.players.iter().map(|e| e.player.id.as_str()).collect();
        assert_eq!(order, ["b", "d", "c", "a"]);
        assert!(t.version > version, "seeding is a change the players see");
    }
}
