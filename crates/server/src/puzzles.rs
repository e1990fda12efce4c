//! Puzzles (issue 37; docs/puzzles.md, docs/protocol.md "Puzzles"): the starter set of each
//! variant (`bot::puzzle::starter_set`, verified shots made by `draughts puzzles`), played
//! through the server so that the solution never reaches the page before the solver
//! finishes or gives up.
//!
//! - A puzzle's line alternates the solver's moves and the opponent's; the solver sends
//!   only the moves that are a choice: the opponent's replies, and the solver's own moves
//!   when it has a single legal one, are played by the server ([`Catalog::check`]).
//! - Ratings are Glicko-2 ([`damka_rating`]): a first try is a game between the solver and
//!   the puzzle, won when solved without a wrong move. An account's puzzle rating (one per
//!   variant, apart from its game ratings) and the puzzles it has played are stored; a
//!   guest's live in memory for as long as the server runs (a session rating). A puzzle
//!   starts at the rating the generator gave it, RD [`PUZZLE_RD`], and moves as it is
//!   played; each result is rated once per player.
//! - "Solved" counts only if the server saw the whole solution played by that player
//!   (through `/move`): a page cannot claim it.

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use damka_rating::{Glicko2, Outcome, Rating};
use draughts::{Position, Rules, SplitMix64, Variant};
use serde::{Deserialize, Serialize};

use crate::core::Core;
use crate::error::{AppError, AppResult};
use crate::lock::lock;

/// A new puzzle's rating deviation: the generator's rating is a guess.
pub const PUZZLE_RD: f64 = 250.0;

/// Guests whose puzzle ratings are kept in memory at most (then the oldest half go).
pub const MAX_GUESTS: usize = 50_000;

/// Puzzles in a streak.
pub const STREAK: usize = 30;

/// Moves a request may send at most (longer than any solution).
pub const MAX_MOVES: usize = 64;

/// One puzzle of the starter set.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// `{variant}-{nnnn}`: the variant and its line in the set, from 1.
    pub id: String,
    /// The variant.
    pub variant: Variant,
    /// The position, the solver to move.
    pub fen: String,
    /// The solution: every move of both sides, ending with the solver's.
    pub line: Vec<String>,
    /// Themes (docs/puzzles.md).
    pub themes: Vec<String>,
    /// The rating the generator gave it.
    pub rating: i32,
}

/// A line of the starter set's files.
#[derive(Deserialize)]
struct Stored {
    fen: String,
    line: Vec<String>,
    themes: Vec<String>,
    rating: i32,
    /// Why the puzzle is no longer served (the engine no longer finds one solution);
    /// its line stays so that the ids after it do not change.
    #[serde(default)]
    retired: Option<String>,
}

/// A puzzle as the solver gets it: no solution.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PuzzleView {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The position, the solver to move.
    pub fen: String,
    /// Its rating now.
    pub rating: i32,
    /// Themes.
    pub themes: Vec<String>,
    /// Plies of the solution (both sides', forced moves included).
    pub plies: usize,
    /// The solver's legal moves.
    pub legal: Vec<String>,
}

/// A variant's puzzles in numbers (`GET /api/puzzles`).
#[derive(Debug, Clone, Serialize, PartialEq, Eq)]
pub struct VariantPuzzles {
    /// Variant id.
    pub variant: String,
    /// Puzzles.
    pub count: usize,
    /// Puzzles per theme.
    pub themes: std::collections::BTreeMap<String, usize>,
}

/// The answer to the solver's moves.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MoveAnswer {
    /// Every move sent is the solution's.
    pub ok: bool,
    /// The opponent's reply to the last move, if any.
    pub reply: Option<String>,
    /// Every move the server played after the last one sent: the reply, and what follows
    /// with no choice (a forced move of the solver and its answer, …).
    pub replies: Vec<String>,
    /// The solution is complete.
    pub solved: bool,
    /// The position now (after the replies); with a wrong move, before it.
    pub fen: String,
    /// The solver's legal moves there (none once solved).
    pub legal: Vec<String>,
}

/// The answer to a result.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct ResultAnswer {
    /// The solver's puzzle rating before and after (equal when this puzzle was rated for
    /// them already).
    pub rating: RatingChange,
    /// The solution (sent once the solver finished or gave up).
    pub solution: Vec<String>,
}

/// A rating before and after.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub struct RatingChange {
    /// Before, rounded.
    pub before: i32,
    /// After, rounded.
    pub after: i32,
}

