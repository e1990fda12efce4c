//! The endgame tables (bitbases, `bot::Bitbases`) the computer's level 3 and the analysis
//! probe: read from `--bitbases-dir` at start-up, or made there on first use, one variant
//! after another on a thread of their own (a few seconds to a few minutes of one core per
//! variant the first time; `docs/operations.md`). Until a variant's table is ready its
//! searches simply go without it.
//!
//! The thread runs at the scheduler's idle priority (Linux `SCHED_IDLE`, elsewhere the
//! lowest the platform has): it gets a core only when nothing else wants one, so a fresh
//! server's live games do not notice the making of its tables (measured in
//! `docs/performance.md`); on a busy machine the tables just take longer. While a table
//! is made, a line every [`PROGRESS_EVERY`] says how far it is.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bot::{Bitbases, Material, Table};
use draughts::Variant;
use tokio_util::sync::CancellationToken;

use crate::config::BuildPriority;

/// The tables ready so far, one per variant.
#[derive(Debug, Default)]
pub struct Endgames {
    tables: Mutex<HashMap<Variant, Arc<Bitbases>>>,
    /// The table being made now, if one is.
    making: Mutex<Option<Making>>,
}

/// How far the making of one table is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Making {
    /// Its variant.
    pub variant: Variant,
    /// Its pieces.
    pub pieces: u8,
    /// Slices (one per material) made so far.
    pub slices_done: usize,
    /// Slices in all.
    pub slices: usize,
    /// Positions in the slices made so far.
    pub positions: u64,
}

/// How often a table being made logs how far it is.
pub const PROGRESS_EVERY: Duration = Duration::from_secs(10);

impl Endgames {
    /// The table of `variant`, once ready.
    pub fn get(&self, variant: Variant) -> Option<Arc<Bitbases>> {
        crate::lock::lock(&self.tables).get(&variant).cloned()
    }

    /// How many variants have their table.
    pub fn ready(&self) -> usize {
        crate::lock::lock(&self.tables).len()
    }

    /// The table being made now, and how far it is.
    pub fn making(&self) -> Option<Making> {
        *crate::lock::lock(&self.making)
    }

