//! Ratings: one Glicko-2 rating per player and variant ([`damka_rating`]), its history,
//! and the update of a rated game, made in the transaction that stores the game's end.
//!
//! The update reads both players' ratings inside that transaction (PostgreSQL locks the
//! rows, `FOR UPDATE`: two nodes ending two games of one player take turns; SQLite has one
//! writer), rates the game as its own period after widening each RD for the time since
//! that player's last rated game, and writes both ratings and both history rows. So a
//! crash never leaves one rating changed and not the other, nor a rating changed for an
//! end that was not stored.

use damka_protocol::GameResult;
use damka_rating::{Glicko2, Outcome, Rating};
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::{Store, StoreError, on_pool};

/// What a test makes the writer do (set through [`crate::StoreOptions`], per store;
/// nothing in production).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hooks {
    /// Abort the process (as a `kill -9` would stop it) after a rated game's end is
    /// written and before its ratings are, inside the same transaction: a test shows
    /// that the two cannot come apart.
    pub abort_before_ratings: bool,
}

/// A player's stored rating in one variant.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingRow {
    /// The variant's wire name.
    pub variant: String,
    /// The rating as of its last rated game (widen the RD to now with
    /// [`Rating::at`]).
    pub rating: Rating,
    /// Rated games played in the variant.
    pub games: i64,
    /// Unix ms of the last rated game.
    pub rated_at: i64,
}

impl RatingRow {
    /// The rating as it stands at `now` (Unix ms): the RD widened for the time since the
    /// last rated game.
    pub fn now(&self, now: i64) -> Rating {
        self.rating.at(self.rated_at, now)
    }
}

#[derive(sqlx::FromRow)]
struct RawRating {
    player_id: String,
    variant: String,
    rating: f64,
    rd: f64,
    volatility: f64,
    games: i64,
    rated_at: i64,
}

impl RawRating {
    fn row(self) -> (String, RatingRow) {
        (
            self.player_id,
            RatingRow {
                variant: self.variant,
                rating: Rating {
                    rating: self.rating,
                    rd: self.rd,
                    volatility: self.volatility,
                },
                games: self.games,
                rated_at: self.rated_at,
            },
        )
    }
}

/// One player's change in one rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChange {
    /// The rating before the game (its RD widened to the game's end).
    pub before: Rating,
    /// The rating after it.
    pub after: Rating,
}

/// Both players' changes in one rated game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingChanges {
    /// White's.
    pub white: RatingChange,
    /// Black's.
    pub black: RatingChange,
}

/// What a rated game's end needs to rate it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RatedEnd {
    /// The variant's wire name.
    pub variant: String,
    /// White's player id.
    pub white_id: String,
    /// Black's player id.
    pub black_id: String,
}

impl RatedEnd {
    /// A rated end of a game between these players.
    pub fn new(variant: &str, white_id: &str, black_id: &str) -> RatedEnd {
        RatedEnd {
            variant: variant.to_owned(),
            white_id: white_id.to_owned(),
            black_id: black_id.to_owned(),
        }
    }
}

const RATING_COLUMNS: &str = "player_id, variant, rating, rd, volatility, games, rated_at";

const UPSERT_RATING: &str = "INSERT INTO ratings (player_id, variant, rating, rd, volatility, \
    games, rated_at) VALUES ($1, $2, $3, $4, $5, 1, $6) \
    ON CONFLICT (player_id, variant) DO UPDATE SET rating = excluded.rating, rd = excluded.rd, \
    volatility = excluded.volatility, games = ratings.games + 1, rated_at = excluded.rated_at";

const INSERT_NEW_RATING: &str = "INSERT INTO ratings (player_id, variant, rating, rd, \
    volatility, games, rated_at) VALUES ($1, $2, $3, $4, $5, 0, $6) \
    ON CONFLICT (player_id, variant) DO NOTHING";

const INSERT_HISTORY: &str = "INSERT INTO rating_history (game_id, player_id, variant, at, \
    rating_before, rating_after, rd) VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Rates a game that ended with `result` at `at` (Unix ms) inside the caller's