/// The starter sets, parsed.
#[derive(Debug, Default)]
pub struct Catalog {
    by_variant: HashMap<Variant, Vec<Entry>>,
}

impl Catalog {
    /// The sets compiled in.
    ///
    /// # Panics
    ///
    /// On a line of the set that does not parse (a test keeps them parsing).
    pub fn starter() -> Catalog {
        let mut by_variant = HashMap::new();
        for v in Variant::ALL {
            let entries = bot::puzzle::starter_set(v)
                .lines()
                .filter(|l| !l.trim().is_empty())
                .enumerate()
                .filter_map(|(i, l)| {
                    #[allow(clippy::expect_used)]
                    let s: Stored = serde_json::from_str(l).expect("a puzzle line");
                    // The id is the line's number, retired lines counted.
                    s.retired.is_none().then(|| Entry {
                        id: format!("{}-{:04}", v.name(), i + 1),
                        variant: v,
                        fen: s.fen,
                        line: s.line,
                        themes: s.themes,
                        rating: s.rating,
                    })
                })
                .collect();
            by_variant.insert(v, entries);
        }
        Catalog { by_variant }
    }

    /// Every variant's puzzles in numbers, in the variants' order.
    pub fn counts(&self) -> Vec<VariantPuzzles> {
        Variant::ALL
            .iter()
            .map(|v| {
                let mut themes = std::collections::BTreeMap::new();
                for e in self.of(*v) {
                    for t in &e.themes {
                        *themes.entry(t.clone()).or_insert(0) += 1;
                    }
                }
                VariantPuzzles {
                    variant: v.name().to_owned(),
                    count: self.of(*v).len(),
                    themes,
                }
            })
            .collect()
    }

    /// A variant's puzzles.
    pub fn of(&self, variant: Variant) -> &[Entry] {
        self.by_variant.get(&variant).map_or(&[], Vec::as_slice)
    }

    /// A puzzle by id.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        let (variant, n) = id.rsplit_once('-')?;
        let v: Variant = variant.parse().ok()?;
        let _: usize = n.parse().ok()?;
        // Sorted by id (the line's number, zero-padded); retired lines leave gaps.
        let all = self.of(v);
        all.binary_search_by(|e| e.id.as_str().cmp(id))
            .ok()
            .map(|i| &all[i])
    }

    /// The day's puzzle of `variant` (`day`: days since 1970-01-01, UTC): the same for
    /// everyone that day.
    pub fn daily(&self, variant: Variant, day: i64) -> Option<&Entry> {
        let all = self.of(variant);
        if all.is_empty() {
            return None;
        }
        let v = Variant::ALL.iter().position(|x| *x == variant).unwrap_or(0) as u64;
        let mut rng = SplitMix64::new((day as u64).wrapping_mul(31).wrapping_add(v));
        let n = usize::try_from(rng.below(all.len() as u64)).unwrap_or(0);
        all.get(n)
    }

    /// Plays the solver's `moves` against `entry`'s solution.
    ///
    /// Fails with `bad_message` for a move that does not read (or too many moves).
    pub fn check(entry: &Entry, moves: &[String]) -> AppResult<MoveAnswer> {
        if moves.len() > MAX_MOVES {
            return Err(AppError::BadMessage(format!("at most {MAX_MOVES} moves")));
        }
        let mut pos = start(entry)?;
        let solver = pos.turn();
        let mut i = 0;
        let mut replies = Vec::new();
        for text in moves {
            let answer = |pos: &Position, ok| MoveAnswer {
                ok,
                reply: None,
                replies: Vec::new(),
                solved: false,
                fen: pos.to_fen(),
                legal: legal(pos),
            };
            let Ok(m) = pos.parse_move(text) else {
                // Not even legal here: wrong (the page sends only legal moves).
                return Ok(answer(&pos, false));
            };
            let Some(want) = entry.line.get(i).and_then(|t| pos.parse_move(t).ok()) else {
                return Ok(answer(&pos, false));
            };
            if m != want {
                return Ok(answer(&pos, false));
            }
            pos.play_unchecked(&m);
            i += 1;
            replies.clear();
            // What follows with no choice for the solver: the opponent's moves, and the
            // solver's forced ones.
            while let Some(next) = entry.line.get(i) {
                if pos.turn() == solver && pos.legal_moves().len() > 1 {
                    break;
                }
                let m = pos
                    .parse_move(next)
                    .map_err(|e| AppError::BadMessage(format!("puzzle {}: {e}", entry.id)))?;
                replies.push(pos.move_to_string(&m));
                pos.play_unchecked(&m);
                i += 1;
            }
        }
        let solved = i >= entry.line.len();
        Ok(MoveAnswer {
            ok: true,
            reply: replies.first().cloned(),
            replies,
            solved,
            fen: pos.to_fen(),
            legal: if solved { Vec::new() } else { legal(&pos) },
        })
    }
}

