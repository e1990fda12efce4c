//! `draughts moves`: the legal moves, one per line (JSON lines with `--json`).

use crate::{Failure, args};
use serde_json::json;

/// Runs `moves` on its arguments.
pub(crate) fn run(opts: &args::MovesArgs) -> Result<(), Failure> {
    let pos = opts.position.position()?;
    let variant = pos.variant();
    for m in &pos.legal_moves() {
        let text = pos.move_to_string(m);
        if opts.json {
            let line = json!({
                "move": text,
                "from": variant.square_name(m.from()),
                "to": variant.square_name(m.to()),
                "path": m.path().map(|s| variant.square_name(s)).collect::<Vec<_>>(),
                "captures": m.captures().map(|s| variant.square_name(s)).collect::<Vec<_>>(),
                "promotes": m.promotes(),
            });
            println!("{line}");
        } else {
            println!("{text}");
        }
    }
    Ok(())
}
