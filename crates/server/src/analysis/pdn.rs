//! A game's analysis as PDN annotations: `?!`, `?`, `??` after judged moves, and after
//! every move the evaluation as a comment (`{+0.35}`, in men from White's side, or
//! `{White wins}`), with the engine's better move after a judged one (`{-1.20, best
//! 27-22}`, in the PDN's own notation).

use damka_protocol::Side;
use damka_protocol::analysis::{Eval, PlyAnalysis};
use draughts::pdn::{Annotation, PdnGame, move_text};

use super::judge::Judgement;

/// The annotation of each move of `game` from its analysis (`plies[i]` is ply `i + 1`).
pub fn annotations(game: &PdnGame, plies: &[PlyAnalysis]) -> Vec<Annotation> {
    let mut pos = game.start.clone();
    let mut out = Vec::with_capacity(game.moves.len());
    for (m, ply) in game.moves.iter().zip(plies) {
        let judgement = ply.judgement.as_deref().and_then(Judgement::from_name);
        let mut comment = match ply.eval {
            Eval::Score { eval } => format!("{:+.2}", f64::from(eval) / 100.0),
            Eval::Win { win: Side::White } => "White wins".to_owned(),
            Eval::Win { win: Side::Black } => "Black wins".to_owned(),
        };
        if judgement.is_some()
            && let Some(best) = ply.best.as_deref().and_then(|b| pos.parse_move(b).ok())
        {
            comment.push_str(", best ");
            comment.push_str(&move_text(&pos, &best));
        }
        out.push(Annotation {
            suffix: judgement.map(|j| j.suffix().to_owned()),
            comment: Some(comment),
        });
        pos.play_unchecked(m);
    }
    out
}
