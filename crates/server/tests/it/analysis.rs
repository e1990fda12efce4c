//! Analysis (issue 25): a finished game's job (judgements, one job per game, refused
//! during play, resumed after a restart, annotated PDN read back by our reader), the
//! analysis board's best moves in every variant, and the limits.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use damka_protocol::{EndReason, GameResult, GameStatus};
use damka_server::analysis::{Budget, Curve, search_position};
use damka_store::{ClockRow, GameRow, MoveRow, NewGame, Write};
use draughts::{Game, Position, Rules, Variant};
use serde_json::Value;

use crate::common::{Backend, TestDb, TestServer, config, start_match};

/// The budget the tests analyse with (small: a debug build).
const TEST_BUDGET: Budget = Budget {
    nodes: 20_000,
    depth: 24,
};

fn test_config(db: &TestDb) -> damka_server::config::Config {
    let mut c = config(db);
    c.analysis.analysis_nodes = TEST_BUDGET.nodes;
    c.analysis.analysis_depth = TEST_BUDGET.depth;
    c.analysis.analysis_board_nodes = 20_000;
    // A look for jobs every second (5 by default): the tests wait for looks, not times.
    c.analysis.analysis_poll_secs = 1;
    c.trust_forwarded_for = true;
    c
}

/// Stores a finished game between the computer's seats (guest rows of every database)
/// with these moves; returns its id.
pub(crate) async fn store_game(
    s: &TestServer,
    variant: Variant,
    moves: &[String],
    n: u32,
) -> String {
    store_game_of(s, variant, moves, n, ("bot-1", "Computer (level 1)")).await
}

/// [`store_game`] with White played by `white` (a guest's id and name) against the
/// computer at level 2.
pub(crate) async fn store_game_of(
    s: &TestServer,
    variant: Variant,
    moves: &[String],
    n: u32,
    white: (&str, &str),
) -> String {
    let start = Position::new(Rules::new(variant)).to_fen();
    store_game_from(s, variant, &start, moves, n, white).await
}

/// [`store_game_of`] from the position `fen`.
pub(crate) async fn store_game_from(
    s: &TestServer,
    variant: Variant,
    fen: &str,
    moves: &[String],
    n: u32,
    white: (&str, &str),
) -> String {
    let id = format!("an{n}x{}", std::process::id());
    let start = Position::from_fen(Rules::new(variant), fen).unwrap();
    let mut pos = start.clone();
    let mut rows = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let mv = pos.parse_move(text).unwrap();
        pos = pos.play(&mv).unwrap();
        rows.push(MoveRow {
            ply: i as i64 + 1,
            mv: text.clone(),
            fen_after: pos.to_fen(),
            white_ms: 60_000,
            black_ms: 60_000,
            used_ms: 100,
        });
    }
    let row = GameRow {
        id: id.clone(),
        table_id: format!("t{id}"),
        room: variant.name().into(),
        variant: variant.name().into(),
        minutes: 5,
        increment_s: 0,
        days: None,
        random_opening: false,
        capture_optional: false,
        rated: false,
        white_id: white.0.into(),
        white_name: white.1.into(),
        black_id: "bot-2".into(),
        black_name: "Computer (level 2)".into(),
        initial_fen: start.to_fen(),
        opening_plies: 0,
        ballot: None,
        ballot_random: false,
        micro_match: None,
        status: GameStatus::Over,
        result: Some(GameResult::White),
        reason: Some(EndReason::Resign),
        clock: ClockRow {
            white_ms: 60_000,
            black_ms: 60_000,
            ply: moves.len() as i64,
        },
        started_at: 1_700_000_000_000,
        ended_at: Some(1_700_000_100_000),
    };
    s.server
        .state
        .core
        .store
        .write(Write::Game(Box::new(NewGame { row, opening: rows })))
        .await
        .unwrap();
    id
}

