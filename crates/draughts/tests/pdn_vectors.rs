//! Every real game file of `vectors/pdn` (repository root), replayed through the engine with the
//! variant from the file name, against the counts and known failures of its README; and
//! every replayed game written back and read again.

use draughts::pdn::{self, MoveFault, PdnError, PdnGame};
use draughts::{Position, Rules, Variant};
use std::path::PathBuf;

const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors/pdn");

/// A known bad record: game number, ply, move text, fault.
type Failure = (usize, usize, &'static str, MoveFault);

/// `(file, records, records with moves, failures)`, from the README.
const FILES: &[(&str, usize, usize, &[Failure])] = &[
    (
        "american-checkerboard-tinsley.pdn",
        724,
        724,
        &[
            // A move from an empty square (Long–Tinsley, "Petal 1981, game 18").
            (541, 123, "32-28", MoveFault::Illegal),
            // Text glued to a move without braces.
            (
                623,
                31,
                "8-11Redoversteppedthetimecontrolonthismove.",
                MoveFault::Syntax,
            ),
            (
                693,
                34,
                "26-22Whiteoversteppedthetimecontrolonthismove.",
                MoveFault::Syntax,
            ),
        ],
    ),
    ("american-fmjdpdn-inferno.pdn", 68, 68, &[]),
    ("american-fmjdpdn-oca2.pdn", 43, 43, &[]),
    ("american-raven-german-open-2004.pdn", 1, 1, &[]),
    // Not checked upstream against Czech rules: every game replays under ours.
    ("czech-fmjdpdn-mrcd2000kval.pdn", 40, 40, &[]),
    ("czech-fmjdpdn-mrcd2006.pdn", 44, 44, &[]),
    ("czech-fmjdpdn-mrcd2007.pdn", 102, 94, &[]),
    ("czech-fmjdpdn-mrdrcd07.pdn", 72, 69, &[]),
    ("czech-fmjdpdn-mrdrcd08.pdn", 40, 39, &[]),
    ("international-brunogui-african-blitz-2024.pdn", 48, 48, &[]),
    ("international-brunogui-allinges-2007.pdn", 45, 45, &[]),
    ("international-brunogui-avignon-2014.pdn", 97, 97, &[]),
    (
        "international-brunogui-bruno-vs-scan31.pdn",
        11,
        11,
        &[
            // Corrupted record (moves out of order from move 32).
            (11, 64, "17-11", MoveFault::Illegal),
        ],
    ),
    ("international-brunogui-france-ch-2021.pdn", 58, 58, &[]),
    ("international-brunogui-leman-2021.pdn", 147, 147, &[]),
    (
        "international-brunogui-moby-vs-programs-2022.pdn",
        9,
        9,
        &[],
    ),
    (
        "international-brunogui-montpellier-open-a-2021.pdn",
        56,
        56,
        &[],
    ),
    (
        "international-brunogui-pikine-champions-2025.pdn",
        12,
        12,
        &[],
    ),
    (
        "international-brunogui-polish-team-ch-2024.pdn",
        82,
        82,
        &[],
    ),
    ("international-brunogui-samb-buggy-2003.pdn", 6, 6, &[]),
    (
        "international-brunogui-sijbrands-andreiko-1973.pdn",
        20,
        20,
        &[],
    ),
    (
        "international-brunogui-suriname-veterans-2025.pdn",
        98,
        98,
        &[],
    ),
    (
        "international-brunogui-vanderwal-wiersma-1983.pdn",
        20,
        20,
        &[],
    ),
    ("international-brunogui-wk-matches-2024.pdn", 2, 2, &[]),
    ("international-fmjdpdn-40camp-italia.pdn", 45, 45, &[]),
    ("international-fmjdpdn-candidate95.pdn", 8, 8, &[]),
    ("international-fmjdpdn-delfts.pdn", 2, 2, &[]),
    ("international-fmjdpdn-dutch96h.pdn", 13, 13, &[]),
    ("international-fmjdpdn-kurnik.pdn", 4, 4, &[]),
    ("international-fmjdpdn-nk2003-amsterdam.pdn", 33, 32, &[]),
    ("international-fmjdpdn-nk2009-ronde01.pdn", 7, 7, &[]),
    ("international-fmjdpdn-nk2009-ronde02.pdn", 7, 7, &[]),
    ("international-fmjdpdn-nk2009-ronde12.pdn", 7, 7, &[]),
    ("international-fmjdpdn-prof2.pdn", 16, 16, &[]),
    ("international-fmjdpdn-rk2009-ronde12.pdn", 7, 7, &[]),
    ("international-fmjdpdn-schildpad.pdn", 34, 34, &[]),
    ("international-fmjdpdn-windragon.pdn", 1, 1, &[]),
    ("international-fmjdpdn-wk2003.pdn", 23, 23, &[]),
    ("italian-fmjdpdn-campionato-assoluto-2005.pdn", 53, 53, &[]),
    (
        "russian-fmjdpdn-abatsiev.pdn",
        56,
        56,
        &[
            // Unknown moves written as placeholders `1. - - 2. - - ...`.
            (36, 1, "-", MoveFault::Unknown),
        ],
    ),
    ("russian-fmjdpdn-ussr1947.pdn", 153, 153, &[]),
];

fn variant_of(file: &str) -> Variant {
    let name = file.split('-').next().unwrap_or_default();
    Variant::from_name(name).unwrap_or_else(|| panic!("no variant in file name {file}"))
}

fn read_file(file: &str) -> String {
    let path = PathBuf::from(DIR).join(file);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    pdn::decode(&bytes).into_owned()
}

/// Replays one file; returns the games that replayed.
fn check_file(file: &str, records: usize, with_moves: usize, failures: &[Failure]) -> Vec<PdnGame> {
    let variant = variant_of(file);
    let parsed = pdn::parse(&read_file(file));
    assert_eq!(parsed.len(), records, "{file}: records");
    let mut games = Vec::new();
    let mut errors = Vec::new();
    for record in parsed.iter().filter(|r| !r.moves.is_empty()) {
        match record.replay(Some(variant)) {
            Ok(game) => games.push(game),
            Err(PdnError::Move {
                game,
                ply,
                text,
                fault,
                ..
            }) => errors.push((game, ply, text, fault)),
            Err(e) => panic!("{file}: {e}"),
        }
    }
    assert_eq!(
        games.len() + errors.len(),
        with_moves,
        "{file}: games with moves"
    );
    let expected: Vec<_> = failures
        .iter()
        .map(|&(game, ply, text, fault)| (game, ply, text.to_owned(), fault))
        .collect();
    assert_eq!(errors, expected, "{file}: failures");
    games
}

#[test]
fn every_file_replays_as_documented() {
    let mut listed: Vec<&str> = FILES.iter().map(|f| f.0).collect();
    listed.sort_unstable();
    let mut present: Vec<String> = std::fs::read_dir(DIR)
        .unwrap_or_else(|e| panic!("{DIR}: {e}"))
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".pdn"))
        .collect();
    present.sort_unstable();
    assert_eq!(listed, present, "the table lists every vector file");

    let mut total = 0;
    for &(file, records, with_moves, failures) in FILES {
        total += check_file(file, records, with_moves, failures).len();
    }
    // 916 international + 833 american + 208 russian + 53 italian + 286 czech.
    assert_eq!(total, 2296);
}

