//! The table's rules for the actions on a running game, pure: [`decide`] rules what an
//! action does ([`Step`]) or why it is refused ([`Refusal`]) from the game and the
//! table's facts ([`Table`]), and [`apply`] makes a stored step's change. No I/O, no
//! clock reads, no sockets: every rule here is tested without a database.
//!
//! The actor runs the steps ([`super::actor::TableActor::act`]); moves keep their own
//! path for now ([`super::moves`]).

use damka_protocol::ErrorCode;
use draughts::{ByColor, Color, Game, Reason, Rules};

use super::conditional::Conditional;
use super::game::{LiveGame, clock_row, side, to_i64};
use super::moves::MoveCheck;
use super::offers::next_offer;
use super::step::{Change, Event, Follow, Notify, Step, TakenBack, Write};
use crate::refusal::Refusal;
use damka_store::RatingChanges;

/// An action on the running game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// `move` (a person's, the computer's, or a prepared reply played for its player).
    Move {
        /// The move as sent.
        text: String,
        /// The ply it is meant for (a resent move is played at most once).
        ply: u32,
        /// The sender's one-way network delay estimate, ms (lag compensation).
        lag_ms: u64,
    },
    /// `draw_offer` (accepting when the opponent's offer stands).
    DrawOffer,
    /// `draw_accept` / `draw_decline`.
    DrawAnswer {
        /// Accepted.
        accept: bool,
    },
    /// `takeback_offer` (accepting when the opponent's request stands).
    TakebackOffer,
    /// `takeback_accept` / `takeback_decline`.
    TakebackAnswer {
        /// Accepted.
        accept: bool,
    },
    /// `resign`.
    Resign,
    /// `abort`.
    Abort,
    /// `claim_victory` / `claim_draw` against an opponent who left.
    Claim {
        /// A draw rather than the win.
        draw: bool,
    },
    /// `conditional`: the player's prepared replies in a correspondence game (they
    /// replace any before; none clears them).
    Conditional {
        /// The lines, each the opponent's move and the reply, and so on.
        lines: Vec<Vec<String>>,
    },
    /// The server rules the game over (time, the first-move window, a forfeit).
    End {
        /// The winner, `None` for a draw or an abort.
        winner: Option<Color>,
        /// Why.
        reason: Reason,
    },
}

/// Who acts: a player of the game, or the server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Actor {
    /// The player of this colour (at a one-screen table, the side to move's).
    Player(Color),
    /// The server.
    Server,
}

/// The table's facts an action is ruled on, besides its game.
#[derive(Debug, Clone, Copy)]
pub struct Table {
    /// The rules (with the table's options).
    pub rules: Rules,
    /// A one-screen table (one guest plays both sides).
    pub local: bool,
    /// A tournament's table.
    pub tournament: bool,
    /// A correspondence table (days per move).
    pub correspondence: bool,
    /// The computer sits here (no takebacks; it takes no draw offers).
    pub computer: bool,
    /// One draw offer, and one takeback request, per this many plies for each side.
    pub offer_every: u32,
    /// Claims against an absent opponent, as the acting player sees them.
    pub claim: Claim,
    /// Server ms now.
    pub now: u64,
    /// Unix ms now (when an end is stored as made).
    pub unix_ms: i64,
}

/// Whether the acting player may claim against an absent opponent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The opponent is connected (or both are gone, or claims do not apply here).
    Nothing,
    /// The opponent has been gone: the claim is possible in this many ms (0: now).
    In(u64),
}

fn bad(message: &str) -> Refusal {
    Refusal::Bad(message.to_owned())
}

