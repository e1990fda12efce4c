//! Who is in a room: everyone with a room socket open (with a session) and everyone at
//! one of its tables, with where they are and the name shown for them there.
//!
//! Sources report their whole part (a guest's room sockets, a table's people) and the
//! room works out the change as `people_joined` / `people_left` / `people_updated`
//! events: each is a whole, serialisable fact about one person (no pointers into this
//! process), so the same events could travel between nodes.

use std::collections::{BTreeMap, HashMap};

use damka_protocol::room::RoomServerMessage;
use damka_protocol::{Person, Player, Whereabouts};

use crate::names;

/// The people of one room.
#[derive(Default)]
pub struct People {
    /// Guests with room sockets open: the guest and how many sockets.
    sockets: HashMap<String, (Player, u32)>,
    /// Each table's people: guest id → (guest, playing or at the table).
    tables: BTreeMap<String, BTreeMap<String, (Player, Whereabouts)>>,
    /// The people as last announced, by id.
    shown: BTreeMap<String, Person>,
}

impl People {
    /// A guest's room socket opened (`joined`) or closed; returns the events.
    pub fn socket(&mut self, guest: &Player, joined: bool) -> Vec<RoomServerMessage> {
        if joined {
            self.sockets
                .entry(guest.id.clone())
                .or_insert_with(|| (guest.clone(), 0))
                .1 += 1;
        } else if let Some(entry) = self.sockets.get_mut(&guest.id) {
            entry.1 = entry.1.saturating_sub(1);
            if entry.1 == 0 {
                self.sockets.remove(&guest.id);
            }
        }
        self.diff()
    }

    /// A table's people are now `people` (empty when it closed); returns the events.
    pub fn table(
        &mut self,
        table: &str,
        people: Vec<(Player, Whereabouts)>,
    ) -> Vec<RoomServerMessage> {
        if people.is_empty() {
            self.tables.remove(table);
        } else {
            let map = people
                .into_iter()
                .map(|(p, w)| (p.id.clone(), (p, w)))
                .collect();
            self.tables.insert(table.to_owned(), map);
        }
        self.diff()
    }

    /// Everyone, by id.
    pub fn list(&self) -> Vec<Person> {
        self.shown.values().cloned().collect()
    }

    /// How many people.
    pub fn count(&self) -> usize {
        self.shown.len()
    }

    /// `guest` with the name shown for them in this room (disambiguated against
    /// everyone here, even if they are not in the room yet).
    pub fn shown_player(&self, guest: &Player) -> Player {
        if guest.is_bot() {
            return guest.clone();
        }
        if let Some(p) = self.shown.get(&guest.id) {
            return Player {
                name: p.name.clone(),
                ..guest.clone()
            };
        }
        let names = self.names();
        let shown = names::disambiguate(
            names
                .iter()
                .map(|(id, n)| (id.as_str(), n.as_str()))
                .chain([(guest.id.as_str(), guest.name.as_str())]),
        );
        Player {
            name: shown
                .get(&guest.id)
                .cloned()
                .unwrap_or_else(|| guest.name.clone()),
            ..guest.clone()
        }
    }

    /// Every person's own name, by id.
    fn names(&self) -> BTreeMap<String, String> {
        let mut names = BTreeMap::new();
        for (id, (p, _)) in &self.sockets {
            names.insert(id.clone(), p.name.clone());
        }
        for people in self.tables.values() {
            for (id, (p, _)) in people {
                names.insert(id.clone(), p.name.clone());
            }
        }
        names
    }

    /// Everyone as they are now.
    fn current(&self) -> BTreeMap<String, Person> {
        let names = self.names();
        let shown = names::disambiguate(names.iter().map(|(i, n)| (i.as_str(), n.as_str())));
        let mut people: BTreeMap<String, Person> = BTreeMap::new();
        for id in names.keys() {
            let mut best: Option<(Whereabouts, &str)> = None;
            // Tables in id order: a stable choice when someone is at several.
            for (table, at) in &self.tables {
                if let Some((_, w)) = at.get(id) {
                    let better = match best {
                        None => true,
                        Some((b, _)) => *w == Whereabouts::Playing && b != Whereabouts::Playing,
                    };
                    if better {
                        best = Some((*w, table.as_str()));
                    }
                }
            }
            let (whereabouts, table) = match best {
                Some((w, t)) => (w, Some(t.to_owned())),
                None => (Whereabouts::Room, None),
            };
            people.insert(
                id.clone(),
                Person {
                    id: id.clone(),
                    name: shown.get(id).cloned().unwrap_or_default(),
                    whereabouts,
                    table,
                },
            );
        }
        people
    }

    /// The events from the last announced people to the current ones (and remembers
    /// the current ones).
    fn diff(&mut self) -> Vec<RoomServerMessage> {
        let now = self.current();
        let mut events = Vec::new();
        for id in self.shown.keys() {
            if !now.contains_key(id) {
                events.push(RoomServerMessage::PeopleLeft { id: id.clone() });
            }
        }
        for (id, person) in &now {
            match self.shown.get(id) {
                None => events.push(RoomServerMessage::PeopleJoined {
                    person: person.clone(),
                }),
                Some(old) if old != person => events.push(RoomServerMessage::PeopleUpdated {
                    person: person.clone(),
                }),
                Some(_) => {}
            }
        }
        self.shown = now;
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn people_move_between_room_table_and_game() {
        let mut p = People::default();
        let ala = Player::guest("a1", "Ala");
        let e = p.socket(&ala, true);
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleJoined { person }] if person.whereabouts == Whereabouts::Room)
        );
        let e = p.table("t1", vec![(ala.clone(), Whereabouts::Table)]);
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleUpdated { person }] if person.table.as_deref() == Some("t1"))
        );
        let e = p.table("t1", vec![(ala.clone(), Whereabouts::Playing)]);
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleUpdated { person }] if person.whereabouts == Whereabouts::Playing)
        );
        // A second socket, then both closed: still at the table.
        p.socket(&ala, true);
        assert!(p.socket(&ala, false).is_empty());
        assert!(p.socket(&ala, false).is_empty());
        assert_eq!(p.count(), 1);
        let e = p.table("t1", vec![]);
        assert!(matches!(&e[..], [RoomServerMessage::PeopleLeft { id }] if id == "a1"));
        assert_eq!(p.count(), 0);
    }

    #[test]
    fn a_look_alike_arriving_tags_both() {
        let mut p = People::default();
        p.socket(&Player::guest("3fa91c", "Bolek"), true);
        let e = p.socket(&Player::guest("77b210", "B\u{043E}lek"), true);
        assert_eq!(e.len(), 2, "{e:?}");
        let names: Vec<String> = p.list().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["Bolek #3fa", "B\u{043E}lek #77b"]);
    }
}
