//! The `draughts` binary: each subcommand, and clear failures with the right
//! exit status for bad input.

use serde_json::Value;
use std::process::{Command, Output};

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).expect("UTF-8 output")
}

#[test]
fn perft_prints_the_count_last() {
    let out = run(&["perft", "--variant", "international", "--depth", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).lines().last(), Some("658"));

    let out = run(&["perft", "--variant", "english", "--depth", "2", "--divide"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 8, "7 moves and the total");
    assert_eq!(lines.last(), Some(&"49"));
    assert!(lines[0].contains(' '), "move and count: {}", lines[0]);

    let out = run(&[
        "perft",
        "--variant=brazilian",
        "--fen",
        "W:Wg1:Bf6,d4,f4,f2",
        "--depth=1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stdout(&out).trim(), "1");
}

#[test]
fn moves_lists_legal_moves_as_text_or_json() {
    let out = run(&["moves", "--variant", "american"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).lines().count(), 7);
    assert!(
        stdout(&out).lines().any(|l| l == "9-13"),
        "{}",
        stdout(&out)
    );

    let out = run(&[
        "moves",
        "--variant",
        "russian",
        "--fen",
        "W:Wg1:Bf6,d4,f4,f2",
        "--json",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line: Value = serde_json::from_str(text.lines().next().expect("one move")).expect("JSON");
    assert_eq!(line["move"], "g1xe3xc5");
    assert_eq!(line["from"], "g1");
    assert_eq!(line["to"], "c5");
    assert_eq!(line["path"], serde_json::json!(["e3", "c5"]));
    assert_eq!(line["captures"].as_array().map(Vec::len), Some(2));
    assert_eq!(line["promotes"], false);
}

#[test]
fn capture_optional_adds_the_simple_moves() {
    let fen = "W:Wg1:Bf6,d4,f4,f2";
    let plain = run(&["moves", "--variant", "russian", "--fen", fen]);
    let optional = run(&[
        "moves",
        "--variant",
        "russian",
        "--fen",
        fen,
        "--capture-optional",
    ]);
    assert!(optional.status.success());
    assert!(stdout(&optional).lines().count() > stdout(&plain).lines().count());
    let out = run(&["moves", "--variant", "international", "--capture-optional"]);
    assert_eq!(out.status.code(), Some(2), "not allowed on 10x10");
}

#[test]
fn play_prints_the_game_state() {
    let out = run(&[
        "play",
        "--variant",
        "international",
        "32-28",
        "19-23",
        "28x19",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let state: Value = serde_json::from_str(stdout(&out).trim()).expect("JSON");
    assert_eq!(state["turn"], "black");
    assert_eq!(state["outcome"], Value::Null);
    assert!(
        state["fen"]
            .as_str()
            .is_some_and(|f| f.starts_with("B:W19,"))
    );
    assert!(state["counters"].as_array().is_some_and(Vec::is_empty));

    let out = run(&["play", "--variant", "american", "--fen", "W:W:BK1"]);
    let state: Value = serde_json::from_str(stdout(&out).trim()).expect("JSON");
    assert_eq!(
        state["outcome"],
        serde_json::json!({"result": "black", "reason": "no_moves"})
    );
    assert_eq!(state["counters"][0]["rule"], "forty_moves");
}

#[test]
fn play_shows_the_row_a_promotion_selects() {
    // Issue 7 item 9: a promotion after the 7.2.7 count paused re-selects the row, as in
    // the same position set up directly.
    let played = run(&[
        "play",
        "--variant",
        "russian",
        "--fen",
        "B:WKa3,Kh2,e7:BKd4",
        "d4-e3",
        "e7-f8",
    ]);
    let direct = run(&[
        "play",
        "--variant",
        "russian",
        "--fen",
        "B:WKh2,Ka3,Kf8:BKe3",
    ]);
    for out in [&played, &direct] {
        assert!(out.status.success(), "{}", stderr(out));
        let state: Value = serde_json::from_str(stdout(out).trim()).expect("JSON");
        assert_eq!(state["fen"], "B:WKh2,Ka3,Kf8:BKe3");
        assert_eq!(
            state["counters"],
            serde_json::json!([{"rule": "fmjd64_7_2_4", "moves": 0, "limit": 15}])
        );
    }
}

#[test]
fn play_names_the_first_illegal_move() {
    let out = run(&["play", "--variant", "international", "32-28", "32-28"]);
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(
        err.contains("move 2") && err.contains("32-28") && err.contains("illegal"),
        "{err}"
    );
    let out = run(&["play", "--variant", "international", "hello"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("invalid move syntax"));
}

#[test]
fn bad_arguments_fail_cleanly() {
    for (args, code) in [
        (&["perft", "--variant", "international"][..], 2),
        (&["perft", "--variant", "chess", "--depth", "1"][..], 2),
        (&["perft", "--variant", "russian", "--depth", "x"][..], 2),
        (&["moves", "--fen"][..], 2),
        (&["moves", "--variant", "russian", "--bogus"][..], 2),
        (&["moves"][..], 2),
        (&["frobnicate"][..], 2),
        (&[][..], 2),
        (
            &["moves", "--variant", "russian", "--fen", "W:Wz9:B"][..],
            1,
        ),
        (
            &[
                "perft",
                "--variant",
                "american",
                "--fen",
                "X",
                "--depth",
                "1",
            ][..],
            1,
        ),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            !err.is_empty() && !err.contains("panicked"),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn pdn_is_dispatched() {
    let out = run(&["pdn", "--help"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// Every subcommand (and the tool itself) answers `--help` on standard output with
/// status 0, naming its options.
#[test]
fn every_subcommand_answers_help() {
    for (args, names) in [
        (
            &["--help"][..],
            &["perft", "moves", "play", "pdn", "think", "hub"][..],
        ),
        (
            &["perft", "--help"][..],
            &["--depth", "--divide", "--variant"][..],
        ),
        (&["moves", "--help"][..], &["--json", "--fen"][..]),
        (&["play", "--help"][..], &["MOVE", "--capture-optional"][..]),
        (&["pdn", "--help"][..], &["FILE", "--variant"][..]),
        (
            &["think", "--help"][..],
            &["--level", "--movetime", "--depth", "--seed"][..],
        ),
        (&["hub", "--help"][..], &["Hub protocol"][..]),
        (
            &["match", "--help"][..],
            &["--engine1", "--movetime", "--elo1"][..],
        ),
        (&["openings", "--help"][..], &["--variant", "--depth"][..]),
        (&["bench", "--help"][..], &["--movetime", "--depth"][..]),
    ] {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let text = String::from_utf8(out.stdout).expect("UTF-8 help");
        for name in names {
            assert!(text.contains(name), "{args:?} does not name {name}: {text}");
        }
    }
}

#[test]
fn tune_makes_data_and_fits_weights_deterministically() {
    let dir = std::env::temp_dir().join(format!("damka-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let data = dir.join("data.txt");
    let data2 = dir.join("data2.txt");
    let weights = dir.join("weights.txt");
    let path = |p: &std::path::Path| p.to_str().expect("UTF-8 path").to_string();
    for out in [&data, &data2] {
        let run_out = run(&[
            "tune",
            "selfplay",
            "--variant",
            "russian",
            "--games",
            "6",
            "--depth",
            "2",
            "--seed",
            "7",
            "--out",
            &path(out),
        ]);
        assert!(run_out.status.success(), "{}", stderr(&run_out));
        assert!(stdout(&run_out).contains("6 games"), "{}", stdout(&run_out));
    }
    let text = std::fs::read_to_string(&data).expect("data written");
    assert_eq!(text, std::fs::read_to_string(&data2).expect("data written"));
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 100, "{}", lines.len());
    for line in &lines {
        let result = line.rsplit(' ').next().expect("a result");
        assert!(["0", "0.5", "1"].contains(&result), "{line}");
    }
    let fit = |more: &[&str]| {
        let (data, weights) = (path(&data), path(&weights));
        let mut args = vec!["tune", "fit", "--variant", "russian", "--data", &data];
        args.extend_from_slice(more);
        args.extend_from_slice(&["--out", &weights]);
        run(&args)
    };
    let out = fit(&["--epochs", "20"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("fitted weights:"), "{}", stdout(&out));
    let w = std::fs::read_to_string(&weights).expect("weights written");
    assert!(w.lines().any(|l| l.starts_with("k ")), "{w}");
    assert!(w.lines().any(|l| l.starts_with("psq32 ")), "{w}");
    assert!(!w.lines().any(|l| l.starts_with("psq33 ")), "{w}");
    // A bad data line is an input error.
    std::fs::write(&data, "W:W99:B1 1\n").expect("write");
    let out = fit(&[]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tune_regions_fits_region_patterns_to_scored_self_play() {
    let dir = std::env::temp_dir().join(format!("damka-regions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = |p: &std::path::Path| p.to_str().expect("UTF-8 path").to_string();
    let data = path(&dir.join("scored.txt"));
    let regions = path(&dir.join("american.regions"));
    let out = run(&[
        "tune",
        "selfplay",
        "--variant",
        "american",
        "--games",
        "8",
        "--depth",
        "2",
        "--seed",
        "3",
        "--scores",
        "--out",
        &data,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    // `FEN RESULT SCORE`: the search score for the side to move.
    let text = std::fs::read_to_string(&data).expect("data written");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() > 100, "{}", lines.len());
    for line in &lines {
        let parts: Vec<&str> = line.split(' ').collect();
        assert_eq!(parts.len(), 3, "{line}");
        assert!(["0", "0.5", "1"].contains(&parts[1]), "{line}");
        parts[2].parse::<i32>().expect("a score");
    }
    // The dense fit reads such files too (the score is ignored there).
    let weights = path(&dir.join("weights.txt"));
    let out = run(&[
        "tune",
        "fit",
        "--variant",
        "american",
        "--data",
        &data,
        "--epochs",
        "2",
        "--out",
        &weights,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = run(&[
        "tune",
        "regions",
        "--variant",
        "american",
        "--data",
        &data,
        "--epochs",
        "3",
        "--rate",
        "20",
        "--out",
        &regions,
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("with regions:"), "{}", stdout(&out));
    let file = std::fs::read_to_string(&regions).expect("region weights written");
    assert!(file.lines().any(|l| l == "regions american 9"), "{file}");
    let set = file
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("regions"))
        .count();
    assert!(set > 50, "{set} weights set:\n{file}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn book_make_writes_a_legal_book_whatever_the_threads() {
    let dir = std::env::temp_dir().join(format!("damka-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    // A Russian book made with `args` (after `--variant russian`) into `name`.
    let make = |args: &[&str], name: &str| {
        let file = dir.join(name);
        let mut all = vec!["book", "make", "--variant", "russian"];
        all.extend_from_slice(args);
        all.extend(["--out", file.to_str().expect("UTF-8 path")]);
        let out = run(&all);
        assert!(out.status.success(), "{}", stderr(&out));
        std::fs::read_to_string(file).expect("the book written")
    };
    let three = ["--depth", "4", "--plies", "2", "--starts", "3"];
    let one = make(&[&three[..], &["--threads", "1"]].concat(), "one.book");
    let two = make(&[&three[..], &["--threads", "2"]].concat(), "two.book");
    assert_eq!(one, two, "the same book on 1 and 2 threads");
    let book = bot::book::Book::parse(draughts::Variant::Russian, &one).expect("it reads");
    // 3 starts, each with its children and the replies to the book's move.
    assert!(book.len() > 3 * 4, "{}", book.len());
    // The first start is the initial position, where a game without a
    // ballot begins: it and every first move are in the book.
    let initial = draughts::Position::new(draughts::Rules::new(draughts::Variant::Russian));
    assert!(book.probe(&initial).is_some());
    for m in initial.legal_moves().iter() {
        let mut after = initial.clone();
        after.play_unchecked(m);
        assert!(book.probe(&after).is_some(), "{}", after.to_fen());
    }
    for (pos, e) in book.iter() {
        assert!(pos.is_legal(&e.mv), "{}", pos.to_fen());
        assert!((1..=4).contains(&e.depth), "{}", e.depth);
    }
    assert!(one.contains("--depth 4 --plies 2 --starts 3"), "{one}");
    assert!(
        one.contains("the initial position, the fmjd64 ballots, "),
        "{one}"
    );
    // Without the ballots the starts are the initial position and the match
    // openings.
    let none = make(
        &[
            "--depth",
            "2",
            "--plies",
            "1",
            "--no-ballots",
            "--starts",
            "2",
        ],
        "none.book",
    );
    assert!(none.contains("--plies 1 --no-ballots --starts 2"), "{none}");
    assert!(
        none.contains("the initial position, the stored match openings"),
        "{none}"
    );
    let book = bot::book::Book::parse(draughts::Variant::Russian, &none).expect("it reads");
    // Besides the initial position and its children, the book has the first
    // opening's positions (its forced capture searched through).
    let initial = draughts::Position::new(draughts::Rules::new(draughts::Variant::Russian));
    let near: Vec<draughts::Position> = std::iter::once(initial.clone())
        .chain(initial.legal_moves().iter().map(|m| {
            let mut next = initial.clone();
            next.play_unchecked(m);
            next
        }))
        .collect();
    assert!(book.iter().any(|(p, _)| !near.contains(p)), "{none}");
    let out = run(&[
        "book",
        "make",
        "--variant",
        "russian",
        "--depth",
        "0",
        "--out",
        "x",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}