fn start(entry: &Entry) -> AppResult<Position> {
    Position::from_fen(Rules::new(entry.variant), &entry.fen)
        .map_err(|e| AppError::BadMessage(format!("puzzle {}: {e}", entry.id)))
}

fn legal(pos: &Position) -> Vec<String> {
    pos.legal_moves()
        .iter()
        .map(|m| pos.move_to_string(m))
        .collect()
}

/// Wins for a solver who solved at the first try.
fn outcome(solved: bool) -> Outcome {
    if solved { Outcome::Win } else { Outcome::Loss }
}

/// A guest's puzzles, in memory.
#[derive(Debug, Default)]
struct GuestPuzzles {
    ratings: HashMap<Variant, Rating>,
    played: HashSet<String>,
}

#[derive(Debug, Default)]
struct State {
    /// Puzzles' ratings as played (the others are at the generator's).
    ratings: HashMap<String, Rating>,
    /// Guests' ratings and puzzles, with the order they came in (to bound them).
    guests: HashMap<String, GuestPuzzles>,
    guest_order: Vec<String>,
    /// (player, puzzle) whose whole solution the player played through `/move`.
    solved: HashSet<(String, String)>,
}

/// The puzzles: the catalog, those found in analysed games, and what players did with
/// them.
#[derive(Debug, Default)]
pub struct Puzzles {
    /// The starter sets.
    pub catalog: Catalog,
    /// Puzzles found in analysed games (issue 37, item 4), oldest first: this node's
    /// finds and those stored when it started.
    found: Mutex<Vec<Entry>>,
    state: Mutex<State>,
}

/// The id of a puzzle found in `game` after `ply`.
pub fn found_id(variant: Variant, game: &str, ply: u32) -> String {
    format!("{}-game-{game}-{ply}", variant.name())
}

/// A stored found puzzle as an entry (`None` if it does not read).
fn found_entry(row: &damka_store::GamePuzzleRow) -> Option<Entry> {
    Some(Entry {
        id: row.id.clone(),
        variant: row.variant.parse().ok()?,
        fen: row.fen.clone(),
        line: serde_json::from_str(&row.line).ok()?,
        themes: serde_json::from_str(&row.themes).ok()?,
        rating: i32::try_from(row.rating).ok()?,
    })
}

impl Puzzles {
    /// The starter sets with the puzzles' ratings as stored.
    ///
    /// Fails if the store cannot be read.
    pub async fn load(store: &damka_store::Store) -> Result<Puzzles, damka_store::StoreError> {
        let catalog = Catalog::starter();
        let mut state = State::default();
        for row in store.puzzle_stats().await? {
            state.ratings.insert(row.puzzle_id, row.rating);
        }
        let found = store
            .game_puzzles()
            .await?
            .iter()
            .filter_map(found_entry)
            .collect();
        Ok(Puzzles {
            catalog,
            found: Mutex::new(found),
            state: Mutex::new(state),
        })
    }

    /// A puzzle by id: the starter sets', or one found in a game.
    pub fn entry(&self, id: &str) -> Option<Entry> {
        if let Some(e) = self.catalog.get(id) {
            return Some(e.clone());
        }
        lock(&self.found).iter().find(|e| e.id == id).cloned()
    }

    /// A variant's puzzles: the starter set, then those found in games.
    pub fn pool(&self, variant: Variant) -> Vec<Entry> {
        let mut all = self.catalog.of(variant).to_vec();
        all.extend(
            lock(&self.found)
                .iter()
                .filter(|e| e.variant == variant)
                .cloned(),
        );
        all
    }

    /// Every variant's puzzles in numbers (the starter sets and the finds).
    pub fn counts(&self) -> Vec<VariantPuzzles> {
        let mut counts = self.catalog.counts();
        for e in lock(&self.found).iter() {
            if let Some(c) = counts.iter_mut().find(|c| c.variant == e.variant.name()) {
                c.count += 1;
                for t in &e.themes {
                    *c.themes.entry(t.clone()).or_insert(0) += 1;
                }
            }
        }
        counts
    }

