//! Opening ballots at a table (`"ballot": "random" | ID`): which ballots a table may name,
//! which of them a rated table may play, the ballot each game starts from, and how a game's
//! ballot is shown. The ballots themselves are the rules engine's data
//! (`draughts::ballot`, docs/ballots.md).

use damka_protocol::ErrorCode;
use damka_protocol::ballot::{BallotChoice, GameBallot};
use draughts::Variant;
use draughts::ballot::{self, Ballot, BallotSet};

use crate::random;
use crate::refusal::Refusal;

/// Whether a rated table may start from the ballots of `set`: a federation's own table,
/// played in its rated events (the ACF 3-move ballot, the FMJD-64 and IDF 150 tables),
/// so a game from it is as serious as one from the start position. Damka's own sets (its
/// engine's opinion) and the historical 2-move ballot stay casual.
pub fn rated_set(set: BallotSet) -> bool {
    matches!(
        set,
        BallotSet::ThreeMove | BallotSet::Fmjd64 | BallotSet::Idf150
    )
}

/// The set a table's choice plays from: the variant's default set for `"random"`, the
/// named ballot's set for an id.
///
/// Fails with `unknown_ballot` for an id that is not a ballot of `variant`.
pub fn check(variant: Variant, choice: &BallotChoice) -> Result<BallotSet, Refusal> {
    match choice {
        BallotChoice::Random => Ok(ballot::default_set(variant)),
        BallotChoice::Id(id) => ballot::find(variant, id).map(Ballot::set).ok_or_else(|| {
            Refusal::game(
                ErrorCode::UnknownBallot,
                format!("{variant} has no ballot {id:?} (GET /api/ballots/{variant} lists them)"),
            )
        }),
    }
}

/// The ballot a new game starts from: for `"random"` a fresh draw of the variant's default
/// set with the server's randomness (each game of the table its own), for an id that
/// ballot; `None` without a choice (or for an id the data no longer has: the start
/// position).
pub fn draw(variant: Variant, choice: Option<&BallotChoice>) -> Option<&'static Ballot> {
    match choice? {
        BallotChoice::Random => Some(ballot::random(variant, random::u64())),
        BallotChoice::Id(id) => ballot::find(variant, id),
    }
}

/// A game's ballot as the wire shows it.
pub fn shown(b: &Ballot) -> GameBallot {
    GameBallot {
        id: b.id().to_owned(),
        name: b.name().to_owned(),
        moves: b.moves().map(str::to_owned).collect(),
        arrangement: b.arrangement().map(str::to_owned),
    }
}

/// The table option a stored game was played under: `"random"` when the table drew its
/// ballots, else the stored ballot's id.
pub fn stored_choice(ballot: Option<&str>, random: bool) -> Option<BallotChoice> {
    match (ballot, random) {
        (_, true) => Some(BallotChoice::Random),
        (Some(id), false) => Some(BallotChoice::Id(id.to_owned())),
        (None, false) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_choice_is_checked_against_the_variant() {
        let id = |s: &str| BallotChoice::Id(s.to_owned());
        assert_eq!(
            check(Variant::Russian, &id("fmjd64-07-13")).ok(),
            Some(BallotSet::Fmjd64)
        );
        assert_eq!(
            check(Variant::Czech, &BallotChoice::Random).ok(),
            Some(BallotSet::Damka)
        );
        for (v, bad) in [
            (Variant::American, "fmjd64-07-13"),
            (Variant::Russian, "nope"),
            (Variant::Brazilian, "fmjd64-01-09"),
        ] {
            let e = check(v, &id(bad)).expect_err(bad);
            assert_eq!(e.code(), ErrorCode::UnknownBallot, "{bad}");
        }
    }

    #[test]
    fn random_draws_from_the_default_set() {
        for v in Variant::ALL {
            let b = draw(v, Some(&BallotChoice::Random)).expect("a ballot");
            assert_eq!(b.set(), ballot::default_set(v));
        }
        assert_eq!(draw(Variant::Russian, None), None);
    }
}
