//! Fair play of the rated room: where accounts were seen from (kept a while, for the
//! operator's report of suspicious pairs), the report itself, and voiding an account's
//! rated results with every rating recomputed from the games that remain rated.
//!
//! The recomputation replays every rated game with a result in the order they ended,
//! exactly as the writer rated them one by one ([`crate::ratings`]: each player's RD
//! widened for the time since their last rated game, then one Glicko-2 period per game),
//! and rewrites `ratings` and `rating_history` in one transaction that first takes the
//! write lock (SQLite: the writer's transaction; PostgreSQL: `LOCK TABLE ratings`), so a
//! game ending meanwhile is rated after it, never lost.

use std::collections::HashMap;

use damka_protocol::GameResult;
use damka_rating::{Glicko2, Outcome, Rating};
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::write::Write;
use super::{Store, StoreError, on_pool};

const SEEN: &str = "INSERT INTO player_addresses (player_id, address, seen_at) \
    VALUES ($1, $2, $3) ON CONFLICT (player_id, address) DO UPDATE SET seen_at = excluded.seen_at";

const FORGET: &str = "DELETE FROM player_addresses WHERE seen_at < $1";

const VOID: &str =
    "UPDATE games SET rated = 0 WHERE rated = 1 AND (white_id = $1 OR black_id = $1)";

/// The rated games with a result, in the order they were rated.
const RATED_GAMES: &str = "SELECT id, variant, white_id, black_id, result, ended_at FROM games \
    WHERE rated = 1 AND status = 'over' AND result IS NOT NULL AND ended_at IS NOT NULL \
    ORDER BY ended_at, id";

const INSERT_RATING: &str = "INSERT INTO ratings (player_id, variant, rating, rd, volatility, \
    games, rated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)";

const INSERT_HISTORY: &str = "INSERT INTO rating_history (game_id, player_id, variant, at, \
    rating_before, rating_after, rd) VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// A change for fair play.
#[derive(Debug, Clone)]
pub enum FairPlayWrite {
    /// An account was seen at an address (a request or a socket with its session).
    Seen {
        /// The account's player id.
        player_id: String,
        /// The address (as the server keys its limits: an IPv6 address by its prefix).
        address: String,
        /// Unix ms.
        at: i64,
    },
    /// Forgets the addresses not seen since `before` (Unix ms).
    ForgetBefore {
        /// Unix ms.
        before: i64,
    },
    /// Voids every rated result of an account (its rated games become casual) and
    /// recomputes every rating from the rated games that remain.
    Void {
        /// The account's player id.
        player_id: String,
    },
}

impl From<FairPlayWrite> for Write {
    fn from(write: FairPlayWrite) -> Write {
        Write::FairPlay(Box::new(write))
    }
}

impl FairPlayWrite {
    /// Whether it takes more than one statement.
    pub(super) fn is_multi_statement(&self) -> bool {
        matches!(self, FairPlayWrite::Void { .. })
    }
}

/// A rated game as the recomputation reads it.
#[derive(sqlx::FromRow)]
struct RatedGame {
    id: String,
    variant: String,
    white_id: String,
    black_id: String,
    result: String,
    ended_at: i64,
}

/// A player's rating while the games are replayed.
#[derive(Clone, Copy)]
struct Running {
    rating: Rating,
    games: i64,
    rated_at: i64,
}

/// What the replay writes: the ratings and the history rows.
#[derive(Default)]
struct Replayed {
    ratings: HashMap<(String, String), Running>,
    /// (game, player, variant, at, before, after, rd).
    history: Vec<(String, String, String, i64, f64, f64, f64)>,
}

/// Rates `games` one after another from nothing, as the writer rates each game's end.
fn replay(games: Vec<RatedGame>) -> Replayed {
    let mut out = Replayed::default();
    let glicko = Glicko2::default();
    for g in games {
        let outcome = match GameResult::from_name(&g.result) {
            Some(GameResult::White) => Outcome::Win,
            Some(GameResult::Black) => Outcome::Loss,
            Some(GameResult::Draw) => Outcome::Draw,
            None => continue,
        };
        let at = g.ended_at;
        let now = |r: Option<&Running>| r.map_or(Rating::NEW, |r| r.rating.at(r.rated_at, at));
        let white_key = (g.white_id.clone(), g.variant.clone());
        let black_key = (g.black_id.clone(), g.variant.clone());
        let white = now(out.ratings.get(&white_key));
        let black = now(out.ratings.get(&black_key));
        let (w, b) = glicko.game(white, black, outcome);
        for (key, before, after) in [(white_key, white, w), (black_key, black, b)] {
            out.history.push((
                g.id.clone(),
                key.0.clone(),
                key.1.clone(),
                at,
                before.rating,
                after.rating,
                after.rd,
            ));
            let games = out.ratings.get(&key).map_or(0, |r| r.games) + 1;
            out.ratings.insert(
                key,
                Running {
                    rating: after,
                    games,
                    rated_at: at,
                },
            );
        }
    }
    out
}

