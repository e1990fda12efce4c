//! A session's end ends its sockets (issue 34, item 5), over real sockets: signing out
//! everywhere, a password change and the operator's `damka account disable` close every
//! socket opened with an ended session with 4001 (`signed out`), and nothing such a
//! socket sends afterwards is acted on (no chat, no rated game started, no move
//! acknowledged); sessions expire (idle and absolute limits), checked at every use, the
//! open sockets' sessions re-checked periodically, the expired ones swept.

use damka_protocol::Side;
use damka_server::Config;
use serde_json::{Value, json};

use crate::accounts::{account, me_status, sign_in};
use crate::accounts_restart::operator;
use crate::common::{Backend, TestDb, TestServer, Ws, config};

/// The close code of an ended session.
const SIGNED_OUT: u16 = damka_protocol::close::SIGNED_OUT;

/// Sends on a socket the server may have closed already (the client has not read the
/// close yet); a failed send is fine: the point is that nothing sent is acted on.
async fn send_late(ws: &mut Ws, v: Value) {
    use futures_util::SinkExt as _;
    let text = tokio_tungstenite::tungstenite::Message::Text(v.to_string().into());
    let _ = ws.stream.send(text).await;
}

/// The code `ws` is closed with, within the harness's timeout in all (the server's
/// pings, which [`Ws::closed`] reads past, do not extend it).
async fn close_code(ws: &mut Ws) -> Option<u16> {
    tokio::time::timeout(crate::common::ws::TIMEOUT, ws.closed())
        .await
        .expect("the socket is closed in time")
}

/// A test configuration whose sockets' sessions are re-checked every second.
fn cfg(db: &TestDb) -> Config {
    let mut c = config(db);
    c.sessions.session_check_secs = 1;
    c
}

/// A room socket of the Russian room with `cookie`, past its snapshot.
async fn room_ws(s: &TestServer, cookie: &str) -> Ws {
    let mut ws = Ws::connect(&s.addr, "/ws/rooms/russian", Some(cookie), None).await;
    ws.recv_t("room").await;
    ws
}

/// A rated table of `white` in the Russian room: its id and White's socket there.
async fn rated_table(s: &TestServer, white: &str) -> (String, Ws) {
    let t = s
        .create_table(
            white,
            "russian",
            json!({"minutes": 5, "increment": 0, "rated": true, "seat": "white"}),
        )
        .await;
    let id = t["id"].as_str().unwrap().to_owned();
    let mut w = s.table_ws(&id, Some(white)).await;
    w.state().await;
    (id, w)
}

/// `black` sits at the table; returns its socket.
async fn sit_black(s: &TestServer, table: &str, black: &str) -> Ws {
    let mut b = s.table_ws(table, Some(black)).await;
    b.state().await;
    b.send(json!({"t": "sit", "seat": "black"})).await;
    b.recv_t("seated").await;
    b
}

/// The table's `state` as a spectator sees it.
async fn state_of(s: &TestServer, table: &str) -> Value {
    s.table_ws(table, None).await.recv_t("state").await
}

/// Runs a statement on the test's database.
async fn exec(db: &TestDb, backend: Backend, sql: &str) {
    match backend {
        Backend::Sqlite => {
            let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
            sqlx::query(sql).execute(&pool).await.unwrap();
            pool.close().await;
        }
        Backend::Postgres => {
            let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
            sqlx::query(sql).execute(&pool).await.unwrap();
            pool.close().await;
        }
    }
}

async fn signing_out_everywhere_closes_every_socket_at_once(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (here, _) = account(&s, "Ala", "ala ma kota").await;
    let there = sign_in(&s, "Ala", "ala ma kota").await.cookie().unwrap();
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    // Ala, on her second device, sits at a rated table with Bolek and has the room open.
    let (table, mut w) = rated_table(&s, &there).await;
    let mut b = sit_black(&s, &table, &bolek).await;
    let mut ala_room = room_ws(&s, &there).await;
    let mut bolek_room = room_ws(&s, &bolek).await;
    // Signed out everywhere from the first device.
    let out = s
        .http("DELETE", "/api/session?all=true", Some(&here), None)
        .await;
    assert_eq!(out.status, 204);
    // What the second device sends now is never acted on: its sockets close first.
    send_late(&mut w, json!({"t": "start"})).await;
    send_late(
        &mut ala_room,
        json!({"t": "chat", "text": "still here", "ack": 1}),
    )
    .await;
    assert_eq!(close_code(&mut w).await, Some(SIGNED_OUT));
    assert_eq!(close_code(&mut ala_room).await, Some(SIGNED_OUT));
    // No rated game starts: Bolek's start readies Black alone.
    b.send(json!({"t": "start"})).await;
    assert_eq!(b.recv_t("ready").await["seat"], "black");
    let st = state_of(&s, &table).await;
    assert_eq!(st["status"], "waiting", "{st}");
    assert_eq!(st["ready"], json!({"white": false, "black": true}), "{st}");
    // No chat went out: the next message the room sees is Bolek's.
    bolek_room
        .send(json!({"t": "chat", "text": "gone?", "ack": 1}))
        .await;
    let chat = bolek_room.recv_t("chat").await;
    assert_eq!(chat["text"], "gone?", "{chat}");
    assert_eq!(me_status(&s, &there).await, 401);
    s.stop().await;
    db.cleanup().await;
}

