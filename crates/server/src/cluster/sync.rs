//! The rooms' shared state over NATS.
//!
//! Every node publishes the facts of its rooms ([`Fact`]: tables it owns, its room
//! sockets' people, chat posted through it, its tournaments) on `{prefix}.room`, and a
//! heartbeat every [`HEARTBEAT`]. Every node applies the others' facts to its own copy of
//! each room, remembering which node each part came from. So:
//!
//! - a node that hears a node it does not know (it started, came back, or this node did)
//!   asks it for its part ([`Wire::Want`]); the answer ([`Wire::Parts`], in pages)
//!   replaces whatever it had from that node: every node rebuilds from the owners;
//! - a node that says goodbye or falls silent for [`PEER_SILENCE`] loses its part (its
//!   tables leave the lists until their new owner announces them; its sockets' people
//!   leave the rooms);
//! - a table's facts count only from the node that owns it as far as this node knows
//!   (the last one to announce it), so a late word from an old owner cannot remove a
//!   table its new owner already announced.
//!
//! All of it travels on one subject from one publishing task per node: NATS keeps the
//! order of one publisher's messages, so a node's facts arrive in the order it made them.
//! Moves (the list's ply and side to move, which room sockets are not told live) are
//! batched every [`MOVES_EVERY`].

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use damka_protocol::{Player, Side};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc;

use super::{Cluster, HEARTBEAT, PEER_SILENCE, lock};
use crate::room::Rooms;
use crate::room::fact::{Fact, RoomSync};

/// How often batched moves go out.
pub const MOVES_EVERY: Duration = Duration::from_millis(250);

/// Facts per [`Wire::Parts`] page (well under NATS's 1 MiB message limit).
const PART_PAGE: usize = 200;

/// A message on `{prefix}.room`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "w", rename_all = "snake_case")]
pub enum Wire {
    /// The node is alive.
    Hb {
        /// The node.
        node: String,
    },
    /// The node is stopping: forget its part.
    Bye {
        /// The node.
        node: String,
    },
    /// `node` asks `to` for its part.
    Want {
        /// The asking node.
        node: String,
        /// The node asked.
        to: String,
    },
    /// A page of `node`'s part, for `to`.
    Parts {
        /// The node whose part this is.
        node: String,
        /// The node that asked.
        to: String,
        /// The first page: forget what came from `node` before.
        first: bool,
        /// Facts, by room.
        facts: Vec<(String, Fact)>,
    },
    /// A fact of `node`'s, in `room`.
    Fact {
        /// The node.
        node: String,
        /// The room.
        room: String,
        /// The fact.
        fact: Box<Fact>,
    },
}

/// What one node contributed to the rooms.
#[derive(Default, Debug)]
struct Part {
    /// Tables it owns, as `(room, table)`.
    tables: HashSet<(String, String)>,
    /// Its room sockets, by `(room, guest)`: the guest and how many sockets.
    sockets: HashMap<(String, String), (Player, u32)>,
    /// Tournaments it runs, as `(room, tournament)`.
    tournaments: HashSet<(String, String)>,
}

impl Part {
    /// Records a fact of this part's node.
    fn record(&mut self, room: &str, fact: &Fact) {
        match fact {
            Fact::Table { view } => {
                self.tables.insert((room.to_owned(), view.id.clone()));
            }
            Fact::TableGone { id } => {
                self.tables.remove(&(room.to_owned(), id.clone()));
            }
            Fact::Socket { guest, joined } => {
                let key = (room.to_owned(), guest.id.clone());
                let entry = self
                    .sockets
                    .entry(key.clone())
                    .or_insert_with(|| (guest.clone(), 0));
                entry.0 = guest.clone();
                if *joined {
                    entry.1 += 1;
                } else {
                    entry.1 = entry.1.saturating_sub(1);
                    if entry.1 == 0 {
                        self.sockets.remove(&key);
                    }
                }
            }
            Fact::Tournament { summary } => {
                self.tournaments
                    .insert((room.to_owned(), summary.id.clone()));
            }
            Fact::Moved { .. }
            | Fact::TablePeople { .. }
            | Fact::Chat { .. }
            | Fact::Event { .. } => {}
        }
    }
}

