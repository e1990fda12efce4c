//! Games and their moves. A move row is written (and committed) before the move is
//! acknowledged; the game row holds the players, options and, at the end, the result.

use super::{Store, on_pool};

/// A stored move (one ply).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct MoveRow {
    /// Ply from 1.
    pub ply: i64,
    /// The move, full path.
    pub mv: String,
    /// Position after the move.
    pub fen_after: String,
    /// White's remaining ms after the move.
    pub white_ms: i64,
    /// Black's remaining ms after the move.
    pub black_ms: i64,
    /// Time the mover used, ms.
    pub used_ms: i64,
}

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// The table it was played at.
    pub table_id: String,
    /// Room id.
    pub room: String,
    /// Variant id.
    pub variant: String,
    /// Minutes per player.
    pub minutes: i64,
    /// Increment, seconds.
    pub increment_s: i64,
    /// 1 when the game began with a random opening.
    pub random_opening: i64,
    /// 1 when capturing was optional.
    pub capture_optional: i64,
    /// White's guest id.
    pub white_id: String,
    /// White's name when the game started.
    pub white_name: String,
    /// Black's guest id.
    pub black_id: String,
    /// Black's name when the game started.
    pub black_name: String,
    /// Position before ply 1.
    pub initial_fen: String,
    /// Random-opening plies among the moves.
    pub opening_plies: i64,
    /// `playing` or `over`.
    pub status: String,
    /// `white`, `black`, `draw` or NULL.
    pub result: Option<String>,
    /// End reason or NULL.
    pub reason: Option<String>,
    /// White's remaining ms as of `clock_ply`.
    pub white_ms: i64,
    /// Black's remaining ms as of `clock_ply`.
    pub black_ms: i64,
    /// The ply count the clock snapshot belongs to.
    pub clock_ply: i64,
    /// Unix ms.
    pub started_at: i64,
    /// Unix ms, NULL while playing.
    pub ended_at: Option<i64>,
}

/// A game to store at its start, with its random-opening plies.
#[derive(Debug, Clone)]
pub struct NewGame {
    /// The game row (status `playing`).
    pub row: GameRow,
    /// Opening plies, stored as the first moves.
    pub opening: Vec<MoveRow>,
}

const GAME_COLUMNS: &str = "id, table_id, room, variant, minutes, increment_s, random_opening, \
    capture_optional, white_id, white_name, black_id, black_name, initial_fen, opening_plies, \
    status, result, reason, white_ms, black_ms, clock_ply, started_at, ended_at";

impl Store {
    /// Stores a new game and its opening plies in one transaction.
    pub async fn insert_game(&self, game: &NewGame) -> Result<(), sqlx::Error> {
        let sql = format!(
            "INSERT INTO games ({GAME_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \
             $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"
        );
        let g = &game.row;
        // SQLite: take the write lock up front (`BEGIN IMMEDIATE`), so two tables starting
        // games at once queue on the busy timeout instead of failing to upgrade a lock.
        let begin = match self {
            Store::Sqlite(..) => "BEGIN IMMEDIATE",
            Store::Postgres(_) => "BEGIN",
        };
        on_pool!(self, pool => {
            let mut tx = pool.begin_with(begin).await?;
            sqlx::query(&sql)
                .bind(&g.id).bind(&g.table_id).bind(&g.room).bind(&g.variant)
                .bind(g.minutes).bind(g.increment_s).bind(g.random_opening)
                .bind(g.capture_optional).bind(&g.white_id).bind(&g.white_name)
                .bind(&g.black_id).bind(&g.black_name).bind(&g.initial_fen)
                .bind(g.opening_plies).bind(&g.status).bind(&g.result).bind(&g.reason)
                .bind(g.white_ms).bind(g.black_ms).bind(g.clock_ply).bind(g.started_at)
                .bind(g.ended_at)
                .execute(&mut *tx).await?;
            for m in &game.opening {
                sqlx::query(INSERT_MOVE)
                    .bind(&g.id).bind(m.ply).bind(&m.mv).bind(&m.fen_after)
                    .bind(m.white_ms).bind(m.black_ms).bind(m.used_ms)
                    .execute(&mut *tx).await?;
            }
            tx.commit().await
        })
    }

