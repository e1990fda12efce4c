//! Capture priorities as filters over the generated captures.

use crate::rules::Priority;
use crate::{Bitboard, MoveList, Rules};

/// Keeps the captures the rules allow: majority first, then the variant's
/// further priority. `own_kings` are the mover's kings, `enemy_kings` the
/// opponent's (both before the move).
pub(crate) fn filter(rules: &Rules, own_kings: u64, enemy_kings: u64, list: &mut MoveList) {
    if list.len() < 2 {
        return;
    }
    let by_king = |m: &crate::Move| own_kings >> m.from().bit() & 1 != 0;
    let kings_taken = |m: &crate::Move| (m.captures() & Bitboard(enemy_kings)).count();
    if rules.priority == Priority::KingFirst && list.iter().any(by_king) {
        list.retain(by_king);
    }
    if rules.majority {
        let most = list.iter().map(|m| m.captures().count()).max().unwrap_or(0);
        list.retain(|m| m.captures().count() == most);
    }
    match rules.priority {
        Priority::None | Priority::KingFirst => {}
        Priority::MostKings => {
            let most = list.iter().map(kings_taken).max().unwrap_or(0);
            list.retain(|m| kings_taken(m) == most);
        }
        Priority::Italian => {
            if list.iter().any(by_king) {
                list.retain(by_king);
            }
            let most = list.iter().map(kings_taken).max().unwrap_or(0);
            list.retain(|m| kings_taken(m) == most);
            let earliest = list.iter().map(|m| m.king_key).max().unwrap_or(0);
            list.retain(|m| m.king_key == earliest);
        }
    }
}
