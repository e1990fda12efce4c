//! Web Push (issue 40, item 3) against a local push service: a real receiving side that
//! checks the VAPID token and decrypts each message as RFC 8291 says, then the content:
//! "your move" only to a player who is not watching, an offer, the end; a push service
//! that answers 410 makes the server drop the subscription; a correspondence game's
//! "time runs low" at 80% of the period, once per move.

use std::sync::{Arc, Mutex};

use aes_gcm::aead::{Aead, KeyInit};
use aes_gcm::{Aes128Gcm, Nonce};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use hkdf::Hkdf;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::elliptic_curve::sec1::ToEncodedPoint;
use p256::{PublicKey, SecretKey};
use serde_json::{Value, json};
use sha2::Sha256;
use tokio::sync::mpsc;

use crate::accounts::{account, rated_game};
use crate::common::ws::Ws;
use crate::common::{Backend, TestDb, TestServer, config};

/// One browser's subscription: the keys only the browser knows.
struct Browser {
    secret: SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new() -> Browser {
        let mut auth = [0u8; 16];
        getrandom::fill(&mut auth).unwrap();
        Browser {
            secret: damka_server::push::vapid::new_secret(),
            auth,
        }
    }

    fn public(&self) -> Vec<u8> {
        self.secret
            .public_key()
            .to_encoded_point(false)
            .as_bytes()
            .to_vec()
    }

    /// `PushSubscription.toJSON()` for `endpoint`.
    fn subscription(&self, endpoint: &str) -> Value {
        json!({
            "endpoint": endpoint,
            "keys": {
                "p256dh": URL_SAFE_NO_PAD.encode(self.public()),
                "auth": URL_SAFE_NO_PAD.encode(self.auth),
            }
        })
    }

    /// Decrypts an `aes128gcm` message (RFC 8188 header; RFC 8291 keys), one record.
    fn decrypt(&self, body: &[u8]) -> Value {
        assert!(body.len() > 21 + 65, "too short: {} bytes", body.len());
        let salt = &body[..16];
        let rs = u32::from_be_bytes(body[16..20].try_into().unwrap());
        let idlen = body[20] as usize;
        assert_eq!(idlen, 65, "the key id is the sender's P-256 key");
        let sender = &body[21..21 + idlen];
        let ciphertext = &body[21 + idlen..];
        assert!(ciphertext.len() <= rs as usize, "one record");
        let sender_key = PublicKey::from_sec1_bytes(sender).expect("a P-256 point");
        let shared =
            p256::ecdh::diffie_hellman(self.secret.to_nonzero_scalar(), sender_key.as_affine());
        let mut key_info = b"WebPush: info\0".to_vec();
        key_info.extend_from_slice(&self.public());
        key_info.extend_from_slice(sender);
        let mut ikm = [0u8; 32];
        Hkdf::<Sha256>::new(Some(&self.auth), shared.raw_secret_bytes())
            .expand(&key_info, &mut ikm)
            .unwrap();
        let prk = Hkdf::<Sha256>::new(Some(salt), &ikm);
        let mut cek = [0u8; 16];
        prk.expand(b"Content-Encoding: aes128gcm\0", &mut cek)
            .unwrap();
        let mut nonce = [0u8; 12];
        prk.expand(b"Content-Encoding: nonce\0", &mut nonce)
            .unwrap();
        let mut plain = Aes128Gcm::new_from_slice(&cek)
            .unwrap()
            .decrypt(Nonce::from_slice(&nonce), ciphertext)
            .expect("the tag verifies");
        while plain.last() == Some(&0) {
            plain.pop();
        }
        assert_eq!(plain.pop(), Some(2), "the last record's delimiter");
        serde_json::from_slice(&plain).expect("a JSON payload")
    }
}

/// What the push service received.
struct Received {
    path: String,
    headers: HeaderMap,
    body: Bytes,
}

#[derive(Clone)]
struct Service {
    tx: mpsc::UnboundedSender<Received>,
    /// Paths answered 410 Gone.
    gone: Arc<Mutex<Vec<String>>>,
}

