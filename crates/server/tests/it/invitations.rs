//! Invitations over real sockets: a player seated at a table with a free seat invites a
//! person on the room page; only the invited person's room sockets (and the inviter's, as
//! the confirmation) get it; nonsense and floods are refused.

use crate::common::{Backend, TestDb, TestServer, Ws, config};
use damka_protocol::ErrorCode;
use serde_json::{Value, json};

/// The next message of one of `types` (skipping table events, people, presence).
async fn next_of(ws: &mut Ws, types: &[&str]) -> Value {
    loop {
        let v = ws.recv().await;
        if types.iter().any(|t| v["t"] == *t) {
            return v;
        }
    }
}

async fn room_socket(s: &TestServer, cookie: Option<&str>) -> Ws {
    let mut ws = Ws::connect(&s.addr, "/ws/rooms/russian", cookie, None).await;
    ws.recv_t("room").await;
    ws
}

async fn invite(ws: &mut Ws, to: &Value, table: &str, ack: u64) -> Option<Value> {
    ws.send(json!({"t": "invite", "to": to, "table": table, "ack": ack}))
        .await;
    let v = next_of(ws, &["invited", "error"]).await;
    if v["t"] == "error" {
        assert_eq!(v["ack"], ack, "{v}");
        Some(v)
    } else {
        None
    }
}

fn code(e: Option<Value>) -> Option<String> {
    e.map(|e| e["code"].as_str().unwrap().to_owned())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_invitation_reaches_the_invited_person_only() {
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(config(&db)).await;
    let (a, ala) = s.guest("Ala").await;
    let (o, ola) = s.guest("Ola").await;
    let (e, ewa) = s.guest("Ewa").await;
    let table = s
        .create_table(
            &a,
            "russian",
            json!({"minutes": 3, "increment": 2, "seat": "white"}),
        )
        .await;
    let tid = table["id"].as_str().unwrap().to_owned();
    let mut ra = room_socket(&s, Some(&a)).await;
    let mut ro = room_socket(&s, Some(&o)).await;
    // Ola has the room open in two tabs: both get it.
    let mut ro2 = room_socket(&s, Some(&o)).await;
    let mut re = room_socket(&s, Some(&e)).await;
    let mut anon = room_socket(&s, None).await;

    assert_eq!(invite(&mut ra, &ola["id"], &tid, 1).await, None);
    let seen = ra.log.last().cloned().unwrap();
    assert_eq!(seen["t"], "invited", "the inviter's confirmation");
    for ws in [&mut ro, &mut ro2] {
        let inv = ws.recv_t("invited").await;
        assert_eq!(inv["id"], seen["id"]);
        assert_eq!(
            (&inv["from"], &inv["to"]),
            (
                &json!({"id": ala["id"], "name": "Ala"}),
                &json!({"id": ola["id"], "name": "Ola"})
            )
        );
        assert_eq!(inv["table"]["id"], tid.as_str());
        assert_eq!(
            inv["table"]["options"],
            json!({"minutes": 3, "increment": 2, "random_opening": false, "capture_optional": false})
        );
        assert!(inv["at"].as_str().unwrap().ends_with('Z'), "{inv}");
    }
    // Everyone else: nothing. A room chat message sent after it is the first thing they
    // see (events are ordered).
    ra.send(json!({"t": "chat", "text": "after the invitation"}))
        .await;
    for ws in [&mut re, &mut anon] {
        let v = next_of(ws, &["invited", "chat"]).await;
        assert_eq!(v["t"], "chat", "not for them: {v}");
    }

    // Not to oneself; not to someone absent or unknown; only from a seated player.
    assert_eq!(
        code(invite(&mut ra, &ala["id"], &tid, 2).await).as_deref(),
        Some("bad_message")
    );
    assert_eq!(
        code(invite(&mut ra, &json!("nobody"), &tid, 3).await).as_deref(),
        Some("not_found")
    );
    assert_eq!(
        code(invite(&mut ra, &ola["id"], "t-none", 4).await).as_deref(),
        Some("not_found")
    );
    assert_eq!(
        code(invite(&mut re, &ola["id"], &tid, 5).await).as_deref(),
        Some("not_seated")
    );
    anon.send(json!({"t": "invite", "to": ola["id"], "table": tid, "ack": 6}))
        .await;
    let err = anon.error().await;
    assert_eq!(
        (err.code, err.ack),
        (ErrorCode::Unauthorized, Some(json!(6)))
    );
    // Ewa closes the room: she is no longer there to be invited.
    re.stream.close(None).await.ok();
    drop(re);
    let mut refused = None;
    for ack in 7..40 {
        match code(invite(&mut ra, &ewa["id"], &tid, ack).await) {
            Some(c) if c == "not_found" => {
                refused = Some(c);
                break;
            }
            // Until her socket's close reached the server, she is still there (and the
            // invitation is sent); the flood control may answer meanwhile.
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    assert_eq!(refused.as_deref(), Some("not_found"));

    // Flood control: a burst of three, then `rate_limited` (Ala's bucket may already be
    // spent by the tries above, so count from a fresh inviter).
    let (c, _) = s.guest("Celina").await;
    let t2 = s
        .create_table(
            &c,
            "russian",
            json!({"minutes": 5, "increment": 0, "seat": "black"}),
        )
        .await;
    let t2 = t2["id"].as_str().unwrap().to_owned();
    let mut rc = room_socket(&s, Some(&c)).await;
    // Each invited person once (what one person may receive is limited too: see
    // `address_limits`).
    let mut invited_sockets = Vec::new();
    let mut invited = Vec::new();
    for name in ["Ida", "Jan", "Kuba", "Lena"] {
        let (cookie, guest) = s.guest(name).await;
        invited_sockets.push(room_socket(&s, Some(&cookie)).await);
        invited.push(guest);
    }
    for (ack, guest) in (100..103).zip(&invited) {
        assert_eq!(invite(&mut rc, &guest["id"], &t2, ack).await, None);
    }
    assert_eq!(
        code(invite(&mut rc, &invited[3]["id"], &t2, 103).await).as_deref(),
        Some("rate_limited")
    );

    // Once the free seat is taken, or a game is played there: refused.
    let mut wo = s.table_ws(&tid, Some(&o)).await;
    wo.state().await;
    wo.send(json!({"t": "sit", "seat": "black"})).await;
    wo.recv_t("seated").await;
    let (p, pia) = s.guest("Pia").await;
    let _rp = room_socket(&s, Some(&p)).await;
    let mut seat_taken = None;
    for ack in 200..260 {
        // The room's copy of the table follows the seat a moment later.
        match code(invite(&mut ra, &pia["id"], &tid, ack).await) {
            Some(c) if c == "seat_taken" => {
                seat_taken = Some(c);
                break;
            }
            _ => tokio::time::sleep(std::time::Duration::from_millis(50)).await,
        }
    }
    assert_eq!(seat_taken.as_deref(), Some("seat_taken"));
    s.stop().await;
    db.cleanup().await;
}
