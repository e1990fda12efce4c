//! One replay of a stored game: its rules read off its row, its stored moves played
//! through the engine from its initial position. Every reader of stored games (a table
//! restored after a restart, the PDN export, the analysis) replays here and takes from
//! each ply what it needs.

use damka_protocol::{EndReason, GameResult};
use damka_store::{GameRow, MoveRow};
use draughts::{Color, Game, Move, Outcome, Position, Reason, Rules, Variant};

use crate::error::AppError;

/// A stored game that does not replay: a bug or a damaged database, never a user's
/// mistake.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("stored game {game}{}: {what}", .ply.map(|p| format!(", ply {p}")).unwrap_or_default())]
pub struct ReplayError {
    /// The game's id.
    pub game: String,
    /// The ply that does not replay (`None`: the game's row itself).
    pub ply: Option<i64>,
    /// What is wrong.
    pub what: String,
}

impl From<ReplayError> for AppError {
    fn from(e: ReplayError) -> Self {
        AppError::Internal(e.to_string())
    }
}

/// The variant and rules (its options included) a stored game is played under.
///
/// Fails for a variant or options the engine does not know.
pub fn rules_of(row: &GameRow) -> Result<(Variant, Rules), ReplayError> {
    let err = |what: String| ReplayError {
        game: row.id.clone(),
        ply: None,
        what,
    };
    let variant = Variant::from_name(&row.variant)
        .ok_or_else(|| err(format!("unknown variant {}", row.variant)))?;
    let rules = Rules::with_capture_optional(variant, row.capture_optional)
        .map_err(|e| err(e.to_string()))?;
    Ok((variant, rules))
}

/// How a stored game ended, if it did.
pub fn stored_outcome(row: &GameRow) -> Option<Outcome> {
    let reason = match row.reason? {
        EndReason::NoMoves => Reason::NoMoves,
        EndReason::Resign => Reason::Resign,
        EndReason::Timeout => Reason::Timeout,
        EndReason::Agreement => Reason::Agreement,
        EndReason::Threefold => Reason::Threefold,
        EndReason::MoveLimit => Reason::MoveLimit,
        EndReason::Aborted => Reason::Aborted,
        EndReason::Abandoned => Reason::Abandoned,
    };
    let winner = match row.result {
        Some(GameResult::White) => Some(Color::White),
        Some(GameResult::Black) => Some(Color::Black),
        Some(GameResult::Draw) | None => None,
    };
    Some(Outcome { winner, reason })
}

/// Replays `moves` of the game of `row`, calling `each` with the game before every ply,
/// the ply's move as the engine parsed it and its stored row; returns the game after the
/// last.
///
/// Fails at the first ply that does not replay (or a row the engine cannot read).
pub fn replay(
    row: &GameRow,
    moves: &[MoveRow],
    mut each: impl FnMut(&Game, &Move, &MoveRow),
) -> Result<Game, ReplayError> {
    let (_, rules) = rules_of(row)?;
    let start = Position::from_fen(rules, &row.initial_fen).map_err(|e| ReplayError {
        game: row.id.clone(),
        ply: None,
        what: e.to_string(),
    })?;
    let mut game = Game::new(start);
    for m in moves {
        let err = |what: String| ReplayError {
            game: row.id.clone(),
            ply: Some(m.ply),
            what,
        };
        let mv = game
            .position()
            .parse_move(&m.mv)
            .map_err(|e| err(e.to_string()))?;
        each(&game, &mv, m);
        game.play(&mv).map_err(|e| err(e.to_string()))?;
    }
    Ok(game)
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_protocol::GameStatus;
    use damka_store::ClockRow;

    fn row(variant: &str) -> GameRow {
        GameRow {
            id: "g1".into(),
            table_id: "t".into(),
            room: "r".into(),
            variant: variant.into(),
            minutes: 5,
            increment_s: 0,
            days: None,
            random_opening: false,
            capture_optional: false,
            rated: false,
            white_id: "w".into(),
            white_name: "W".into(),
            black_id: "b".into(),
            black_name: "B".into(),
            initial_fen: Variant::Russian.start_fen().to_owned(),
            opening_plies: 0,
            ballot: None,
            ballot_random: false,
            micro_match: None,
            status: GameStatus::Over,
            result: None,
            reason: None,
            clock: ClockRow::default(),
            started_at: 0,
            ended_at: None,
        }
    }

    fn moves(texts: &[&str]) -> Vec<MoveRow> {
        (1..)
            .zip(texts)
            .map(|(ply, mv)| MoveRow {
                ply,
                mv: (*mv).to_owned(),
                fen_after: String::new(),
                white_ms: 0,
                black_ms: 0,
                used_ms: 0,
            })
            .collect()
    }

    #[test]
    fn each_ply_is_seen_with_the_game_before_it() {
        let mut seen = Vec::new();
        let game = replay(
            &row("russian"),
            &moves(&["c3-d4", "f6-g5", "d4-e5"]),
            |before, mv, m| {
                seen.push((
                    before.moves().len(),
                    before.position().move_to_string(mv),
                    m.ply,
                ));
            },
        )
        .expect("replays");
        assert_eq!(
            seen,
            vec![
                (0, "c3-d4".to_owned(), 1),
                (1, "f6-g5".to_owned(), 2),
                (2, "d4-e5".to_owned(), 3)
            ]
        );
        assert_eq!(game.moves().len(), 3);
        assert_eq!(game.initial().to_fen(), Variant::Russian.start_fen());
    }

    #[test]
    fn a_stored_end_reads_back_as_the_outcome_it_was() {
        let mut r = row("russian");
        assert_eq!(stored_outcome(&r), None, "not over");
        for reason in Reason::ALL {
            for winner in [None, Some(Color::White), Some(Color::Black)] {
                r.reason = EndReason::from_name(reason.name());
                r.result = match (reason, winner) {
                    (Reason::Aborted, _) => None,
                    (_, Some(Color::White)) => Some(GameResult::White),
                    (_, Some(Color::Black)) => Some(GameResult::Black),
                    (_, None) => Some(GameResult::Draw),
                };
                let back = stored_outcome(&r).expect("over");
                assert_eq!(back.reason, reason);
                if reason != Reason::Aborted {
                    assert_eq!(back.winner, winner);
                }
            }
        }
    }

    #[test]
    fn a_ply_that_does_not_replay_is_named() {
        let e = replay(&row("russian"), &moves(&["c3-d4", "a3-b4"]), |_, _, _| {})
            .expect_err("Black's ply 2 is White's move");
        assert_eq!((e.game.as_str(), e.ply), ("g1", Some(2)));
        assert!(e.to_string().starts_with("stored game g1, ply 2: "), "{e}");
        let e = replay(&row("chess"), &[], |_, _, _| {}).expect_err("no such variant");
        assert_eq!(e.ply, None);
        assert_eq!(e.to_string(), "stored game g1: unknown variant chess");
    }
}
