//! The server's integration tests: one binary (one link after a change) with a module per
//! area. Each test starts a real server on 127.0.0.1:0 (or the `damka` binary as a child
//! process) against a temporary SQLite file or its own PostgreSQL database.

#![allow(clippy::unwrap_used, clippy::expect_used)]

#[macro_use]
mod common;
mod damka;

mod abuse;
mod accounts;
mod accounts_restart;
mod address_limits;
mod analysis;
mod analysis_board;
mod ballots;
mod chat;
mod claims_takeback;
mod cluster;
mod cluster_lease;
mod computer;
mod correspondence;
mod endgames;
mod featured;
mod game_endings;
mod group_commit;
mod hardening;
mod http_api;
mod invitations;
mod kill_restart;
mod layers;
mod log_forging;
mod lookups;
mod micro_match;
mod my_games;
mod offer_limits;
mod people;
mod push;
mod puzzles;
mod rating_farming;
mod ratings_store;
mod reserved_names;
mod rooms_and_lifecycle;
mod session_end;
mod sign_in_limits;
mod storage_faults;
mod table_protocol;
mod tournaments;
