//! Analysis of finished games and of positions (`docs/protocol.md#analysis`).
//!
//! A game's analysis is a job: one `games_analysis` row per game (`damka_store`), which
//! every request finds (`INSERT … ON CONFLICT DO NOTHING`), whichever node it reaches. A
//! node runs a job once it has claimed the row (its own random token, a lease it renews as
//! it goes), searches every position of the game to a fixed [`Budget`] on the computer's
//! threads as [`Class::Analysis`] (below every live game, one position per turn of the fair
//! queue; a search the scheduler stops early is run again, so results do not depend on the
//! load), and stores the plies under its claim. Jobs are picked up by one task per node
//! ([`Analyses::start`]): at once when asked, every `--analysis-poll-secs` for queued jobs
//! and jobs whose lease ran out (their node died), and at start-up on a single node every
//! job not done (what the last run left). Nothing here touches a table.

mod board;
mod finds;
mod judge;
mod learn;
mod pdn;
mod search;

use std::collections::HashSet;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damka_protocol::analysis::{
    AnalysisStatus, GameAnalysis, JobState, PlyAnalysis, PositionAnalysis, Progress,
};
use damka_protocol::{ErrorCode, GameStatus, Player};
use damka_store::{AnalysisPriority, AnalysisRow, AnalysisStatus as StoredStatus, AnalysisWrite};
use draughts::{Game, Position, Rules, Variant};
use tokio::sync::{Notify, OwnedSemaphorePermit, Semaphore};
use tracing::Instrument;

use crate::computer::{Class, Who};
use crate::core::Core;
use crate::error::{AppError, AppResult};
use crate::time::unix_ms;

pub use judge::{BLUNDER, Curve, INACCURACY, Judgement, MISTAKE, Value};
pub use pdn::annotations;
pub use search::{Budget, Searched, search as search_position};

/// Jobs looked at per pass of the picker.
const PICK: i64 = 16;

/// The analyses of this node.
pub struct Analyses {
    core: Arc<Core>,
    /// Per position of a game.
    budget: Budget,
    /// Per position of the analysis board.
    board_budget: Budget,
    /// The analysis board's cache and bound.
    board: Arc<board::Board>,
    /// The games whose jobs this node runs now (so a pass does not start one twice; the
    /// claim in the store is what keeps two nodes apart).
    running: Mutex<HashSet<String>>,
    /// Jobs this node runs at once.
    slots: Arc<Semaphore>,
    /// Wakes the picker (a job was asked for, or one ended).
    wake: Notify,
    /// Whether this node is alone on its database: then at start-up it takes over every
    /// job not done, leases or not (they were its own last run's).
    alone: bool,
    /// Jobs this node has run (claimed and started) since it started.
    runs: AtomicU64,
    /// Looks for jobs this node has finished since it started (each a pass of the picker).
    looks: AtomicU64,
    /// Positions searched for jobs (a search stopped early and run again counts twice).
    searches: AtomicU64,
    /// Moves tried instead of a mistake that search at once (`--analysis-board-searches`).
    learn_slots: Semaphore,
    /// The searches of positions before mistakes, kept for the next try.
    befores: learn::Befores,
    /// Where puzzles found in analysed games go (set once the puzzles are loaded).
    puzzles: std::sync::OnceLock<Arc<crate::puzzles::Puzzles>>,
}

/// Times [`Analyses::run_whole`] runs a search again that a live game stopped.
const RERUNS: usize = 3;

/// How often a running job stores its progress (with its lease).
const PROGRESS_EVERY: Duration = Duration::from_secs(2);

/// Seconds a request refused for a full queue is told to wait.
const QUEUE_FULL_RETRY_SECS: u64 = 60;

/// The wire's name of a stored job state.
fn job_state(status: StoredStatus) -> JobState {
    match status {
        StoredStatus::Queued => JobState::Queued,
        StoredStatus::Running => JobState::Running,
        StoredStatus::Done => JobState::Done,
    }
}

