//! Tournaments: the tournament row, its entrants and its pairings with their results
//! (migration 0006). Every change is a [`TournamentWrite`] inside a [`Write`], stored
//! before the tournament's actor applies and announces it; a round is stored together
//! with its games (`Write::All`), so a round is never half there.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::write::Write;
use super::{Store, on_pool};

/// A stored tournament.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct TournamentRow {
    /// Id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Name, if given.
    pub name: Option<String>,
    /// `round_robin` or `swiss`.
    pub kind: String,
    /// `open`, `running` or `over`.
    pub status: String,
    /// Swiss: rounds asked for.
    pub rounds: i64,
    /// Rounds to play (0 before the start).
    pub total_rounds: i64,
    /// Minutes per player.
    pub minutes: i64,
    /// Increment, seconds.
    pub increment_s: i64,
    /// Places.
    pub max_players: i64,
    /// 1: the computer fills the empty places.
    pub bots: i64,
    /// The computer's level.
    pub bot_level: i64,
    /// Start time, Unix ms.
    pub starts_at: Option<i64>,
    /// The creator's guest id.
    pub created_by: String,
    /// The creator's name then.
    pub created_by_name: String,
    /// Unix ms.
    pub created_at: i64,
    /// Unix ms.
    pub started_at: Option<i64>,
    /// Unix ms.
    pub ended_at: Option<i64>,
    /// 1: ended for want of players.
    pub cancelled: i64,
}

/// A stored entrant.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct EntrantRow {
    /// Guest id (`bot-N-k` for the computer).
    pub player_id: String,
    /// Name when joining.
    pub name: String,
    /// Joining order (seed order).
    pub seq: i64,
    /// Left: the first round forfeited.
    pub left_round: Option<i64>,
}

/// A stored board (board 0 is the bye: no black player).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct PairingRow {
    /// Round from 1.
    pub round: i64,
    /// Board from 1; 0 for the bye.
    pub board: i64,
    /// White (or the player with the bye).
    pub white_id: String,
    /// Black; `None` for the bye.
    pub black_id: Option<String>,
    /// The table, if played.
    pub table_id: Option<String>,
    /// The game, if played.
    pub game_id: Option<String>,
    /// `white`, `black`, `draw`, `none` (no result for either), or `None` while played.
    pub result: Option<String>,
    /// The reason once decided.
    pub reason: Option<String>,
}

/// One change to a tournament.
#[derive(Debug, Clone)]
pub enum TournamentWrite {
    /// A new tournament with its creator as the first entrant.
    Create(Box<TournamentRow>),
    /// An entrant joins (before the start).
    Join {
        /// Tournament id.
        tournament: String,
        /// The entrant.
        entrant: EntrantRow,
    },
    /// An entrant leaves before the start.
    Remove {
        /// Tournament id.
        tournament: String,
        /// Guest id.
        player: String,
    },
    /// An entrant leaves a running tournament: the rest is forfeited.
    Withdraw {
        /// Tournament id.
        tournament: String,
        /// Guest id.
        player: String,
        /// First round forfeited.
        from_round: i64,
    },
    /// The tournament starts: the computer entrants (guest rows made if missing) and the
    /// rounds to play.
    Start {
        /// Tournament id.
        tournament: String,
        /// Unix ms.
        started_at: i64,
        /// Rounds to play.
        total_rounds: i64,
        /// Computer entrants added.
        computers: Vec<EntrantRow>,
    },
    /// A round's boards (the games go in the same transaction as `Write::Game`s).
    Round {
        /// Tournament id.
        tournament: String,
        /// The boards, the bye as board 0.
        boards: Vec<PairingRow>,
    },
    /// A board's result.
    Result {
        /// Tournament id.
        tournament: String,
        /// Round.
        round: i64,
        /// Board.
        board: i64,
        /// `white`, `black`, `draw` or `none`.
        result: String,
        /// The reason.
        reason: String,
    },
    /// The tournament ends.
    End {
        /// Tournament id.
        tournament: String,
        /// Unix ms.
        ended_at: i64,
        /// For want of players.
        cancelled: bool,
    },
}

const INSERT_TOURNAMENT: &str = "INSERT INTO tournaments (id, room, name, kind, status, rounds, \
    total_rounds, minutes, increment_s, max_players, bots, bot_level, starts_at, created_by, \
    created_by_name, created_at, started_at, ended_at, cancelled) VALUES ($1, $2, $3, $4, $5, \
    $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)";

const INSERT_ENTRANT: &str = "INSERT INTO tournament_players (tournament_id, player_id, name, \
    seq, left_round) VALUES ($1, $2, $3, $4, $5)";