    /// Appends one move; it is durable when this returns `Ok`.
    ///
    /// Fails on a database error, including a second row for the same ply.
    pub async fn append_move(&self, game_id: &str, m: &MoveRow) -> Result<(), sqlx::Error> {
        if let Store::Sqlite(_, writer) = self {
            return writer.append(game_id, m).await;
        }
        on_pool!(self, pool => sqlx::query(INSERT_MOVE)
            .bind(game_id).bind(m.ply).bind(&m.mv).bind(&m.fen_after)
            .bind(m.white_ms).bind(m.black_ms).bind(m.used_ms)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Marks a game over with its result and final clocks.
    pub async fn finish_game(
        &self,
        game_id: &str,
        result: Option<&str>,
        reason: &str,
        clock: (i64, i64, i64),
        ended_at: i64,
    ) -> Result<(), sqlx::Error> {
        const SQL: &str = "UPDATE games SET status = 'over', result = $2, reason = $3, \
            white_ms = $4, black_ms = $5, clock_ply = $6, ended_at = $7 WHERE id = $1";
        on_pool!(self, pool => sqlx::query(SQL)
            .bind(game_id).bind(result).bind(reason)
            .bind(clock.0).bind(clock.1).bind(clock.2).bind(ended_at)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Saves the live clock of a running game (graceful shutdown).
    pub async fn save_clock(
        &self,
        game_id: &str,
        clock: (i64, i64, i64),
    ) -> Result<(), sqlx::Error> {
        const SQL: &str = "UPDATE games SET white_ms = $2, black_ms = $3, clock_ply = $4 WHERE id = $1 AND status = 'playing'";
        on_pool!(self, pool => sqlx::query(SQL)
            .bind(game_id).bind(clock.0).bind(clock.1).bind(clock.2)
            .execute(pool).await.map(|_| ()))?;
        Ok(())
    }

    /// Every game still being played (to recreate their tables at start-up).
    pub async fn unfinished_games(&self) -> Result<Vec<GameRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status = 'playing' ORDER BY started_at"
        );
        on_pool!(self, pool => sqlx::query_as::<_, GameRow>(&sql).fetch_all(pool).await)
    }

    /// One game.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, sqlx::Error> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        on_pool!(self, pool => sqlx::query_as::<_, GameRow>(&sql).bind(id).fetch_optional(pool).await)
    }

    /// The moves of a game in ply order.
    pub async fn moves(&self, game_id: &str) -> Result<Vec<MoveRow>, sqlx::Error> {
        const SQL: &str = "SELECT ply, mv, fen_after, white_ms, black_ms, used_ms FROM moves \
                           WHERE game_id = $1 ORDER BY ply";
        on_pool!(self, pool => sqlx::query_as::<_, MoveRow>(SQL).bind(game_id).fetch_all(pool).await)
    }

    /// Recent finished games of a room, newest first, with their ply counts.
    pub async fn recent_games(
        &self,
        room: &str,
        limit: i64,
    ) -> Result<Vec<(GameRow, i64)>, sqlx::Error> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) \
             AS plies FROM games WHERE room = $1 AND status = 'over' \
             ORDER BY ended_at DESC LIMIT $2"
        );
        let rows = on_pool!(self, pool => sqlx::query_as::<_, GameListRow>(&sql)
            .bind(room).bind(limit).fetch_all(pool).await)?;
        Ok(rows.into_iter().map(|r| (r.game, r.plies)).collect())
    }
}

/// A game row with its ply count.
#[derive(sqlx::FromRow)]
struct GameListRow {
    /// The game.
    #[sqlx(flatten)]
    game: GameRow,
    /// Number of stored moves.
    plies: i64,
}

pub(super) const INSERT_MOVE: &str = "INSERT INTO moves (game_id, ply, mv, fen_after, white_ms, black_ms, \
    used_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)";
