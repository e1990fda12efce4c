//! "Learn from your mistakes" (issue 37, item 4; docs/protocol.md "Analysis"): once a
//! game is analysed, each mistake and blunder becomes a position to try again, and a move
//! tried there is judged the way the analysis judged the move played: the position before
//! and the position after the try are searched with the game analysis's own budget (fixed
//! nodes, a fresh table, the game's history for the draw rules), so the move played gets
//! exactly its stored judgement and a try is good when it would not have been judged at
//! all (it gives away less than an inaccuracy's expected result).
//!
//! What it costs: a try is two searches of the game analysis's budget at most (50–100 ms
//! each on one core), on the computer's threads below every live game; the position
//! before is kept (the last [`BEFORE_KEPT`] of them) so a second try costs one. Every try
//! takes a token of the address's analysis-board budget, and at most
//! `--analysis-board-searches` tries search at once on a node (past that `429` with
//! `Retry-After`).

use std::collections::HashMap;
use std::sync::Mutex;

use damka_protocol::Side;
use damka_protocol::analysis::{MistakePosition, MistakePositions, MistakeVerdict, PlyAnalysis};
use draughts::{Color, Game};

use super::judge::{self, Curve, Judgement, Value};
use super::search::{self, Budget, Searched};
use super::{Analyses, stored_line};
use crate::computer::Who;
use crate::error::{AppError, AppResult};
use crate::lock::lock;

/// Positions before a mistake whose search is kept (then all are forgotten at once).
pub const BEFORE_KEPT: usize = 1_024;

/// A position before a mistake as searched: its value and the engine's move.
type Before = (Value, Option<String>);

/// The searches of positions before mistakes, by (game, ply).
#[derive(Debug, Default)]
pub struct Befores {
    found: Mutex<HashMap<(String, u32), Before>>,
}

fn side(c: Color) -> Side {
    match c {
        Color::White => Side::White,
        Color::Black => Side::Black,
    }
}

/// Whether a ply's judgement makes it a position to learn from.
fn to_learn(p: &PlyAnalysis, opening_plies: u32) -> bool {
    p.ply > opening_plies
        && matches!(
            p.judgement.as_deref().and_then(Judgement::from_name),
            Some(Judgement::Mistake | Judgement::Blunder)
        )
}

impl Analyses {
    /// The mistakes and blunders of an analysed game, each with the position before it.
    /// A random opening's plies (the server's, not the players') are left out.
    ///
    /// Fails with `not_found` for an unknown game or one whose analysis is not done, or a
    /// database error.
    pub async fn mistakes(
        &self,
        store: &damka_store::Store,
        game_id: &str,
    ) -> AppResult<MistakePositions> {
        let plies = self
            .done_plies(game_id)
            .await?
            .ok_or(AppError::NotFound("analysis"))?;
        let line = stored_line(store, game_id).await?;
        let opening = u32::try_from(line.row.opening_plies).unwrap_or(0);
        let positions = plies
            .iter()
            .filter(|p| to_learn(p, opening))
            .filter_map(|p| {
                let game = line
                    .games
                    .get(usize::try_from(p.ply).ok()?.checked_sub(1)?)?;
                let pos = game.position();
                Some(MistakePosition {
                    ply: p.ply,
                    color: side(pos.turn()),
                    fen: pos.to_fen(),
                    legal: pos
                        .legal_moves()
                        .iter()
                        .map(|m| pos.move_to_string(m))
                        .collect(),
                    played: p.mv.clone(),
                    judgement: p.judgement.clone().unwrap_or_default(),
                    best: p.best.clone(),
                })
            })
            .collect();
        Ok(MistakePositions { positions })
    }

