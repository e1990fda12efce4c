//! Puzzles over HTTP (issue 37): a guest and an account solve and fail puzzles; the
//! solution never comes before the end; "solved" counts only when the server saw the
//! solution played; ratings move as Glicko-2 says, once per puzzle; an account's rating
//! and played puzzles survive a restart; the daily puzzle is everyone's.

use serde_json::{Value, json};

use crate::accounts::account;
use crate::common::{Backend, TestDb, TestServer, config};
use damka_server::puzzles::{Catalog, Entry};

fn entry(id: &str) -> Entry {
    Catalog::starter()
        .get(id)
        .expect("a starter puzzle")
        .clone()
}

/// Plays the whole solution of `p` for `cookie`; returns the last answer.
async fn solve(s: &TestServer, cookie: &str, p: &Value) -> Value {
    let e = entry(p["id"].as_str().unwrap());
    let mut sent: Vec<String> = Vec::new();
    let mut i = 0;
    loop {
        sent.push(e.line[i].clone());
        let r = s
            .http(
                "POST",
                &format!("/api/puzzles/{}/move", e.id),
                Some(cookie),
                Some(json!({ "moves": sent })),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let a = r.json();
        assert_eq!(a["ok"], true, "{a}");
        i += 1 + a["replies"].as_array().unwrap().len();
        if a["solved"] == true {
            assert_eq!(i, e.line.len());
            assert_eq!(a["legal"], json!([]));
            return a;
        }
        // The reply is the solution's move after the solver's.
        let at = i - a["replies"].as_array().unwrap().len();
        assert_eq!(a["reply"], json!(e.line[at]), "{a}");
    }
}

async fn result(s: &TestServer, cookie: &str, id: &str, solved: bool) -> (u16, Value) {
    let r = s
        .http(
            "POST",
            &format!("/api/puzzles/{id}/result"),
            Some(cookie),
            Some(json!({ "solved": solved })),
        )
        .await;
    (r.status, r.json())
}

async fn next(s: &TestServer, cookie: &str) -> Value {
    let r = s
        .http(
            "GET",
            "/api/puzzles/next?variant=russian",
            Some(cookie),
            None,
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()
}

async fn a_guest_and_an_account_solve_and_fail_puzzles(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (guest, _) = s.guest("Gosia").await;

    // A puzzle comes without its solution, with the solver's legal moves.
    let p = next(&s, &guest).await;
    for key in ["id", "variant", "fen", "rating", "themes", "plies", "legal"] {
        assert!(p.get(key).is_some(), "{key}: {p}");
    }
    assert!(
        p.get("line").is_none() && p.get("solution").is_none(),
        "{p}"
    );
    let id = p["id"].as_str().unwrap().to_owned();
    let e = entry(&id);
    assert_eq!(p["plies"], e.line.len());

    // "Solved" without playing it: refused. A wrong move: not ok, the position stays.
    let (status, body) = result(&s, &guest, &id, true).await;
    assert_eq!(status, 400, "{body}");
    let wrong = p["legal"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m.as_str() != Some(e.line[0].as_str()))
        .unwrap()
        .clone();
    let r = s
        .http(
            "POST",
            &format!("/api/puzzles/{id}/move"),
            Some(&guest),
            Some(json!({"moves": [wrong]})),
        )
        .await;
    assert_eq!(r.json()["ok"], false, "{}", r.body);
    // Failed at the first try: rated down, and only now the solution.
    let (status, failed) = result(&s, &guest, &id, false).await;
    assert_eq!(status, 200, "{failed}");
    assert_eq!(failed["rating"]["before"], 1500);
    assert!(
        failed["rating"]["after"].as_i64().unwrap() < 1500,
        "{failed}"
    );
    assert_eq!(failed["solution"], json!(e.line));
    // Solving it afterwards changes nothing: rated once.
    solve(&s, &guest, &p).await;
    let (_, again) = result(&s, &guest, &id, true).await;
    assert_eq!(again["rating"]["before"], again["rating"]["after"]);
    assert_eq!(again["rating"]["after"], failed["rating"]["after"]);
    // Never given again.
    for _ in 0..5 {
        assert_ne!(next(&s, &guest).await["id"], json!(id));
    }

    // An account solves one: rated up, the puzzle down.
    let (ala, _) = account(&s, "Ala_P", "ala ma kota 1").await;
    let q = next(&s, &ala).await;
    let qid = q["id"].as_str().unwrap().to_owned();
    let rating_before = q["rating"].as_i64().unwrap();
    solve(&s, &ala, &q).await;
    let (status, won) = result(&s, &ala, &qid, true).await;
    assert_eq!(status, 200, "{won}");
    assert_eq!(won["rating"]["before"], 1500);
    let after = won["rating"]["after"].as_i64().unwrap();
    assert!(after > 1500, "{won}");
    let shown = s
        .http("GET", &format!("/api/puzzles/{qid}"), None, None)
        .await
        .json();
    assert!(shown["rating"].as_i64().unwrap() < rating_before, "{shown}");
    s.stop().await;

    // After a restart: the account's rating and its played puzzle are kept, and so is
    // the puzzle's rating.
    let s = TestServer::start(config(&db)).await;
    let (_, kept) = result(&s, &ala, &qid, true).await;
    assert_eq!(
        (
            kept["rating"]["before"].as_i64(),
            kept["rating"]["after"].as_i64()
        ),
        (Some(after), Some(after))
    );
    let shown_again = s
        .http("GET", &format!("/api/puzzles/{qid}"), None, None)
        .await
        .json();
    assert_eq!(shown_again["rating"], shown["rating"]);
    for _ in 0..5 {
        assert_ne!(next(&s, &ala).await["id"], json!(qid));
    }

    // The daily puzzle: the same for everyone (no session needed).
    let d1 = s
        .http("GET", "/api/puzzles/daily?variant=russian", None, None)
        .await;
    let d2 = s
        .http(
            "GET",
            "/api/puzzles/daily?variant=russian",
            Some(&ala),
            None,
        )
        .await;
    assert_eq!(d1.status, 200, "{}", d1.body);
    assert_eq!(d1.json()["id"], d2.json()["id"]);
    // The counts: every variant, its themes.
    let counts = s.http("GET", "/api/puzzles", None, None).await.json();
    assert_eq!(counts.as_array().unwrap().len(), 7, "{counts}");
    let russian = counts
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["variant"] == "russian")
        .unwrap();
    assert_eq!(
        russian["count"],
        Catalog::starter().of(draughts::Variant::Russian).len()
    );
    // Unknown puzzles and variants.
    assert_eq!(
        s.http("GET", "/api/puzzles/russian-9999", None, None)
            .await
            .status,
        404
    );
    assert_eq!(
        s.http("GET", "/api/puzzles/daily?variant=chess", None, None)
            .await
            .status,
        400
    );
    s.stop().await;
    db.cleanup().await;
}

crate::both_backends!(a_guest_and_an_account_solve_and_fail_puzzles);
