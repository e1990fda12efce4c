//! HTTP: the router and one file per resource.

pub mod account;
pub mod analysis;
pub mod assets;
pub mod ballots;
pub mod conditional;
pub mod featured;
pub mod games;
pub mod guard;
pub mod guest;
pub mod health;
pub mod lookup;
pub mod mygames;
pub mod pdn;
pub mod players;
pub mod push;
pub mod puzzles;
pub mod rooms;
pub mod tables;
pub mod tournaments;
pub mod variants;

use std::time::Duration;

use axum::extract::DefaultBodyLimit;
use axum::http::StatusCode;
use axum::routing::{any, get, post, put};
use axum::{Router, middleware};
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::timeout::TimeoutLayer;

use crate::app::AppState;
use crate::error::AppError;
use crate::ws;

/// Largest request body accepted (guest names and table options are tiny).
const BODY_LIMIT: usize = 4 * 1024;

/// Time limit for a plain HTTP request (WebSocket sessions are not affected: the upgrade
/// response is immediate).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

/// The whole application: API, sockets, metrics and the static web client.
pub fn app(state: AppState) -> Router {
    let router = Router::new()
        // The web client (assets.rs): the page, its versioned files, any other file.
        .route("/", get(assets::index))
        .route("/index.html", get(assets::index))
        .route("/v/{version}/{*path}", get(assets::versioned))
        .route("/api/guest", post(guest::create))
        .route("/api/me", get(account::me))
        .route("/api/me/games", get(mygames::my_games))
        .route("/api/account", post(account::create))
        .route("/api/account/password", post(account::change_password))
        .route("/api/account/language", put(account::set_language))
        .route(
            "/api/session",
            post(account::sign_in).delete(account::sign_out),
        )
        .route("/api/players/{username}", get(players::profile))
        .route("/api/players/{username}/games", get(players::games))
        .route("/api/players/{username}/pdn", get(players::games_pdn))
        .route("/api/leaderboard/{variant}", get(players::leaderboard))
        .route("/api/variants", get(variants::list))
        .route("/api/ballots/{variant}", get(ballots::list))
        .route("/api/push/key", get(push::key))
        .route(
            "/api/push/subscribe",
            post(push::subscribe).delete(push::unsubscribe),
        )
        .route(
            "/api/push/settings",
            get(push::settings).put(push::set_settings),
        )
        .route("/api/featured", get(featured::list))
        .route("/api/puzzles", get(puzzles::counts))
        .route("/api/puzzles/next", get(puzzles::next))
        .route("/api/puzzles/daily", get(puzzles::daily))
        .route("/api/puzzles/streak", get(puzzles::streak))
        .route("/api/puzzles/{id}", get(puzzles::show))
        .route("/api/puzzles/{id}/move", post(puzzles::play))
        .route("/api/puzzles/{id}/result", post(puzzles::result))
        .route("/api/rooms", get(rooms::list))
        .route("/api/rooms/{room}", get(rooms::show))
        .route("/api/rooms/{room}/tables", post(rooms::create_table))
        .route("/api/rooms/{room}/games", get(games::recent))
        .route(
            "/api/rooms/{room}/tournaments",
            get(tournaments::list).post(tournaments::create),
        )
        .route("/api/tournaments/{id}", get(tournaments::show))
        .route("/api/tournaments/{id}/join", post(tournaments::join))
        .route("/api/tournaments/{id}/leave", post(tournaments::leave))
        .route("/api/tournaments/{id}/start", post(tournaments::start))
        .route("/api/tables/{id}", get(tables::show))
        .route("/api/games/{id}", get(games::show))
        .route("/api/games/{id}/pdn", get(games::pdn))
        .route(
            "/api/games/{id}/analysis",
            get(analysis::show).post(analysis::request),
        )
        .route("/api/games/{id}/conditional", post(conditional::set))
        .route("/api/games/{id}/mistakes", get(analysis::mistakes))
        .route(
            "/api/games/{id}/mistakes/{ply}",
            post(analysis::try_instead),
        )
        .route("/api/analyse", get(analysis::position))
        .route(
            "/api/analyse/pdn",
            post(pdn::replay).layer(DefaultBodyLimit::max(pdn::PDN_BODY_LIMIT)),
        )
        .route("/api/{*rest}", any(api_not_found))
        .route("/healthz", get(health::healthz))
        .route("/readyz", get(health::readyz))
        .route("/ws/rooms/{room}", get(ws::room_socket::upgrade))
        .route("/ws/tables/{id}", get(ws::table_socket::upgrade));
    // With a separate metrics address, the public port does not serve them.
    let router = if state.core.config.metrics_bind.is_none() {
        router.route("/metrics", get(health::metrics))
    } else {
        router
    };
    router
        .fallback(assets::file)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        // gzip or brotli, as the browser asks, for the client's files and the API's
        // JSON alike (not for sockets, images or tiny bodies: the default predicate). A
        // middle quality: the files are compressed at every first visit, and level 5
        // gets most of the gain (brotli's 11 is many times slower for a few per cent).
        .layer(
            CompressionLayer::new()
                .gzip(true)
                .br(true)
                .quality(CompressionLevel::Precise(5)),
        )
        .layer(middleware::from_fn_with_state(
            state.clone(),
            guard::same_site,
        ))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            REQUEST_TIMEOUT,
        ))
        .layer(middleware::from_fn(guard::headers))
        .with_state(state)
}

/// The app of the separate metrics address (`--metrics-bind`): `/metrics` only.
pub fn metrics_app(state: AppState) -> Router {
    Router::new()
        .route("/metrics", get(health::metrics))
        .route("/healthz", get(health::healthz))
        .fallback(api_not_found)
        .layer(middleware::from_fn(guard::headers))
        .with_state(state)
}

async fn api_not_found() -> AppError {
    AppError::NotFound("resource")
}
