//! `draughts pdn`: one line per game, stops with status 1 at the first bad game, 2 for
//! usage errors.

use std::process::{Command, Output};

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/pdn");

fn draughts_pdn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_draughts"))
        .arg("pdn")
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run draughts: {e}"))
}

fn vector(name: &str) -> String {
    format!("{VECTORS}/{name}")
}

#[test]
fn replays_every_game_and_prints_a_line_each() {
    let kurnik = vector("international-fmjdpdn-kurnik.pdn");
    let italian = vector("italian-fmjdpdn-campionato-assoluto-2005.pdn");
    let output = draughts_pdn(&[&kurnik]);
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 5, "{stdout}");
    assert!(lines[0].starts_with(&format!("{kurnik}:1 ")), "{stdout}");
    assert!(lines[0].ends_with(" plies OK"), "{stdout}");
    assert_eq!(lines[4], "4 games OK");

    // No GameType tags in the Italian file: the variant must be given.
    let output = draughts_pdn(&["--variant", "italian", &italian]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    let output = draughts_pdn(&[&italian]);
    assert_eq!(
        output.status.code(),
        Some(1),
        "International rules reject it"
    );
}

#[test]
fn stops_at_the_first_bad_game() {
    let file = vector("international-brunogui-bruno-vs-scan31.pdn");
    let output = draughts_pdn(&["--variant=international", &file]);
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&output.stdout);
    let last = stdout.lines().last().unwrap_or_default();
    assert!(last.starts_with(&format!("{file}:11 ")), "{stdout}");
    assert!(
        last.ends_with("ERROR game 11: move 32... 17-11 (ply 64) is illegal"),
        "{last}"
    );
    assert_eq!(stdout.lines().count(), 11);
}

#[test]
fn usage_errors() {
    assert_eq!(draughts_pdn(&[]).status.code(), Some(2));
    assert_eq!(
        draughts_pdn(&["--variant", "go", "x.pdn"]).status.code(),
        Some(2)
    );
    assert_eq!(
        draughts_pdn(&["/nonexistent/file.pdn"]).status.code(),
        Some(2)
    );
    let help = draughts_pdn(&["--help"]);
    assert_eq!(help.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage: draughts pdn"));
}
