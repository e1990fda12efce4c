//! The PDN reader on small records: the quirks of real files, lookahead for ambiguous
//! captures, and the errors it reports.

use draughts::pdn::{self, GameResult, MoveFault, PdnError};
use draughts::{Position, Rules, Variant};

fn only_game(text: &str, variant: Option<Variant>) -> Result<pdn::PdnGame, PdnError> {
    let mut games = pdn::read(text, variant);
    assert_eq!(games.len(), 1, "{text}");
    games.remove(0)
}

#[test]
fn forfeit_is_a_result_without_moves() {
    let game = only_game("[Result \"0-2\"]\n[PlyCount \"1\"]\n1. 0-2\n", None).expect("forfeit");
    assert!(game.moves.is_empty());
    assert_eq!(game.result, GameResult::BlackWins);
}

#[test]
fn final_token_equal_to_the_result_tag_is_the_result() {
    let text = "[Result \"-\"] [GameType \"20\"]  1.32-28 18-23 2.33-29 -\n\n[Result \"4-6\"]\n1. 33-28 4-6";
    let records = pdn::parse(text);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].terminator.as_deref(), Some("-"));
    assert_eq!(records[0].replay(None).expect("legal").moves.len(), 3);
    assert_eq!(records[1].terminator.as_deref(), Some("4-6"));
    let game = records[1].replay(None).expect("legal");
    assert_eq!(game.moves.len(), 1);
    assert_eq!(game.result, GameResult::Unfinished);
}

#[test]
fn localized_tags_and_latin1_files() {
    let mut bytes =
        b"[Bianco \"Rossi\"]\n[Nero \"Bianchi\"]\n[Risultato \"1-0\"]\n[Dati \"5\xb0 turno\"]\n"
            .to_vec();
    bytes.extend_from_slice(b"1. 21-17 10-14 {Bianco Vince} 1-0\n");
    let text = pdn::decode(&bytes);
    let game = only_game(&text, Some(Variant::Italian)).expect("legal");
    assert_eq!(game.tag("White"), Some("Rossi"));
    assert_eq!(game.tag("Black"), Some("Bianchi"));
    assert_eq!(game.tag("Dati"), Some("5° turno"));
    assert_eq!(game.result, GameResult::WhiteWins);

    let text = "[&#x00c9;v&#x00e9;nement \"Open\"]\\r\n[R&#x00e9;sultat \" 1-1\"]\\r\n[Type de jeu \"20\"]\n1. 32-28 *\\r\n";
    let game = only_game(text, None).expect("legal");
    assert_eq!(game.tag("Event"), Some("Open"));
    assert_eq!(
        game.result,
        GameResult::Draw,
        "the tag wins over a `*` terminator"
    );
}

#[test]
fn captures_may_list_the_captured_squares() {
    // 28x19 jumps the piece on 23.
    let game = only_game("1. 32-28 19-23 2. 28x23x19 14x23 *", None).expect("legal");
    assert_eq!(game.moves.len(), 4);
    let error = only_game("1. 32-28 19-23 2. 28x22x19 14x23 *", None).expect_err("22 not taken");
    assert_eq!(error.ply(), Some(3));
}

#[test]
fn game_type_selects_the_variant_unless_one_is_given() {
    let text = "[GameType \"21\"]\n1. 11-15 23-19 *";
    assert_eq!(
        only_game(text, None).expect("american").variant(),
        Variant::American
    );
    let text = "[GameType \"23\"]\n1. 32-28 *";
    assert_eq!(
        only_game(text, None)
            .expect_err("type 23 is not played")
            .to_string(),
        "game 1: unsupported GameType \"23\""
    );
    let game = only_game(text, Some(Variant::International)).expect("forced");
    assert_eq!(game.moves.len(), 1);
}

#[test]
fn invalid_fen_is_reported() {
    let text = "[FEN \"W:W99:B1\"]\n1. 32-28 *";
    assert!(matches!(
        only_game(text, None),
        Err(PdnError::InvalidFen { game: 1, .. })
    ));
}

