//! Every change the server makes to the database, as a value: the SQLite writer task
//! batches them, PostgreSQL runs them directly. The SQL is written once and applied to
//! either backend's connection by `apply!`.

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use damka_protocol::{EndReason, GameResult, Side};

use super::ratings::Hooks;
use super::{ClockRow, GameEnd, MoveRow, NewGame, RatingChanges};

/// Inserts one move row.
const INSERT_MOVE: &str = "INSERT INTO moves (game_id, ply, mv, fen_after, \
    white_ms, black_ms, used_ms) VALUES ($1, $2, $3, $4, $5, $6, $7)";

/// Inserts a game row (the columns in `games::GAME_COLUMNS` order).
const INSERT_GAME: &str = "INSERT INTO games (id, table_id, room, variant, minutes, \
    increment_s, random_opening, capture_optional, white_id, white_name, black_id, black_name, \
    initial_fen, opening_plies, status, result, reason, white_ms, black_ms, clock_ply, \
    started_at, ended_at, rated, ballot, ballot_random, match_id, match_game, days) VALUES ($1, \
    $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, \
    $21, $22, $23, $24, $25, $26, $27, $28)";

const FINISH_GAME: &str = "UPDATE games SET status = 'over', result = $2, reason = $3, \
    white_ms = $4, black_ms = $5, clock_ply = $6, ended_at = $7 WHERE id = $1";

const SAVE_CLOCK: &str = "UPDATE games SET white_ms = $2, black_ms = $3, clock_ply = $4, \
    first_move_ms = $5, deadline = $6 WHERE id = $1 AND status = 'playing'";

/// The probe of a failing database: a write that needs new space (SQLite: a blob larger
/// than a page), removed in the same transaction.
const PROBE_SQLITE: &str = "INSERT INTO write_probe (id, pad) VALUES (1, zeroblob(8192))";
const PROBE_POSTGRES: &str =
    "INSERT INTO write_probe (id, pad) VALUES (1, decode(repeat('00', 8192), 'hex'))";
const PROBE_CLEAN: &str = "DELETE FROM write_probe";

const SAVE_CONDITIONAL: &str =
    "UPDATE games SET conditional = $2 WHERE id = $1 AND status = 'playing'";

const SAVE_DRAW_OFFER: &str = "UPDATE games SET draw_offer = $2, white_offer_ply = $3, \
    black_offer_ply = $4 WHERE id = $1 AND status = 'playing'";

const INSERT_GUEST: &str = "INSERT INTO guests (id, name, token_hash, created_at, seen_at) \
    VALUES ($1, $2, $3, $4, $4)";

/// Old chat, and all but the last `$2` messages of each scope (both backends have window
/// functions).
const PRUNE_CHAT: &str = "DELETE FROM chat WHERE at < $1 OR seq IN (\
    SELECT seq FROM (SELECT seq, ROW_NUMBER() OVER (PARTITION BY scope ORDER BY seq DESC) AS rn \
    FROM chat) AS ranked WHERE rn > $2)";

const INSERT_CHAT: &str = "INSERT INTO chat (id, scope, from_id, from_name, text, spectators, at) \
    VALUES ($1, $2, $3, $4, $5, $6, $7)";

const DELETE_MOVES_AFTER: &str = "DELETE FROM moves WHERE game_id = $1 AND ply > $2";

const TAKEBACK_GAME: &str = "UPDATE games SET white_ms = $2, black_ms = $3, clock_ply = $4, \
    draw_offer = NULL, first_move_ms = NULL, conditional = NULL \
    WHERE id = $1 AND status = 'playing'";

const RENAME_GUEST: &str = "UPDATE guests SET name = $2, seen_at = $3 WHERE id = $1";

