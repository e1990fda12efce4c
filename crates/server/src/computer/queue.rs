//! The order in which waiting computer searches get a search thread: by class first
//! (people's games before computer-against-computer tournament boards, both before
//! analysis), then round-robin over client addresses, then round-robin over the owners
//! of one address, then first come first served. One address with many tables gets one
//! turn in each round, as does a player alone at one table. A search that has waited
//! longer than [`AGE`] is served before anything of a better class, so nothing starves,
//! with one exception: analysis never goes before a person's game. An analysis waits as
//! long as people play the computer (the analysis board's queue is bounded and answers
//! "busy" instead), since a person's clock runs while the computer thinks and an
//! analysis has no clock at all.
//!
//! Pure data: no locks, no clocks of its own (the caller passes `now`), unit-tested here.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// How long a search of a lower class may wait before it goes first anyway.
pub const AGE: Duration = Duration::from_secs(2);

/// What a search is for, best served first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Class {
    /// A game a person plays against the computer (at a table or in a tournament).
    Person,
    /// A tournament board where the computer plays itself (nobody's own game).
    FillIn,
    /// Analysis of a finished game or of a position (below every live game).
    Analysis,
}

impl Class {
    /// Every class, best served first.
    pub const ALL: [Class; 3] = [Class::Person, Class::FillIn, Class::Analysis];

    fn index(self) -> usize {
        match self {
            Class::Person => 0,
            Class::FillIn => 1,
            Class::Analysis => 2,
        }
    }
}

/// Whose search it is: the client address it is counted under (when known) and the
/// owner (a guest id, or a tournament's id for its computer boards).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Who {
    /// The address of the person the search serves (`None`: unknown, e.g. a game
    /// restored after a restart; the owner alone is then the turn's key).
    pub address: Option<IpAddr>,
    /// The guest (or tournament) the search serves.
    pub owner: String,
}

/// The key of one turn in a class's rotation.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Turn {
    Address(IpAddr),
    Owner(String),
}

impl Who {
    fn turn(&self) -> Turn {
        match self.address {
            Some(ip) => Turn::Address(ip),
            None => Turn::Owner(self.owner.clone()),
        }
    }
}

/// One class's waiting searches.
#[derive(Debug)]
struct Rotation<T> {
    /// Addresses (or lone owners) with something waiting, in turn order.
    turns: VecDeque<Turn>,
    /// Per turn: its owners in turn order, each with its searches, oldest first.
    owners: HashMap<Turn, Owners<T>>,
}

#[derive(Debug)]
struct Owners<T> {
    order: VecDeque<String>,
    waiting: HashMap<String, VecDeque<(Instant, T)>>,
}

impl<T> Default for Rotation<T> {
    fn default() -> Self {
        Rotation {
            turns: VecDeque::new(),
            owners: HashMap::new(),
        }
    }
}

impl<T> Rotation<T> {
    fn push(&mut self, who: &Who, since: Instant, item: T) {
        let turn = who.turn();
        let owners = self.owners.entry(turn.clone()).or_insert_with(|| {
            self.turns.push_back(turn);
            Owners {
                order: VecDeque::new(),
                waiting: HashMap::new(),
            }
        });
        owners
            .waiting
            .entry(who.owner.clone())
            .or_insert_with(|| {
                owners.order.push_back(who.owner.clone());
                VecDeque::new()
            })
            .push_back((since, item));
    }

    /// The next search in turn: the front turn's front owner's oldest search; both
    /// go to the back of their rotations.
    fn pop(&mut self) -> Option<(Instant, T)> {
        let turn = self.turns.pop_front()?;
        let owners = self.owners.get_mut(&turn)?;
        let owner = owners.order.pop_front()?;
        let queue = owners.waiting.get_mut(&owner)?;
        let item = queue.pop_front();
        if queue.is_empty() {
            owners.waiting.remove(&owner);
        } else {
            owners.order.push_back(owner);
        }
        if owners.order.is_empty() {
            self.owners.remove(&turn);
        } else {
            self.turns.push_back(turn);
        }
        item
    }

    /// When the oldest search of this class started waiting.
    fn oldest(&self) -> Option<Instant> {
        self.owners
            .values()
            .flat_map(|o| o.waiting.values())
            .filter_map(|q| q.front().map(|(t, _)| *t))
            .min()
    }

    /// Takes the oldest search of this class out of turn.
    fn pop_oldest(&mut self) -> Option<(Instant, T)> {
        let (turn, owner) = self
            .owners
            .iter()
            .flat_map(|(turn, o)| {
                o.waiting
                    .iter()
                    .filter_map(move |(owner, q)| Some((q.front()?.0, turn, owner)))
            })
            .min_by_key(|(t, _, _)| *t)
            .map(|(_, turn, owner)| (turn.clone(), owner.clone()))?;
        let owners = self.owners.get_mut(&turn)?;
        let queue = owners.waiting.get_mut(&owner)?;
        let item = queue.pop_front();
        if queue.is_empty() {
            owners.waiting.remove(&owner);
            owners.order.retain(|o| *o != owner);
        }
        if owners.order.is_empty() {
            self.owners.remove(&turn);
            self.turns.retain(|t| *t != turn);
        }
        item
    }

    fn len(&self) -> usize {
        self.owners
            .values()
            .flat_map(|o| o.waiting.values())
            .map(VecDeque::len)
            .sum()
    }
}

/// The waiting searches of every class.
#[derive(Debug)]
pub struct FairQueue<T> {
    classes: [Rotation<T>; 3],
}

impl<T> Default for FairQueue<T> {
    fn default() -> Self {
        FairQueue {
            classes: [
                Rotation::default(),
                Rotation::default(),
                Rotation::default(),
            ],
        }
    }
}

