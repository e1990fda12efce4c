//! `POST /api/analyse/pdn`: a game pasted on the analysis board, replayed by the engine
//! so that the client (which knows no rules) can step through its positions.

use axum::Json;
use axum::extract::State;
use axum::extract::rejection::JsonRejection;
use damka_protocol::GameResult;
use damka_protocol::analysis::{PdnPly, PdnReplay, PdnUpload};
use draughts::Variant;
use draughts::pdn::{self, GameResult as PdnResult};

use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::session::ClientIp;

/// The largest PDN body taken (the API's usual limit is 4 KiB; a long game with
/// comments is a few KiB more).
pub const PDN_BODY_LIMIT: usize = 64 * 1024;

/// Burst of pasted games per address (each also costs one of the analysis board's
/// tokens per minute: replaying is cheap, but not free).
const PDN_BURST: f64 = 10.0;

/// Replays the first game of the pasted PDN.
///
/// Fails with `400 bad_message` for a body that is not the expected JSON, an unknown
/// variant, a text without a game, or a game that does not replay (an unsupported
/// `GameType`, a bad `FEN` tag, or an illegal move: the message names the move), and with
/// `429 rate_limited` past the per-address limit.
pub async fn replay(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    json: Result<Json<PdnUpload>, JsonRejection>,
) -> AppResult<Json<PdnReplay>> {
    let Json(upload) = json.map_err(|e| AppError::BadMessage(e.body_text()))?;
    super::analysis::board_budget(&state, ip, PDN_BURST)?;
    let asked = match upload.variant.as_deref() {
        None => Variant::International,
        Some(name) => Variant::from_name(name)
            .ok_or_else(|| AppError::BadMessage(format!("unknown variant {name}")))?,
    };
    Ok(Json(read_first(&upload.pdn, asked)?))
}

/// The first game of `text`, in its `GameType`'s variant, else in `asked`.
fn read_first(text: &str, asked: Variant) -> AppResult<PdnReplay> {
    let records = pdn::parse(text);
    let record = records
        .iter()
        .find(|r| !r.moves.is_empty() || r.tag("FEN").is_some())
        .ok_or_else(|| AppError::BadMessage("no game in the PDN".to_owned()))?;
    let forced = record.tag("GameType").is_none().then_some(asked);
    let game = record
        .replay(forced)
        .map_err(|e| AppError::BadMessage(format!("PDN: {e}")))?;
    let mut position = game.start.clone();
    let mut moves = Vec::with_capacity(game.moves.len());
    for (i, m) in game.moves.iter().enumerate() {
        let text = position.move_to_string(m);
        // Each move is legal: the replay played it in this very position.
        position = position
            .play(m)
            .map_err(|e| AppError::BadMessage(format!("PDN: move {text}: {e}")))?;
        moves.push(PdnPly {
            ply: u32::try_from(i + 1).unwrap_or(u32::MAX),
            mv: text,
            fen: position.to_fen(),
        });
    }
    Ok(PdnReplay {
        variant: game.variant().name().to_owned(),
        white: game.tag("White").map(str::to_owned),
        black: game.tag("Black").map(str::to_owned),
        result: match game.result {
            PdnResult::WhiteWins => Some(GameResult::White),
            PdnResult::BlackWins => Some(GameResult::Black),
            PdnResult::Draw => Some(GameResult::Draw),
            PdnResult::Unfinished => None,
        },
        start_fen: game.start.to_fen(),
        moves,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_replays_with_its_positions() {
        let text = "[White \"Ala\"]\n[Black \"Bolek\"]\n[GameType \"20\"]\n\
                    1. 32-28 19-23 2. 28x19 14x23 1-1\n";
        let r = read_first(text, Variant::Russian).expect("replays");
        assert_eq!(r.variant, "international", "the GameType tag wins");
        assert_eq!(r.white.as_deref(), Some("Ala"));
        assert_eq!(r.result, Some(GameResult::Draw));
        let moves: Vec<&str> = r.moves.iter().map(|m| m.mv.as_str()).collect();
        assert_eq!(moves, ["32-28", "19-23", "28x19", "14x23"]);
        assert_eq!(r.moves[3].ply, 4);
        let start = draughts::Position::new(draughts::Rules::new(Variant::International));
        assert_eq!(r.start_fen, start.to_fen());
        assert!(r.moves[3].fen.starts_with("W:"), "{}", r.moves[3].fen);
    }

    #[test]
    fn without_a_game_type_the_asked_variant_is_read() {
        let r = read_first("1. c3-d4 f6-g5 *", Variant::Russian).expect("replays");
        assert_eq!(r.variant, "russian");
        assert_eq!(r.result, None);
        assert_eq!(r.moves.len(), 2);
    }

    #[test]
    fn an_illegal_move_or_no_game_is_a_bad_message() {
        for bad in ["1. 32-28 19-23 2. 28-22 *", "", "[Event \"x\"]"] {
            match read_first(bad, Variant::International) {
                Err(AppError::BadMessage(m)) => assert!(!m.is_empty()),
                other => panic!("{bad:?}: {:?}", other.map(|r| r.moves.len())),
            }
        }
    }
}
