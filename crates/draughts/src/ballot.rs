//! Opening ballots: the published 8x8 ballots and Damka's own balanced sets,
//! as data (`crates/draughts/ballots/<variant>-<set>.txt`, read in at build
//! time and parsed on first use; sources and counts in `docs/ballots.md`).
//!
//! Every entry carries its moves from the start position (the normative
//! form, in the variant's notation) and the position they reach as FEN
//! (written by this engine; the tests check that the two agree). Most
//! positions of the FMJD-64 table are not played but set up: the start
//! position with a man of each side moved by hand ([`Ballot::arrangement`]).
//!
//! ```
//! use draughts::{BallotSet, Variant, ballot};
//!
//! // What a table with "ballot": "random" plays: the same seed, the same ballot.
//! let b = ballot::random(Variant::American, 42);
//! assert_eq!(b.set(), BallotSet::ThreeMove);
//! assert_eq!(b.moves().count(), 3);
//! let game = b.game(); // starts from the ballot's FEN
//! assert_eq!(game.position().to_fen(), b.fen());
//!
//! // A ballot by id.
//! let b = ballot::find(Variant::Russian, "fmjd64-07-13").expect("stored");
//! assert_eq!(b.name(), "FMJD-64 7-XIII");
//! assert_eq!(b.movetext(), "e3-f4 b6-a5 d2-e3 a7-b6 c3-d4 d6-c5");
//! let b = ballot::find(Variant::Russian, "fmjd64-11-04").expect("stored");
//! assert_eq!(b.arrangement(), Some("a1-a5 a7-h4"));
//! assert_eq!(b.moves().count(), 0);
//!
//! // The sets of a variant, the one "random" draws from first.
//! assert_eq!(ballot::sets(Variant::Brazilian), [BallotSet::Fmjd64, BallotSet::Idf150]);
//! assert_eq!(BallotSet::Fmjd64.ballots(Variant::Brazilian).len(), 725);
//! ```

use crate::{Game, Position, Rules, SplitMix64, Variant};
use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

/// A named set of opening ballots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BallotSet {
    /// The ACF three-move ballot of American checkers: 156 of the 174
    /// three-move openings.
    ThreeMove,
    /// The two-move ballot of American checkers: 43 of the 49 two-move
    /// openings.
    TwoMove,
    /// The FMJD Drawing Table 64 (Russian and Brazilian): 46 categories of
    /// 16 positions, 736 for Russian; 725 for Brazilian (lidraughts leaves
    /// 11 out).
    Fmjd64,
    /// The IDF table of 150 basic positions (Russian and Brazilian).
    Idf150,
    /// Damka's own balanced openings, scored by its engine (the variants
    /// without a published ballot).
    Damka,
}

impl BallotSet {
    /// Every set.
    pub const ALL: [BallotSet; 5] = [
        BallotSet::ThreeMove,
        BallotSet::TwoMove,
        BallotSet::Fmjd64,
        BallotSet::Idf150,
        BallotSet::Damka,
    ];

    /// The set's name, also the prefix of its ballots' ids: `3move`, `2move`,
    /// `fmjd64`, `idf150`, `damka`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            BallotSet::ThreeMove => "3move",
            BallotSet::TwoMove => "2move",
            BallotSet::Fmjd64 => "fmjd64",
            BallotSet::Idf150 => "idf150",
            BallotSet::Damka => "damka",
        }
    }

    /// The set with this name (as [`BallotSet::name`] writes it), if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<BallotSet> {
        BallotSet::ALL.into_iter().find(|s| s.name() == name)
    }

    /// What the set is, for people: `ACF 3-move ballot`, `FMJD Drawing
    /// Table 64`, ...
    #[must_use]
    pub const fn title(self) -> &'static str {
        match self {
            BallotSet::ThreeMove => "ACF 3-move ballot",
            BallotSet::TwoMove => "2-move ballot",
            BallotSet::Fmjd64 => "FMJD Drawing Table 64",
            BallotSet::Idf150 => "IDF 150 basic positions",
            BallotSet::Damka => "Damka balanced openings",
        }
    }

    /// Where the set comes from: the authority and the file it was converted
    /// from (`docs/ballots.md` has the commits and licences).
    #[must_use]
    pub const fn source(self) -> &'static str {
        match self {
            BallotSet::ThreeMove => {
                "American Checker Federation 3-move ballot; data from pydraughts (MIT), github.com/AttackingOrDefending/pydraughts, draughts/ballot_files/3move_english.json, less 026 as barred by Pask"
            }
            BallotSet::TwoMove => {
                "2-move restriction; data from pydraughts (MIT), github.com/AttackingOrDefending/pydraughts, draughts/ballot_files/2move_english.json"
            }
            BallotSet::Fmjd64 => {
                "FMJD Drawing Table 64, results.fmjd.org/viewpage.php?page_id=2; data from lidraughts, github.com/RoepStoep/lidraughts, modules/draughts/src/main/OpeningTable.scala"
            }
            BallotSet::Idf150 => {
                "IDF Drawing Table 64, basic positions, idf64.org/tables-of-draw/; data from lidraughts, github.com/RoepStoep/lidraughts, modules/draughts/src/main/OpeningTable.scala"
            }
            BallotSet::Damka => {
                "Damka: openings scored level by its own engine (draughts ballots make; docs/ballots.md)"
            }
        }
    }

    /// The ballots of this set for `variant`, in file order (empty when the
    /// set has none for it; [`sets`] lists the ones it has).
    #[must_use]
    pub fn ballots(self, variant: Variant) -> &'static [Ballot] {
        static CACHE: [OnceLock<Box<[Ballot]>>; BallotSet::ALL.len() * Variant::ALL.len()] =
            [const { OnceLock::new() }; BallotSet::ALL.len() * Variant::ALL.len()];
        let Some(text) = data(self, variant) else {
            return &[];
        };
        CACHE[self as usize * Variant::ALL.len() + variant as usize]
            .get_or_init(|| parse(self, variant, text))
    }
}

