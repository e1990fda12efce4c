//! Names (issue 34, item 10): nobody takes the name of the server's staff or of a
//! computer seat, in any language the client is written in, as a guest or as an
//! account; a guest never takes an account's name, and a guest who had a name before an
//! account took it is shown tagged.

use serde_json::json;

use crate::accounts::account;
use crate::common::{Backend, TestDb, TestServer, config};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn staff_and_computer_names_are_refused_in_every_language() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    for name in [
        "Admin",
        "admin 2",
        "Administrator",
        "Администратор",
        "Moderátor",
        "Opérateur",
        "Système",
        "Support",
        "root",
        "bot-1",
        "Bot 3",
        "Damka",
        "Компьютер",
        "Ordinateur",
        "Computador",
        "Počítač",
        "Beheerder",
    ] {
        let r = s
            .http("POST", "/api/guest", None, Some(json!({"name": name})))
            .await;
        assert_eq!(
            (r.status, r.error_code().as_str()),
            (400, "invalid_name"),
            "{name}: {}",
            r.body
        );
    }
    let (guest, _) = s.guest("Ola").await;
    for username in [
        "Admin",
        "bot-1",
        "b0t_7",
        "root",
        "SYSTEM",
        "Moderator2",
        "Damka",
    ] {
        let r = s
            .http(
                "POST",
                "/api/account",
                Some(&guest),
                Some(json!({"username": username, "password": "long enough"})),
            )
            .await;
        assert_eq!(
            (r.status, r.error_code().as_str()),
            (400, "invalid_username"),
            "{username}: {}",
            r.body
        );
    }
    s.stop().await;
    db.cleanup().await;
}

async fn a_guest_never_takes_an_accounts_name(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    // A guest named Reksio first; then someone makes the account Reksio.
    let (early, early_body) = s.guest("Reksio").await;
    let early_id = early_body["id"].as_str().unwrap().to_owned();
    account(&s, "Reksio", "pies reksio 1").await;
    // Nobody takes the account's name as a guest now, however written.
    for name in ["Reksio", "reksio", "REKS1O", "ReksiO"] {
        let r = s
            .http("POST", "/api/guest", None, Some(json!({"name": name})))
            .await;
        assert_eq!(
            (r.status, r.error_code().as_str()),
            (409, "username_taken"),
            "{name}: {}",
            r.body
        );
    }
    let (other, _) = s.guest("Filemon").await;
    let r = s
        .http(
            "POST",
            "/api/guest",
            Some(&other),
            Some(json!({"name": "rekslo"})),
        )
        .await;
    assert_eq!(r.error_code(), "username_taken", "{}", r.body);
    // The guest who had it keeps playing, shown with a tag of its id.
    let me = s.http("GET", "/api/me", Some(&early), None).await.json();
    let tagged = format!("Reksio #{}", &early_id[..4]);
    assert_eq!(me["name"], tagged.as_str(), "{me}");
    let t = s
        .create_table(
            &early,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "white"}),
        )
        .await;
    assert_eq!(t["seats"]["white"]["name"], tagged.as_str(), "{t}");
    // It may rename to a free name, shown as it is.
    let r = s
        .http(
            "POST",
            "/api/guest",
            Some(&early),
            Some(json!({"name": "Reksio Drugi"})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let me = s.http("GET", "/api/me", Some(&early), None).await.json();
    assert_eq!(me["name"], "Reksio Drugi");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(a_guest_never_takes_an_accounts_name);