/// What `action` by `actor` does to the running `game` at `table`.
///
/// Fails with why it is refused: `no_game` (over), `game_in_progress` (an abort after
/// the first moves), `rate_limited` (an offer too soon), `bad_message` (nothing to
/// answer, nothing to take back, nothing to claim).
pub fn decide(
    table: &Table,
    game: &LiveGame,
    actor: Actor,
    action: &Action,
) -> Result<Step, Refusal> {
    if !game.playing() {
        return match actor {
            // A timer that fired as the game ended: nothing to do.
            Actor::Server => Ok(Step::nothing()),
            Actor::Player(_) => Err(Refusal::Game(
                ErrorCode::NoGame,
                "no game is being played".into(),
            )),
        };
    }
    let me = match (actor, action) {
        (_, &Action::End { winner, reason }) => {
            let by = match actor {
                Actor::Player(c) => Some(c),
                Actor::Server => None,
            };
            return Ok(end(table, game, winner, reason, by));
        }
        (Actor::Player(c), _) => c,
        (Actor::Server, _) => return Err(bad("only a player acts so")),
    };
    match *action {
        Action::Move {
            ref text,
            ply,
            lag_ms,
        } => play(table, game, me, text, ply, lag_ms),
        Action::Resign => Ok(resign(table, game, me)),
        Action::Abort => abort(table, game, me),
        Action::DrawOffer => draw_offer(table, game, me),
        Action::DrawAnswer { accept } => draw_answer(table, game, me, accept),
        Action::TakebackOffer => takeback_offer(table, game, me),
        Action::TakebackAnswer { accept } => takeback_answer(table, game, me, accept),
        Action::Claim { draw } => claim(table, game, me, draw),
        Action::Conditional { ref lines } => conditional(table, game, me, lines),
        Action::End { .. } => Ok(Step::nothing()),
    }
}

/// Makes a stored step's change to the game at server time `now`; `ratings`: what its
/// write reported back (a rated end's rating changes).
pub fn apply(game: &mut LiveGame, change: Change, now: u64, ratings: Option<RatingChanges>) {
    match change {
        Change::Nothing => {}
        Change::Offers(offers) => game.offers = offers,
        Change::End { winner, reason, by } => {
            game.end_by(winner, reason, by, now);
            game.rated(ratings);
        }
        Change::Move { played, offers } => {
            game.commit(*played);
            game.offers = offers;
            game.rated(ratings);
        }
        Change::Conditional(set) => game.conditional = set,
        Change::TakeBack(t) => {
            let TakenBack {
                game: replayed,
                keep,
                white_ms,
                black_ms,
            } = *t;
            let mut clock = game.clock.with_times(white_ms, black_ms);
            clock.start(replayed.position().turn(), now);
            game.game = replayed;
            game.clock = clock;
            game.moves
                .truncate(usize::try_from(keep).unwrap_or(usize::MAX));
            game.offers.clear();
            // Prepared replies were for a position no longer on the board (cleared in
            // the store with the moves).
            game.conditional = None;
            game.lag_ms = ByColor::default();
        }
    }
}

/// A move of `me`: checked against the ply, the turn, the rules and the clock; stored
/// (with the end of the game, when it ends it), then applied and announced with the draw
/// offer it declined and the takeback request it cancelled. A move resent for a ply
/// already played is acknowledged again and changes nothing; one that came after the
/// flag loses the game on time.
fn play(
    table: &Table,
    game: &LiveGame,
    me: Color,
    text: &str,
    ply: u32,
    lag_ms: u64,
) -> Result<Step, Refusal> {
    let played = match game.check_move(me, text, ply, table.now, lag_ms)? {
        MoveCheck::AlreadyPlayed => return Ok(Step::nothing()),
        MoveCheck::Flagged(c) => {
            return Ok(Step {
                refuse: Some(Refusal::Game(
                    ErrorCode::NoGame,
                    "your time ran out before the move".into(),
                )),
                ..end(table, game, Some(c.other()), Reason::Timeout, None)
            });
        }
        MoveCheck::New(p) => p,
    };
    let mut offers = game.offers.clone();
    let withdrawn = offers.moved(me);
    let end = played.outcome.as_ref().map(|o| {
        offers.clear();
        let clock = damka_store::ClockRow {
            white_ms: played.row.white_ms,
            black_ms: played.row.black_ms,
            ply: played.row.ply,
        };
        game.end_row(o, clock, table.unix_ms)
    });
    let mut events = Vec::with_capacity(3);
    if withdrawn.draw_declined {
        events.push(Event::DrawDeclined { by: side(me) });
    }
    if withdrawn.takeback_cancelled {
        events.push(Event::TakebackDeclined { by: side(me) });
    }
    // The FEN was written once for the stored row: the event reuses it.
    events.push(Event::Move {
        ply: played.ply,
        mv: played.text.clone(),
        by: side(me),
        captures: played.captures.clone(),
        fen: played.row.fen_after.clone(),
    });
    let ends = end.is_some();
    let write = match end {
        None => Write::Move(played.row.clone()),
        Some(end) => Write::LastMove(played.row.clone(), end),
    };
    Ok(Step {
        write,
        follow: Follow {
            moved: true,
            position: true,
            ended: ends,
            notify: Some(Notify::Turn),
            ..Follow::default()
        },
        change: Change::Move { played, offers },
        events,
        refuse: None,
    })
}