/// One change to the database.
#[derive(Debug, Clone)]
pub enum Write {
    /// A new guest.
    Guest {
        /// Guest id.
        id: String,
        /// Display name.
        name: String,
        /// SHA-256 of the session token, hex.
        token_hash: String,
        /// Unix ms.
        now: i64,
    },
    /// A guest's new name.
    Rename {
        /// Guest id.
        id: String,
        /// New name.
        name: String,
        /// Unix ms.
        now: i64,
    },
    /// A game starts (with its opening plies).
    Game(Box<NewGame>),
    /// A move.
    Move {
        /// The game.
        game_id: String,
        /// The move.
        row: MoveRow,
    },
    /// A game ends.
    Finish {
        /// The game.
        game_id: String,
        /// How.
        end: GameEnd,
    },
    /// The move that ends a game, and the end, in one transaction: the end is stored
    /// with the move or neither is.
    LastMove {
        /// The game.
        game_id: String,
        /// The move.
        row: MoveRow,
        /// How the game ended.
        end: GameEnd,
    },
    /// A running game's live clock (graceful shutdown; a correspondence game's after
    /// each move and every hour).
    Clock {
        /// The game.
        game_id: String,
        /// The clocks as of now.
        clock: ClockRow,
        /// What was left of the pending first move's window, ms, if it applied.
        first_move_ms: Option<i64>,
        /// A correspondence game's: when the side to move runs out of time, Unix ms.
        deadline: Option<i64>,
    },
    /// Checks that the database takes writes again (the breaker's probe); leaves nothing.
    Probe,
    /// A running game's draw offer changed (made or explicitly declined).
    DrawOffer {
        /// The game.
        game_id: String,
        /// The offer's state: see [`super::DrawOfferRow`].
        offer: super::DrawOfferRow,
    },
    /// A running game's conditional moves changed (set, advanced or cleared).
    Conditional {
        /// The game.
        game_id: String,
        /// Their JSON (see migration 0021), `None` for none.
        lines: Option<String>,
    },
    /// A chat message.
    Chat(Box<super::ChatRow>),
    /// Chat kept bounded: messages older than `before` (Unix ms) go, and in each room and
    /// table all but the last `keep`.
    PruneChat {
        /// Messages kept per scope.
        keep: i64,
        /// Unix ms: older messages go.
        before: i64,
    },
    /// A closed table's chat goes.
    ClearChat {
        /// `table:<id>`.
        scope: String,
    },
    /// A tournament's change (its entrants, rounds, results).
    Tournament(Box<super::tournaments::TournamentWrite>),
    /// An account's change (creation, sessions, password, disabling).
    Account(Box<super::accounts::AccountWrite>),
    /// An analysis job's change (request, claim, lease, result).
    Analysis(Box<super::analysis::AnalysisWrite>),
    /// A fair-play change (addresses seen, an account's rated results voided).
    FairPlay(Box<super::fair_play::FairPlayWrite>),
    /// A Web Push change (the key, subscriptions, settings).
    Push(Box<super::push::PushWrite>),
    /// A puzzle's result (the account's and the puzzle's ratings).
    Puzzle(Box<super::puzzles::PuzzleWrite>),
    /// Several writes in one transaction, in order (a tournament round and its games).
    All(Vec<Write>),
    /// Guests seen lately: their `seen_at` becomes `now` (the guest sweep, a batch at a
    /// time).
    GuestsSeen {
        /// Guest ids (a few hundred at most: one statement).
        ids: Vec<String>,
        /// Unix ms.
        now: i64,
    },
    /// Idle guests go: those of `ids` still not seen since `cutoff`, without a game or an
    /// account (checked in the statement).
    ExpireGuests {
        /// Guest ids (a hundred or so: one short statement).
        ids: Vec<String>,
        /// Unix ms.
        cutoff: i64,
    },
    /// A takeback: the moves after `keep_ply` go, the clock is as after `keep_ply`.
    Takeback {
        /// The game.
        game_id: String,
        /// The plies kept (`clock.ply`) and the clocks after the last of them.
        clock: ClockRow,
    },
}

impl From<super::tournaments::TournamentWrite> for Write {
    fn from(write: super::tournaments::TournamentWrite) -> Write {
        Write::Tournament(Box::new(write))
    }
}

impl Write {
    /// The move row this write inserts, if any (a move, or the move that ends a game), with
    /// its game: a batch inserts all of them in one statement.
    pub(super) fn move_row(&self) -> Option<(&str, &MoveRow)> {
        match self {
            Write::Move { game_id, row } | Write::LastMove { game_id, row, .. } => {
                Some((game_id, row))
            }
            _ => None,
        }
    }

    /// Whether it takes more than one statement (so needs a transaction of its own).
    pub(super) fn is_multi_statement(&self) -> bool {
        match self {
            Write::Game(g) => !g.opening.is_empty(),
            Write::LastMove { .. } | Write::Probe | Write::Takeback { .. } | Write::All(_) => true,
            Write::Finish { end, .. } => end.rated.is_some(),
            Write::Tournament(t) => t.is_multi_statement(),
            Write::Account(a) => a.is_multi_statement(),
            Write::FairPlay(f) => f.is_multi_statement(),
            _ => false,
        }
    }
}

