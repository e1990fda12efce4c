//! The bare relay: the floor of this design on this machine, run in the same job as
//! `damka` so that every figure can be read as a ratio against it.
//!
//! The same stack as the server (tokio's multi-threaded runtime, axum WebSockets with a
//! 4 KiB read buffer, no write buffer, `TCP_NODELAY`), one session task per socket and one
//! `broadcast` channel per table, and nothing else: no rules, no clocks, no storage, no
//! JSON. A text frame is echoed to its sender (the client counts the echo as the `ack`)
//! and then broadcast to every socket of its table, the sender included (the `move`
//! event), so a move costs the relay what it costs `damka` on the wire: one frame read,
//! three frames written.
//!
//! The bench starts its own executable with `--serve-relay ADDR` to get it: a process of
//! its own, whose CPU and memory are read from `/proc` exactly like `damka`'s.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::Response;
use axum::routing::get;
use axum::serve::ListenerExt;
use tokio::sync::broadcast;

/// Frames a table's channel holds for a slow socket (as `damka`'s socket queue, 64).
const TABLE_QUEUE: usize = 64;

/// The tables by id, each a channel every socket of the table listens to.
type Tables = Arc<Mutex<HashMap<String, broadcast::Sender<Utf8Bytes>>>>;

/// Serves the relay on `addr` until SIGTERM or Ctrl-C.
pub async fn serve(addr: &str) -> std::process::ExitCode {
    let listener = match tokio::net::TcpListener::bind(addr).await {
        Ok(l) => l,
        Err(e) => {
            eprintln!("relay: cannot bind {addr}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let listener = listener.tap_io(|tcp| {
        // As the server's accept loop: tiny frames leave at once.
        if let Err(e) = tcp.set_nodelay(true) {
            eprintln!("relay: TCP_NODELAY: {e}");
        }
    });
    let tables: Tables = Arc::default();
    let app = Router::new()
        .route("/ws/relay/{table}", get(upgrade))
        .with_state(tables);
    println!("relay listening on http://{addr}");
    let stop = async {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => return std::future::pending().await,
            };
        tokio::select! {
            _ = term.recv() => {}
            _ = tokio::signal::ctrl_c() => {}
        }
    };
    tokio::select! {
        result = axum::serve(listener, app) => {
            if let Err(e) = result {
                eprintln!("relay: {e}");
                return std::process::ExitCode::FAILURE;
            }
        }
        () = stop => {}
    }
    std::process::ExitCode::SUCCESS
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(tables): State<Tables>,
    Path(table): Path<String>,
) -> Response {
    let tx = {
        let mut map = tables.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(table)
            .or_insert_with(|| broadcast::channel(TABLE_QUEUE).0)
            .clone()
    };
    // The server's buffer policy (see `damka_server::ws::limit`), with a 4 KiB read buffer.
    ws.max_message_size(4096)
        .max_frame_size(4096)
        .read_buffer_size(4096)
        .write_buffer_size(0)
        .max_write_buffer_size(1024 * 1024)
        .on_upgrade(move |socket| session(socket, tx))
}

/// One socket: echo what it sends (the ack), broadcast it to the table, and write out
/// what the table broadcasts.
async fn session(mut socket: WebSocket, table: broadcast::Sender<Utf8Bytes>) {
    let mut rx = table.subscribe();
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    if socket.send(Message::Text(text.clone())).await.is_err() {
                        break;
                    }
                    // Fails only when no socket listens, which cannot be while this one does.
                    let _ = table.send(text);
                }
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            },
            event = rx.recv() => match event {
                Ok(text) => {
                    if socket.send(Message::Text(text)).await.is_err() {
                        break;
                    }
                }
                // A slow socket skips what it missed, as `damka` skips a stale one.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
        }
    }
}
