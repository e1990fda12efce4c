//! The featured game of each variant (`GET /api/featured`, the start page's "Live now"),
//! chosen as lichess TV chooses: the best game in progress, kept while it lasts unless
//! another is clearly better, and shown a few seconds after its end before the next.
//!
//! A game's standing ([`Standing`]) is first whether two people play it (a game against
//! the computer is featured only when no two people play), then the mean of the two
//! ratings shown at the table (an account's rating in the variant; a guest counts as
//! [`GUEST_RATING`]). "Clearly better" is a higher class, or the same class and a mean
//! [`CLEARLY_BETTER`] points higher. One-screen games (one person, both sides) are never
//! featured.
//!
//! The choice reads the rooms' copies of their tables (every table of the cluster), so
//! every node features the same games; the positions come from the store (the last
//! stored move). One answer serves every request for [`REFRESH_MS`]: a thousand visitors
//! of the start page cost the database seven small reads every two seconds.

use std::collections::HashMap;
use std::sync::Arc;

use damka_protocol::{EndReason, GameResult, GameStatus, Player, TableView};
use draughts::Variant;
use serde::Serialize;

use crate::core::Core;
use crate::lock::lock;

/// The rating a guest (or an account without one shown) counts for.
pub const GUEST_RATING: i32 = 1400;

/// How much higher a game's mean rating must be to replace the featured one.
pub const CLEARLY_BETTER: i32 = 100;

/// How long a finished featured game stays featured (its result shown), ms.
pub const LINGER_MS: u64 = 10_000;

/// How long one answer serves, ms.
pub const REFRESH_MS: u64 = 2_000;

/// One featured game, as `GET /api/featured` lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FeaturedGame {
    /// Variant id.
    pub variant: String,
    /// The room of its table.
    pub room: String,
    /// The table (watch it at `/#/table/{table}`).
    pub table: String,
    /// The game.
    pub game: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The position after the last stored move.
    pub fen: String,
    /// Plies played.
    pub ply: u32,
    /// Playing, or over (shown for a few seconds after its end).
    pub status: GameStatus,
    /// The result, once over.
    pub result: Option<GameResult>,
    /// Why it ended, once over.
    pub reason: Option<EndReason>,
    /// Minutes per player.
    pub minutes: u32,
    /// Increment, seconds.
    pub increment: u32,
    /// A correspondence game's days per move (`minutes` and `increment` are 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u32>,
    /// Rated.
    pub rated: bool,
    /// People watching.
    pub spectators: u32,
}

/// How good a game is to feature: two people before the computer, then the mean rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Standing {
    /// 2: two people; 1: a person and the computer.
    pub class: u8,
    /// The mean of the two ratings (guests at [`GUEST_RATING`]).
    pub mean: i32,
}

impl Standing {
    /// Whether this one is clearly better than `other`: enough to switch to it.
    pub fn clearly_better_than(self, other: Standing) -> bool {
        self.class > other.class
            || (self.class == other.class && self.mean >= other.mean + CLEARLY_BETTER)
    }
}

/// A table's standing as a featured game, if its game can be featured at all: two seats
/// taken, not at one screen, the game in progress (or, for [`choose`] to keep the
/// featured one a while, over).
pub fn standing(t: &TableView) -> Option<Standing> {
    let (white, black) = (t.seats.white.as_ref()?, t.seats.black.as_ref()?);
    if t.options.local || white.id == black.id || t.game.is_none() {
        return None;
    }
    let people = u8::from(!white.is_bot()) + u8::from(!black.is_bot());
    if people == 0 {
        return None;
    }
    let rating = |p: &Player| p.rating.unwrap_or(GUEST_RATING);
    Some(Standing {
        class: people,
        mean: (rating(white) + rating(black)).div_euclid(2),
    })
}

/// What is featured in one variant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pick {
    /// The table.
    pub table: String,
    /// Its game.
    pub game: String,
    /// When it was first seen over (server ms), if it is.
    pub over_since: Option<u64>,
}

