//! The HTTP API: guests and cookies, rooms, tables, variants, health and metrics.

use crate::common::{Backend, TestDb, TestServer, config};
use serde_json::json;

async fn guests_and_cookies(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    // A guest without a name gets a random Polish one.
    let r = s.http("POST", "/api/guest", None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let set_cookie = r.header("set-cookie").unwrap().to_owned();
    assert!(
        set_cookie.contains("HttpOnly")
            && set_cookie.contains("SameSite=Lax")
            && !set_cookie.contains("Secure"),
        "{set_cookie}"
    );
    let cookie = r.cookie().unwrap();
    let guest = r.json();
    assert!(guest["name"].as_str().unwrap().chars().count() >= 2);
    // Same cookie, same guest; renaming keeps the id.
    let me = s.http("GET", "/api/me", Some(&cookie), None).await;
    assert_eq!(
        me.json(),
        json!({"id": guest["id"], "name": guest["name"], "account": null, "ratings": {}})
    );
    let renamed = s
        .http(
            "POST",
            "/api/guest",
            Some(&cookie),
            Some(json!({"name": "Zażółć 12"})),
        )
        .await;
    assert_eq!(renamed.json()["id"], guest["id"]);
    assert_eq!(renamed.json()["name"], "Zażółć 12");
    assert!(renamed.header("set-cookie").is_none());
    // Bad names, no session.
    let bad = s
        .http(
            "POST",
            "/api/guest",
            Some(&cookie),
            Some(json!({"name": "<b>"})),
        )
        .await;
    assert_eq!(
        (bad.status, bad.error_code().as_str()),
        (400, "invalid_name")
    );
    let anon = s.http("GET", "/api/me", None, None).await;
    assert_eq!(
        (anon.status, anon.error_code().as_str()),
        (401, "unauthorized")
    );
    let forged = s
        .http(
            "GET",
            "/api/me",
            Some(&format!("damka_session={}", "0".repeat(64))),
            None,
        )
        .await;
    assert_eq!(forged.status, 401);
    // Only the hash of the token is stored; the same cookie works after a restart.
    s.stop().await;
    let s = TestServer::start(config(&db)).await;
    let me = s.http("GET", "/api/me", Some(&cookie), None).await;
    assert_eq!(me.json()["name"], "Zażółć 12");
    s.stop().await;
    db.cleanup().await;
}

async fn rooms_tables_and_options(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let rooms = s.http("GET", "/api/rooms", None, None).await.json();
    assert_eq!(rooms.as_array().unwrap().len(), 7);
    let brazilian = rooms
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == "brazilian")
        .unwrap();
    assert_eq!(brazilian["rules"]["pl"], "Warcaby 8×8: pionki biją do tyłu");
    assert_eq!(brazilian["tables"], 0);
    let (cookie, me) = s.guest("Ala").await;
    let body = json!({"minutes": 5, "increment": 3, "random_opening": false, "capture_optional": true, "seat": "black"});
    let table = s.create_table(&cookie, "russian", body).await;
    assert_eq!(table["seats"]["black"], me);
    assert_eq!(table["seats"]["white"], json!(null));
    assert_eq!(table["options"]["capture_optional"], true);
    assert_eq!(table["game"], json!(null));
    let id = table["id"].as_str().unwrap();
    assert_eq!(
        s.http("GET", &format!("/api/tables/{id}"), None, None)
            .await
            .json(),
        table
    );
    let room = s.http("GET", "/api/rooms/russian", None, None).await.json();
    assert_eq!(room["tables"][0]["id"], table["id"]);
    assert_eq!(
        s.http("GET", "/api/rooms", None, None).await.json()[0]["tables"],
        1
    );
    // Option validation.
    for bad in [
        json!({"minutes": 0, "increment": 0}),
        json!({"minutes": 16, "increment": 0}),
        json!({"minutes": 5, "increment": 11}),
        // No clock at all (neither minutes nor days).
        json!({"increment": 3}),
        json!({"minutes": 5, "increment": 0, "seat": "green"}),
    ] {
        let r = s
            .http(
                "POST",
                "/api/rooms/russian/tables",
                Some(&cookie),
                Some(bad.clone()),
            )
            .await;
        assert_eq!(
            (r.status, r.error_code().as_str()),
            (400, "invalid_options"),
            "{bad}"
        );
    }
    let intl = json!({"minutes": 5, "increment": 0, "capture_optional": true});
    let r = s
        .http(
            "POST",
            "/api/rooms/international/tables",
            Some(&cookie),
            Some(intl),
        )
        .await;
    assert_eq!(r.error_code(), "invalid_options");
    // Unknown things and missing sessions.
    let ok = json!({"minutes": 5, "increment": 0});
    let r = s
        .http(
            "POST",
            "/api/rooms/chess/tables",
            Some(&cookie),
            Some(ok.clone()),
        )
        .await;
    assert_eq!((r.status, r.error_code().as_str()), (404, "not_found"));
    let r = s
        .http("POST", "/api/rooms/russian/tables", None, Some(ok.clone()))
        .await;
    assert_eq!((r.status, r.error_code().as_str()), (401, "unauthorized"));
    assert_eq!(
        s.http("GET", "/api/tables/nope", None, None)
            .await
            .error_code(),
        "not_found"
    );
    assert_eq!(
        s.http("GET", "/api/games/nope", None, None)
            .await
            .error_code(),
        "not_found"
    );
    assert_eq!(s.http("GET", "/api/nothing", None, None).await.status, 404);
    // At most three open tables per guest.
    s.create_table(&cookie, "russian", ok.clone()).await;
    s.create_table(&cookie, "czech", ok.clone()).await;
    let r = s
        .http("POST", "/api/rooms/russian/tables", Some(&cookie), Some(ok))
        .await;
    assert_eq!(
        (r.status, r.error_code().as_str()),
        (429, "too_many_tables")
    );
    s.stop().await;
    db.cleanup().await;
}

