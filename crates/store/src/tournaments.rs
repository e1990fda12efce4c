//! Tournaments: the tournament row, its entrants and its pairings with their results
//! (migration 0006). Every change is a [`TournamentWrite`] inside a [`crate::Write`], stored
//! before the tournament's actor applies and announces it; a round is stored together
//! with its games (`Write::All`), so a round is never half there.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use damka_protocol::tournament::{TournamentKind, TournamentStatus};

use super::{Store, StoreError, on_pool};

/// A stored tournament.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRow {
    /// Id.
    pub id: String,
    /// Room id.
    pub room: String,
    /// Name, if given.
    pub name: Option<String>,
    /// Round-robin or Swiss.
    pub kind: TournamentKind,
    /// Open, running or over.
    pub status: TournamentStatus,
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
    /// The computer fills the empty places.
    pub bots: bool,
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
    /// Ended for want of players (or cancelled otherwise).
    pub cancelled: bool,
    /// Rated: only accounts join, its games are rated, a Swiss seeds by rating.
    pub rated: bool,
    /// The ballot choice as created: `random`, a ballot's id, or `None` (the start
    /// position).
    pub ballot: Option<String>,
    /// Micro-match rounds: a pairing's two games are boards 2k-1 and 2k.
    pub micro_match: bool,
}

/// A tournament row as the database holds it.
#[derive(sqlx::FromRow)]
struct RawTournament {
    id: String,
    room: String,
    name: Option<String>,
    kind: String,
    status: String,
    rounds: i64,
    total_rounds: i64,
    minutes: i64,
    increment_s: i64,
    max_players: i64,
    bots: i64,
    bot_level: i64,
    starts_at: Option<i64>,
    created_by: String,
    created_by_name: String,
    created_at: i64,
    started_at: Option<i64>,
    ended_at: Option<i64>,
    cancelled: i64,
    rated: i64,
    ballot: Option<String>,
    micro_match: i64,
}

impl TryFrom<RawTournament> for TournamentRow {
    type Error = StoreError;

    fn try_from(r: RawTournament) -> Result<TournamentRow, StoreError> {
        let bad =
            |what: &str, v: &str| StoreError::Corrupt(format!("tournament {}: {what} {v:?}", r.id));
        Ok(TournamentRow {
            kind: TournamentKind::from_name(&r.kind).ok_or_else(|| bad("kind", &r.kind))?,
            status: TournamentStatus::from_name(&r.status)
                .ok_or_else(|| bad("status", &r.status))?,
            id: r.id,
            room: r.room,
            name: r.name,
            rounds: r.rounds,
            total_rounds: r.total_rounds,
            minutes: r.minutes,
            increment_s: r.increment_s,
            max_players: r.max_players,
            bots: r.bots != 0,
            bot_level: r.bot_level,
            starts_at: r.starts_at,
            created_by: r.created_by,
            created_by_name: r.created_by_name,
            created_at: r.created_at,
            started_at: r.started_at,
            ended_at: r.ended_at,
            cancelled: r.cancelled != 0,
            rated: r.rated != 0,
            ballot: r.ballot,
            micro_match: r.micro_match != 0,
        })
    }
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

/// A board's result as stored: a game's result, or `Void` (no result for either side:
/// a game the server had to abort).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardResult {
    /// White won.
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
    /// No result for either.
    Void,
}

impl BoardResult {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            BoardResult::White => "white",
            BoardResult::Black => "black",
            BoardResult::Draw => "draw",
            BoardResult::Void => "none",
        }
    }

    /// Parses a stored name.
    pub fn from_name(name: &str) -> Option<BoardResult> {
        match name {
            "white" => Some(BoardResult::White),
            "black" => Some(BoardResult::Black),
            "draw" => Some(BoardResult::Draw),
            "none" => Some(BoardResult::Void),
            _ => None,
        }
    }
}

/// A stored board (board 0 is the bye: no black player).
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// The result, once decided.
    pub result: Option<BoardResult>,
    /// The reason once decided: an end reason's wire name, `forfeit`, or `bye`.
    pub reason: Option<String>,
    /// The ballot the round's games start from, by id (`None`: the start position).
    pub ballot: Option<String>,
}