impl Analyses {
    /// The analyses of a node; `alone` unless it is part of a cluster.
    pub fn new(core: Arc<Core>, alone: bool) -> Arc<Analyses> {
        let config = &core.config;
        let budget = Budget {
            nodes: config.analysis.analysis_nodes,
            depth: config.analysis.analysis_depth,
        };
        let board_budget = Budget {
            nodes: config.analysis.analysis_board_nodes,
            depth: config.analysis.analysis_depth,
        };
        // 0: this node runs no job (another node of the cluster does).
        let slots = Arc::new(Semaphore::new(config.analysis.analysis_jobs));
        let board = Arc::new(board::Board::new(config.analysis.analysis_board_searches));
        let learn_slots = Semaphore::new(config.analysis.analysis_board_searches);
        Arc::new(Analyses {
            core,
            budget,
            board_budget,
            board,
            running: Mutex::new(HashSet::new()),
            slots,
            wake: Notify::new(),
            alone,
            runs: AtomicU64::new(0),
            looks: AtomicU64::new(0),
            searches: AtomicU64::new(0),
            learn_slots,
            befores: learn::Befores::default(),
            puzzles: std::sync::OnceLock::new(),
        })
    }

    /// Puzzles found in analysed games join this pool (`--game-puzzle-depth`).
    pub fn find_puzzles_for(&self, puzzles: Arc<crate::puzzles::Puzzles>) {
        let _ = self.puzzles.set(puzzles);
    }

    /// Runs the work `make` makes on the computer's threads as an analysis (below every
    /// live game), made and run again when a live game stopped it, at most [`RERUNS`]
    /// times: what an interactive request or a job's afterthought needs (a whole result,
    /// never a cut one), where a job's own positions keep trying.
    ///
    /// Fails with `internal` when the search failed, `429` (`Retry-After: 2`) when live
    /// games kept stopping it.
    async fn run_whole<R, W>(&self, who: &Who, make: impl Fn() -> W) -> AppResult<R>
    where
        R: Send + 'static,
        W: FnOnce(&std::sync::atomic::AtomicBool) -> R + Send + 'static,
    {
        for _ in 0..RERUNS {
            match self.core.computer.run(Class::Analysis, who, make()).await {
                Some((found, false)) => return Ok(found),
                Some((_, true)) => {
                    self.core.metrics.analysis_preempted.inc();
                }
                None => return Err(AppError::Internal("a search failed".into())),
            }
        }
        Err(AppError::RetryAfter(2))
    }

    /// Jobs this node has run since it started.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Looks for jobs finished since the start: after one that began later than a job
    /// ended, this node has seen that job done (and not run it again).
    pub fn looks(&self) -> u64 {
        self.looks.load(Ordering::Relaxed)
    }

    /// Positions searched for jobs since the start.
    pub fn searches(&self) -> u64 {
        self.searches.load(Ordering::Relaxed)
    }

    /// Starts the picker task (on the tracker; it stops at shutdown).
    pub fn start(self: &Arc<Analyses>) {
        let me = self.clone();
        self.core
            .tracker
            .spawn(async move { me.pick_loop().await }.instrument(tracing::info_span!("analysis")));
    }