/// A game of `plies` moves from the start: the engine's own move (the analysis budget,
/// so exactly the analysis's best) except at `worst` plies, where the mover plays the
/// move the engine scores lowest. Returns the moves and the plies where the worst move
/// lost at least a mistake's expected result by the analysis's own scoring.
fn game_with_worst_moves(
    variant: Variant,
    plies: usize,
    worst: &[usize],
) -> (Vec<String>, Vec<usize>) {
    let stop = AtomicBool::new(false);
    let mut game = Game::new(Position::new(Rules::new(variant)));
    let mut moves = Vec::new();
    let mut bad = Vec::new();
    for ply in 1..=plies {
        if game.outcome().is_some() {
            break;
        }
        let pos = game.position().clone();
        let best = search_position(&game, TEST_BUDGET, &stop).best.unwrap();
        let mv = if worst.contains(&ply) && pos.legal_moves().len() > 1 {
            // Each move scored as the analysis scores it: the next position searched to
            // the same budget, for the mover.
            let curve = Curve::of(variant);
            let before =
                curve.expected(search_position(&game, TEST_BUDGET, &stop).value, pos.turn());
            let mut worst_move = best;
            let mut lowest = f64::MAX;
            for m in pos.legal_moves().iter() {
                let mut next = game.clone();
                next.play(m).unwrap();
                let e =
                    curve.expected(search_position(&next, TEST_BUDGET, &stop).value, pos.turn());
                if e < lowest {
                    (lowest, worst_move) = (e, *m);
                }
            }
            // (Where the lowest-scored move is the engine's best all the same, the
            // deeper search of the position after it found what the search before
            // did not: the analysis never judges its own best move.)
            if worst_move != best && before - lowest >= damka_server::analysis::MISTAKE {
                bad.push(ply);
            }
            worst_move
        } else {
            best
        };
        moves.push(pos.move_to_string(&mv));
        game.play(&mv).unwrap();
    }
    (moves, bad)
}

