//! `draughts hub` as GUIs and match tools use it (issue 24): node limits,
//! several limits at once, `done` after an error, `info` per iteration,
//! pondering, the win score, the declared parameters and `go analyze` of
//! a single legal move.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

/// A `draughts hub` process; its lines arrive through a channel so a test
/// can wait for one with a timeout.
struct Hub {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Hub {
    /// A Hub engine whose search is under test: the opening book off (the
    /// start position is in it, and a book move searches nothing).
    fn searching() -> Hub {
        let mut hub = Hub::start();
        hub.send("set-param name=book value=false");
        hub
    }

    fn start() -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut hub = Hub {
            child,
            stdin,
            lines,
        };
        hub.send("hub");
        hub.until("wait", 10);
        hub.send("init");
        hub.until("ready", 10);
        hub
    }

    /// The lines `hub` answers with (the `id` and every `param`), up to `wait`.
    fn declared(&mut self) -> Vec<String> {
        self.send("hub");
        self.until("wait", 10)
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first starting with `prefix`; panics
    /// after `secs` seconds.
    fn until(&mut self, prefix: &str, secs: u64) -> Vec<String> {
        self.within(prefix, Duration::from_secs(secs))
            .unwrap_or_else(|seen| panic!("no {prefix:?} within {secs} s: {seen:?}"))
    }

    /// Lines up to the first starting with `prefix`, or the lines seen when
    /// `wait` runs out.
    fn within(&mut self, prefix: &str, wait: Duration) -> Result<Vec<String>, Vec<String>> {
        let deadline = Instant::now() + wait;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.starts_with(prefix);
                    seen.push(line);
                    if found {
                        return Ok(seen);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err(seen),
                Err(RecvTimeoutError::Disconnected) => panic!("the engine exited: {seen:?}"),
            }
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

/// The value of `name=` in a line.
fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix(name)?.strip_prefix('='))
}

fn infos(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("info")).collect()
}

fn number(line: &str, name: &str) -> f64 {
    field(line, name)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{name}= in {line}"))
}

#[test]
fn a_node_limit_is_applied() {
    let mut hub = Hub::searching();
    hub.send(&format!("pos pos={START}"));
    hub.send("level nodes=3000");
    hub.send("go think");
    let lines = hub.until("done", 30);
    let last = infos(&lines).pop().expect("info").clone();
    let nodes = number(&last, "nodes");
    // Checked every 512 nodes; the default (1 s) would visit far more.
    assert!(nodes <= 3_600.0, "{last}");
    // Same count, same search: deterministic.
    hub.send("new-game");
    hub.send(&format!("pos pos={START}"));
    hub.send("go think");
    let again = hub.until("done", 30);
    assert_eq!(lines.last(), again.last());
}

#[test]
fn every_limit_given_applies() {
    let mut hub = Hub::searching();
    hub.send(&format!("pos pos={START}"));
    // The depth is reached long before the time.
    hub.send("level depth=3 move-time=30");
    let t = Instant::now();
    hub.send("go think");
    let lines = hub.until("done", 20);
    assert!(t.elapsed() < Duration::from_secs(10), "{lines:?}");
    let depths: Vec<f64> = infos(&lines).iter().map(|l| number(l, "depth")).collect();
    assert_eq!(depths.last(), Some(&3.0), "{lines:?}");
    // The time is reached long before the depth.
    hub.send("level move-time=0.2 depth=60");
    let t = Instant::now();
    hub.send("go think");
    let lines = hub.until("done", 20);
    assert!(t.elapsed() < Duration::from_millis(1_500), "{lines:?}");
    // And a node limit with a depth.
    hub.send("level depth=60 nodes=2000");
    hub.send("go think");
    let lines = hub.until("done", 20);
    let last = infos(&lines).pop().expect("info").clone();
    assert!(number(&last, "nodes") <= 2_600.0, "{last}");
}

#[test]
fn go_is_answered_with_done_after_an_error() {
    let mut hub = Hub::searching();
    hub.send("pos pos=Xbad");
    hub.until("error", 10);
    hub.send("level depth=2");
    hub.send("go think");
    let lines = hub.until("done", 10);
    assert!(lines[0].starts_with("error message="), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("done"));
    // And the engine still plays afterwards.
    hub.send(&format!("pos pos={START}"));
    hub.send("go think");
    let lines = hub.until("done", 20);
    assert!(field(lines.last().expect("done"), "move").is_some());
}

