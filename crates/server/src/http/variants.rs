//! `GET /api/variants`: names, rules, PDN GameType and board geometry of each variant.

use axum::Json;
use damka_protocol::{SquareView, VariantView};
use draughts::Variant;

use crate::room::variant_texts;
use crate::table::side_of;

/// Every variant.
pub async fn list() -> Json<Vec<VariantView>> {
    Json(Variant::ALL.iter().map(|&v| view(v)).collect())
}

fn view(v: Variant) -> VariantView {
    let (names, rules) = variant_texts(v);
    VariantView {
        id: v.name().to_owned(),
        names,
        rules,
        game_type: v.game_type().to_owned(),
        board: v.board_size(),
        first: side_of(v.first_mover()),
        start_fen: v.start_fen().to_owned(),
        squares: v
            .squares()
            .map(|sq| {
                let (x, y) = v.square_xy(sq);
                SquareView {
                    name: v.square_name(sq),
                    x,
                    y,
                }
            })
            .collect(),
    }
}
