//! The in-repository `vectors/` is a copy of the team's shared vectors (`../shared/vectors`
//! beside the repository). Where that folder exists, the copy must be byte-identical to it,
//! so a fixed or extended vector reaches the tests; from a plain clone there is nothing to
//! compare and the test says so. The one allowed difference is the note at the top of the
//! copy's README that says it is a copy (removed before comparing).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const COPY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors");
const SHARED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/vectors");

/// Files that belong to the copy only.
const COPY_ONLY: &[&str] = &[".gitattributes"];

/// The first line of the copy's note in `vectors/README.md`; the note runs to the next
/// blank line.
const NOTE_START: &str = "> **This folder is a copy**";

/// The copy's README without its note (unchanged if the note is missing, so a README
/// without it still compares equal to the shared one).
fn without_note(readme: &[u8]) -> Vec<u8> {
    let Ok(text) = std::str::from_utf8(readme) else {
        return readme.to_vec();
    };
    let Some(start) = text.find(NOTE_START) else {
        return readme.to_vec();
    };
    let end = text[start..]
        .find("\n\n")
        .map_or(text.len(), |i| start + i + 2);
    [&text[..start], &text[end..]].concat().into_bytes()
}

/// Every file under `root`, by path relative to it, with its bytes.
fn files(root: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                let bytes = std::fs::read(&path)
                    .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
                let relative = path.strip_prefix(root).expect("under root").to_path_buf();
                out.insert(relative, bytes);
            }
        }
    }
    out
}

#[test]
fn shared_copy() {
    let shared = Path::new(SHARED);
    if !shared.is_dir() {
        println!("skipped: no {SHARED} beside the repository, nothing to compare the copy with");
        return;
    }
    let mut copy = files(Path::new(COPY));
    for name in COPY_ONLY {
        copy.remove(Path::new(name));
    }
    if let Some(readme) = copy.get_mut(Path::new("README.md")) {
        *readme = without_note(readme);
    }
    let shared = files(shared);
    let mut problems = Vec::new();
    for (path, bytes) in &shared {
        match copy.get(path) {
            None => problems.push(format!("missing in vectors/: {}", path.display())),
            Some(mine) if mine != bytes => {
                problems.push(format!("differs from the shared file: {}", path.display()))
            }
            Some(_) => {}
        }
    }
    for path in copy.keys().filter(|p| !shared.contains_key(*p)) {
        problems.push(format!("not in the shared vectors: {}", path.display()));
    }
    assert!(
        problems.is_empty(),
        "vectors/ is not a copy of {SHARED} (refresh it as vectors/README.md says):\n{}",
        problems.join("\n")
    );
}