/// transaction; `$lock` is the backend's row-lock suffix of the read.
macro_rules! rate_game {
    ($conn:expr, $lock:expr, $game_id:expr, $rated:expr, $result:expr, $at:expr, $hooks:expr) => {{
        if $hooks.abort_before_ratings {
            tracing::error!("test hook: aborting between a rated game's end and its ratings");
            std::process::abort();
        }
        // Both rows made first (a new player's, as Glicko-2's start), in id order: the
        // lock below then always has rows to lock, so two games of a player's first
        // rated games ending at once take turns instead of both rating from nothing
        // (PostgreSQL's `FOR UPDATE` locks no row that does not exist yet).
        let mut ids = [&$rated.white_id, &$rated.black_id];
        ids.sort();
        for id in ids {
            sqlx::query(INSERT_NEW_RATING)
                .bind(id)
                .bind(&$rated.variant)
                .bind(Rating::NEW.rating)
                .bind(Rating::NEW.rd)
                .bind(Rating::NEW.volatility)
                .bind($at)
                .execute(&mut *$conn)
                .await?;
        }
        let sql = format!(
            "SELECT {RATING_COLUMNS} FROM ratings WHERE variant = $1 AND player_id IN ($2, $3) \
             ORDER BY player_id{}",
            $lock
        );
        let rows: Vec<RawRating> = sqlx::query_as(&sql)
            .bind(&$rated.variant)
            .bind(&$rated.white_id)
            .bind(&$rated.black_id)
            .fetch_all(&mut *$conn)
            .await?;
        let mut white = Rating::NEW;
        let mut black = Rating::NEW;
        for (id, row) in rows.into_iter().map(RawRating::row) {
            let now = row.now($at);
            if id == $rated.white_id {
                white = now;
            } else if id == $rated.black_id {
                black = now;
            }
        }
        let outcome = match $result {
            GameResult::White => Outcome::Win,
            GameResult::Black => Outcome::Loss,
            GameResult::Draw => Outcome::Draw,
        };
        let (w, b) = Glicko2::default().game(white, black, outcome);
        for (id, before, after) in [(&$rated.white_id, white, w), (&$rated.black_id, black, b)] {
            sqlx::query(UPSERT_RATING)
                .bind(id)
                .bind(&$rated.variant)
                .bind(after.rating)
                .bind(after.rd)
                .bind(after.volatility)
                .bind($at)
                .execute(&mut *$conn)
                .await?;
            sqlx::query(INSERT_HISTORY)
                .bind($game_id)
                .bind(id)
                .bind(&$rated.variant)
                .bind($at)
                .bind(before.rating)
                .bind(after.rating)
                .bind(after.rd)
                .execute(&mut *$conn)
                .await?;
        }
        RatingChanges {
            white: RatingChange {
                before: white,
                after: w,
            },
            black: RatingChange {
                before: black,
                after: b,
            },
        }
    }};
}

/// Rates a game on SQLite (the writer's one transaction).
pub(super) async fn rate_sqlite(
    conn: &mut SqliteConnection,
    game_id: &str,
    rated: &RatedEnd,
    result: GameResult,
    at: i64,
    hooks: Hooks,
) -> Result<RatingChanges, sqlx::Error> {
    Ok(rate_game!(conn, "", game_id, rated, result, at, hooks))
}

/// Rates a game on PostgreSQL, both rating rows locked (in id order, so two
/// transactions never wait on each other in a circle).
pub(super) async fn rate_postgres(
    conn: &mut PgConnection,
    game_id: &str,
    rated: &RatedEnd,
    result: GameResult,
    at: i64,
    hooks: Hooks,
) -> Result<RatingChanges, sqlx::Error> {
    Ok(rate_game!(
        conn,
        " FOR UPDATE",
        game_id,
        rated,
        result,
        at,
        hooks
    ))
}

/// One point of a player's rating history.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryPoint {
    /// The variant's wire name.
    pub variant: String,
    /// The game.
    pub game_id: String,
    /// Unix ms.
    pub at: i64,
    /// The rating before.
    pub before: f64,
    /// The rating after.
    pub after: f64,
}

#[derive(sqlx::FromRow)]
struct RawHistory {
    variant: String,
    game_id: String,
    at: i64,
    rating_before: f64,
    rating_after: f64,
}

/// A leaderboard's row.
#[derive(Debug, Clone, PartialEq)]
pub struct BoardRow {
    /// The player's id.
    pub player_id: String,
    /// The username.
    pub username: String,
    /// The stored rating.
    pub rating: RatingRow,
}

#[derive(sqlx::FromRow)]
struct RawBoard {
    username: String,
    #[sqlx(flatten)]
    rating: RawRating,
}

