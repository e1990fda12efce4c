//! One batch of writes as few statements as it can be: every move row of the batch in
//! one multi-row `INSERT` (per 64 rows), then the rest of each write. Both group-commit
//! writers ([`super::writer`] for SQLite, [`super::pg_writer`] for PostgreSQL) commit a
//! batch in one transaction this way.
//!
//! The order inside a batch does not matter: every caller awaits its own write before it
//! makes the next, so a batch holds at most one write of any table (or guest), and writes
//! of different tables touch different rows.

use std::sync::OnceLock;

use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnection;

use super::MoveRow;
use super::queue::Written;
use super::ratings::Hooks;
use super::write::{Write, apply_postgres, apply_sqlite};

/// Most rows in one `INSERT`; a bigger batch takes several.
const MAX_ROWS: usize = 64;

/// `INSERT INTO moves ... VALUES (...), (...)` with `n` rows (1 to [`MAX_ROWS`]) and
/// PostgreSQL's numbered placeholders, the text made once per size so every connection
/// prepares each size once.
fn insert_moves_sql(n: usize) -> &'static str {
    static SQL: OnceLock<Vec<String>> = OnceLock::new();
    let all = SQL.get_or_init(|| (1..=MAX_ROWS).map(|r| insert_moves_text(r, true)).collect());
    all.get(n.clamp(1, MAX_ROWS) - 1).map_or("", String::as_str)
}

/// SQLite: the same with anonymous placeholders (`?`, bound in order). sqlx asks SQLite
/// for each placeholder's name before binding it, and finding a numbered one's name
/// walks the list of names: quadratic in the placeholders, most of a commit's time
/// with hundreds of rows.
fn insert_moves_sql_sqlite(n: usize) -> &'static str {
    static SQL: OnceLock<Vec<String>> = OnceLock::new();
    let all = SQL.get_or_init(|| {
        (1..=MAX_ROWS)
            .map(|r| insert_moves_text(r, false))
            .collect()
    });
    all.get(n.clamp(1, MAX_ROWS) - 1).map_or("", String::as_str)
}

/// SQLite: [`insert_moves_sql_sqlite`] between `BEGIN IMMEDIATE` and `COMMIT`, one
/// statement list (sqlx runs a list in one round trip to the connection's thread,
/// binding the placeholders in order across it).
fn commit_moves_sql(n: usize) -> &'static str {
    static SQL: OnceLock<Vec<String>> = OnceLock::new();
    let all = SQL.get_or_init(|| {
        (1..=MAX_ROWS)
            .map(|rows| {
                format!(
                    "BEGIN IMMEDIATE; {}; COMMIT",
                    insert_moves_text(rows, false)
                )
            })
            .collect()
    });
    all.get(n.clamp(1, MAX_ROWS) - 1).map_or("", String::as_str)
}

/// The `INSERT` for `rows` rows, with `$1`-style placeholders or with `?`.
fn insert_moves_text(rows: usize, numbered: bool) -> String {
    let mut sql = String::from(
        "INSERT INTO moves (game_id, ply, mv, fen_after, white_ms, black_ms, used_ms) VALUES ",
    );
    for r in 0..rows {
        if r > 0 {
            sql.push_str(", ");
        }
        let p: Vec<String> = (1..=7)
            .map(|c| {
                if numbered {
                    format!("${}", r * 7 + c)
                } else {
                    "?".to_owned()
                }
            })
            .collect();
        sql.push('(');
        sql.push_str(&p.join(", "));
        sql.push(')');
    }
    sql
}

/// Binds the seven values of each row, in placeholder order.
macro_rules! bind_rows {
    ($query:expr, $rows:expr) => {{
        let mut q = $query;
        for (game_id, m) in $rows {
            q = q
                .bind(game_id)
                .bind(m.ply)
                .bind(&m.mv)
                .bind(&m.fen_after)
                .bind(m.white_ms)
                .bind(m.black_ms)
                .bind(m.used_ms);
        }
        q
    }};
}

