//! The web client's files, served as they are in `static/` (no build step), compressed
//! (gzip or brotli, whichever the browser takes; `CompressionLayer` in [`super::app`])
//! and cached so that a page never runs a stale module after an upgrade:
//!
//! - `index.html` (at `/`) is rewritten as it is served: its stylesheet, script and icon
//!   point into `/v/{version}/…`, where `version` is a hash of every file's content. It is
//!   sent `Cache-Control: no-cache` with that version as its (weak) `ETag`, so a browser asks
//!   every time and mostly hears `304 Not Modified`.
//! - `/v/{version}/{path}` serves `static/{path}` with `Cache-Control: public,
//!   max-age=31536000, immutable`: the modules' relative imports stay under the same
//!   prefix, so a whole version is fetched once and then never asked for again. An
//!   upgrade changes the version, so the next `index.html` points at new URLs. A
//!   request for another version (a page open across an upgrade, or another node of a
//!   cluster) gets the current file, `no-cache`, never stored as that version's.
//! - Any other file keeps its own URL with `Cache-Control: no-cache` (revalidated by
//!   `Last-Modified`).
//!
//! The version ([`crate::assets::Assets`]) is computed at start-up and again whenever a
//! file's size or modification time changes (checked when `index.html` is asked for), so
//! editing `static/` while the server runs works as before.

use axum::body::Body;
use axum::extract::{Path as UrlPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::AppState;
use crate::assets::{IMMUTABLE, REVALIDATE, rewrite_index};

/// `GET /` and `GET /index.html`: the page, pointing at the current version.
pub async fn index(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let assets = state.assets.clone();
    let Ok((version, html)) = tokio::task::spawn_blocking(move || {
        let version = assets.current();
        std::fs::read_to_string(assets.dir().join("index.html")).map(|html| (version, html))
    })
    .await
    .unwrap_or_else(|e| Err(std::io::Error::other(e))) else {
        return StatusCode::NOT_FOUND.into_response();
    };
    // Weak: the same version is sent plain, gzipped or brotli-compressed.
    let etag = format!("W/\"{version}\"");
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(',')
                .map(|t| t.trim().trim_start_matches("W/"))
                .any(|t| t == &etag[2..] || t == "*")
        });
    let mut res = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else {
        (
            [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
            rewrite_index(&html, &version),
        )
            .into_response()
    };
    let h = res.headers_mut();
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
    if let Ok(v) = HeaderValue::from_str(&etag) {
        h.insert(header::ETAG, v);
    }
    res
}

/// `GET /v/{version}/{path}`: a file of the client, immutable under the current version.
pub async fn versioned(
    State(state): State<AppState>,
    UrlPath((version, path)): UrlPath<(String, String)>,
    req: Request,
) -> Response {
    let current = version == state.assets.known();
    let (mut parts, body) = req.into_parts();
    let Ok(uri) = format!("/{path}").parse() else {
        return StatusCode::NOT_FOUND.into_response();
    };
    parts.uri = uri;
    let res = serve(&state, Request::from_parts(parts, body)).await;
    with_cache(res, if current { IMMUTABLE } else { REVALIDATE })
}

/// Any other static file, revalidated each time.
pub async fn file(State(state): State<AppState>, req: Request) -> Response {
    let res = serve(&state, req).await;
    with_cache(res, REVALIDATE)
}

async fn serve(state: &AppState, req: Request) -> Response {
    let dir = ServeDir::new(state.assets.dir()).append_index_html_on_directories(true);
    match dir.oneshot(req).await {
        Ok(res) => res.map(Body::new),
        Err(never) => match never {},
    }
}

/// Sets `Cache-Control` on a successful (or not modified) answer.
fn with_cache(mut res: Response, value: &'static str) -> Response {
    if res.status().is_success() || res.status() == StatusCode::NOT_MODIFIED {
        res.headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    res
}
