//! Fills a database with many finished games (not a test, not a timing: a data set for
//! the lookups and sweep measurements of issue 34, `docs/performance.md`): by default
//! 300,000 Russian games over 20,000 guests who played and five accounts, `seed0` in
//! 100,000 of them and `seed1`..`seed4` in 5,000 each, every game the first 6 to 30 plies
//! of one of 64 random legal games (so a PDN replays), 5% of them aborted, ended over the
//! last year; and 20,000 idle guests (never played) last seen 60 days ago, as every other
//! guest, for the guest sweep to delete. Bulk SQL (multi-row `INSERT`s in big
//! transactions), on the schema a `damka` start made (run the server once on the database
//! first; the seeder does not migrate, so the same data can be measured under an older
//! binary).
//!
//! ```text
//! cargo bench -p damka-server --bench seed -- --database-url sqlite:///tmp/big/damka.db
//! cargo bench -p damka-server --bench seed -- --database-url postgres://postgres@127.0.0.1:5432/big \
//!     --games 300000 --guests 20000 --idle 20000 --heavy 100000
//! ```
//!
//! `--running N` adds N correspondence games in progress (seven days a move, six plies
//! played), for issue 40's measure of memory and start-up time with 100,000 open games.

use std::time::{Instant, SystemTime, UNIX_EPOCH};

use draughts::{Game, Position, Rules, Variant};
use sqlx::Connection;

/// Rows per `INSERT`.
const ROWS: usize = 500;
/// Rows per transaction.
const TX_ROWS: usize = 50_000;

struct Args {
    url: String,
    games: usize,
    guests: usize,
    idle: usize,
    heavy: usize,
    running: usize,
}

