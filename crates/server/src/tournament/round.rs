//! A round begins: its pairings and all its games are stored in one transaction, then the
//! tables are opened (both seats taken, the game started) and each paired person is sent
//! to theirs with `tournament_game`.

use damka_protocol::TableTournament;

use super::actor::{TournamentActor, stored_result};
use super::model::PlannedRound;
use crate::table::TournamentGameSpec;
use damka_store::{PairingRow, TournamentWrite, Write};

impl TournamentActor {
    /// Stores a round with its games, then opens the tables and sends each paired
    /// person to theirs. Returns whether it was stored.
    pub(super) async fn start_round(&mut self, planned: PlannedRound) -> bool {
        // The seats show each player's rating as it is now, not as it was at the start.
        if let Err(e) = self.refresh_ratings().await {
            tracing::warn!(error = %e, "ratings not refreshed for the round");
        }
        let number = planned.number;
        let round = i64::from(number);
        let variant = self.room.config.variant;
        // One opening for the whole round (every board, both games of a micro-match).
        let opening = crate::table::ballot::draw(variant, self.t.settings.ballot.as_ref());
        let mut places = Vec::with_capacity(planned.boards.len());
        let mut prepared = Vec::new();
        for &(w, b, forfeit) in &planned.boards {
            if forfeit.is_some() {
                places.push(None);
                continue;
            }
            let white = self.t.players[w].player.clone();
            let black = self.t.players[b].player.clone();
            let rate_game = !self.t.settings.rated
                || crate::ratings::within_pair_limit(&self.core, &white.id, &black.id)
                    .await
                    .unwrap_or(true);
            let spec = TournamentGameSpec {
                table_id: self.tables.fresh_id(),
                game_id: crate::random::token_base36(12),
                tournament: TableTournament {
                    id: self.t.id.clone(),
                    round: number,
                },
                white,
                black,
                minutes: self.t.settings.minutes,
                increment: self.t.settings.increment,
                rated: self.t.settings.rated,
                rate_game,
                creator_ip: self.creator_ip,
                opening,
                micro_match: self.t.settings.micro_match,
            };
            let table = self.tables.prepare_tournament_game(&self.room, &spec);
            places.push(Some((spec.table_id.clone(), spec.game_id.clone())));
            prepared.push(table);
        }
        let boards = self.t.boards_of(&planned, &places);
        let ballot = opening.map(|b| b.id().to_owned());
        let mut rows: Vec<PairingRow> = boards
            .iter()
            .enumerate()
            .map(|(i, b)| PairingRow {
                round,
                board: i64::try_from(i + 1).unwrap_or(i64::MAX),
                white_id: self.t.players[b.white].player.id.clone(),
                black_id: Some(self.t.players[b.black].player.id.clone()),
                table_id: b.table.clone(),
                game_id: b.game.clone(),
                result: b.result.as_ref().map(|r| stored_result(r.outcome)),
                reason: b.result.as_ref().map(|r| r.reason.clone()),
                ballot: ballot.clone(),
            })
            .collect();
        if let Some(bye) = planned.bye {
            rows.push(PairingRow {
                round,
                board: 0,
                white_id: self.t.players[bye].player.id.clone(),
                black_id: None,
                table_id: None,
                game_id: None,
                result: None,
                reason: Some("bye".into()),
                ballot: None,
            });
        }
        let mut writes = vec![Write::Tournament(Box::new(TournamentWrite::Round {
            tournament: self.t.id.clone(),
            boards: rows,
        }))];
        writes.extend(
            prepared
                .iter()
                .map(|p| Write::Game(Box::new(p.game.clone()))),
        );
        if let Err(e) = self.core.store.write(Write::All(writes)).await {
            tracing::error!(error = %e, round = number, "cannot store a round; trying again");
            return false;
        }
        self.t.add_round(&planned, boards, opening);
        tracing::info!(round = number, "round paired");
        self.publish();
        for table in prepared {
            let id = table.seed.id.clone();
            if let Err(e) = self.tables.open_tournament_table(table.seed) {
                tracing::error!(error = %e, %id, "cannot open a tournament table");
            }
        }
        let tid = self.t.id.clone();
        for (&(w, b, _), place) in planned.boards.iter().zip(&places) {
            let Some((table, _)) = place else {
                continue;
            };
            for p in [w, b] {
                let player = &self.t.players[p].player;
                if !player.is_bot() {
                    self.room.tournament_game(&player.id, &tid, table, number);
                }
            }
        }
        true
    }
}