/// A player's results over finished games with a result (`$1` the player): the games as
/// White and as Black each read through their player's index (a game has a result only
/// once over; a one-screen game counts once, as White's).
pub(crate) const RESULT_COUNTS: &str = "SELECT COALESCE(SUM(won), 0), COALESCE(SUM(drawn), 0), \
     COALESCE(SUM(lost), 0), COALESCE(SUM(left_game), 0) FROM ( \
       SELECT CASE WHEN result = 'white' THEN 1 ELSE 0 END AS won, \
              CASE WHEN result = 'draw' THEN 1 ELSE 0 END AS drawn, \
              CASE WHEN result = 'black' THEN 1 ELSE 0 END AS lost, \
              CASE WHEN result = 'black' AND reason = 'abandoned' THEN 1 ELSE 0 END AS left_game \
       FROM games WHERE white_id = $1 AND result IS NOT NULL \
       UNION ALL \
       SELECT CASE WHEN result = 'black' THEN 1 ELSE 0 END, \
              CASE WHEN result = 'draw' THEN 1 ELSE 0 END, \
              CASE WHEN result = 'white' THEN 1 ELSE 0 END, \
              CASE WHEN result = 'white' AND reason = 'abandoned' THEN 1 ELSE 0 END \
       FROM games WHERE black_id = $1 AND white_id <> $1 AND result IS NOT NULL \
     ) AS r";

/// A player's micro-matches whose two games ended with a result: won (more than half of
/// the 2 points), drawn, lost. Points in halves (a won game 2, a draw 1).
pub(crate) const MATCH_COUNTS: &str = "SELECT COALESCE(SUM(CASE WHEN pts > 2 THEN 1 ELSE 0 END), 0), \
     COALESCE(SUM(CASE WHEN pts = 2 THEN 1 ELSE 0 END), 0), \
     COALESCE(SUM(CASE WHEN pts < 2 THEN 1 ELSE 0 END), 0) FROM ( \
       SELECT match_id, SUM(p) AS pts FROM ( \
         SELECT match_id, CASE WHEN result = 'white' THEN 2 WHEN result = 'draw' THEN 1 \
                ELSE 0 END AS p \
         FROM games WHERE white_id = $1 AND match_id IS NOT NULL AND result IS NOT NULL \
         UNION ALL \
         SELECT match_id, CASE WHEN result = 'black' THEN 2 WHEN result = 'draw' THEN 1 \
                ELSE 0 END \
         FROM games WHERE black_id = $1 AND white_id <> $1 AND match_id IS NOT NULL \
           AND result IS NOT NULL \
       ) AS g GROUP BY match_id HAVING COUNT(*) = 2 \
     ) AS m";

/// A player's micro-matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MatchCounts {
    /// Won.
    pub won: i64,
    /// Drawn (1–1).
    pub drawn: i64,
    /// Lost.
    pub lost: i64,
}

/// A player's results in games that ended with one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ResultCounts {
    /// Won.
    pub wins: i64,
    /// Drawn.
    pub draws: i64,
    /// Lost.
    pub losses: i64,
    /// Lost by leaving: the opponent claimed the game after the player stayed away.
    pub abandoned: i64,
}

