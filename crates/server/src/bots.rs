//! The computer opponent at tables: who it is in a seat, and where its searches run.
//!
//! A search is CPU work, so it never runs on the async threads: [`Bots::search`] waits for
//! one of a few permits (`--bot-searches`, by default one core fewer than the machine has,
//! at least one), then runs `bot::think` on a blocking thread. The time spent waiting for a
//! permit is on the computer's clock like any thinking time, and the budget a search gets
//! shrinks with the number of searches queued behind it, so a hundred computer games on a
//! small machine play fast rather than lose on time, and human tables keep a core.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Instant;

use bot::{ClockLimits, Level};
use damka_protocol::Player;
use draughts::Game;
use tokio::sync::Semaphore;

/// The id prefix of the computer's seats (`bot-1` .. `bot-3`); no guest id has a `-`.
const ID_PREFIX: &str = "bot-";

/// The computer at `level` as a seated player.
pub fn player(level: Level) -> Player {
    let n = level.number();
    Player {
        id: format!("{ID_PREFIX}{n}"),
        name: format!("Computer (level {n})"),
        bot: Some(n),
    }
}

/// A player as stored with a game: the computer when the id is one of its seats.
pub fn stored_player(id: &str, name: &str) -> Player {
    Player {
        id: id.to_owned(),
        name: name.to_owned(),
        bot: level_of_id(id).map(Level::number),
    }
}

/// The `k`-th computer entrant of a tournament at `level`: `bot-N-k`, so several
/// computer players of one tournament (who may meet each other) keep distinct ids. Their
/// guest rows are made when a tournament starts with them.
pub fn entrant(level: Level, k: u32) -> Player {
    let n = level.number();
    Player {
        id: format!("{ID_PREFIX}{n}-{k}"),
        name: format!("Computer (level {n}) #{k}"),
        bot: Some(n),
    }
}

/// The level of a computer seat's id (`bot-N`, or a tournament entrant's `bot-N-k`).
pub fn level_of_id(id: &str) -> Option<Level> {
    let rest = id.strip_prefix(ID_PREFIX)?;
    let (level, entrant) = match rest.split_once('-') {
        Some((level, k)) => (level, Some(k)),
        None => (rest, None),
    };
    if entrant.is_some_and(|k| k.parse::<u32>().is_err()) {
        return None;
    }
    Level::from_number(level.parse().ok()?)
}

/// The level of a seated player that is the computer.
pub fn level_of(player: &Player) -> Option<Level> {
    player.bot.and_then(Level::from_number)
}

/// Where the computer's searches run.
pub struct Bots {
    /// One permit per search allowed at once.
    permits: Arc<Semaphore>,
    /// Searches waiting for a permit or running.
    pending: AtomicUsize,
}

/// What one search needs: the game as it stands and the computer's clock.
pub struct SearchRequest {
    /// The game (position and history, for the draw rules).
    pub game: Game,
    /// The computer's level.
    pub level: Level,
    /// The computer's clock as of the request.
    pub clock: ClockLimits,
    /// Seed of the level's deliberate randomness.
    pub seed: u64,
    /// Set to stop the search early (the game ended, the server stops).
    pub stop: Arc<AtomicBool>,
}

/// A finished search.
#[derive(Debug, Clone)]
pub struct SearchOutcome {
    /// The chosen move (full path), or `None` when there was nothing to play.
    pub mv: Option<String>,
    /// Milliseconds from the request to the answer (queue included).
    pub elapsed_ms: u64,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

impl Bots {
    /// At most `concurrent` searches at once (0: one fewer than the machine's cores, at
    /// least one).
    pub fn new(concurrent: usize) -> Bots {
        let n = if concurrent == 0 {
            std::thread::available_parallelism()
                .map_or(1, |n| n.get().saturating_sub(1))
                .max(1)
        } else {
            concurrent
        };
        Bots {
            permits: Arc::new(Semaphore::new(n)),
            pending: AtomicUsize::new(0),
        }
    }

    /// Searches waiting or running now.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }

    /// Runs one search off the async threads and returns its move.
    pub async fn search(&self, req: SearchRequest) -> SearchOutcome {
        let asked = Instant::now();
        self.pending.fetch_add(1, Ordering::Relaxed);
        let _pending = Pending(&self.pending);
        let permit = self.permits.clone().acquire_owned().await;
        let waited = ms_since(asked);
        // The queue behind this search shares the time: each waiting search will cost
        // about as long as this one.
        let behind = self.pending().saturating_sub(1);
        let clock = ClockLimits {
            remaining_ms: req.clock.remaining_ms.saturating_sub(waited) / (1 + behind as u64),
            increment_ms: req.clock.increment_ms,
        };
        let stop = req.stop.clone();
        let result = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            bot::think(&req.game, req.level, clock, req.seed, &stop).map(|r| {
                // Written by the searched position, so the table reads it back exactly
                // as a person's move.
                (req.game.position().move_to_string(&r.mv), r.depth, r.nodes)
            })
        })
        .await;
        let elapsed_ms = ms_since(asked);
        match result {
            Ok(Some((text, depth, nodes))) => SearchOutcome {
                mv: Some(text),
                elapsed_ms,
                depth,
                nodes,
            },
            Ok(None) => SearchOutcome {
                mv: None,
                elapsed_ms,
                depth: 0,
                nodes: 0,
            },
            Err(e) => {
                tracing::error!(error = %e, "a computer search failed");
                SearchOutcome {
                    mv: None,
                    elapsed_ms,
                    depth: 0,
                    nodes: 0,
                }
            }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entrants_are_distinct_computer_players() {
        let a = entrant(Level::One, 1);
        let b = entrant(Level::One, 2);
        assert_ne!(a.id, b.id);
        assert_eq!(level_of_id(&a.id), Some(Level::One));
        assert_eq!(level_of_id("bot-3"), Some(Level::Three));
        assert_eq!(level_of_id("bot-2-x"), None);
        assert_eq!(level_of_id("bot-9-1"), None);
        assert_eq!(stored_player(&b.id, &b.name).bot, Some(1));
    }
}