macro_rules! apply_fair_play {
    ($conn:expr, $write:expr, $lock:expr) => {
        match $write {
            FairPlayWrite::Seen {
                player_id,
                address,
                at,
            } => {
                sqlx::query(SEEN)
                    .bind(player_id)
                    .bind(address)
                    .bind(at)
                    .execute(&mut *$conn)
                    .await?;
            }
            FairPlayWrite::ForgetBefore { before } => {
                sqlx::query(FORGET)
                    .bind(before)
                    .execute(&mut *$conn)
                    .await?;
            }
            FairPlayWrite::Void { player_id } => {
                if let Some(lock) = $lock {
                    sqlx::query(lock).execute(&mut *$conn).await?;
                }
                sqlx::query(VOID)
                    .bind(player_id)
                    .execute(&mut *$conn)
                    .await?;
                let games: Vec<RatedGame> =
                    sqlx::query_as(RATED_GAMES).fetch_all(&mut *$conn).await?;
                let replayed = replay(games);
                sqlx::query("DELETE FROM rating_history")
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query("DELETE FROM ratings")
                    .execute(&mut *$conn)
                    .await?;
                for ((player, variant), r) in &replayed.ratings {
                    sqlx::query(INSERT_RATING)
                        .bind(player)
                        .bind(variant)
                        .bind(r.rating.rating)
                        .bind(r.rating.rd)
                        .bind(r.rating.volatility)
                        .bind(r.games)
                        .bind(r.rated_at)
                        .execute(&mut *$conn)
                        .await?;
                }
                for (game, player, variant, at, before, after, rd) in &replayed.history {
                    sqlx::query(INSERT_HISTORY)
                        .bind(game)
                        .bind(player)
                        .bind(variant)
                        .bind(at)
                        .bind(before)
                        .bind(after)
                        .bind(rd)
                        .execute(&mut *$conn)
                        .await?;
                }
            }
        }
    };
}

/// Applies a fair-play write on SQLite (the writer's transaction holds the write lock).
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &FairPlayWrite,
) -> Result<(), sqlx::Error> {
    apply_fair_play!(conn, write, None::<&str>);
    Ok(())
}

/// Applies a fair-play write on PostgreSQL; voiding locks `ratings` against the rating
/// of a game that ends meanwhile (it waits, then rates on top of the new ratings).
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &FairPlayWrite,
) -> Result<(), sqlx::Error> {
    apply_fair_play!(
        conn,
        write,
        Some("LOCK TABLE ratings IN SHARE ROW EXCLUSIVE MODE")
    );
    Ok(())
}

/// Two accounts that played many rated games against each other lately.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PairRow {
    /// One account's username.
    pub a: String,
    /// The other's.
    pub b: String,
    /// Rated games between them with a result.
    pub games: i64,
    /// Won by `a`.
    pub a_wins: i64,
    /// Won by `b`.
    pub b_wins: i64,
    /// Ended by a resignation or an agreed draw within 10 plies of the first move.
    pub quick: i64,
    /// Both seen at one address (within the addresses kept).
    pub same_address: bool,
}

#[derive(sqlx::FromRow)]
struct RawPair {
    a: String,
    b: String,
    games: i64,
    a_wins: i64,
    b_wins: i64,
    quick: i64,
    same_address: i64,
}

impl Store {
    /// Makes a fair-play change.
    ///
    /// Fails on a database error.
    pub async fn fair_play_write(&self, write: FairPlayWrite) -> Result<(), StoreError> {
        self.write(write.into()).await
    }