    /// Judges `mv` tried instead of the mistake at `ply` of an analysed game.
    ///
    /// Fails with `not_found` (unknown game, analysis not done), `bad_message` (a ply that
    /// is not a mistake or blunder, a move that is not legal there), `429` with
    /// `Retry-After` when the node's tries are all searching or the live games keep
    /// stopping this one, or a database error.
    pub async fn try_instead(
        &self,
        game_id: &str,
        ply: u32,
        mv: &str,
        who: Who,
    ) -> AppResult<MistakeVerdict> {
        let plies = self
            .done_plies(game_id)
            .await?
            .ok_or(AppError::NotFound("analysis"))?;
        let line = stored_line(&self.core.store, game_id).await?;
        let opening = u32::try_from(line.row.opening_plies).unwrap_or(0);
        let judged = plies
            .iter()
            .find(|p| p.ply == ply)
            .filter(|p| to_learn(p, opening))
            .ok_or_else(|| {
                AppError::BadMessage(format!("ply {ply}: not a mistake or blunder of the game"))
            })?;
        let before_game = usize::try_from(ply)
            .ok()
            .and_then(|i| i.checked_sub(1))
            .and_then(|i| line.games.get(i))
            .ok_or_else(|| AppError::Internal(format!("game {game_id}: no ply {ply}")))?;
        let pos = before_game.position();
        let tried = pos
            .parse_move(mv)
            .map_err(|e| AppError::BadMessage(format!("move {mv}: {e}")))?;
        let mover = pos.turn();
        let fen = pos
            .play(&tried)
            .map_err(|_| AppError::BadMessage(format!("move {mv}: not legal here")))?
            .to_fen();
        // The move played: its stored judgement, no search.
        let index = usize::try_from(ply).ok().and_then(|i| i.checked_sub(1));
        if index
            .and_then(|i| line.played.get(i))
            .is_some_and(|(m, _)| *m == tried)
        {
            return Ok(MistakeVerdict {
                ok: false,
                judgement: judged.judgement.clone(),
                fen,
                eval: judged.eval,
            });
        }
        let Ok(_permit) = self.learn_slots.try_acquire() else {
            return Err(AppError::RetryAfter(2));
        };
        let key = (game_id.to_owned(), ply);
        let kept = lock(&self.befores.found).get(&key).cloned();
        let (before, best) = match kept {
            Some(found) => found,
            None => {
                let found = self.search_again(before_game.clone(), &who).await?;
                let best = found.best.as_ref().map(|m| pos.move_to_string(m));
                let mut map = lock(&self.befores.found);
                if map.len() >= BEFORE_KEPT {
                    map.clear();
                }
                map.insert(key, (found.value, best.clone()));
                (found.value, best)
            }
        };
        let variant = line.variant;
        if best.as_deref() == Some(pos.move_to_string(&tried).as_str()) {
            return Ok(MistakeVerdict {
                ok: true,
                judgement: None,
                fen,
                eval: search::eval(before, variant),
            });
        }
        let mut after_game = before_game.clone();
        after_game
            .play(&tried)
            .map_err(|_| AppError::BadMessage(format!("move {mv}: not legal here")))?;
        let after = self.search_again(after_game, &who).await?;
        let judgement = judge::judge(Curve::of(variant), mover, before, after.value, false);
        Ok(MistakeVerdict {
            ok: judgement.is_none(),
            judgement: judgement.map(|j| j.name().to_owned()),
            fen,
            eval: search::eval(after.value, variant),
        })
    }

    /// Searches `game` with the game analysis's budget, to its end
    /// ([`Analyses::run_whole`]).
    ///
    /// Fails with `internal` or `429` (`Retry-After`) as that does.
    async fn search_again(&self, game: Game, who: &Who) -> AppResult<Searched> {
        let budget: Budget = self.budget;
        let tables = self.core.computer.endgames().get(game.position().variant());
        self.run_whole(who, move || {
            let (game, tables) = (game.clone(), tables.clone());
            move |stop: &std::sync::atomic::AtomicBool| {
                search::search_with(&game, budget, stop, tables)
            }
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_protocol::analysis::Eval;

    fn ply(n: u32, judgement: Option<&str>) -> PlyAnalysis {
        PlyAnalysis {
            ply: n,
            mv: "c3-d4".into(),
            eval: Eval::Score { eval: 0 },
            best: None,
            pv: Vec::new(),
            judgement: judgement.map(str::to_owned),
        }
    }

    #[test]
    fn mistakes_and_blunders_are_learnt_from_not_inaccuracies_nor_the_opening() {
        assert!(to_learn(&ply(5, Some("mistake")), 0));
        assert!(to_learn(&ply(5, Some("blunder")), 4));
        assert!(!to_learn(&ply(5, Some("inaccuracy")), 0));
        assert!(!to_learn(&ply(5, None), 0));
        assert!(
            !to_learn(&ply(4, Some("blunder")), 4),
            "a random opening's ply"
        );
    }
}
