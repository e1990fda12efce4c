//! `draughts ballots`: listing the stored ballots and importing a table.

use std::io::Write as _;
use std::process::{Command, Output, Stdio};

fn run(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_draughts"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input written");
    child.wait_with_output().expect("the binary ends")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8 output")
}

#[test]
fn list_prints_a_set_in_the_data_format() {
    let out = run(
        &["ballots", "list", "--variant", "english", "--set", "2move"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 43);
    assert_eq!(
        lines[0],
        "2move-01\t2-move 01\t9-13 21-17\tB:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,13"
    );

    let out = run(&["ballots", "list", "--variant", "russian"], "");
    assert_eq!(text(&out.stdout).lines().count(), 736 + 150, "both sets");
    let out = run(
        &["ballots", "list", "--variant", "russian", "--set", "nope"],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn import_writes_our_notation_and_the_position() {
    let input = "fmjd64-01-01\tFMJD-64 1-I\tab4 ba5 ba3 ab6 ab2 dc5\n\
                 fmjd64-11-04\tFMJD-64 11-IV\tarrangement a1-a5 a7-h4\n\
                 fmjd64-22-15\tFMJD-64 22-XV\tarrangement e3-a5 e7-g5\tblack\n";
    let out = run(
        &[
            "ballots",
            "import",
            "--variant",
            "russian",
            "--set",
            "fmjd64",
            "--note",
            "a test",
        ],
        input,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("# FMJD Drawing Table 64, russian: 3 ballots.\n"),
        "{stdout}"
    );
    assert!(stdout.contains("# Note: a test\n"), "{stdout}");
    let rows: Vec<&str> = stdout.lines().filter(|l| !l.starts_with('#')).collect();
    // The same lines as the stored table.
    let stored = run(
        &["ballots", "list", "--variant", "russian", "--set", "fmjd64"],
        "",
    );
    let stored = text(&stored.stdout);
    for row in &rows {
        assert!(stored.lines().any(|l| l == *row), "{row}");
    }
    assert_eq!(rows.len(), 3);

    // An illegal move names its line; an id of another set is refused.
    for bad in [
        "fmjd64-01-01\tx\tab4 ab5\n",
        "idf150-01-01\tx\tab4\n",
        "fmjd64-01-01\tx\n",
    ] {
        let out = run(
            &[
                "ballots",
                "import",
                "--variant",
                "russian",
                "--set",
                "fmjd64",
            ],
            bad,
        );
        assert_eq!(out.status.code(), Some(1), "{bad:?}");
        assert!(
            text(&out.stderr).contains("line 1"),
            "{}",
            text(&out.stderr)
        );
    }
}