both_backends!(guests_and_cookies, rooms_tables_and_options);

#[tokio::test]
async fn variants_health_metrics_and_static() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let variants = s.http("GET", "/api/variants", None, None).await.json();
    let variants = variants.as_array().unwrap();
    assert_eq!(variants.len(), 7);
    let intl = variants
        .iter()
        .find(|v| v["id"] == "international")
        .unwrap();
    assert_eq!(intl["board"], 10);
    assert_eq!(intl["squares"].as_array().unwrap().len(), 50);
    assert_eq!(intl["game_type"], "20,W,10,10,N2,0");
    let american = variants.iter().find(|v| v["id"] == "american").unwrap();
    assert_eq!(american["first"], "black");
    assert_eq!(american["squares"].as_array().unwrap().len(), 32);
    // The ballots (issue 38): every set of the variant, its default set first, typed.
    for (variant, count, first_set) in [
        ("american", 156 + 43, "3move"),
        ("russian", 736 + 150, "fmjd64"),
        ("brazilian", 725 + 150, "fmjd64"),
        ("international", 465, "damka"),
    ] {
        let r = s
            .http("GET", &format!("/api/ballots/{variant}"), None, None)
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let list: Vec<damka_protocol::ballot::BallotView> =
            serde_json::from_str(&r.body).expect("ballots");
        assert_eq!(list.len(), count, "{variant}");
        assert_eq!(list[0].set, first_set, "{variant}");
        let v = draughts::Variant::from_name(variant).unwrap();
        for b in &list {
            let pos = draughts::Position::from_fen(draughts::Rules::new(v), &b.fen);
            assert!(pos.is_ok(), "{variant} {}: {}", b.id, b.fen);
            // Moves or a set-up, never both (IDF 5-VII, "Free", is the start: neither).
            assert!(
                b.moves.is_empty() || b.arrangement.is_none(),
                "{variant} {}",
                b.id
            );
        }
    }
    let three = s
        .http("GET", "/api/ballots/english", None, None)
        .await
        .json();
    assert_eq!(
        three[0]["id"], "3move-001",
        "english names American: {}",
        three[0]
    );
    assert_eq!(three[0]["moves"].as_array().unwrap().len(), 3);
    let r = s.http("GET", "/api/ballots/chess", None, None).await;
    assert_eq!(r.status, 404);
    let r = s.http("GET", "/healthz", None, None).await;
    assert_eq!((r.status, r.body.as_str()), (200, "ok"));
    let r = s.http("GET", "/readyz", None, None).await;
    assert_eq!((r.status, r.body.as_str()), (200, "ready"));
    let m = s.http("GET", "/metrics", None, None).await;
    assert!(m.body.contains("damka_tables 0"), "{}", m.body);
    assert!(
        m.body
            .contains("damka_move_latency_seconds_bucket{le=\"+Inf\"} 0")
    );
    // The web client is served from static/.
    let index = s.http("GET", "/", None, None).await;
    assert_eq!(index.status, 200);
    assert!(
        index
            .header("content-type")
            .is_some_and(|t| t.starts_with("text/html"))
    );
    client_files_are_compressed_and_cached(&s).await;
    // Oversized bodies are refused before they are parsed.
    let big = json!({"name": "x".repeat(10_000)});
    let r = s.http("POST", "/api/guest", None, Some(big)).await;
    assert_eq!(r.status, 413);
    s.stop().await;
    db.cleanup().await;
}

