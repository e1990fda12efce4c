//! Games and their moves. A move row is written (and committed) before the move is
//! acknowledged; the game row holds the players, options and, at the end, the result.

use std::collections::HashMap;

use damka_protocol::{EndReason, GameResult, GameStatus, Side};

use super::write::Write;
use super::{RatingChanges, Store, StoreError, on_pool};

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

/// The clocks stored with a game: both sides' remaining ms as of a ply.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ClockRow {
    /// White's remaining ms.
    pub white_ms: i64,
    /// Black's remaining ms.
    pub black_ms: i64,
    /// The ply count the snapshot belongs to.
    pub ply: i64,
}

/// A stored game.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// A correspondence game: days per move (`minutes` and `increment_s` are 0); `None`
    /// for a live game.
    pub days: Option<i64>,
    /// Whether the game began with a random opening.
    pub random_opening: bool,
    /// Whether capturing was optional.
    pub capture_optional: bool,
    /// Whether the game is rated (both players accounts; ratings change at its end).
    pub rated: bool,
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
    /// The id of the opening ballot the game started from (`initial_fen` is its
    /// position), if any.
    pub ballot: Option<String>,
    /// The table draws a new ballot for each game (`"ballot": "random"`).
    pub ballot_random: bool,
    /// The micro-match the game belongs to, and which of its games it is.
    pub micro_match: Option<MatchSlot>,
    /// Being played or over.
    pub status: GameStatus,
    /// The result, once over with one (`None` for an aborted game, or while playing).
    pub result: Option<GameResult>,
    /// Why it ended, once over.
    pub reason: Option<EndReason>,
    /// The latest stored clocks.
    pub clock: ClockRow,
    /// Unix ms.
    pub started_at: i64,
    /// Unix ms, once over.
    pub ended_at: Option<i64>,
}

/// A game's place in a micro-match.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MatchSlot {
    /// The match's id: the id of its first game.
    pub id: String,
    /// Which game of the match: 1 or 2.
    pub game: i64,
}

/// A game row as the database holds it (text and integer columns).
#[derive(sqlx::FromRow)]
pub(crate) struct RawGame {
    id: String,
    table_id: String,
    room: String,
    variant: String,
    minutes: i64,
    increment_s: i64,
    random_opening: i64,
    capture_optional: i64,
    rated: i64,
    white_id: String,
    white_name: String,
    black_id: String,
    black_name: String,
    initial_fen: String,
    opening_plies: i64,
    ballot: Option<String>,
    ballot_random: i64,
    match_id: Option<String>,
    match_game: Option<i64>,
    days: Option<i64>,
    status: String,
    result: Option<String>,
    reason: Option<String>,
    white_ms: i64,
    black_ms: i64,
    clock_ply: i64,
    started_at: i64,
    ended_at: Option<i64>,
}

impl TryFrom<RawGame> for GameRow {
    type Error = StoreError;

    fn try_from(r: RawGame) -> Result<GameRow, StoreError> {
        let bad = |what: &str, v: &str| StoreError::Corrupt(format!("game {}: {what} {v:?}", r.id));
        let status = GameStatus::from_name(&r.status).ok_or_else(|| bad("status", &r.status))?;
        let result = match r.result.as_deref() {
            None => None,
            Some(v) => Some(GameResult::from_name(v).ok_or_else(|| bad("result", v))?),
        };
        let reason = match r.reason.as_deref() {
            None => None,
            Some(v) => Some(EndReason::from_name(v).ok_or_else(|| bad("reason", v))?),
        };
        let micro_match = match (r.match_id, r.match_game) {
            (Some(id), Some(game)) => Some(MatchSlot { id, game }),
            (None, None) => None,
            _ => return Err(bad("micro-match", "half of it")),
        };
        Ok(GameRow {
            id: r.id,
            table_id: r.table_id,
            room: r.room,
            variant: r.variant,
            minutes: r.minutes,
            increment_s: r.increment_s,
            days: r.days,
            random_opening: r.random_opening != 0,
            capture_optional: r.capture_optional != 0,
            rated: r.rated != 0,
            white_id: r.white_id,
            white_name: r.white_name,
            black_id: r.black_id,
            black_name: r.black_name,
            initial_fen: r.initial_fen,
            opening_plies: r.opening_plies,
            ballot: r.ballot,
            ballot_random: r.ballot_random != 0,
            micro_match,
            status,
            result,
            reason,
            clock: ClockRow {
                white_ms: r.white_ms,
                black_ms: r.black_ms,
                ply: r.clock_ply,
            },
            started_at: r.started_at,
            ended_at: r.ended_at,
        })
    }
}

