//! `draughts match`: a tiny match of the engine against itself, and an
//! engine that plays illegal moves losing every game.

use std::process::Command;

fn draughts() -> Command {
    Command::new(env!("CARGO_BIN_EXE_draughts"))
}

/// The `+W =D -L` of a summary line.
fn tally(line: &str) -> (u32, u32, u32) {
    let mut it = line
        .split_whitespace()
        .skip_while(|t| !t.starts_with('+'))
        .take(3)
        .map(|t| t[1..].parse::<u32>().expect("count"));
    (
        it.next().expect("wins"),
        it.next().expect("draws"),
        it.next().expect("losses"),
    )
}

/// A scripted Hub engine in a directory of its own (removed by the
/// caller): it answers `hub` and `init`, and `go` with `on_go` (shell).
/// Returns the directory and the engine's command.
fn script_engine(name: &str, on_go: &str) -> (std::path::PathBuf, String) {
    let dir = std::env::temp_dir().join(format!("damka-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let script = dir.join(format!("{name}.sh"));
    std::fs::write(
        &script,
        format!(
            "#!/bin/sh\nwhile read line; do case \"$line\" in\n hub) echo wait;;\n init) echo ready;;\n go*) {on_go};;\n quit) exit 0;;\nesac; done\n"
        ),
    )
    .expect("script");
    let cmd = format!("/bin/sh {}", script.display());
    (dir, cmd)
}

/// `draughts match` of the engine (engine1) against `engine2` with
/// `args`: the output, after checking that the match ran.
fn match_against(engine2: &str, args: &[&str]) -> String {
    let me = env!("CARGO_BIN_EXE_draughts");
    let out = draughts()
        .args(["match", "--engine1", me, "--engine2", engine2])
        .args(args)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    text
}

/// `draughts match` of the engine against itself with `args`, every game
/// written to a PDN file of its own: the output and the file's text.
fn self_match(file: &str, args: &[&str]) -> (String, String) {
    let me = env!("CARGO_BIN_EXE_draughts");
    let pdn = std::env::temp_dir().join(format!("damka-{file}-{}.pdn", std::process::id()));
    let _ = std::fs::remove_file(&pdn);
    let out = draughts()
        .args(["match", "--engine1", me, "--engine2", me])
        .args(args)
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{text}");
    let games = std::fs::read_to_string(&pdn).expect("the PDN file");
    let _ = std::fs::remove_file(&pdn);
    (text, games)
}

#[test]
fn a_tiny_match_of_the_engine_against_itself() {
    let (text, file) = self_match(
        "match",
        &[
            "--variant",
            "russian,american",
            "--movetime",
            "10",
            "--openings",
            "1",
            "--max-plies",
            "80",
        ],
    );
    let games: Vec<&str> = text.lines().filter(|l| l.contains(" opening ")).collect();
    assert_eq!(games.len(), 4, "{text}");
    // Every game in the PDN file, replayable, with the printed result.
    let records = draughts::pdn::read(&file, None);
    assert_eq!(records.len(), 4, "{file}");
    for (line, record) in games.iter().zip(records) {
        let game = record.expect("a game our reader replays");
        let result = match game.result {
            draughts::pdn::GameResult::Draw => "draw",
            draughts::pdn::GameResult::WhiteWins => "1-0",
            draughts::pdn::GameResult::BlackWins => "0-1",
            draughts::pdn::GameResult::Unfinished => "*",
        };
        assert!(line.contains(&format!(": {result} (")), "{line} / {result}");
        let why = game.tag("Termination").expect("why it ended");
        assert!(line.contains(&format!("({why})")), "{line} / {why}");
        assert!(game.moves.len() >= 3, "the opening at least");
    }
    // Colours swapped on the opening.
    assert!(
        games[0].contains("engine1") && games[1].contains("engine2"),
        "{text}"
    );
    let summary = text
        .lines()
        .find(|l| l.starts_with("all variants: 4 games"))
        .expect("totals");
    let (w, d, l) = tally(summary);
    assert_eq!(w + d + l, 4, "{summary}");
    assert!(summary.contains("± "), "{summary}");
    assert!(text.contains("SPRT elo0=0 elo1=20"), "{text}");
}

#[test]
fn an_engine_playing_illegal_moves_loses_every_game() {
    let (dir, bad) = script_engine("bad-engine", "echo 'done move=1-2'");
    let text = match_against(
        &bad,
        &[
            "--variant",
            "international",
            "--movetime",
            "10",
            "--openings",
            "2",
        ],
    );
    assert_eq!(
        text.matches("engine2 illegal move 1-2").count(),
        4,
        "{text}"
    );
    let summary = text
        .lines()
        .find(|l| l.starts_with("international: 4 games"))
        .expect("summary");
    assert_eq!(tally(summary), (4, 0, 0), "{summary}");
    assert!(summary.contains("score 100.0%"), "{summary}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Adjudication by the engines' `info` scores, and a match started past
/// the first stored openings.
#[test]
fn adjudication_reads_the_engines_scores() {
    // Any score is within ±1000 men: each game is a draw as soon as both
    // engines have scored two moves each, whatever the position.
    let (text, file) = self_match(
        "adjudicate",
        &[
            "--variant",
            "italian",
            "--movetime",
            "10",
            "--openings",
            "2",
            "--skip-openings",
            "1",
            "--adjudicate-draw",
            "0:2:1000",
            "--adjudicate-win",
            "2:50",
        ],
    );
    let games: Vec<&str> = text.lines().filter(|l| l.contains(" opening ")).collect();
    assert_eq!(games.len(), 4, "{text}");
    // The stored openings 2 and 3 (the first skipped), each twice.
    for (line, n) in games.iter().zip([2, 2, 3, 3]) {
        assert!(line.contains(&format!("italian opening {n} (")), "{line}");
    }
    for line in &games {
        assert!(
            line.contains(": draw (adjudicated: both engines within ±1000 men for 2 moves)"),
            "{line}"
        );
    }
    for record in draughts::pdn::read(&file, None) {
        let game = record.expect("a game our reader replays");
        // The 3-ply opening, then two moves of each engine.
        assert_eq!(game.moves.len(), 3 + 4, "{file}");
    }
}

/// `--clock`: the engine keeps its Fischer clock over whole games, and an
/// engine slower than its clock loses on time.
#[test]
fn a_fischer_clock_is_kept_and_a_slow_engine_loses_on_time() {
    // The engine's own clock use: four short games at 4 s + 0.05 s, none
    // lost on time (the engine budgets a margin), the clock in the PDN.
    let (text, file) = self_match(
        "clock",
        &[
            "--variant",
            "american,international",
            "--clock",
            "4+0.05",
            "--openings",
            "1",
            "--max-plies",
            "40",
        ],
    );
    let games: Vec<&str> = text.lines().filter(|l| l.contains(" opening ")).collect();
    assert_eq!(games.len(), 4, "{text}");
    assert!(!text.contains("on time"), "{text}");
    for record in draughts::pdn::read(&file, None) {
        let game = record.expect("a game our reader replays");
        assert_eq!(game.tag("TimeControl"), Some("4+0.05"), "{file}");
    }

    // An engine that takes 0.4 s a move on a 0.2 s clock.
    let (dir, slow) = script_engine("slow-engine", "sleep 0.4; echo 'done move=1-2'");
    let text = match_against(
        &slow,
        &[
            "--variant",
            "russian",
            "--clock",
            "0.2+0",
            "--openings",
            "1",
        ],
    );
    assert_eq!(text.matches("engine2 lost on time").count(), 2, "{text}");
    let summary = text
        .lines()
        .find(|l| l.starts_with("russian: 2 games"))
        .expect("summary");
    assert_eq!(tally(summary), (2, 0, 0), "{summary}");
    // Both at once is a usage error.
    let me = env!("CARGO_BIN_EXE_draughts");
    let out = draughts()
        .args([
            "match",
            "--engine1",
            me,
            "--engine2",
            me,
            "--movetime",
            "10",
            "--clock",
            "1+0",
        ])
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