/// A board as the database holds it.
#[derive(sqlx::FromRow)]
struct RawPairing {
    round: i64,
    board: i64,
    white_id: String,
    black_id: Option<String>,
    table_id: Option<String>,
    game_id: Option<String>,
    result: Option<String>,
    reason: Option<String>,
    ballot: Option<String>,
}

impl TryFrom<RawPairing> for PairingRow {
    type Error = StoreError;

    fn try_from(r: RawPairing) -> Result<PairingRow, StoreError> {
        let result = match r.result.as_deref() {
            None => None,
            Some(v) => Some(BoardResult::from_name(v).ok_or_else(|| {
                StoreError::Corrupt(format!("board {}/{}: result {v:?}", r.round, r.board))
            })?),
        };
        Ok(PairingRow {
            round: r.round,
            board: r.board,
            white_id: r.white_id,
            black_id: r.black_id,
            table_id: r.table_id,
            game_id: r.game_id,
            result,
            reason: r.reason,
            ballot: r.ballot,
        })
    }
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
        /// New seeds (`seq`) of the entrants, by player id (a rated Swiss seeds by
        /// rating at the start); empty: the joining order stays.
        seeds: Vec<(String, i64)>,
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
        /// The result.
        result: BoardResult,
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
    created_by_name, created_at, started_at, ended_at, cancelled, rated, ballot, micro_match) \
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
    $19, $20, $21, $22)";

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
    white_id, black_id, table_id, game_id, result, reason, ballot) VALUES ($1, $2, $3, $4, $5, \
    $6, $7, $8, $9, $10)";

const RESULT: &str = "UPDATE tournament_pairings SET result = $4, reason = $5 \
    WHERE tournament_id = $1 AND round = $2 AND board = $3";

const END: &str =
    "UPDATE tournaments SET status = 'over', ended_at = $2, cancelled = $3 WHERE id = $1";

const TOURNAMENT_COLUMNS: &str = "id, room, name, kind, status, rounds, total_rounds, minutes, \
    increment_s, max_players, bots, bot_level, starts_at, created_by, created_by_name, \
    created_at, started_at, ended_at, cancelled, rated, ballot, micro_match";

