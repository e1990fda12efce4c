//! Tournament actions across nodes: a tournament's actor runs on the node that owns it;
//! `join`, `leave` and `start` asked on another node travel to it over NATS (a request
//! on `{prefix}.u.{id}`) and its answer comes back as the HTTP reply. Reading a
//! tournament needs no hop: every change is stored, and the room lists are shared.

use std::sync::Arc;

use damka_protocol::{ErrorCode, Player};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::Cluster;
use crate::error::AppError;
use crate::tournament::Command;

/// How long an action waits for the tournament's node to answer.
const ANSWER_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// A tournament action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Join (before the start).
    Join,
    /// Leave.
    Leave,
    /// Start now (the creator).
    Start,
}

impl Action {
    /// The actor's command for `player`.
    pub fn command(self, player: Player, reply: oneshot::Sender<Result<(), AppError>>) -> Command {
        match self {
            Action::Join => Command::Join { player, reply },
            Action::Leave => Command::Leave { player, reply },
            Action::Start => Command::Start { player, reply },
        }
    }
}

/// A request on `{prefix}.u.{id}`.
#[derive(Debug, Serialize, Deserialize)]
struct Ask {
    action: Action,
    player: Player,
}

/// The answer: `None` when done, else the error's code and message.
#[derive(Debug, Serialize, Deserialize)]
struct Answer {
    error: Option<(ErrorCode, String)>,
}

/// Answers the actions asked for tournament `id` on other nodes, until its actor ends.
pub async fn bridge(cluster: Arc<Cluster>, id: String, tx: mpsc::Sender<Command>) {
    let mut sub = match cluster
        .nats
        .subscribe(cluster.subject(&format!("u.{id}")))
        .await
    {
        Ok(sub) => sub,
        Err(e) => {
            tracing::error!(error = %e, "cannot subscribe to the tournament's subject");
            return;
        }
    };
    loop {
        let msg = tokio::select! {
            () = tx.closed() => break,
            msg = sub.next() => msg,
        };
        let Some(msg) = msg else { break };
        let Ok(ask) = serde_json::from_slice::<Ask>(&msg.payload) else {
            continue;
        };
        let (reply, answer) = oneshot::channel();
        let result = match tx.send(ask.action.command(ask.player, reply)).await {
            Ok(()) => answer
                .await
                .unwrap_or(Err(AppError::NotFound("tournament"))),
            Err(_) => Err(AppError::NotFound("tournament")),
        };
        let answer = Answer {
            error: result.err().map(|e| (e.code(), e.client_message())),
        };
        if let (Some(to), Ok(bytes)) = (msg.reply, serde_json::to_vec(&answer))
            && let Err(e) = cluster.nats.publish(to, bytes.into()).await
        {
            tracing::warn!(error = %e, "cannot answer a tournament action");
        }
    }
}

/// Asks the node that runs tournament `id` to do `action` for `player`.
///
/// Fails with the actor's own error, or with `storage_unavailable` (503: try again) when
/// no node answers (the tournament is being taken over).
pub async fn ask(
    cluster: &Cluster,
    id: &str,
    action: Action,
    player: Player,
) -> Result<(), AppError> {
    let bytes = serde_json::to_vec(&Ask { action, player })
        .map_err(|e| AppError::Internal(e.to_string()))?;
    let subject = cluster.subject(&format!("u.{id}"));
    // A tournament created a moment ago (its link being set up) or being taken over
    // answers soon: ask again for a while.
    let deadline = std::time::Instant::now() + ANSWER_WAIT;
    let reply = loop {
        match cluster
            .nats
            .request(subject.clone(), bytes.clone().into())
            .await
        {
            Ok(reply) => break reply,
            Err(_) if std::time::Instant::now() < deadline => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            Err(e) => {
                tracing::info!(error = %e, tournament = id, "no node answers for a tournament");
                return Err(AppError::game(
                    ErrorCode::StorageUnavailable,
                    "the tournament is moving between servers; try again in a moment",
                ));
            }
        }
    };
    let answer: Answer =
        serde_json::from_slice(&reply.payload).map_err(|e| AppError::Internal(e.to_string()))?;
    match answer.error {
        None => Ok(()),
        Some((code, message)) => Err(AppError::game(code, message)),
    }
}