#[test]
fn first_illegal_move_is_reported_with_its_number() {
    let text = "[Event \"a\"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n[Event \"b\"]\n1. 32-28 19-23 2. 28-22 *\n";
    let games = pdn::read(text, None);
    assert!(games[0].is_ok());
    let error = games[1]
        .as_ref()
        .expect_err("28-22 is not legal: 28x19 is forced");
    assert_eq!(
        error,
        &PdnError::Move {
            game: 2,
            ply: 3,
            number: "2.".into(),
            text: "28-22".into(),
            fault: MoveFault::Illegal,
        }
    );
    assert_eq!(
        error.to_string(),
        "game 2: move 2. 28-22 (ply 3) is illegal"
    );

    let text = "[FEN \"B:W28,31,33-50:B1-20\"]\n1... 19-23 2. 28x19 14x99 *";
    let error = only_game(text, None).expect_err("99 is no square");
    assert_eq!(
        error.to_string(),
        "game 1: move 2... 14x99 (ply 3) is not a move"
    );

    let text = "1. - - 2. - - *";
    let error = only_game(text, Some(Variant::Russian)).expect_err("placeholder");
    assert_eq!(error.ply(), Some(1));
    assert!(matches!(
        error,
        PdnError::Move {
            fault: MoveFault::Unknown,
            ..
        }
    ));
}

#[test]
fn ambiguous_short_capture_is_resolved_by_lookahead() {
    // Black's king on 49 has two captures from 49 to 41 taking different pieces.
    let fen = "B:W24,34,37,44,46,48:B1,2,3,5,7,8,9,10,11,14,17,33,45,K49";
    let position = Position::from_fen(Rules::new(Variant::International), fen).expect("fen");
    let both: Vec<_> = position
        .legal_moves()
        .iter()
        .filter(|m| {
            let name = |sq| position.variant().square_name(sq);
            name(m.from()) == "49" && name(m.to()) == "41"
        })
        .copied()
        .collect();
    assert_eq!(both.len(), 2, "the position has the ambiguity");
    // For each candidate, a continuation that is legal only after it.
    for (i, chosen) in both.iter().enumerate() {
        let after_chosen = position.play(chosen).expect("legal");
        let after_other = position.play(&both[1 - i]).expect("legal");
        let line = distinguishing_line(&after_chosen, &after_other, 3)
            .expect("some continuation tells the captures apart");
        let mut text = format!("[FEN \"{fen}\"]\n1... 49x41");
        let mut replay = after_chosen.clone();
        for (ply, m) in line.iter().enumerate() {
            if ply % 2 == 0 {
                text.push_str(&format!(" {}.", ply / 2 + 2));
            }
            text.push(' ');
            text.push_str(&pdn::move_text(&replay, m));
            replay.play_unchecked(m);
        }
        text.push_str(" *");
        let game = only_game(&text, None).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(game.moves[0], *chosen, "{text}");
        assert_eq!(game.moves[1..], line[..], "{text}");
    }
    // With no later move to decide, either capture is acceptable; a reply legal after
    // neither makes the record fail at that reply, not at the capture.
    let text = format!("[FEN \"{fen}\"]\n1... 49x41 2. 46-41 *");
    let error = only_game(&text, None).expect_err("41 is occupied");
    assert_eq!(error.ply(), Some(2));
}

/// Moves legal in sequence from `a` of which the last is not legal from `b` after the
/// same earlier moves; at most `depth` plies.
fn distinguishing_line(a: &Position, b: &Position, depth: usize) -> Option<Vec<draughts::Move>> {
    let b_moves = b.legal_moves();
    for m in a.legal_moves().iter() {
        if !b_moves.contains(m) {
            return Some(vec![*m]);
        }
    }
    if depth <= 1 {
        return None;
    }
    for m in a.legal_moves().iter() {
        let (mut a2, mut b2) = (a.clone(), b.clone());
        a2.play_unchecked(m);
        b2.play_unchecked(m);
        if let Some(mut rest) = distinguishing_line(&a2, &b2, depth - 1) {
            rest.insert(0, *m);
            return Some(rest);
        }
    }
    None
}
