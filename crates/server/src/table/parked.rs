//! The parked correspondence tables' list ([`super::parking`]): for each parked table, its
//! game, since when it waits and when it must be loaded again, kept by id and by due time.
//! Pure: the registry holds one, the parking task reads it.

use std::collections::{BTreeSet, HashMap};

use draughts::{Position, Rules, Variant};

use super::correspondence::TIME_LOW_PERCENT;
use super::game::to_u64;
use damka_store::GameRow;

/// A parked table: what loading it again needs, and when it must be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parked {
    /// The game waiting at the table.
    pub game: String,
    /// When it was parked (server ms): its clock runs from then.
    pub since: u64,
    /// When its next timer is due (server ms): it is loaded then.
    pub due: u64,
}

/// The parked tables by id, and by due time.
#[derive(Debug, Default)]
pub struct ParkedTables {
    by_id: HashMap<String, Parked>,
    by_due: BTreeSet<(u64, String)>,
}

impl ParkedTables {
    /// Parks (or parks again) table `id`.
    pub fn insert(&mut self, id: String, parked: Parked) {
        self.remove(&id);
        self.by_due.insert((parked.due, id.clone()));
        self.by_id.insert(id, parked);
    }

    /// Unparks table `id`.
    pub fn remove(&mut self, id: &str) -> Option<Parked> {
        let parked = self.by_id.remove(id)?;
        self.by_due.remove(&(parked.due, id.to_owned()));
        Some(parked)
    }

    /// Whether table `id` is parked.
    pub fn contains(&self, id: &str) -> bool {
        self.by_id.contains_key(id)
    }

    /// The earliest due time.
    pub fn next_due(&self) -> Option<u64> {
        self.by_due.first().map(|(due, _)| *due)
    }

    /// The tables due at `now`.
    pub fn due(&self, now: u64) -> Vec<String> {
        self.by_due
            .iter()
            .take_while(|(due, _)| *due <= now)
            .map(|(_, id)| id.clone())
            .collect()
    }

    /// How many are parked.
    pub fn len(&self) -> usize {
        self.by_id.len()
    }
}

/// How long after `since` a correspondence game stored as `row` must be loaded at the
/// latest: the side to move's time-low point (the least time either side had when the
/// clock was saved, less the notice's share of the period), or `None` if it cannot be
/// parked from its row alone (not both sides have moved: the first-move window's rest
/// is not in the row).
pub fn due_from_row(row: &GameRow) -> Option<u64> {
    let period = to_u64(row.days?).saturating_mul(86_400_000);
    let variant = Variant::from_name(&row.variant)?;
    // The row must read as a game (its start position), or it is restored the full way
    // (which marks a broken one aborted).
    Position::from_fen(Rules::new(variant), &row.initial_fen).ok()?;
    if row.clock.ply < row.opening_plies + 2 {
        return None;
    }
    let least = to_u64(row.clock.white_ms.min(row.clock.black_ms));
    let low = period * (100 - TIME_LOW_PERCENT) / 100;
    Some(least.saturating_sub(low))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parked(game: &str, due: u64) -> Parked {
        Parked {
            game: game.into(),
            since: 0,
            due,
        }
    }

    #[test]
    fn parked_tables_come_out_by_due_time() {
        let mut p = ParkedTables::default();
        p.insert("t1".into(), parked("g1", 300));
        p.insert("t2".into(), parked("g2", 100));
        p.insert("t3".into(), parked("g3", 200));
        assert_eq!(p.next_due(), Some(100));
        assert_eq!(p.due(200), ["t2", "t3"]);
        // Parked again with another due time: the old one is gone.
        p.insert("t2".into(), parked("g2", 400));
        assert_eq!(p.due(200), ["t3"]);
        assert_eq!(p.remove("t3").map(|x| x.game), Some("g3".into()));
        assert_eq!(p.next_due(), Some(300));
        assert_eq!(p.len(), 2);
        assert!(p.contains("t2") && !p.contains("t3"));
    }
}