impl<T> FairQueue<T> {
    /// Queues a search of `class` for `who`, waiting since `since`.
    pub fn push(&mut self, class: Class, who: &Who, since: Instant, item: T) {
        self.classes[class.index()].push(who, since, item);
    }

    /// The next search to run as of `now`, with its class: one of a lower class that
    /// has waited longer than [`AGE`] first (an analysis only while no person's search
    /// waits), else the best class's next in turn.
    pub fn pop(&mut self, now: Instant) -> Option<(Class, T)> {
        let person_waits = self.classes[Class::Person.index()].len() > 0;
        let aged = Class::ALL
            .into_iter()
            .skip(1)
            .filter(|c| !(person_waits && *c == Class::Analysis))
            .filter_map(|c| Some((self.classes[c.index()].oldest()?, c)))
            .filter(|(since, _)| now.saturating_duration_since(*since) > AGE)
            .min_by_key(|(since, _)| *since);
        if let Some((_, class)) = aged {
            return self.classes[class.index()]
                .pop_oldest()
                .map(|(_, item)| (class, item));
        }
        Class::ALL
            .into_iter()
            .find_map(|c| self.classes[c.index()].pop().map(|(_, item)| (c, item)))
    }

    /// Searches waiting in `class` or a better one.
    pub fn waiting_at_least(&self, class: Class) -> usize {
        Class::ALL
            .into_iter()
            .filter(|c| *c <= class)
            .map(|c| self.classes[c.index()].len())
            .sum()
    }

    /// The best class with a search waiting.
    pub fn best_waiting(&self) -> Option<Class> {
        Class::ALL
            .into_iter()
            .find(|c| self.classes[c.index()].len() > 0)
    }

    /// Whether a search of `class` for `who` is waiting.
    pub fn has_other_than(&self, class: Class, who: &Who) -> bool {
        let rotation = &self.classes[class.index()];
        rotation.owners.iter().any(|(turn, owners)| {
            *turn != who.turn() || owners.waiting.keys().any(|o| *o != who.owner)
        })
    }

    /// Whether nothing waits.
    pub fn is_empty(&self) -> bool {
        self.best_waiting().is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn who(ip: u8, owner: &str) -> Who {
        Who {
            address: Some(IpAddr::from([10, 0, 0, ip])),
            owner: owner.into(),
        }
    }

    #[test]
    fn addresses_take_turns_then_owners_then_first_come() {
        let mut q = FairQueue::default();
        let t = Instant::now();
        // One address with three tables of two guests, then a lone player.
        q.push(Class::Person, &who(1, "a"), t, "a1");
        q.push(Class::Person, &who(1, "a"), t, "a2");
        q.push(Class::Person, &who(1, "b"), t, "b1");
        q.push(Class::Person, &who(2, "c"), t, "c1");
        let order: Vec<&str> = std::iter::from_fn(|| q.pop(t).map(|(_, x)| x)).collect();
        assert_eq!(order, ["a1", "c1", "b1", "a2"]);
        assert!(q.is_empty());
    }

    #[test]
    fn people_before_fill_ins_before_analysis_unless_aged() {
        let mut q = FairQueue::default();
        let t = Instant::now();
        q.push(Class::Analysis, &who(1, "x"), t, "analysis");
        q.push(Class::FillIn, &who(1, "x"), t, "fill-in");
        q.push(Class::Person, &who(2, "p"), t, "person");
        assert_eq!(q.waiting_at_least(Class::Person), 1);
        assert_eq!(q.waiting_at_least(Class::Analysis), 3);
        assert_eq!(q.pop(t), Some((Class::Person, "person")));
        q.push(Class::Person, &who(2, "p"), t, "person2");
        // The fill-in has waited too long: it goes before the person's next search.
        let later = t + AGE + Duration::from_millis(1);
        assert_eq!(q.pop(later), Some((Class::FillIn, "fill-in")));
        // The analysis has waited as long, but a person's game waits: the person first.
        assert_eq!(q.pop(later), Some((Class::Person, "person2")));
        assert_eq!(q.pop(later), Some((Class::Analysis, "analysis")));
        assert_eq!(q.pop(later), None);
    }

    #[test]
    fn analysis_never_overtakes_a_persons_game_however_long_it_waited() {
        let mut q = FairQueue::default();
        let t = Instant::now();
        for i in 0..50 {
            q.push(Class::Analysis, &who(1 + i % 40, "flood"), t, "analysis");
        }
        let much_later = t + AGE * 100;
        q.push(Class::Person, &who(200, "p"), much_later, "person");
        assert_eq!(q.pop(much_later), Some((Class::Person, "person")));
        // With no person waiting, an aged analysis goes before a fresh fill-in.
        q.push(Class::FillIn, &who(201, "tour"), much_later, "fill-in");
        assert_eq!(q.pop(much_later), Some((Class::Analysis, "analysis")));
    }

    #[test]
    fn unknown_addresses_are_their_owners() {
        let mut q = FairQueue::default();
        let t = Instant::now();
        let restored = |o: &str| Who {
            address: None,
            owner: o.into(),
        };
        q.push(Class::Person, &restored("a"), t, 1);
        q.push(Class::Person, &restored("a"), t, 2);
        q.push(Class::Person, &restored("b"), t, 3);
        assert!(q.has_other_than(Class::Person, &restored("a")));
        assert_eq!(q.pop(t), Some((Class::Person, 1)));
        assert_eq!(q.pop(t), Some((Class::Person, 3)));
        assert!(!q.has_other_than(Class::Person, &restored("a")));
        assert_eq!(q.pop(t), Some((Class::Person, 2)));
    }
}