/// Everything the syncer keeps, under one lock.
#[derive(Default)]
struct Book {
    /// Each table's owner as far as this node knows.
    owners: HashMap<String, String>,
    /// This node's part.
    local: Part,
    /// The other nodes' parts.
    remote: HashMap<String, Part>,
    /// Moves not sent yet: `(room, table)` → ply and side to move.
    moved: HashMap<(String, String), (u32, Side)>,
}

/// A node's side of the room sync: the [`RoomSync`] the rooms hand their facts to, and
/// the book of who contributed what.
///
/// Lock order: the book, then a room's locks (applying a fact, building a part). A room
/// hands a fact over before it takes its own locks, except an addressed event
/// (an invitation is published under the room's people lock), which never takes the
/// book's lock.
pub struct RoomSyncer {
    /// This node.
    me: String,
    /// The book.
    book: Mutex<Book>,
    /// To the publishing task.
    tx: mpsc::UnboundedSender<Wire>,
    /// The publishing task's end, until it starts.
    rx: Mutex<Option<mpsc::UnboundedReceiver<Wire>>>,
}

impl RoomSyncer {
    /// A syncer for node `me`.
    pub fn new(me: String) -> RoomSyncer {
        let (tx, rx) = mpsc::unbounded_channel();
        RoomSyncer {
            me,
            book: Mutex::new(Book::default()),
            tx,
            rx: Mutex::new(Some(rx)),
        }
    }

    /// Queues a message for the publishing task.
    fn send(&self, wire: Wire) {
        // The task ends only when the node stops: nothing is lost that matters then.
        let _ = self.tx.send(wire);
    }

    /// Applies a fact from `node` to room `room` (if the room exists here), unless it is
    /// about a table `node` does not own.
    fn apply(&self, rooms: &Rooms, node: &str, room: &str, fact: Fact) {
        let Some(r) = rooms.get(room) else {
            return;
        };
        let mut book = lock(&self.book);
        let fact = match fact {
            Fact::Table { view } => {
                book.owners.insert(view.id.clone(), node.to_owned());
                Fact::Table { view }
            }
            Fact::TableGone { id } => {
                if book.owners.get(&id).map(String::as_str) != Some(node) {
                    return;
                }
                book.owners.remove(&id);
                Fact::TableGone { id }
            }
            Fact::TablePeople { table, people } => {
                if book.owners.get(&table).map(String::as_str) != Some(node) {
                    return;
                }
                Fact::TablePeople { table, people }
            }
            Fact::Moved { moves } => Fact::Moved {
                moves: moves
                    .into_iter()
                    .filter(|(id, _, _)| book.owners.get(id).map(String::as_str) == Some(node))
                    .collect(),
            },
            other => other,
        };
        book.remote
            .entry(node.to_owned())
            .or_default()
            .record(room, &fact);
        // Applied under the book's lock, so a table's owner check and its change are one
        // step; the room never calls back into the syncer from `apply`.
        r.apply(fact);
    }

    /// Forgets everything `node` contributed: its tables leave the lists (their new
    /// owner announces them again), its sockets' people leave the rooms.
    fn forget(&self, rooms: &Rooms, node: &str) {
        let mut book = lock(&self.book);
        let Some(part) = book.remote.remove(node) else {
            return;
        };
        for (room, table) in part.tables {
            if book.owners.get(&table).map(String::as_str) != Some(node) {
                continue;
            }
            book.owners.remove(&table);
            if let Some(r) = rooms.get(&room) {
                r.apply(Fact::TableGone { id: table });
            }
        }
        for ((room, _), (guest, n)) in part.sockets {
            if let Some(r) = rooms.get(&room) {
                for _ in 0..n {
                    r.apply(Fact::Socket {
                        guest: guest.clone(),
                        joined: false,
                    });
                }
            }
        }
    }

    /// This node's part as facts, from the rooms' current copies.
    #[cfg(test)]
    fn parts(&self, rooms: &Rooms) -> Vec<(String, Fact)> {
        Self::parts_of(&lock(&self.book), rooms)
    }

