//! A game's life at a table, pure: what the next game starts from (colours, id, position,
//! opening, ballot, a micro-match's slot), the `game_started` it is announced with, and
//! what an end changes (a rated game's new ratings shown in the seats). The actor's
//! handlers store each change before they announce it (`handlers.rs`: starting a game,
//! the server's own ends run as actions, the clock's holds).

use std::time::Duration;

use damka_protocol::table::GameStarted;
use damka_protocol::{Options, Player, Seats};
use draughts::ballot::Ballot;
use draughts::{Color, Move, Position, Rules};

use super::game::{LiveGame, side};
use super::micro_match::MicroMatch;
use super::seating::Seating;
use super::subscribers::Subscribers;
use damka_store::MatchSlot;

/// How soon a game end (or a micro-match's second game) that could not be stored, and
/// not for an outage, is tried again.
pub(super) const END_RETRY: Duration = Duration::from_secs(1);

/// What the next game at a table starts from.
pub(super) struct NextGame {
    /// Its id.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The position before its first ply.
    pub position: Position,
    /// Opening plies played for both (a random opening, a micro-match's).
    pub opening: Vec<Move>,
    /// The ballot `position` is from, if any.
    pub ballot: Option<&'static Ballot>,
    /// Its place in a micro-match.
    pub slot: Option<MatchSlot>,
}

/// The choices drawn for a new game (random, so drawn by the caller).
pub(super) struct Draws {
    /// A fresh game id.
    pub id: String,
    /// The ballot drawn for the table's ballot option, if it has one.
    pub ballot: Option<&'static Ballot>,
    /// The seed of a random opening.
    pub opening_seed: u64,
}

/// The next game of `white` and `black` (as seated) at a table with `options` under
/// `rules`, after `previous`: colours swapped if the same two played it with these
/// colours; a micro-match's second game (`micro` in its break) from the first's opening
/// with the colours the other way round and the id the first's with `b` added (a
/// tournament stored its board under that id when it paired); else the ballot drawn, a
/// test's start (`test_fen`) or the variant's, and a random opening if the table asks.
pub(super) fn next_game(
    (mut white, mut black): (Player, Player),
    previous: Option<&LiveGame>,
    micro: Option<&MicroMatch>,
    rules: Rules,
    options: &Options,
    test_fen: Option<&str>,
    draws: Draws,
) -> NextGame {
    if let Some(prev) = previous
        && prev.players.white.id == white.id
        && prev.players.black.id == black.id
    {
        std::mem::swap(&mut white, &mut black);
    }
    if let Some(m) = micro.filter(|m| m.in_break()) {
        // The seated players as they are now (a rated first game changed their ratings),
        // the colours the other way round from the first game.
        if white.id != m.second_players().0.id {
            std::mem::swap(&mut white, &mut black);
        }
        let (position, opening) = m.opening.start(rules);
        return NextGame {
            id: m.second_id(),
            white,
            black,
            position,
            opening,
            ballot: m.opening.ballot,
            slot: Some(m.second_slot()),
        };
    }
    let position = start_position(rules, draws.ballot, test_fen);
    let opening = match options.random_opening {
        true => draughts::random_opening(rules, draws.opening_seed),
        false => Vec::new(),
    };
    let slot = options.micro_match.then(|| MatchSlot {
        id: draws.id.clone(),
        game: 1,
    });
    NextGame {
        id: draws.id,
        white,
        black,
        position,
        opening,
        ballot: draws.ballot,
        slot,
    }
}

/// A new game's start position: the ballot's (under the table's rules, optional capture
/// if set, not the variant's), a test's, or the variant's.
fn start_position(rules: Rules, ballot: Option<&Ballot>, test_fen: Option<&str>) -> Position {
    match (ballot.map(Ballot::fen), test_fen) {
        (Some(fen), _) | (None, Some(fen)) => {
            Position::from_fen(rules, fen).unwrap_or_else(|_| Position::new(rules))
        }
        (None, None) => Position::new(rules),
    }
}

/// The `game_started` event of `live` (version `v`, at `now`), at a table whose rated
/// option is `rated` and whose micro-match, if any, is `micro`.
pub(super) fn started(
    live: &LiveGame,
    micro: Option<&MicroMatch>,
    rated: bool,
    v: u64,
    now: u64,
) -> GameStarted {
    let (white, black) = (live.players.white.clone(), live.players.black.clone());
    GameStarted {
        v,
        id: live.id.clone(),
        seats: Seats {
            white: Some(white.clone()),
            black: Some(black.clone()),
        },
        white,
        black,
        initial_fen: live.initial_fen.clone(),
        fen: live.position().to_fen(),
        opening: live.moves.iter().map(|m| m.mv.clone()).collect(),
        ballot: live.ballot.map(super::ballot::shown),
        turn: side(live.position().turn()),
        legal: live.legal(),
        clock: live.clock_view(now),
        counters: live.counters(),
        first_move_deadline: live.first_move_left(now),
        unrated: live.unrated(rated),
        micro_match: micro.map(|m| m.view(now)),
    }
}

/// After a rated game: the players' new ratings in the game's players, their seats and
/// their sockets, as the next `state` and the room's table list show them.
pub(super) fn rerate(
    game: &mut LiveGame,
    seating: &mut Seating,
    subs: &mut Subscribers,
    changes: &damka_store::RatingChanges,
) {
    for (c, change) in [
        (Color::White, &changes.white),
        (Color::Black, &changes.black),
    ] {
        let show = |p: &mut Player| {
            p.rating = Some(crate::ratings::rounded(change.after.rating));
            p.provisional = change.after.provisional();
        };
        let id = game.players[c].id.clone();
        show(&mut game.players[c]);
        seating.update(&id, show);
        subs.update_guest(&id, show);
    }
}
