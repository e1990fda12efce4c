//! The analysis board's admission: answers for the same position come from a cache (and
//! requests for a position being searched wait for that one search), and at most a bounded
//! number of board searches wait or run at once on a node; past that the board answers
//! "busy" at once instead of queueing work nobody can serve in time.
//!
//! Board searches run below every live game (`Class::Analysis`), so a full board never
//! slows a person's game; the bound keeps a flood from growing an unbounded queue of
//! searches that would answer minutes later.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use damka_protocol::analysis::PositionAnalysis;
use tokio::sync::{OwnedSemaphorePermit, Semaphore, TryAcquireError, watch};

/// How many positions the cache keeps (the oldest cached first out).
pub const CACHE_ENTRIES: usize = 4096;

/// Seconds a refused request is told to wait (`Retry-After`): about what a few board
/// searches take.
pub const RETRY_AFTER_SECS: u64 = 2;

/// A cache key: the variant, the position as the engine writes it (so two spellings of
/// one position share an entry), and the table option that changes the moves.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Key {
    /// Variant id.
    pub variant: &'static str,
    /// The position's FEN as written by the engine.
    pub fen: String,
}

/// One position's answer: `None` while its search runs, set once by that search. When
/// the search ends without an answer worth keeping, the sender is dropped and whoever
/// waited searches again.
pub type Cell = Arc<watch::Sender<Option<PositionAnalysis>>>;

/// The cache and the bound of the analysis board.
pub struct Board {
    /// Board searches waiting or running at once.
    searches: Arc<Semaphore>,
    /// Answers and searches under way, by position. A std mutex: held to look up or
    /// insert, never across an `.await`.
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    cells: HashMap<Key, Cell>,
    /// Insertion order, for eviction.
    order: VecDeque<Key>,
}

/// What the board says to a request.
pub enum Admission {
    /// The answer is known.
    Cached(PositionAnalysis),
    /// Search (holding the permit), then [`Board::store`] the answer; others asking for
    /// the same position meanwhile wait on `cell`.
    Search(OwnedSemaphorePermit, Cell),
    /// Another request searches this position now: wait for its answer (an error when
    /// that search gave none: ask again).
    Wait(watch::Receiver<Option<PositionAnalysis>>),
    /// Too many board searches: try again later.
    Busy,
}

impl Board {
    /// A board allowing `searches` searches waiting or running at once (at least one).
    pub fn new(searches: usize) -> Board {
        Board {
            searches: Arc::new(Semaphore::new(searches.max(1))),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// Decides what a request for `key` does.
    pub fn admit(&self, key: &Key) -> Admission {
        let mut cache = crate::lock::lock(&self.cache);
        if let Some(cell) = cache.cells.get(key) {
            return match &*cell.borrow() {
                Some(answer) => Admission::Cached(answer.clone()),
                None => Admission::Wait(cell.subscribe()),
            };
        }
        match self.searches.clone().try_acquire_owned() {
            Ok(permit) => {
                let cell = Arc::new(watch::Sender::new(None));
                cache.insert(key.clone(), cell.clone());
                Admission::Search(permit, cell)
            }
            Err(TryAcquireError::NoPermits | TryAcquireError::Closed) => Admission::Busy,
        }
    }

    /// Stores a finished search's answer for the waiters and later requests. A search
    /// stopped early (for a live game) is not cached: its answer is shallower than the
    /// budget, so its cell is dropped and the next request searches again.
    pub fn store(&self, key: &Key, cell: &Cell, answer: &PositionAnalysis, complete: bool) {
        if complete {
            cell.send_replace(Some(answer.clone()));
        } else {
            self.forget(key, cell);
        }
    }

    /// Drops an entry whose search did not finish (so a later request searches again).
    pub fn forget(&self, key: &Key, cell: &Cell) {
        let mut cache = crate::lock::lock(&self.cache);
        if cache.cells.get(key).is_some_and(|c| Arc::ptr_eq(c, cell)) && cell.borrow().is_none() {
            cache.cells.remove(key);
            cache.order.retain(|k| k != key);
        }
    }

    /// Board searches that may still start now.
    #[cfg(test)]
    fn free(&self) -> usize {
        self.searches.available_permits()
    }

    /// Positions cached or being searched.
    #[cfg(test)]
    fn len(&self) -> usize {
        crate::lock::lock(&self.cache).cells.len()
    }
}

impl Cache {
    fn insert(&mut self, key: Key, cell: Cell) {
        while self.cells.len() >= CACHE_ENTRIES {
            let Some(old) = self.order.pop_front() else {
                break;
            };
            self.cells.remove(&old);
        }
        self.order.push_back(key.clone());
        self.cells.insert(key, cell);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use damka_protocol::analysis::Eval;

    fn key(fen: &str) -> Key {
        Key {
            variant: "russian",
            fen: fen.to_owned(),
        }
    }

    fn answer(depth: u32) -> PositionAnalysis {
        PositionAnalysis {
            best: None,
            eval: Eval::Score { eval: 0 },
            pv: Vec::new(),
            depth,
        }
    }

    #[test]
    fn the_bound_refuses_at_once_and_a_finished_search_frees_its_place() {
        let board = Board::new(2);
        let (Admission::Search(p1, _), Admission::Search(_p2, _)) =
            (board.admit(&key("a")), board.admit(&key("b")))
        else {
            panic!("two searches fit");
        };
        assert!(matches!(board.admit(&key("c")), Admission::Busy));
        drop(p1);
        assert!(matches!(board.admit(&key("c")), Admission::Search(..)));
    }

    #[test]
    fn the_same_position_waits_for_one_search_then_comes_from_the_cache() {
        let board = Board::new(1);
        let Admission::Search(permit, cell) = board.admit(&key("a")) else {
            panic!("first asks search");
        };
        // The bound is full, yet the same position is not refused: it waits.
        let Admission::Wait(waiting) = board.admit(&key("a")) else {
            panic!("the same position waits");
        };
        board.store(&key("a"), &cell, &answer(9), true);
        drop(permit);
        assert_eq!(waiting.borrow().as_ref().map(|a| a.depth), Some(9));
        assert!(matches!(board.admit(&key("a")), Admission::Cached(a) if a.depth == 9));
        assert_eq!(board.free(), 1, "a cached answer takes no place");
    }

    #[test]
    fn a_search_cut_short_is_not_cached_and_its_waiters_ask_again() {
        let board = Board::new(1);
        let Admission::Search(permit, cell) = board.admit(&key("a")) else {
            panic!("first asks search");
        };
        let Admission::Wait(waiting) = board.admit(&key("a")) else {
            panic!("the same position waits");
        };
        board.store(&key("a"), &cell, &answer(3), false);
        drop((permit, cell));
        // The search's end without an answer reaches the waiter as an error.
        assert!(waiting.has_changed().is_err());
        assert!(matches!(board.admit(&key("a")), Admission::Search(..)));
    }

    #[test]
    fn the_cache_is_bounded() {
        let board = Board::new(1);
        for i in 0..CACHE_ENTRIES + 10 {
            let Admission::Search(permit, cell) = board.admit(&key(&i.to_string())) else {
                panic!("searches one at a time");
            };
            board.store(&key(&i.to_string()), &cell, &answer(1), true);
            drop(permit);
        }
        assert_eq!(board.len(), CACHE_ENTRIES);
        assert!(
            matches!(board.admit(&key("0")), Admission::Search(..)),
            "oldest evicted"
        );
    }
}
