//! Puzzles (issue 37): an account's puzzle rating per variant, the puzzles it has played,
//! and each puzzle's own rating. The puzzles are data in the repository
//! (`bot::puzzle::starter_set`); only what players do with them is stored.

use damka_rating::Rating;
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::ratings::RatingRow;
use super::write::Write;
use super::{Store, StoreError, on_pool};

const PLAYER: &str = "INSERT INTO puzzle_ratings (player_id, variant, rating, rd, volatility, \
    games, rated_at) VALUES ($1, $2, $3, $4, $5, 1, $6) ON CONFLICT (player_id, variant) \
    DO UPDATE SET rating = excluded.rating, rd = excluded.rd, volatility = \
    excluded.volatility, games = puzzle_ratings.games + 1, rated_at = excluded.rated_at";

const ATTEMPT: &str = "INSERT INTO puzzle_attempts (player_id, puzzle_id, solved, at) \
    VALUES ($1, $2, $3, $4) ON CONFLICT (player_id, puzzle_id) DO NOTHING";

const STATS: &str = "INSERT INTO puzzle_stats (puzzle_id, rating, rd, volatility, plays, \
    solved) VALUES ($1, $2, $3, $4, 1, $5) ON CONFLICT (puzzle_id) DO UPDATE SET \
    rating = excluded.rating, rd = excluded.rd, volatility = excluded.volatility, \
    plays = puzzle_stats.plays + 1, solved = puzzle_stats.solved + excluded.solved";

/// A puzzle's rating as its solvers moved it.
#[derive(Debug, Clone, PartialEq)]
pub struct PuzzleStatsRow {
    /// The puzzle.
    pub puzzle_id: String,
    /// Its rating now.
    pub rating: Rating,
    /// Times played (first tries of accounts and guests).
    pub plays: i64,
    /// Times solved at the first try.
    pub solved: i64,
}

#[derive(sqlx::FromRow)]
struct RawStats {
    puzzle_id: String,
    rating: f64,
    rd: f64,
    volatility: f64,
    plays: i64,
    solved: i64,
}

#[derive(sqlx::FromRow)]
struct RawPuzzleRating {
    rating: f64,
    rd: f64,
    volatility: f64,
    games: i64,
    rated_at: i64,
}

/// A puzzle's result.
#[derive(Debug, Clone)]
pub enum PuzzleWrite {
    /// A puzzle played: the account's attempt and new puzzle rating (`player_id` given),
    /// and the puzzle's new rating (a guest's try moves it too).
    Result {
        /// The account, if it is one (a guest's rating is not stored).
        player_id: Option<String>,
        /// The variant.
        variant: String,
        /// The puzzle.
        puzzle_id: String,
        /// Solved at the first try.
        solved: bool,
        /// The account's puzzle rating after it.
        player: Rating,
        /// The puzzle's rating after it.
        puzzle: Rating,
        /// Unix ms.
        now: i64,
    },
    /// A puzzle found in an analysed game (kept once per variant and position).
    Found(GamePuzzleRow),
}

/// A puzzle found in an analysed game (migration 0022).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GamePuzzleRow {
    /// Its id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The position, the solver to move.
    pub fen: String,
    /// The solution, a JSON array of moves.
    pub line: String,
    /// Its themes, a JSON array.
    pub themes: String,
    /// Its initial rating.
    pub rating: i64,
    /// The game it comes from.
    pub game_id: String,
    /// The ply after which the position stood.
    pub ply: i64,
    /// Unix ms.
    pub created_at: i64,
}

const FOUND: &str = "INSERT INTO game_puzzles (id, variant, fen, line, themes, rating, game_id, \
    ply, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING";

impl From<PuzzleWrite> for Write {
    fn from(write: PuzzleWrite) -> Write {
        Write::Puzzle(Box::new(write))
    }
}