#[test]
fn replayed_games_round_trip_through_the_writer() {
    for &(file, records, with_moves, failures) in FILES {
        let variant = variant_of(file);
        for game in check_file(file, records, with_moves, failures) {
            let written = pdn::write(&game);
            let reread = pdn::read(&written, None);
            assert_eq!(reread.len(), 1, "{file}:\n{written}");
            let again = match &reread[0] {
                Ok(again) => again,
                Err(e) => panic!("{file}: {e}\n{written}"),
            };
            assert_eq!(again.variant(), variant, "{file}: GameType tag");
            assert_eq!(again.start, game.start, "{file}: start\n{written}");
            assert_eq!(again.moves, game.moves, "{file}: moves\n{written}");
            assert_eq!(again.result, game.result, "{file}: result\n{written}");
        }
    }
}

#[test]
fn first_error_has_its_move_number() {
    let text = read_file("international-brunogui-bruno-vs-scan31.pdn");
    let results = pdn::read(&text, Some(Variant::International));
    let error = results[10].as_ref().expect_err("game 11 is corrupted");
    assert_eq!(
        error.to_string(),
        "game 11: move 32... 17-11 (ply 64) is illegal"
    );
    let text = read_file("american-checkerboard-tinsley.pdn");
    let error = pdn::parse(&text)[540]
        .replay(Some(Variant::American))
        .expect_err("game 541 is corrupted");
    // American: Black moves first, so ply 123 is Black's 62nd move.
    assert_eq!(
        error.to_string(),
        "game 541: move 62. 32-28 (ply 123) is illegal"
    );
}

#[test]
fn numeric_fen_with_algebraic_moves_is_converted() {
    let text = read_file("russian-fmjdpdn-ussr1947.pdn");
    let record = &pdn::parse(&text)[0];
    assert!(
        record
            .tag("FEN")
            .is_some_and(|fen| fen.starts_with("W:W29,30"))
    );
    let start = record.start(Some(Variant::Russian)).expect("converted FEN");
    assert_eq!(start, Position::new(Rules::new(Variant::Russian)));
}
