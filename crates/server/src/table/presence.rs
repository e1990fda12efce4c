//! Who is at the table, as the sockets and the room see it: which seated players are
//! connected and how many spectators watch, and who of them has a session ([`Presence`]: a player arriving or leaving
//! is announced at once, a changing spectator count is coalesced, so a crowd arriving
//! does not cost one broadcast per arrival), since when a player of the running game has
//! been away (claims), and the people reported to the room.

use std::time::Duration;

use damka_protocol::{Player, Whereabouts};
use draughts::{ByColor, Color};

use super::game::LiveGame;
use super::seating::Seating;
use super::subscribers::Subscribers;

/// Longest delay before a change in the number of spectators is announced.
pub(super) const PRESENCE_COALESCE: Duration = Duration::from_millis(500);

/// The most spectators named in `presence` (the count has them all).
pub(super) const MAX_WATCHERS: usize = 50;

/// Who is connected: each seat's player, and the spectators.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Counts {
    /// Each seated player is connected (or is the computer).
    pub connected: ByColor<bool>,
    /// Sockets of people who do not sit here.
    pub spectators: u32,
    /// The spectators with a session, each once, in the order they came (at most
    /// [`MAX_WATCHERS`]).
    pub watchers: Vec<Player>,
}

/// What the table last said about who is here, and since when players are away.
#[derive(Debug, Default)]
pub(super) struct Presence {
    /// As last announced.
    shown: Counts,
    /// When a change of the spectator count alone is due to be announced.
    due: Option<tokio::time::Instant>,
    /// Since when each player of the running game has been disconnected, server ms.
    gone_since: ByColor<Option<u64>>,
    /// The people last reported to the room.
    people: Vec<(Player, Whereabouts)>,
}

/// What to do about a change of who is here.
#[derive(Debug, PartialEq, Eq)]
pub(super) enum Note {
    /// A player came or went: announce now.
    Now,
    /// Only the spectator count changed: announce within [`PRESENCE_COALESCE`].
    Later,
    /// Nothing to say (or already due).
    Nothing,
}

impl Presence {
    /// Who is here changed to `now`: what to do about it.
    pub(super) fn note(&mut self, now: Counts) -> Note {
        if now.connected != self.shown.connected {
            Note::Now
        } else if (now.spectators != self.shown.spectators || now.watchers != self.shown.watchers)
            && self.due.is_none()
        {
            self.due = Some(tokio::time::Instant::now() + PRESENCE_COALESCE);
            Note::Later
        } else {
            Note::Nothing
        }
    }

    /// When a coalesced change is due to be announced.
    pub(super) fn due(&self) -> Option<tokio::time::Instant> {
        self.due
    }

    /// `now` is about to be announced; `false` if it is what was announced last.
    pub(super) fn announce(&mut self, now: Counts) -> bool {
        self.due = None;
        if now == self.shown {
            return false;
        }
        self.shown = now;
        true
    }

    /// Notes who of the running game's players is connected now (`None`: no game being
    /// played: nobody is away).
    pub(super) fn players_connected(&mut self, connected: Option<ByColor<bool>>, now: u64) {
        match connected {
            None => self.gone_since = ByColor::default(),
            Some(connected) => {
                for (c, since) in self.gone_since.iter_mut() {
                    if connected[c] {
                        *since = None;
                    } else {
                        since.get_or_insert(now);
                    }
                }
            }
        }
    }

    /// The player away and since when, if exactly one of them is.
    pub(super) fn one_away(&self) -> Option<(Color, u64)> {
        match (self.gone_since.white, self.gone_since.black) {
            (Some(t), None) => Some((Color::White, t)),
            (None, Some(t)) => Some((Color::Black, t)),
            _ => None,
        }
    }

    /// A game starts: nobody is away.
    pub(super) fn game_started(&mut self) {
        self.gone_since = ByColor::default();
    }

    /// Whether the room already has `now` as the table's people.
    pub(super) fn people_unchanged<'a>(
        &'a self,
        now: impl Iterator<Item = (&'a Player, Whereabouts)>,
    ) -> bool {
        now.eq(self.people.iter().map(|(p, w)| (p, *w)))
    }

    /// The room was told `people` are here.
    pub(super) fn people_reported(&mut self, people: Vec<(Player, Whereabouts)>) {
        self.people = people;
    }
}

/// Who is connected at a table with `seating` and sockets `subs`: each seat's player (the
/// computer always), and the spectators (one name per person, however many tabs).
pub(super) fn counts(seating: &Seating, subs: &Subscribers) -> Counts {
    let connected = ByColor::new_with(|c| {
        seating
            .player(c)
            .is_some_and(|p| p.is_bot() || subs.has_guest(&p.id))
    });
    let watching = || {
        subs.iter()
            .filter(|s| !s.guest.as_ref().is_some_and(|g| seating.seated(&g.id)))
    };
    let spectators = watching().count();
    let mut watchers: Vec<Player> = Vec::new();
    for g in watching().filter_map(|s| s.guest.as_ref()) {
        if watchers.len() == MAX_WATCHERS {
            break;
        }
        if !watchers.iter().any(|w| w.id == g.id) {
            watchers.push(g.clone());
        }
    }
    Counts {
        connected,
        spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
        watchers,
    }
}

/// Which players of `game` (if it is being played) are connected through `subs`: the
/// computer and a one-screen table's guest never count as gone.
pub(super) fn players_connected(
    game: Option<&LiveGame>,
    subs: &Subscribers,
) -> Option<ByColor<bool>> {
    game.filter(|g| g.playing()).map(|g| {
        g.players
            .as_ref()
            .map(|p| p.is_bot() || subs.has_guest(&p.id))
    })
}