    /// Asks for a finished game's analysis: the job's state (the same job however often
    /// and wherever it is asked). An account asking about a game it played goes before
    /// every other request in the queue.
    ///
    /// Fails with `not_found` for an unknown game, `game_in_progress` while it is played,
    /// `rate_limited` (`Retry-After`) when the queue is full (`--analysis-queue` jobs
    /// waiting over every node; twice that for an account's own game), or a database
    /// error. `limit` is called before a new job is made (a limit that refuses fails the
    /// request with its error); asking about a job that exists is free.
    pub async fn request(
        &self,
        game_id: &str,
        player: &Player,
        address: IpAddr,
        limit: impl FnOnce() -> AppResult<()>,
    ) -> AppResult<AnalysisStatus> {
        let store = &self.core.store;
        let game = store
            .game(game_id)
            .await?
            .ok_or(AppError::NotFound("game"))?;
        if game.status == GameStatus::Playing {
            return Err(AppError::game(
                ErrorCode::GameInProgress,
                "the game is still being played",
            ));
        }
        let own = player.account && (game.white_id == player.id || game.black_id == player.id);
        let priority = if own {
            AnalysisPriority::Own
        } else {
            AnalysisPriority::Other
        };
        if let Some(row) = store.analysis(game_id).await? {
            if row.status == StoredStatus::Queued && priority < row.priority {
                // Somebody else asked first: the player's own request moves it up.
                store
                    .analysis_write(AnalysisWrite::Prioritize {
                        game_id: game_id.to_owned(),
                        priority,
                    })
                    .await?;
                if let Some(row) = store.analysis(game_id).await? {
                    return self.status_of(&row).await;
                }
            }
            return self.status_of(&row).await;
        }
        let bound = self.core.config.analysis.analysis_queue as i64 * if own { 2 } else { 1 };
        if store.queued_analyses().await? >= bound {
            self.core.metrics.analyses_refused.inc();
            return Err(AppError::RetryAfter(QUEUE_FULL_RETRY_SECS));
        }
        limit()?;
        store
            .analysis_write(AnalysisWrite::Request {
                game_id: game_id.to_owned(),
                requested_by: player.id.clone(),
                address: Some(address.to_string()),
                priority,
                now: unix_ms(),
            })
            .await?;
        self.wake.notify_one();
        let row = store
            .analysis(game_id)
            .await?
            .ok_or_else(|| AppError::Internal(format!("analysis of {game_id} not stored")))?;
        self.status_of(&row).await
    }

    /// A job's state on the wire: its queue position while queued, its progress while
    /// running.
    async fn status_of(&self, row: &AnalysisRow) -> AppResult<AnalysisStatus> {
        let queue_position = match row.status {
            StoredStatus::Queued => Some(self.core.store.analysis_queue_position(row).await?),
            _ => None,
        };
        let progress = match (row.status, row.searched, row.positions) {
            (StoredStatus::Running, Some(searched), Some(positions)) => Some(Progress {
                searched: u32::try_from(searched).unwrap_or(0),
                positions: u32::try_from(positions).unwrap_or(0),
            }),
            _ => None,
        };
        Ok(AnalysisStatus {
            status: job_state(row.status),
            queue_position: queue_position.map(|p| u32::try_from(p).unwrap_or(u32::MAX)),
            progress,
        })
    }

    /// A game's analysis as it stands.
    ///
    /// Fails with `not_found` for an unknown game or one never asked for, or a database
    /// error.
    pub async fn show(&self, game_id: &str) -> AppResult<GameAnalysis> {
        let Some(row) = self.core.store.analysis(game_id).await? else {
            // A game nobody asked about has no analysis yet (a replay asks whether there
            // is one); only an unknown game is not found.
            self.core
                .store
                .game(game_id)
                .await?
                .ok_or(AppError::NotFound("game"))?;
            return Ok(GameAnalysis {
                status: JobState::None,
                queue_position: None,
                progress: None,
                plies: Vec::new(),
                accuracy: None,
                budget: None,
            });
        };
        let state = self.status_of(&row).await?;
        let mut out = GameAnalysis {
            status: state.status,
            queue_position: state.queue_position,
            progress: state.progress,
            plies: Vec::new(),
            accuracy: None,
            budget: row.budget.clone(),
        };
        if let (StoredStatus::Done, Some(text)) = (row.status, &row.result) {
            let stored: Stored = serde_json::from_str(text)
                .map_err(|e| AppError::Internal(format!("analysis of {game_id}: {e}")))?;
            out.plies = stored.plies;
            out.accuracy = Some(stored.accuracy);
        }
        Ok(out)
    }

