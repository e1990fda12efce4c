//! The automatic game ends of spec §2: every draw limit fires on exactly the
//! right ply and not one earlier, counts restart as specified, threefold
//! repetition (counting the initial position) and the priority between rules.

use draughts::{Game, Move, Position, Reason, Rules, Variant};
use std::collections::HashMap;

fn game(variant: Variant, fen: &str) -> Game {
    let pos = Position::from_fen(Rules::new(variant), fen)
        .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
    assert!(
        pos.legal_moves().iter().all(|m| !m.is_capture()),
        "{fen}: test positions start without captures"
    );
    Game::new(pos)
}

fn play(game: &mut Game, text: &str) {
    let m = game
        .position()
        .parse_move(text)
        .unwrap_or_else(|e| panic!("{text}: {e} in {:?}", game.position()));
    game.play(&m).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// Whether neither side could capture in `pos` (whoever is to move).
fn quiet(pos: &Position) -> bool {
    let fen = pos.to_fen();
    let other_turn = if fen.starts_with('W') { "B" } else { "W" };
    let flipped =
        Position::from_fen(*pos.rules(), &format!("{other_turn}{}", &fen[1..])).expect("own FEN");
    [pos, &flipped]
        .iter()
        .all(|p| p.legal_moves().iter().all(|m| !m.is_capture()))
}

/// King moves allowed at `ply` that keep the board quiet.
fn safe_moves(
    pos: &Position,
    ply: usize,
    allow: &impl Fn(usize, &Position, &Move) -> bool,
) -> Vec<(Move, Position)> {
    pos.legal_moves()
        .iter()
        .filter(|m| !m.is_capture() && pos.kings().contains(m.from()) && allow(ply, pos, m))
        .map(|m| {
            let mut next = pos.clone();
            next.play_unchecked(m);
            (*m, next)
        })
        .filter(|(_, next)| quiet(next))
        .collect()
}

/// Plays `plies` quiet king moves, each allowed by `allow(ply, position,
/// move)` (`ply` counts from 0 within this walk): no capture is ever
/// possible for either side, the opponent always has such a reply, and no
/// position comes a third time (fresh positions first, spread over the
/// board by a fixed stride). Panics if it gets stuck.
fn walk(game: &mut Game, plies: usize, allow: impl Fn(usize, &Position, &Move) -> bool) {
    let mut seen: HashMap<String, u32> = HashMap::new();
    seen.insert(game.position().to_fen(), 1);
    for ply in 0..plies {
        assert_eq!(game.outcome(), None, "game ended early, at walk ply {ply}");
        let pos = game.position().clone();
        let mut fresh = Vec::new();
        let mut once = Vec::new();
        for (m, next) in safe_moves(&pos, ply, &allow) {
            if ply + 1 < plies && safe_moves(&next, ply + 1, &allow).is_empty() {
                continue;
            }
            match seen.get(&next.to_fen()).copied().unwrap_or(0) {
                0 => fresh.push(m),
                1 => once.push(m),
                _ => {}
            }
        }
        let pool = if fresh.is_empty() { once } else { fresh };
        assert!(!pool.is_empty(), "walk stuck at ply {ply} in {pos:?}");
        let m = pool[ply * 7 % pool.len()];
        game.play(&m).expect("legal");
        *seen.entry(game.position().to_fen()).or_insert(0) += 1;
    }
}

fn any(_: usize, _: &Position, _: &Move) -> bool {
    true
}

fn counter(game: &Game, rule: &str) -> Option<(u32, u32)> {
    game.counters()
        .iter()
        .find(|c| c.rule == rule)
        .map(|c| (c.moves, c.limit))
}

/// Walks `plies - 1` plies (no draw yet), then one more (draw by `rule`).
fn assert_fires_after(
    game: &mut Game,
    plies: usize,
    rule: &str,
    allow: impl Fn(usize, &Position, &Move) -> bool,
) {
    walk(game, plies - 1, &allow);
    assert_eq!(game.outcome(), None, "{rule}: one ply short must not draw");
    walk(game, 1, |_, p, m| allow(plies - 1, p, m));
    let outcome = game.outcome().expect("drawn");
    assert_eq!((outcome.winner, outcome.reason), (None, Reason::MoveLimit));
    assert_eq!(game.reached_limit(), Some(rule));
}

#[test]
fn american_forty_moves_fire_on_ply_80() {
    let mut g = game(Variant::American, "B:WK29,K31:BK2,K4");
    assert_eq!(counter(&g, "forty_moves"), Some((0, 40)));
    assert_fires_after(&mut g, 80, "forty_moves", any);
}

#[test]
fn italian_forty_moves_and_promotion_restart() {
    // White man 6 crowns on 3 (Italian: square 1 is a8, top-left).
    let mut g = game(Variant::Italian, "W:WK29,6:BK32,K25");
    walk(&mut g, 10, any);
    assert_eq!(counter(&g, "forty_moves"), Some((5, 40)));
    play(&mut g, "6-2");
    assert_eq!(counter(&g, "forty_moves"), Some((0, 40)));
    assert_fires_after(&mut g, 80, "forty_moves", any);
}

#[test]
fn a_man_move_does_not_restart_the_forty_moves() {
    // Black men 1 and 2 (American: Black moves down from 1-12).
    let mut g = game(Variant::American, "B:WK29,K31:B1,K12,K10");
    walk(&mut g, 40, any);
    play(&mut g, "1-5");
    assert_eq!(counter(&g, "forty_moves"), Some((20, 40)));
    assert_fires_after(&mut g, 39, "forty_moves", any);
}

/// Whether `sq` is on the long diagonal (the one with 8 playing squares),
/// found from the display coordinates so mirrored boards are covered.
fn on_diagonal(pos: &Position, sq: draughts::Square) -> bool {
    let v = pos.variant();
    let rising = v.squares().filter(|&s| {
        let (x, y) = v.square_xy(s);
        x + y == 7
    });
    let (x, y) = v.square_xy(sq);
    if rising.count() == 8 {
        x + y == 7
    } else {
        x == y
    }
}

#[test]
fn fmjd64_7_2_8_fires_after_the_strong_sides_fifth_move() {
    let mut g = game(Variant::Russian, "W:WKa3,Kc1:BKh6");
    assert_eq!(counter(&g, "fmjd64_7_2_8"), Some((0, 5)));
    assert_fires_after(&mut g, 9, "fmjd64_7_2_8", any);
    // Weak side to move first: the strong side's fifth move is ply 10.
    let mut g = game(Variant::Brazilian, "B:WKa3,c1:BKh6");
    assert_fires_after(&mut g, 10, "fmjd64_7_2_8", |_, p, m| {
        p.kings().contains(m.from())
    });
}

#[test]
fn fmjd64_king_against_king_is_five_moves_each() {
    let mut g = game(Variant::Czech, "W:WKa3:BKh6");
    assert_fires_after(&mut g, 10, "fmjd64_7_2_8", any);
}

#[test]
fn fmjd64_7_2_7_counts_only_with_the_lone_king_on_the_long_diagonal() {
    let stay = |_: usize, p: &Position, m: &Move| {
        let black_moves = p.turn() == draughts::Color::Black;
        on_diagonal(p, m.to()) == black_moves
    };
    let mut g = game(Variant::Russian, "W:WKa3,Kc1,Kh2:BKd4");
    assert_eq!(counter(&g, "fmjd64_7_2_7"), Some((0, 5)));
    assert_fires_after(&mut g, 9, "fmjd64_7_2_7", stay);

    // Off the diagonal for a while: those moves neither count nor restart.
    let black = |p: &Position| p.turn() == draughts::Color::Black;
    let mut g = game(Variant::Spanish, "W:WK2,K3,K4:BK19");
    assert_eq!(counter(&g, "fmjd64_7_2_7"), Some((0, 5)));
    walk(&mut g, 5, stay);
    assert_eq!(counter(&g, "fmjd64_7_2_7"), Some((3, 5)));
    walk(&mut g, 1, |_, p, m| black(p) && !on_diagonal(p, m.to()));
    walk(&mut g, 1, |_, p, m| !on_diagonal(p, m.to()));
    assert_eq!(
        counter(&g, "fmjd64_7_2_7"),
        Some((3, 5)),
        "paused, not restarted"
    );
    walk(&mut g, 1, |_, p, m| black(p) && on_diagonal(p, m.to()));
    assert_fires_after(&mut g, 3, "fmjd64_7_2_7", stay);
}

#[test]
fn a_promotion_reselects_the_row_after_a_paused_7_2_7() {
    // Issue 7 item 9: the lone king steps off the long diagonal (7.2.7 paused), then a man
    // crowns. The promotion restarts every count, so the row must be the one a game set up
    // in the new position gets (7.2.4, three kings), not the paused 7.2.7 carried over.
    let cases = [
        (Variant::Russian, "B:WKa3,Kh2,e7:BKd4", ["d4-e3", "e7-f8"]),
        (Variant::Brazilian, "B:WKa3,Kh2,e7:BKd4", ["d4-e3", "e7-f8"]),
        (Variant::Czech, "B:WKa3,Kh2,e7:BKd4", ["d4-e3", "e7-f8"]),
        // The same position mirrored onto the Spanish board.
        (Variant::Spanish, "B:WK9,K8,27:BK14", ["14-11", "27-31"]),
    ];
    for (variant, fen, moves) in cases {
        let mut g = game(variant, fen);
        assert_eq!(counter(&g, "fmjd64_7_2_7"), Some((0, 5)), "{variant}");
        for text in moves {
            play(&mut g, text);
        }
        assert_eq!(
            counter(&g, "fmjd64_7_2_4"),
            Some((0, 15)),
            "{variant}: {:?}",
            g.counters()
        );
        assert_eq!(g.counters().len(), 1, "{variant}");
        let fresh = Game::new(g.position().clone());
        assert_eq!(g.counters(), fresh.counters(), "{variant}");
        // Black moves first: White's 15th move is ply 30. The lone king keeps off the long
        // diagonal, where 7.2.7 would arise (and count from zero).
        assert_fires_after(&mut g, 30, "fmjd64_7_2_4", |_, p, m| {
            p.turn() == draughts::Color::White || !on_diagonal(p, m.to())
        });
    }
}

#[test]
fn fmjd64_7_2_4_lone_king_against_three_kings() {
    let off = |_: usize, p: &Position, m: &Move| !on_diagonal(p, m.to());
    let mut g = game(Variant::Russian, "W:WKa3,Kc1,Kh2:BKb8");
    assert_eq!(counter(&g, "fmjd64_7_2_4"), Some((0, 15)));
    assert_fires_after(&mut g, 29, "fmjd64_7_2_4", off);
}

#[test]
fn fmjd64_7_2_6_by_number_of_pieces() {
    let mut g = game(Variant::Russian, "W:WKa3,Kc1:BKb8,Kh6");
    assert_eq!(counter(&g, "fmjd64_7_2_6"), Some((0, 30)));
    assert_fires_after(&mut g, 60, "fmjd64_7_2_6", any);

    // Six pieces: 60 moves; men standing on the edge can't be taken.
    let mut g = game(Variant::Russian, "W:Wa1,c1,Kc5:Bh8,f8,Kf4");
    assert_eq!(counter(&g, "fmjd64_7_2_6"), Some((0, 60)));
    assert_fires_after(&mut g, 120, "fmjd64_7_2_6", any);
}

#[test]
fn fmjd64_7_2_5_kings_only_and_a_man_move_restarts_it() {
    let mut g = game(Variant::Czech, "W:Wa1,c1,e1,Kc5:Bh8,f8,d8,Kf4");
    assert_eq!(counter(&g, "kings_only"), Some((0, 15)));
    walk(&mut g, 20, any);
    assert_eq!(counter(&g, "kings_only"), Some((10, 15)));
    play(&mut g, "a1-b2");
    assert_eq!(counter(&g, "kings_only"), Some((0, 15)));
    assert_fires_after(&mut g, 30, "kings_only", any);
}

#[test]
fn fmjd64_without_kings_on_both_sides_falls_back_to_forty_moves() {
    let g = game(Variant::Russian, "W:Wa1,c1,Kc5:Bh8,f8");
    assert_eq!(g.counters().len(), 1);
    assert_eq!(counter(&g, "forty_moves"), Some((0, 40)));
}

#[test]
fn international_kings_only_25_moves() {
    let mut g = game(Variant::International, "W:W50,K47:B5,K4");
    assert_eq!(counter(&g, "kings_only"), Some((0, 25)));
    walk(&mut g, 30, any);
    play(&mut g, "50-45");
    assert_eq!(counter(&g, "kings_only"), Some((0, 25)));
    assert_fires_after(&mut g, 50, "kings_only", any);
}

#[test]
fn international_lone_king_rules_run_side_by_side() {
    let mut g = game(Variant::International, "W:WK28,K33:BK3");
    assert_eq!(counter(&g, "intl_5"), Some((0, 5)));
    assert_eq!(counter(&g, "kings_only"), Some((0, 25)));
    assert_fires_after(&mut g, 10, "intl_5", any);

    let mut g = game(Variant::International, "W:WK28,46,47:BK3");
    assert_eq!(counter(&g, "intl_16"), Some((0, 16)));
    assert_fires_after(&mut g, 32, "intl_16", any);
}

#[test]
fn threefold_counts_the_initial_position() {
    let mut g = game(Variant::International, "W:WK47:BK4");
    for (i, m) in ["47-42", "4-10", "42-47", "10-4", "47-42", "4-10", "42-47"]
        .iter()
        .enumerate()
    {
        play(&mut g, m);
        assert_eq!(g.outcome(), None, "after ply {}", i + 1);
    }
    play(&mut g, "10-4");
    let outcome = g.outcome().expect("threefold");
    assert_eq!((outcome.winner, outcome.reason), (None, Reason::Threefold));
}

#[test]
fn threefold_wins_over_a_move_limit_on_the_same_ply() {
    // Q after ply 2, 6 and 10; the five-move rule also fires on ply 10.
    let mut g = game(Variant::International, "W:WK47:BK4");
    for m in [
        "47-41", "4-9", "41-37", "9-13", "37-41", "13-9", "41-37", "9-13", "37-41",
    ] {
        play(&mut g, m);
        assert_eq!(g.outcome(), None);
    }
    assert_eq!(counter(&g, "intl_5"), Some((4, 5)));
    play(&mut g, "13-9");
    assert_eq!(g.reached_limit(), Some("intl_5"));
    assert_eq!(g.outcome().map(|o| o.reason), Some(Reason::Threefold));
}

#[test]
fn a_capture_starts_a_new_configuration() {
    let pos = Position::from_fen(Rules::new(Variant::Russian), "W:WKc1,Ka3:BKh4,Kd2").expect("fen");
    let mut g = Game::new(pos);
    assert_eq!(counter(&g, "fmjd64_7_2_6"), Some((0, 30)));
    play(&mut g, "c1xe3");
    assert_eq!(g.counters().len(), 1);
    assert_eq!(counter(&g, "fmjd64_7_2_8"), Some((0, 5)));
    walk(&mut g, 4, any);
    assert_eq!(counter(&g, "fmjd64_7_2_8"), Some((2, 5)));
}

#[test]
fn no_legal_move_loses_and_the_game_is_then_over() {
    let g =
        Game::new(Position::from_fen(Rules::new(Variant::International), "W:W:BK5").expect("fen"));
    let outcome = g.outcome().expect("over");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(draughts::Color::Black), Reason::NoMoves)
    );
    // Blocked: the man on 46 can neither move nor take.
    let mut g = game(Variant::International, "B:W46:B41,37,K3");
    play(&mut g, "3-9");
    let outcome = g.outcome().expect("blocked");
    assert_eq!(
        (outcome.winner, outcome.reason),
        (Some(draughts::Color::Black), Reason::NoMoves)
    );
    let any_move = Position::from_fen(Rules::new(Variant::International), "B:W46:B41,37,K9")
        .expect("fen")
        .legal_moves()[0];
    assert!(g.play(&any_move).is_err(), "no move after the end");
}

#[test]
fn replay_rebuilds_a_game_and_names_the_first_bad_move() {
    let rules = Rules::new(Variant::Russian);
    let fen = Variant::Russian.start_fen();
    let g = Game::replay(rules, fen, &["c3-d4", "f6-e5", "d4xf6"]).expect("replays");
    assert_eq!(g.moves().len(), 3);
    let err =
        Game::replay(rules, fen, &["c3-d4", "f6-e5", "a3-b4"]).expect_err("capture is compulsory");
    assert_eq!(err.to_string(), "move 3 (a3-b4): illegal move");
}