async fn a_password_change_closes_the_other_sessions_sockets_mid_game(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (here, _) = account(&s, "Ala", "ala ma kota").await;
    let there = sign_in(&s, "Ala", "ala ma kota").await.cookie().unwrap();
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (table, mut w) = rated_table(&s, &here).await;
    let mut b = sit_black(&s, &table, &bolek).await;
    w.send(json!({"t": "start"})).await;
    b.send(json!({"t": "start"})).await;
    let started = w.recv_t("game_started").await;
    b.recv_t("game_started").await;
    crate::common::one_move_each(&mut w, &mut b, &started).await;
    // Ala's second device watches the game as White too.
    let mut w2 = s.table_ws(&table, Some(&there)).await;
    let st = w2.state().await;
    assert_eq!(st.you.and_then(|y| y.seat), Some(Side::White));
    let legal = st.legal;
    assert!(legal.len() >= 2, "{legal:?}");
    let mut w2_room = room_ws(&s, &there).await;
    // The password changes on the first device: the second one is signed out.
    let r = s
        .http(
            "POST",
            "/api/account/password",
            Some(&here),
            Some(json!({"old": "ala ma kota", "new": "kot ma ale"})),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
    // Its move is never played: the socket closes without an `ack`.
    send_late(
        &mut w2,
        json!({"t": "move", "move": legal[0], "ply": 3, "ack": 3}),
    )
    .await;
    assert_eq!(close_code(&mut w2).await, Some(SIGNED_OUT));
    assert!(
        w2.log.iter().all(|m| m["t"] != "ack"),
        "acknowledged: {:?}",
        w2.log
    );
    assert_eq!(close_code(&mut w2_room).await, Some(SIGNED_OUT));
    // The first device plays another move for that ply: it is the one played (had the
    // second device's been played, this would be `stale_ply`).
    w.send(json!({"t": "move", "move": legal[1], "ply": 3, "ack": 3}))
        .await;
    assert_eq!(w.recv_t("ack").await["ack"], 3);
    let seen = loop {
        let m = b.recv_t("move").await;
        if m["ply"] == 3 {
            break m;
        }
    };
    assert_eq!(seen["move"], legal[1].as_str());
    s.stop().await;
    db.cleanup().await;
}

async fn the_operators_commands_close_the_accounts_sockets(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(cfg(&db)).await;
    let (ala, _) = account(&s, "Ala", "ala ma kota").await;
    let (bolek, _) = account(&s, "Bolek", "bolek i lolek").await;
    let (table, mut w) = rated_table(&s, &ala).await;
    let mut b = sit_black(&s, &table, &bolek).await;
    let mut bolek_room = room_ws(&s, &bolek).await;
    // Another process disables Ala: the server finds out at its next check.
    let (ok, out) = operator(&db.url, &["disable", "ala"], None);
    assert!(ok, "{out}");
    assert_eq!(close_code(&mut w).await, Some(SIGNED_OUT));
    b.send(json!({"t": "start"})).await;
    b.recv_t("ready").await;
    let st = state_of(&s, &table).await;
    assert_eq!(st["ready"]["white"], false, "{st}");
    // `account sign-out` ends every session, without disabling.
    let (ok, out) = operator(&db.url, &["sign-out", "Bolek"], None);
    assert!(ok, "{out}");
    assert!(out.contains("sessions ended"), "{out}");
    assert_eq!(close_code(&mut bolek_room).await, Some(SIGNED_OUT));
    assert_eq!(close_code(&mut b).await, Some(SIGNED_OUT));
    assert_eq!(me_status(&s, &bolek).await, 401);
    assert_eq!(sign_in(&s, "Bolek", "bolek i lolek").await.status, 200);
    s.stop().await;
    db.cleanup().await;
}

async fn a_guest_that_signs_up_keeps_its_sockets_until_the_account_signs_out(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(config(&db)).await;
    let (guest, _) = s.guest("Zosia").await;
    let mut room = room_ws(&s, &guest).await;
    let r = s
        .http(
            "POST",
            "/api/account",
            Some(&guest),
            Some(json!({"username": "Zosia", "password": "zosia samosia"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let cookie = r.cookie().unwrap();
    // The socket the guest opened goes on (a game would too) ...
    room.send(json!({"t": "chat", "text": "hello", "ack": 1}))
        .await;
    assert_eq!(room.recv_t("chat").await["text"], "hello");
    // ... and ends with the account's session.
    let out = s.http("DELETE", "/api/session", Some(&cookie), None).await;
    assert_eq!(out.status, 204);
    assert_eq!(close_code(&mut room).await, Some(SIGNED_OUT));
    s.stop().await;
    db.cleanup().await;
}

async fn sessions_expire_idle_and_absolute(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(cfg(&db)).await;
    let core = s.server.state.core.clone();
    let (ala, body) = account(&s, "Ala", "ala ma kota").await;
    let id = body["id"].as_str().unwrap().to_owned();
    let idle = sign_in(&s, "Ala", "ala ma kota").await.cookie().unwrap();
    let old = sign_in(&s, "Ala", "ala ma kota").await.cookie().unwrap();
    let hash = |cookie: &str| damka_server::session::token_hash(cookie.split_once('=').unwrap().1);
    let day = 24 * 3600 * 1000_i64;
    let now = damka_server::time::unix_ms();
    // One session unused for 31 days (the idle limit is 30), one made 366 days ago (the
    // absolute limit is 365) but used a minute ago, with a socket open.
    let mut socket = room_ws(&s, &old).await;
    exec(
        &db,
        backend,
        &format!(
            "UPDATE sessions SET used_at = {} WHERE token_hash = '{}'",
            now - 31 * day,
            hash(&idle)
        ),
    )
    .await;
    exec(
        &db,
        backend,
        &format!(
            "UPDATE sessions SET created_at = {}, used_at = {} WHERE token_hash = '{}'",
            now - 366 * day,
            now - 60_000,
            hash(&old)
        ),
    )
    .await;
    // Checked at every use ...
    assert_eq!(me_status(&s, &idle).await, 401);
    assert_eq!(me_status(&s, &old).await, 401);
    assert_eq!(me_status(&s, &ala).await, 200);
    // ... and the open socket's session at the next check.
    assert_eq!(close_code(&mut socket).await, Some(SIGNED_OUT));
    // The sweep deletes both; the live one stays.
    assert_eq!(core.store.session_count(&id).await.unwrap(), 3);
    damka_server::session_sweep::expire_sessions(&core)
        .await
        .unwrap();
    assert_eq!(core.store.session_count(&id).await.unwrap(), 1);
    s.stop().await;
    db.cleanup().await;
}

async fn a_session_in_use_does_not_idle_out(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = config(&db);
    c.sessions.session_idle_days = 1;
    // The checks below are the test's own.
    c.sessions.session_check_secs = 3600;
    let s = TestServer::start(c).await;
    let core = s.server.state.core.clone();
    let (ala, body) = account(&s, "Ala", "ala ma kota").await;
    let id = body["id"].as_str().unwrap().to_owned();
    let hash = damka_server::session::token_hash(ala.split_once('=').unwrap().1);
    let hour = 3600 * 1000_i64;
    let now = damka_server::time::unix_ms();
    let set_used =
        |at: i64| format!("UPDATE sessions SET used_at = {at} WHERE token_hash = '{hash}'");
    // Used 23 hours ago: a request now writes the use (at the next check).
    exec(&db, backend, &set_used(now - 23 * hour)).await;
    assert_eq!(me_status(&s, &ala).await, 200);
    damka_server::session_sweep::check_sessions(&core)
        .await
        .unwrap();
    // A day after the write it would have idled out without it.
    let live = core
        .store
        .live_sessions(
            std::slice::from_ref(&hash),
            damka_server::session_sweep::cutoffs(&core.config, now + 2 * hour),
        )
        .await
        .unwrap();
    assert_eq!(live.len(), 1, "the use was written");
    // An open socket keeps its session in use too.
    let _socket = room_ws(&s, &ala).await;
    exec(&db, backend, &set_used(now - 23 * hour)).await;
    let check = damka_server::session_sweep::check_sessions(&core)
        .await
        .unwrap();
    assert_eq!(check.closed, 0);
    assert!(check.touched >= 1, "{check:?}");
    assert_eq!(core.store.session_count(&id).await.unwrap(), 1);
    let live = core
        .store
        .live_sessions(
            std::slice::from_ref(&hash),
            damka_server::session_sweep::cutoffs(&core.config, now + 2 * hour),
        )
        .await
        .unwrap();
    assert_eq!(live.len(), 1, "the socket's use was written");
    s.stop().await;
    db.cleanup().await;
}

both_backends!(
    signing_out_everywhere_closes_every_socket_at_once,
    a_password_change_closes_the_other_sessions_sockets_mid_game,
    the_operators_commands_close_the_accounts_sockets,
    a_guest_that_signs_up_keeps_its_sockets_until_the_account_signs_out,
    sessions_expire_idle_and_absolute,
    a_session_in_use_does_not_idle_out,
);
