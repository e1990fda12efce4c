//! `draughts think` and `draughts hub`: the computer opponent on the
//! command line and over the Hub protocol.

use draughts::{Position, Rules, Variant};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Output, Stdio};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn think_prints_a_legal_move_in_the_variants_notation() {
    for variant in Variant::ALL {
        let out = run(&["think", "--variant", variant.name(), "--depth", "4"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let line = text(&out.stdout);
        let pos = Position::new(Rules::new(variant));
        let m = pos.parse_move(line.trim()).expect("a legal move");
        assert_eq!(pos.move_to_string(&m), line.trim());
    }
}

#[test]
fn think_json_has_the_search_figures_and_a_full_capture_path() {
    // A shot: the engine plays 49-44 and the PV goes on with captures (a
    // mate in 7 plies; 5-28 mates in 9, and a search cut at depth 7 with
    // late moves reduced may stop at that one: depth 9 finds the shorter).
    let fen = "W:W42,49,47,K5:B27,40";
    let out = run(&[
        "think",
        "--variant",
        "international",
        "--fen",
        fen,
        "--depth",
        "9",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: Value = serde_json::from_str(text(&out.stdout).trim()).expect("JSON");
    assert_eq!(v["move"], "49-44");
    assert!(v["score"].as_i64().expect("score") > 20_000);
    assert!(v["depth"].as_u64().expect("depth") <= 9);
    assert!(v["nodes"].as_u64().expect("nodes") > 0);
    assert!(v["time_ms"].is_u64());
    let pv: Vec<&str> = v["pv"]
        .as_array()
        .expect("pv")
        .iter()
        .map(|m| m.as_str().expect("text"))
        .collect();
    assert_eq!(pv[0], "49-44");
    // Replay the PV in the engine's notation.
    let mut pos = Position::from_fen(Rules::new(Variant::International), fen).expect("fen");
    for m in &pv {
        let mv = pos.parse_move(m).expect("PV move");
        assert_eq!(&pos.move_to_string(&mv), m);
        pos = pos.play(&mv).expect("legal");
    }
    assert!(pv.iter().any(|m| m.contains('x')));
}

#[test]
fn think_levels_and_seeds_and_bad_arguments() {
    let args = [
        "think",
        "--variant",
        "russian",
        "--level",
        "1",
        "--seed",
        "9",
    ];
    let a = run(&args);
    let b = run(&args);
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert_eq!(a.stdout, b.stdout, "same seed, same move");
    let out = run(&["think", "--variant", "czech", "--movetime", "50", "--json"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = run(&[
        "think",
        "--variant",
        "italian",
        "--level",
        "3",
        "--remaining",
        "200",
        "--increment",
        "0",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    for bad in [
        &["think", "--variant", "russian"][..],
        &[
            "think",
            "--variant",
            "russian",
            "--level",
            "1",
            "--depth",
            "3",
        ][..],
        &["think", "--variant", "russian", "--level", "4"][..],
        &[
            "think",
            "--variant",
            "russian",
            "--depth",
            "2",
            "--remaining",
            "10",
        ][..],
    ] {
        assert_eq!(run(bad).status.code(), Some(2), "{bad:?}");
    }
    // A finished game has no move: status 1.
    let out = run(&[
        "think",
        "--variant",
        "russian",
        "--fen",
        "W:Wa1:Bb2,c3",
        "--depth",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
}

/// A `draughts hub` process with its pipes.
struct Hub {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Hub {
    fn start() -> Hub {
        let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Hub {
            child,
            stdin,
            stdout,
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write");
        self.stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "the engine closed its output; got {lines:?}");
            let line = line.trim_end().to_string();
            let done = line.starts_with(prefix);
            lines.push(line);
            if done {
                return lines;
            }
        }
    }
}

/// The `move=` of a `done` line.
fn done_move(line: &str) -> String {
    line.split_whitespace()
        .find_map(|t| t.strip_prefix("move="))
        .expect("done move=")
        .to_string()
}

#[test]
fn hub_plays_international_as_normal() {
    let mut hub = Hub::start();
    hub.send("hub");
    let init = hub.until("wait");
    assert!(init[0].starts_with("id name=Damka"), "{init:?}");
    assert!(
        init.iter()
            .any(|l| l.starts_with("param name=variant value=normal"))
    );
    hub.send("set-param name=variant value=normal");
    hub.send("init");
    assert_eq!(hub.until("ready").last().map(String::as_str), Some("ready"));
    hub.send("ping");
    assert_eq!(hub.until("pong"), vec!["pong"]);

    // The start position is in the opening book: answered from it, no node searched.
    hub.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    hub.send("level depth=3");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("info depth=20 ") && l.contains(" nodes=0 ")),
        "{lines:?}"
    );
    // With the book off, the start position, then a position where the only
    // good move is the shot 49-44, are searched.
    hub.send("set-param name=book value=false");
    hub.send("go think");
    let lines = hub.until("done");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth=3")),
        "{lines:?}"
    );
    let start = Position::new(Rules::new(Variant::International));
    let m = start
        .parse_move(&done_move(lines.last().expect("done")))
        .expect("a legal move");
    assert!(!m.is_capture());

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
    hub.send("level move-time=5");
    hub.send("go think");
    let lines = hub.until("done");
    let last = lines.last().expect("done");
    assert_eq!(done_move(last), "49-44", "{lines:?}");
    assert!(last.contains("ponder="), "{last}");

    // Moves after the position, captures written with the captured pieces.
    hub.send("new-game");
    hub.send(
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww moves=\"32-28 19-23 28x19\"",
    );
    hub.send("level depth=2");
    hub.send("go think");
    let lines = hub.until("done");
    // Black must take back on 19: 14x23 or 13x24.
    let reply = done_move(lines.last().expect("done"));
    assert!(reply == "14x23x19" || reply == "13x24x19", "{reply}");

    // An infinite search stops on request and still answers; ping is
    // answered during a search.
    hub.send("pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww");
    hub.send("level infinite");
    hub.send("go analyze");
    hub.send("ping");
    // `info` lines of the iterations may come first.
    let lines = hub.until("pong");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info"))
    );
    hub.send("stop");
    let lines = hub.until("done");
    start
        .parse_move(&done_move(lines.last().expect("done")))
        .expect("a legal move");

    hub.send("pos pos=Xbad");
    assert!(hub.until("error")[0].starts_with("error message="));
    hub.send("quit");
    assert!(hub.child.wait().expect("exits").success());
}

#[test]
fn hub_takes_our_variant_names_as_an_extension() {
    let mut hub = Hub::start();
    hub.send("hub");
    hub.until("wait");
    hub.send("set-param name=variant value=russian");
    hub.send("init");
    hub.until("ready");
    // Russian start, 32 squares in numbering order (b8, d8, ... a1 last row).
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"c3-d4 f6-e5\"");
    hub.send("level depth=4");
    hub.send("go think");
    let lines = hub.until("done");
    // The only legal move: d4 takes e5.
    assert_eq!(
        done_move(lines.last().expect("done")),
        "d4xf6xe5",
        "{lines:?}"
    );
    // On a clock (Fischer: 2 s left, 0.1 s increment) from the start, searched
    // (the book, which holds the start, off).
    hub.send("set-param name=book value=false");
    hub.send("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
    hub.send("level time=2 inc=0.1");
    hub.send("go think");
    let lines = hub.until("done");
    let start = Position::new(Rules::new(Variant::Russian));
    let reply = done_move(lines.last().expect("done"));
    let m = start
        .parse_move(&reply)
        .expect("a legal move in Russian notation");
    assert!(!m.is_capture());
    let info = lines.iter().find(|l| l.starts_with("info")).expect("info");
    let time: f64 = info
        .split_whitespace()
        .find_map(|t| t.strip_prefix("time="))
        .and_then(|t| t.parse().ok())
        .expect("time=");
    assert!(time < 2.0, "kept within the clock: {info}");
    assert!(!info.contains(" nodes=0 "), "searched: {info}");
    drop(hub.stdin);
    assert!(hub.child.wait().expect("exits on end of input").success());
}