    fn parts_of(book: &Book, rooms: &Rooms) -> Vec<(String, Fact)> {
        let mut facts = Vec::new();
        for (room, table) in &book.local.tables {
            let Some(r) = rooms.get(room) else {
                continue;
            };
            if let Some(view) = r.table(table) {
                facts.push((room.clone(), Fact::Table { view }));
                facts.push((
                    room.clone(),
                    Fact::TablePeople {
                        table: table.clone(),
                        people: r.people_at(table),
                    },
                ));
            }
        }
        for ((room, _), (guest, n)) in &book.local.sockets {
            for _ in 0..*n {
                facts.push((
                    room.clone(),
                    Fact::Socket {
                        guest: guest.clone(),
                        joined: true,
                    },
                ));
            }
        }
        for (room, id) in &book.local.tournaments {
            if let Some(summary) = rooms
                .get(room)
                .and_then(|r| r.tournaments().into_iter().find(|t| &t.id == id))
            {
                facts.push((room.clone(), Fact::Tournament { summary }));
            }
        }
        facts
    }

    /// Sends this node's part to `to`, in pages. All pages are queued under the book's
    /// lock: behind every fact they reflect, and before any fact made after them (a fact
    /// between two pages could be undone by the next page).
    fn send_parts(&self, rooms: &Rooms, to: &str) {
        let book = lock(&self.book);
        let facts = Self::parts_of(&book, rooms);
        let mut pages: Vec<Vec<(String, Fact)>> = facts
            .chunks(PART_PAGE)
            .map(<[(String, Fact)]>::to_vec)
            .collect();
        if pages.is_empty() {
            pages.push(Vec::new());
        }
        for (i, facts) in pages.into_iter().enumerate() {
            self.send(Wire::Parts {
                node: self.me.clone(),
                to: to.to_owned(),
                first: i == 0,
                facts,
            });
        }
        drop(book);
    }

    /// The moves batched since the last call, as one fact per room.
    fn take_moves(&self) -> Vec<Wire> {
        let moved = std::mem::take(&mut lock(&self.book).moved);
        let mut by_room: HashMap<String, Vec<(String, u32, Side)>> = HashMap::new();
        for ((room, table), (ply, turn)) in moved {
            by_room.entry(room).or_default().push((table, ply, turn));
        }
        by_room
            .into_iter()
            .map(|(room, moves)| Wire::Fact {
                node: self.me.clone(),
                room,
                fact: Box::new(Fact::Moved { moves }),
            })
            .collect()
    }

    /// Whether this node owns `table` as far as the rooms know.
    pub fn owner_of(&self, table: &str) -> Option<String> {
        lock(&self.book).owners.get(table).cloned()
    }
}

impl RoomSync for RoomSyncer {
    fn local(&self, room: &str, fact: Fact) {
        if let Fact::Event { .. } = fact {
            // Not part of any node's part, so not ordered against one; and sent without
            // the book's lock: the room may hold its people lock here (an invitation),
            // and the book's lock is taken before room locks elsewhere.
            self.send(Wire::Fact {
                node: self.me.clone(),
                room: room.to_owned(),
                fact: Box::new(fact),
            });
            return;
        }
        let mut book = lock(&self.book);
        match &fact {
            Fact::Moved { moves } => {
                for (id, ply, turn) in moves {
                    book.moved
                        .insert((room.to_owned(), id.clone()), (*ply, *turn));
                }
                return;
            }
            Fact::Table { view } => {
                book.owners.insert(view.id.clone(), self.me.clone());
            }
            Fact::TableGone { id } if book.owners.get(id) == Some(&self.me) => {
                book.owners.remove(id);
            }
            _ => {}
        }
        book.local.record(room, &fact);
        // Queued under the lock: a part built after this sees the fact, and the fact is
        // queued before that part.
        self.send(Wire::Fact {
            node: self.me.clone(),
            room: room.to_owned(),
            fact: Box::new(fact),
        });
    }
}

