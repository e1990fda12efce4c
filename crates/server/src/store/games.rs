//! Games and their moves. A move row is written (and committed) before the move is
//! acknowledged; the game row holds the players, options and, at the end, the result.

use super::write::Write;
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

/// The draw offer of a running game, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, sqlx::FromRow)]
pub struct DrawOfferRow {
    /// `white` or `black`: the side whose offer was made last and not explicitly
    /// declined. A later move by the other side declines it too; that is not written here
    /// but worked out from the moves when the game is resumed.
    pub draw_offer: Option<String>,
    /// White's ply count at its last offer (the offer rate limit).
    pub white_offer_ply: Option<i64>,
    /// Black's ply count at its last offer.
    pub black_offer_ply: Option<i64>,
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
        self.write(Write::Game(Box::new(game.clone()))).await
    }

    /// Appends one move; it is durable when this returns `Ok`.
    ///
    /// Fails on a database error, including a second row for the same ply.
    pub async fn append_move(&self, game_id: &str, m: &MoveRow) -> Result<(), sqlx::Error> {
        self.write(Write::Move {
            game_id: game_id.to_owned(),
            row: m.clone(),
        })
        .await
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
        self.write(Write::Finish {
            game_id: game_id.to_owned(),
            result: result.map(str::to_owned),
            reason: reason.to_owned(),
            clock,
            ended_at,
        })
        .await
    }

    /// Appends the move that ends a game and marks the game over, in one transaction.
    pub async fn append_last_move(
        &self,
        game_id: &str,
        m: &MoveRow,
        result: Option<&str>,
        reason: &str,
        clock: (i64, i64, i64),
        ended_at: i64,
    ) -> Result<(), sqlx::Error> {
        self.write(Write::LastMove {
            game_id: game_id.to_owned(),
            row: m.clone(),
            result: result.map(str::to_owned),
            reason: reason.to_owned(),
            clock,
            ended_at,
        })
        .await
    }

    /// Saves the live clock of a running game, and what is left of its first-move
    /// window if one applies (graceful shutdown).
    pub async fn save_clock(
        &self,
        game_id: &str,
        clock: (i64, i64, i64),
        first_move_ms: Option<i64>,
    ) -> Result<(), sqlx::Error> {
        self.write(Write::Clock {
            game_id: game_id.to_owned(),
            clock,
            first_move_ms,
        })
        .await
    }

    /// What was left of a game's first-move window at the last graceful shutdown.
    pub async fn first_move_ms(&self, game_id: &str) -> Result<Option<i64>, sqlx::Error> {
        const SQL: &str = "SELECT first_move_ms FROM games WHERE id = $1";
        let row: Option<(Option<i64>,)> = on_pool!(self, pool => sqlx::query_as(SQL)
            .bind(game_id)
            .fetch_optional(pool)
            .await)?;
        Ok(row.and_then(|r| r.0))
    }

    /// Saves a running game's draw offer; it is durable when this returns `Ok`.
    pub async fn save_draw_offer(
        &self,
        game_id: &str,
        offer: DrawOfferRow,
    ) -> Result<(), sqlx::Error> {
        self.write(Write::DrawOffer {
            game_id: game_id.to_owned(),
            offer,
        })
        .await
    }

    /// A game's stored draw offer (all `None` when none was ever made).
    pub async fn draw_offer(&self, game_id: &str) -> Result<DrawOfferRow, sqlx::Error> {
        const SQL: &str =
            "SELECT draw_offer, white_offer_ply, black_offer_ply FROM games WHERE id = $1";
        let row = on_pool!(self, pool => sqlx::query_as::<_, DrawOfferRow>(SQL)
            .bind(game_id)
            .fetch_optional(pool)
            .await)?;
        Ok(row.unwrap_or_default())
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

    /// Recent finished games of a room, newest first, with their ply counts. Aborted games
    /// are left out: nobody played them, and a list of them would bury the real games.
    pub async fn recent_games(
        &self,
        room: &str,
        limit: i64,
    ) -> Result<Vec<(GameRow, i64)>, sqlx::Error> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, (SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) \
             AS plies FROM games WHERE room = $1 AND status = 'over' \
             AND reason <> 'aborted' ORDER BY ended_at DESC LIMIT $2"
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