/// The draw offer of a running game, as stored.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DrawOfferRow {
    /// The side whose offer was made last and not explicitly declined. A later move by
    /// the other side declines it too; that is not written here but worked out from the
    /// moves when the game is resumed.
    pub draw_offer: Option<Side>,
    /// White's ply count at its last offer (the offer rate limit).
    pub white_offer_ply: Option<i64>,
    /// Black's ply count at its last offer.
    pub black_offer_ply: Option<i64>,
}

/// The draw offer as the database holds it.
#[derive(sqlx::FromRow)]
struct RawDrawOffer {
    draw_offer: Option<String>,
    white_offer_ply: Option<i64>,
    black_offer_ply: Option<i64>,
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
    capture_optional, rated, white_id, white_name, black_id, black_name, initial_fen, opening_plies, \
    status, result, reason, white_ms, black_ms, clock_ply, started_at, ended_at, ballot, \
    ballot_random, match_id, match_game, days";

impl Store {
    /// Stores a new game and its opening plies in one transaction.
    ///
    /// Fails on a database error.
    pub async fn insert_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.write(Write::Game(Box::new(game.clone()))).await
    }

    /// Appends one move; it is durable when this returns `Ok`.
    ///
    /// Fails on a database error, including a second row for the same ply
    /// ([`StoreError::Conflict`]).
    pub async fn append_move(&self, game_id: &str, m: &MoveRow) -> Result<(), StoreError> {
        self.write(Write::Move {
            game_id: game_id.to_owned(),
            row: m.clone(),
        })
        .await
    }

    /// Marks a game over with its result and final clocks; a rated one is rated in the
    /// same transaction, and its rating changes returned.
    ///
    /// Fails on a database error (then nothing is stored).
    pub async fn finish_game(
        &self,
        game_id: &str,
        end: GameEnd,
    ) -> Result<Option<RatingChanges>, StoreError> {
        self.write_reporting(Write::Finish {
            game_id: game_id.to_owned(),
            end,
        })
        .await
    }

    /// Appends the move that ends a game and marks the game over, in one transaction (a
    /// rated game rated in it too: its rating changes returned).
    ///
    /// Fails on a database error (then neither is stored).
    pub async fn append_last_move(
        &self,
        game_id: &str,
        m: &MoveRow,
        end: GameEnd,
    ) -> Result<Option<RatingChanges>, StoreError> {
        self.write_reporting(Write::LastMove {
            game_id: game_id.to_owned(),
            row: m.clone(),
            end,
        })
        .await
    }

    /// Saves the live clock of a running game, and what is left of its first-move
    /// window if one applies (graceful shutdown).
    ///
    /// Fails on a database error.
    pub async fn save_clock(
        &self,
        game_id: &str,
        clock: ClockRow,
        first_move_ms: Option<i64>,
        deadline: Option<i64>,
    ) -> Result<(), StoreError> {
        self.write(Write::Clock {
            game_id: game_id.to_owned(),
            clock,
            first_move_ms,
            deadline,
        })
        .await
    }

    /// What was left of a game's first-move window at the last graceful shutdown.
    ///
    /// Fails on a database error.
    pub async fn first_move_ms(&self, game_id: &str) -> Result<Option<i64>, StoreError> {
        const SQL: &str = "SELECT first_move_ms FROM games WHERE id = $1";
        let row: Option<(Option<i64>,)> = on_pool!(self, pool => sqlx::query_as(SQL)
            .bind(game_id)
            .fetch_optional(pool)
            .await)?;
        Ok(row.and_then(|r| r.0))
    }

    /// Saves a running game's draw offer; it is durable when this returns `Ok`.
    ///
    /// Fails on a database error.
    pub async fn save_draw_offer(
        &self,
        game_id: &str,
        offer: DrawOfferRow,
    ) -> Result<(), StoreError> {
        self.write(Write::DrawOffer {
            game_id: game_id.to_owned(),
            offer,
        })
        .await
    }

    /// Stores a running game's conditional moves (their JSON; `None` clears them).
    ///
    /// Fails when the write fails.
    pub async fn save_conditional(
        &self,
        game_id: &str,
        lines: Option<String>,
    ) -> Result<(), StoreError> {
        self.write(Write::Conditional {
            game_id: game_id.to_owned(),
            lines,
        })
        .await
    }