impl Store {
    /// A player's ratings, one per variant played rated.
    ///
    /// Fails on a database error.
    pub async fn ratings_of(&self, player_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        let sql =
            format!("SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 ORDER BY variant");
        let rows: Vec<RawRating> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(player_id).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|r| r.row().1).collect())
    }

    /// A player's rating in one variant, if rated there.
    ///
    /// Fails on a database error.
    pub async fn rating_of(
        &self,
        player_id: &str,
        variant: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        let sql =
            format!("SELECT {RATING_COLUMNS} FROM ratings WHERE player_id = $1 AND variant = $2");
        let row: Option<RawRating> = on_pool!(self, pool => sqlx::query_as(&sql)
            .bind(player_id).bind(variant).fetch_optional(pool).await)?;
        Ok(row.map(|r| r.row().1))
    }

    /// The ratings of a variant whose stored RD is below `max_rd`, best first, at most
    /// `limit`, of enabled accounts (the caller widens the RDs to now and drops those
    /// that became provisional).
    ///
    /// Fails on a database error.
    pub async fn leaderboard(
        &self,
        variant: &str,
        max_rd: f64,
        limit: i64,
    ) -> Result<Vec<BoardRow>, StoreError> {
        let sql = "SELECT a.username, r.player_id, r.variant, r.rating, r.rd, r.volatility, \
             r.games, r.rated_at FROM ratings r JOIN accounts a ON a.player_id = r.player_id \
             WHERE r.variant = $1 AND r.rd < $2 AND a.disabled = 0 \
             ORDER BY r.rating DESC, a.username LIMIT $3";
        let rows: Vec<RawBoard> = on_pool!(self, pool => sqlx::query_as(sql)
            .bind(variant).bind(max_rd).bind(limit).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|b| {
                let (player_id, rating) = b.rating.row();
                BoardRow {
                    player_id,
                    username: b.username,
                    rating,
                }
            })
            .collect())
    }

    /// The ratings of a variant whose stored RD is `min_rd` or more (provisional) and
    /// that have at least one rated game, best first, at most `limit`, of enabled
    /// accounts: the leaderboard's list below the line, while few are established.
    ///
    /// Fails on a database error.
    pub async fn provisional_board(
        &self,
        variant: &str,
        min_rd: f64,
        limit: i64,
    ) -> Result<Vec<BoardRow>, StoreError> {
        let sql = "SELECT a.username, r.player_id, r.variant, r.rating, r.rd, r.volatility, \
             r.games, r.rated_at FROM ratings r JOIN accounts a ON a.player_id = r.player_id \
             WHERE r.variant = $1 AND r.rd >= $2 AND r.games > 0 AND a.disabled = 0 \
             ORDER BY r.rating DESC, a.username LIMIT $3";
        let rows: Vec<RawBoard> = on_pool!(self, pool => sqlx::query_as(sql)
            .bind(variant).bind(min_rd).bind(limit).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|b| {
                let (player_id, rating) = b.rating.row();
                BoardRow {
                    player_id,
                    username: b.username,
                    rating,
                }
            })
            .collect())
    }

    /// A player's rating history, oldest first (at most the last `limit` points per
    /// variant are wanted; this returns at most `limit` points overall per call).
    ///
    /// Fails on a database error.
    pub async fn rating_history(
        &self,
        player_id: &str,
        limit: i64,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let sql = "SELECT variant, game_id, at, rating_before, rating_after FROM ( \
             SELECT variant, game_id, at, rating_before, rating_after FROM rating_history \
             WHERE player_id = $1 ORDER BY at DESC LIMIT $2) AS h ORDER BY at";
        let rows: Vec<RawHistory> = on_pool!(self, pool => sqlx::query_as(sql)
            .bind(player_id).bind(limit).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|h| HistoryPoint {
                variant: h.variant,
                game_id: h.game_id,
                at: h.at,
                before: h.rating_before,
                after: h.rating_after,
            })
            .collect())
    }

    /// The changes a rated game made, if it was rated: `(player id, before, after)`.
    ///
    /// Fails on a database error.
    pub async fn game_rating_changes(
        &self,
        game_id: &str,
    ) -> Result<Vec<(String, f64, f64)>, StoreError> {
        on_pool!(self, pool => sqlx::query_as::<_, (String, f64, f64)>(
            "SELECT player_id, rating_before, rating_after FROM rating_history WHERE game_id = $1")
            .bind(game_id).fetch_all(pool).await)
    }

    /// Rated games between two players started at or after `since` (Unix ms), aborted
    /// ones (never rated) aside.
    ///
    /// Fails on a database error.
    pub async fn rated_games_between(
        &self,
        a: &str,
        b: &str,
        since: i64,
    ) -> Result<i64, StoreError> {
        let sql = "SELECT COUNT(*) FROM games WHERE rated = 1 AND started_at >= $3 \
             AND ((white_id = $1 AND black_id = $2) OR (white_id = $2 AND black_id = $1)) \
             AND (reason IS NULL OR reason <> 'aborted')";
        on_pool!(self, pool => sqlx::query_scalar(sql)
            .bind(a).bind(b).bind(since).fetch_one(pool).await)
    }

    /// A player's micro-matches whose two games ended with a result, from the
    /// player-column indexes.
    ///
    /// Fails on a database error.
    pub async fn match_counts(&self, player_id: &str) -> Result<MatchCounts, StoreError> {
        let (won, drawn, lost): (i64, i64, i64) = on_pool!(self, pool =>
            sqlx::query_as(MATCH_COUNTS).bind(player_id).fetch_one(pool).await)?;
        Ok(MatchCounts { won, drawn, lost })
    }

    /// A player's results over finished games with a result.
    ///
    /// Fails on a database error.
    pub async fn result_counts(&self, player_id: &str) -> Result<ResultCounts, StoreError> {
        let sql = RESULT_COUNTS;
        let (wins, draws, losses, abandoned): (i64, i64, i64, i64) =
            on_pool!(self, pool => sqlx::query_as(sql).bind(player_id).fetch_one(pool).await)?;
        Ok(ResultCounts {
            wins,
            draws,
            losses,
            abandoned,
        })
    }
}