    /// Pairs of accounts with at least `min_games` rated games against each other that
    /// ended since `since` (Unix ms), most games first (at most 100).
    ///
    /// Fails on a database error.
    pub async fn suspicious_pairs(
        &self,
        since: i64,
        min_games: i64,
    ) -> Result<Vec<PairRow>, StoreError> {
        let sql = "SELECT ua.username AS a, ub.username AS b, p.games, p.a_wins, p.b_wins, \
             p.quick, CAST(CASE WHEN EXISTS (SELECT 1 FROM player_addresses x \
               JOIN player_addresses y ON x.address = y.address \
               WHERE x.player_id = p.pa AND y.player_id = p.pb) THEN 1 ELSE 0 END AS BIGINT) \
               AS same_address \
             FROM (SELECT g.pa, g.pb, COUNT(*) AS games, \
               SUM(CASE WHEN g.winner = g.pa THEN 1 ELSE 0 END) AS a_wins, \
               SUM(CASE WHEN g.winner = g.pb THEN 1 ELSE 0 END) AS b_wins, \
               SUM(g.quick) AS quick \
               FROM (SELECT \
                 CASE WHEN white_id < black_id THEN white_id ELSE black_id END AS pa, \
                 CASE WHEN white_id < black_id THEN black_id ELSE white_id END AS pb, \
                 CASE result WHEN 'white' THEN white_id WHEN 'black' THEN black_id END AS winner, \
                 CASE WHEN clock_ply - opening_plies <= 10 AND reason IN ('resign', 'agreement') \
                   THEN 1 ELSE 0 END AS quick \
                 FROM games WHERE rated = 1 AND result IS NOT NULL AND ended_at >= $1) AS g \
               GROUP BY g.pa, g.pb HAVING COUNT(*) >= $2) AS p \
             JOIN accounts ua ON ua.player_id = p.pa JOIN accounts ub ON ub.player_id = p.pb \
             ORDER BY p.games DESC, ua.username, ub.username LIMIT 100";
        let rows: Vec<RawPair> = on_pool!(self, pool => sqlx::query_as(sql)
            .bind(since).bind(min_games).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|r| PairRow {
                a: r.a,
                b: r.b,
                games: r.games,
                a_wins: r.a_wins,
                b_wins: r.b_wins,
                quick: r.quick,
                same_address: r.same_address != 0,
            })
            .collect())
    }
}

impl Store {
    /// Every stored rating, by (player id, variant).
    ///
    /// Fails on a database error.
    pub async fn all_ratings(
        &self,
    ) -> Result<HashMap<(String, String), crate::RatingRow>, StoreError> {
        let rows: Vec<(String, String, f64, f64, f64, i64, i64)> = on_pool!(self, pool =>
            sqlx::query_as("SELECT player_id, variant, rating, rd, volatility, games, rated_at \
                FROM ratings").fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(
                |(player, variant, rating, rd, volatility, games, rated_at)| {
                    (
                        (player, variant.clone()),
                        crate::RatingRow {
                            variant,
                            rating: Rating {
                                rating,
                                rd,
                                volatility,
                            },
                            games,
                            rated_at,
                        },
                    )
                },
            )
            .collect())
    }

    /// Rated games a player played (whatever their result).
    ///
    /// Fails on a database error.
    pub async fn rated_games_of(&self, player_id: &str) -> Result<i64, StoreError> {
        on_pool!(self, pool => sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE rated = 1 AND (white_id = $1 OR black_id = $1)")
            .bind(player_id).fetch_one(pool).await)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, white: &str, black: &str, result: &str, at: i64) -> RatedGame {
        RatedGame {
            id: id.into(),
            variant: "russian".into(),
            white_id: white.into(),
            black_id: black.into(),
            result: result.into(),
            ended_at: at,
        }
    }

    #[test]
    fn the_replay_rates_as_the_writer_does_game_by_game() {
        let day = 86_400_000;
        let r = replay(vec![
            game("g1", "a", "b", "black", day),
            game("g2", "b", "c", "draw", 3 * day),
            game("g3", "a", "c", "white", 10 * day),
        ]);
        let g = Glicko2::default();
        // g1: both new.
        let (a1, b1) = g.game(Rating::NEW, Rating::NEW, Outcome::Loss);
        // g2: b's RD widened for two days, c new.
        let (b2, c2) = g.game(b1.at(day, 3 * day), Rating::NEW, Outcome::Draw);
        // g3: a's widened for nine days, c's for seven.
        let (a3, c3) = g.game(a1.at(day, 10 * day), c2.at(3 * day, 10 * day), Outcome::Win);
        let get = |p: &str| r.ratings[&(p.to_owned(), "russian".to_owned())];
        assert_eq!(get("a").rating, a3);
        assert_eq!(get("b").rating, b2);
        assert_eq!(get("c").rating, c3);
        assert_eq!((get("a").games, get("b").games, get("c").games), (2, 2, 2));
        assert_eq!(get("a").rated_at, 10 * day);
        assert_eq!(r.history.len(), 6);
        assert_eq!(r.history[0].0, "g1");
    }
}
