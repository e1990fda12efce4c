//! Where the computer's searches run, and in what order.
//!
//! A search is CPU work, so it never runs on the async threads: [`Computer::search`] waits for
//! one of a few search slots (`--bot-searches`, by default one core fewer than the machine
//! has, at least one), then runs `bot::Engines::think` on a blocking thread (level 3 on an
//! engine kept from earlier searches, its 16 MiB table warm; one idle engine is kept per
//! slot, per variant as searches come). Waiting searches are
//! served in a fair order ([`super::queue`]): people's games first, then the computer's
//! tournament boards, then analysis; within a class, address by address and owner by
//! owner, so one guest with many tables cannot make another wait behind all of them.
//!
//! A slot is not held for a whole search while others wait: a search of a lower class is
//! stopped as soon as a better one waits, and one of the same class once it has run for
//! `--bot-slice-ms` while another owner waits. A stopped search still answers: the engine
//! deepens iteratively and returns the best move of its last finished iteration (the
//! first always finishes), so the price of a crowded server is a shallower move, never a
//! lost one. The time spent waiting is on the computer's clock like any thinking time,
//! and a search's budget (its increment share included) is divided among the searches
//! waiting behind it, so a queue drains within the clocks it serves.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use bot::{ClockLimits, Level};
use draughts::Game;
use tokio::sync::oneshot;

use super::queue::{Class, FairQueue, Who};

/// How often the cutter looks for a running search to stop (only while searches wait).
const CUT_POLL: Duration = Duration::from_millis(20);

/// What one search needs: the game as it stands, the computer's clock, and whose it is.
pub struct SearchRequest {
    /// The game (position and history, for the draw rules).
    pub game: Game,
    /// The computer's level.
    pub level: Level,
    /// The computer's clock as of the request.
    pub clock: ClockLimits,
    /// Seed of the level's deliberate randomness.
    pub seed: u64,
    /// Set to stop the search early (the game ended, the server stops, or the scheduler
    /// needs the slot: the search then answers with what it has).
    pub stop: Arc<AtomicBool>,
    /// What the search is for.
    pub class: Class,
    /// Whose search it is.
    pub who: Who,
}

/// A finished search.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The chosen move (full path), or `None` when there was nothing to play.
    pub mv: Option<String>,
    /// Milliseconds from the request to the answer (queue included).
    pub elapsed_ms: u64,
    /// Milliseconds spent waiting for a slot.
    pub waited_ms: u64,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A search waiting for a slot.
struct Waiter {
    /// Told the id of the slot it was given.
    grant: oneshot::Sender<u64>,
    /// Its class, owner and stop flag, registered with the slot.
    class: Class,
    who: Who,
    stop: Arc<AtomicBool>,
}

/// A search holding a slot.
struct Running {
    id: u64,
    class: Class,
    who: Who,
    started: Instant,
    stop: Arc<AtomicBool>,
    /// Stopped by the scheduler (so it is not counted twice for a waiter).
    cut: bool,
}

/// The slots and the queue, behind one std mutex (held for a queue operation, never
/// across an `.await`).
struct Inner {
    queue: FairQueue<Waiter>,
    free: usize,
    running: Vec<Running>,
    next_id: u64,
    /// Whether the cutter task runs ([`Core::watch`]).
    cutter: bool,
}

/// Where the computer's searches run.
pub struct Computer {
    core: Arc<Core>,
    endgames: Arc<super::Endgames>,
    /// Level 3's engines, kept between searches (one idle per search slot).
    engines: Arc<bot::Engines>,
}

/// What the slots share (the slots themselves hold it, so a search on a blocking thread
/// hands its slot on when it ends).
struct Core {
    inner: Mutex<Inner>,
    /// Searches waiting for a slot or running.
    pending: AtomicUsize,
    /// How long a search may keep its slot while another owner of its class waits.
    slice: Duration,
    /// Searches the scheduler stopped early, for `/metrics`.
    cuts: AtomicUsize,
}

impl Computer {
    /// The endgame tables level 3 and the analysis probe (empty until started).
    pub fn endgames(&self) -> &Arc<super::Endgames> {
        &self.endgames
    }

