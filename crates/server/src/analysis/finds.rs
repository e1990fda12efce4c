//! Puzzles from analysed games (issue 37, item 4; docs/puzzles.md): once a game's analysis
//! is stored, the position after each of its mistakes and blunders (the opponent to move,
//! the game's history kept) is put through the puzzle generator's own verification
//! ([`bot::puzzle::verify_until`]) at `--game-puzzle-depth`, then again one ply deeper
//! (as the starter set was rechecked); a shot that holds both times, with the same first
//! move, joins its variant's pool ([`crate::puzzles::Puzzles::add_found`]).
//!
//! Each verification runs on the computer's threads as an analysis (below every live
//! game; stopped for one and run again, [`Analyses::run_whole`]). At most
//! [`MAX_PER_GAME`] positions per game are tried, once the job is stored and its slot
//! has gone to the next job (so it never delays another analysis).

use draughts::Game;

use damka_protocol::analysis::PlyAnalysis;

use super::Analyses;
use super::judge::Judgement;
use crate::computer::Who;

/// Positions of one game tried at most.
pub const MAX_PER_GAME: usize = 4;

/// Transposition table of a verification: 2^18 entries.
const TT_BITS: u32 = 18;

/// The plies after which a shot may stand: the mistakes and blunders (a random opening's
/// plies are the server's), at most [`MAX_PER_GAME`], blunders first, then in the game's
/// order.
pub fn candidates(plies: &[PlyAnalysis], opening_plies: u32) -> Vec<u32> {
    let judged = |p: &PlyAnalysis| p.judgement.as_deref().and_then(Judgement::from_name);
    let mut out: Vec<(Judgement, u32)> = plies
        .iter()
        .filter(|p| p.ply > opening_plies)
        .filter_map(|p| match judged(p) {
            Some(j @ (Judgement::Mistake | Judgement::Blunder)) => Some((j, p.ply)),
            _ => None,
        })
        .collect();
    out.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    out.truncate(MAX_PER_GAME);
    out.sort_by_key(|c| c.1);
    out.into_iter().map(|c| c.1).collect()
}

impl Analyses {
    /// Looks for puzzles after the mistakes of an analysed game (`games[i]`: the game
    /// after `i` plies) and adds those that hold to the pool; returns how many.
    pub(super) async fn find_puzzles(
        &self,
        game_id: &str,
        games: &[Game],
        plies: &[PlyAnalysis],
        opening_plies: u32,
        who: &Who,
    ) -> usize {
        let depth = self.core.config.analysis.game_puzzle_depth;
        let Some(puzzles) = self.puzzles.get() else {
            return 0;
        };
        if depth == 0 {
            return 0;
        }
        let mut added = 0;
        for ply in candidates(plies, opening_plies) {
            let Some(game) = usize::try_from(ply).ok().and_then(|i| games.get(i)) else {
                continue;
            };
            let Some(found) = self.verify(game, depth, who).await else {
                continue;
            };
            // Held one ply deeper, with the same first move.
            let again = self.verify(game, depth + 1, who).await;
            if again.is_none_or(|a| a.line.first() != found.line.first()) {
                continue;
            }
            match puzzles
                .add_found(&self.core.store, &found, game_id, ply)
                .await
            {
                Ok(Some(e)) => {
                    tracing::info!(puzzle = %e.id, "a puzzle found in an analysed game");
                    added += 1;
                }
                Ok(None) => {}
                Err(e) => tracing::warn!(error = %e, "a found puzzle was not stored"),
            }
        }
        added
    }

    /// The puzzle at `game`'s position for the side to move, verified at `depth` to its
    /// end ([`Analyses::run_whole`]).
    async fn verify(&self, game: &Game, depth: u32, who: &Who) -> Option<bot::puzzle::Puzzle> {
        let o = bot::puzzle::PuzzleOptions {
            verify_depth: depth,
            ..bot::puzzle::PuzzleOptions::default()
        };
        let game = game.clone();
        self.run_whole(who, move || {
            let game = game.clone();
            move |stop: &std::sync::atomic::AtomicBool| {
                bot::puzzle::verify_until(&mut bot::Engine::new(TT_BITS), &game, &o, stop)
            }
        })
        .await
        .ok()
        .and_then(Result::ok)
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
    fn blunders_first_then_mistakes_never_the_opening_nor_inaccuracies() {
        let plies = vec![
            ply(1, Some("blunder")),
            ply(3, Some("inaccuracy")),
            ply(4, Some("mistake")),
            ply(6, Some("blunder")),
            ply(7, Some("mistake")),
            ply(8, Some("blunder")),
            ply(9, Some("mistake")),
            ply(10, Some("blunder")),
            ply(12, None),
        ];
        // The opening's ply 1 left out; the three blunders, then the first mistake.
        assert_eq!(candidates(&plies, 2), [4, 6, 8, 10]);
        assert_eq!(candidates(&plies[..3], 0), [1, 4]);
    }
}