fn args() -> Args {
    let argv: Vec<String> = std::env::args().collect();
    let get = |name: &str| {
        argv.iter()
            .position(|a| a == name)
            .and_then(|i| argv.get(i + 1).cloned())
    };
    let num =
        |name: &str, default: usize| get(name).and_then(|v| v.parse().ok()).unwrap_or(default);
    Args {
        url: get("--database-url").unwrap_or_default(),
        games: num("--games", 300_000),
        guests: num("--guests", 20_000),
        idle: num("--idle", 20_000),
        heavy: num("--heavy", 100_000),
        running: num("--running", 0),
    }
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// 64 random legal Russian games of up to 30 plies: each ply's move text and FEN after.
fn lines() -> Vec<Vec<(String, String)>> {
    let rules = Rules::new(Variant::Russian);
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    (0..64)
        .map(|_| {
            let mut game = Game::new(Position::new(rules));
            let mut line = Vec::new();
            while line.len() < 30 && game.outcome().is_none() {
                let pos = game.position().clone();
                let moves = pos.legal_moves();
                let list: Vec<_> = moves.iter().collect();
                let Some(m) = list.get(rng.below(list.len())).copied() else {
                    break;
                };
                let text = pos.move_to_string(m);
                if game.play(m).is_err() {
                    break;
                }
                line.push((text, game.position().to_fen()));
            }
            line
        })
        .collect()
}

fn q(s: &str) -> String {
    s.replace('\'', "''")
}

/// Runs `rows` (value lists) into `table (columns)` on a connection, [`ROWS`] a
/// statement, [`TX_ROWS`] a transaction.
macro_rules! insert {
    ($conn:expr, $table:expr, $columns:expr, $rows:expr) => {{
        let rows: &[String] = $rows;
        for tx_rows in rows.chunks(TX_ROWS) {
            let mut tx = $conn.begin().await.expect("begin");
            for chunk in tx_rows.chunks(ROWS) {
                let sql = format!(
                    "INSERT INTO {} ({}) VALUES {}",
                    $table,
                    $columns,
                    chunk.join(", ")
                );
                sqlx::query(&sql).execute(&mut *tx).await.expect("insert");
            }
            tx.commit().await.expect("commit");
        }
    }};
}

#[tokio::main]
async fn main() {
    let a = args();
    if a.url.is_empty() {
        eprintln!("seed: --database-url URL (a database a damka start made) is needed");
        return;
    }
    let started = Instant::now();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0);
    let day = 24 * 3600 * 1000_i64;
    let seen = now - 60 * day;
    let lines = lines();
    let fen = Position::new(Rules::new(Variant::Russian)).to_fen();
    let mut rng = Rng(42);

    let mut guests = Vec::new();
    let mut accounts = Vec::new();
    for i in 0..5 {
        let id = format!("acct{i}");
        guests.push(format!("('{id}', 'seed{i}', 'tok-{id}', {seen}, {seen})"));
        let key = damka_server::accounts::username_key(&format!("seed{i}"));
        accounts.push(format!(
            "('{id}', 'seed{i}', '{key}', '$argon2id$v=19$m=19456,t=2,p=1$c2VlZA$c2VlZA', {seen}, 0)"
        ));
    }
    for i in 0..a.guests {
        guests.push(format!(
            "('pl{i:06}', 'P{i}', 'tok-pl{i:06}', {seen}, {seen})"
        ));
    }
    for i in 0..a.idle {
        guests.push(format!(
            "('id{i:06}', 'I{i}', 'tok-id{i:06}', {seen}, {seen})"
        ));
    }
    let mut games = Vec::with_capacity(a.games);
    let mut moves = Vec::new();
    for i in 0..a.games {
        let player = |rng: &mut Rng| format!("pl{:06}", rng.below(a.guests));
        // The heavy account in its share, the other accounts in 5,000 each, else guests.
        let me = if i < a.heavy {
            "acct0".to_owned()
        } else if i < a.heavy + 20_000 {
            format!("acct{}", 1 + (i - a.heavy) / 5_000)
        } else {
            player(&mut rng)
        };
        let other = player(&mut rng);
        let (white, black) = if rng.below(2) == 0 {
            (me, other)
        } else {
            (other, me)
        };
        let name = |id: &str| {
            if let Some(n) = id.strip_prefix("acct") {
                format!("seed{n}")
            } else {
                format!("P{}", &id[2..])
            }
        };
        let id = format!("s{i:07}");
        let ended = now - (rng.below(365 * 24 * 3600) as i64) * 1000;
        let aborted = rng.below(20) == 0;
        let line = &lines[rng.below(lines.len())];
        let plies = if aborted {
            0
        } else {
            6 + rng.below(25).min(line.len().saturating_sub(6))
        };
        let (result, reason) = if aborted {
            ("NULL", "'aborted'")
        } else {
            match rng.below(3) {
                0 => ("'white'", "'resign'"),
                1 => ("'black'", "'no_moves'"),
                _ => ("'draw'", "'agreement'"),
            }
        };
        games.push(format!(
            "('{id}', 't{i}', 'russian', 'russian', 5, 3, 0, 0, '{white}', '{}', '{black}', '{}', \
             '{}', 0, 'over', {result}, {reason}, 1000, 1000, {plies}, {}, {ended}, 0)",
            q(&name(&white)),
            q(&name(&black)),
            q(&fen),
            ended - 600_000
        ));
        for (ply, (mv, after)) in line.iter().take(plies).enumerate() {
            moves.push(format!(
                "('{id}', {}, '{}', '{}', 300000, 300000, 1000)",
                ply + 1,
                q(mv),
                q(after)
            ));
        }
    }
    // Correspondence games in progress (issue 40's 100k benchmark): seven days a move,
    // the sixth ply just played, between two of the guests who played.
    let mut running = Vec::with_capacity(a.running);
    let week = 7 * day;
    for i in 0..a.running {
        let white = format!("pl{:06}", rng.below(a.guests));
        let black = format!("pl{:06}", rng.below(a.guests));
        let id = format!("c{i:07}");
        let line = &lines[rng.below(lines.len())];
        let plies = 6.min(line.len());
        let started = now - (rng.below(7 * 24 * 3600) as i64) * 1000;
        running.push(format!(
            "('{id}', 'tc{i}', 'russian', 'russian', 0, 0, 0, 0, '{white}', 'P{}', '{black}',              'P{}', '{}', 0, 'playing', NULL, NULL, {week}, {week}, {plies}, {started}, NULL, 0,              7, {})",
            &white[2..],
            &black[2..],
            q(&fen),
            now + week
        ));
        for (ply, (mv, after)) in line.iter().take(plies).enumerate() {
            moves.push(format!(
                "('{id}', {}, '{}', '{}', {week}, {week}, 1000)",
                ply + 1,
                q(mv),
                q(after)
            ));
        }
    }
    println!(
        "seed: {} guests, {} games, {} moves to write",
        guests.len(),
        games.len(),
        moves.len()
    );
    const GAME_COLUMNS: &str = "id, table_id, room, variant, minutes, increment_s, \
        random_opening, capture_optional, white_id, white_name, black_id, black_name, \
        initial_fen, opening_plies, status, result, reason, white_ms, black_ms, clock_ply, \
        started_at, ended_at, rated";
    const MOVE_COLUMNS: &str = "game_id, ply, mv, fen_after, white_ms, black_ms, used_ms";
    macro_rules! fill {
        ($conn:expr) => {{
            insert!(
                $conn,
                "guests",
                "id, name, token_hash, created_at, seen_at",
                &guests
            );
            insert!(
                $conn,
                "accounts",
                "player_id, username, username_key, password_hash, created_at, disabled",
                &accounts
            );
            insert!($conn, "games", GAME_COLUMNS, &games);
            if !running.is_empty() {
                let columns = format!("{GAME_COLUMNS}, days, deadline");
                insert!($conn, "games", &columns, &running);
            }
            println!(
                "seed: games written after {:.1} s",
                started.elapsed().as_secs_f64()
            );
            insert!($conn, "moves", MOVE_COLUMNS, &moves);
        }};
    }
    if a.url.starts_with("sqlite") {
        let mut conn = sqlx::SqliteConnection::connect(&a.url)
            .await
            .expect("connect");
        sqlx::query("PRAGMA synchronous = OFF")
            .execute(&mut conn)
            .await
            .expect("pragma");
        fill!(conn);
        conn.close().await.ok();
    } else {
        let mut conn = sqlx::PgConnection::connect(&a.url).await.expect("connect");
        fill!(conn);
        sqlx::query("ANALYZE")
            .execute(&mut conn)
            .await
            .expect("analyze");
        conn.close().await.ok();
    }
    println!("seed: done in {:.1} s", started.elapsed().as_secs_f64());
}