macro_rules! apply_puzzle {
    ($conn:expr, $write:expr) => {
        match $write {
            PuzzleWrite::Result {
                player_id,
                variant,
                puzzle_id,
                solved,
                player,
                puzzle,
                now,
            } => {
                if let Some(id) = player_id {
                    sqlx::query(PLAYER)
                        .bind(id)
                        .bind(variant)
                        .bind(player.rating)
                        .bind(player.rd)
                        .bind(player.volatility)
                        .bind(now)
                        .execute(&mut *$conn)
                        .await?;
                    sqlx::query(ATTEMPT)
                        .bind(id)
                        .bind(puzzle_id)
                        .bind(i64::from(*solved))
                        .bind(now)
                        .execute(&mut *$conn)
                        .await?;
                }
                sqlx::query(STATS)
                    .bind(puzzle_id)
                    .bind(puzzle.rating)
                    .bind(puzzle.rd)
                    .bind(puzzle.volatility)
                    .bind(i64::from(*solved))
                    .execute(&mut *$conn)
                    .await?;
            }
            PuzzleWrite::Found(r) => {
                sqlx::query(FOUND)
                    .bind(&r.id)
                    .bind(&r.variant)
                    .bind(&r.fen)
                    .bind(&r.line)
                    .bind(&r.themes)
                    .bind(r.rating)
                    .bind(&r.game_id)
                    .bind(r.ply)
                    .bind(r.created_at)
                    .execute(&mut *$conn)
                    .await?;
            }
        }
    };
}

/// Applies a puzzle write on SQLite.
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &PuzzleWrite,
) -> Result<(), sqlx::Error> {
    apply_puzzle!(conn, write);
    Ok(())
}

/// Applies a puzzle write on PostgreSQL.
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &PuzzleWrite,
) -> Result<(), sqlx::Error> {
    apply_puzzle!(conn, write);
    Ok(())
}

impl Store {
    /// Stores a puzzle's result.
    ///
    /// Fails on a database error.
    pub async fn puzzle_write(&self, write: PuzzleWrite) -> Result<(), StoreError> {
        self.write(write.into()).await
    }

    /// An account's puzzle rating in a variant, if it has played one there.
    ///
    /// Fails on a database error.
    pub async fn puzzle_rating(
        &self,
        player_id: &str,
        variant: &str,
    ) -> Result<Option<RatingRow>, StoreError> {
        const SQL: &str = "SELECT rating, rd, volatility, games, rated_at FROM puzzle_ratings \
            WHERE player_id = $1 AND variant = $2";
        let row: Option<RawPuzzleRating> = on_pool!(self, pool => sqlx::query_as(SQL)
            .bind(player_id).bind(variant).fetch_optional(pool).await)?;
        Ok(row.map(|r| RatingRow {
            variant: variant.to_owned(),
            rating: Rating {
                rating: r.rating,
                rd: r.rd,
                volatility: r.volatility,
            },
            games: r.games,
            rated_at: r.rated_at,
        }))
    }

    /// The puzzles an account has played whose id starts with `prefix`.
    ///
    /// Fails on a database error.
    pub async fn puzzles_played(
        &self,
        player_id: &str,
        prefix: &str,
    ) -> Result<Vec<String>, StoreError> {
        const SQL: &str = "SELECT puzzle_id FROM puzzle_attempts WHERE player_id = $1 \
            AND puzzle_id LIKE $2";
        on_pool!(self, pool => sqlx::query_scalar(SQL)
            .bind(player_id).bind(format!("{prefix}%")).fetch_all(pool).await)
    }

    /// The puzzles found in analysed games, oldest first.
    ///
    /// Fails on a database error.
    pub async fn game_puzzles(&self) -> Result<Vec<GamePuzzleRow>, StoreError> {
        const SQL: &str = "SELECT id, variant, fen, line, themes, rating, game_id, ply, \
            created_at FROM game_puzzles ORDER BY created_at, id";
        Ok(on_pool!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await)?)
    }

    /// Stores a puzzle found in a game (nothing when its position is kept already).
    ///
    /// Fails when the write fails.
    pub async fn add_game_puzzle(&self, row: GamePuzzleRow) -> Result<(), StoreError> {
        self.write(PuzzleWrite::Found(row).into()).await
    }

    /// Every puzzle's rating as stored (those played at least once).
    ///
    /// Fails on a database error.
    pub async fn puzzle_stats(&self) -> Result<Vec<PuzzleStatsRow>, StoreError> {
        const SQL: &str =
            "SELECT puzzle_id, rating, rd, volatility, plays, solved FROM puzzle_stats";
        let rows: Vec<RawStats> =
            on_pool!(self, pool => sqlx::query_as(SQL).fetch_all(pool).await)?;
        Ok(rows
            .into_iter()
            .map(|r| PuzzleStatsRow {
                puzzle_id: r.puzzle_id,
                rating: Rating {
                    rating: r.rating,
                    rd: r.rd,
                    volatility: r.volatility,
                },
                plays: r.plays,
                solved: r.solved,
            })
            .collect())
    }
}