/// Publishes the queued messages, the heartbeat and the batched moves, in order, until
/// the cluster stops; says goodbye last.
pub async fn publisher(cluster: std::sync::Arc<Cluster>) {
    let Some(mut rx) = lock(&cluster.sync.rx).take() else {
        tracing::error!("room sync publisher started twice");
        return;
    };
    let subject = cluster.subject("room");
    let mut beat = tokio::time::interval(HEARTBEAT);
    let mut moves = tokio::time::interval(MOVES_EVERY);
    let me = cluster.id().to_owned();
    loop {
        let wires = tokio::select! {
            () = cluster.stop.cancelled() => break,
            wire = rx.recv() => match wire {
                Some(w) => vec![w],
                None => break,
            },
            _ = beat.tick() => vec![Wire::Hb { node: me.clone() }],
            _ = moves.tick() => cluster.sync.take_moves(),
        };
        for wire in wires {
            publish(&cluster, &subject, &wire).await;
        }
    }
    // What is still queued (the last facts of the tables that closed), then goodbye.
    while let Ok(wire) = rx.try_recv() {
        publish(&cluster, &subject, &wire).await;
    }
    publish(&cluster, &subject, &Wire::Bye { node: me }).await;
    if let Err(e) = cluster.nats.flush().await {
        tracing::warn!(error = %e, "cannot flush NATS at the stop");
    }
}

async fn publish(cluster: &Cluster, subject: &str, wire: &Wire) {
    match serde_json::to_vec(wire) {
        Ok(bytes) => {
            if let Err(e) = cluster.nats.publish(subject.to_owned(), bytes.into()).await {
                tracing::warn!(error = %e, "cannot publish a room fact");
            }
        }
        Err(e) => tracing::error!(error = %e, "cannot serialise a room fact"),
    }
}