    /// Adds a puzzle found after ply `ply` of `game` (stored first); `None` when its
    /// position is in the pool already.
    ///
    /// Fails when the store refuses the write.
    pub async fn add_found(
        &self,
        store: &damka_store::Store,
        p: &bot::puzzle::Puzzle,
        game: &str,
        ply: u32,
    ) -> AppResult<Option<Entry>> {
        let known = |e: &Entry| e.variant == p.variant && e.fen == p.fen;
        if self.catalog.of(p.variant).iter().any(known) || lock(&self.found).iter().any(known) {
            return Ok(None);
        }
        let entry = Entry {
            id: found_id(p.variant, game, ply),
            variant: p.variant,
            fen: p.fen.clone(),
            line: p.line.clone(),
            themes: p.themes.iter().map(|t| t.name().to_owned()).collect(),
            rating: p.rating,
        };
        let json = |v: &[String]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
        store
            .add_game_puzzle(damka_store::GamePuzzleRow {
                id: entry.id.clone(),
                variant: p.variant.name().to_owned(),
                fen: entry.fen.clone(),
                line: json(&entry.line),
                themes: json(&entry.themes),
                rating: i64::from(entry.rating),
                game_id: game.to_owned(),
                ply: i64::from(ply),
                created_at: crate::time::unix_ms(),
            })
            .await?;
        let mut found = lock(&self.found);
        if found.iter().any(known) {
            return Ok(None);
        }
        found.push(entry.clone());
        Ok(Some(entry))
    }

    fn rating_of(&self, s: &State, e: &Entry) -> Rating {
        s.ratings.get(&e.id).copied().unwrap_or(Rating {
            rating: f64::from(e.rating),
            rd: PUZZLE_RD,
            volatility: Rating::NEW.volatility,
        })
    }

    /// A streak of `variant` (issue 37, a bonus): [`STREAK`] puzzles of rising ratings,
    /// the pool sorted by rating now and cut into that many bands, one drawn from each
    /// (by `seed`); the whole pool in order when it is smaller.
    pub fn streak(&self, variant: Variant, seed: u64) -> Vec<String> {
        let s = lock(&self.state);
        let mut pool: Vec<(f64, String)> = self
            .pool(variant)
            .iter()
            .map(|e| (self.rating_of(&s, e).rating, e.id.clone()))
            .collect();
        drop(s);
        pool.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
        if pool.len() <= STREAK {
            return pool.into_iter().map(|p| p.1).collect();
        }
        let mut rng = SplitMix64::new(seed);
        (0..STREAK)
            .map(|band| {
                let (from, to) = (band * pool.len() / STREAK, (band + 1) * pool.len() / STREAK);
                let n = from + rng.below((to - from) as u64) as usize;
                pool[n].1.clone()
            })
            .collect()
    }

    /// The puzzle as the solver gets it.
    pub fn view(&self, e: &Entry) -> AppResult<PuzzleView> {
        let rating = self.rating_of(&lock(&self.state), e).rating.round() as i32;
        Ok(PuzzleView {
            id: e.id.clone(),
            variant: e.variant.name().to_owned(),
            fen: e.fen.clone(),
            rating,
            themes: e.themes.clone(),
            plies: e.line.len(),
            legal: legal(&start(e)?),
        })
    }

    /// A player's puzzle rating in a variant now, and the puzzles they played there.
    async fn player(
        &self,
        core: &Core,
        player: &damka_protocol::Player,
        variant: Variant,
    ) -> AppResult<(Rating, HashSet<String>)> {
        if player.account {
            let now = crate::time::unix_ms();
            let rating = core
                .store
                .puzzle_rating(&player.id, variant.name())
                .await?
                .map_or(Rating::NEW, |r| r.now(now));
            let played = core
                .store
                .puzzles_played(&player.id, &format!("{}-", variant.name()))
                .await?;
            return Ok((rating, played.into_iter().collect()));
        }
        let s = lock(&self.state);
        Ok(s.guests
            .get(&player.id)
            .map_or((Rating::NEW, HashSet::new()), |g| {
                (
                    g.ratings.get(&variant).copied().unwrap_or(Rating::NEW),
                    g.played.clone(),
                )
            }))
    }

