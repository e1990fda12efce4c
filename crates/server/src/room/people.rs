//! Who is in a room: everyone with a room socket open (with a session) and everyone at
//! one of its tables, with where they are and the name shown for them there.
//!
//! Sources report their whole part (a guest's room sockets, a table's people) and the
//! room works out who changed; [`People::flush`] then turns the people changed since the
//! last flush into `people_joined` / `people_left` / `people_updated` events, one per
//! person however often they changed in between: each is a whole, serialisable fact
//! about one person (no pointers into this process), so the same events could travel
//! between nodes.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use damka_protocol::room::RoomServerMessage;
use damka_protocol::{Person, Player, Whereabouts};

use crate::names;

/// One person's parts.
struct Entry {
    /// The guest (own name).
    player: Player,
    /// The folded name (the look-alike group).
    fold: String,
    /// Room sockets open.
    sockets: u32,
    /// Tables they have a socket at, and what they do there.
    tables: BTreeMap<String, Whereabouts>,
}

/// The people of one room. A change touches only the person it is about and the people
/// whose names look like theirs, so it costs the same in a crowded room.
#[derive(Default)]
pub struct People {
    /// Everyone, by id.
    entries: HashMap<String, Entry>,
    /// Ids by folded name.
    groups: HashMap<String, BTreeSet<String>>,
    /// Each table's people.
    tables: HashMap<String, BTreeSet<String>>,
    /// The people as they are now, by id.
    shown: BTreeMap<String, Person>,
    /// The people as last announced, by id.
    announced: BTreeMap<String, Person>,
    /// People changed since the last flush.
    dirty: BTreeSet<String>,
    /// People to recompute at the next settle (look-alikes of someone renamed).
    pending: BTreeSet<String>,
}

impl People {
    /// A guest's room socket opened (`joined`) or closed; returns whether anyone changed.
    pub fn socket(&mut self, guest: &Player, joined: bool) -> bool {
        let entry = self.entry(guest);
        if joined {
            entry.sockets += 1;
        } else {
            entry.sockets = entry.sockets.saturating_sub(1);
        }
        self.settle([guest.id.clone()].into())
    }

    /// A table's people are now `people` (empty when it closed); returns whether anyone
    /// changed.
    pub fn table(&mut self, table: &str, people: Vec<(Player, Whereabouts)>) -> bool {
        let mut touched: BTreeSet<String> = self.tables.remove(table).unwrap_or_default();
        for id in &touched {
            if let Some(e) = self.entries.get_mut(id) {
                e.tables.remove(table);
            }
        }
        let mut now = BTreeSet::new();
        for (p, w) in people {
            self.entry(&p).tables.insert(table.to_owned(), w);
            now.insert(p.id.clone());
            touched.insert(p.id);
        }
        if !now.is_empty() {
            self.tables.insert(table.to_owned(), now);
        }
        self.settle(touched)
    }

    /// The people at `table` (own names) and what they do there.
    pub fn at_table(&self, table: &str) -> Vec<(Player, Whereabouts)> {
        self.tables
            .get(table)
            .into_iter()
            .flatten()
            .filter_map(|id| self.entries.get(id))
            .filter_map(|e| Some((e.player.clone(), *e.tables.get(table)?)))
            .collect()
    }

    /// Everyone, by id.
    pub fn list(&self) -> Vec<Person> {
        self.shown.values().cloned().collect()
    }

    /// Whether `id` is one of the people.
    pub fn contains(&self, id: &str) -> bool {
        self.entries.contains_key(id)
    }

    /// How many people.
    pub fn count(&self) -> usize {
        self.shown.len()
    }

    /// The person `id` as shown, if they have a room socket open (so room events
    /// addressed to them reach them).
    pub fn on_room_page(&self, id: &str) -> Option<Person> {
        self.entries
            .get(id)
            .filter(|e| e.sockets > 0)
            .and_then(|_| self.shown.get(id))
            .cloned()
    }

    /// `guest` with the name shown for them in this room (disambiguated against
    /// everyone here, even if they are not in the room yet).
    pub fn shown_player(&self, guest: &Player) -> Player {
        if guest.is_bot() {
            return guest.clone();
        }
        let fold = names::fold(&guest.name);
        let group: Vec<(&str, &str)> = self
            .groups
            .get(&fold)
            .into_iter()
            .flatten()
            .filter(|id| **id != guest.id)
            .filter_map(|id| self.entries.get(id))
            .map(|e| (e.player.id.as_str(), e.player.name.as_str()))
            .chain([(guest.id.as_str(), guest.name.as_str())])
            .collect();
        let shown = names::disambiguate(group);
        Player {
            name: shown
                .get(&guest.id)
                .cloned()
                .unwrap_or_else(|| guest.name.clone()),
            ..guest.clone()
        }
    }

