//! What every HTTP response and every mutating request goes through: security headers,
//! the cross-site check, and the JSON error shape for the errors axum and tower-http
//! answer themselves (400, 405, 408, 413, 415).

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{
    CONTENT_SECURITY_POLICY, CONTENT_TYPE, ORIGIN, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use axum::http::{HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::app::AppState;
use crate::error::AppError;
use crate::ws::origin_allowed;

/// The client is plain ES modules, a stylesheet and SVG, all from the server itself;
/// sockets go back to the same host. Nothing inline, nothing framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self'; font-src 'self'; connect-src 'self'; object-src 'none'; \
     base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every response and gives the errors answered outside
/// the handlers the JSON error shape.
pub async fn headers(req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let plain_error = match res.status() {
        // Bad paths (e.g. invalid percent-encoding) and upgrades without their headers.
        StatusCode::BAD_REQUEST => Some(AppError::BadMessage("bad request".into())),
        StatusCode::METHOD_NOT_ALLOWED => Some(AppError::MethodNotAllowed),
        StatusCode::PAYLOAD_TOO_LARGE => Some(AppError::TooLarge),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => Some(AppError::NotJson),
        StatusCode::REQUEST_TIMEOUT => Some(AppError::BadMessage("request timed out".into())),
        _ => None,
    };
    let is_json = res
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if let Some(error) = plain_error
        && !is_json
    {
        let status = res.status();
        let allow = res.headers().get(axum::http::header::ALLOW).cloned();
        res = error.into_response();
        *res.status_mut() = status;
        if let Some(allow) = allow {
            res.headers_mut().insert(axum::http::header::ALLOW, allow);
        }
    }
    let h = res.headers_mut();
    h.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    h.insert(X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    res
}

/// Refuses a mutating API request from another site: a browser's cross-site form or
/// `fetch` is told apart by `Sec-Fetch-Site` (anything but `same-origin` or `none`,
/// unless its `Origin` is one of `--allowed-origins`) or by an `Origin` that is neither
/// the server's host nor an allowed origin; and the body must
/// be declared JSON, which a plain HTML form cannot do (and a cross-site `fetch` cannot
/// either without a CORS preflight, which this server never grants).
pub async fn same_site(State(state): State<AppState>, req: Request<Body>, next: Next) -> Response {
    let safe = matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS);
    if safe || !req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    let headers = req.headers();
    let fetch_site = headers
        .get("sec-fetch-site")
        .map(|v| v.to_str().unwrap_or("cross-site"));
    // An origin the operator listed is trusted whatever the browser calls it.
    let listed = headers
        .get(ORIGIN)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|o| {
            state
                .core
                .config
                .allowed_origins
                .iter()
                .any(|a| a.trim_end_matches('/').eq_ignore_ascii_case(o))
        });
    let foreign_fetch = fetch_site.is_some_and(|s| s != "same-origin" && s != "none");
    if (foreign_fetch && !listed) || !origin_allowed(headers, &state.core.config.allowed_origins) {
        tracing::info!(fetch_site = ?fetch_site, "refused a cross-site request");
        return AppError::CrossSite.into_response();
    }
    // Only bodies need declaring (forms can only send POST; a DELETE has none).
    let has_body = matches!(*req.method(), Method::POST | Method::PUT | Method::PATCH);
    let json = !has_body
        || headers
            .get(CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|m| m.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return AppError::NotJson.into_response();
    }
    next.run(req).await
}
