//! `damka`: the Damka server. Everything lives in the library; this parses the
//! configuration, sets up logging, runs the server and shuts it down on SIGINT/SIGTERM.

use std::io::IsTerminal;

use clap::Parser;
use damka_server::config::LogFormat;
use damka_server::{Config, start};
use tracing_subscriber::EnvFilter;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let config = Config::parse();
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    match config.log_format {
        // Colours only for a terminal: a log file or a journal gets plain text.
        LogFormat::Text => tracing_subscriber::fmt()
            .with_ansi(std::io::stdout().is_terminal())
            .with_env_filter(filter)
            .init(),
        LogFormat::Json => tracing_subscriber::fmt()
            .json()
            .with_env_filter(filter)
            .init(),
    }
    if let Some(damka_server::config::Command::Account { action }) = &config.command {
        return match damka_server::operator::account(&config, action).await {
            Ok(text) => {
                println!("{text}");
                std::process::ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("damka account: {e}");
                std::process::ExitCode::FAILURE
            }
        };
    }
    tracing::info!(?config, "starting");
    let server = match start(config).await {
        Ok(server) => server,
        Err(e) => {
            tracing::error!(error = %e, "cannot start");
            return std::process::ExitCode::FAILURE;
        }
    };
    println!("damka listening on http://{}", server.addr);
    tokio::select! {
        () = shutdown_signal() => {}
        () = server.stopping() => {}
    }
    let lost = server.lost_lease();
    server.shutdown().await;
    if lost {
        // A supervisor restarts it as a new node.
        return std::process::ExitCode::from(75);
    }
    std::process::ExitCode::SUCCESS
}

/// Completes on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for SIGTERM");
                std::future::pending::<()>().await;
            }
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