#[test]
fn analysis_reports_every_iteration_before_stop() {
    let mut hub = Hub::start();
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go analyze");
    // Several iterations are reported while the search runs.
    let mut seen = Vec::new();
    while infos(&seen).len() < 3 {
        seen.extend(hub.until("info", 20));
    }
    assert!(!seen.iter().any(|l| l.starts_with("done")), "{seen:?}");
    for (i, l) in infos(&seen).iter().enumerate() {
        assert_eq!(number(l, "depth"), (i + 1) as f64, "{l}");
        let mean = number(l, "mean-depth");
        assert!(mean >= 1.0, "{l}");
    }
    hub.send("stop");
    hub.until("done", 10);
}

#[test]
fn ponder_runs_until_ponder_hit_then_on_the_clock() {
    let mut hub = Hub::searching();
    hub.send(&format!("pos pos={START} moves=\"32-28\""));
    hub.send("level move-time=0.3");
    hub.send("go ponder");
    // Far beyond the move time: still pondering, reporting iterations.
    let seen = match hub.within("done", Duration::from_millis(1_500)) {
        Ok(lines) => panic!("answered while pondering: {lines:?}"),
        Err(seen) => seen,
    };
    assert!(!infos(&seen).is_empty(), "{seen:?}");
    let t = Instant::now();
    hub.send("ponder-hit");
    let lines = hub.until("done", 10);
    // Then the move time counts from the hit.
    let waited = t.elapsed();
    assert!(
        waited < Duration::from_millis(1_200),
        "{waited:?} {lines:?}"
    );
    assert!(field(lines.last().expect("done"), "move").is_some());
    // A ponder search stopped answers at once too.
    hub.send("go ponder");
    assert!(hub.within("done", Duration::from_millis(800)).is_err());
    hub.send("stop");
    hub.until("done", 10);
}

#[test]
fn a_forced_win_has_its_own_score() {
    let mut hub = Hub::start();
    // The shot 49-44 wins: a forced win, reported as 100 - plies / 100.
    let mut squares = vec!['e'; 50];
    for (n, c) in [
        (42, 'w'),
        (49, 'w'),
        (47, 'w'),
        (5, 'W'),
        (27, 'b'),
        (40, 'b'),
    ] {
        squares[n - 1] = c;
    }
    let pos: String = std::iter::once('W').chain(squares).collect();
    hub.send(&format!("pos pos={pos}"));
    hub.send("level depth=15");
    hub.send("go think");
    let lines = hub.until("done", 30);
    let last = infos(&lines).pop().expect("info").clone();
    let score = number(&last, "score");
    assert!(score > 99.0 && score < 100.0, "{last}");
    // An ordinary position stays under 90 men.
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=4");
    hub.send("go think");
    let lines = hub.until("done", 30);
    for l in infos(&lines) {
        assert!(number(l, "score").abs() < 90.0, "{l}");
    }
}

#[test]
fn analysis_searches_a_single_legal_move() {
    let mut hub = Hub::start();
    // After 32-28 20-24 33-29 Black's one move, 24x22, takes two men: `go
    // think` answers at once (depth 0, the material before the capture);
    // `go analyze` searches it through.
    let mut squares = vec!['e'; 50];
    for n in (1..=19).chain([24]) {
        squares[n - 1] = 'b';
    }
    for n in [28, 29, 31].into_iter().chain(34..=50) {
        squares[n - 1] = 'w';
    }
    let pos: String = std::iter::once('B').chain(squares).collect();
    hub.send(&format!("pos pos={pos}"));
    hub.send("level depth=6");
    hub.send("go think");
    let lines = hub.until("done", 30);
    let last = infos(&lines).pop().expect("info").clone();
    assert_eq!(number(&last, "depth"), 0.0, "{last}");
    assert!(number(&last, "score").abs() < 1.0, "{last}");
    hub.send("go analyze");
    let lines = hub.until("done", 30);
    let last = infos(&lines).pop().expect("info").clone();
    assert_eq!(number(&last, "depth"), 6.0, "{last}");
    // Two men up: about 2.00 (a clean extra man reads 1.00).
    assert!(number(&last, "score") > 1.5, "two men up: {last}");
    assert_eq!(
        field(lines.last().expect("done"), "move"),
        Some("24x22x28x29")
    );
}

#[test]
fn id_and_parameters_are_declared_and_set() {
    let mut hub = Hub::start();
    let init = hub.declared();
    let id = &init[0];
    assert!(id.starts_with("id name=Damka"), "{id}");
    assert!(field(id, "country").is_some(), "{id}");
    for name in ["variant", "tt-size", "level"] {
        assert!(
            init.iter()
                .any(|l| l.starts_with(&format!("param name={name} "))),
            "{name}: {init:?}"
        );
    }
    hub.send("set-param name=tt-size value=2");
    hub.send("set-param name=tt-size value=0");
    hub.until("error", 10);
    // Level 1 searches two plies at most.
    hub.send("set-param name=level value=1");
    hub.send("set-param name=level value=7");
    hub.until("error", 10);
    hub.send("init");
    hub.until("ready", 10);
    hub.send(&format!("pos pos={START}"));
    hub.send("level move-time=0.5");
    hub.send("go think");
    let lines = hub.until("done", 10);
    let last = infos(&lines).pop().expect("info").clone();
    assert!(number(&last, "depth") <= 2.0, "{last}");
}

