//! Replays the committed fuzz corpus (`fuzz/corpus/<target>/`) through the fuzz targets'
//! code, so CI checks the corpus without cargo-fuzz.

use draughts::fuzzing;
use std::path::PathBuf;

fn corpus(target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/corpus")).join(target);
    let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok())
        .map(|entry| {
            let path = entry.path();
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.display().to_string(), bytes)
        })
        .collect();
    files.sort();
    assert!(
        files.len() >= 10,
        "{target}: the corpus has {} files",
        files.len()
    );
    files
}

fn replay(target: &str, run: fn(&[u8])) {
    for (name, bytes) in corpus(target) {
        let outcome = std::panic::catch_unwind(|| run(&bytes));
        assert!(outcome.is_ok(), "{target}: {name} fails");
    }
}

#[test]
fn fen_corpus() {
    replay("fen", fuzzing::fen);
}

#[test]
fn move_text_corpus() {
    replay("move_text", fuzzing::move_text);
}

#[test]
fn pdn_corpus() {
    replay("pdn", fuzzing::pdn);
}
