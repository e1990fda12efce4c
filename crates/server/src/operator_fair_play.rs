//! `damka account pairs` and `damka account void USERNAME`: the operator's tools against
//! rating farming (issue 34, item 6). Run beside a running server on the same database:
//! voiding is one write that locks the ratings while it recomputes them.

use damka_store::{FairPlayWrite, Store};

/// The pairs report: one line per pair of accounts with at least `min_games` rated games
/// against each other that ended in the last `days` days.
///
/// Fails with the database's error.
pub async fn pairs(store: &Store, days: u32, min_games: u32) -> Result<String, String> {
    let since = crate::time::unix_ms().saturating_sub(i64::from(days) * 86_400_000);
    let rows = store
        .suspicious_pairs(since, i64::from(min_games.max(1)))
        .await
        .map_err(|e| e.to_string())?;
    if rows.is_empty() {
        return Ok(format!(
            "no pair of accounts played {min_games} rated games or more against each other in the last {days} days"
        ));
    }
    let mut out = format!(
        "pairs with {min_games}+ rated games in the last {days} days (quick: resigned or agreed within 10 plies)\n{:<24} {:<24} {:>6} {:>6} {:>6} {:>6}  same address\n",
        "a", "b", "games", "a won", "b won", "quick"
    );
    for r in rows {
        out.push_str(&format!(
            "{:<24} {:<24} {:>6} {:>6} {:>6} {:>6}  {}\n",
            r.a,
            r.b,
            r.games,
            r.a_wins,
            r.b_wins,
            r.quick,
            if r.same_address { "yes" } else { "no" }
        ));
    }
    Ok(out.trim_end().to_owned())
}

/// Voids an account's rated results and recomputes every rating; says how many games
/// it voided and the players whose ratings moved.
///
/// Fails with the database's error.
pub async fn void(store: &Store, username: &str, player_id: &str) -> Result<String, String> {
    let before = store.all_ratings().await.map_err(|e| e.to_string())?;
    let voided = store
        .rated_games_of(player_id)
        .await
        .map_err(|e| e.to_string())?;
    store
        .fair_play_write(FairPlayWrite::Void {
            player_id: player_id.to_owned(),
        })
        .await
        .map_err(|e| e.to_string())?;
    let after = store.all_ratings().await.map_err(|e| e.to_string())?;
    tracing::info!(%username, voided, "rated results voided by the operator");
    let mut moved: Vec<(String, String, i64, i64)> = before
        .iter()
        .filter_map(|(key, r)| {
            let new = after.get(key).map_or(1500.0, |a| a.rating.rating);
            let (old, new) = (r.rating.rating.round() as i64, new.round() as i64);
            (old != new).then(|| (key.0.clone(), key.1.clone(), old, new))
        })
        .collect();
    moved.sort_by_key(|(_, _, old, new)| std::cmp::Reverse((new - old).abs()));
    let mut out = format!(
        "{voided} rated games of {username} voided; every rating recomputed ({} ratings changed)",
        moved.len()
    );
    for (player, variant, old, new) in moved.iter().take(20) {
        out.push_str(&format!("\n  {player} {variant}: {old} -> {new}"));
    }
    Ok(out)
}
