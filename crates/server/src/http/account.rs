//! Accounts over HTTP: `POST /api/account` (a guest becomes an account),
//! `POST /api/session` and `DELETE /api/session` (signing in and out),
//! `POST /api/account/password` and `GET /api/me`. Profiles and leaderboards are in
//! [`super::players`].
//!
//! Nothing secret is logged: passwords never leave the request (their `Debug` hides them),
//! hashes and tokens are stored hashed and never printed.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Query, State};
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use damka_protocol::account::{
    AccountInfo, Credentials, LANGUAGES, LanguageChoice, Me, PasswordChange,
};
use damka_protocol::{ErrorCode, Player};
use damka_store::{AccountWrite, NewAccount, Secret, StoreError};
use draughts::Variant;
use serde::Deserialize;

use crate::accounts::{self, bad_credentials, retry_after};
use crate::app::AppState;
use crate::error::{AppError, AppResult};
use crate::session::{ClientIp, Guest, guest_of, session_token, set_cookie, token_hash};
use crate::{random, ratings, time};

fn body<T>(json: Result<Json<T>, JsonRejection>) -> AppResult<T> {
    json.map(|Json(t)| t)
        .map_err(|e| AppError::BadMessage(e.body_text()))
}

/// What `GET /api/me` says about a player: an account with its ratings in every variant
/// (1500? where it has not played rated), a guest with none.
///
/// Fails on a database error.
async fn me_of(state: &AppState, player: &Player) -> AppResult<Me> {
    let mut ratings = BTreeMap::new();
    let account = if player.account {
        let now = time::unix_ms();
        let stored = state.core.store.ratings_of(&player.id).await?;
        for v in Variant::ALL {
            let w = stored
                .iter()
                .find(|r| r.variant == v.name())
                .map_or_else(ratings::new_rating, |r| ratings::wire(r, now));
            ratings.insert(v.name().to_owned(), w);
        }
        let language = state
            .core
            .store
            .account_of(&player.id)
            .await?
            .and_then(|a| a.language);
        Some(AccountInfo {
            username: player.name.clone(),
            language,
        })
    } else {
        None
    };
    Ok(Me {
        id: player.id.clone(),
        name: player.name.clone(),
        account,
        ratings,
    })
}

/// The session's player, with its account and ratings.
pub async fn me(State(state): State<AppState>, Guest(player): Guest) -> AppResult<Json<Me>> {
    Ok(Json(me_of(&state, &player).await?))
}

/// A response with a fresh session cookie.
fn with_cookie(state: &AppState, status: StatusCode, token: &str, me: Me) -> Response {
    (
        status,
        [(
            SET_COOKIE,
            set_cookie(token, state.core.config.secure_cookie),
        )],
        Json(me),
    )
        .into_response()
}

