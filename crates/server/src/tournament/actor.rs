//! The tournament actor: the one task that owns a tournament. It takes joins, leaves,
//! the creator's start and the games' results from its bounded queue, starts at the set
//! time, and pairs the next round when the last game of a round ends. Every change is
//! stored first, then applied to the model, then announced (the room's summary, and each
//! paired person's `tournament_game`).

use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use damka_protocol::Player;
use damka_protocol::tournament::{TournamentKind, TournamentStatus};
use tokio::sync::mpsc;

use super::model::{BoardResult, Left, Tournament, creator_only, outcome_of};
use super::standings::Outcome;
use super::{Command, TournamentHandle, Tournaments};
use crate::core::Core;
use crate::error::AppError;
use crate::placement::Actor;
use crate::room::Room;
use crate::table::{GameReport, Tables};
use damka_store::{EntrantRow, TournamentWrite};

/// How soon a change that could not be stored (a round, a result, the end) is tried
/// again.
const RETRY: Duration = Duration::from_secs(2);

/// The state of one tournament, owned by its task.
pub struct TournamentActor {
    /// What every tournament uses.
    pub(super) core: Arc<Core>,
    /// The tables its games are played at.
    pub(super) tables: Arc<Tables>,
    /// The registry it is listed in.
    registry: Arc<Tournaments>,
    /// The room it is in.
    pub(super) room: Arc<Room>,
    /// The tournament.
    pub(super) t: Tournament,
    /// The joining order number of the next entrant.
    next_seq: i64,
    /// Where the registry reads the latest state.
    snapshot: Arc<Mutex<Arc<Tournament>>>,
    /// When a tournament with a set time starts (server ms).
    start_due: Option<u64>,
    /// When an open tournament that has not started is cancelled (server ms).
    open_until: u64,
    /// When to look next whether the creator of an open tournament is still here
    /// (server ms), and since when they have been away.
    creator_check: u64,
    creator_away_since: Option<u64>,
    /// The address it was created from (its tables count against that address's table
    /// cap); `None` after a restart.
    pub(super) creator_ip: Option<IpAddr>,
    /// When to try again a change that could not be stored.
    retry: Option<tokio::time::Instant>,
    /// When the break before the next round ends (server ms).
    break_due: Option<u64>,
    /// The round whose break is over (it is paired and started at once).
    break_over: Option<u32>,
    /// Results whose storing failed, to try again.
    unstored: Vec<GameReport>,
    /// Commands.
    rx: mpsc::Receiver<Command>,
}

/// Starts a tournament's actor and registers it. In a cluster the actor runs as the
/// tournament's owner: `epoch` is the lease it holds (`None`: a new one, claimed first).
/// `creator_ip` is the address it was created from (`None` when restored).
pub fn spawn(
    registry: &Arc<Tournaments>,
    room: Arc<Room>,
    t: Tournament,
    next_seq: i64,
    epoch: Option<i64>,
    creator_ip: Option<IpAddr>,
) -> TournamentHandle {
    let state = registry.core().clone();
    let (tx, rx) = mpsc::channel(super::COMMAND_QUEUE);
    let snapshot = Arc::new(Mutex::new(Arc::new(t.clone())));
    let handle = TournamentHandle {
        tx,
        room_id: room.config.id.clone(),
        creator_ip,
        snapshot: snapshot.clone(),
    };
    // Unix ms to server ms: how far from now.
    let server_ms = |at: i64| {
        let wait = u64::try_from(at - crate::time::unix_ms()).unwrap_or(0);
        state.time.now_ms() + wait
    };
    let start_due = t.settings.starts_at.map(server_ms);
    let open_ms = i64::try_from(
        state
            .config
            .tournaments
            .tournament_open_secs
            .saturating_mul(1000),
    )
    .unwrap_or(i64::MAX);
    let open_until = server_ms(t.created_at.saturating_add(open_ms));
    let now = state.time.now_ms();
    let span = tracing::info_span!("tournament", id = %t.id, room = %room.config.id);
    let id = t.id.clone();
    let actor = TournamentActor {
        core: state.clone(),
        tables: registry.tables().clone(),
        registry: registry.clone(),
        room,
        t,
        next_seq,
        snapshot,
        start_due,
        open_until,
        creator_check: now,
        creator_away_since: None,
        creator_ip,
        retry: None,
        break_due: None,
        break_over: None,
        unstored: Vec::new(),
        rx,
    };
    registry.insert(id.clone(), handle.clone());
    let run = registry.placement().run(Actor {
        id,
        room: handle.room_id.clone(),
        epoch,
        commands: handle.tx.clone(),
        run: Box::pin(actor.run()),
    });
    drop(
        state
            .tracker
            .spawn(tracing::Instrument::instrument(run, span)),
    );
    handle
}