const DELETE_ENTRANT: &str =
    "DELETE FROM tournament_players WHERE tournament_id = $1 AND player_id = $2";

const WITHDRAW: &str =
    "UPDATE tournament_players SET left_round = $3 WHERE tournament_id = $1 AND player_id = $2";

/// The computer's guest row (its token hash is not hex: no session can match it).
const INSERT_COMPUTER: &str = "INSERT INTO guests (id, name, token_hash, created_at, seen_at) \
    VALUES ($1, $2, $3, 0, 0) ON CONFLICT (id) DO NOTHING";

const START: &str = "UPDATE tournaments SET status = 'running', started_at = $2, \
    total_rounds = $3 WHERE id = $1";

const INSERT_PAIRING: &str = "INSERT INTO tournament_pairings (tournament_id, round, board, \
    white_id, black_id, table_id, game_id, result, reason) VALUES ($1, $2, $3, $4, $5, $6, \
    $7, $8, $9)";

const RESULT: &str = "UPDATE tournament_pairings SET result = $4, reason = $5 \
    WHERE tournament_id = $1 AND round = $2 AND board = $3";

const END: &str =
    "UPDATE tournaments SET status = 'over', ended_at = $2, cancelled = $3 WHERE id = $1";

const TOURNAMENT_COLUMNS: &str = "id, room, name, kind, status, rounds, total_rounds, minutes, \
    increment_s, max_players, bots, bot_level, starts_at, created_by, created_by_name, \
    created_at, started_at, ended_at, cancelled";

/// Applies a [`TournamentWrite`] to a connection of either backend.
macro_rules! apply_tournament {
    ($write:expr, $conn:expr) => {
        match $write {
            TournamentWrite::Create(t) => {
                sqlx::query(INSERT_TOURNAMENT)
                    .bind(&t.id)
                    .bind(&t.room)
                    .bind(&t.name)
                    .bind(&t.kind)
                    .bind(&t.status)
                    .bind(t.rounds)
                    .bind(t.total_rounds)
                    .bind(t.minutes)
                    .bind(t.increment_s)
                    .bind(t.max_players)
                    .bind(t.bots)
                    .bind(t.bot_level)
                    .bind(t.starts_at)
                    .bind(&t.created_by)
                    .bind(&t.created_by_name)
                    .bind(t.created_at)
                    .bind(t.started_at)
                    .bind(t.ended_at)
                    .bind(t.cancelled)
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query(INSERT_ENTRANT)
                    .bind(&t.id)
                    .bind(&t.created_by)
                    .bind(&t.created_by_name)
                    .bind(1_i64)
                    .bind(None::<i64>)
                    .execute(&mut *$conn)
                    .await?;
            }
            TournamentWrite::Join {
                tournament,
                entrant,
            } => {
                sqlx::query(INSERT_ENTRANT)
                    .bind(tournament)
                    .bind(&entrant.player_id)
                    .bind(&entrant.name)
                    .bind(entrant.seq)
                    .bind(entrant.left_round)
                    .execute(&mut *$conn)
                    .await?;
            }
            TournamentWrite::Remove { tournament, player } => {
                sqlx::query(DELETE_ENTRANT)
                    .bind(tournament)
                    .bind(player)
                    .execute(&mut *$conn)
                    .await?;
            }
            TournamentWrite::Withdraw {
                tournament,
                player,
                from_round,
            } => {
                sqlx::query(WITHDRAW)
                    .bind(tournament)
                    .bind(player)
                    .bind(from_round)
                    .execute(&mut *$conn)
                    .await?;
            }
            TournamentWrite::Start {
                tournament,
                started_at,
                total_rounds,
                computers,
            } => {
                for c in computers {
                    sqlx::query(INSERT_COMPUTER)
                        .bind(&c.player_id)
                        .bind(&c.name)
                        .bind(format!("computer-{}", c.player_id))
                        .execute(&mut *$conn)
                        .await?;
                    sqlx::query(INSERT_ENTRANT)
                        .bind(tournament)
                        .bind(&c.player_id)
                        .bind(&c.name)
                        .bind(c.seq)
                        .bind(c.left_round)
                        .execute(&mut *$conn)
                        .await?;
                }
                sqlx::query(START)
                    .bind(tournament)
                    .bind(started_at)
                    .bind(total_rounds)
                    .execute(&mut *$conn)
                    .await?;
            }
            TournamentWrite::Round { tournament, boards } => {
                for b in boards {
                    sqlx::query(INSERT_PAIRING)
                        .bind(tournament)
                        .bind(b.round)
                        .bind(b.board)
                        .bind(&b.white_id)
                        .bind(&b.black_id)
                        .bind(&b.table_id)
                        .bind(&b.game_id)
                        .bind(&b.result)
                        .bind(&b.reason)
                        .execute(&mut *$conn)
                        .await?;
                }
            }
            TournamentWrite::Result {
                tournament,
                round,
                board,
                result,
                reason,
            } => {
                sqlx::query(RESULT)
                    .bind(tournament)
                    .bind(round)
                    .bind(board)
                    .bind(result)
                    .bind(reason)
                    .execute(&mut *$conn)
                    .await?;
            }
            TournamentWrite::End {
                tournament,
                ended_at,
                cancelled,
            } => {
                sqlx::query(END)
                    .bind(tournament)
                    .bind(ended_at)
                    .bind(i64::from(*cancelled))
                    .execute(&mut *$conn)
                    .await?;
            }
        }
    };
}

