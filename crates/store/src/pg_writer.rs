//! Group commit for PostgreSQL: the writes of many tables in one transaction, several
//! transactions in flight at once.
//!
//! A move per transaction made PostgreSQL flush its WAL for every move, and a move per
//! pooled connection let a burst of moves take the whole pool (and time out waiting for
//! it, which the breaker takes for an outage). Here one task collects the waiting writes
//! into batches, as the SQLite writer does, and commits each batch in one transaction
//! ([`super::batch`]: the move rows in one `INSERT`; a batch of plain moves is that one
//! statement, committed by itself). Unlike SQLite, PostgreSQL takes several writers, so
//! up to [`IN_FLIGHT`] batches are committed at once, each on a connection of the
//! writer's own: while they are out, the next writes gather into the next batch.
//!
//! A failed batch is retried write by write so each caller learns its own outcome. A
//! connection whose transaction failed is closed, and the next batch opens a new one (so
//! after a restart of the database the writer reconnects by itself).
//!
//! Each batch is one transaction, so the lease check of every fenced write in it
//! ([`super::fence`]: the table's owner and epoch, under a share lock) runs inside it: a
//! batch with a broken fence fails, and retried write by write, only the fenced-out
//! writes fail (with [`super::fence::FenceBroken`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool};
use sqlx::{ConnectOptions, Connection};
use tokio::sync::mpsc;

use super::batch::{apply_postgres_batch, one_statement};
use super::fence::{self, Fence, FenceBroken};
use super::queue::{Job, MAX_BATCH, WriteQueue, Written};
use super::ratings::Hooks;
use super::stats::StoreStats;
use super::write::Write;

/// Batches committed at once: two overlap one commit's round trips with the next
/// batch's, and still leave the batches big (measured at 5,000 moves/s: four in flight
/// made batches of 2 writes and cost PostgreSQL 90 µs per move, two 5 writes and 53 µs).
const IN_FLIGHT: usize = 2;

/// Starts the writer task with connections like `pool`'s (opened within
/// `connect_timeout`); it ends when every handle is dropped.
pub(crate) fn spawn(pool: &PgPool, connect_timeout: Duration, hooks: Hooks) -> WriteQueue {
    let (queue, rx) = WriteQueue::new();
    let connect = Connect {
        options: pool.connect_options(),
        timeout: connect_timeout,
        hooks,
    };
    tokio::spawn(run(connect, rx, queue.stats().clone()));
    queue
}

/// How the writer opens its connections.
#[derive(Clone)]
struct Connect {
    /// The pool's options.
    options: Arc<PgConnectOptions>,
    /// Longest wait for a new connection (then the write fails as an outage would).
    timeout: Duration,
    /// What a test makes the writer do.
    hooks: Hooks,
}

impl Connect {
    /// A new connection.
    ///
    /// Fails when the database cannot be reached in time.
    async fn open(&self) -> Result<PgConnection, sqlx::Error> {
        match tokio::time::timeout(self.timeout, self.options.connect()).await {
            Ok(conn) => conn,
            Err(_) => Err(sqlx::Error::PoolTimedOut),
        }
    }
}

async fn run(connect: Connect, mut rx: mpsc::Receiver<Job>, stats: Arc<StoreStats>) {
    // A slot per batch that may be in flight, each with its connection once open. The
    // connections are the writer's own, not the pool's: a batch neither waits for a
    // pooled connection nor pays for the pool's check of it (a round trip).
    let (free, mut slots) = mpsc::channel::<Option<PgConnection>>(IN_FLIGHT);
    for _ in 0..IN_FLIGHT {
        let _ = free.try_send(None);
    }
    let mut batch = Vec::with_capacity(MAX_BATCH);
    // Wait for a slot first: while every slot is busy the writes gather in the queue and
    // all go into the next batch.
    while let Some(conn) = slots.recv().await {
        if rx.recv_many(&mut batch, MAX_BATCH).await == 0 {
            break;
        }
        let jobs = std::mem::replace(&mut batch, Vec::with_capacity(MAX_BATCH));
        let (connect, free, stats) = (connect.clone(), free.clone(), stats.clone());
        tokio::spawn(async move {
            let conn = commit(&connect, conn, jobs, &stats).await;
            let _ = free.send(conn).await;
        });
    }
}

/// Commits a batch on `conn` (opened if need be) and tells every caller; returns the
/// connection unless it failed.
async fn commit(
    connect: &Connect,
    mut conn: Option<PgConnection>,
    jobs: Vec<Job>,
    stats: &StoreStats,
) -> Option<PgConnection> {
    let writes: Vec<&Write> = jobs.iter().map(|j| &j.write).collect();
    let fences: Vec<&Fence> = jobs.iter().filter_map(|j| j.fence.as_ref()).collect();
    let began = Instant::now();
    match transaction(connect, &mut conn, &writes, &fences).await {
        Ok(written) => {
            let took = began.elapsed();
            stats.committed(jobs.len(), took);
            for (job, w) in jobs.into_iter().zip(written) {
                job.settle(Ok(w));
            }
        }
        Err(e) => {
            stats.failed();
            for job in Job::fail_or_retry(jobs, e) {
                let fences: Vec<&Fence> = job.fence.iter().collect();
                let result = transaction(connect, &mut conn, &[&job.write], &fences).await;
                if result.is_err() {
                    stats.failed();
                }
                job.settle(result.map(one));
            }
        }
    }
    conn
}

/// Commits `writes` in one transaction (a single statement commits by itself), once every
/// fence of `fences` is seen to hold inside it. A failed transaction closes the
/// connection (the next opens a fresh one), unless only a fence failed.
async fn transaction(
    connect: &Connect,
    conn: &mut Option<PgConnection>,
    writes: &[&Write],
    fences: &[&Fence],
) -> Result<Vec<Written>, sqlx::Error> {
    let c = match conn {
        Some(c) => c,
        None => conn.insert(connect.open().await?),
    };
    let result = async {
        if fences.is_empty() && one_statement(writes) {
            apply_postgres_batch(c, writes, connect.hooks).await
        } else {
            let mut tx = c.begin().await?;
            if let Some(fence) = fence::check(&mut tx, fences).await?.into_iter().next() {
                tx.rollback().await?;
                return Err(FenceBroken { fence }.into_sqlx());
            }
            let written = apply_postgres_batch(&mut tx, writes, connect.hooks).await?;
            tx.commit().await?;
            Ok(written)
        }
    }
    .await;
    if let Err(e) = &result
        && !fence::is_broken(e)
        && let Some(c) = conn.take()
    {
        // The connection may be broken (the database restarted): never reuse it.
        let _ = c.close().await;
    }
    result
}

/// What the one write of a batch of one reported back.
fn one(written: Vec<Written>) -> Written {
    written.into_iter().next().flatten()
}