/// Inserts one [`MoveRow`] of a game (an opening ply or a played move).
macro_rules! insert_move {
    ($conn:expr, $game_id:expr, $m:expr) => {
        sqlx::query(INSERT_MOVE)
            .bind($game_id)
            .bind($m.ply)
            .bind(&$m.mv)
            .bind(&$m.fen_after)
            .bind($m.white_ms)
            .bind($m.black_ms)
            .bind($m.used_ms)
            .execute(&mut *$conn)
            .await?
    };
}

/// Marks a game over ([`GameEnd`]), what a `Finish` and a `LastMove` share; a rated
/// game with a result is rated in the same transaction (`$rate`: the backend's
/// [`crate::ratings`] function). Evaluates to the rating changes, if rated.
macro_rules! finish_game {
    ($conn:expr, $game_id:expr, $end:expr, $rate:path, $hooks:expr) => {{
        sqlx::query(FINISH_GAME)
            .bind($game_id)
            .bind($end.result.map(GameResult::as_str))
            .bind($end.reason.as_str())
            .bind($end.clock.white_ms)
            .bind($end.clock.black_ms)
            .bind($end.clock.ply)
            .bind($end.ended_at)
            .execute(&mut *$conn)
            .await?;
        match (&$end.rated, $end.result) {
            (Some(rated), Some(result)) => {
                Some($rate(&mut *$conn, $game_id, rated, result, $end.ended_at, $hooks).await?)
            }
            _ => None,
        }
    }};
}

