//! Data-driven tests over the test vectors (`vectors/` at the repository root, a copy of the
//! shared vectors): exact legal move sets, perft of tricky positions, start
//! perft of every variant, and the reference-numbering mapping.
//!
//! The full start-perft depths are `#[ignore]`d:
//! `cargo test --release -p draughts -- --ignored`.

use draughts::{Bitboard, Color, Move, Position, Rules, Variant, perft};
use serde_json::Value;
use std::collections::BTreeSet;

const VECTORS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../vectors");

/// Start perft in normal runs stops before this many nodes.
const NODE_LIMIT: u64 = 2_000_000;

fn load(name: &str) -> Value {
    let path = format!("{VECTORS}/{name}");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("test vectors missing: cannot read {path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: invalid JSON: {e}"))
}

fn variants(doc: &Value) -> Vec<(Variant, &Value)> {
    let map = doc["variants"].as_object().expect("variants object");
    map.iter()
        .map(|(name, v)| (Variant::from_name(name).expect("known variant"), v))
        .collect()
}

/// A move as the vectors identify it: start, end, captured set, promotion.
type Key = (String, String, BTreeSet<String>, bool);

fn key_of(pos: &Position, m: &Move) -> Key {
    let v = pos.variant();
    (
        v.square_name(m.from()),
        v.square_name(m.to()),
        m.captures().map(|s| v.square_name(s)).collect(),
        m.promotes(),
    )
}

fn expected_key(entry: &Value) -> Key {
    let text = entry["move"].as_str().expect("move text");
    let squares: Vec<&str> = text.split(['-', 'x']).collect();
    (
        squares[0].to_string(),
        squares[squares.len() - 1].to_string(),
        entry["captures"]
            .as_array()
            .expect("captures")
            .iter()
            .map(|c| c.as_str().expect("square").to_string())
            .collect(),
        entry["promotes"].as_bool().expect("promotes"),
    )
}