    /// A game's stored conditional moves (their JSON), if any.
    ///
    /// Fails on a database error.
    pub async fn conditional(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        const SQL: &str = "SELECT conditional FROM games WHERE id = $1";
        let row: Option<(Option<String>,)> = on_pool!(self, pool => sqlx::query_as(SQL)
            .bind(game_id)
            .fetch_optional(pool)
            .await)?;
        Ok(row.and_then(|(c,)| c))
    }

    /// A game's stored draw offer (all `None` when none was ever made).
    ///
    /// Fails on a database error, or a side that is not `white` or `black`.
    pub async fn draw_offer(&self, game_id: &str) -> Result<DrawOfferRow, StoreError> {
        const SQL: &str =
            "SELECT draw_offer, white_offer_ply, black_offer_ply FROM games WHERE id = $1";
        let row = on_pool!(self, pool => sqlx::query_as::<_, RawDrawOffer>(SQL)
            .bind(game_id)
            .fetch_optional(pool)
            .await)?;
        let Some(row) = row else {
            return Ok(DrawOfferRow::default());
        };
        let draw_offer = match row.draw_offer.as_deref() {
            None => None,
            Some(side) => Some(Side::from_name(side).ok_or_else(|| {
                StoreError::Corrupt(format!("game {game_id}: draw offer {side:?}"))
            })?),
        };
        Ok(DrawOfferRow {
            draw_offer,
            white_offer_ply: row.white_offer_ply,
            black_offer_ply: row.black_offer_ply,
        })
    }