/// Applies the other nodes' messages until the cluster stops; forgets silent peers.
pub async fn subscriber(rooms: &crate::room::Rooms, cluster: std::sync::Arc<Cluster>) {
    use futures_util::StreamExt;
    let mut sub = match cluster.nats.subscribe(cluster.subject("room")).await {
        Ok(sub) => sub,
        Err(e) => {
            tracing::error!(error = %e, "cannot subscribe to the room facts");
            return;
        }
    };
    let syncer = cluster.sync.clone();
    let me = cluster.id().to_owned();
    let mut check = tokio::time::interval(HEARTBEAT);
    // Nodes whose part was asked for (and not forgotten since).
    let mut asked: HashSet<String> = HashSet::new();
    loop {
        tokio::select! {
            () = cluster.stop.cancelled() => break,
            _ = check.tick() => {
                for node in cluster.silent_peers() {
                    tracing::warn!(%node, silence = ?PEER_SILENCE, "a node fell silent: forgetting its part");
                    asked.remove(&node);
                    syncer.forget(rooms, &node);
                }
            }
            msg = sub.next() => {
                let Some(msg) = msg else { break };
                let wire: Wire = match serde_json::from_slice(&msg.payload) {
                    Ok(w) => w,
                    Err(e) => {
                        tracing::warn!(error = %e, "bad room sync message");
                        continue;
                    }
                };
                match wire {
                    Wire::Hb { ref node } | Wire::Fact { ref node, .. } if *node == me => {}
                    Wire::Hb { node } => {
                        cluster.heard(&node);
                        if asked.insert(node.clone()) {
                            tracing::info!(%node, "a node joined: asking for its part");
                            syncer.send(Wire::Want { node: me.clone(), to: node });
                        }
                    }
                    Wire::Fact { node, room, fact } => {
                        cluster.heard(&node);
                        if asked.insert(node.clone()) {
                            syncer.send(Wire::Want { node: me.clone(), to: node.clone() });
                        }
                        syncer.apply(rooms, &node, &room, *fact);
                    }
                    Wire::Want { node, to } if to == me => {
                        cluster.heard(&node);
                        syncer.send_parts(rooms, &node);
                    }
                    Wire::Parts { node, to, first, facts } if to == me => {
                        cluster.heard(&node);
                        if first {
                            syncer.forget(rooms, &node);
                        }
                        for (room, fact) in facts {
                            syncer.apply(rooms, &node, &room, fact);
                        }
                    }
                    Wire::Bye { node } if node != me => {
                        tracing::info!(%node, "a node left");
                        cluster.forget(&node);
                        asked.remove(&node);
                        syncer.forget(rooms, &node);
                    }
                    Wire::Want { .. } | Wire::Parts { .. } | Wire::Bye { .. } => {}
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::room::default_rooms;
    use damka_protocol::{Options, Ready, Seats, TableView, Whereabouts};

    fn table(id: &str, white: &str) -> TableView {
        TableView {
            id: id.to_owned(),
            room: "russian".to_owned(),
            variant: "russian".to_owned(),
            options: Options {
                minutes: 5,
                increment: 0,
                days: None,
                random_opening: false,
                capture_optional: false,
                bot: None,
                local: false,
                ..Options::default()
            },
            seats: Seats {
                white: Some(Player::guest(white, white)),
                black: None,
            },
            ready: Ready {
                white: false,
                black: false,
            },
            spectators: 0,
            game: None,
            tournament: None,
        }
    }

    fn ids(rooms: &Rooms) -> Vec<String> {
        let r = rooms.get("russian").expect("room");
        r.tables().into_iter().map(|t| t.id).collect()
    }

    /// A table taken over by node B stays listed when the late word of its old owner A
    /// (its table gone, A's part forgotten) arrives after B announced it.
    #[test]
    fn only_a_tables_owner_can_remove_it() {
        let rooms = Rooms::new(default_rooms());
        let me = RoomSyncer::new("c".into());
        let fact = |id: &str, w: &str| Fact::Table { view: table(id, w) };
        me.apply(&rooms, "a", "russian", fact("t1", "g1"));
        me.apply(&rooms, "a", "russian", fact("t2", "g2"));
        me.apply(
            &rooms,
            "a",
            "russian",
            Fact::TablePeople {
                table: "t1".into(),
                people: vec![(Player::guest("g1", "g1"), Whereabouts::Table)],
            },
        );
        assert_eq!(ids(&rooms), ["t1", "t2"]);
        // B takes t1 over and announces it; then A's late facts come.
        me.apply(&rooms, "b", "russian", fact("t1", "g1"));
        me.apply(&rooms, "a", "russian", Fact::TableGone { id: "t1".into() });
        me.apply(
            &rooms,
            "a",
            "russian",
            Fact::TablePeople {
                table: "t1".into(),
                people: vec![],
            },
        );
        assert_eq!(ids(&rooms), ["t1", "t2"]);
        let room = rooms.get("russian").expect("room");
        assert_eq!(room.people_at("t1").len(), 1, "A's late word ignored");
        // A falls silent: its part goes (t2), B's stays (t1).
        me.forget(&rooms, "a");
        assert_eq!(ids(&rooms), ["t1"]);
        // B's own removal counts.
        me.apply(&rooms, "b", "russian", Fact::TableGone { id: "t1".into() });
        assert!(ids(&rooms).is_empty());
    }

    /// A node's room sockets count for the people in the room until it is forgotten;
    /// its part, sent to a node that asks, holds what it contributed.
    #[test]
    fn a_forgotten_nodes_people_leave_and_parts_are_whole() {
        let rooms = Rooms::new(default_rooms());
        let me = RoomSyncer::new("c".into());
        let ala = Player::guest("g1", "Ala");
        let socket = |joined| Fact::Socket {
            guest: ala.clone(),
            joined,
        };
        me.apply(&rooms, "a", "russian", socket(true));
        me.apply(&rooms, "a", "russian", socket(true));
        me.apply(&rooms, "a", "russian", socket(false));
        let room = rooms.get("russian").expect("room");
        assert_eq!(room.players(), 1);
        me.forget(&rooms, "a");
        assert_eq!(room.players(), 0, "the silent node's sockets are gone");

        // This node's own facts make its part.
        room.set_sync(std::sync::Arc::new(RoomSyncer::new("x".into())));
        let local = RoomSyncer::new("c".into());
        local.local(
            "russian",
            Fact::Table {
                view: table("t9", "g9"),
            },
        );
        room.apply(Fact::Table {
            view: table("t9", "g9"),
        });
        local.local("russian", socket(true));
        room.apply(socket(true));
        let parts = local.parts(&rooms);
        assert!(
            parts
                .iter()
                .any(|(_, f)| matches!(f, Fact::Table { view } if view.id == "t9"))
        );
        assert!(
            parts
                .iter()
                .any(|(_, f)| matches!(f, Fact::Socket { joined: true, .. }))
        );
        assert_eq!(local.owner_of("t9").as_deref(), Some("c"));
    }
}