impl fmt::Display for BallotSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Error for an unknown ballot set name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseBallotSetError;

impl fmt::Display for ParseBallotSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("unknown ballot set (expected 3move, 2move, fmjd64, idf150 or damka)")
    }
}

impl std::error::Error for ParseBallotSetError {}

impl FromStr for BallotSet {
    type Err = ParseBallotSetError;

    fn from_str(s: &str) -> Result<BallotSet, ParseBallotSetError> {
        BallotSet::from_name(s).ok_or(ParseBallotSetError)
    }
}

/// The data file of a set and variant, if the set has one for it.
fn data(set: BallotSet, variant: Variant) -> Option<&'static str> {
    use BallotSet::{Damka, Fmjd64, Idf150, ThreeMove, TwoMove};
    use Variant::{American, Brazilian, Czech, International, Italian, Russian, Spanish};
    Some(match (set, variant) {
        (ThreeMove, American) => include_str!("../ballots/american-3move.txt"),
        (TwoMove, American) => include_str!("../ballots/american-2move.txt"),
        (Fmjd64, Russian) => include_str!("../ballots/russian-fmjd64.txt"),
        (Fmjd64, Brazilian) => include_str!("../ballots/brazilian-fmjd64.txt"),
        (Idf150, Russian) => include_str!("../ballots/russian-idf150.txt"),
        (Idf150, Brazilian) => include_str!("../ballots/brazilian-idf150.txt"),
        (Damka, Spanish) => include_str!("../ballots/spanish-damka.txt"),
        (Damka, Italian) => include_str!("../ballots/italian-damka.txt"),
        (Damka, Czech) => include_str!("../ballots/czech-damka.txt"),
        (Damka, International) => include_str!("../ballots/international-damka.txt"),
        _ => return None,
    })
}

/// Marks the third field of a ballot that is an arrangement, not moves.
const ARRANGEMENT: &str = "arrangement ";

/// Reads a data file: `#` comment lines, then one ballot a line as
/// `id<TAB>name<TAB>opening<TAB>fen`, the opening being moves from the start
/// (none: the start position itself) or `arrangement ` and the men moved
/// off the start position. The files are part of the crate and checked by
/// its tests, so a malformed line is a broken invariant.
fn parse(set: BallotSet, variant: Variant, text: &'static str) -> Box<[Ballot]> {
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'))
        .map(|(i, line)| {
            let fields: Vec<&'static str> = line.split('\t').collect();
            let [id, name, opening, fen] = fields[..] else {
                panic!("ballots/{variant}-{set}.txt line {}: not 4 fields", i + 1);
            };
            let (moves, arrangement) = match opening.strip_prefix(ARRANGEMENT) {
                Some(arrangement) => ("", Some(arrangement)),
                None => (opening, None),
            };
            Ballot {
                id,
                name,
                moves,
                arrangement,
                fen,
                set,
                variant,
            }
        })
        .collect()
}

/// One opening ballot: the position a game (or both games of a micro-match)
/// begins from, and how it is reached: moves from the start position, or
/// (the arrangements of the FMJD-64 table) men moved off it by hand.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Ballot {
    id: &'static str,
    name: &'static str,
    moves: &'static str,
    arrangement: Option<&'static str>,
    fen: &'static str,
    set: BallotSet,
    variant: Variant,
}

