//! Fair-play benchmark of the computer opponent (not a test): many games against the
//! computer at once on the real `damka` binary, each guest moving at once with a random
//! legal move, and the computer on a real clock. Reports how the games ended and, above
//! all, how many the computer lost on time (the goal: none), with the computer's time per
//! move.
//!
//! ```text
//! cargo bench -p damka-server --bench bots
//! cargo bench -p damka-server --bench bots -- --games 100 --level 3 --minutes 1
//! ```
//!
//! Flags: `--games` (100), `--level` (3), `--minutes` (1), `--increment` (0, seconds),
//! `--variant` (`russian`; a room id of the default rooms).

#[path = "load/server.rs"]
#[allow(dead_code)]
mod server;
#[path = "load/table.rs"]
#[allow(dead_code)]
mod table;

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};
use server::{Db, Server, http};
use table::{connect, recv_t, send};

struct Settings {
    games: usize,
    level: u8,
    minutes: u32,
    increment: u32,
    variant: String,
}

fn settings() -> Settings {
    let mut s = Settings {
        games: 100,
        level: 3,
        minutes: 1,
        increment: 0,
        variant: "russian".into(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => s.games = value.parse().unwrap_or(s.games),
            "--level" => s.level = value.parse().unwrap_or(s.level),
            "--minutes" => s.minutes = value.parse().unwrap_or(s.minutes),
            "--increment" => s.increment = value.parse().unwrap_or(s.increment),
            "--variant" => s.variant = value,
            // `cargo bench` passes `--bench`.
            _ => {
                i += 1;
                continue;
            }
        }
        i += 2;
    }
    s
}

/// One game: how it ended, who won, and the computer's think times (ms, from the guest's
/// move event to the computer's).
struct GameEnd {
    result: String,
    reason: String,
    bot_side: String,
    bot_ms: Vec<u64>,
}

async fn one_game(addr: String, s: &Settings, n: usize) -> Result<GameEnd, String> {
    let guest = http(
        &addr,
        "POST",
        "/api/guest",
        None,
        Some(&json!({"name": format!("B{n}")})),
    )
    .await?;
    let cookie = guest.cookie.clone().ok_or("no cookie")?;
    let seat = if n.is_multiple_of(2) {
        "white"
    } else {
        "black"
    };
    let bot_side = if seat == "white" { "black" } else { "white" };
    let table = http(
        &addr,
        "POST",
        &format!("/api/rooms/{}/tables", s.variant),
        Some(&cookie),
        Some(
            &json!({"minutes": s.minutes, "increment": s.increment, "seat": seat, "bot": s.level}),
        ),
    )
    .await?
    .json()?;
    let id = table["id"].as_str().ok_or("no table id")?.to_owned();
    let mut ws = connect(&addr, &format!("/ws/tables/{id}"), Some(&cookie)).await?;
    recv_t(&mut ws, "state").await?;
    send(&mut ws, json!({"t": "start"})).await?;
    let mut last = recv_t(&mut ws, "game_started").await?;
    let mut rng = n as u64 * 0x9E37_79B9_7F4A_7C15 + 1;
    let mut ply = 0u64;
    let mut asked = Instant::now();
    let mut bot_ms = Vec::new();
    loop {
        let legal = last["legal"].as_array().cloned().unwrap_or_default();
        if last["turn"] == seat && !legal.is_empty() {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = legal[(rng % legal.len() as u64) as usize].clone();
            send(&mut ws, json!({"t": "move", "move": mv, "ply": ply + 1})).await?;
        }
        let ev: Value = loop {
            let ev = table::recv_any(&mut ws).await?;
            match ev["t"].as_str() {
                Some("move" | "game_over") => break ev,
                Some("error") => return Err(format!("refused: {ev}")),
                _ => {}
            }
        };
        if ev["t"] == "game_over" {
            return Ok(GameEnd {
                result: ev["result"].as_str().unwrap_or("none").to_owned(),
                reason: ev["reason"].as_str().unwrap_or("?").to_owned(),
                bot_side: bot_side.to_owned(),
                bot_ms,
            });
        }
        ply = ev["ply"].as_u64().unwrap_or(ply + 1);
        if ev["by"] == bot_side {
            bot_ms.push(u64::try_from(asked.elapsed().as_millis()).unwrap_or(u64::MAX));
        } else {
            asked = Instant::now();
        }
        last = ev;
    }
}

fn main() {
    let s = settings();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let db = Db::sqlite().expect("database");
        let server = Server::spawn(&db.url()).expect("server");
        let started = Instant::now();
        let s = std::sync::Arc::new(s);
        let mut tasks = Vec::new();
        for n in 0..s.games {
            let (addr, s) = (server.addr.clone(), s.clone());
            tasks.push(tokio::spawn(async move { one_game(addr, &s, n).await }));
        }
        let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
        let (mut bot_won, mut bot_lost, mut draws, mut bot_flagged, mut failed) = (0, 0, 0, 0, 0);
        let mut think: Vec<u64> = Vec::new();
        for t in tasks {
            match t.await {
                Ok(Ok(end)) => {
                    *reasons.entry(end.reason.clone()).or_default() += 1;
                    if end.result == "draw" {
                        draws += 1;
                    } else if end.result == end.bot_side {
                        bot_won += 1;
                    } else if end.result != "none" {
                        bot_lost += 1;
                        if end.reason == "timeout" {
                            bot_flagged += 1;
                        }
                    }
                    think.extend(end.bot_ms);
                }
                Ok(Err(e)) => {
                    failed += 1;
                    eprintln!("a game failed: {e}");
                }
                Err(e) => {
                    failed += 1;
                    eprintln!("a game task failed: {e}");
                }
            }
        }
        let secs = started.elapsed().as_secs_f64();
        think.sort_unstable();
        let pct = |p: f64| think.get(((think.len() as f64 - 1.0) * p) as usize).copied().unwrap_or(0);
        println!(
            "{} games against the computer (level {}, {}+{}, {}) at once: {secs:.1} s",
            s.games, s.level, s.minutes, s.increment, s.variant
        );
        println!("computer won {bot_won}, lost {bot_lost} (of which on time: {bot_flagged}), drawn {draws}, failed {failed}");
        println!("endings: {reasons:?}");
        println!(
            "computer's reply (guest's move event to the computer's move, queue included): {} moves, p50 {} ms, p90 {} ms, p99 {} ms, max {} ms",
            think.len(),
            pct(0.5),
            pct(0.9),
            pct(0.99),
            think.last().copied().unwrap_or(0)
        );
        let cpu = server.cpu_time();
        println!("server CPU {:.1} s over {secs:.1} s ({:.0}% of one core)", cpu.as_secs_f64(), 100.0 * cpu.as_secs_f64() / secs);
        server.stop().await;
        db.remove().await;
    });
}