    /// Reads, or makes and saves, the table of every variant with up to `pieces` pieces
    /// in `dir`, on a thread of its own at `priority` (the 8x8 variants first,
    /// International last); each is used as soon as it is ready. Stops between variants
    /// once `stop` is cancelled. Nothing when `pieces` is 0.
    pub fn start(
        self: &Arc<Endgames>,
        dir: PathBuf,
        pieces: u8,
        priority: BuildPriority,
        stop: CancellationToken,
    ) {
        if pieces == 0 {
            return;
        }
        let me = self.clone();
        let spawned = std::thread::Builder::new()
            .name("endgame-tables".into())
            .spawn(move || {
                if priority == BuildPriority::Idle {
                    lowest_priority();
                }
                let mut order = Variant::ALL.to_vec();
                order.sort_by_key(|v| *v == Variant::International);
                for variant in order {
                    if stop.is_cancelled() {
                        return;
                    }
                    let pieces = pieces_for(variant, pieces);
                    match load_or_make(&dir, variant, pieces, &stop, &me.making) {
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

/// The most pieces of International's table, whatever `--bitbase-pieces` asks: its
/// 5-piece table would be 3.8 GB in memory and hours of one core to make (the 8x8
/// variants' are 374 MB and two to four minutes each; `docs/engine.md`).
pub const INTERNATIONAL_MAX_PIECES: u8 = 4;

/// The pieces of `variant`'s table when the server is asked for `pieces`.
pub fn pieces_for(variant: Variant, pieces: u8) -> u8 {
    if variant == Variant::International {
        pieces.min(INTERNATIONAL_MAX_PIECES)
    } else {
        pieces
    }
}

/// The table of `variant` from `dir`, or made (and saved there when possible). `None`
/// only when stopped.
fn load_or_make(
    dir: &Path,
    variant: Variant,
    pieces: u8,
    stop: &CancellationToken,
    making: &Mutex<Option<Making>>,
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
    let table = make(variant, pieces, making);
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

/// Makes the table of `variant`, saying how far it is in `making` after each slice and in
/// the log every [`PROGRESS_EVERY`] (the first International table takes minutes).
fn make(variant: Variant, pieces: u8, making: &Mutex<Option<Making>>) -> Table {
    let slices = slice_count(pieces);
    let mut now = Making {
        variant,
        pieces,
        slices_done: 0,
        slices,
        positions: 0,
    };
    *crate::lock::lock(making) = Some(now);
    tracing::info!(
        variant = variant.name(),
        pieces,
        slices,
        "making an endgame table (at idle priority: a few seconds to minutes)"
    );
    let started = Instant::now();
    let mut logged = started;
    let table = Table::generate_with(variant, pieces, &mut |_: Material, len: usize| {
        now.slices_done += 1;
        now.positions += len as u64;
        *crate::lock::lock(making) = Some(now);
        if logged.elapsed() >= PROGRESS_EVERY {
            logged = Instant::now();
            tracing::info!(
                variant = variant.name(),
                pieces,
                slices_done = now.slices_done,
                slices,
                percent = now.slices_done * 100 / slices.max(1),
                positions = now.positions,
                secs = started.elapsed().as_secs(),
                "making an endgame table"
            );
        }
    });
    *crate::lock::lock(making) = None;
    table
}

/// Slices (materials with at least one piece a side) of a table of up to `pieces`.
fn slice_count(pieces: u8) -> usize {
    let n = usize::from(pieces);
    let mut count = 0;
    for wm in 0..=n {
        for wk in 0..=n - wm {
            for bm in 0..=n - wm - wk {
                for bk in 0..=n - wm - wk - bm {
                    if wm + wk > 0 && bm + bk > 0 {
                        count += 1;
                    }
                }
            }
        }
    }
    count
}

/// Puts the calling thread at the lowest priority the scheduler has: `SCHED_IDLE` on
/// Linux (it runs only on a core nothing else wants), the lowest priority elsewhere. A
/// failure is logged and the thread goes on at its priority.
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    let set = thread_priority::set_thread_priority_and_policy(
        thread_priority::thread_native_id(),
        thread_priority::ThreadPriority::Min,
        thread_priority::ThreadSchedulePolicy::Normal(
            thread_priority::NormalThreadSchedulePolicy::Idle,
        ),
    );
    #[cfg(not(target_os = "linux"))]
    let set = thread_priority::set_current_thread_priority(thread_priority::ThreadPriority::Min);
    if let Err(e) = set {
        tracing::warn!(error = ?e, "the endgame tables' thread keeps its priority");
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The scheduling policy of the thread named `name` of this process (field 41 of its
    /// `stat`), if it runs.
    fn policy_of(name: &str) -> Option<i64> {
        for task in std::fs::read_dir("/proc/self/task").ok()?.flatten() {
            let comm = std::fs::read_to_string(task.path().join("comm")).unwrap_or_default();
            if comm.trim() != name {
                continue;
            }
            let stat = std::fs::read_to_string(task.path().join("stat")).ok()?;
            let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            // After the name: field 3 is the first.
            return fields.get(41 - 3)?.parse().ok();
        }
        None
    }

    #[test]
    fn five_pieces_on_the_small_board_only() {
        assert_eq!(pieces_for(Variant::American, 5), 5);
        assert_eq!(pieces_for(Variant::Czech, 5), 5);
        assert_eq!(pieces_for(Variant::International, 5), 4);
        assert_eq!(pieces_for(Variant::International, 3), 3);
        assert_eq!(pieces_for(Variant::Russian, 0), 0);
    }

    #[test]
    fn slices_are_counted_as_the_tables_make_them() {
        assert_eq!(slice_count(2), 4);
        let mut made = 0;
        let _ = Table::generate_with(Variant::Russian, 3, &mut |_, _| made += 1);
        assert_eq!(made, slice_count(3));
    }

    /// The tables are made on a thread at the idle priority, saying how far they are.
    #[test]
    fn tables_are_made_at_idle_priority() {
        let dir = std::env::temp_dir().join(format!("damka-endgames-{}", std::process::id()));
        let endgames = Arc::new(Endgames::default());
        let stop = CancellationToken::new();
        endgames.start(dir.clone(), 4, BuildPriority::Idle, stop.clone());
        // Wait for the first table to be under way (4 pieces: seconds of work per
        // variant), then look at its thread.
        let seen = loop {
            if let Some(making) = endgames.making() {
                break making;
            }
            // (Polled: the thread tells nobody; at idle priority it starts once a core is
            // free.)
            assert_eq!(endgames.ready(), 0, "a table was made before it was seen");
            std::thread::sleep(Duration::from_millis(5));
        };
        assert_eq!(seen.pieces, 4);
        assert_eq!(seen.slices, slice_count(4));
        let policy = policy_of("endgame-tables").expect("the thread runs");
        stop.cancel();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            policy, 5,
            "scheduling policy of the tables' thread (SCHED_IDLE)"
        );
    }
}
