//! `GET /api/ballots/{variant}`: the variant's opening ballots (every set, its default set
//! first), from the rules engine's data (`draughts::ballot`). Static: made once per
//! variant and served from memory.

use std::sync::OnceLock;

use axum::Json;
use axum::extract::Path;
use damka_protocol::ballot::BallotView;
use draughts::Variant;
use draughts::ballot;

use crate::error::{AppError, AppResult};

/// The variant's ballots as the wire shows them.
pub fn views(variant: Variant) -> &'static [BallotView] {
    static CACHE: [OnceLock<Vec<BallotView>>; Variant::ALL.len()] =
        [const { OnceLock::new() }; Variant::ALL.len()];
    CACHE[variant as usize].get_or_init(|| {
        ballot::ballots(variant)
            .map(|b| BallotView {
                id: b.id().to_owned(),
                name: b.name().to_owned(),
                moves: b.moves().map(str::to_owned).collect(),
                arrangement: b.arrangement().map(str::to_owned),
                fen: b.fen().to_owned(),
                set: b.set().name().to_owned(),
                source: b.set().title().to_owned(),
                rated: crate::table::ballot::rated_set(b.set()),
            })
            .collect()
    })
}

/// Every ballot of a variant (`404 not_found` for an unknown variant).
pub async fn list(Path(variant): Path<String>) -> AppResult<Json<&'static [BallotView]>> {
    let v = Variant::from_name(&variant).ok_or(AppError::NotFound("variant"))?;
    Ok(Json(views(v)))
}
