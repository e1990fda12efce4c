//! The search finds forced wins: in each variant a position whose only
//! winning move is a quiet sacrifice (a shot) that forces the opponent out
//! of moves within seven plies. Each position was picked from a seeded
//! search over sparse positions and is checked here first by a plain
//! minimax over the rules engine's legal moves, independent of the bot.

use bot::{Engine, Limits, WIN_BOUND};
use draughts::{Game, Position, Rules, Variant};
use std::sync::atomic::AtomicBool;

/// Whether the side to move can leave the opponent without moves within
/// `plies`.
fn wins(pos: &Position, plies: u32) -> bool {
    plies > 0
        && pos.legal_moves().iter().any(|m| {
            let next = pos.play(m).expect("legal");
            loses(&next, plies - 1)
        })
}

/// Whether the side to move is left without moves within `plies` whatever
/// it plays.
fn loses(pos: &Position, plies: u32) -> bool {
    let moves = pos.legal_moves();
    moves.is_empty()
        || plies > 0
            && moves
                .iter()
                .all(|m| wins(&pos.play(m).expect("legal"), plies - 1))
}

/// (variant, FEN, the only winning move, plies to the win).
const SHOTS: [(Variant, &str, &str, u32); 8] = [
    (Variant::American, "W:W26,29,K19:BK18,9", "26-22", 7),
    (Variant::Russian, "W:WKc5,g3,c1:BKh2,g5", "c5-e3", 7),
    (Variant::Brazilian, "W:Wh2,e7,g5,Ka7:Bc3,g7,f8", "a7-b8", 7),
    (Variant::Spanish, "W:W8,27,20,K25:B10,28,31", "25-29", 7),
    (Variant::Italian, "W:W22,6,13,29:B15,3", "22-19", 7),
    (Variant::Czech, "W:Wc3,d6,Kg3,e7:Bg7,b8", "d6-c7", 7),
    (Variant::International, "W:W42,49,47,K5:B27,40", "49-44", 7),
    (Variant::International, "W:WK26,6,23,15:B22,14", "26-17", 5),
];

#[test]
fn the_positions_are_shots() {
    for (variant, fen, winning, plies) in SHOTS {
        let pos = Position::from_fen(Rules::new(variant), fen).expect("valid FEN");
        let moves = pos.legal_moves();
        assert!(
            !pos.has_capture(),
            "{variant} {fen}: no capture at the start"
        );
        let winners: Vec<String> = moves
            .iter()
            .filter(|m| loses(&pos.play(m).expect("legal"), plies - 1))
            .map(|m| pos.move_to_string(m))
            .collect();
        assert_eq!(winners, vec![winning.to_string()], "{variant} {fen}");
        assert!(!wins(&pos, plies - 2), "{variant} {fen}: not a shorter win");
        let m = pos.parse_move(winning).expect("legal");
        let after = pos.play(&m).expect("legal");
        assert!(after.has_capture(), "{variant} {fen}: a sacrifice");
    }
}

#[test]
fn the_search_finds_every_shot_within_a_small_depth() {
    let stop = AtomicBool::new(false);
    for (variant, fen, winning, plies) in SHOTS {
        let pos = Position::from_fen(Rules::new(variant), fen).expect("valid FEN");
        let game = Game::new(pos.clone());
        let mut engine = Engine::new(16);
        let limits = Limits {
            depth: Some(plies),
            ..Limits::default()
        };
        let r = engine.search(&game, &limits, &stop).expect("a move");
        assert_eq!(pos.move_to_string(&r.mv), winning, "{variant} {fen}: {r:?}");
        assert!(
            r.score >= WIN_BOUND,
            "{variant} {fen}: a won score, {}",
            r.score
        );
        assert!(r.depth <= plies, "{variant} {fen}");
        // The principal variation is a legal line starting with the shot.
        let mut p = pos.clone();
        for m in &r.pv {
            p = p.play(m).expect("the PV is legal");
        }
    }
}