/// Applies a tournament write on a SQLite connection (inside the caller's transaction).
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &TournamentWrite,
) -> Result<(), sqlx::Error> {
    apply_tournament!(write, conn);
    Ok(())
}

/// Applies a tournament write on a PostgreSQL connection.
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &TournamentWrite,
) -> Result<(), sqlx::Error> {
    apply_tournament!(write, conn);
    Ok(())
}

impl TournamentWrite {
    /// Whether it takes more than one statement.
    pub(super) fn is_multi_statement(&self) -> bool {
        match self {
            TournamentWrite::Create(_) => true,
            TournamentWrite::Start { computers, .. } => !computers.is_empty(),
            TournamentWrite::Round { boards, .. } => boards.len() > 1,
            _ => false,
        }
    }
}

impl Store {
    /// Makes one tournament change; durable when this returns `Ok`.
    ///
    /// Fails on a database error (and at once during an outage).
    pub async fn tournament_write(&self, write: TournamentWrite) -> Result<(), sqlx::Error> {
        self.write(Write::Tournament(Box::new(write))).await
    }

    /// Tournaments not over yet (to resume them at start-up).
    ///
    /// Fails on a database error.
    pub async fn live_tournaments(&self) -> Result<Vec<TournamentRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status <> 'over' \
             ORDER BY created_at"
        );
        on_pool!(self, pool => sqlx::query_as::<_, TournamentRow>(&sql).fetch_all(pool).await)
    }

    /// The last finished tournaments of a room, newest first.
    ///
    /// Fails on a database error.
    pub async fn finished_tournaments(
        &self,
        room: &str,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, sqlx::Error> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE room = $1 AND status = 'over' \
             ORDER BY ended_at DESC LIMIT $2"
        );
        on_pool!(self, pool => sqlx::query_as::<_, TournamentRow>(&sql)
            .bind(room).bind(limit).fetch_all(pool).await)
    }

    /// One tournament.
    ///
    /// Fails on a database error.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, sqlx::Error> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1");
        on_pool!(self, pool => sqlx::query_as::<_, TournamentRow>(&sql)
            .bind(id).fetch_optional(pool).await)
    }

    /// A tournament's entrants in seed order.
    ///
    /// Fails on a database error.
    pub async fn tournament_entrants(&self, id: &str) -> Result<Vec<EntrantRow>, sqlx::Error> {
        const SQL: &str = "SELECT player_id, name, seq, left_round FROM tournament_players \
                           WHERE tournament_id = $1 ORDER BY seq";
        on_pool!(self, pool => sqlx::query_as::<_, EntrantRow>(SQL).bind(id).fetch_all(pool).await)
    }

    /// A tournament's boards by round and board.
    ///
    /// Fails on a database error.
    pub async fn tournament_pairings(&self, id: &str) -> Result<Vec<PairingRow>, sqlx::Error> {
        const SQL: &str = "SELECT round, board, white_id, black_id, table_id, game_id, result, \
                           reason FROM tournament_pairings WHERE tournament_id = $1 \
                           ORDER BY round, board";
        on_pool!(self, pool => sqlx::query_as::<_, PairingRow>(SQL).bind(id).fetch_all(pool).await)
    }

    /// The tournament and round a game belongs to, if any.
    ///
    /// Fails on a database error.
    pub async fn tournament_of_game(
        &self,
        game_id: &str,
    ) -> Result<Option<(String, i64)>, sqlx::Error> {
        const SQL: &str = "SELECT tournament_id, round FROM tournament_pairings WHERE game_id = $1";
        on_pool!(self, pool => sqlx::query_as::<_, (String, i64)>(SQL)
            .bind(game_id).fetch_optional(pool).await)
    }
}
