//! The HTTP accept loop: hyper's HTTP/1 connections with a header-read timeout (which
//! `axum::serve` does not set: a client trickling its headers would hold a connection and
//! a task forever), `TCP_NODELAY`, and graceful shutdown.

use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;

/// Pause after a failed `accept` (e.g. out of file descriptors), so the loop does not spin.
const ACCEPT_BACKOFF: Duration = Duration::from_millis(100);

/// Serves `app` on `listener` until `shutdown`; then stops accepting, lets the requests in
/// progress finish, and returns when their connections have closed.
///
/// A connection whose request headers are not complete within `header_timeout` is closed.
/// Upgraded connections (WebSockets) are no longer the server's once upgraded: their
/// sessions watch `shutdown` themselves.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    shutdown: CancellationToken,
    header_timeout: Duration,
) {
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout);
    // The connections in progress, to wait for them at shutdown.
    let connections = TaskTracker::new();
    loop {
        let (tcp, peer) = tokio::select! {
            () = shutdown.cancelled() => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "accept failed");
                    tokio::time::sleep(ACCEPT_BACKOFF).await;
                    continue;
                }
            },
        };
        // Moves are tiny frames that must leave at once: no Nagle delay.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::warn!(error = %e, "cannot set TCP_NODELAY");
        }
        // The peer's address, for the per-address limits (`ConnectInfo`).
        let service = TowerToHyperService::new(app.clone().map_request(
            move |mut req: axum::http::Request<hyper::body::Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                req
            },
        ));
        let conn = http
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        let shutdown = shutdown.clone();
        connections.spawn(async move {
            let mut conn = std::pin::pin!(conn);
            let result = tokio::select! {
                result = conn.as_mut() => result,
                () = shutdown.cancelled() => {
                    // Finishes the request in progress, then closes.
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
            };
            // Clients that go away or time out end here: routine, not worth a warning.
            if let Err(e) = result {
                tracing::debug!(error = %e, "connection ended with an error");
            }
        });
    }
    drop(listener);
    connections.close();
    connections.wait().await;
}
