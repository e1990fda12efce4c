//! The store's rating update under concurrency (issue 34, item 8): on PostgreSQL two
//! nodes ending a player's first two rated games at the same instant each rated from
//! nothing (the row lock had no row to lock) and one update was lost. The rows are now
//! made before they are locked: the two ends take turns.

use damka_protocol::{EndReason, GameResult, GameStatus};
use damka_store::{ClockRow, GameEnd, GameRow, NewGame, RatedEnd, Store, StoreOptions, Write};

use crate::common::{Backend, TestDb};

fn game(id: &str, white: &str, black: &str) -> GameRow {
    GameRow {
        id: id.into(),
        table_id: format!("t{id}"),
        room: "russian".into(),
        variant: "russian".into(),
        minutes: 5,
        increment_s: 0,
        days: None,
        random_opening: false,
        capture_optional: false,
        rated: true,
        white_id: white.into(),
        white_name: white.into(),
        black_id: black.into(),
        black_name: black.into(),
        initial_fen: "W:W21,22:B1,2".into(),
        opening_plies: 0,
        ballot: None,
        ballot_random: false,
        micro_match: None,
        status: GameStatus::Playing,
        result: None,
        reason: None,
        clock: ClockRow {
            white_ms: 60_000,
            black_ms: 60_000,
            ply: 0,
        },
        started_at: 1_700_000_000_000,
        ended_at: None,
    }
}

fn end(white: &str, black: &str, at: i64) -> GameEnd {
    GameEnd {
        result: Some(GameResult::Black),
        reason: EndReason::Resign,
        clock: ClockRow {
            white_ms: 60_000,
            black_ms: 60_000,
            ply: 10,
        },
        ended_at: at,
        rated: Some(RatedEnd::new("russian", white, black)),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn first_rated_games_ending_at_once_on_two_nodes_are_both_rated() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let db = TestDb::new(Backend::Postgres).await;
    // Two nodes: two stores (two writers) on one database.
    let one = Store::connect_with(&db.url, StoreOptions::default())
        .await
        .unwrap();
    let two = Store::connect_with(&db.url, StoreOptions::default())
        .await
        .unwrap();
    for (i, id) in ["x", "a", "b"].iter().enumerate() {
        one.write(Write::Guest {
            id: (*id).into(),
            name: (*id).into(),
            token_hash: format!("hash{i}"),
            now: 1,
        })
        .await
        .unwrap();
    }
    // Several rounds: the race is a matter of timing, so each round is a new player X
    // whose first two rated games (against A and B) end at the same instant.
    for round in 0..6 {
        let x = format!("x{round}");
        one.write(Write::Guest {
            id: x.clone(),
            name: x.clone(),
            token_hash: format!("hx{round}"),
            now: 1,
        })
        .await
        .unwrap();
        let (g1, g2) = (format!("g{round}a"), format!("g{round}b"));
        for (g, black) in [(&g1, "a"), (&g2, "b")] {
            one.write(Write::Game(Box::new(NewGame {
                row: game(g, &x, black),
                opening: Vec::new(),
            })))
            .await
            .unwrap();
        }
        let at = 1_700_000_100_000 + round;
        let (r1, r2) = tokio::join!(
            one.finish_game(&g1, end(&x, "a", at)),
            two.finish_game(&g2, end(&x, "b", at)),
        );
        // Each write reports the changes it stored (X plays White in both).
        let reported = [
            r1.unwrap().expect("a rated end reports its changes"),
            r2.unwrap().expect("a rated end reports its changes"),
        ];
        let rating = one.rating_of(&x, "russian").await.unwrap().expect("rated");
        assert_eq!(rating.games, 2, "round {round}: both games counted");
        // Rated one after the other: the second game started from the first's result.
        let mut history: Vec<(String, f64, f64)> = Vec::new();
        for g in [&g1, &g2] {
            for (player, before, after) in one.game_rating_changes(g).await.unwrap() {
                if player == x {
                    history.push((g.clone(), before, after));
                }
            }
        }
        assert_eq!(history.len(), 2);
        for (changes, (g, before, after)) in reported.iter().zip(&history) {
            assert_eq!(
                (changes.white.before.rating, changes.white.after.rating),
                (*before, *after),
                "round {round}, {g}: the reported change is the stored one"
            );
        }
        let from_nothing = history.iter().filter(|h| h.1 == 1500.0).count();
        assert_eq!(
            from_nothing, 1,
            "round {round}: one game rated on the other: {history:?}"
        );
        let last = history.iter().find(|h| h.1 != 1500.0).unwrap();
        assert!(
            (rating.rating.rating - last.2).abs() < 1e-9,
            "round {round}"
        );
    }
    one.close().await;
    two.close().await;
    db.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn voiding_an_account_recomputes_everyone_from_the_games_left() {
    for backend in [Backend::Sqlite, Backend::Postgres] {
        if backend == Backend::Postgres && crate::common::postgres_url().is_none() {
            continue;
        }
        let db = TestDb::new(backend).await;
        let store = Store::connect_with(&db.url, StoreOptions::default())
            .await
            .unwrap();
        for (i, id) in ["farmer", "mule", "honest", "other"].iter().enumerate() {
            store
                .write(Write::Guest {
                    id: (*id).into(),
                    name: (*id).into(),
                    token_hash: format!("h{i}"),
                    now: 1,
                })
                .await
                .unwrap();
        }
        // The farmer beats the mule five times, then loses to the honest player; the
        // honest player then beats another.
        let mut n = 0;
        let mut play = async |white: &str, black: &str| {
            n += 1;
            let id = format!("v{n}");
            store
                .write(Write::Game(Box::new(NewGame {
                    row: game(&id, white, black),
                    opening: Vec::new(),
                })))
                .await
                .unwrap();
            // Black wins.
            let changes = store
                .finish_game(&id, end(white, black, 1_700_000_000_000 + n * 60_000))
                .await
                .unwrap()
                .expect("rated");
            assert!(changes.black.after.rating > changes.black.before.rating);
        };
        for _ in 0..5 {
            play("mule", "farmer").await;
        }
        play("farmer", "honest").await;
        play("other", "honest").await;
        let farmed = store.rating_of("honest", "russian").await.unwrap().unwrap();
        store
            .fair_play_write(damka_store::FairPlayWrite::Void {
                player_id: "farmer".into(),
            })
            .await
            .unwrap();
        // Left: only honest's win over other, from nothing.
        let honest = store.rating_of("honest", "russian").await.unwrap().unwrap();
        let other = store.rating_of("other", "russian").await.unwrap().unwrap();
        let g = damka_rating::Glicko2::default();
        let (o, h) = g.game(
            damka_rating::Rating::NEW,
            damka_rating::Rating::NEW,
            damka_rating::Outcome::Loss,
        );
        assert_eq!(honest.games, 1);
        assert!((honest.rating.rating - h.rating).abs() < 1e-9);
        assert!((other.rating.rating - o.rating).abs() < 1e-9);
        assert!(
            farmed.rating.rating > honest.rating.rating,
            "beating a farmed rating gave more"
        );
        assert!(
            store
                .rating_of("farmer", "russian")
                .await
                .unwrap()
                .is_none()
        );
        assert!(store.rating_of("mule", "russian").await.unwrap().is_none());
        assert_eq!(store.rated_games_of("farmer").await.unwrap(), 0);
        store.close().await;
        db.cleanup().await;
    }
}