    /// The guest's entry (created, or its name updated).
    fn entry(&mut self, guest: &Player) -> &mut Entry {
        let fold = names::fold(&guest.name);
        let id = guest.id.clone();
        let entry = self.entries.entry(id.clone()).or_insert_with(|| Entry {
            player: guest.clone(),
            fold: fold.clone(),
            sockets: 0,
            tables: BTreeMap::new(),
        });
        entry.player = guest.clone();
        if entry.fold != fold {
            if let Some(g) = self.groups.get_mut(&entry.fold) {
                g.remove(&id);
                self.pending.extend(g.iter().cloned());
                if g.is_empty() {
                    self.groups.remove(&entry.fold);
                }
            }
            entry.fold = fold.clone();
        }
        self.groups.entry(fold).or_default().insert(id);
        entry
    }

    /// The events for the people changed since the last flush: one per person, from
    /// how they were last announced to how they are now.
    pub fn flush(&mut self) -> Vec<RoomServerMessage> {
        let mut events = Vec::new();
        for id in std::mem::take(&mut self.dirty) {
            match (self.announced.get(&id), self.shown.get(&id)) {
                (Some(_), None) => {
                    self.announced.remove(&id);
                    events.push(RoomServerMessage::PeopleLeft { id });
                }
                (None, Some(now)) => {
                    let person = now.clone();
                    self.announced.insert(id, person.clone());
                    events.push(RoomServerMessage::PeopleJoined { person });
                }
                (Some(old), Some(now)) if old != now => {
                    let person = now.clone();
                    self.announced.insert(id, person.clone());
                    events.push(RoomServerMessage::PeopleUpdated { person });
                }
                _ => {}
            }
        }
        events
    }

    /// After a change to the `touched` people: drops whoever is nowhere any more,
    /// recomputes the touched people and their look-alikes, and marks who changed;
    /// returns whether anyone did.
    fn settle(&mut self, touched: BTreeSet<String>) -> bool {
        let mut affected = std::mem::take(&mut self.pending);
        for id in touched {
            let gone = self
                .entries
                .get(&id)
                .is_some_and(|e| e.sockets == 0 && e.tables.is_empty());
            if gone
                && let Some(e) = self.entries.remove(&id)
                && let Some(g) = self.groups.get_mut(&e.fold)
            {
                g.remove(&id);
                affected.extend(g.iter().cloned());
                if g.is_empty() {
                    self.groups.remove(&e.fold);
                }
            }
            // Everyone who shares a name with them may change (tags come and go).
            if let Some(g) = self.entries.get(&id).and_then(|e| self.groups.get(&e.fold)) {
                affected.extend(g.iter().cloned());
            }
            affected.insert(id);
        }
        let mut changed = false;
        for id in affected {
            match self.person(&id) {
                None => {
                    if self.shown.remove(&id).is_some() {
                        self.dirty.insert(id);
                        changed = true;
                    }
                }
                Some(person) => {
                    if self.shown.get(&id) != Some(&person) {
                        self.shown.insert(id.clone(), person);
                        self.dirty.insert(id);
                        changed = true;
                    }
                }
            }
        }
        changed
    }