    /// At most `concurrent` searches at once (0: one fewer than the machine's cores, at
    /// least one), each keeping its slot at most `slice` while another owner waits.
    pub fn new(concurrent: usize, slice: Duration) -> Computer {
        let n = if concurrent == 0 {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1)
        } else {
            concurrent
        };
        Computer {
            endgames: Arc::default(),
            engines: Arc::new(bot::Engines::new(n)),
            core: Arc::new(Core {
                inner: Mutex::new(Inner {
                    queue: FairQueue::default(),
                    free: n,
                    running: Vec::new(),
                    next_id: 0,
                    cutter: false,
                }),
                pending: AtomicUsize::new(0),
                slice,
                cuts: AtomicUsize::new(0),
            }),
        }
    }

    /// Searches waiting or running now.
    pub fn pending(&self) -> usize {
        self.core.pending.load(Ordering::Relaxed)
    }

    /// Searches stopped early to give their slot to another since the start.
    pub fn cuts(&self) -> usize {
        self.core.cuts.load(Ordering::Relaxed)
    }

    /// Runs one search off the async threads and returns its move.
    pub async fn search(&self, req: SearchRequest) -> SearchOutcome {
        let asked = Instant::now();
        self.core.pending.fetch_add(1, Ordering::Relaxed);
        let _pending = Pending(&self.core.pending);
        let slot = Core::acquire(&self.core, req.class, &req.who, &req.stop).await;
        let waited_ms = ms_since(asked);
        // The searches waiting behind this one share the time with it, increment too.
        let share = 1 + self.core.lock().queue.waiting_at_least(req.class) as u64;
        let clock = ClockLimits {
            remaining_ms: req.clock.remaining_ms.saturating_sub(waited_ms) / share,
            increment_ms: req.clock.increment_ms / share,
        };
        let outcome = |mv, depth, nodes| SearchOutcome {
            mv,
            elapsed_ms: ms_since(asked),
            waited_ms,
            depth,
            nodes,
        };
        let stop = req.stop.clone();
        let tables = self.endgames.get(req.game.position().variant());
        let engines = self.engines.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            engines
                .think(&req.game, req.level, clock, req.seed, &stop, tables)
                .map(|r| {
                    // Written by the searched position, so the table reads it back exactly
                    // as a person's move.
                    (req.game.position().move_to_string(&r.mv), r.depth, r.nodes)
                })
        })
        .await;
        match result {
            Ok(Some((text, depth, nodes))) => outcome(Some(text), depth, nodes),
            Ok(None) => outcome(None, 0, 0),
            Err(e) => {
                tracing::error!(error = %e, "a computer search failed");
                outcome(None, 0, 0)
            }
        }
    }
}

impl Computer {
    /// Runs `work` on a search slot of `class` for `who`, off the async threads (what an
    /// analysis does with each position). `work` is given the stop flag the scheduler sets
    /// when it needs the slot back; whether it did is the second value, so a caller that
    /// needs a search to its full budget can run it again later. `None` when `work`
    /// panicked.
    pub async fn run<R, F>(&self, class: Class, who: &Who, work: F) -> Option<(R, bool)>
    where
        R: Send + 'static,
        F: FnOnce(&AtomicBool) -> R + Send + 'static,
    {
        self.core.pending.fetch_add(1, Ordering::Relaxed);
        let _pending = Pending(&self.core.pending);
        let stop = Arc::new(AtomicBool::new(false));
        let slot = Core::acquire(&self.core, class, who, &stop).await;
        let flag = stop.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _slot = slot;
            let value = work(&flag);
            (value, flag.load(Ordering::Relaxed))
        })
        .await;
        match result {
            Ok(done) => Some(done),
            Err(e) => {
                tracing::error!(error = %e, "a search on the computer's threads failed");
                None
            }
        }
    }
}

impl Core {
    /// Waits for a slot; while waiting, stops running searches that should give theirs
    /// up.
    async fn acquire(core: &Arc<Core>, class: Class, who: &Who, stop: &Arc<AtomicBool>) -> Slot {
        let rx = {
            let mut inner = core.lock();
            if inner.free > 0 && inner.queue.is_empty() {
                inner.free -= 1;
                let id = inner.start(class, who.clone(), stop.clone());
                return Slot {
                    core: core.clone(),
                    id,
                };
            }
            let (grant, rx) = oneshot::channel();
            inner.queue.push(
                class,
                who,
                Instant::now(),
                Waiter {
                    grant,
                    class,
                    who: who.clone(),
                    stop: stop.clone(),
                },
            );
            rx
        };
        // A better search than a running one may have arrived: stop that one now; the
        // slices of the same class are watched by the one cutter while anyone waits.
        core.cut_for_waiters();
        Core::watch(core);
        let mut waiting = Waiting { core, rx };
        match (&mut waiting.rx).await {
            Ok(id) => {
                // Granted: the slot is ours from here (the guard no longer frees it).
                waiting.rx = oneshot::channel().1;
                Slot {
                    core: core.clone(),
                    id,
                }
            }
            Err(_) => {
                // The queue dropped the waiter without a slot: cannot happen while `Computer`
                // lives; take a slot the plain way rather than hang.
                tracing::error!("a computer search lost its place in the queue");
                let mut inner = core.lock();
                inner.free = inner.free.saturating_sub(1);
                let id = inner.start(class, who.clone(), stop.clone());
                Slot {
                    core: core.clone(),
                    id,
                }
            }
        }
    }