#[tokio::test]
async fn rooms_come_from_the_rooms_file() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    let file = std::env::temp_dir().join(format!("damka_rooms_{}.json", std::process::id()));
    let rooms = r#"[{"id": "klub", "variant": "international", "names": {"pl": "Klub", "en": "Club"}},
                    {"id": "szkola", "variant": "english"}]"#;
    std::fs::write(&file, rooms).unwrap();
    c.rooms = Some(file.clone());
    let s = TestServer::start(c).await;
    let list = s.http("GET", "/api/rooms", None, None).await.json();
    assert_eq!(list[0]["id"], "klub");
    assert_eq!(list[0]["name"], "Klub");
    assert_eq!(list[0]["variant"], "international");
    assert_eq!(list[1]["variant"], "american");
    assert_eq!(list[1]["names"]["en"], "American checkers");
    assert_eq!(list.as_array().unwrap().len(), 2);
    assert_eq!(
        s.http("GET", "/api/rooms/russian", None, None).await.status,
        404
    );
    s.stop().await;
    // A bad rooms file stops the start with an error.
    std::fs::write(&file, r#"[{"id": "x", "variant": "chess"}]"#).unwrap();
    let mut c = config(&db);
    c.rooms = Some(file.clone());
    assert!(damka_server::start(c).await.is_err());
    let _ = std::fs::remove_file(file);
    db.cleanup().await;
}

#[tokio::test]
async fn the_cookie_is_secure_when_configured() {
    let db = TestDb::new(Backend::Sqlite).await;
    let mut c = config(&db);
    c.secure_cookie = true;
    let s = TestServer::start(c).await;
    let r = s.http("POST", "/api/guest", None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let set_cookie = r.header("set-cookie").unwrap();
    assert!(
        set_cookie.contains("; Secure") && set_cookie.contains("HttpOnly"),
        "{set_cookie}"
    );
    s.stop().await;
    db.cleanup().await;
}

/// The web client's delivery (issue 22): the page points at a versioned copy of its
/// files, is always revalidated (`304` when unchanged), and the versioned files are
/// immutable; everything is compressed as the browser asks.
async fn client_files_are_compressed_and_cached(s: &TestServer) {
    use crate::common::http::request;
    let index = request(&s.addr, "GET", "/", None, None, &[]).await;
    assert_eq!(index.header("cache-control"), Some("no-cache"));
    let etag = index.header("etag").expect("an ETag").to_owned();
    let version = etag.trim_start_matches("W/").trim_matches('"').to_owned();
    assert!(
        index
            .body
            .contains(&format!("src=\"v/{version}/js/app.js\"")),
        "{}",
        index.body
    );
    let again = request(&s.addr, "GET", "/", None, None, &[("If-None-Match", &etag)]).await;
    assert_eq!(again.status, 304);
    let module = format!("/v/{version}/js/app.js");
    for (encoding, want) in [
        ("br", Some("br")),
        ("gzip", Some("gzip")),
        ("identity", None),
    ] {
        let r = request(
            &s.addr,
            "GET",
            &module,
            None,
            None,
            &[("Accept-Encoding", encoding)],
        )
        .await;
        assert_eq!(r.status, 200);
        assert_eq!(r.header("content-encoding"), want, "{encoding}");
        assert_eq!(
            r.header("cache-control"),
            Some("public, max-age=31536000, immutable")
        );
    }
    // Another version's URL is not cached as that version's.
    let old = request(&s.addr, "GET", "/v/000000000000/js/app.js", None, None, &[]).await;
    assert_eq!(
        (old.status, old.header("cache-control")),
        (200, Some("no-cache"))
    );
    // Files at their own URLs are revalidated.
    let plain = request(&s.addr, "GET", "/js/app.js", None, None, &[]).await;
    assert_eq!(
        (plain.status, plain.header("cache-control")),
        (200, Some("no-cache"))
    );
    // The API's JSON is compressed too.
    let rooms = request(
        &s.addr,
        "GET",
        "/api/variants",
        None,
        None,
        &[("Accept-Encoding", "br")],
    )
    .await;
    assert_eq!(rooms.header("content-encoding"), Some("br"));
}