/// The featured game of one variant now: the current one while its game goes on (unless
/// a clearly better one is in progress), or for [`LINGER_MS`] after its end; else the
/// best game in progress (ties: the lower table id). `tables` are the variant's tables.
pub fn choose(current: Option<&Pick>, tables: &[&TableView], now: u64) -> Option<Pick> {
    let best = tables
        .iter()
        .filter(|t| {
            t.game
                .as_ref()
                .is_some_and(|g| g.status == GameStatus::Playing)
        })
        .filter_map(|t| standing(t).map(|s| (s, *t)))
        .max_by(|(a, ta), (b, tb)| a.cmp(b).then_with(|| tb.id.cmp(&ta.id)));
    let fresh = |t: &TableView| {
        t.game.as_ref().map(|g| Pick {
            table: t.id.clone(),
            game: g.id.clone(),
            over_since: None,
        })
    };
    if let Some(cur) = current {
        // The same game at the same table, still there.
        let still = tables
            .iter()
            .find(|t| t.id == cur.table && t.game.as_ref().is_some_and(|g| g.id == cur.game));
        if let Some(t) = still
            && let Some(mine) = standing(t)
        {
            let playing = t
                .game
                .as_ref()
                .is_some_and(|g| g.status == GameStatus::Playing);
            if playing {
                let better = best.filter(|(s, b)| b.id != t.id && s.clearly_better_than(mine));
                return match better {
                    Some((_, b)) => fresh(b),
                    None => Some(cur.clone()),
                };
            }
            let since = cur.over_since.unwrap_or(now);
            if now.saturating_sub(since) < LINGER_MS {
                return Some(Pick {
                    over_since: Some(since),
                    ..cur.clone()
                });
            }
        }
    }
    best.and_then(|(_, t)| fresh(t))
}