/// A player's prepared replies, for correspondence games only: checked against the rules
/// ([`Conditional::new`]), stored, then kept and shown to that player's own sockets
/// (nobody else sees them).
fn conditional(
    table: &Table,
    game: &LiveGame,
    me: Color,
    lines: &[Vec<String>],
) -> Result<Step, Refusal> {
    if !table.correspondence || table.local {
        return Err(bad("conditional moves are for correspondence games"));
    }
    let set = Conditional::new(&game.game, me, game.ply(), lines)?;
    let shown = set.as_ref().map(|c| c.lines.clone()).unwrap_or_default();
    Ok(Step {
        write: Write::Conditional(set.as_ref().map(Conditional::to_json)),
        change: Change::Conditional(set),
        events: vec![Event::Conditional {
            player: game.player(me).id.clone(),
            lines: shown,
        }],
        follow: Follow::default(),
        refuse: None,
    })
}

/// The game ends now: stored with its final clocks (rated with it when it is rated).
fn end(
    table: &Table,
    game: &LiveGame,
    winner: Option<Color>,
    reason: Reason,
    by: Option<Color>,
) -> Step {
    let outcome = draughts::Outcome { winner, reason };
    // The clock as it will be once stopped, without touching the live one.
    let mut clock = game.clock.clone();
    clock.stop(table.now);
    let end = game.end_row(
        &outcome,
        clock_row(&clock, table.now, game.ply()),
        table.unix_ms,
    );
    Step {
        write: Write::End(end),
        change: Change::End { winner, reason, by },
        events: Vec::new(),
        follow: Follow {
            ended: true,
            notify: Some(Notify::Ended),
            ..Follow::default()
        },
        refuse: None,
    }
}

/// Resigns; before both players have moved, at a table of no tournament, the game is
/// aborted instead (no result, never rated), as lichess does: a resignation before the
/// first moves would be a free result for two accounts that farm ratings. A tournament
/// game needs a result: there it is a loss, but still not rated.
fn resign(table: &Table, game: &LiveGame, me: Color) -> Step {
    if !game.both_moved() && !table.tournament {
        return end(table, game, None, Reason::Aborted, Some(me));
    }
    end(table, game, Some(me.other()), Reason::Resign, Some(me))
}

fn abort(table: &Table, game: &LiveGame, me: Color) -> Result<Step, Refusal> {
    if game.both_moved() {
        return Err(Refusal::Game(
            ErrorCode::GameInProgress,
            "both players have moved: resign or offer a draw instead".into(),
        ));
    }
    Ok(end(table, game, None, Reason::Aborted, Some(me)))
}