async fn receive(
    State(s): State<Service>,
    Path(path): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> StatusCode {
    let gone = s.gone.lock().unwrap().contains(&path);
    let _ = s.tx.send(Received {
        path,
        headers,
        body,
    });
    if gone {
        StatusCode::GONE
    } else {
        StatusCode::CREATED
    }
}

/// A push service on a local port: `(its origin, what it receives, paths that are gone)`.
async fn push_service() -> (
    String,
    mpsc::UnboundedReceiver<Received>,
    Arc<Mutex<Vec<String>>>,
) {
    let (tx, rx) = mpsc::unbounded_channel();
    let gone = Arc::new(Mutex::new(Vec::new()));
    let app = Router::new()
        .route("/push/{path}", post(receive))
        .with_state(Service {
            tx,
            gone: gone.clone(),
        });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let origin = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (origin, rx, gone)
}

/// Checks the request as a push service would (VAPID token for this origin, signed by the
/// server's key; the aes128gcm encoding, a TTL) and decrypts it.
fn open(r: &Received, origin: &str, server_key: &str, browser: &Browser) -> Value {
    let header = |n: &str| r.headers.get(n).and_then(|v| v.to_str().ok()).unwrap_or("");
    assert_eq!(header("content-encoding"), "aes128gcm");
    assert!(header("ttl").parse::<u32>().is_ok_and(|t| t > 0));
    let (token, k) = header("authorization")
        .strip_prefix("vapid t=")
        .and_then(|a| a.split_once(", k="))
        .expect("vapid t=…, k=…");
    assert_eq!(k, server_key, "signed by the key browsers subscribed with");
    let (signed, signature) = token.rsplit_once('.').unwrap();
    let key = VerifyingKey::from_sec1_bytes(&URL_SAFE_NO_PAD.decode(k).unwrap()).unwrap();
    let signature = Signature::from_slice(&URL_SAFE_NO_PAD.decode(signature).unwrap()).unwrap();
    key.verify(signed.as_bytes(), &signature)
        .expect("the VAPID token verifies");
    let claims: Value = serde_json::from_slice(
        &URL_SAFE_NO_PAD
            .decode(signed.split('.').nth(1).unwrap())
            .unwrap(),
    )
    .unwrap();
    assert_eq!(claims["aud"], origin);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let exp = claims["exp"].as_u64().unwrap();
    assert!(exp > now && exp <= now + 24 * 3600, "{claims}");
    assert!(claims["sub"].as_str().is_some_and(|s| !s.is_empty()));
    browser.decrypt(&r.body)
}

async fn next(rx: &mut mpsc::UnboundedReceiver<Received>) -> Received {
    tokio::time::timeout(std::time::Duration::from_secs(30), rx.recv())
        .await
        .expect("a push within 30 s")
        .expect("the service runs")
}

/// Plays `mv` at `ply` on `ws`: the `move` event (with the next side's legal moves).
async fn play(ws: &mut Ws, mv: &str, ply: u64) -> Value {
    ws.send(json!({"t": "move", "move": mv, "ply": ply, "ack": ply}))
        .await;
    ws.recv_t("ack").await;
    ws.recv_t("move").await
}

/// Waits until `watcher` sees the player of `color` connected (or not).
async fn wait_presence(watcher: &mut Ws, color: &str, connected: bool) {
    while watcher.recv_t("presence").await[color] != connected {}
}

async fn a_player_away_is_told_and_a_gone_subscription_dropped(backend: Backend) {
    let db = TestDb::new(backend).await;
    let (origin, mut rx, gone) = push_service().await;
    let mut c = config(&db);
    c.push.push_services = "127.0.0.1".into();
    c.push.push_allow_http = true;
    let s = TestServer::start(c).await;
    let key = s.http("GET", "/api/push/key", None, None).await.json()["key"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(URL_SAFE_NO_PAD.decode(&key).unwrap().len(), 65, "{key}");

    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (guest, _) = s.guest("Gość").await;
    let phone = Browser::new();
    let laptop = Browser::new();
    let sub = |path: &str, b: &Browser| b.subscription(&format!("{origin}/push/{path}"));
    // A guest cannot subscribe; an endpoint that is not a known push service is refused.
    let r = s
        .http(
            "POST",
            "/api/push/subscribe",
            Some(&guest),
            Some(sub("g", &phone)),
        )
        .await;
    assert_eq!(
        (r.status, r.error_code()),
        (403, "forbidden".into()),
        "{}",
        r.body
    );
    let r = s
        .http(
            "POST",
            "/api/push/subscribe",
            Some(&bolek),
            Some(phone.subscription("http://169.254.169.254/latest/meta-data")),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    for (path, b) in [("phone", &phone), ("laptop", &laptop)] {
        let r = s
            .http(
                "POST",
                "/api/push/subscribe",
                Some(&bolek),
                Some(sub(path, b)),
            )
            .await;
        assert_eq!(r.status, 204, "{}", r.body);
    }
    gone.lock().unwrap().push("laptop".into());

    let (table, mut w, b, started) = rated_game(&s, &ala, &bolek).await;
    // Bolek closes the page; Ala moves: both his browsers are told it is his move.
    drop(b);
    wait_presence(&mut w, "black", false).await;
    let mv = started["legal"][0].as_str().unwrap();
    let moved = play(&mut w, mv, 1).await;
    let mut paths = Vec::new();
    for _ in 0..2 {
        let r = next(&mut rx).await;
        let browser = if r.path == "phone" { &phone } else { &laptop };
        let n = open(&r, &origin, &key, browser);
        assert_eq!(
            (&n["kind"], &n["opponent"], &n["variant"], &n["game"]),
            (
                &json!("your_turn"),
                &json!("Ala"),
                &json!("russian"),
                &started["id"]
            ),
            "{n}"
        );
        assert_eq!(n["url"], format!("/#/table/{table}"), "{n}");
        paths.push(r.path);
    }
    paths.sort();
    assert_eq!(paths, ["laptop", "phone"]);
    // The laptop's push service answered 410: that subscription is dropped.

    // Bolek comes back: while he watches, Ala's move tells him nothing.
    let mut b = s.table_ws(&table, Some(&bolek)).await;
    b.state().await;
    wait_presence(&mut w, "black", true).await;
    let moved = play(&mut b, moved["legal"][0].as_str().unwrap(), 2).await;
    let moved = play(&mut w, moved["legal"][0].as_str().unwrap(), 3).await;
    // He turns "your move" off, moves and leaves: Ala's next move tells him nothing.
    let mut settings = s
        .http("GET", "/api/push/settings", Some(&bolek), None)
        .await
        .json();
    assert_eq!(settings["your_turn"], true, "{settings}");
    settings["your_turn"] = json!(false);
    let r = s
        .http("PUT", "/api/push/settings", Some(&bolek), Some(settings))
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let moved = play(&mut b, moved["legal"][0].as_str().unwrap(), 4).await;
    drop(b);
    wait_presence(&mut w, "black", false).await;
    play(&mut w, moved["legal"][0].as_str().unwrap(), 5).await;
    // An offer is still told, to the phone only; then the end.
    w.send(json!({"t": "draw_offer"})).await;
    w.recv_t("draw_offered").await;
    let offer = next(&mut rx).await;
    assert_eq!(offer.path, "phone", "the gone subscription was dropped");
    let n = open(&offer, &origin, &key, &phone);
    assert_eq!(
        n["kind"], "offer",
        "nothing while he watched or had turned it off: {n}"
    );
    w.send(json!({"t": "resign"})).await;
    w.recv_t("game_over").await;
    let end = next(&mut rx).await;
    assert_eq!(end.path, "phone");
    assert_eq!(open(&end, &origin, &key, &phone)["kind"], "game_end");

    s.stop().await;
    db.cleanup().await;
}

/// A correspondence game (issue 40, item 1): the player to move who is away is told once
/// that their time runs low, when 80% of the period is gone.
async fn a_correspondence_player_is_told_when_time_runs_low(backend: Backend) {
    const HOUR: u64 = 3_600_000;
    let db = TestDb::new(backend).await;
    let (origin, mut rx, _) = push_service().await;
    let mut c = config(&db);
    c.push.push_services = "127.0.0.1".into();
    c.push.push_allow_http = true;
    let s = TestServer::start(c).await;
    let key = s.http("GET", "/api/push/key", None, None).await.json()["key"]
        .as_str()
        .unwrap()
        .to_owned();
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let phone = Browser::new();
    let r = s
        .http(
            "POST",
            "/api/push/subscribe",
            Some(&bolek),
            Some(phone.subscription(&format!("{origin}/push/phone"))),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    let table = s
        .create_table(&ala, "russian", json!({"days": 1, "seat": "white"}))
        .await;
    let id = table["id"].as_str().unwrap();
    let mut w = s.table_ws(id, Some(&ala)).await;
    w.state().await;
    let mut b = s.table_ws(id, Some(&bolek)).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    b.recv_t("seated").await;
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    // Bolek watches the first moves (told nothing), then leaves on his move.
    let moved = play(&mut w, started["legal"][0].as_str().unwrap(), 1).await;
    let moved = play(&mut b, moved["legal"][0].as_str().unwrap(), 2).await;
    let moved = play(&mut w, moved["legal"][0].as_str().unwrap(), 3).await;
    assert_eq!(moved["turn"], "black");
    drop(b);
    wait_presence(&mut w, "black", false).await;
    // 19 h of 24 gone, then 20 h: 80% is 19.2 h.
    s.advance(19 * HOUR).await;
    s.advance(HOUR).await;
    let n = open(&next(&mut rx).await, &origin, &key, &phone);
    assert_eq!(
        (&n["kind"], &n["opponent"], &n["game"]),
        (&json!("time_low"), &json!("Ala"), &started["id"]),
        "the first push Bolek gets: {n}"
    );
    // Once per move: the rest of the period tells him nothing more, the end does.
    s.advance(4 * HOUR - 1).await;
    s.advance(1).await;
    w.recv_t("game_over").await;
    let end = open(&next(&mut rx).await, &origin, &key, &phone);
    assert_eq!(end["kind"], "game_end", "{end}");
    s.stop().await;
    db.cleanup().await;
}

crate::both_backends!(
    a_player_away_is_told_and_a_gone_subscription_dropped,
    a_correspondence_player_is_told_when_time_runs_low,
);
