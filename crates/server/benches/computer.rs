//! Fair-play benchmark of the computer opponent (not a test): many games against the
//! computer at once on the real `damka` binary, each guest moving at once with a random
//! legal move, and the computer on a real clock. Reports how the games ended and, above
//! all, how many the computer lost on time (the goal: none), with the computer's time per
//! move.
//!
//! ```text
//! cargo bench -p damka-server --bench computer
//! cargo bench -p damka-server --bench computer -- --games 100 --level 3 --minutes 1
//! ```
//!
//! Flags: `--games` (100), `--level` (3), `--minutes` (1), `--increment` (0, seconds),
//! `--variant` (`russian`; a room id of the default rooms), `--human-tables` (20): tables
//! of two guests playing a move per second each, timed from send to `ack`, first alone
//! (10 s, the baseline) and then while the computer games run, so the report shows what
//! the computer's searches cost the people playing each other.

#[path = "load/server.rs"]
#[allow(dead_code)]
mod server;
#[path = "load/table.rs"]
mod table;

use std::collections::BTreeMap;
use std::time::Instant;

use serde_json::{Value, json};
use server::{Db, Server, http};
use table::{Player, TableStats, connect, recv_t, send};

/// Two guests seated at a new table (the game starts with the driver).
async fn human_table(addr: &str, i: usize) -> Result<[Player; 2], String> {
    let mut players = Vec::new();
    let mut cookies = Vec::new();
    for side in ["W", "C"] {
        let g = http(
            addr,
            "POST",
            "/api/guest",
            None,
            Some(&json!({"name": format!("{side}{i}")})),
        )
        .await?;
        cookies.push((
            g.json()?["id"].as_str().unwrap_or_default().to_owned(),
            g.cookie.ok_or("no cookie")?,
        ));
    }
    let t = http(
        addr,
        "POST",
        "/api/rooms/russian/tables",
        Some(&cookies[0].1),
        Some(&json!({"minutes": 15, "increment": 0, "seat": "white"})),
    )
    .await?
    .json()?;
    let path = format!("/ws/tables/{}", t["id"].as_str().ok_or("no table id")?);
    for (n, (id, cookie)) in cookies.into_iter().enumerate() {
        let mut ws = connect(addr, &path, Some(&cookie)).await?;
        recv_t(&mut ws, "state").await?;
        if n == 1 {
            send(&mut ws, json!({"t": "sit", "seat": "black"})).await?;
            recv_t(&mut ws, "seated").await?;
        }
        players.push(Player { id, ws });
    }
    let b = players.pop().ok_or("no player")?;
    let a = players.pop().ok_or("no player")?;
    Ok([a, b])
}

/// Plays the human tables (a move per second per player) until `until`; all their
/// round trips.
async fn drive_humans(tables: Vec<[Player; 2]>, until: Instant) -> TableStats {
    let gap = std::time::Duration::from_millis(500);
    let tasks: Vec<_> = tables
        .into_iter()
        .enumerate()
        .map(|(i, p)| tokio::spawn(table::drive(p, until, gap, i as u64 + 7)))
        .collect();
    let mut all = TableStats::default();
    for t in tasks {
        if let Ok(t) = t.await {
            all.rtt_us.extend(t.rtt_us);
            if let Some(e) = t.error {
                eprintln!("a human table failed: {e}");
            }
        }
    }
    all.rtt_us.sort_unstable();
    all
}

fn rtt_line(what: &str, t: &TableStats) -> String {
    let pct = |p: f64| {
        t.rtt_us
            .get(((t.rtt_us.len().max(1) - 1) as f64 * p) as usize)
            .map_or(0.0, |&us| f64::from(us) / 1000.0)
    };
    format!(
        "{what}: {} moves, send -> ack p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        t.rtt_us.len(),
        pct(0.5),
        pct(0.99),
        pct(1.0)
    )
}

struct Settings {
    games: usize,
    level: u8,
    minutes: u32,
    increment: u32,
    variant: String,
    human_tables: usize,
}

fn settings() -> Settings {
    let mut s = Settings {
        games: 100,
        level: 3,
        minutes: 1,
        increment: 0,
        variant: "russian".into(),
        human_tables: 20,
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
            "--human-tables" => s.human_tables = value.parse().unwrap_or(s.human_tables),
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
        let mut humans = Vec::new();
        for i in 0..2 * s.human_tables {
            humans.push(human_table(&server.addr, i).await.expect("human table"));
        }
        let loaded_humans = humans.split_off(s.human_tables);
        let baseline = drive_humans(humans, Instant::now() + std::time::Duration::from_secs(10)).await;
        let started = Instant::now();
        let s = std::sync::Arc::new(s);
        let mut tasks = Vec::new();
        for n in 0..s.games {
            let (addr, s) = (server.addr.clone(), s.clone());
            tasks.push(tokio::spawn(async move { one_game(addr, &s, n).await }));
        }
        // The people play while the computer games run (about as long as a game lasts).
        let secs_of_play = u64::from(s.minutes) * 60 / 2;
        let humans_task = tokio::spawn(drive_humans(
            loaded_humans,
            Instant::now() + std::time::Duration::from_secs(secs_of_play.max(10)),
        ));
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
        let loaded = humans_task.await.unwrap_or_default();
        println!("{}", rtt_line("people alone (baseline)", &baseline));
        println!("{}", rtt_line("people during the computer games", &loaded));
        let cpu = server.cpu_time();
        println!("server CPU {:.1} s over {secs:.1} s ({:.0}% of one core)", cpu.as_secs_f64(), 100.0 * cpu.as_secs_f64() / secs);
        server.stop().await;
        db.remove().await;
    });
}