/// `POST /api/account`: the session's guest becomes an account with the same id (its
/// games, seats and tournaments kept) and a fresh session; its name becomes the
/// username.
pub async fn create(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(guest): Guest,
    headers: HeaderMap,
    json: Result<Json<Credentials>, JsonRejection>,
) -> AppResult<Response> {
    let req = body(json)?;
    if guest.account {
        return Err(AppError::game(
            ErrorCode::AlreadyAccount,
            "you already have an account",
        ));
    }
    accounts::check_username(&req.username)?;
    accounts::check_password(&req.password, &req.username)?;
    let limits = &state.core.limits;
    limits
        .accounts_from
        .take_or_wait(ip, accounts::ACCOUNTS_BURST, accounts::ACCOUNTS_PER_SECOND)
        .map_err(retry_after)?;
    let key = accounts::username_key(&req.username);
    let taken = || AppError::game(ErrorCode::UsernameTaken, "that username is taken");
    if state.core.store.account_by_key(&key).await?.is_some() {
        return Err(taken());
    }
    let hash = state.core.passwords.hash(&req.password, ip).await?;
    let token = random::session_token();
    let write = AccountWrite::Create(NewAccount {
        player_id: guest.id.clone(),
        username: req.username.clone(),
        username_key: key,
        password_hash: Secret(hash),
        session: Secret(token_hash(&token)),
        now: time::unix_ms(),
    });
    match state.core.store.account_write(write).await {
        Ok(()) => {}
        // Another request took the name (or made this guest an account) meanwhile.
        Err(StoreError::Conflict(_)) => {
            return Err(match state.core.store.account_of(&guest.id).await? {
                Some(_) => AppError::game(ErrorCode::AlreadyAccount, "you already have an account"),
                None => taken(),
            });
        }
        Err(e) => return Err(e.into()),
    }
    // The guest's sockets go on as the account's (a game in progress is not
    // interrupted), and end with the account's session.
    if let Some(old) = session_token(&headers) {
        state
            .core
            .sessions
            .rekey(&token_hash(&old), &token_hash(&token));
    }
    tracing::info!(player = %guest.id, "a guest became an account");
    let player = Player::account(guest.id, req.username);
    let me = me_of(&state, &player).await?;
    Ok(with_cookie(&state, StatusCode::CREATED, &token, me))
}

/// `POST /api/session`: signs in with a fresh session (never the request's own token).
/// A wrong password and an unknown (or disabled) username get the same `401` after the
/// same work. The limits that cost nothing (per address, per username and address, per
/// username) are taken before the check, so checks at once cannot overrun them; the
/// check itself waits at the password gate or is refused at once (`429`).
pub async fn sign_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    json: Result<Json<Credentials>, JsonRejection>,
) -> AppResult<Response> {
    let req = body(json)?;
    let key = accounts::username_key(&req.username);
    let attempt = accounts::admit_check(&state.core.limits, ip, &key)?;
    let account = match state.core.store.account_by_key(&key).await {
        Ok(account) => account.filter(|a| !a.disabled),
        Err(e) => {
            attempt.not_run();
            return Err(e.into());
        }
    };
    let checked = state
        .core
        .passwords
        .verify(
            &req.password,
            account.as_ref().map(|a| a.password_hash.expose()),
            ip,
        )
        .await;
    let ok = match checked {
        Ok(ok) => ok,
        Err(e) => {
            attempt.not_run();
            return Err(e);
        }
    };
    state.core.metrics.password_checks.inc();
    let Some(account) = account.filter(|_| ok) else {
        // The tokens taken stay spent: a failure counts.
        drop(attempt);
        state.core.metrics.sign_ins_refused.inc();
        tracing::info!(%ip, "sign-in refused");
        return Err(bad_credentials());
    };
    attempt.succeeded();
    let token = random::session_token();
    state
        .core
        .store
        .account_write(AccountWrite::Session {
            token_hash: Secret(token_hash(&token)),
            player_id: account.player_id.clone(),
            now: time::unix_ms(),
        })
        .await?;
    tracing::info!(player = %account.player_id, "signed in");
    let player = Player::account(account.player_id, account.username);
    let me = me_of(&state, &player).await?;
    Ok(with_cookie(&state, StatusCode::OK, &token, me))
}

/// Query of `DELETE /api/session`.
#[derive(Deserialize)]
pub struct SignOutQuery {
    /// End every session of the account.
    #[serde(default)]
    all: bool,
}

