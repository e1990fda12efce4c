//! The endgame tables (bitbases, `bot::Bitbases`) the computer's level 3 and the analysis
//! probe: read from `--bitbases-dir` at start-up, or made there on first use, one variant
//! after another on a thread of their own (a few seconds to a few minutes of one core per
//! variant the first time; `docs/operations.md`). Until a variant's table is ready its
//! searches simply go without it.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use bot::{Bitbases, Table};
use draughts::Variant;
use tokio_util::sync::CancellationToken;

/// The tables ready so far, one per variant.
#[derive(Debug, Default)]
pub struct Endgames {
    tables: Mutex<HashMap<Variant, Arc<Bitbases>>>,
}

impl Endgames {
    /// The table of `variant`, once ready.
    pub fn get(&self, variant: Variant) -> Option<Arc<Bitbases>> {
        crate::lock::lock(&self.tables).get(&variant).cloned()
    }

    /// How many variants have their table.
    pub fn ready(&self) -> usize {
        crate::lock::lock(&self.tables).len()
    }

    /// Reads, or makes and saves, the table of every variant with up to `pieces` pieces
    /// in `dir`, on a thread of its own (the 8x8 variants first, International last); each
    /// is used as soon as it is ready. Stops between variants once `stop` is cancelled. Nothing
    /// when `pieces` is 0.
    pub fn start(self: &Arc<Endgames>, dir: PathBuf, pieces: u8, stop: CancellationToken) {
        if pieces == 0 {
            return;
        }
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name("endgame-tables".into())
            .spawn(move || {
                let mut order = Variant::ALL.to_vec();
                order.sort_by_key(|v| *v == Variant::International);
                for variant in order {
                    if stop.is_cancelled() {
                        return;
                    }
                    match load_or_make(&dir, variant, pieces, &stop) {
                        Some(table) => {
                            let mut b = Bitbases::new();
                            b.insert(table);
                            crate::lock::lock(&me.tables).insert(variant, Arc::new(b));
                        }
                        None => return,
                    }
                }
            });
        if let Err(e) = spawned {
            tracing::error!(error = %e, "cannot start the endgame tables' thread");
        }
    }
}

/// The table of `variant` from `dir`, or made (and saved there when possible). `None`
/// only when stopped.
fn load_or_make(
    dir: &Path,
    variant: Variant,
    pieces: u8,
    stop: &CancellationToken,
) -> Option<Table> {
    let path = dir.join(format!("{}-{pieces}.dbb", variant.name()));
    match Table::load(&path) {
        Ok(table) if table.max_pieces() == pieces && table.variant() == variant => {
            tracing::info!(variant = variant.name(), path = %path.display(), "endgame table read");
            return Some(table);
        }
        Ok(_) => {
            tracing::warn!(path = %path.display(), "endgame table of other material: made again")
        }
        Err(bot::BitbaseError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "endgame table unreadable: made again")
        }
    }
    if stop.is_cancelled() {
        return None;
    }
    let started = Instant::now();
    let table = Table::generate(variant, pieces);
    tracing::info!(
        variant = variant.name(),
        pieces,
        bytes = table.bytes(),
        ms = started.elapsed().as_millis() as u64,
        "endgame table made"
    );
    // Written beside, then renamed: a stop half-way leaves no truncated table.
    let saved = std::fs::create_dir_all(dir).and_then(|()| {
        let partial = path.with_extension("dbb.partial");
        table.write(std::fs::File::create(&partial)?)?;
        std::fs::rename(&partial, &path)
    });
    if let Err(e) = saved {
        tracing::warn!(path = %path.display(), error = %e, "endgame table not saved (made again at the next start)");
    }
    Some(table)
}