    /// Every game still being played (to recreate their tables at start-up).
    ///
    /// Fails on a database error.
    pub async fn unfinished_games(&self) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE status = 'playing' ORDER BY started_at"
        );
        let rows =
            on_pool!(self, pool => sqlx::query_as::<_, RawGame>(&sql).fetch_all(pool).await)?;
        rows.into_iter().map(GameRow::try_from).collect()
    }

    /// The games of a micro-match (`match_id`: its first game's id), the first first.
    ///
    /// Fails on a database error.
    pub async fn match_games(&self, match_id: &str) -> Result<Vec<GameRow>, StoreError> {
        let sql =
            format!("SELECT {GAME_COLUMNS} FROM games WHERE match_id = $1 ORDER BY match_game");
        let rows = on_pool!(self, pool => sqlx::query_as::<_, RawGame>(&sql).bind(match_id).fetch_all(pool).await)?;
        rows.into_iter().map(GameRow::try_from).collect()
    }

    /// The first games of the micro-matches between their two games: over and not
    /// aborted (an aborted first game ends its match), with no second game stored yet.
    ///
    /// Fails on a database error.
    pub async fn matches_in_break(&self) -> Result<Vec<GameRow>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE match_game = 1 AND status = 'over' \
             AND reason <> 'aborted' AND NOT EXISTS (SELECT 1 FROM games s \
             WHERE s.match_id = g.match_id AND s.match_game = 2) ORDER BY started_at"
        );
        let rows =
            on_pool!(self, pool => sqlx::query_as::<_, RawGame>(&sql).fetch_all(pool).await)?;
        rows.into_iter().map(GameRow::try_from).collect()
    }

    /// One game.
    ///
    /// Fails on a database error.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, StoreError> {
        let sql = format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1");
        let row = on_pool!(self, pool => sqlx::query_as::<_, RawGame>(&sql).bind(id).fetch_optional(pool).await)?;
        row.map(GameRow::try_from).transpose()
    }

    /// The moves of a game in ply order.
    ///
    /// Fails on a database error.
    pub async fn moves(&self, game_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        const SQL: &str = "SELECT ply, mv, fen_after, white_ms, black_ms, used_ms FROM moves \
                           WHERE game_id = $1 ORDER BY ply";
        Ok(
            on_pool!(self, pool => sqlx::query_as::<_, MoveRow>(SQL).bind(game_id).fetch_all(pool).await)?,
        )
    }

    /// Finished games of a room (aborted ones left out: nobody played them, and a list of
    /// them would bury the real games), newest first, with their ply counts: at most
    /// `limit`, from after `before` (a page's last game) when given. Keyset pages on the
    /// index of (room, ended_at, id), so a page costs the same however deep it is.
    ///
    /// Fails on a database error.
    pub async fn recent_games(
        &self,
        room: &str,
        before: Option<&GameCursor>,
        limit: i64,
    ) -> Result<Vec<(GameRow, i64)>, StoreError> {
        let sql = room_games_sql();
        let (at, id) = GameCursor::bounds(before);
        let rows = on_pool!(self, pool => sqlx::query_as::<_, GameListRow>(&sql)
            .bind(room).bind(at).bind(id).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|r| Ok((GameRow::try_from(r.game)?, r.plies)))
            .collect()
    }

    /// A player's finished games (aborted ones left out), newest first, with their ply
    /// counts: at most `limit`, from after `before` when given. The games as White and as
    /// Black are read in order from their own indexes (a keyset page of each, merged), so
    /// a page reads about `2 * limit` rows whatever the player's number of games.
    ///
    /// Fails on a database error.
    pub async fn games_of_player(
        &self,
        player_id: &str,
        before: Option<&GameCursor>,
        limit: i64,
    ) -> Result<Vec<(GameRow, i64)>, StoreError> {
        let sql = player_games_sql();
        let (at, id) = GameCursor::bounds(before);
        let rows = on_pool!(self, pool => sqlx::query_as::<_, GameListRow>(&sql)
            .bind(player_id).bind(at).bind(id).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|r| Ok((GameRow::try_from(r.game)?, r.plies)))
            .collect()
    }

    /// The position of a game now: after its last stored move, or its start position
    /// before the first; `None` for a game not stored. Two primary-key reads.
    ///
    /// Fails on a database error.
    pub async fn last_fen(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        const SQL: &str = "SELECT COALESCE((SELECT m.fen_after FROM moves m \
            WHERE m.game_id = g.id ORDER BY m.ply DESC LIMIT 1), g.initial_fen) \
            FROM games g WHERE g.id = $1";
        on_pool!(self, pool => sqlx::query_scalar::<_, String>(SQL)
            .bind(game_id).fetch_optional(pool).await)
    }

    /// A player's games still being played (at most `limit` as White and as Black each),
    /// with their ply counts and the position after the last stored move (`None` before
    /// the first): the "my games" list. Read from the player-column indexes (a running
    /// game has no end yet), so it costs the same however many games the player finished.
    ///
    /// Fails on a database error.
    pub async fn running_games_of_player(
        &self,
        player_id: &str,
        limit: i64,
    ) -> Result<Vec<RunningGame>, StoreError> {
        let sql = format!(
            "SELECT {GAME_COLUMNS}, {PLIES}, \
               (SELECT m.fen_after FROM moves m WHERE m.game_id = games.id \
                ORDER BY m.ply DESC LIMIT 1) AS last_fen, deadline FROM ( \
               SELECT * FROM (SELECT {GAME_COLUMNS}, deadline FROM games WHERE white_id = $1 \
                 AND ended_at IS NULL AND status = 'playing' LIMIT $2) AS w \
               UNION ALL \
               SELECT * FROM (SELECT {GAME_COLUMNS}, deadline FROM games WHERE black_id = $1 \
                 AND white_id <> $1 AND ended_at IS NULL AND status = 'playing' LIMIT $2) AS b \
             ) AS games ORDER BY started_at"
        );
        let rows = on_pool!(self, pool => sqlx::query_as::<_, RunningRow>(&sql)
            .bind(player_id).bind(limit).fetch_all(pool).await)?;
        rows.into_iter()
            .map(|r| {
                Ok(RunningGame {
                    game: GameRow::try_from(r.game)?,
                    plies: r.plies,
                    last_fen: r.last_fen,
                    deadline: r.deadline,
                })
            })
            .collect()
    }

    /// Where a list continues after game `id`: its end time and id, if it is a finished
    /// game.
    ///
    /// Fails on a database error.
    pub async fn game_cursor(&self, id: &str) -> Result<Option<GameCursor>, StoreError> {
        const SQL: &str = "SELECT ended_at, id FROM games WHERE id = $1 AND ended_at IS NOT NULL";
        let row: Option<(i64, String)> = on_pool!(self, pool => sqlx::query_as(SQL)
            .bind(id).fetch_optional(pool).await)?;
        Ok(row.map(|(ended_at, id)| GameCursor { ended_at, id }))
    }

    /// The moves of several games (at most [`MAX_IDS`] ids), in ply order per game, in one
    /// query: what a page of a player's PDN needs.
    ///
    /// Fails on a database error.
    pub async fn moves_of_games(
        &self,
        game_ids: &[String],
    ) -> Result<HashMap<String, Vec<MoveRow>>, StoreError> {
        let mut out: HashMap<String, Vec<MoveRow>> = HashMap::new();
        for chunk in game_ids.chunks(MAX_IDS) {
            let sql = format!(
                "SELECT game_id, ply, mv, fen_after, white_ms, black_ms, used_ms FROM moves \
                 WHERE game_id IN ({}) ORDER BY game_id, ply",
                placeholders(1, chunk.len())
            );
            let rows: Vec<GameMoveRow> = on_pool!(self, pool => {
                let mut q = sqlx::query_as::<_, GameMoveRow>(&sql);
                for id in chunk {
                    q = q.bind(id);
                }
                q.fetch_all(pool).await
            })?;
            for r in rows {
                out.entry(r.game_id).or_default().push(r.mv);
            }
        }
        Ok(out)
    }
}