async fn wait_done(s: &TestServer, game: &str) -> Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(240);
    loop {
        let r = s
            .http("GET", &format!("/api/games/{game}/analysis"), None, None)
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        let v = r.json();
        if v["status"] == "done" {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "analysis not done: {v}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A game of `variant` with the engine's worst move at the `worst` plies, stored,
/// analysed and checked: the plies where the worst move lost a mistake's expected result
/// (at least two are asked) are judged mistakes or blunders, the engine's own moves never
/// anything. Returns the game's id, its moves and the done analysis.
async fn analyse_worst_moves(
    s: &TestServer,
    cookie: &str,
    variant: Variant,
    plies: usize,
    worst: &'static [usize],
    n: u32,
) -> (String, Vec<String>, Value) {
    let (moves, bad) =
        tokio::task::spawn_blocking(move || game_with_worst_moves(variant, plies, worst))
            .await
            .unwrap();
    assert!(
        bad.len() >= 2,
        "{variant}: too few clearly bad moves: {bad:?}"
    );
    let game = store_game(s, variant, &moves, n).await;
    let path = format!("/api/games/{game}/analysis");
    // Never asked: nothing to show.
    let r = s.http("GET", &path, None, None).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json(), serde_json::json!({"status": "none", "plies": []}));
    let r = s.http("POST", &path, Some(cookie), None).await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert!(["queued", "running", "done"].contains(&r.json()["status"].as_str().unwrap()));
    let done = wait_done(s, &game).await;
    let plies = done["plies"].as_array().unwrap();
    assert_eq!(plies.len(), moves.len());
    for p in plies {
        let ply = p["ply"].as_u64().unwrap() as usize;
        assert_eq!(p["move"], moves[ply - 1]);
        assert!(p["eval"].is_i64() || p["win"].is_string(), "{p}");
        let judgement = p["judgement"].as_str();
        if bad.contains(&ply) {
            assert!(
                matches!(judgement, Some("mistake" | "blunder")),
                "{variant}: ply {ply} (the engine's worst move) judged {judgement:?}: {p}"
            );
        }
        if p["best"] == p["move"] {
            assert_eq!(
                judgement, None,
                "{variant}: the engine's own move judged: {p}"
            );
        }
        let pv = p["pv"].as_array().unwrap();
        assert!(pv.is_empty() || pv[0] == p["best"]);
    }
    (game, moves, done)
}

async fn worst_moves_are_judged_and_the_pdn_reads_back(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(test_config(&db)).await;
    let (cookie, _) = s.guest("Ala").await;
    // An unknown game is not found.
    let r = s.http("GET", "/api/games/nope/analysis", None, None).await;
    assert_eq!(r.status, 404);
    let (game, moves, done) = analyse_worst_moves(
        &s,
        &cookie,
        Variant::International,
        40,
        &[9, 12, 15, 18, 21, 24, 27, 30, 34],
        1,
    )
    .await;
    let path = format!("/api/games/{game}/analysis");
    let plies = done["plies"].as_array().unwrap();
    assert!(done["accuracy"]["white"].is_f64() || done["accuracy"]["white"].is_u64());
    // Asking again is the same job, done.
    let again = s.http("POST", &path, Some(&cookie), None).await;
    assert_eq!(again.json()["status"], "done");
    assert_eq!(s.server.state.analyses.runs(), 1);
    // What an operator sees.
    let metrics = s.http("GET", "/metrics", None, None).await.body;
    let value = |name: &str| -> u64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.parse().ok())
            .unwrap_or_else(|| panic!("{name} in {metrics}"))
    };
    assert_eq!(value("damka_analyses_done_total"), 1);
    assert_eq!(value("damka_analyses_running"), 0);
    assert!(value("damka_analysis_positions_total") > moves.len() as u64);
    assert_eq!(value("damka_analysis_job_seconds_count"), 1);

    // The annotated PDN: the same moves through our own reader, with the judgements.
    let pdn = s
        .http(
            "GET",
            &format!("/api/games/{game}/pdn?annotate=true"),
            None,
            None,
        )
        .await;
    assert_eq!(pdn.status, 200);
    assert!(pdn.body.contains('{'), "{}", pdn.body);
    let judged = plies.iter().filter(|p| !p["judgement"].is_null()).count();
    // Moves with a judgement suffix (`?!`, `?` or `??`), wherever the
    // writer wraps its lines.
    let suffixes = pdn
        .body
        .split_whitespace()
        .filter(|w| w.ends_with('?') || w.ends_with("?!"))
        .count();
    assert!(
        judged > 0 && suffixes >= judged,
        "{judged} judged, {}",
        pdn.body
    );
    let back = draughts::pdn::read(&pdn.body, None)
        .remove(0)
        .expect("reads back");
    let plain = s
        .http("GET", &format!("/api/games/{game}/pdn"), None, None)
        .await;
    let plain = draughts::pdn::read(&plain.body, None).remove(0).unwrap();
    assert_eq!(back.moves, plain.moves);
    assert_eq!(back.moves.len(), moves.len());
    s.server.shutdown().await;
    db.cleanup().await;
}

async fn refused_during_play_and_unknown(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(test_config(&db)).await;
    let m = start_match(
        &s,
        "international",
        serde_json::json!({"minutes": 5, "increment": 3}),
    )
    .await;
    let r = s
        .http(
            "POST",
            &format!("/api/games/{}/analysis", m.game),
            Some(&m.white.1),
            None,
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.body);
    assert_eq!(r.error_code(), "game_in_progress");
    let r = s
        .http("POST", "/api/games/nope/analysis", Some(&m.white.1), None)
        .await;
    assert_eq!(r.status, 404);
    // Without a session: who asks is needed for the limits.
    let r = s
        .http(
            "POST",
            &format!("/api/games/{}/analysis", m.game),
            None,
            None,
        )
        .await;
    assert_eq!(r.status, 401);
    s.server.shutdown().await;
    db.cleanup().await;
}

async fn one_job_per_game_under_concurrent_requests(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(test_config(&db)).await;
    let moves = ["32-28", "19-23", "28x19", "14x23", "37-32", "10-14"]
        .map(String::from)
        .to_vec();
    let game = store_game(&s, Variant::International, &moves, 2).await;
    let mut cookies = Vec::new();
    for i in 0..6 {
        cookies.push(s.guest_from(&format!("10.0.0.{i}"), "Ala").await.0);
    }
    let path = format!("/api/games/{game}/analysis");
    let asks = cookies.iter().enumerate().map(|(i, c)| {
        let (s, path) = (&s, &path);
        async move {
            s.http_from(&format!("10.0.0.{i}"), "POST", path, Some(c), None)
                .await
        }
    });
    for r in futures_util::future::join_all(asks).await {
        assert_eq!(r.status, 202, "{}", r.body);
    }
    let done = wait_done(&s, &game).await;
    assert_eq!(done["plies"].as_array().unwrap().len(), 6);
    // The picker looks again after the job (woken by its end): a second run would start
    // there.
    looked_again(&[&s]).await;
    assert_eq!(s.server.state.analyses.runs(), 1, "one job ran");
    let searched = s.server.state.analyses.searches();
    assert!(
        (7..=14).contains(&searched),
        "{searched} searches for 7 positions"
    );
    s.server.shutdown().await;
    db.cleanup().await;
}