    /// The next puzzle for `player`: one they have not played, of `theme` if given, among
    /// the five nearest their puzzle rating (drawn by `seed`).
    ///
    /// Fails with `not_found` when none is left.
    pub async fn next(
        &self,
        core: &Core,
        player: &damka_protocol::Player,
        variant: Variant,
        theme: Option<&str>,
        seed: u64,
    ) -> AppResult<PuzzleView> {
        let (rating, played) = self.player(core, player, variant).await?;
        let chosen = {
            let s = lock(&self.state);
            let pool = self.pool(variant);
            let mut open: Vec<(f64, &Entry)> = pool
                .iter()
                .filter(|e| !played.contains(&e.id))
                .filter(|e| theme.is_none_or(|t| e.themes.iter().any(|x| x == t)))
                .map(|e| ((self.rating_of(&s, e).rating - rating.rating).abs(), e))
                .collect();
            open.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.id.cmp(&b.1.id)));
            open.truncate(5);
            if open.is_empty() {
                None
            } else {
                let n = SplitMix64::new(seed).below(open.len() as u64) as usize;
                Some(open[n].1.clone())
            }
        };
        let e = chosen.ok_or(AppError::NotFound("puzzle"))?;
        self.view(&e)
    }

    /// Plays `moves` of `player` against puzzle `id`; remembers a solution played whole.
    ///
    /// Fails with `not_found` for an unknown puzzle, `bad_message` for too many moves.
    pub fn play(&self, player: &str, id: &str, moves: &[String]) -> AppResult<MoveAnswer> {
        let e = self.entry(id).ok_or(AppError::NotFound("puzzle"))?;
        let answer = Catalog::check(&e, moves)?;
        if answer.solved {
            let mut s = lock(&self.state);
            if s.solved.len() >= 4 * MAX_GUESTS {
                s.solved.clear();
            }
            s.solved.insert((player.to_owned(), id.to_owned()));
        }
        Ok(answer)
    }

    /// A first try's result: rates the player and the puzzle (once per player and
    /// puzzle), and gives the solution.
    ///
    /// Fails with `not_found` for an unknown puzzle, `bad_message` for `solved` without
    /// the solution played through [`Puzzles::play`].
    pub async fn result(
        &self,
        core: &Core,
        player: &damka_protocol::Player,
        id: &str,
        solved: bool,
    ) -> AppResult<ResultAnswer> {
        let e = self.entry(id).ok_or(AppError::NotFound("puzzle"))?;
        let (before, played) = self.player(core, player, e.variant).await?;
        let shown = |r: Rating| r.rating.round() as i32;
        if played.contains(id) {
            return Ok(ResultAnswer {
                rating: RatingChange {
                    before: shown(before),
                    after: shown(before),
                },
                solution: e.line.clone(),
            });
        }
        let key = (player.id.clone(), id.to_owned());
        if solved && !lock(&self.state).solved.contains(&key) {
            return Err(AppError::BadMessage(
                "solved: play the solution first (POST /api/puzzles/{id}/move)".into(),
            ));
        }
        let puzzle = self.rating_of(&lock(&self.state), &e);
        let (after, puzzle_after) = Glicko2::default().game(before, puzzle, outcome(solved));
        core.store
            .puzzle_write(damka_store::PuzzleWrite::Result {
                player_id: player.account.then(|| player.id.clone()),
                variant: e.variant.name().to_owned(),
                puzzle_id: id.to_owned(),
                solved,
                player: after,
                puzzle: puzzle_after,
                now: crate::time::unix_ms(),
            })
            .await?;
        {
            let mut s = lock(&self.state);
            s.ratings.insert(id.to_owned(), puzzle_after);
            if !player.account {
                if !s.guests.contains_key(&player.id) {
                    if s.guests.len() >= MAX_GUESTS {
                        let old: Vec<String> = s.guest_order.drain(..MAX_GUESTS / 2).collect();
                        for g in old {
                            s.guests.remove(&g);
                        }
                    }
                    s.guest_order.push(player.id.clone());
                }
                let g = s.guests.entry(player.id.clone()).or_default();
                g.ratings.insert(e.variant, after);
                g.played.insert(id.to_owned());
            }
        }
        Ok(ResultAnswer {
            rating: RatingChange {
                before: shown(before),
                after: shown(after),
            },
            solution: e.line.clone(),
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn every_starter_puzzle_reads_and_its_solution_plays_through() {
        let c = Catalog::starter();
        for v in Variant::ALL {
            for e in c.of(v) {
                assert_eq!(c.get(&e.id), Some(e));
                // The solver's choices, as a page sends them one by one.
                let mut sent: Vec<String> = Vec::new();
                let mut answer = Catalog::check(e, &sent).unwrap();
                assert!(
                    answer.ok && !answer.solved && answer.legal.len() > 1,
                    "{}",
                    e.id
                );
                let mut i = 0;
                while !answer.solved {
                    sent.push(e.line[i].clone());
                    answer = Catalog::check(e, &sent).unwrap();
                    assert!(answer.ok, "{}: {sent:?}", e.id);
                    i += 1 + answer.replies.len();
                    assert!(i <= e.line.len(), "{}", e.id);
                }
                assert_eq!(i, e.line.len(), "{}", e.id);
            }
        }
    }

    #[test]
    fn a_retired_puzzle_is_not_served_and_the_ids_after_it_stay() {
        // American's line 5 is retired (ambiguous with the region patterns): the catalog
        // skips it and the next puzzle keeps id 6, the number of its line.
        let c = Catalog::starter();
        let line = |n: usize| {
            bot::puzzle::starter_set(Variant::American)
                .lines()
                .nth(n - 1)
                .unwrap()
        };
        assert!(line(5).contains("\"retired\""), "{}", line(5));
        assert_eq!(c.get("american-0005"), None);
        let six = c.get("american-0006").unwrap();
        assert!(
            line(6).contains(&format!("\"fen\":\"{}\"", six.fen)),
            "{}",
            line(6)
        );
        let lines = bot::puzzle::starter_set(Variant::American).lines().count();
        assert_eq!(c.of(Variant::American).len(), lines - 5);
    }

    #[test]
    fn a_wrong_move_is_refused_and_the_position_stays() {
        let c = Catalog::starter();
        let e = c.of(Variant::Russian).first().unwrap();
        let pos = Position::from_fen(Rules::new(Variant::Russian), &e.fen).unwrap();
        let right = pos.parse_move(&e.line[0]).unwrap();
        let wrong = pos
            .legal_moves()
            .iter()
            .find(|m| **m != right)
            .map(|m| pos.move_to_string(m))
            .unwrap();
        let a = Catalog::check(e, &[wrong]).unwrap();
        assert!(!a.ok && !a.solved);
        assert_eq!(a.fen, e.fen_normalised());
        assert_eq!(a.reply, None);
        // Nonsense is wrong too, never an error; too many moves is.
        assert!(!Catalog::check(e, &["z9-q1".into()]).unwrap().ok);
        assert!(Catalog::check(e, &vec!["a1-b2".to_owned(); MAX_MOVES + 1]).is_err());
    }

    #[test]
    fn the_daily_puzzle_is_one_a_day() {
        let c = Catalog::starter();
        let a = c.daily(Variant::Russian, 20_000).unwrap();
        assert_eq!(Some(a), c.daily(Variant::Russian, 20_000));
        let days: HashSet<&str> = (20_000..20_030)
            .filter_map(|d| c.daily(Variant::Russian, d))
            .map(|e| e.id.as_str())
            .collect();
        assert!(days.len() > 10, "it changes from day to day");
        assert_eq!(c.get("russian-0000"), None);
        assert_eq!(c.get("nowhere-0001"), None);
    }

    #[test]
    fn a_streak_rises_through_the_pool() {
        let p = Puzzles {
            catalog: Catalog::starter(),
            ..Puzzles::default()
        };
        let rating = |id: &str| p.entry(id).unwrap().rating;
        let a = p.streak(Variant::Russian, 1);
        assert_eq!(a.len(), STREAK);
        let ratings: Vec<i32> = a.iter().map(|id| rating(id)).collect();
        assert!(ratings.windows(2).all(|w| w[0] <= w[1]), "{ratings:?}");
        assert_eq!(a.iter().collect::<HashSet<_>>().len(), STREAK, "no repeat");
        // Drawn anew: another seed, another streak (same bands).
        assert_ne!(a, p.streak(Variant::Russian, 2));
        // A small pool: all of it, easiest first.
        let small = Puzzles {
            catalog: Catalog {
                by_variant: [(
                    Variant::Spanish,
                    p.catalog.of(Variant::Spanish)[..5].to_vec(),
                )]
                .into(),
            },
            ..Puzzles::default()
        };
        let s = small.streak(Variant::Spanish, 3);
        assert_eq!(s.len(), 5);
        let r: Vec<i32> = s.iter().map(|id| small.entry(id).unwrap().rating).collect();
        assert!(r.windows(2).all(|w| w[0] <= w[1]), "{r:?}");
        assert!(small.streak(Variant::Czech, 3).is_empty());
    }

    impl Entry {
        fn fen_normalised(&self) -> String {
            Position::from_fen(Rules::new(self.variant), &self.fen)
                .unwrap()
                .to_fen()
        }
    }
}