/// A room's games: `$1` the room, `$2`/`$3` the cursor, `$4` the page size.
pub(crate) fn room_games_sql() -> String {
    format!(
        "SELECT {GAME_COLUMNS}, {PLIES} FROM games WHERE room = $1 AND {LISTED} \
         AND {AFTER_CURSOR} ORDER BY ended_at DESC, id DESC LIMIT $4"
    )
}

/// A player's games: `$1` the player, `$2`/`$3` the cursor, `$4` the page size. A
/// one-screen game has the player on both sides: it is listed once, as White.
pub(crate) fn player_games_sql() -> String {
    format!(
        "SELECT {GAME_COLUMNS}, {PLIES} FROM ( \
           SELECT * FROM (SELECT {GAME_COLUMNS} FROM games WHERE white_id = $1 \
             AND {LISTED} AND {AFTER_CURSOR} ORDER BY ended_at DESC, id DESC LIMIT $4) AS w \
           UNION ALL \
           SELECT * FROM (SELECT {GAME_COLUMNS} FROM games WHERE black_id = $1 \
             AND white_id <> $1 AND {LISTED} AND {AFTER_CURSOR} \
             ORDER BY ended_at DESC, id DESC LIMIT $4) AS b \
         ) AS games ORDER BY ended_at DESC, id DESC LIMIT $4"
    )
}

/// Ids bound in one `IN (...)` list.
pub const MAX_IDS: usize = 500;

/// `$first, $first+1, ...`: `n` placeholders.
pub(crate) fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A game's ply count, for a list.
const PLIES: &str = "(SELECT COUNT(*) FROM moves m WHERE m.game_id = games.id) AS plies";

/// The games a list shows: finished, and played (not aborted).
const LISTED: &str = "status = 'over' AND reason <> 'aborted'";

/// Older than the cursor (`$2` its end time, `$3` its id) in (ended_at, id) order; the
/// first term bounds the index's range.
const AFTER_CURSOR: &str = "ended_at <= $2 AND (ended_at < $2 OR id < $3)";

/// Where a list of games continues: after the game with this end time and id (lists are
/// in (ended_at, id) order, newest first).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameCursor {
    /// The last listed game's end, Unix ms.
    pub ended_at: i64,
    /// The last listed game's id.
    pub id: String,
}

impl GameCursor {
    /// The bounds to bind: the cursor's, or past every game for a first page.
    fn bounds(cursor: Option<&GameCursor>) -> (i64, &str) {
        match cursor {
            Some(c) => (c.ended_at, c.id.as_str()),
            // Any id is below U+FFFF's encoding; ids are ASCII.
            None => (i64::MAX, "\u{ffff}"),
        }
    }
}

/// A move row with its game.
#[derive(sqlx::FromRow)]
struct GameMoveRow {
    game_id: String,
    #[sqlx(flatten)]
    mv: MoveRow,
}

/// How a game ended, as stored with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameEnd {
    /// The result (`None`: no result, an aborted game).
    pub result: Option<GameResult>,
    /// Why.
    pub reason: EndReason,
    /// The final clocks.
    pub clock: ClockRow,
    /// Unix ms.
    pub ended_at: i64,
    /// A rated game with a result: rate it in the same transaction.
    pub rated: Option<super::RatedEnd>,
}

/// A running game as the "my games" list reads it.
#[derive(Debug, Clone)]
pub struct RunningGame {
    /// The game.
    pub game: GameRow,
    /// Plies stored (the opening's included).
    pub plies: i64,
    /// The position after the last stored move (`None` before the first).
    pub last_fen: Option<String>,
    /// A correspondence game's: when the side to move runs out of time (or of its
    /// first-move window), Unix ms, as of the last clock save.
    pub deadline: Option<i64>,
}

/// A running game's row.
#[derive(sqlx::FromRow)]
struct RunningRow {
    #[sqlx(flatten)]
    game: RawGame,
    plies: i64,
    last_fen: Option<String>,
    deadline: Option<i64>,
}

/// A game row with its ply count.
#[derive(sqlx::FromRow)]
struct GameListRow {
    /// The game.
    #[sqlx(flatten)]
    game: RawGame,
    /// Number of stored moves.
    plies: i64,
}