/// Offers (or accepts) a draw; refused before both players have moved (abort the game
/// instead), so no draw is agreed without a game. Stored before it is announced, so a
/// restart keeps what the players saw.
fn draw_offer(table: &Table, game: &LiveGame, me: Color) -> Result<Step, Refusal> {
    if game.player(me.other()).is_bot() {
        return Err(bad(
            "the computer does not take draw offers (the draw rules still apply)",
        ));
    }
    if !game.both_moved() && !table.local {
        return Err(Refusal::Game(
            ErrorCode::NoGame,
            "a draw can be offered once both players have moved: abort instead".into(),
        ));
    }
    if game.offers.draw == Some(me.other()) || table.local {
        // Offering while the opponent's offer stands is accepting it; at a one-screen
        // table the one guest speaks for both sides.
        return Ok(end(table, game, None, Reason::Agreement, Some(me)));
    }
    let ply = game.ply();
    let offers = game
        .offers
        .with_draw_offer(me, ply, table.offer_every)
        .map_err(|limit| Refusal::Game(ErrorCode::RateLimited, limit))?;
    Ok(Step {
        write: Write::DrawOffers(offers.row()),
        change: Change::Offers(offers),
        events: vec![Event::DrawOffered {
            by: side(me),
            next: next_offer(Some(ply), table.offer_every),
        }],
        follow: Follow {
            notify: Some(Notify::Offer(me.other())),
            ..Follow::default()
        },
        refuse: None,
    })
}

fn draw_answer(table: &Table, game: &LiveGame, me: Color, accept: bool) -> Result<Step, Refusal> {
    if game.offers.draw != Some(me.other()) {
        return Err(bad("there is no draw offer to answer"));
    }
    if accept {
        return Ok(end(table, game, None, Reason::Agreement, Some(me)));
    }
    let mut offers = game.offers.clone();
    offers.draw = None;
    Ok(Step {
        write: Write::DrawOffers(offers.row()),
        change: Change::Offers(offers),
        events: vec![Event::DrawDeclined { by: side(me) }],
        follow: Follow::default(),
        refuse: None,
    })
}

/// `claim_victory` / `claim_draw`: the opponent has been gone for the claim delay.
fn claim(table: &Table, game: &LiveGame, me: Color, draw: bool) -> Result<Step, Refusal> {
    match table.claim {
        Claim::In(0) => {}
        Claim::In(ms) => {
            return Err(Refusal::Bad(format!(
                "your opponent may still come back: you can claim in {} s",
                ms.div_ceil(1000)
            )));
        }
        Claim::Nothing => {
            return Err(bad("there is nothing to claim: your opponent is connected"));
        }
    }
    let winner = (!draw).then_some(me);
    Ok(end(table, game, winner, Reason::Abandoned, Some(me)))
}

/// How many plies a takeback for `by` undoes now (its last move and the reply, if made),
/// checked against the first moves (which only an abort undoes).
fn takeback_plies(game: &LiveGame, by: Color) -> Result<u32, Refusal> {
    let plies = if game.position().turn() == by { 2 } else { 1 };
    if game.ply() < game.opening_plies + 2 + plies {
        return Err(bad("the first moves cannot be taken back (abort instead)"));
    }
    Ok(plies)
}

/// Takebacks are for casual tables between people (never with the computer, never at
/// a tournament table). A request lives in memory only: a restart forgets it.
fn takeback_offer(table: &Table, game: &LiveGame, me: Color) -> Result<Step, Refusal> {
    if table.tournament || table.computer {
        return Err(bad("takebacks are for casual games between people"));
    }
    takeback_plies(game, me)?;
    if table.local {
        return take_back(table, game, me);
    }
    if game.offers.takeback == Some(me.other()) {
        // Asking while the opponent's request stands is accepting it.
        return take_back(table, game, me.other());
    }
    if game.offers.takeback == Some(me) {
        return Ok(Step::nothing());
    }
    let ply = game.ply();
    let mut offers = game.offers.clone();
    offers
        .ask_takeback(me, ply, table.offer_every)
        .map_err(|limit| Refusal::Game(ErrorCode::RateLimited, limit))?;
    Ok(Step {
        write: Write::Nothing,
        change: Change::Offers(offers),
        events: vec![Event::TakebackOffered {
            by: side(me),
            next: next_offer(Some(ply), table.offer_every),
        }],
        follow: Follow {
            notify: Some(Notify::Offer(me.other())),
            ..Follow::default()
        },
        refuse: None,
    })
}