/// Checks the exact legal move set of one position and that every written
/// path parses to its move. Returns the number of positions checked.
fn check_moves(variant: Variant, pos_doc: &Value) {
    let fen = pos_doc["fen"].as_str().expect("fen");
    let pos = Position::from_fen(Rules::new(variant), fen)
        .unwrap_or_else(|e| panic!("{variant} {fen}: {e}"));
    let expected: BTreeSet<Key> = pos_doc["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(expected_key)
        .collect();
    let legal = pos.legal_moves();
    let actual: BTreeSet<Key> = legal.iter().map(|m| key_of(&pos, m)).collect();
    assert_eq!(
        actual.len(),
        legal.len(),
        "{variant} {fen}: duplicate moves generated"
    );
    assert_eq!(
        actual,
        expected,
        "{variant} {fen}: legal moves differ\n  missing: {:?}\n  extra: {:?}",
        expected.difference(&actual).collect::<Vec<_>>(),
        actual.difference(&expected).collect::<Vec<_>>()
    );
    for entry in pos_doc["moves"].as_array().expect("moves") {
        let key = expected_key(entry);
        let mut texts = vec![entry["move"].as_str().expect("move")];
        if let Some(paths) = entry["paths"].as_array() {
            texts.extend(paths.iter().filter_map(Value::as_str));
        }
        for text in texts {
            let m = pos
                .parse_move(text)
                .unwrap_or_else(|e| panic!("{variant} {fen}: {text}: {e}"));
            assert_eq!(key_of(&pos, &m), key, "{variant} {fen}: {text}");
            assert_eq!(
                pos.move_to_string(&m),
                text,
                "{variant} {fen}: full path echoes"
            );
        }
        assert_eq!(perft(&pos, 1), legal.len() as u64);
    }
}

#[test]
fn tricky_positions_have_the_exact_moves_and_perft() {
    let doc = load("perft.json");
    let mut checked = 0;
    for (variant, v) in variants(&doc) {
        for pos_doc in v["positions"].as_array().expect("positions") {
            check_moves(variant, pos_doc);
            let fen = pos_doc["fen"].as_str().expect("fen");
            let pos = Position::from_fen(Rules::new(variant), fen).expect("fen");
            let name = pos_doc["name"].as_str().unwrap_or("?");
            for (depth, counts) in pos_doc["perft"].as_object().expect("perft") {
                let depth: u32 = depth.parse().expect("depth");
                let unique = counts["unique"].as_u64().expect("unique");
                assert_eq!(
                    perft(&pos, depth),
                    unique,
                    "{variant} {name} {fen} perft({depth})"
                );
            }
            checked += 1;
        }
    }
    assert!(checked > 100, "only {checked} positions");
}

#[test]
fn random_positions_have_the_exact_moves() {
    let doc = load("random_positions.json");
    let mut checked = 0;
    for (variant, positions) in variants(&doc) {
        for pos_doc in positions.as_array().expect("positions") {
            check_moves(variant, pos_doc);
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} positions");
}

/// Parses a FEN in the reference numbering: (first mover to move, [first
/// mover's pieces, other's pieces] as (number, king)).
fn parse_reference(fen: &str) -> (bool, [BTreeSet<(u8, bool)>; 2]) {
    let mut parts = fen.split(':');
    let turn = parts.next() == Some("W");
    let mut sides = [BTreeSet::new(), BTreeSet::new()];
    for part in parts {
        let idx = usize::from(part.starts_with('B'));
        for item in part[1..].split(',').filter(|s| !s.is_empty()) {
            let (king, num) = match item.strip_prefix('K') {
                Some(n) => (true, n),
                None => (false, item),
            };
            sides[idx].insert((num.parse().expect("reference square"), king));
        }
    }
    (turn, sides)
}

#[test]
fn notation_maps_onto_the_reference_numbering() {
    let doc = load("perft.json");
    for (variant, v) in variants(&doc) {
        let size = variant.board_size();
        for pos_doc in v["positions"].as_array().expect("positions") {
            let fen = pos_doc["fen"].as_str().expect("fen");
            let Some(reference) = pos_doc["reference_fen"].as_str() else {
                continue;
            };
            let pos = Position::from_fen(Rules::new(variant), fen).expect("fen");
            let first = variant.first_mover();
            let (first_to_move, sides) = parse_reference(reference);
            assert_eq!(pos.turn() == first, first_to_move, "{variant} {fen}");
            for (i, color) in [first, first.other()].into_iter().enumerate() {
                let ours: BTreeSet<(u8, bool)> = pos
                    .pieces(color)
                    .map(|sq| (sq.reference(size), pos.kings().contains(sq)))
                    .collect();
                assert_eq!(ours, sides[i], "{variant} {fen} vs {reference} ({color})");
            }
        }
    }
}

fn start_perft(max_nodes: u64) {
    let doc = load("perft.json");
    for (variant, v) in variants(&doc) {
        let fen = v["start_fen"].as_str().expect("start_fen");
        let pos = Position::from_fen(Rules::new(variant), fen).expect("start fen");
        assert_eq!(pos, Position::new(Rules::new(variant)), "{variant}");
        let mut table: Vec<(u32, u64)> = v["perft"]
            .as_object()
            .expect("perft")
            .iter()
            .map(|(d, n)| (d.parse().expect("depth"), n.as_u64().expect("count")))
            .collect();
        table.sort_unstable();
        for (depth, expected) in table {
            if expected > max_nodes {
                break;
            }
            assert_eq!(
                perft(&pos, depth),
                expected,
                "{variant} start perft({depth})"
            );
        }
    }
}

#[test]
fn start_perft_up_to_the_node_limit() {
    start_perft(NODE_LIMIT);
}

#[test]
#[ignore = "minutes in release mode: cargo test --release -p draughts -- --ignored"]
fn start_perft_full_depths() {
    start_perft(u64::MAX);
}

#[test]
fn reference_side_is_the_first_mover() {
    // The bitboards of the first mover are the bottom of the reference board
    // in every variant, American included.
    for variant in Variant::ALL {
        let pos = Position::new(Rules::new(variant));
        let size = variant.board_size();
        let mut first: Bitboard = pos.pieces(variant.first_mover());
        let max = variant.square_count();
        assert!(first.all(|sq| sq.reference(size) > max - variant.men_per_side()));
        assert_eq!(pos.turn(), variant.first_mover());
        assert_eq!(
            variant.first_mover() == Color::Black,
            variant == Variant::American
        );
    }
}