impl Ballot {
    /// The stable id, unique within the variant: the set's name, then the
    /// number(s) of the source, e.g. `3move-026`, `fmjd64-07-13` (category 7,
    /// position XIII), `idf150-01-10`, `damka-015`.
    #[must_use]
    pub fn id(&self) -> &'static str {
        self.id
    }

    /// The name for people and PDN headers, e.g. `ACF 3-move 001`,
    /// `FMJD-64 7-XIII`.
    #[must_use]
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The moves from the start position, in the variant's notation (full
    /// paths, as [`Position::move_to_string`] writes them); none for an
    /// arrangement, or for the start position itself.
    pub fn moves(&self) -> impl Iterator<Item = &'static str> + Clone + use<> {
        self.moves.split_whitespace()
    }

    /// The moves as one space-separated text, e.g. `9-13 22-18 10-15`
    /// (empty when there are none).
    #[must_use]
    pub fn movetext(&self) -> &'static str {
        self.moves
    }

    /// For a position that is set up rather than played, the men moved off
    /// the start position, e.g. `a1-a5 a7-h4` (FMJD-64 11-IV: White's man
    /// from a1 stands on a5, Black's from a7 on h4); `None` for a ballot
    /// reached by [`Ballot::moves`].
    #[must_use]
    pub fn arrangement(&self) -> Option<&'static str> {
        self.arrangement
    }

    /// The position after the moves, as FEN in the variant's notation.
    #[must_use]
    pub fn fen(&self) -> &'static str {
        self.fen
    }

    /// The set the ballot belongs to.
    #[must_use]
    pub fn set(&self) -> BallotSet {
        self.set
    }

    /// Its variant.
    #[must_use]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Where it comes from (its set's [`BallotSet::source`]).
    #[must_use]
    pub fn source(&self) -> &'static str {
        self.set.source()
    }

    /// The position after the moves, under the variant's standard rules (for
    /// table options, read [`Ballot::fen`] with
    /// [`Position::from_fen`](crate::Position::from_fen)).
    ///
    /// # Panics
    ///
    /// Never for a stored ballot: every FEN is checked by the tests.
    #[must_use]
    pub fn position(&self) -> Position {
        Position::from_fen(Rules::new(self.variant), self.fen)
            .unwrap_or_else(|e| panic!("ballot {} of {}: {e}", self.id, self.variant))
    }

    /// A new game from the ballot's position ([`Ballot::position`]).
    #[must_use]
    pub fn game(&self) -> Game {
        Game::new(self.position())
    }
}

/// The ballot sets of `variant`, its default one ([`default_set`]) first.
#[must_use]
pub fn sets(variant: Variant) -> &'static [BallotSet] {
    match variant {
        Variant::American => &[BallotSet::ThreeMove, BallotSet::TwoMove],
        Variant::Russian | Variant::Brazilian => &[BallotSet::Fmjd64, BallotSet::Idf150],
        Variant::Spanish | Variant::Italian | Variant::Czech | Variant::International => {
            &[BallotSet::Damka]
        }
    }
}

/// The set a "random ballot" draws from: the 3-move ballot for American,
/// the FMJD-64 table for Russian and Brazilian, Damka's own for the others.
#[must_use]
pub fn default_set(variant: Variant) -> BallotSet {
    sets(variant)[0]
}

/// Every ballot of `variant`, set by set in the order of [`sets`].
pub fn ballots(variant: Variant) -> impl Iterator<Item = &'static Ballot> {
    sets(variant).iter().flat_map(move |s| s.ballots(variant))
}

/// The ballot of `variant` with this id, from any of its sets.
#[must_use]
pub fn find(variant: Variant, id: &str) -> Option<&'static Ballot> {
    let (prefix, _) = id.split_once('-')?;
    let set = BallotSet::from_name(prefix)?;
    set.ballots(variant).iter().find(|b| b.id == id)
}

/// A ballot of the variant's [`default_set`] drawn uniformly by `seed`: the
/// same seed gives the same ballot.
///
/// # Panics
///
/// Never: every variant's default set has ballots (a test checks).
#[must_use]
pub fn random(variant: Variant, seed: u64) -> &'static Ballot {
    let set = default_set(variant).ballots(variant);
    &set[SplitMix64::new(seed).below(set.len() as u64) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_set_has_a_file_and_no_other() {
        for v in Variant::ALL {
            for s in BallotSet::ALL {
                assert_eq!(data(s, v).is_some(), sets(v).contains(&s), "{v} {s}");
            }
            assert!(!default_set(v).ballots(v).is_empty(), "{v}");
        }
    }

    #[test]
    fn set_names_round_trip() {
        for s in BallotSet::ALL {
            assert_eq!(s.name().parse(), Ok(s));
            assert_eq!(s.to_string(), s.name());
        }
        assert_eq!("fmjd".parse::<BallotSet>(), Err(ParseBallotSetError));
    }

    #[test]
    fn find_reads_the_prefix_of_the_id() {
        let b = find(Variant::Russian, "fmjd64-07-13").expect("stored");
        assert_eq!(b.name(), "FMJD-64 7-XIII");
        assert_eq!(b.set(), BallotSet::Fmjd64);
        assert_eq!(find(Variant::American, "fmjd64-07-13"), None);
        for bad in ["", "fmjd64", "nope-01", "3move-999", "3move-026"] {
            assert_eq!(find(Variant::American, bad), None, "{bad}");
        }
    }
}
