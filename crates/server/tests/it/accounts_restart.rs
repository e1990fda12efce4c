//! Accounts and ratings with the real `damka` binary: a rated game's end and its rating
//! update are one transaction (the process aborted between the two stores neither, and
//! the game is then played to its end and rated once), and the operator's
//! `damka account ...` commands.

use std::time::Duration;

use crate::common::{Backend, TestDb, one_move_each};
use crate::damka::{Damka, free_port};
use serde_json::{Value, json};

/// A guest made into account `username` on `d`; returns its cookie.
async fn account(d: &Damka, username: &str, password: &str) -> String {
    let guest = d.guest(username).await;
    let r = d
        .http(
            "POST",
            "/api/account",
            Some(&guest),
            json!({"username": username, "password": password}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    r.cookie().expect("cookie")
}

/// `(status, rating_history rows, ratings rows)` of a game, read behind the server's back.
async fn stored(url: &str, backend: Backend, game: &str) -> (String, i64, i64) {
    const STATUS: &str = "SELECT status FROM games WHERE id = $1";
    const HISTORY: &str = "SELECT COUNT(*) FROM rating_history WHERE game_id = $1";
    const RATINGS: &str = "SELECT COUNT(*) FROM ratings";
    match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(url).await.unwrap();
            let r = (
                sqlx::query_scalar(STATUS)
                    .bind(game)
                    .fetch_one(&pool)
                    .await
                    .unwrap(),
                sqlx::query_scalar(HISTORY)
                    .bind(game)
                    .fetch_one(&pool)
                    .await
                    .unwrap(),
                sqlx::query_scalar(RATINGS).fetch_one(&pool).await.unwrap(),
            );
            pool.close().await;
            r
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(url).await.unwrap();
            let r = (
                sqlx::query_scalar(STATUS)
                    .bind(game)
                    .fetch_one(&pool)
                    .await
                    .unwrap(),
                sqlx::query_scalar(HISTORY)
                    .bind(game)
                    .fetch_one(&pool)
                    .await
                    .unwrap(),
                sqlx::query_scalar(RATINGS).fetch_one(&pool).await.unwrap(),
            );
            pool.close().await;
            r
        }
    }
}