/// `DELETE /api/session`: this session ends on the server (its token no longer works
/// anywhere) and the cookie is cleared; `?all=true` ends every session of the account.
pub async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<SignOutQuery>, QueryRejection>,
) -> AppResult<Response> {
    let Query(q) = query.map_err(|e| AppError::BadMessage(e.body_text()))?;
    let player = guest_of(&state.core, &headers)
        .await?
        .ok_or(AppError::Unauthorized)?;
    let token = session_token(&headers).ok_or(AppError::Unauthorized)?;
    let hash = Secret(token_hash(&token));
    let write = if q.all && player.account {
        AccountWrite::EndSessions {
            player_id: player.id.clone(),
            keep: None,
        }
    } else {
        AccountWrite::EndSession {
            token_hash: hash.clone(),
        }
    };
    state.core.store.account_write(write).await?;
    // The session's sockets (every tab of this browser; with `all`, every device's)
    // close at once: none of them acts for the player any more.
    let closed = if q.all && player.account {
        state.core.sessions.end_player(&player.id, None)
    } else {
        state.core.sessions.end(hash.expose())
    };
    tracing::info!(player = %player.id, all = q.all, closed, "signed out");
    let secure = if state.core.config.secure_cookie {
        "; Secure"
    } else {
        ""
    };
    let clear = format!(
        "{}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0{secure}",
        crate::session::COOKIE
    );
    Ok((StatusCode::NO_CONTENT, [(SET_COOKIE, clear)]).into_response())
}

/// `POST /api/account/password`: a new password, given the old one; every other session
/// of the account ends.
pub async fn change_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    headers: HeaderMap,
    json: Result<Json<PasswordChange>, JsonRejection>,
) -> AppResult<StatusCode> {
    let req = body(json)?;
    let account = match player.account {
        true => state.core.store.account_of(&player.id).await?,
        false => None,
    }
    .ok_or(AppError::Unauthorized)?;
    let key = accounts::username_key(&account.username);
    let attempt = accounts::admit_check(&state.core.limits, ip, &key)?;
    let checked = state
        .core
        .passwords
        .verify(&req.old, Some(account.password_hash.expose()), ip)
        .await;
    let ok = match checked {
        Ok(ok) => ok,
        Err(e) => {
            attempt.not_run();
            return Err(e);
        }
    };
    state.core.metrics.password_checks.inc();
    if !ok {
        return Err(bad_credentials());
    }
    attempt.succeeded();
    accounts::check_password(&req.new, &account.username)?;
    let hash = state.core.passwords.hash(&req.new, ip).await?;
    let keep = session_token(&headers).map(|t| Secret(token_hash(&t)));
    state
        .core
        .store
        .account_write(AccountWrite::Password {
            player_id: account.player_id.clone(),
            password_hash: Secret(hash),
            keep: keep.clone(),
        })
        .await?;
    // Every other session's sockets close now; this one's stay.
    state
        .core
        .sessions
        .end_player(&account.player_id, keep.as_ref().map(Secret::expose));
    tracing::info!(player = %account.player_id, "password changed; other sessions ended");
    Ok(StatusCode::NO_CONTENT)
}

/// Language choices an address may keep in a burst (a person trying the languages one
/// after another), then one every two seconds.
const LANGUAGE_BURST: f64 = 30.0;
const LANGUAGE_PER_SECOND: f64 = 0.5;

/// An account keeps the client language it chose (`204`), so that it follows it to every
/// browser it signs in from.
///
/// Fails with `401` for a guest, `400 bad_message` for a language the client does not
/// speak, `429` past the address's limit of language choices.
pub async fn set_language(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    Guest(player): Guest,
    json: Result<Json<LanguageChoice>, JsonRejection>,
) -> AppResult<StatusCode> {
    let choice = body(json)?;
    if !player.account {
        return Err(AppError::Unauthorized);
    }
    if let Some(lang) = &choice.language
        && !LANGUAGES.contains(&lang.as_str())
    {
        return Err(AppError::BadMessage(format!(
            "language must be one of {}",
            LANGUAGES.join(", ")
        )));
    }
    state
        .core
        .limits
        .language_changes
        .take_or_wait(ip, LANGUAGE_BURST, LANGUAGE_PER_SECOND)
        .map_err(retry_after)?;
    state
        .core
        .store
        .account_write(AccountWrite::Language {
            player_id: player.id,
            language: choice.language,
        })
        .await?;
    Ok(StatusCode::NO_CONTENT)
}