/// The featured games and the answer last given.
#[derive(Default)]
pub struct Featured {
    state: std::sync::Mutex<State>,
    /// One refresh at a time: the others wait for its answer.
    refresh: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct State {
    picks: HashMap<Variant, Pick>,
    /// The last answer and when it was made (server ms).
    answer: Option<(u64, Arc<Vec<FeaturedGame>>)>,
}

impl Featured {
    /// The featured games, one per variant that has one, in the variants' order; made
    /// again at most every [`REFRESH_MS`].
    ///
    /// Fails only if the store cannot be read (the last answer then stays).
    pub async fn list(
        &self,
        core: &Core,
    ) -> Result<Arc<Vec<FeaturedGame>>, damka_store::StoreError> {
        let fresh = |s: &State, now: u64| {
            s.answer
                .as_ref()
                .filter(|(at, _)| now.saturating_sub(*at) < REFRESH_MS)
                .map(|(_, a)| a.clone())
        };
        if let Some(a) = fresh(&lock(&self.state), core.time.now_ms()) {
            return Ok(a);
        }
        let _one = self.refresh.lock().await;
        let now = core.time.now_ms();
        if let Some(a) = fresh(&lock(&self.state), now) {
            return Ok(a);
        }
        let all: Vec<TableView> = core.rooms.all().iter().flat_map(|r| r.tables()).collect();
        let mut chosen = Vec::new();
        {
            let mut s = lock(&self.state);
            for v in Variant::ALL {
                let tables: Vec<&TableView> =
                    all.iter().filter(|t| t.variant == v.name()).collect();
                match choose(s.picks.get(&v), &tables, now) {
                    Some(p) => {
                        let t = tables
                            .iter()
                            .find(|t| t.id == p.table)
                            .map(|t| (*t).clone());
                        s.picks.insert(v, p);
                        chosen.extend(t);
                    }
                    None => {
                        s.picks.remove(&v);
                    }
                }
            }
        }
        let mut games = Vec::with_capacity(chosen.len());
        for t in chosen {
            let (Some(g), Some(white), Some(black)) = (t.game, t.seats.white, t.seats.black) else {
                continue;
            };
            let fen = match core.store.last_fen(&g.id).await {
                Ok(Some(fen)) => fen,
                // Not stored (yet, or any more): nothing to show.
                Ok(None) => continue,
                Err(e) => {
                    let last = lock(&self.state).answer.as_ref().map(|(_, a)| a.clone());
                    tracing::warn!(error = %e, "featured games: the store cannot be read");
                    return last.ok_or(e);
                }
            };
            games.push(FeaturedGame {
                variant: t.variant,
                room: t.room,
                table: t.id,
                game: g.id,
                white,
                black,
                fen,
                ply: g.ply,
                status: g.status,
                result: g.result,
                reason: g.reason,
                minutes: t.options.minutes,
                increment: t.options.increment,
                days: t.options.days,
                rated: t.options.rated,
                spectators: t.spectators,
            });
        }
        let answer = Arc::new(games);
        lock(&self.state).answer = Some((now, answer.clone()));
        Ok(answer)
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use damka_protocol::{GameSummary, Options, Ready, Seats, Side};

    fn person(id: &str, rating: Option<i32>) -> Player {
        Player {
            rating,
            ..Player::guest(id, id)
        }
    }

    fn computer() -> Player {
        Player {
            bot: Some(2),
            ..Player::guest("bot-2", "Computer")
        }
    }

    fn table(id: &str, white: Player, black: Player, status: GameStatus) -> TableView {
        TableView {
            id: id.into(),
            room: "russian".into(),
            variant: "russian".into(),
            options: Options::default(),
            seats: Seats {
                white: Some(white),
                black: Some(black),
            },
            ready: Ready {
                white: true,
                black: true,
            },
            spectators: 0,
            game: Some(GameSummary {
                id: format!("g-{id}"),
                status,
                ply: 4,
                turn: Side::White,
                result: None,
                reason: None,
            }),
            tournament: None,
        }
    }

    fn pair(id: &str, a: i32, b: i32) -> TableView {
        table(
            id,
            person(&format!("{id}w"), Some(a)),
            person(&format!("{id}b"), Some(b)),
            GameStatus::Playing,
        )
    }

    #[test]
    fn the_highest_rated_game_of_two_people_is_featured() {
        let weak = pair("t1", 1500, 1500);
        let strong = pair("t2", 1700, 1650);
        let bot = table(
            "t3",
            person("x", Some(2400)),
            computer(),
            GameStatus::Playing,
        );
        let picked = choose(None, &[&weak, &strong, &bot], 0).unwrap();
        assert_eq!(picked.table, "t2");
        assert_eq!(picked.game, "g-t2");
        // Alone, a game against the computer is better than nothing.
        assert_eq!(choose(None, &[&bot], 0).unwrap().table, "t3");
        // Guests count as 1400: an account's game of 1450 goes first.
        let guests = table(
            "t4",
            person("a", None),
            person("b", None),
            GameStatus::Playing,
        );
        let accounts = pair("t5", 1450, 1450);
        assert_eq!(choose(None, &[&guests, &accounts], 0).unwrap().table, "t5");
    }

    #[test]
    fn the_featured_game_stays_until_a_clearly_better_one_comes() {
        let first = pair("t1", 1500, 1500);
        let cur = choose(None, &[&first], 0).unwrap();
        // 99 points better on average: not enough.
        let a_bit = pair("t2", 1599, 1599);
        assert_eq!(
            choose(Some(&cur), &[&first, &a_bit], 1).unwrap().table,
            "t1"
        );
        // 100 points: switched.
        let clearly = pair("t3", 1600, 1600);
        assert_eq!(
            choose(Some(&cur), &[&first, &a_bit, &clearly], 2)
                .unwrap()
                .table,
            "t3"
        );
        // Two people beat the computer at once, whatever the ratings.
        let bot = table(
            "t4",
            person("x", Some(2000)),
            computer(),
            GameStatus::Playing,
        );
        let cur = choose(None, &[&bot], 0).unwrap();
        assert_eq!(choose(Some(&cur), &[&bot, &first], 1).unwrap().table, "t1");
    }

    #[test]
    fn a_finished_featured_game_lingers_then_gives_way() {
        let mut first = pair("t1", 1500, 1500);
        let other = pair("t2", 1400, 1400);
        let cur = choose(None, &[&first, &other], 0).unwrap();
        assert_eq!(cur.table, "t1");
        first.game.as_mut().unwrap().status = GameStatus::Over;
        let over = choose(Some(&cur), &[&first, &other], 1_000).unwrap();
        assert_eq!((over.table.as_str(), over.over_since), ("t1", Some(1_000)));
        let still = choose(Some(&over), &[&first, &other], 1_000 + LINGER_MS - 1).unwrap();
        assert_eq!(still.table, "t1");
        let next = choose(Some(&still), &[&first, &other], 1_000 + LINGER_MS).unwrap();
        assert_eq!(next.table, "t2");
        // A new game at the featured table is a new choice, not the old one kept.
        let mut again = pair("t1", 1500, 1500);
        again.game.as_mut().unwrap().id = "g-new".into();
        let picked = choose(Some(&cur), &[&again, &other], 5).unwrap();
        assert_eq!(picked.game, "g-new");
        // The table gone: the best of the rest.
        assert_eq!(choose(Some(&cur), &[&other], 6).unwrap().table, "t2");
        // Nothing in progress: nothing featured.
        assert_eq!(choose(Some(&next), &[&first], 1_000 + 2 * LINGER_MS), None);
    }

    #[test]
    fn one_screen_games_and_empty_seats_are_never_featured() {
        let mut local = pair("t1", 2000, 2000);
        local.options.local = true;
        let same = table(
            "t2",
            person("a", Some(2000)),
            person("a", Some(2000)),
            GameStatus::Playing,
        );
        let mut half = pair("t3", 2000, 2000);
        half.seats.black = None;
        let mut waiting = pair("t4", 2000, 2000);
        waiting.game = None;
        assert_eq!(choose(None, &[&local, &same, &half, &waiting], 0), None);
    }
}