    /// Starts the cutter unless it runs: one task that, while searches wait, looks every
    /// [`CUT_POLL`] for a running search whose slice is over (one timer for the whole
    /// queue, however long it is).
    fn watch(core: &Arc<Core>) {
        {
            let mut inner = core.lock();
            if inner.cutter || inner.queue.is_empty() {
                return;
            }
            inner.cutter = true;
        }
        let core = Arc::downgrade(core);
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(CUT_POLL).await;
                let Some(core) = core.upgrade() else {
                    return;
                };
                core.cut_for_waiters();
                let mut inner = core.lock();
                if inner.queue.is_empty() {
                    inner.cutter = false;
                    return;
                }
            }
        });
    }

    /// Stops as many running searches as there are searches waiting for them: those of
    /// a worse class at once, those of the same class after their slice while another
    /// owner waits. Cheap when nothing needs doing.
    fn cut_for_waiters(&self) {
        let now = Instant::now();
        let mut inner = self.lock();
        let Some(best) = inner.queue.best_waiting() else {
            return;
        };
        let waiting = inner.queue.waiting_at_least(best);
        let already = inner.running.iter().filter(|r| r.cut).count();
        let mut wanted = waiting.saturating_sub(already);
        if wanted == 0 {
            return;
        }
        let slice = self.slice;
        // Worst class first, then the longest running.
        let mut order: Vec<usize> = (0..inner.running.len()).collect();
        order.sort_by_key(|&i| {
            let r = &inner.running[i];
            (std::cmp::Reverse(r.class), r.started)
        });
        for i in order {
            if wanted == 0 {
                break;
            }
            let r = &inner.running[i];
            let cut = !r.cut
                && (r.class > best
                    || r.class == best
                        && now.saturating_duration_since(r.started) >= slice
                        && inner.queue.has_other_than(best, &r.who));
            if cut {
                let r = &mut inner.running[i];
                r.cut = true;
                r.stop.store(true, Ordering::Relaxed);
                self.cuts.fetch_add(1, Ordering::Relaxed);
                wanted -= 1;
            }
        }
    }

    /// A slot is free again: the next waiter in turn gets it.
    fn release(&self, id: u64) {
        let mut inner = self.lock();
        inner.running.retain(|r| r.id != id);
        let now = Instant::now();
        while let Some((_, waiter)) = inner.queue.pop(now) {
            let Waiter {
                grant,
                class,
                who,
                stop,
            } = waiter;
            let id = inner.start(class, who, stop);
            if grant.send(id).is_ok() {
                return;
            }
            // The waiter is gone (its table closed): the slot goes on to the next.
            inner.running.retain(|r| r.id != id);
        }
        inner.free += 1;
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // Every update leaves the queue and the slot count consistent before it can
        // panic, so a poisoned lock is still usable.
        crate::lock::lock(&self.inner)
    }
}

impl Inner {
    /// Registers a search that got a slot; returns its id.
    fn start(&mut self, class: Class, who: Who, stop: Arc<AtomicBool>) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.running.push(Running {
            id,
            class,
            who,
            started: Instant::now(),
            stop,
            cut: false,
        });
        id
    }
}

/// A slot held by a search; freed (and handed on) when dropped.
struct Slot {
    core: Arc<Core>,
    id: u64,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.core.release(self.id);
    }
}

/// A search waiting in the queue. If it is dropped (its table closed) after a slot was
/// sent to it but before it took it, the slot is handed on.
struct Waiting<'a> {
    core: &'a Core,
    rx: oneshot::Receiver<u64>,
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        if let Ok(id) = self.rx.try_recv() {
            self.core.release(id);
        }
    }
}

fn ms_since(t: Instant) -> u64 {
    u64::try_from(t.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// Counts a search as pending while it lives.
struct Pending<'a>(&'a AtomicUsize);

impl Drop for Pending<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