/// Applies a [`TournamentWrite`] to a connection of either backend.
macro_rules! apply_tournament {
    ($write:expr, $conn:expr) => {
        match $write {
            TournamentWrite::Create(t) => {
                sqlx::query(INSERT_TOURNAMENT)
                    .bind(&t.id)
                    .bind(&t.room)
                    .bind(&t.name)
                    .bind(t.kind.as_str())
                    .bind(t.status.as_str())
                    .bind(t.rounds)
                    .bind(t.total_rounds)
                    .bind(t.minutes)
                    .bind(t.increment_s)
                    .bind(t.max_players)
                    .bind(i64::from(t.bots))
                    .bind(t.bot_level)
                    .bind(t.starts_at)
                    .bind(&t.created_by)
                    .bind(&t.created_by_name)
                    .bind(t.created_at)
                    .bind(t.started_at)
                    .bind(t.ended_at)
                    .bind(i64::from(t.cancelled))
                    .bind(i64::from(t.rated))
                    .bind(&t.ballot)
                    .bind(i64::from(t.micro_match))
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
                seeds,
            } => {
                for (player, seq) in seeds {
                    sqlx::query(
                        "UPDATE tournament_players SET seq = $3 \
                         WHERE tournament_id = $1 AND player_id = $2",
                    )
                    .bind(tournament)
                    .bind(player)
                    .bind(seq)
                    .execute(&mut *$conn)
                    .await?;
                }
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
                        .bind(b.result.map(BoardResult::as_str))
                        .bind(&b.reason)
                        .bind(&b.ballot)
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
                    .bind(result.as_str())
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
            TournamentWrite::Start {
                computers, seeds, ..
            } => !computers.is_empty() || !seeds.is_empty(),
            TournamentWrite::Round { boards, .. } => boards.len() > 1,
            _ => false,
        }
    }
}

impl Store {
    /// Makes one tournament change; durable when this returns `Ok`.
    ///
    /// Fails on a database error (and at once during an outage).
    pub async fn tournament_write(&self, write: TournamentWrite) -> Result<(), StoreError> {
        self.write(write.into()).await
    }

    /// Tournaments not over yet (to resume them at start-up).
    ///
    /// Fails on a database error.
    pub async fn live_tournaments(&self) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE status <> 'over' \
             ORDER BY created_at"
        );
        let rows =
            on_pool!(self, pool => sqlx::query_as::<_, RawTournament>(&sql).fetch_all(pool).await)?;
        rows.into_iter().map(TournamentRow::try_from).collect()
    }

    /// The last finished tournaments of a room, newest first.
    ///
    /// Fails on a database error.
    pub async fn finished_tournaments(
        &self,
        room: &str,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE room = $1 AND status = 'over' \
             ORDER BY ended_at DESC LIMIT $2"
        );
        let rows = on_pool!(self, pool => sqlx::query_as::<_, RawTournament>(&sql)
            .bind(room).bind(limit).fetch_all(pool).await)?;
        rows.into_iter().map(TournamentRow::try_from).collect()
    }

    /// One tournament.
    ///
    /// Fails on a database error.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let sql = format!("SELECT {TOURNAMENT_COLUMNS} FROM tournaments WHERE id = $1");
        let row = on_pool!(self, pool => sqlx::query_as::<_, RawTournament>(&sql)
            .bind(id).fetch_optional(pool).await)?;
        row.map(TournamentRow::try_from).transpose()
    }

    /// A tournament's entrants in seed order.
    ///
    /// Fails on a database error.
    pub async fn tournament_entrants(&self, id: &str) -> Result<Vec<EntrantRow>, StoreError> {
        const SQL: &str = "SELECT player_id, name, seq, left_round FROM tournament_players \
                           WHERE tournament_id = $1 ORDER BY seq";
        on_pool!(self, pool => sqlx::query_as::<_, EntrantRow>(SQL).bind(id).fetch_all(pool).await)
    }

    /// A tournament's boards by round and board.
    ///
    /// Fails on a database error.
    pub async fn tournament_pairings(&self, id: &str) -> Result<Vec<PairingRow>, StoreError> {
        const SQL: &str = "SELECT round, board, white_id, black_id, table_id, game_id, result, \
                           reason, ballot FROM tournament_pairings WHERE tournament_id = $1 \
                           ORDER BY round, board";
        let rows = on_pool!(self, pool => sqlx::query_as::<_, RawPairing>(SQL).bind(id).fetch_all(pool).await)?;
        rows.into_iter().map(PairingRow::try_from).collect()
    }

    /// The tournament and round a game belongs to, if any.
    ///
    /// Fails on a database error.
    pub async fn tournament_of_game(
        &self,
        game_id: &str,
    ) -> Result<Option<(String, i64)>, StoreError> {
        const SQL: &str = "SELECT tournament_id, round FROM tournament_pairings WHERE game_id = $1";
        on_pool!(self, pool => sqlx::query_as::<_, (String, i64)>(SQL)
            .bind(game_id).fetch_optional(pool).await)
    }

    /// The tournament, its name and the round of each of several games that belong to one
    /// (at most [`crate::games::MAX_IDS`] ids a query), in one query per chunk: what a
    /// page of a player's PDN needs for its `Event` and `Round` tags.
    ///
    /// Fails on a database error.
    pub async fn tournaments_of_games(
        &self,
        game_ids: &[String],
    ) -> Result<std::collections::HashMap<String, GameTournament>, StoreError> {
        let mut out = std::collections::HashMap::new();
        for chunk in game_ids.chunks(crate::games::MAX_IDS) {
            let sql = format!(
                "SELECT p.game_id, p.tournament_id, p.round, t.name FROM tournament_pairings p \
                 JOIN tournaments t ON t.id = p.tournament_id WHERE p.game_id IN ({})",
                crate::games::placeholders(1, chunk.len())
            );
            let rows: Vec<(String, String, i64, Option<String>)> = on_pool!(self, pool => {
                let mut q = sqlx::query_as(&sql);
                for id in chunk {
                    q = q.bind(id);
                }
                q.fetch_all(pool).await
            })?;
            for (game, id, round, name) in rows {
                out.insert(game, GameTournament { id, round, name });
            }
        }
        Ok(out)
    }
}

/// The tournament a game was played in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameTournament {
    /// The tournament's id.
    pub id: String,
    /// The round of the game.
    pub round: i64,
    /// The tournament's name, if it has one.
    pub name: Option<String>,
}