#[test]
fn threads_search_together_and_answer_once() {
    let mut hub = Hub::start();
    let init = hub.declared();
    assert!(
        init.iter()
            .any(|l| l.starts_with("param name=threads value=1 type=int min=1 max=64")),
        "{init:?}"
    );
    hub.send("set-param name=threads value=0");
    hub.until("error", 10);
    hub.send("set-param name=threads value=65");
    hub.until("error", 10);
    hub.send("set-param name=threads value=3");
    // The search is under test, not the book (which holds the start).
    hub.send("set-param name=book value=false");
    hub.send(&format!("pos pos={START}"));
    // A depth limit: the answer comes when the main thread completes it,
    // whatever the helpers are doing.
    hub.send("level depth=9");
    hub.send("go think");
    let lines = hub.until("done", 60);
    let last = infos(&lines).pop().expect("info").clone();
    assert_eq!(number(&last, "depth"), 9.0, "{last}");
    let done = lines.last().expect("done");
    assert!(field(done, "move").is_some(), "{done}");
    // Stopped while thinking without limit, all threads end and one `done` comes.
    hub.send("level infinite");
    hub.send("go think");
    hub.until("info", 30);
    hub.send("stop");
    let lines = hub.until("done", 30);
    assert_eq!(lines.iter().filter(|l| l.starts_with("done")).count(), 1);
    hub.send("ping");
    hub.until("pong", 10);
}