fn takeback_answer(
    table: &Table,
    game: &LiveGame,
    me: Color,
    accept: bool,
) -> Result<Step, Refusal> {
    if game.offers.takeback != Some(me.other()) {
        return Err(bad("there is no takeback request to answer"));
    }
    if accept {
        return take_back(table, game, me.other());
    }
    let mut offers = game.offers.clone();
    offers.takeback = None;
    Ok(Step {
        write: Write::Nothing,
        change: Change::Offers(offers),
        events: vec![Event::TakebackDeclined { by: side(me) }],
        follow: Follow::default(),
        refuse: None,
    })
}

/// Undoes `by`'s last move (and the reply, if made): stored first (the moves deleted,
/// the clock as after the remaining last move), then applied, announced with `takeback`
/// and a fresh `state` to every socket.
fn take_back(table: &Table, game: &LiveGame, by: Color) -> Result<Step, Refusal> {
    let plies = takeback_plies(game, by)?;
    let keep = game.ply() - plies;
    let kept = &game.moves[..usize::try_from(keep).unwrap_or(0)];
    let Some(clock) = kept.last().map(|m| m.clock) else {
        return Err(bad("nothing to take back"));
    };
    let texts: Vec<&str> = kept.iter().map(|m| m.mv.as_str()).collect();
    let replayed = Game::replay(table.rules, &game.initial_fen, &texts)
        .map_err(|e| Refusal::Internal(e.to_string()))?;
    Ok(Step {
        write: Write::TakeBack(damka_store::ClockRow {
            white_ms: to_i64(clock.white),
            black_ms: to_i64(clock.black),
            ply: i64::from(keep),
        }),
        change: Change::TakeBack(Box::new(TakenBack {
            game: replayed,
            keep,
            white_ms: clock.white,
            black_ms: clock.black,
        })),
        events: vec![Event::Takeback {
            by: side(by),
            plies,
            ply: keep,
        }],
        follow: Follow {
            states: true,
            position: true,
            ..Follow::default()
        },
        refuse: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::step::Audience;
    use Color::{Black, White};
    use damka_protocol::{Options, Player};
    use draughts::Variant;

    fn table(now: u64) -> Table {
        Table {
            rules: Rules::new(Variant::Russian),
            local: false,
            tournament: false,
            correspondence: false,
            computer: false,
            offer_every: 10,
            claim: Claim::Nothing,
            now,
            unix_ms: 0,
        }
    }

    /// A new Russian game between two guests, started at 0, with `plies` moves played
    /// (the first legal move each time, one second apart).
    fn game(plies: u32) -> LiveGame {
        let players = (Player::guest("w", "W"), Player::guest("b", "B"));
        let mut g = crate::table::game::test_game(Options::default(), players.0, players.1, 30_000);
        for ply in 1..=plies {
            let by = g.position().turn();
            let mv = g.legal()[0].clone();
            let Ok(MoveCheck::New(p)) = g.check_move(by, &mv, ply, u64::from(ply) * 1000, 0) else {
                panic!("a legal move");
            };
            g.commit(*p);
        }
        g
    }

    fn refused(r: Result<Step, Refusal>) -> Refusal {
        match r {
            Ok(step) => panic!("refused, not {step:?}"),
            Err(e) => e,
        }
    }

    fn ends(step: &Step) -> (Option<Color>, Reason, Option<Color>) {
        match &step.change {
            Change::End {
                winner, reason, by, ..
            } => {
                assert!(matches!(step.write, Write::End(_)), "stored with the end");
                assert!(step.follow.ended);
                (*winner, *reason, *by)
            }
            other => panic!("an end, not {other:?}"),
        }
    }

    #[test]
    fn a_draw_offer_waits_for_the_first_moves_and_is_stored_and_limited() {
        let t = table(5_000);
        let early = refused(decide(
            &t,
            &game(1),
            Actor::Player(White),
            &Action::DrawOffer,
        ));
        assert!(matches!(early, Refusal::Game(ErrorCode::NoGame, _)));
        let mut g = game(4);
        let step = decide(&t, &g, Actor::Player(White), &Action::DrawOffer).expect("an offer");
        assert!(matches!(&step.write, Write::DrawOffers(row) if row.white_offer_ply == Some(4)));
        assert_eq!(
            step.events,
            vec![Event::DrawOffered {
                by: side(White),
                next: 14
            }]
        );
        assert_eq!(step.follow.notify, Some(Notify::Offer(Black)));
        apply(&mut g, step.change, 5_000, None);
        assert_eq!(g.offers.draw, Some(White));
        // Again too soon: rate limited.
        let again = refused(decide(&t, &g, Actor::Player(White), &Action::DrawOffer));
        assert!(matches!(again, Refusal::Game(ErrorCode::RateLimited, _)));
        // Black's offer while White's stands accepts it.
        let accept = decide(&t, &g, Actor::Player(Black), &Action::DrawOffer).expect("accepted");
        assert_eq!(ends(&accept), (None, Reason::Agreement, Some(Black)));
    }

    #[test]
    fn a_draw_offer_is_answered_only_when_it_stands() {
        let t = table(5_000);
        let mut g = game(4);
        let none = refused(decide(
            &t,
            &g,
            Actor::Player(Black),
            &Action::DrawAnswer { accept: true },
        ));
        assert!(matches!(none, Refusal::Bad(_)));
        let offer = decide(&t, &g, Actor::Player(White), &Action::DrawOffer).expect("an offer");
        apply(&mut g, offer.change, 5_000, None);
        // The offerer cannot answer their own offer.
        assert!(
            decide(
                &t,
                &g,
                Actor::Player(White),
                &Action::DrawAnswer { accept: true }
            )
            .is_err()
        );
        let decline = decide(
            &t,
            &g,
            Actor::Player(Black),
            &Action::DrawAnswer { accept: false },
        )
        .expect("declined");
        assert!(matches!(&decline.write, Write::DrawOffers(row) if row.draw_offer.is_none()));
        assert_eq!(
            decline.events,
            vec![Event::DrawDeclined { by: side(Black) }]
        );
        apply(&mut g, decline.change, 5_000, None);
        assert_eq!(g.offers.draw, None);
        assert_eq!(g.offers.last_draw(White), Some(4), "the limit stays");
    }

    #[test]
    fn the_computer_takes_no_draw_offers() {
        let mut g = game(4);
        g.players.black.bot = Some(2);
        let r = refused(decide(
            &table(0),
            &g,
            Actor::Player(White),
            &Action::DrawOffer,
        ));
        assert!(matches!(r, Refusal::Bad(_)));
    }

    #[test]
    fn a_resignation_before_the_first_moves_aborts_except_in_a_tournament() {
        let t = table(5_000);
        let g = game(1);
        let step = decide(&t, &g, Actor::Player(Black), &Action::Resign).expect("resigned");
        assert_eq!(ends(&step), (None, Reason::Aborted, Some(Black)));
        let tournament = Table {
            tournament: true,
            ..t
        };
        let step = decide(&tournament, &g, Actor::Player(Black), &Action::Resign).expect("lost");
        assert_eq!(ends(&step), (Some(White), Reason::Resign, Some(Black)));
        let step = decide(&t, &game(2), Actor::Player(White), &Action::Resign).expect("lost");
        assert_eq!(ends(&step), (Some(Black), Reason::Resign, Some(White)));
    }

    #[test]
    fn an_abort_only_before_both_players_moved() {
        let t = table(5_000);
        let step = decide(&t, &game(1), Actor::Player(White), &Action::Abort).expect("aborted");
        assert_eq!(ends(&step), (None, Reason::Aborted, Some(White)));
        let late = refused(decide(&t, &game(2), Actor::Player(White), &Action::Abort));
        assert!(matches!(late, Refusal::Game(ErrorCode::GameInProgress, _)));
    }

    #[test]
    fn a_claim_waits_for_the_delay() {
        let g = game(4);
        let nobody = refused(decide(
            &table(0),
            &g,
            Actor::Player(White),
            &Action::Claim { draw: false },
        ));
        assert_eq!(
            nobody,
            Refusal::Bad("there is nothing to claim: your opponent is connected".into())
        );
        let early = Table {
            claim: Claim::In(2_500),
            ..table(0)
        };
        let r = refused(decide(
            &early,
            &g,
            Actor::Player(White),
            &Action::Claim { draw: false },
        ));
        assert_eq!(
            r,
            Refusal::Bad("your opponent may still come back: you can claim in 3 s".into())
        );
        let due = Table {
            claim: Claim::In(0),
            ..table(0)
        };
        let win = decide(
            &due,
            &g,
            Actor::Player(White),
            &Action::Claim { draw: false },
        );
        assert_eq!(
            ends(&win.expect("claimed")),
            (Some(White), Reason::Abandoned, Some(White))
        );
        let draw = decide(
            &due,
            &g,
            Actor::Player(White),
            &Action::Claim { draw: true },
        );
        assert_eq!(
            ends(&draw.expect("claimed")),
            (None, Reason::Abandoned, Some(White))
        );
    }

    #[test]
    fn an_end_is_stored_with_the_stopped_clock_and_applied() {
        let mut g = game(2);
        // White's clock runs from 2 s (Black's first move started it).
        let step = decide(
            &table(12_000),
            &g,
            Actor::Server,
            &Action::End {
                winner: Some(Black),
                reason: Reason::Timeout,
            },
        )
        .expect("ruled");
        let Write::End(end) = &step.write else {
            panic!("stored");
        };
        assert_eq!(end.clock.white_ms, 300_000 - 10_000);
        assert_eq!(end.clock.black_ms, 300_000);
        assert_eq!(ends(&step), (Some(Black), Reason::Timeout, None));
        apply(&mut g, step.change, 12_000, None);
        assert!(!g.playing());
        assert_eq!(g.clock.running(), None);
        // A timer that fires after the end does nothing; a player is told there is no game.
        let late = Action::End {
            winner: None,
            reason: Reason::Timeout,
        };
        let nothing = decide(&table(13_000), &g, Actor::Server, &late).expect("nothing");
        assert!(!nothing.writes() && nothing.events.is_empty());
        let r = refused(decide(
            &table(13_000),
            &g,
            Actor::Player(White),
            &Action::Resign,
        ));
        assert!(matches!(r, Refusal::Game(ErrorCode::NoGame, _)));
    }

    #[test]
    fn a_takeback_request_is_kept_in_memory_and_accepted_by_a_request_back() {
        let t = table(9_000);
        let mut g = game(5);
        // White made plies 1, 3 and 5: Black is to move.
        assert_eq!(g.position().turn(), Black);
        let ask = decide(&t, &g, Actor::Player(White), &Action::TakebackOffer).expect("asked");
        assert!(!ask.writes(), "a request is not stored");
        assert_eq!(
            ask.events,
            vec![Event::TakebackOffered {
                by: side(White),
                next: 15
            }]
        );
        apply(&mut g, ask.change, 9_000, None);
        assert_eq!(g.offers.takeback, Some(White));
        // Asking again while it stands does nothing.
        let again = decide(&t, &g, Actor::Player(White), &Action::TakebackOffer).expect("same");
        assert!(again.events.is_empty());
        // Black asking back accepts White's: White's last move (one ply) goes.
        let accept = decide(&t, &g, Actor::Player(Black), &Action::TakebackOffer).expect("done");
        let Write::TakeBack(clock) = &accept.write else {
            panic!("stored first");
        };
        assert_eq!(clock.ply, 4);
        assert_eq!(
            accept.events,
            vec![Event::Takeback {
                by: side(White),
                plies: 1,
                ply: 4
            }]
        );
        assert!(accept.follow.states && accept.follow.position);
        let after_four = game(4);
        apply(&mut g, accept.change, 9_000, None);
        assert_eq!(g.ply(), 4);
        assert_eq!(g.position().to_fen(), after_four.position().to_fen());
        assert_eq!(g.offers.takeback, None);
        assert_eq!(
            g.clock.running(),
            Some(White),
            "White moves again, on the clock"
        );
        assert_eq!(
            g.clock.remaining(White, 9_000),
            after_four.moves[3].clock.white
        );
    }

    #[test]
    fn takebacks_are_refused_for_the_first_moves_the_computer_and_tournaments() {
        let t = table(0);
        // After 3 plies White asking would undo White's ply 3 and Black's 2: a first move.
        let r = refused(decide(
            &t,
            &game(3),
            Actor::Player(Black),
            &Action::TakebackOffer,
        ));
        assert!(matches!(r, Refusal::Bad(m) if m.contains("first moves")));
        for t in [
            Table {
                computer: true,
                ..t
            },
            Table {
                tournament: true,
                ..t
            },
        ] {
            assert!(decide(&t, &game(6), Actor::Player(White), &Action::TakebackOffer).is_err());
        }
        let none = refused(decide(
            &t,
            &game(6),
            Actor::Player(White),
            &Action::TakebackAnswer { accept: true },
        ));
        assert!(matches!(none, Refusal::Bad(_)));
    }

    #[test]
    fn at_a_one_screen_table_a_takeback_needs_no_answer() {
        let t = Table {
            local: true,
            ..table(9_000)
        };
        let g = game(6);
        // White to move: White's last move and Black's reply go.
        let step = decide(&t, &g, Actor::Player(White), &Action::TakebackOffer).expect("done");
        assert!(matches!(&step.write, Write::TakeBack(c) if c.ply == 4));
    }

    #[test]
    fn prepared_replies_are_for_correspondence_and_shown_to_their_player_only() {
        let g = game(3);
        // Black to move after three plies: White prepares replies to Black's moves.
        let black_move = g.legal()[0].clone();
        let mut after = g.game.clone();
        let mv = after.position().parse_move(&black_move).expect("legal");
        after.play(&mv).expect("plays");
        let reply = {
            let pos = after.position();
            let list = pos.legal_moves();
            pos.move_to_string(&list[0])
        };
        let lines = vec![vec![black_move, reply]];
        let action = Action::Conditional {
            lines: lines.clone(),
        };
        let casual = refused(decide(&table(0), &g, Actor::Player(White), &action));
        assert!(matches!(casual, Refusal::Bad(m) if m.contains("correspondence")));
        let t = Table {
            correspondence: true,
            ..table(0)
        };
        let step = decide(&t, &g, Actor::Player(White), &action).expect("kept");
        assert!(
            matches!(&step.write, Write::Conditional(Some(_))),
            "stored first"
        );
        assert_eq!(step.events.len(), 1);
        assert_eq!(
            step.events[0].audience(),
            Audience::Player("w"),
            "White's own sockets"
        );
        // On one's own move there is nothing to prepare.
        let r = refused(decide(&t, &g, Actor::Player(Black), &action));
        assert!(matches!(r, Refusal::Bad(_)));
        // No lines clear them.
        let clear = Action::Conditional { lines: Vec::new() };
        let step = decide(&t, &g, Actor::Player(White), &clear).expect("cleared");
        assert!(matches!(step.write, Write::Conditional(None)));
    }
}
