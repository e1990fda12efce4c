//! `/healthz`, `/readyz` and `/metrics`.

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::IntoResponse;

use crate::app::AppState;

/// Alive.
pub async fn healthz() -> &'static str {
    "ok"
}

/// Ready: the database answers and the server is not shutting down.
pub async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if state.core.shutdown.is_cancelled() {
        return (StatusCode::SERVICE_UNAVAILABLE, "shutting down");
    }
    if let Some(cluster) = &state.cluster {
        if cluster.is_leaving() {
            return (StatusCode::SERVICE_UNAVAILABLE, "leaving the cluster");
        }
        if !cluster.nats_connected() {
            return (StatusCode::SERVICE_UNAVAILABLE, "NATS unavailable");
        }
    }
    match state.core.store.ping().await {
        Ok(()) => (StatusCode::OK, "ready"),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable")
        }
    }
}

/// Prometheus text format.
pub async fn metrics(State(state): State<AppState>) -> impl IntoResponse {
    (
        [(CONTENT_TYPE, "text/plain; version=0.0.4; charset=utf-8")],
        {
            if let Some(cluster) = &state.cluster {
                cluster.refresh_metrics();
            }
            crate::metrics::encode(&state.registry)
        },
    )
}