#[test]
fn bitbase_dir_loads_the_tables_the_search_probes() {
    let dir = std::env::temp_dir().join(format!("damka-hub-bb-{}", std::process::id()));
    let made = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["bitbase", "--variant", "american", "--pieces", "3", "--out"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    assert!(made.status.success(), "{made:?}");
    assert!(dir.join("american-3.dbb").exists());
    let verified = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args([
            "bitbase",
            "--variant",
            "american",
            "--verify",
            "--threads",
            "2",
            "--out",
        ])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    let said = String::from_utf8_lossy(&verified.stdout);
    assert!(verified.status.success(), "{verified:?}");
    assert!(
        said.contains("american 3 pieces: every entry right"),
        "{said}"
    );
    let missing = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(["bitbase", "--variant", "russian", "--verify", "--out"])
        .arg(&dir)
        .output()
        .expect("the binary runs");
    assert!(!missing.status.success(), "{missing:?}");
    let mut hub = Hub::start();
    let init = hub.declared();
    assert!(
        init.iter()
            .any(|l| l.starts_with("param name=bitbase-dir ")),
        "{init:?}"
    );
    hub.send("set-param name=bitbase-dir value=/nonexistent/damka-bitbases");
    hub.until("error", 10);
    hub.send(&format!(
        "set-param name=bitbase-dir value={}",
        dir.display()
    ));
    hub.send("set-param name=variant value=american");
    hub.send("init");
    hub.until("ready", 10);
    // White kings on 5 and 10 against a black king on 28, White to move:
    // a win the tables know (shown as the largest non-mate score).
    let mut board = vec!['e'; 32];
    board[4] = 'W';
    board[9] = 'W';
    board[27] = 'B';
    let text: String = std::iter::once('W').chain(board).collect();
    hub.send(&format!("pos pos={text}"));
    hub.send("level depth=3");
    hub.send("go think");
    let lines = hub.until("done", 10);
    let last = infos(&lines).pop().expect("info").clone();
    assert!(number(&last, "score") > 89.0, "{last}");
    // A king each: a draw the tables know, worth -contempt to the engine.
    assert!(
        init.iter()
            .any(|l| l.starts_with("param name=contempt value=0 ")),
        "{init:?}"
    );
    hub.send("set-param name=contempt value=101");
    hub.until("error", 10);
    hub.send("set-param name=contempt value=40");
    let mut board = vec!['e'; 32];
    board[4] = 'W';
    board[27] = 'B';
    let text: String = std::iter::once('W').chain(board).collect();
    hub.send(&format!("pos pos={text}"));
    hub.send("go think");
    let lines = hub.until("done", 10);
    let last = infos(&lines).pop().expect("info").clone();
    assert_eq!(number(&last, "score"), -0.4, "{last}");
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// The Hub text of an American FEN without kings (`B:W21,22:B1,2`).
fn american_hub_position(fen: &str) -> String {
    let mut parts = fen.split(':');
    let turn = parts.next().expect("the side");
    let mut board = ['e'; 32];
    for list in parts {
        let (side, squares) = list.split_at(1);
        let man = if side == "W" { 'w' } else { 'b' };
        for sq in squares.split(',').filter(|s| !s.is_empty()) {
            board[sq.parse::<usize>().expect("a square number") - 1] = man;
        }
    }
    std::iter::once(turn.chars().next().expect("W or B"))
        .chain(board)
        .collect()
}

#[test]
fn level_three_plays_from_the_book_unless_told_not_to_and_analysis_searches() {
    let book = bot::book::committed(draughts::Variant::American);
    let (pos, entry) = book
        .iter()
        .min_by_key(|(p, _)| p.to_fen())
        .expect("not empty");
    let mut hub = Hub::start();
    hub.send("set-param name=variant value=american");
    hub.send(&format!("pos pos={}", american_hub_position(&pos.to_fen())));
    hub.send("level move-time=5");
    hub.send("go think");
    let lines = hub.until("done", 30);
    let last = infos(&lines).pop().expect("info").clone();
    // From the book: its depth, no node searched, long before the 5 s.
    assert_eq!(number(&last, "nodes"), 0.0, "{last}");
    assert_eq!(number(&last, "depth"), f64::from(entry.depth), "{last}");
    assert!(number(&last, "time") < 1.0, "{last}");
    // Analysis searches.
    hub.send("level move-time=0.2");
    hub.send("go analyze");
    let lines = hub.until("done", 30);
    assert!(number(infos(&lines).pop().expect("info"), "nodes") > 0.0);
    // So does play with the book off, and level 2.
    hub.send("set-param name=book value=false");
    hub.send("go think");
    let lines = hub.until("done", 30);
    assert!(number(infos(&lines).pop().expect("info"), "nodes") > 0.0);
    hub.send("set-param name=book value=true");
    hub.send("set-param name=level value=2");
    hub.send("go think");
    let lines = hub.until("done", 30);
    assert!(number(infos(&lines).pop().expect("info"), "nodes") > 0.0);
    hub.send("set-param name=book value=maybe");
    hub.until("error", 10);
}

/// The nodes and score of a depth-6 search of the International start with the
/// region weights of `file` (none: the committed ones).
fn searched_with_region_file(file: Option<&std::path::Path>) -> (f64, f64) {
    let mut hub = Hub::searching();
    if let Some(f) = file {
        hub.send(&format!("set-param name=region-file value={}", f.display()));
    }
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=6");
    hub.send("go think");
    let lines = hub.until("done", 60);
    assert!(!lines.iter().any(|l| l.starts_with("error")), "{lines:?}");
    let last = infos(&lines).pop().expect("info").clone();
    (number(&last, "nodes"), number(&last, "score"))
}

#[test]
fn region_file_replaces_the_committed_region_weights() {
    // The committed file named as a region file searches exactly as without it; a
    // file of zero weights (the evaluation without the windows) searches otherwise.
    let committed = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bot/weights/international.regions");
    let zero = std::env::temp_dir().join(format!("damka-hub-regions-{}", std::process::id()));
    std::fs::write(&zero, "# all zero\nregions international 16\n").expect("write");
    let plain = searched_with_region_file(None);
    assert_eq!(searched_with_region_file(Some(&committed)), plain);
    assert_ne!(searched_with_region_file(Some(&zero)), plain);
    // A file that cannot be read, or of another variant, is an error; the search
    // goes on with the committed weights.
    let mut hub = Hub::searching();
    let init = hub.declared();
    assert!(
        init.iter()
            .any(|l| l.starts_with("param name=region-file ")),
        "{init:?}"
    );
    hub.send("set-param name=region-file value=/nonexistent/damka.regions");
    hub.until("error", 10);
    let american =
        std::env::temp_dir().join(format!("damka-hub-regions-american-{}", std::process::id()));
    std::fs::write(&american, "regions american 9\n").expect("write");
    hub.send(&format!(
        "set-param name=region-file value={}",
        american.display()
    ));
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=6");
    hub.send("go think");
    let lines = hub.until("done", 60);
    assert!(
        lines.iter().any(|l| l.starts_with("error")),
        "an American file in an International game: {lines:?}"
    );
    let last = infos(&lines).pop().expect("info").clone();
    assert_eq!((number(&last, "nodes"), number(&last, "score")), plain);
    std::fs::remove_file(&zero).expect("clean up");
    std::fs::remove_file(&american).expect("clean up");
}