    /// The judgements and evaluations of a game's plies, when its analysis is done.
    ///
    /// Fails on a database error or a stored result this version cannot read.
    pub async fn done_plies(&self, game_id: &str) -> AppResult<Option<Vec<PlyAnalysis>>> {
        let a = self.show(game_id).await;
        match a {
            Ok(a) if a.status == JobState::Done => Ok(Some(a.plies)),
            Ok(_) | Err(AppError::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Analyses one position (the analysis board) on the computer's threads, below every
    /// live game; a search stopped early for a game answers with what it has. The same
    /// position asked again (or while it is searched) is answered from the board's cache.
    ///
    /// Fails with `bad_message` for a variant or FEN that does not parse, and with
    /// `rate_limited` (`Retry-After`) when the board's searches are all taken.
    pub async fn position(
        &self,
        variant: &str,
        fen: &str,
        who: Who,
    ) -> AppResult<PositionAnalysis> {
        let variant = Variant::from_name(variant)
            .ok_or_else(|| AppError::BadMessage(format!("unknown variant {variant}")))?;
        let pos = Position::from_fen(Rules::new(variant), fen)
            .map_err(|e| AppError::BadMessage(format!("bad FEN: {e}")))?;
        let key = board::Key {
            variant: variant.name(),
            fen: pos.to_fen(),
        };
        let metrics = &self.core.metrics;
        loop {
            match self.board.admit(&key) {
                board::Admission::Cached(answer) => {
                    metrics.position_analyses_cached.inc();
                    return Ok(answer);
                }
                board::Admission::Busy => {
                    metrics.position_analyses_refused.inc();
                    return Err(AppError::RetryAfter(board::RETRY_AFTER_SECS));
                }
                board::Admission::Wait(mut answer) => {
                    if let Ok(found) = answer.wait_for(Option::is_some).await
                        && let Some(found) = found.clone()
                    {
                        metrics.position_analyses_cached.inc();
                        return Ok(found);
                    }
                    // That search gave no answer to keep: ask again.
                }
                board::Admission::Search(permit, cell) => {
                    // On its own task, so the answer reaches the cache and whoever waits
                    // for it even when this request goes away.
                    let core = self.core.clone();
                    let board = self.board.clone();
                    let budget = self.board_budget;
                    let pos = pos.clone();
                    let search = async move {
                        let _permit = permit;
                        // A spawned task runs to its end: the gauge comes down below.
                        core.metrics.position_analyses_searching.inc();
                        let game = Game::new(pos.clone());
                        let tables = core.computer.endgames().get(variant);
                        let done = core
                            .computer
                            .run(Class::Analysis, &who, move |stop| {
                                search::search_with(&game, budget, stop, tables)
                            })
                            .await;
                        core.metrics.position_analyses_searching.dec();
                        let Some((found, cut)) = done else {
                            board.forget(&key, &cell);
                            return None;
                        };
                        core.metrics.position_analyses.inc();
                        let answer = PositionAnalysis {
                            best: found.best.as_ref().map(|m| pos.move_to_string(m)),
                            eval: search::eval(found.value, pos.variant()),
                            pv: search::line(&pos, &found.pv),
                            depth: found.depth,
                        };
                        board.store(&key, &cell, &answer, !cut);
                        Some(answer)
                    };
                    let task = self
                        .core
                        .tracker
                        .spawn(search.instrument(tracing::info_span!("analysis_board")));
                    return task
                        .await
                        .ok()
                        .flatten()
                        .ok_or_else(|| AppError::Internal("a position search failed".into()));
                }
            }
        }
    }

    /// Picks jobs up until shutdown.
    async fn pick_loop(self: Arc<Analyses>) {
        let poll = Duration::from_secs(self.core.config.analysis.analysis_poll_secs.max(1));
        // A node alone takes over what its last run left running, lease or not.
        let mut now = if self.alone { i64::MAX } else { unix_ms() };
        loop {
            if let Err(e) = self.pick(now).await {
                tracing::warn!(error = %e, "could not look for analysis jobs");
            }
            self.looks.fetch_add(1, Ordering::Relaxed);
            tokio::select! {
                () = self.core.shutdown.cancelled() => return,
                () = self.wake.notified() => {}
                () = tokio::time::sleep(poll) => {}
            }
            now = unix_ms();
        }
    }

    /// Starts the claimable jobs this node has room for.
    async fn pick(self: &Arc<Analyses>, now: i64) -> AppResult<()> {
        let rows = self.core.store.claimable_analyses(now, PICK).await?;
        for row in rows {
            if crate::lock::lock(&self.running).contains(&row.game_id) {
                continue;
            }
            let Ok(permit) = self.slots.clone().try_acquire_owned() else {
                break;
            };
            crate::lock::lock(&self.running).insert(row.game_id.clone());
            let me = self.clone();
            let span = tracing::info_span!("analysis_job", game = %row.game_id);
            self.core.tracker.spawn(
                async move {
                    let game_id = row.game_id.clone();
                    if let Err(e) = me.run(row, now, permit).await {
                        tracing::warn!(error = %e, "analysis job failed");
                    }
                    crate::lock::lock(&me.running).remove(&game_id);
                    me.wake.notify_one();
                }
                .instrument(span),
            );
        }
        Ok(())
    }

    /// Claims a job and, if the claim is this node's, runs it to the end (or to the
    /// shutdown: a job left running is resumed by the next start, or by another node once
    /// its lease ends).
    async fn run(&self, row: AnalysisRow, now: i64, permit: OwnedSemaphorePermit) -> AppResult<()> {
        let store = &self.core.store;
        let lease = i64::try_from(self.core.config.analysis.analysis_lease_secs.max(1) * 1000)
            .unwrap_or(i64::MAX / 2);
        let claim = crate::random::token_base36(20);
        let game_id = row.game_id.clone();
        store
            .analysis_write(AnalysisWrite::Claim {
                game_id: game_id.clone(),
                claim: claim.clone(),
                until: unix_ms().saturating_add(lease),
                now,
            })
            .await?;
        let claimed = store.analysis(&game_id).await?;
        if claimed.as_ref().and_then(|r| r.claim.as_deref()) != Some(claim.as_str())
            || claimed.map(|r| r.status) != Some(StoredStatus::Running)
        {
            return Ok(()); // another node's now
        }
        self.runs.fetch_add(1, Ordering::Relaxed);
        let metrics = &self.core.metrics;
        metrics.analyses_running.inc();
        let started = std::time::Instant::now();
        let done = self.run_claimed(&row, &claim, lease).await;
        metrics.analyses_running.dec();
        if let Some(done) = done? {
            metrics.analyses_done.inc();
            metrics.analysis_job.observe(started.elapsed());
            // The job's slot goes to the next job; then the shots after its mistakes.
            drop(permit);
            self.find_puzzles(&game_id, &done.games, &done.plies, done.opening, &done.who)
                .await;
        }
        Ok(())
    }

    /// Runs a job this node has claimed: what it analysed once its result is stored,
    /// `None` when the shutdown stopped it (its lease given up).
    async fn run_claimed(
        &self,
        row: &AnalysisRow,
        claim: &str,
        lease: i64,
    ) -> AppResult<Option<Analysed>> {
        let store = &self.core.store;
        let game_id = row.game_id.clone();
        let claim = claim.to_owned();
        let who = Who {
            address: row.address.as_deref().and_then(|a| a.parse().ok()),
            owner: row.requested_by.clone(),
        };
        let StoredLine {
            row: game_row,
            variant,
            games,
            played,
        } = stored_line(store, &game_id).await?;
        // One state of the endgame tables for the whole job (they may become ready while
        // it runs): every position of the game judged alike.
        let tables = self.core.computer.endgames().get(variant);
        let mut searched = Vec::with_capacity(games.len());
        let mut renewed = std::time::Instant::now();
        // Renewed every third of the lease, and at least every PROGRESS_EVERY so the
        // progress shown is fresh.
        let renew_every =
            Duration::from_millis(u64::try_from(lease / 3).unwrap_or(1000)).min(PROGRESS_EVERY);
        let positions = i64::try_from(games.len()).unwrap_or(i64::MAX);
        store
            .analysis_write(AnalysisWrite::Renew {
                game_id: game_id.clone(),
                claim: claim.clone(),
                until: unix_ms().saturating_add(lease),
                progress: Some((0, positions)),
            })
            .await?;
        for game in &games {
            loop {
                if self.core.shutdown.is_cancelled() {
                    // Give the lease up: another node takes the job over at once rather
                    // than when the lease ends (the next start of this node would anyway).
                    let release = AnalysisWrite::Renew {
                        game_id: game_id.clone(),
                        claim: claim.clone(),
                        until: 0,
                        progress: None,
                    };
                    if let Err(e) = store.analysis_write(release).await {
                        tracing::warn!(error = %e, "analysis lease not released at shutdown");
                    }
                    return Ok(None);
                }
                let game = game.clone();
                let budget = self.budget;
                let tables = tables.clone();
                let done = self
                    .core
                    .computer
                    .run(Class::Analysis, &who, move |stop| {
                        search::search_with(&game, budget, stop, tables)
                    })
                    .await;
                self.searches.fetch_add(1, Ordering::Relaxed);
                self.core.metrics.analysis_positions.inc();
                match done {
                    Some((found, false)) => {
                        searched.push(found);
                        break;
                    }
                    // Stopped for a live game: searched again to the full budget.
                    Some((_, true)) => {
                        self.core.metrics.analysis_preempted.inc();
                    }
                    None => return Err(AppError::Internal("an analysis search failed".into())),
                }
            }
            if renewed.elapsed() >= renew_every {
                renewed = std::time::Instant::now();
                store
                    .analysis_write(AnalysisWrite::Renew {
                        game_id: game_id.clone(),
                        claim: claim.clone(),
                        until: unix_ms().saturating_add(lease),
                        progress: Some((i64::try_from(searched.len()).unwrap_or(0), positions)),
                    })
                    .await?;
            }
        }
        let positions: Vec<Position> = games.iter().map(|g| g.position().clone()).collect();
        let (plies, accuracy) = search::plies(&positions, &searched, &played);
        let result = serde_json::to_string(&Stored {
            plies: plies.clone(),
            accuracy,
        })
        .map_err(|e| AppError::Internal(e.to_string()))?;
        store
            .analysis_write(AnalysisWrite::Finish {
                game_id: game_id.clone(),
                claim,
                budget: self.budget.describe(),
                result,
                now: unix_ms(),
            })
            .await?;
        tracing::info!(plies = played.len(), "analysis done");
        Ok(Some(Analysed {
            games,
            plies,
            opening: u32::try_from(game_row.opening_plies).unwrap_or(0),
            who,
        }))
    }
}

/// A stored game replayed: the game after each ply (history kept, for the draw rules of
/// each search) and the moves played.
pub(crate) struct StoredLine {
    /// The game's row.
    pub row: damka_store::GameRow,
    /// Its variant.
    pub variant: Variant,
    /// `games[i]`: the game before ply `i + 1` (one more than the moves).
    pub games: Vec<Game>,
    /// Each ply's move, and its stored text.
    pub played: Vec<(draughts::Move, String)>,
}

/// Replays a stored game with the engine (its own rules: a game with optional captures is
/// replayed so).
///
/// Fails with `not_found` for an unknown game, a database error, or `internal` for a
/// stored game this engine cannot replay.
pub(crate) async fn stored_line(
    store: &damka_store::Store,
    game_id: &str,
) -> AppResult<StoredLine> {
    let g = store
        .game(game_id)
        .await?
        .ok_or(AppError::NotFound("game"))?;
    let moves = store.moves(game_id).await?;
    let (variant, _) = crate::replay::rules_of(&g)?;
    let mut games = Vec::with_capacity(moves.len() + 1);
    let mut played = Vec::with_capacity(moves.len());
    let last = crate::replay::replay(&g, &moves, |before, mv, m| {
        games.push(before.clone());
        played.push((*mv, m.mv.clone()));
    })?;
    games.push(last);
    Ok(StoredLine {
        row: g,
        variant,
        games,
        played,
    })
}

/// A job done: what the search for puzzles after its mistakes needs.
struct Analysed {
    /// The game after each ply.
    games: Vec<Game>,
    /// Its plies as analysed.
    plies: Vec<PlyAnalysis>,
    /// Its random opening's plies.
    opening: u32,
    /// Who asked (the fair queue's owner).
    who: Who,
}

/// A job's stored result.
#[derive(serde::Serialize, serde::Deserialize)]
struct Stored {
    plies: Vec<PlyAnalysis>,
    accuracy: damka_protocol::analysis::Accuracy,
}