/// Applies a [`Write`] to a connection of either backend; with `$rows_done` the move
/// row of a `Move` or `LastMove` is left out (the batch inserted it already). Evaluates
/// to the rating changes of a rated game's end.
macro_rules! apply {
    ($write:expr, $conn:expr, $probe:expr, $tournament:path, $account:path, $analysis:path, $fair_play:path, $push:path, $puzzle:path, $rate:path, $again:path, $rows_done:expr, $hooks:expr) => {{
        let mut rated: Option<RatingChanges> = None;
        match $write {
            Write::FairPlay(f) => $fair_play(&mut *$conn, f).await?,
            Write::Push(p) => $push(&mut *$conn, p).await?,
            Write::Puzzle(p) => $puzzle(&mut *$conn, p).await?,
            Write::Tournament(t) => $tournament(&mut *$conn, t).await?,
            Write::Account(a) => $account(&mut *$conn, a).await?,
            Write::Analysis(a) => $analysis(&mut *$conn, a).await?,
            Write::All(writes) => {
                for w in writes {
                    // Recursion in an async fn goes through a box.
                    if let Some(r) = Box::pin($again(&mut *$conn, w, false, $hooks)).await? {
                        rated = Some(r);
                    }
                }
            }
            Write::Guest {
                id,
                name,
                token_hash,
                now,
            } => {
                sqlx::query(INSERT_GUEST)
                    .bind(id)
                    .bind(name)
                    .bind(token_hash)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::Rename { id, name, now } => {
                sqlx::query(RENAME_GUEST)
                    .bind(id)
                    .bind(name)
                    .bind(now)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::Game(game) => {
                let g = &game.row;
                sqlx::query(INSERT_GAME)
                    .bind(&g.id)
                    .bind(&g.table_id)
                    .bind(&g.room)
                    .bind(&g.variant)
                    .bind(g.minutes)
                    .bind(g.increment_s)
                    .bind(i64::from(g.random_opening))
                    .bind(i64::from(g.capture_optional))
                    .bind(&g.white_id)
                    .bind(&g.white_name)
                    .bind(&g.black_id)
                    .bind(&g.black_name)
                    .bind(&g.initial_fen)
                    .bind(g.opening_plies)
                    .bind(g.status.as_str())
                    .bind(g.result.map(GameResult::as_str))
                    .bind(g.reason.map(EndReason::as_str))
                    .bind(g.clock.white_ms)
                    .bind(g.clock.black_ms)
                    .bind(g.clock.ply)
                    .bind(g.started_at)
                    .bind(g.ended_at)
                    .bind(i64::from(g.rated))
                    .bind(&g.ballot)
                    .bind(i64::from(g.ballot_random))
                    .bind(g.micro_match.as_ref().map(|m| &m.id))
                    .bind(g.micro_match.as_ref().map(|m| m.game))
                    .bind(g.days)
                    .execute(&mut *$conn)
                    .await?;
                for m in &game.opening {
                    insert_move!($conn, &g.id, m);
                }
            }
            Write::Move { game_id, row } => {
                if !$rows_done {
                    insert_move!($conn, game_id, row);
                }
            }
            Write::LastMove { game_id, row, end } => {
                if !$rows_done {
                    insert_move!($conn, game_id, row);
                }
                rated = finish_game!($conn, game_id, end, $rate, $hooks);
            }
            Write::Probe => {
                sqlx::query($probe).execute(&mut *$conn).await?;
                sqlx::query(PROBE_CLEAN).execute(&mut *$conn).await?;
            }
            Write::Finish { game_id, end } => {
                rated = finish_game!($conn, game_id, end, $rate, $hooks);
            }
            Write::DrawOffer { game_id, offer } => {
                sqlx::query(SAVE_DRAW_OFFER)
                    .bind(game_id)
                    .bind(offer.draw_offer.map(Side::name))
                    .bind(offer.white_offer_ply)
                    .bind(offer.black_offer_ply)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::Conditional { game_id, lines } => {
                sqlx::query(SAVE_CONDITIONAL)
                    .bind(game_id)
                    .bind(lines)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::Chat(c) => {
                sqlx::query(INSERT_CHAT)
                    .bind(&c.id)
                    .bind(&c.scope)
                    .bind(&c.from_id)
                    .bind(&c.from_name)
                    .bind(&c.text)
                    .bind(i64::from(c.spectators))
                    .bind(c.at)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::PruneChat { keep, before } => {
                sqlx::query(PRUNE_CHAT)
                    .bind(before)
                    .bind(keep)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::ClearChat { scope } => {
                sqlx::query("DELETE FROM chat WHERE scope = $1")
                    .bind(scope)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::GuestsSeen { ids, now } => {
                let sql = super::expiry::seen_sql(ids.len());
                let mut q = sqlx::query(&sql).bind(now);
                for id in ids {
                    q = q.bind(id);
                }
                q.execute(&mut *$conn).await?;
            }
            Write::ExpireGuests { ids, cutoff } => {
                let sql = super::expiry::expire_sql(ids.len());
                let mut q = sqlx::query(&sql).bind(cutoff);
                for id in ids {
                    q = q.bind(id);
                }
                q.execute(&mut *$conn).await?;
            }
            Write::Takeback { game_id, clock } => {
                sqlx::query(DELETE_MOVES_AFTER)
                    .bind(game_id)
                    .bind(clock.ply)
                    .execute(&mut *$conn)
                    .await?;
                sqlx::query(TAKEBACK_GAME)
                    .bind(game_id)
                    .bind(clock.white_ms)
                    .bind(clock.black_ms)
                    .bind(clock.ply)
                    .execute(&mut *$conn)
                    .await?;
            }
            Write::Clock {
                game_id,
                clock,
                first_move_ms,
                deadline,
            } => {
                sqlx::query(SAVE_CLOCK)
                    .bind(game_id)
                    .bind(clock.white_ms)
                    .bind(clock.black_ms)
                    .bind(clock.ply)
                    .bind(first_move_ms)
                    .bind(deadline)
                    .execute(&mut *$conn)
                    .await?;
            }
        }
        rated
    }};
}

/// Applies a write on a SQLite connection (inside the caller's transaction); with
/// `rows_done`, without its move row (see [`Write::move_row`]).
pub(super) async fn apply_sqlite(
    conn: &mut SqliteConnection,
    write: &Write,
    rows_done: bool,
    hooks: Hooks,
) -> Result<Option<RatingChanges>, sqlx::Error> {
    Ok(apply!(
        write,
        conn,
        PROBE_SQLITE,
        super::tournaments::apply_sqlite,
        super::accounts::apply_sqlite,
        super::analysis::apply_sqlite,
        super::fair_play::apply_sqlite,
        super::push::apply_sqlite,
        super::puzzles::apply_sqlite,
        super::ratings::rate_sqlite,
        apply_sqlite,
        rows_done,
        hooks
    ))
}

/// Applies a write on a PostgreSQL connection; with `rows_done`, without its move row.
pub(super) async fn apply_postgres(
    conn: &mut PgConnection,
    write: &Write,
    rows_done: bool,
    hooks: Hooks,
) -> Result<Option<RatingChanges>, sqlx::Error> {
    Ok(apply!(
        write,
        conn,
        PROBE_POSTGRES,
        super::tournaments::apply_postgres,
        super::accounts::apply_postgres,
        super::analysis::apply_postgres,
        super::fair_play::apply_postgres,
        super::push::apply_postgres,
        super::puzzles::apply_postgres,
        super::ratings::rate_postgres,
        apply_postgres,
        rows_done,
        hooks
    ))
}