    /// A person as they are now (`None` if not in the room).
    fn person(&self, id: &str) -> Option<Person> {
        let e = self.entries.get(id)?;
        let group: Vec<(&str, &str)> = self
            .groups
            .get(&e.fold)
            .into_iter()
            .flatten()
            .filter_map(|id| self.entries.get(id))
            .map(|e| (e.player.id.as_str(), e.player.name.as_str()))
            .collect();
        let name = names::disambiguate(group)
            .remove(id)
            .unwrap_or_else(|| e.player.name.clone());
        // `playing` beats `table`; among equals the first table by id.
        let at = e
            .tables
            .iter()
            .find(|(_, w)| **w == Whereabouts::Playing)
            .or_else(|| e.tables.iter().next());
        let (whereabouts, table) = match at {
            Some((t, w)) => (*w, Some(t.clone())),
            None => (Whereabouts::Room, None),
        };
        Some(Person {
            id: id.to_owned(),
            name,
            whereabouts,
            table,
            account: e.player.account,
            rating: e.player.rating,
            provisional: e.player.provisional,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_account_shows_with_its_rating_a_guest_without() {
        let mut p = People::default();
        let ala = Player {
            rating: Some(1662),
            provisional: true,
            ..Player::account("a1", "Ala_K")
        };
        p.socket(&ala, true);
        p.socket(&Player::guest("b1", "Bolek"), true);
        p.flush();
        let list = p.list();
        let ala = list.iter().find(|x| x.id == "a1").expect("Ala is listed");
        assert!(ala.account && ala.provisional);
        assert_eq!(ala.rating, Some(1662));
        let bolek = list.iter().find(|x| x.id == "b1").expect("Bolek is listed");
        let bolek = serde_json::to_value(bolek).expect("a person serialises");
        assert_eq!(
            bolek,
            serde_json::json!({"id": "b1", "name": "Bolek", "where": "room", "table": null}),
            "a guest's person is as before"
        );
    }

    #[test]
    fn people_move_between_room_table_and_game() {
        let mut p = People::default();
        let ala = Player::guest("a1", "Ala");
        p.socket(&ala, true);
        let e = p.flush();
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleJoined { person }] if person.whereabouts == Whereabouts::Room)
        );
        p.table("t1", vec![(ala.clone(), Whereabouts::Table)]);
        let e = p.flush();
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleUpdated { person }] if person.table.as_deref() == Some("t1"))
        );
        p.table("t1", vec![(ala.clone(), Whereabouts::Playing)]);
        let e = p.flush();
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleUpdated { person }] if person.whereabouts == Whereabouts::Playing)
        );
        // A second socket, then both closed: still at the table.
        p.socket(&ala, true);
        assert!(!p.socket(&ala, false));
        assert!(!p.socket(&ala, false));
        assert!(p.flush().is_empty());
        assert_eq!(p.count(), 1);
        p.table("t1", vec![]);
        let e = p.flush();
        assert!(matches!(&e[..], [RoomServerMessage::PeopleLeft { id }] if id == "a1"));
        assert_eq!(p.count(), 0);
    }

    #[test]
    fn changes_between_two_flushes_are_one_event_per_person() {
        let mut p = People::default();
        let ala = Player::guest("a1", "Ala");
        let ola = Player::guest("o1", "Ola");
        p.socket(&ala, true);
        p.flush();
        // Ala toggles a seat 100 times, Ola comes and goes: one event for Ala (where she
        // is now), none for Ola.
        for i in 0..100 {
            let w = if i % 2 == 0 {
                Whereabouts::Table
            } else {
                Whereabouts::Playing
            };
            p.table("t1", vec![(ala.clone(), w)]);
            p.socket(&ola, true);
            p.socket(&ola, false);
        }
        let e = p.flush();
        assert!(
            matches!(&e[..], [RoomServerMessage::PeopleUpdated { person }] if person.id == "a1" && person.whereabouts == Whereabouts::Playing),
            "{e:?}"
        );
        // Back to exactly as announced: nothing to say.
        p.table("t1", vec![(ala.clone(), Whereabouts::Table)]);
        p.table("t1", vec![(ala.clone(), Whereabouts::Playing)]);
        assert!(p.flush().is_empty());
    }

    #[test]
    fn a_look_alike_arriving_tags_both() {
        let mut p = People::default();
        p.socket(&Player::guest("3fa91c", "Bolek"), true);
        p.flush();
        p.socket(&Player::guest("77b210", "B\u{043E}lek"), true);
        let e = p.flush();
        assert_eq!(e.len(), 2, "{e:?}");
        let names: Vec<String> = p.list().into_iter().map(|p| p.name).collect();
        assert_eq!(names, ["Bolek #3fa", "B\u{043E}lek #77b"]);
    }

    /// Cost of one change in a crowded room (every change recomputes the room's people
    /// and names): `cargo test -p damka-server --lib people_scale -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement"]
    fn people_scale() {
        let mut p = People::default();
        let n = 1_000;
        let t = std::time::Instant::now();
        let mut ids = Vec::new();
        for i in 0..n {
            let id = crate::random::token_base36(32);
            let g = Player::guest(id.clone(), format!("Guest {}", i % 700));
            p.socket(&g, true);
            ids.push(id);
        }
        let joins = t.elapsed();
        let g = Player::guest(ids[5].clone(), "Guest 5");
        let t = std::time::Instant::now();
        for k in 0..100 {
            p.table(
                &format!("t{}", k % 10),
                vec![(g.clone(), Whereabouts::Table)],
            );
        }
        let moves = t.elapsed() / 100;
        println!("{n} people joined in {joins:?}; one change with {n} people: {moves:?}");
    }
}