async fn a_restart_mid_job_finishes_the_job(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = test_config(&db);
    // Slow enough to stop in the middle.
    c.analysis.analysis_nodes = 150_000;
    let s = TestServer::start(c.clone()).await;
    let (cookie, _) = s.guest("Ala").await;
    let (moves, _) =
        tokio::task::spawn_blocking(|| game_with_worst_moves(Variant::Russian, 24, &[]))
            .await
            .unwrap();
    let game = store_game(&s, Variant::Russian, &moves, 3).await;
    let path = format!("/api/games/{game}/analysis");
    assert_eq!(s.http("POST", &path, Some(&cookie), None).await.status, 202);
    let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
    while s.server.state.analyses.searches() < 2 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the job did not start"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(
        s.http("GET", &path, None, None).await.json()["status"],
        "running"
    );
    s.server.shutdown().await;
    // Stopped gracefully, the node gave its lease up: another node need not wait for it.
    let store = damka_store::Store::connect(&db.url).await.unwrap();
    let row = store.analysis(&game).await.unwrap().unwrap();
    assert_eq!(row.status, damka_store::AnalysisStatus::Running);
    assert!(
        row.lease_until
            .is_some_and(|until| until <= damka_server::time::unix_ms()),
        "the lease is still held: {:?}",
        row.lease_until
    );

    let s = TestServer::start(c).await;
    let done = wait_done(&s, &game).await;
    assert_eq!(done["plies"].as_array().unwrap().len(), moves.len());
    assert_eq!(
        s.server.state.analyses.runs(),
        1,
        "the new run took the job over"
    );
    s.server.shutdown().await;
    db.cleanup().await;
}

/// Waits until each server has looked for analysis jobs twice more from now (the first
/// look may have begun before now): whatever was left to run would have started.
async fn looked_again(servers: &[&TestServer]) {
    let since: Vec<u64> = servers
        .iter()
        .map(|s| s.server.state.analyses.looks())
        .collect();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while servers
        .iter()
        .zip(&since)
        .any(|(s, n)| s.server.state.analyses.looks() < n + 2)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "no look for jobs in 60 s"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The flattest curves (American, Czech: a man up is drawn more often there) and a steep
/// 8x8 one (Russian): the engine's worst moves are judged mistakes or blunders in each.
/// One backend: the storage is the same as above.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worst_moves_are_judged_on_the_flattest_curves() {
    // Both sides play their worst move from ply 3 on: on these curves one worst move is
    // often a man and a half lost, just under a mistake, so it takes a few.
    const WORST_EVERYWHERE: &[usize] = &[
        3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,
        27, 28, 29, 30,
    ];
    let db = TestDb::new(Backend::Sqlite).await;
    let s = TestServer::start(test_config(&db)).await;
    let (cookie, _) = s.guest("Ala").await;
    for (n, variant) in [
        (11, Variant::American),
        (12, Variant::Russian),
        (13, Variant::Czech),
    ] {
        analyse_worst_moves(&s, &cookie, variant, 30, WORST_EVERYWHERE, n).await;
    }
    s.server.shutdown().await;
    db.cleanup().await;
}

