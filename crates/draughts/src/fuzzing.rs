//! The bodies of the fuzz targets (`fuzz/fuzz_targets/*.rs`), shared with the
//! `fuzz_corpus` test that replays the committed corpus without cargo-fuzz.
//!
//! Each function takes arbitrary bytes, must never panic on them, and panics (with a
//! message) only when a round-trip property fails: that is a bug the fuzzer reports.

use crate::{Position, Rules, Variant};

/// Inputs longer than this are cut: the properties do not need more, and short inputs
/// keep the fuzzer fast.
const MAX_INPUT: usize = 16 * 1024;

fn text(data: &[u8]) -> std::borrow::Cow<'_, str> {
    crate::pdn::decode(&data[..data.len().min(MAX_INPUT)])
}

/// FEN: parse the text in every variant; a FEN that parses must write back to a FEN that
/// parses to the same position, and writing that again gives the same text.
pub fn fen(data: &[u8]) {
    let text = text(data);
    for variant in Variant::ALL {
        let rules = Rules::new(variant);
        let Ok(position) = Position::from_fen(rules, &text) else {
            continue;
        };
        let written = position.to_fen();
        let reread = match Position::from_fen(rules, &written) {
            Ok(reread) => reread,
            Err(e) => panic!("{variant}: {text:?} wrote {written:?}, which fails: {e}"),
        };
        assert_eq!(reread, position, "{variant}: {text:?} -> {written:?}");
        assert_eq!(
            reread.to_fen(),
            written,
            "{variant}: FEN output is not stable"
        );
    }
}

/// Positions the move-text target resolves moves against: each variant's start and a
/// position with kings, so long captures and flying kings are reachable.
fn move_positions() -> Vec<Position> {
    let mut positions: Vec<Position> = Variant::ALL
        .iter()
        .map(|&v| Position::new(Rules::new(v)))
        .collect();
    let extra = [
        (
            Variant::International,
            "W:WK46,K28,33,37:B9,K19,22,24,14,13",
        ),
        (Variant::Russian, "W:WKc1,e3,g3:Bd4,f6,Kb6,d6"),
        (Variant::American, "B:WK5,18,19,26:B10,K14,15"),
        (Variant::Italian, "W:WK21,17,18:BK13,14,9"),
    ];
    for (variant, fen) in extra {
        if let Ok(position) = Position::from_fen(Rules::new(variant), fen) {
            positions.push(position);
        }
    }
    positions
}

/// Move text: the engine's parser and the PDN resolver must agree with the legal moves.
/// A move the engine parses is legal and its written form parses back to it; every move
/// the PDN resolver returns is legal.
pub fn move_text(data: &[u8]) {
    let text = text(data);
    let text = text.trim();
    for position in move_positions() {
        let legal = position.legal_moves();
        if let Ok(m) = position.parse_move(text) {
            assert!(legal.contains(&m), "{text:?} parsed to an illegal move");
            let written = position.move_to_string(&m);
            assert_eq!(position.parse_move(&written).ok(), Some(m), "{written:?}");
        }
        if let Ok(found) = crate::pdn::resolve::candidates(&position, text) {
            for m in found {
                assert!(legal.contains(&m), "{text:?} resolved to an illegal move");
            }
        }
    }
}

/// PDN: reading arbitrary text never panics, and every game that replays, written and
/// read back, has the same start, moves and result.
pub fn pdn(data: &[u8]) {
    let text = text(data);
    for record in crate::pdn::parse(&text) {
        let Ok(game) = record.replay(None) else {
            continue;
        };
        let written = crate::pdn::write(&game);
        let reread = crate::pdn::parse(&written);
        assert_eq!(
            reread.len(),
            1,
            "one game written, {} read:\n{written}",
            reread.len()
        );
        let again = match reread[0].replay(Some(game.variant())) {
            Ok(again) => again,
            Err(e) => panic!("written game does not replay ({e}):\n{written}"),
        };
        assert_eq!(again.start, game.start, "start differs:\n{written}");
        assert_eq!(again.moves, game.moves, "moves differ:\n{written}");
        assert_eq!(again.result, game.result, "result differs:\n{written}");
    }
}