/// SQLite: commits a batch of plain moves (at most [`MAX_ROWS`]) as one statement list,
/// `BEGIN IMMEDIATE`, the `INSERT`, `COMMIT`: one round trip instead of three. `None`
/// for any other batch. On failure the transaction may be left open: the caller closes
/// the connection.
pub(super) async fn commit_moves_sqlite(
    conn: &mut SqliteConnection,
    writes: &[&Write],
) -> Option<Result<Vec<Written>, sqlx::Error>> {
    if writes.len() > MAX_ROWS || !writes.iter().all(|w| matches!(w, Write::Move { .. })) {
        return None;
    }
    let rows: Vec<(&str, &MoveRow)> = writes.iter().filter_map(|w| w.move_row()).collect();
    let q = bind_rows!(sqlx::query(commit_moves_sql(rows.len())), rows);
    Some(
        q.execute(&mut *conn)
            .await
            .map(|_| vec![None; writes.len()]),
    )
}

/// The move rows of a batch, in statements of at most [`MAX_ROWS`].
fn row_chunks<'a>(writes: &[&'a Write]) -> Vec<Vec<(&'a str, &'a MoveRow)>> {
    let rows: Vec<(&str, &MoveRow)> = writes.iter().filter_map(|w| w.move_row()).collect();
    rows.chunks(MAX_ROWS).map(<[_]>::to_vec).collect()
}

/// Inserts the batch's move rows (with the backend's `INSERT` of `$sql(n)`) and makes the
/// rest of its writes, on either backend's connection; what each write reports back, in
/// order.
macro_rules! apply_batch {
    ($conn:expr, $writes:expr, $apply:ident, $sql:ident, $hooks:expr) => {{
        let writes: &[&Write] = $writes;
        for chunk in row_chunks(writes) {
            let q = bind_rows!(sqlx::query($sql(chunk.len())), chunk);
            q.execute(&mut *$conn).await?;
        }
        let mut written = Vec::with_capacity(writes.len());
        for w in writes {
            written.push($apply(&mut *$conn, w, true, $hooks).await?);
        }
        Ok(written)
    }};
}

/// Applies a batch on a SQLite connection (inside the caller's transaction).
///
/// Fails with the first statement that fails.
pub(super) async fn apply_sqlite_batch(
    conn: &mut SqliteConnection,
    writes: &[&Write],
    hooks: Hooks,
) -> Result<Vec<Written>, sqlx::Error> {
    apply_batch!(conn, writes, apply_sqlite, insert_moves_sql_sqlite, hooks)
}

/// Applies a batch on a PostgreSQL connection (inside the caller's transaction).
///
/// Fails with the first statement that fails.
pub(super) async fn apply_postgres_batch(
    conn: &mut PgConnection,
    writes: &[&Write],
    hooks: Hooks,
) -> Result<Vec<Written>, sqlx::Error> {
    apply_batch!(conn, writes, apply_postgres, insert_moves_sql, hooks)
}

/// Whether the batch is one statement (so needs no transaction of its own on
/// PostgreSQL): plain moves that fit one `INSERT`, or a single one-statement write.
pub(super) fn one_statement(writes: &[&Write]) -> bool {
    match writes {
        [w] if w.move_row().is_none() => !w.is_multi_statement(),
        _ => writes.len() <= MAX_ROWS && writes.iter().all(|w| matches!(w, Write::Move { .. })),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_insert_has_seven_placeholders_per_row() {
        assert_eq!(
            insert_moves_sql(1),
            "INSERT INTO moves (game_id, ply, mv, fen_after, white_ms, black_ms, used_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7)"
        );
        let two = insert_moves_sql(2);
        assert!(two.ends_with("($8, $9, $10, $11, $12, $13, $14)"), "{two}");
        assert!(insert_moves_sql(64).ends_with("$448)"));
        assert!(commit_moves_sql(3).starts_with("BEGIN IMMEDIATE; INSERT INTO moves"));
        assert!(commit_moves_sql(3).ends_with("(?, ?, ?, ?, ?, ?, ?); COMMIT"));
        assert_eq!(insert_moves_sql_sqlite(64).matches('?').count(), 448);
    }
}
