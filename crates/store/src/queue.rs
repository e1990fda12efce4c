//! The handle both group-commit writers share: a bounded queue of writes, each with the
//! one-shot channel its caller awaits, and the store's circuit breaker.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use super::error::is_outage;
use super::fence::{self, Fence};
use super::health::Breaker;
use super::stats::StoreStats;
use super::write::Write;

/// Largest number of writes in one batch (one transaction).
pub(super) const MAX_BATCH: usize = 512;

/// What a committed write reports back: the rating changes of a rated game's end.
pub type Written = Option<super::RatingChanges>;

/// One write, and where to report the outcome.
pub(super) struct Job {
    /// The write.
    pub write: Write,
    /// Told once the write is committed (or failed).
    pub done: oneshot::Sender<Result<Written, sqlx::Error>>,
    /// The lease the write was made under (a table actor's, in a cluster): the
    /// PostgreSQL writer stores it only while the lease holds ([`super::fence`]).
    pub fence: Option<Fence>,
}

impl Job {
    /// Tells the caller; a caller that went away (its table closed) no longer cares.
    pub fn settle(self, result: Result<Written, sqlx::Error>) {
        let _ = self.done.send(result);
    }

    /// Takes a batch whose transaction failed with `e`, and returns the writes to make
    /// again one by one. When the database cannot take writes (out of reach, out of
    /// space) every write fails at once with it and none is returned: a write-by-write
    /// retry would wait on the outage once per write (a connect timeout each when the
    /// database is out of reach). Otherwise (one bad write, say a duplicate ply) all of
    /// a batch of several are returned, so each caller gets its own outcome.
    pub fn fail_or_retry(jobs: Vec<Job>, e: sqlx::Error) -> Vec<Job> {
        if jobs.len() > 1 && !is_outage(&e) {
            return jobs;
        }
        let mut jobs = jobs.into_iter();
        if let Some(first) = jobs.next() {
            for job in jobs {
                job.settle(Err(sqlx::Error::Io(std::io::Error::other(format!(
                    "the database cannot take writes: {e}"
                )))));
            }
            first.settle(Err(e));
        }
        Vec::new()
    }
}

/// The handle to a writer task (cheap to clone).
#[derive(Clone, Debug)]
pub struct WriteQueue {
    /// Jobs for the writer task.
    tx: mpsc::Sender<Job>,
    /// The store's circuit breaker.
    breaker: Breaker,
    /// What the writer measures.
    stats: Arc<StoreStats>,
}

impl WriteQueue {
    /// A queue and the receiving end its writer task reads.
    pub(super) fn new() -> (WriteQueue, mpsc::Receiver<Job>) {
        let (tx, rx) = mpsc::channel(4 * MAX_BATCH);
        let queue = WriteQueue {
            tx,
            breaker: Breaker::default(),
            stats: Arc::default(),
        };
        (queue, rx)
    }

    /// The store's circuit breaker.
    pub fn breaker(&self) -> &Breaker {
        &self.breaker
    }

    /// What the writer measures.
    pub fn stats(&self) -> &Arc<StoreStats> {
        &self.stats
    }

    /// Makes one write (fenced by the running task's lease, if any); returns once it
    /// is committed.
    ///
    /// Fails if the database refuses it, its fence no longer holds, or the writer has
    /// stopped.
    pub async fn write(&self, write: Write) -> Result<Written, sqlx::Error> {
        let (done, result) = oneshot::channel();
        let fence = fence::current();
        self.tx
            .send(Job { write, done, fence })
            .await
            .map_err(|_| sqlx::Error::PoolClosed)?;
        result.await.map_err(|_| sqlx::Error::PoolClosed)?
    }
}
