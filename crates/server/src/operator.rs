//! `damka account ...`: the operator's commands on accounts, run against the same
//! database as the server (beside a running server too: every change is one write).
//! There is no e-mail, so a forgotten password is reset here. A command that ends
//! sessions (reset, disable, sign-out) ends them in the database; a running server finds
//! them gone at its next check of its sockets' sessions (`--session-check-secs`) and
//! closes those sockets.

use std::io::BufRead;

use damka_store::{AccountWrite, Secret, Store, StoreOptions};

use crate::config::{AccountAction, Config};

/// Runs an account command; returns what to print.
///
/// Fails with a message: no such account, a password that breaks the rules, or a
/// database error.
pub async fn account(config: &Config, action: &AccountAction) -> Result<String, String> {
    let store = Store::connect_with(&config.database_url, StoreOptions::default())
        .await
        .map_err(|e| format!("cannot open the database: {e}"))?;
    let result = run(&store, action).await;
    store.close().await;
    result
}

async fn run(store: &Store, action: &AccountAction) -> Result<String, String> {
    let username = match action {
        AccountAction::ResetPassword { username, .. }
        | AccountAction::Disable { username }
        | AccountAction::Enable { username }
        | AccountAction::Show { username }
        | AccountAction::SignOut { username }
        | AccountAction::Void { username } => username,
        AccountAction::Pairs { days, min_games } => {
            return crate::operator_fair_play::pairs(store, *days, *min_games).await;
        }
    };
    let account = store
        .account_by_key(&crate::accounts::username_key(username))
        .await
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no account {username:?}"))?;
    let id = account.player_id.clone();
    match action {
        AccountAction::ResetPassword { generate, .. } => {
            let password = if *generate {
                crate::random::token_base36(16)
            } else {
                let mut line = String::new();
                std::io::stdin()
                    .lock()
                    .read_line(&mut line)
                    .map_err(|e| format!("cannot read the password: {e}"))?;
                line.trim_end_matches(['\r', '\n']).to_owned()
            };
            crate::accounts::check_password(&password, &account.username)
                .map_err(|e| e.to_string())?;
            let operator = crate::limits::RateKey::new(std::net::Ipv4Addr::LOCALHOST.into(), 128);
            let hash = crate::accounts::Passwords::new(1, 0)
                .hash(&password, operator)
                .await
                .map_err(|e| e.to_string())?;
            store
                .account_write(AccountWrite::Password {
                    player_id: id,
                    password_hash: Secret(hash),
                    keep: None,
                })
                .await
                .map_err(|e| e.to_string())?;
            tracing::info!(username = %account.username, "password reset by the operator");
            Ok(if *generate {
                format!(
                    "new password of {}: {password}\nevery session of the account ended",
                    account.username
                )
            } else {
                format!(
                    "password of {} set; every session of the account ended",
                    account.username
                )
            })
        }
        AccountAction::Disable { .. } | AccountAction::Enable { .. } => {
            let disabled = matches!(action, AccountAction::Disable { .. });
            store
                .account_write(AccountWrite::Disable {
                    player_id: id,
                    disabled,
                })
                .await
                .map_err(|e| e.to_string())?;
            tracing::info!(username = %account.username, disabled, "account changed by the operator");
            Ok(if disabled {
                format!("{} disabled; every session ended", account.username)
            } else {
                format!("{} enabled", account.username)
            })
        }
        AccountAction::Void { .. } => {
            crate::operator_fair_play::void(store, &account.username, &id).await
        }
        AccountAction::Pairs { .. } => Err("not an account's command".into()),
        AccountAction::SignOut { .. } => {
            let sessions = store.session_count(&id).await.map_err(|e| e.to_string())?;
            store
                .account_write(AccountWrite::EndSessions {
                    player_id: id,
                    keep: None,
                })
                .await
                .map_err(|e| e.to_string())?;
            tracing::info!(username = %account.username, sessions, "signed out everywhere by the operator");
            Ok(format!(
                "{}: {sessions} sessions ended (a running server closes their sockets within --session-check-secs)",
                account.username
            ))
        }
        AccountAction::Show { .. } => {
            let sessions = store.session_count(&id).await.map_err(|e| e.to_string())?;
            Ok(format!(
                "username {}\nid {}\ncreated {}\ndisabled {}\nsessions {}",
                account.username,
                id,
                crate::time::rfc3339(account.created_at),
                account.disabled,
                sessions
            ))
        }
    }
}