impl TournamentActor {
    async fn run(mut self) {
        let _registered = Registered {
            registry: self.registry.clone(),
            id: self.t.id.clone(),
        };
        let shutdown = self.core.shutdown.clone();
        let time = self.core.time.clone();
        // Resumed after a restart: results stored while nobody listened, then the next
        // round if one is due.
        self.reconcile().await;
        self.advance().await;
        while self.t.status != TournamentStatus::Over {
            let open = self.t.status == TournamentStatus::Open;
            let start_due = self.start_due.filter(|_| open);
            // While open: the deadline to start, and the next look for the creator.
            let open_due = open.then(|| self.open_until.min(self.creator_check));
            let retry = self.retry;
            let break_due = self.break_due;
            tokio::select! {
                biased;
                () = shutdown.cancelled() => break,
                cmd = self.rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                () = time.sleep_until(start_due.unwrap_or(u64::MAX)), if start_due.is_some() => {
                    self.start_due = None;
                    self.on_start_time().await;
                }
                () = time.sleep_until(open_due.unwrap_or(u64::MAX)), if open_due.is_some() => {
                    self.on_open_check().await;
                }
                () = tokio::time::sleep_until(retry.unwrap_or_else(tokio::time::Instant::now)), if retry.is_some() => {
                    self.retry = None;
                    self.on_retry().await;
                }
                () = time.sleep_until(break_due.unwrap_or(u64::MAX)), if break_due.is_some() => {
                    self.break_due = None;
                    self.break_over = Some(self.t.round() + 1);
                    self.advance().await;
                }
            }
        }
        tracing::info!(status = self.t.status.as_str(), "tournament actor stops");
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Join { player, reply } => {
                let result = self.join(player).await;
                // Full: it starts now, before the answer, which then shows round 1.
                if result.is_ok() && self.t.is_full() {
                    self.on_start_time().await;
                }
                drop(reply.send(result));
            }
            Command::Leave { player, reply } => {
                let left = self.leave(&player).await;
                let creator = player.id == self.t.created_by.id;
                drop(reply.send(left));
                // During a break the next round is shown paired: without the leaver now.
                if self.break_due.is_some() {
                    self.show_next_round();
                }
                if self.t.status == TournamentStatus::Open && self.t.players.is_empty() {
                    tracing::info!("everyone left: cancelled");
                    self.end(true).await;
                } else if self.t.status == TournamentStatus::Open && creator {
                    // Nobody is left to start it or to answer for it.
                    tracing::info!("the creator left before the start: cancelled");
                    self.end(true).await;
                }
            }
            Command::Start { player, reply } => {
                let result = match creator_only(&self.t, &player) {
                    Ok(()) => self.start().await,
                    Err(e) => Err(e.into()),
                };
                drop(reply.send(result));
            }
            Command::GameOver(report) => {
                self.record(report).await;
                self.advance().await;
            }
        }
    }

    /// Makes the latest state visible to readers and tells the room.
    pub(super) fn publish(&mut self) {
        *crate::lock::lock(&self.snapshot) = Arc::new(self.t.clone());
        self.room
            .tournament_changed(self.t.summary(crate::time::unix_ms()));
    }

    async fn join(&mut self, player: Player) -> Result<(), AppError> {
        self.t.check_join(&player)?;
        // Shown with its rating in the room's variant (an account's).
        let player = crate::ratings::shown(&self.core, player, self.room.config.variant).await?;
        let entrant = EntrantRow {
            player_id: player.id.clone(),
            name: player.name.clone(),
            seq: self.next_seq,
            left_round: None,
        };
        self.core
            .store
            .tournament_write(TournamentWrite::Join {
                tournament: self.t.id.clone(),
                entrant,
            })
            .await?;
        self.next_seq += 1;
        self.t.join(player);
        self.publish();
        Ok(())
    }

    async fn leave(&mut self, player: &Player) -> Result<(), AppError> {
        let left = self.t.plan_leave(&player.id)?;
        let write = match &left {
            Left::Removed => TournamentWrite::Remove {
                tournament: self.t.id.clone(),
                player: player.id.clone(),
            },
            Left::Withdrew { from, .. } => TournamentWrite::Withdraw {
                tournament: self.t.id.clone(),
                player: player.id.clone(),
                from_round: i64::from(*from),
            },
        };
        self.core.store.tournament_write(write).await?;
        self.t.leave(&player.id, &left);
        self.publish();
        if let Left::Withdrew {
            running: Some((table, game)),
            ..
        } = left
        {
            // The running game is resigned for them; its end comes back as a result.
            if let Some(handle) = self.tables.get(&table) {
                let cmd = crate::table::Command::Forfeit {
                    game_id: game,
                    player_id: player.id.clone(),
                };
                if handle.tx.send(cmd).await.is_err() {
                    tracing::warn!(%table, "the table of a forfeited game is gone");
                }
            }
        }
        Ok(())
    }

    /// The set time has come: start with who is there (and the computer, if asked
    /// for), or cancel for want of players.
    async fn on_start_time(&mut self) {
        if self.t.status != TournamentStatus::Open {
            return;
        }
        if self.t.enough_players() {
            match self.start().await {
                Ok(()) => {}
                Err(AppError::TooManyAddressTables(_)) => {
                    tracing::info!("its boards would pass the creator's table cap: cancelled");
                    self.end(true).await;
                }
                Err(_) => self.retry = Some(tokio::time::Instant::now() + RETRY),
            }
        } else {
            tracing::info!("too few players at the start time: cancelled");
            self.end(true).await;
        }
    }

    /// An open tournament's deadline or creator check is due: cancelled if it has not
    /// started in time (`--tournament-open-secs`) or its creator has been away from the
    /// server (no socket in any room, at no table) for `--tournament-creator-away-secs`.
    async fn on_open_check(&mut self) {
        if self.t.status != TournamentStatus::Open {
            return;
        }
        let now = self.core.time.now_ms();
        if now >= self.open_until {
            tracing::info!("not started in time: cancelled");
            self.end(true).await;
            return;
        }
        let away_ms = self
            .core
            .config
            .tournaments
            .tournament_creator_away_secs
            .saturating_mul(1000);
        let here = self
            .core
            .rooms
            .all()
            .iter()
            .any(|r| r.has_person(&self.t.created_by.id));
        if here {
            self.creator_away_since = None;
        } else {
            let since = *self.creator_away_since.get_or_insert(now);
            if now.saturating_sub(since) >= away_ms {
                tracing::info!("the creator is gone: cancelled");
                self.end(true).await;
                return;
            }
        }
        // Often enough to cancel within a tenth of the grace of the creator leaving.
        self.creator_check = now + (away_ms / 10).clamp(100, 10_000);
    }

    /// Starts now: fills empty places with the computer (if asked for), fixes the
    /// rounds, then pairs round 1.
    ///
    /// Fails with `bad_message` (started, too few players), `too_many_tables` (its
    /// boards would take the creator's address over its table cap) or a storage error.
    async fn start(&mut self) -> Result<(), AppError> {
        if self.t.status != TournamentStatus::Open {
            return Err(AppError::BadMessage("the tournament has started".into()));
        }
        if !self.t.enough_players() {
            return Err(AppError::BadMessage(format!(
                "a tournament needs at least {} people and {} players",
                super::model::MIN_PEOPLE,
                super::model::MIN_PLAYERS
            )));
        }
        // Its tables are its creator's: they count against the address's table cap.
        let max = self.core.config.limits.max_tables_per_address;
        if let Some(ip) = self.creator_ip
            && max > 0
            && self.tables.created_from(ip) + self.t.boards_per_round() > max
        {
            return Err(AppError::TooManyAddressTables(max));
        }
        let computers: Vec<EntrantRow> = self
            .t
            .computer_entrants()
            .into_iter()
            .zip(self.next_seq..)
            .map(|(p, seq)| EntrantRow {
                player_id: p.id,
                name: p.name,
                seq,
                left_round: None,
            })
            .collect();
        let n = self.t.players.len() + computers.len();
        let now = crate::time::unix_ms();
        // A rated Swiss seeds by rating as of now (stored as the entrants' order).
        let seeds = if self.t.settings.rated && self.t.settings.kind == TournamentKind::Swiss {
            self.seed_by_rating().await?
        } else {
            Vec::new()
        };
        self.core
            .store
            .tournament_write(TournamentWrite::Start {
                tournament: self.t.id.clone(),
                started_at: now,
                total_rounds: i64::from(self.t.rounds_for(n)),
                computers: computers.clone(),
                seeds,
            })
            .await?;
        self.next_seq += i64::try_from(computers.len()).unwrap_or(0);
        self.t.begin(now);
        tracing::info!(
            players = n,
            rounds = self.t.total_rounds,
            "tournament started"
        );
        self.publish();
        self.advance().await;
        Ok(())
    }

    /// Shows every player with their rating as it stands now (an account's, in the
    /// tournament's variant): at the start and before each round (a player's rating
    /// moves with every rated game). A restored tournament's players are shown so by
    /// `restore` before its actor runs.
    ///
    /// Fails on a database error.
    pub(super) async fn refresh_ratings(&mut self) -> Result<(), AppError> {
        let variant = self.room.config.variant;
        for e in &mut self.t.players {
            if e.player.is_bot() {
                continue;
            }
            if !e.player.account && self.core.store.account_of(&e.player.id).await?.is_some() {
                e.player.account = true;
            }
            e.player = crate::ratings::shown(&self.core, e.player.clone(), variant).await?;
        }
        Ok(())
    }

    /// Orders the players by their ratings now, best first; returns each player's new
    /// seed (`seq`, from 1) to store. On a storage failure nothing is reordered.
    ///
    /// Fails on a database error.
    async fn seed_by_rating(&mut self) -> Result<Vec<(String, i64)>, AppError> {
        self.refresh_ratings().await?;
        self.t.seed_by_rating();
        Ok(self
            .t
            .players
            .iter()
            .zip(1..)
            .map(|(e, seq)| (e.player.id.clone(), seq))
            .collect())
    }

    /// While the last round is complete: pair and start the next, or end the
    /// tournament when there is none. Between two rounds the players get a break
    /// (`--round-break-secs`): the next round is shown paired meanwhile, and paired again
    /// (the same way, unless someone left) and started when it ends.
    async fn advance(&mut self) {
        while self.t.status == TournamentStatus::Running && self.t.round_done() {
            match self.t.plan_round() {
                None => {
                    self.end(false).await;
                    return;
                }
                Some(planned) => {
                    if self.break_due.is_some() {
                        return;
                    }
                    let round_break = self.core.config.round_break();
                    if planned.number > 1
                        && !round_break.is_zero()
                        && self.break_over != Some(planned.number)
                    {
                        let ms = u64::try_from(round_break.as_millis()).unwrap_or(u64::MAX);
                        self.break_due = Some(self.core.time.now_ms().saturating_add(ms));
                        self.show_next_round();
                        return;
                    }
                    if self.t.next_round.is_some() {
                        self.t.set_next_round(None);
                    }
                    if !self.start_round(planned).await {
                        self.retry = Some(tokio::time::Instant::now() + RETRY);
                        return;
                    }
                }
            }
        }
    }

    /// Publishes the next round as it would be paired now, with the time left until it
    /// starts.
    fn show_next_round(&mut self) {
        let Some(due) = self.break_due else {
            return;
        };
        let left = i64::try_from(due.saturating_sub(self.core.time.now_ms())).unwrap_or(0);
        let next = self
            .t
            .plan_round()
            .map(|p| (p, crate::time::unix_ms().saturating_add(left)));
        self.t.set_next_round(next);
        self.publish();
    }

    /// A game's end: stored as the board's result, then applied and announced.
    async fn record(&mut self, report: GameReport) {
        let Some(board) = self.t.pending_board(report.round, &report.game) else {
            tracing::debug!(game = %report.game, "a result for no pending board");
            return;
        };
        let outcome = outcome_of(report.result);
        let stored = self
            .core
            .store
            .tournament_write(TournamentWrite::Result {
                tournament: self.t.id.clone(),
                round: i64::from(report.round),
                board: i64::try_from(board + 1).unwrap_or(i64::MAX),
                result: stored_result(outcome),
                reason: report.reason.clone(),
            })
            .await;
        if let Err(e) = stored {
            tracing::error!(error = %e, game = %report.game, "cannot store a result; trying again");
            self.unstored.push(report);
            self.retry = Some(tokio::time::Instant::now() + RETRY);
            return;
        }
        self.t.record(
            report.round,
            board,
            BoardResult {
                outcome,
                reason: report.reason,
            },
        );
        self.publish();
        // A micro-match whose first game has no result (the server had to abort it) ends
        // there, as at any micro-match table: its second game is not played.
        if outcome == Outcome::Void
            && let Some(game) = self.t.pending_second(report.round, board)
        {
            Box::pin(self.record(GameReport {
                tournament: report.tournament,
                round: report.round,
                game,
                result: None,
                reason: damka_protocol::EndReason::Aborted.as_str().to_owned(),
            }))
            .await;
        }
    }

    /// Results of the current round's games that ended while no actor listened (a
    /// restart): read from the store.
    async fn reconcile(&mut self) {
        let Some(round) = self.t.rounds.last() else {
            return;
        };
        let number = round.number;
        let games: Vec<String> = round
            .boards
            .iter()
            .filter(|b| b.result.is_none())
            .filter_map(|b| b.game.clone())
            .collect();
        for game in games {
            match self.core.store.game(&game).await {
                Ok(Some(row)) if row.status == damka_protocol::GameStatus::Over => {
                    let reason = row.reason.unwrap_or(damka_protocol::EndReason::Aborted);
                    self.record(GameReport {
                        tournament: self.t.id.clone(),
                        round: number,
                        game,
                        result: row.result,
                        reason: reason.as_str().to_owned(),
                    })
                    .await;
                }
                Ok(_) => {}
                Err(e) => tracing::error!(error = %e, %game, "cannot read a tournament game"),
            }
        }
    }

    /// Tries again what could not be stored.
    async fn on_retry(&mut self) {
        for report in std::mem::take(&mut self.unstored) {
            self.record(report).await;
        }
        if self.t.status == TournamentStatus::Open {
            // A start (full, or at the set time) that could not be stored.
            let due =
                self.t.is_full() || self.start_due.is_none() && self.t.settings.starts_at.is_some();
            if due {
                self.on_start_time().await;
            }
            return;
        }
        self.advance().await;
    }

    /// Stores the end, then announces it.
    async fn end(&mut self, cancelled: bool) {
        let now = crate::time::unix_ms();
        let stored = self
            .core
            .store
            .tournament_write(TournamentWrite::End {
                tournament: self.t.id.clone(),
                ended_at: now,
                cancelled,
            })
            .await;
        if let Err(e) = stored {
            tracing::error!(error = %e, "cannot store the end of a tournament; trying again");
            self.retry = Some(tokio::time::Instant::now() + RETRY);
            return;
        }
        self.t.end(now, cancelled);
        tracing::info!(cancelled, "tournament over");
        self.publish();
    }
}

/// The stored result of an outcome.
pub(super) fn stored_result(outcome: Outcome) -> damka_store::BoardResult {
    match outcome {
        Outcome::White => damka_store::BoardResult::White,
        Outcome::Black => damka_store::BoardResult::Black,
        Outcome::Draw => damka_store::BoardResult::Draw,
        Outcome::Void => damka_store::BoardResult::Void,
    }
}

/// Removes a tournament from the registry when its task ends (not at shutdown: the
/// server goes away with it, and the next start resumes it).
struct Registered {
    /// The registry.
    registry: Arc<Tournaments>,
    /// Tournament id.
    id: String,
}

impl Drop for Registered {
    fn drop(&mut self) {
        if !self.registry.core().shutdown.is_cancelled() {
            self.registry.remove(&self.id);
        }
    }
}