async fn a_rated_end_and_its_ratings_survive_a_crash_together(backend: Backend) {
    let db = TestDb::new(backend).await;
    let port = free_port();
    let mut d = Damka::spawn_with(&db.url, port, &["--test-abort-before-ratings"]);
    let ala = account(&d, "Ala", "ala ma kota").await;
    let bolek = account(&d, "Bolek", "bolek i lolek").await;
    let r = d
        .http(
            "POST",
            "/api/rooms/russian/tables",
            Some(&ala),
            json!({"minutes": 5, "increment": 0, "rated": true, "seat": "white"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let table = r.json()["id"].as_str().unwrap().to_owned();
    let mut w = d.table_ws(&table, &ala).await;
    w.state().await;
    let mut b = d.table_ws(&table, &bolek).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    b.recv_t("seated").await;
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    let game = started["id"].as_str().unwrap().to_owned();
    one_move_each(&mut w, &mut b, &started).await;
    // White resigns: the server dies between writing the end and the ratings, inside
    // their one transaction.
    w.send(json!({"t": "resign"})).await;
    let status = d.exited(Duration::from_secs(20)).await;
    assert!(!status.success(), "the hook aborts the process: {status}");
    // Neither is stored: the game is still being played, nobody is rated. (Two writes
    // would leave the game over and the ratings untouched here.)
    assert_eq!(
        stored(&db.url, backend, &game).await,
        ("playing".to_owned(), 0, 0)
    );
    // Started again without the hook: the game is back, and its end is rated once.
    let d = Damka::spawn(&db.url, port);
    let mut w = d.table_ws(&table, &ala).await;
    let st = w.recv_t("state").await;
    assert_eq!(st["game_id"], game.as_str(), "{st}");
    let mut b = d.table_ws(&table, &bolek).await;
    b.state().await;
    w.send(json!({"t": "resign"})).await;
    let over = w.recv_t("game_over").await;
    assert_eq!(over["result"], "black");
    assert_eq!(
        over["ratings"],
        json!({"white": {"before": 1500, "after": 1338, "provisional": true},
               "black": {"before": 1500, "after": 1662, "provisional": true}}),
        "{over}"
    );
    assert_eq!(
        stored(&db.url, backend, &game).await,
        ("over".to_owned(), 2, 2)
    );
    let me: Value = d
        .http("GET", "/api/me", Some(&bolek), Value::Null)
        .await
        .json();
    assert_eq!(me["ratings"]["russian"]["games"], 1);
    drop(d);
    db.cleanup().await;
}

/// Runs `damka --database-url <url> account ...` and returns its exit status and output.
pub(crate) fn operator(url: &str, args: &[&str], stdin: Option<&str>) -> (bool, String) {
    use std::io::Write as _;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_damka"))
        .args(["--database-url", url, "account"])
        .args(args)
        .env("RUST_LOG", "warn")
        .env_remove("DATABASE_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("damka account runs");
    if let Some(text) = stdin {
        child
            .stdin
            .take()
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_operator_resets_passwords_and_disables_accounts() {
    let db = TestDb::new(Backend::Sqlite).await;
    let port = free_port();
    let d = Damka::spawn(&db.url, port);
    let cookie = account(&d, "Bolek", "bolek i lolek").await;
    let sign_in = |password: &str| {
        let body = json!({"username": "bolek", "password": password});
        let d = &d;
        async move { d.http("POST", "/api/session", None, body).await.status }
    };
    // Beside the running server: a generated password, every session ended.
    let (ok, out) = operator(&db.url, &["reset-password", "--generate", "BOLEK"], None);
    assert!(ok, "{out}");
    let password = out
        .lines()
        .find_map(|l| l.strip_prefix("new password of Bolek: "))
        .unwrap_or_else(|| panic!("no password in {out}"))
        .trim()
        .to_owned();
    assert_eq!(
        d.http("GET", "/api/me", Some(&cookie), Value::Null)
            .await
            .status,
        401
    );
    assert_eq!(sign_in("bolek i lolek").await, 401);
    assert_eq!(sign_in(&password).await, 200);
    // A password from standard input, checked by the same rules.
    let (ok, out) = operator(&db.url, &["reset-password", "Bolek"], Some("short\n"));
    assert!(!ok && out.contains("8 to 128"), "{out}");
    let (ok, out) = operator(
        &db.url,
        &["reset-password", "Bolek"],
        Some("nowe haslo 123\n"),
    );
    assert!(ok, "{out}");
    assert_eq!(sign_in("nowe haslo 123").await, 200);
    // Disabled: no sign-in, no profile, no session; enabled again.
    let r = d
        .http(
            "POST",
            "/api/session",
            None,
            json!({"username": "Bolek", "password": "nowe haslo 123"}),
        )
        .await;
    let session = r.cookie().unwrap();
    let (ok, out) = operator(&db.url, &["disable", "Bolek"], None);
    assert!(ok, "{out}");
    assert_eq!(sign_in("nowe haslo 123").await, 401);
    assert_eq!(
        d.http("GET", "/api/me", Some(&session), Value::Null)
            .await
            .status,
        401
    );
    assert_eq!(
        d.http("GET", "/api/players/Bolek", None, Value::Null)
            .await
            .status,
        404
    );
    let (ok, out) = operator(&db.url, &["show", "Bolek"], None);
    assert!(
        ok && out.contains("disabled true") && out.contains("sessions 0"),
        "{out}"
    );
    let (ok, out) = operator(&db.url, &["enable", "Bolek"], None);
    assert!(ok, "{out}");
    assert_eq!(sign_in("nowe haslo 123").await, 200);
    // No such account; every command answers --help.
    let (ok, out) = operator(&db.url, &["disable", "Nikt"], None);
    assert!(!ok && out.contains("no account"), "{out}");
    for cmd in [
        &["--help"][..],
        &["reset-password", "--help"],
        &["disable", "--help"],
    ] {
        let (ok, out) = operator(&db.url, cmd, None);
        assert!(ok && out.contains("Usage"), "{cmd:?}: {out}");
    }
    drop(d);
    db.cleanup().await;
}

both_backends!(a_rated_end_and_its_ratings_survive_a_crash_together);
