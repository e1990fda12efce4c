//! The query plans of what the public lookups and the guest sweep read: each must find
//! its rows through an index, never by reading every game (or every guest), on either
//! backend. SQLite: `EXPLAIN QUERY PLAN` names no full scan of `games` or `guests`, nor
//! the index of games by status (nearly every game is over: as bad as a full scan).
//! PostgreSQL: with sequential scans switched off, `EXPLAIN` still shows none of those
//! tables scanned whole (the planner chooses a sequential scan anyway when no index can
//! serve the query). The PostgreSQL half runs when `DAMKA_TEST_POSTGRES_URL` is set.

use sqlx::Connection;

use super::{Store, games, ratings};

/// The statements to check, each with the binds it takes: `(name, sql, binds)`; a bind
/// is an integer or a text.
fn statements() -> Vec<(&'static str, String, Vec<Bind>)> {
    use Bind::{Int, Text};
    let cursor = || vec![Text("p"), Int(i64::MAX), Text("~"), Int(20)];
    vec![
        ("a player's games", games::player_games_sql(), cursor()),
        ("a room's games", games::room_games_sql(), cursor()),
        (
            "a player's results",
            ratings::RESULT_COUNTS.to_owned(),
            vec![Text("p")],
        ),
        (
            "the sweep's unseen guests",
            super::expiry::unseen_sql(),
            vec![Int(0), Int(i64::MIN), Text(""), Int(500)],
        ),
        (
            "the sweep's deletion",
            super::expiry::expire_sql(2),
            vec![Int(0), Text("a"), Text("b")],
        ),
    ]
}

#[derive(Clone, Copy)]
enum Bind {
    Int(i64),
    Text(&'static str),
}

macro_rules! bound {
    ($q:expr, $binds:expr) => {{
        let mut q = $q;
        for b in $binds {
            q = match b {
                Bind::Int(v) => q.bind(*v),
                Bind::Text(v) => q.bind(*v),
            };
        }
        q
    }};
}

/// The scans of whole tables a plan shows, on a database `url` already migrated.
async fn full_scans(url: &str) -> Vec<String> {
    let mut found = Vec::new();
    if url.starts_with("sqlite") {
        let mut conn = sqlx::SqliteConnection::connect(url).await.expect("connect");
        for (name, sql, binds) in statements() {
            let explain = format!("EXPLAIN QUERY PLAN {sql}");
            let q = sqlx::query_as::<_, (i64, i64, i64, String)>(&explain);
            let rows = bound!(q, &binds).fetch_all(&mut conn).await.expect(name);
            for (_, _, _, detail) in rows {
                // A full scan, or the status index (most games are over: nearly as bad).
                if detail.starts_with("SCAN games")
                    || detail.starts_with("SCAN guests")
                    || detail.contains("games_status")
                {
                    found.push(format!("{name}: {detail}"));
                }
            }
        }
    } else {
        let mut conn = sqlx::PgConnection::connect(url).await.expect("connect");
        sqlx::query("SET enable_seqscan = off")
            .execute(&mut conn)
            .await
            .expect("set");
        for (name, sql, binds) in statements() {
            let explain = format!("EXPLAIN {sql}");
            let q = sqlx::query_scalar::<_, String>(&explain);
            let rows = bound!(q, &binds).fetch_all(&mut conn).await.expect(name);
            for line in rows {
                if line.contains("Seq Scan on games")
                    || line.contains("Seq Scan on guests")
                    || line.contains("games_status")
                {
                    found.push(format!("{name}: {}", line.trim()));
                }
            }
        }
    }
    found
}

#[tokio::test]
async fn lookups_and_the_sweep_read_through_indexes_sqlite() {
    let dir = std::env::temp_dir().join(format!("damka_plans_{}", std::process::id()));
    let url = format!("sqlite://{}/p.db", dir.display());
    let store = Store::connect(&url).await.expect("store");
    store.close().await;
    let scans = full_scans(&url).await;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(scans.is_empty(), "full scans: {scans:#?}");
}

#[tokio::test]
async fn lookups_and_the_sweep_read_through_indexes_postgres() {
    let Ok(admin) = std::env::var("DAMKA_TEST_POSTGRES_URL") else {
        eprintln!("DAMKA_TEST_POSTGRES_URL not set: skipping the PostgreSQL plans");
        return;
    };
    let name = format!("damka_plans_{}", std::process::id());
    let mut conn = sqlx::PgConnection::connect(&admin).await.expect("admin");
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name}"))
        .execute(&mut conn)
        .await
        .expect("drop");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut conn)
        .await
        .expect("create");
    let base = admin.rsplit_once('/').map_or(admin.as_str(), |(b, _)| b);
    let url = format!("{base}/{name}");
    let store = Store::connect(&url).await.expect("store");
    store.close().await;
    let scans = full_scans(&url).await;
    sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .execute(&mut conn)
        .await
        .expect("drop");
    assert!(scans.is_empty(), "full scans: {scans:#?}");
}