/// The queue of game analyses is bounded over every node (a full queue refuses with
/// 429 and `Retry-After`, today it grew without end), shows each job's place, and puts an
/// account's own games first (and lets them in past the bound, up to twice it).
async fn the_queue_is_bounded_ordered_and_shown(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = test_config(&db);
    // This node runs no job: what is asked stays queued.
    c.analysis.analysis_jobs = 0;
    c.analysis.analysis_queue = 3;
    let s = TestServer::start(c).await;
    let mut games = Vec::new();
    for n in 0..5 {
        games.push(store_game(&s, Variant::Russian, &[], 20_000 + n).await);
    }
    // Three guests of three addresses fill the queue; the fourth is refused.
    for (i, g) in games.iter().enumerate().take(4) {
        let ip = format!("10.3.0.{}", i + 1);
        let (cookie, _) = s.guest_from(&ip, "Gość").await;
        let r = s
            .http_from(
                &ip,
                "POST",
                &format!("/api/games/{g}/analysis"),
                Some(&cookie),
                None,
            )
            .await;
        if i < 3 {
            assert_eq!(r.status, 202, "{}", r.body);
            assert_eq!(r.json()["status"], "queued");
            assert_eq!(r.json()["queue_position"], i + 1, "{}", r.body);
        } else {
            assert_eq!(r.status, 429, "{}", r.body);
            assert_eq!(r.error_code(), "rate_limited");
            assert!(r.header("retry-after").is_some());
        }
    }
    // An account asking about its own game: let in past the bound, and first.
    let (guest, me) = s.guest_from("10.3.0.9", "Właścicielka").await;
    let r = s
        .http_from(
            "10.3.0.9",
            "POST",
            "/api/account",
            Some(&guest),
            Some(serde_json::json!({"username": "Wlascicielka", "password": "a long password 1"})),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let account = r.cookie().expect("the account's session");
    let id = me["id"].as_str().expect("the guest's id");
    let own = store_game_of(&s, Variant::Russian, &[], 20_100, (id, "Wlascicielka")).await;
    let r = s
        .http_from(
            "10.3.0.9",
            "POST",
            &format!("/api/games/{own}/analysis"),
            Some(&account),
            None,
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["queue_position"], 1, "{}", r.body);
    // Everybody else moved one place down, as any node shows it.
    let shown = s
        .http(
            "GET",
            &format!("/api/games/{}/analysis", games[0]),
            None,
            None,
        )
        .await
        .json();
    assert_eq!(shown["status"], "queued");
    assert_eq!(shown["queue_position"], 2, "{shown}");
    // Someone else's game, asked by the account: not first, and refused (queue full).
    let r = s
        .http_from(
            "10.3.0.9",
            "POST",
            &format!("/api/games/{}/analysis", games[4]),
            Some(&account),
            None,
        )
        .await;
    assert_eq!(r.status, 429, "{}", r.body);
    // Its own game that a guest asked for first (queued among the others): the
    // account's own request moves it up, behind the account's other own game.
    let own2 = store_game_of(&s, Variant::Russian, &[], 20_101, (id, "Wlascicielka")).await;
    store_analysis_request(&s, &own2, "someone").await;
    let first = s
        .http("GET", &format!("/api/games/{own2}/analysis"), None, None)
        .await
        .json();
    assert_eq!(first["queue_position"], 5, "last of five: {first}");
    let r = s
        .http_from(
            "10.3.0.9",
            "POST",
            &format!("/api/games/{own2}/analysis"),
            Some(&account),
            None,
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.body);
    assert_eq!(r.json()["queue_position"], 2, "{}", r.body);
    s.server.shutdown().await;
    db.cleanup().await;
}

/// A job asked for by somebody else (stored directly, as another node or an earlier
/// request would have).
async fn store_analysis_request(s: &TestServer, game: &str, by: &str) {
    s.server
        .state
        .core
        .store
        .analysis_write(damka_store::AnalysisWrite::Request {
            game_id: game.to_owned(),
            requested_by: by.to_owned(),
            address: None,
            priority: damka_store::AnalysisPriority::Other,
            now: damka_server::time::unix_ms(),
        })
        .await
        .unwrap();
}

/// A running job shows how far it got, as its lease renewals store it.
async fn a_running_job_shows_its_progress(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(test_config(&db)).await;
    let (moves, _) = game_with_worst_moves(Variant::Russian, 12, &[]);
    let g = store_game(&s, Variant::Russian, &moves, 20_200).await;
    let (cookie, _) = s.guest_from("10.3.1.1", "Ala").await;
    let r = s
        .http_from(
            "10.3.1.1",
            "POST",
            &format!("/api/games/{g}/analysis"),
            Some(&cookie),
            None,
        )
        .await;
    assert_eq!(r.status, 202);
    // Every answer until done is queued (with a place) or running (with progress).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let mut seen_running = false;
    loop {
        let v = s
            .http("GET", &format!("/api/games/{g}/analysis"), None, None)
            .await
            .json();
        match v["status"].as_str() {
            Some("queued") => assert!(v["queue_position"].as_u64() >= Some(1), "{v}"),
            // (Just claimed, before the job has read the game: no progress yet.)
            Some("running") if v.get("progress").is_none() => {}
            Some("running") => {
                let p = &v["progress"];
                assert_eq!(p["positions"], 13, "{v}");
                assert!(p["searched"].as_u64() <= Some(13), "{v}");
                seen_running = true;
            }
            Some("done") => {
                assert!(v.get("progress").is_none() && v.get("queue_position").is_none());
                break;
            }
            other => panic!("unexpected status {other:?}: {v}"),
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "the job did not finish"
        );
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let _ = seen_running; // a fast machine may finish between two looks
    s.server.shutdown().await;
    db.cleanup().await;
}

/// "Learn from your mistakes" (issue 37, item 4): an analysed game's mistakes and
/// blunders come back as positions (the position before, its legal moves, the move
/// played); the move played is judged as the analysis judged it, the engine's move is
/// good, any other move is judged by the analysis's own searches; bad requests are
/// refused and one address's tries are limited.
async fn learning_from_the_mistakes(backend: Backend) {
    let db = TestDb::new(backend).await;
    let s = TestServer::start(test_config(&db)).await;
    let (cookie, _) = s.guest("Ala").await;
    let (game, moves, done) = analyse_worst_moves(
        &s,
        &cookie,
        Variant::Russian,
        30,
        &[7, 10, 13, 16, 19, 22, 25],
        21,
    )
    .await;
    let plies = done["plies"].as_array().unwrap();
    let judged: Vec<&Value> = plies
        .iter()
        .filter(|p| matches!(p["judgement"].as_str(), Some("mistake" | "blunder")))
        .collect();
    let r = s
        .http("GET", &format!("/api/games/{game}/mistakes"), None, None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let positions = r.json()["positions"].as_array().unwrap().clone();
    assert_eq!(positions.len(), judged.len(), "{positions:?}");
    // The game replayed, to check each position and judge a third move.
    let mut games = vec![Game::new(Position::new(Rules::new(Variant::Russian)))];
    for m in &moves {
        let mut next = games.last().unwrap().clone();
        let mv = next.position().parse_move(m).unwrap();
        next.play(&mv).unwrap();
        games.push(next);
    }
    let stop = AtomicBool::new(false);
    let curve = Curve::of(Variant::Russian);
    for (p, j) in positions.iter().zip(&judged) {
        let ply = p["ply"].as_u64().unwrap() as usize;
        assert_eq!(p["ply"], j["ply"]);
        assert_eq!(p["played"], j["move"]);
        assert_eq!(p["judgement"], j["judgement"]);
        assert_eq!(p["best"], j["best"]);
        let before = &games[ply - 1];
        let pos = before.position();
        assert_eq!(p["fen"], pos.to_fen());
        assert_eq!(
            p["color"],
            if pos.turn() == draughts::Color::White {
                "white"
            } else {
                "black"
            }
        );
        let legal: Vec<String> = pos
            .legal_moves()
            .iter()
            .map(|m| pos.move_to_string(m))
            .collect();
        assert_eq!(p["legal"], serde_json::json!(legal));
        let path = format!("/api/games/{game}/mistakes/{ply}");
        let tried = |mv: &str| serde_json::json!({ "move": mv });
        // The move played: as the analysis judged it.
        let r = s
            .http(
                "POST",
                &path,
                None,
                Some(tried(p["played"].as_str().unwrap())),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["ok"], false);
        assert_eq!(r.json()["judgement"], j["judgement"]);
        // The engine's move: good.
        let r = s
            .http(
                "POST",
                &path,
                None,
                Some(tried(p["best"].as_str().unwrap())),
            )
            .await;
        assert_eq!(r.status, 200, "{}", r.body);
        assert_eq!(r.json()["ok"], true, "{}", r.body);
        assert_eq!(r.json()["judgement"], Value::Null);
        // Any other move: judged by the analysis's searches of the position before and
        // after it.
        if let Some(other) = legal
            .iter()
            .find(|m| **m != p["played"] && **m != p["best"])
        {
            let r = s.http("POST", &path, None, Some(tried(other))).await;
            assert_eq!(r.status, 200, "{}", r.body);
            let v = search_position(before, TEST_BUDGET, &stop).value;
            let mut after = before.clone();
            after.play(&pos.parse_move(other).unwrap()).unwrap();
            assert_eq!(r.json()["fen"], after.position().to_fen());
            let a = search_position(&after, TEST_BUDGET, &stop).value;
            let lost = curve.expected(v, pos.turn()) - curve.expected(a, pos.turn());
            assert_eq!(
                r.json()["ok"],
                lost < damka_server::analysis::INACCURACY,
                "{other} lost {lost}: {}",
                r.body
            );
        }
    }
    let first = positions[0]["ply"].as_u64().unwrap();
    let path = format!("/api/games/{game}/mistakes/{first}");
    // A move that is not legal there, a body that is not the contract's, a ply that is
    // not a mistake, an unknown game, a game not analysed.
    let r = s
        .http(
            "POST",
            &path,
            None,
            Some(serde_json::json!({"move": "a1-h8"})),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = s
        .http("POST", &path, None, Some(serde_json::json!({"mv": 3})))
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let good = plies.iter().find(|p| p["judgement"].is_null()).unwrap();
    let r = s
        .http(
            "POST",
            &format!("/api/games/{game}/mistakes/{}", good["ply"]),
            None,
            Some(serde_json::json!({"move": good["move"]})),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);
    let r = s.http("GET", "/api/games/nope/mistakes", None, None).await;
    assert_eq!(r.status, 404, "{}", r.body);
    let other = store_game(&s, Variant::Russian, &moves[..4], 22).await;
    let r = s
        .http("GET", &format!("/api/games/{other}/mistakes"), None, None)
        .await;
    assert_eq!(r.status, 404, "{}", r.body);
    // One address trying again and again: its analysis-board budget (a burst of 20)
    // runs out, answered 429 with Retry-After.
    let played = serde_json::json!({ "move": positions[0]["played"] });
    let mut limited = None;
    for _ in 0..40 {
        let r = s.http("POST", &path, None, Some(played.clone())).await;
        if r.status == 429 {
            limited = Some(r);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let limited = limited.expect("40 tries in a row are limited");
    assert!(limited.header("retry-after").is_some());
    s.server.shutdown().await;
    db.cleanup().await;
}

/// How many Russian puzzles the server has.
async fn russian_puzzles(s: &TestServer) -> u64 {
    let r = s.http("GET", "/api/puzzles", None, None).await;
    r.json()
        .as_array()
        .unwrap()
        .iter()
        .find(|v| v["variant"] == "russian")
        .unwrap()["count"]
        .as_u64()
        .unwrap()
}

/// Puzzles from analysed games (issue 37, item 4): Black's blunder walks into a known
/// shot of Russian draughts (two sacrifices, then a triple capture to a king); once the
/// game is analysed, the shot joins the Russian pool (counted, playable by its id, with
/// its whole line), is kept after a restart, and is not added twice.
async fn a_blunder_into_a_shot_becomes_a_puzzle(backend: Backend) {
    let db = TestDb::new(backend).await;
    let mut c = test_config(&db);
    c.analysis.game_puzzle_depth = 6;
    let s = TestServer::start(c.clone()).await;
    let (cookie, _) = s.guest("Ala").await;
    let before = russian_puzzles(&s).await;
    // Black to move; b6-a5 leaves the shot (bot::puzzle's test of a shot in a game: the
    // shot of its first test, White's b2 away, a position not in the starter set).
    let fen = "B:Wa1,c1,e1,g1,d2,f2,e3,g3,e5:Bb6,c5,h6,a7,c7,e7,g7,b8,d8,h8";
    let game = store_game_from(
        &s,
        Variant::Russian,
        fen,
        &["b6-a5".to_owned()],
        31,
        ("bot-1", "Computer (level 1)"),
    )
    .await;
    let r = s
        .http(
            "POST",
            &format!("/api/games/{game}/analysis"),
            Some(&cookie),
            None,
        )
        .await;
    assert_eq!(r.status, 202, "{}", r.body);
    let done = wait_done(&s, &game).await;
    assert!(
        matches!(
            done["plies"][0]["judgement"].as_str(),
            Some("mistake" | "blunder")
        ),
        "{done}"
    );
    // The search after the job: wait for the puzzle to show.
    let id = format!("russian-game-{game}-1");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(120);
    let puzzle = loop {
        let r = s
            .http("GET", &format!("/api/puzzles/{id}"), None, None)
            .await;
        if r.status == 200 {
            break r.json();
        }
        assert_eq!(r.status, 404, "{}", r.body);
        assert!(tokio::time::Instant::now() < deadline, "no puzzle {id}");
        // Within the address's puzzle budget (4 a second).
        tokio::time::sleep(Duration::from_millis(400)).await;
    };
    assert_eq!(
        puzzle["fen"],
        "W:Wa1,c1,e1,g1,d2,f2,e3,g3,e5:Ba5,c5,h6,a7,c7,e7,g7,b8,d8,h8"
    );
    assert_eq!(russian_puzzles(&s).await, before + 1);
    // Played through like any puzzle: the two sacrifices solve it (the triple capture to
    // a king is then White's only move, played by the server).
    let (solver, _) = s.guest("Bolek").await;
    let r = s
        .http(
            "POST",
            &format!("/api/puzzles/{id}/move"),
            Some(&solver),
            Some(serde_json::json!({"moves": ["e5-d6", "e3-d4"]})),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["solved"], true, "{}", r.body);
    // Kept after a restart.
    s.server.shutdown().await;
    let s = TestServer::start(c).await;
    assert_eq!(russian_puzzles(&s).await, before + 1);
    let r = s
        .http("GET", &format!("/api/puzzles/{id}"), None, None)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    s.server.shutdown().await;
    db.cleanup().await;
}

both_backends!(
    a_blunder_into_a_shot_becomes_a_puzzle,
    learning_from_the_mistakes,
    worst_moves_are_judged_and_the_pdn_reads_back,
    refused_during_play_and_unknown,
    one_job_per_game_under_concurrent_requests,
    a_restart_mid_job_finishes_the_job,
    the_queue_is_bounded_ordered_and_shown,
    a_running_job_shows_its_progress,
);

/// Two servers on one PostgreSQL database (as two nodes of a cluster share it): asked on
/// both at once, the game gets one job, run by exactly one of them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_one_job() {
    if crate::common::postgres_url().is_none() {
        return;
    }
    let db = TestDb::new(Backend::Postgres).await;
    let a = TestServer::start(test_config(&db)).await;
    let b = TestServer::start(test_config(&db)).await;
    let moves = ["32-28", "19-23", "28x19", "14x23"]
        .map(String::from)
        .to_vec();
    let game = store_game(&a, Variant::International, &moves, 4).await;
    let (ca, _) = a.guest("Ala").await;
    let (cb, _) = b.guest("Bolek").await;
    let path = format!("/api/games/{game}/analysis");
    let (ra, rb) = tokio::join!(
        a.http("POST", &path, Some(&ca), None),
        b.http("POST", &path, Some(&cb), None)
    );
    assert_eq!((ra.status, rb.status), (202, 202));
    let done = wait_done(&b, &game).await;
    assert_eq!(done["plies"].as_array().unwrap().len(), 4);
    // Both nodes look again (a poll) before counting.
    looked_again(&[&a, &b]).await;
    let runs = a.server.state.analyses.runs() + b.server.state.analyses.runs();
    assert_eq!(runs, 1, "one node ran the job");
    assert_eq!(wait_done(&a, &game).await, done);
    a.server.shutdown().await;
    b.server.shutdown().await;
    db.cleanup().await;
}
