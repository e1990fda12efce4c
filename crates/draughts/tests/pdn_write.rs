//! The PDN writer: tag layout, notation per variant, short and full captures, move
//! numbers, result tokens, and a write-then-read round trip of random games in every
//! variant (Spanish and Brazilian have no real game files, see the vectors README).

use draughts::pdn::{self, GameResult, PdnGame};
use draughts::{Color, Game, Outcome, Position, Reason, Rules, Variant};

fn start(variant: Variant) -> Position {
    Position::new(Rules::new(variant))
}

fn fen(variant: Variant, fen: &str) -> Position {
    Position::from_fen(Rules::new(variant), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// Plays the moves given as text from `position`.
fn game_with(position: Position, moves: &[&str]) -> PdnGame {
    let mut game = PdnGame::new(position.clone());
    let mut position = position;
    for text in moves {
        let m = position
            .parse_move(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"));
        position.play_unchecked(&m);
        game.moves.push(m);
    }
    game
}

#[test]
fn international_game_with_every_tag() {
    let mut game = game_with(
        start(Variant::International),
        &["32-28", "19-23", "28x19", "14x23"],
    );
    for (name, value) in [
        ("Event", "Damka casual"),
        ("Site", "damka.example"),
        ("Date", "2026.11.29"),
        ("Round", "-"),
        ("White", "ala"),
        ("Black", "bob \"the rook\""),
        ("TimeControl", "600+5"),
    ] {
        game.set_tag(name, value);
    }
    game.set_outcome(Some(&Outcome {
        winner: Some(Color::White),
        reason: Reason::Resign,
    }));
    let expected = r#"[Event "Damka casual"]
[Site "damka.example"]
[Date "2026.11.29"]
[Round "-"]
[White "ala"]
[Black "bob \"the rook\""]
[Result "2-0"]
[GameType "20,W,10,10,N2,0"]
[TimeControl "600+5"]
[Termination "resign"]

1. 32-28 19-23 2. 28x19 14x23 2-0

"#;
    assert_eq!(pdn::write(&game), expected);
}

#[test]
fn missing_roster_tags_are_question_marks_and_derived_tags_are_not_copied() {
    let mut game = PdnGame::new(start(Variant::American));
    game.set_tag("Result", "1-0");
    game.set_tag("GameType", "20");
    let text = pdn::write(&game);
    assert!(text.starts_with("[Event \"?\"]\n[Site \"?\"]\n"), "{text}");
    assert!(
        text.contains("[Result \"*\"]\n[GameType \"21,B,8,8,N1,0\"]\n"),
        "{text}"
    );
    assert_eq!(text.matches("[Result").count(), 1, "{text}");
    assert_eq!(text.matches("[GameType").count(), 1, "{text}");
    assert!(!text.contains("FEN"), "standard start: no FEN\n{text}");
}

#[test]
fn russian_is_algebraic_with_colon_captures() {
    let game = game_with(
        start(Variant::Russian),
        &["c3-d4", "f6-e5", "d4xf6", "g7xe5"],
    );
    let text = pdn::write(&game);
    assert!(
        text.contains("\n1. c3-d4 f6-e5 2. d4:f6 g7:e5 *\n"),
        "{text}"
    );
    assert!(text.contains("[GameType \"25,W,8,8,A0,0\"]"), "{text}");
}

#[test]
fn american_numbers_black_first() {
    let game = game_with(start(Variant::American), &["11-15", "23-19", "8-11"]);
    assert!(pdn::write(&game).contains("\n1. 11-15 23-19 2. 8-11 *\n"));
}

#[test]
fn a_game_starting_with_the_second_mover_writes_one_ellipsis() {
    let position = fen(Variant::International, "B:W28,31,33-50:B1-20");
    let game = game_with(position, &["19-23", "28x19", "14x23"]);
    let text = pdn::write(&game);
    assert!(text.contains("[SetUp \"1\"]\n[FEN \""), "{text}");
    assert!(text.contains("\n1... 19-23 2. 28x19 14x23 *\n"), "{text}");
}

#[test]
fn short_capture_unless_ambiguous() {
    // Each position has two captures from the same square to the same square.
    let cases = [
        (
            Variant::American,
            "W:W21,25,26,29,30,32:B1,2,7,8,13,15,16,23,28",
            "26x19x12x3",
        ),
        (
            Variant::Spanish,
            "B:W1,3,5,10,11,12,18,19:BK4,17,21,22,24,25,27,28,32",
            "22x13x6",
        ),
        (
            Variant::Italian,
            "W:W18,21,23,24,25,29,31,32:B1,3,4,5,6,13,14,15,16",
            "18x11x2",
        ),
        (
            Variant::Russian,
            "W:Wa7,Kd8:BKh2,b4,c5,e5,g5,h6,c7,b8",
            "d8xb6xd4xf6xh4",
        ),
        (
            Variant::International,
            "B:W24,34,37,44,46,48:B1,2,3,5,7,8,9,10,11,14,17,33,45,K49",
            "49x40x23x41",
        ),
    ];
    for (variant, fen_text, full) in cases {
        let position = fen(variant, fen_text);
        let m = position
            .parse_move(full)
            .unwrap_or_else(|e| panic!("{full}: {e}"));
        let written = pdn::move_text(&position, &m);
        let expected = if variant == Variant::Russian {
            full.replace('x', ":")
        } else {
            full.to_owned()
        };
        assert_eq!(written, expected, "{variant}");
    }
    // Unambiguous multi-captures are written short.
    let position = fen(Variant::Russian, "W:Wa7,Kd8:BKh2,b4,c5,e5,g5,h6,c7,b8");
    let short: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|m| pdn::move_text(&position, m))
        .filter(|t| t.matches(':').count() == 1)
        .collect();
    assert!(!short.is_empty(), "some capture is unambiguous");
}

#[test]
fn result_tokens_per_board_size() {
    use GameResult::*;
    let cases = [
        (WhiteWins, "1-0", "2-0"),
        (BlackWins, "0-1", "0-2"),
        (Draw, "1/2-1/2", "1-1"),
        (Unfinished, "*", "*"),
    ];
    for (result, small, large) in cases {
        assert_eq!(result.token(Variant::Czech), small);
        assert_eq!(result.token(Variant::International), large);
        assert_eq!(GameResult::parse(small), Some(result));
        assert_eq!(GameResult::parse(large), Some(result));
    }
    let draw = Outcome {
        winner: None,
        reason: Reason::Threefold,
    };
    let aborted = Outcome {
        winner: None,
        reason: Reason::Aborted,
    };
    let flag = Outcome {
        winner: Some(Color::Black),
        reason: Reason::Timeout,
    };
    assert_eq!(GameResult::from_outcome(Some(&draw)), Draw);
    assert_eq!(GameResult::from_outcome(Some(&aborted)), Unfinished);
    assert_eq!(GameResult::from_outcome(Some(&flag)), BlackWins);
    assert_eq!(GameResult::from_outcome(None), Unfinished);
}

#[test]
fn long_games_are_wrapped() {
    let game = random_game(Variant::International, 7, None);
    let text = pdn::write(&game);
    assert!(text.lines().count() > 12, "{text}");
    assert!(text.lines().all(|line| line.chars().count() < 80), "{text}");
    assert!(
        text.lines().all(|line| !line.ends_with('.')),
        "a move number is never separated from its move\n{text}"
    );
}

/// xorshift64: deterministic, so a failing seed can be replayed.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

/// A game of uniformly random legal moves from the start (or `from`), to its end by the
/// engine's rules or 300 plies, with its outcome.
fn random_game(variant: Variant, seed: u64, from: Option<&str>) -> PdnGame {
    let position = match from {
        Some(text) => fen(variant, text),
        None => start(variant),
    };
    let mut seed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut game = Game::new(position.clone());
    while game.outcome().is_none() && game.moves().len() < 300 {
        let moves = game.position().legal_moves();
        let m = moves[(next(&mut seed) % moves.len() as u64) as usize];
        game.play(&m).unwrap_or_else(|e| panic!("{variant}: {e}"));
    }
    let mut pdn_game = PdnGame::new(position);
    pdn_game.moves = game.moves().to_vec();
    pdn_game.set_outcome(game.outcome().as_ref());
    pdn_game
}

#[test]
fn random_games_round_trip_in_every_variant() {
    let set_ups = [
        (Variant::Spanish, "B:WK1,2,3,10:B21,22,K30"),
        (Variant::Brazilian, "B:Wa1,c1,Ke3:Bh8,Kd6,f6"),
        (Variant::International, "B:W31-45,K50:B1-4,6-15,K5"),
    ];
    let mut full_paths = 0;
    for variant in Variant::ALL {
        for seed in 1..=12 {
            let from = set_ups
                .iter()
                .find(|(v, _)| *v == variant && seed % 3 == 0)
                .map(|(_, f)| *f);
            let game = random_game(variant, seed, from);
            let text = pdn::write(&game);
            let words: Vec<&str> = text.split_whitespace().collect();
            full_paths += words
                .iter()
                .filter(|w| w.matches(['x', ':']).count() > 1)
                .count();
            let read = pdn::read(&text, None);
            assert_eq!(read.len(), 1, "{variant} seed {seed}:\n{text}");
            let again = match &read[0] {
                Ok(again) => again,
                Err(e) => panic!("{variant} seed {seed}: {e}\n{text}"),
            };
            assert_eq!(again.variant(), variant, "{text}");
            assert_eq!(again.start, game.start, "{text}");
            assert_eq!(again.moves, game.moves, "{text}");
            assert_eq!(again.result, game.result, "{text}");
            assert_eq!(again.tag("Termination"), game.tag("Termination"), "{text}");
        }
    }
    assert!(
        full_paths > 0,
        "no random game needed a full path: the test is too weak"
    );
}
