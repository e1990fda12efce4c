//! Micro-matches at a table (`"micro_match": true`): two games from one opening with the
//! colours swapped, scored together. Pure: the actor asks what the next game is, tells the
//! match how each game ended, and shows it; the break's timer is its only deadline.
//!
//! A match's id is its first game's id; each game row stores it with the game's number
//! (`games.match_id`, `games.match_game`), which is all a restart needs to resume it.

use damka_protocol::Player;
use damka_protocol::micro_match::{MatchPlayers, MatchScore, MatchStatus, MatchView, Points};
use damka_store::{GameRow, MatchSlot};
use draughts::ballot::Ballot;
use draughts::{ByColor, Color, Move, Position, Rules};

use super::game::LiveGame;

/// The id of a micro-match's second game: its first game's id with `b` added, so that
/// a tournament can store both games' boards when it pairs (and find the second again
/// after a restart) before the second game exists. Never a first game's id (those have
/// 12 characters).
pub fn second_game_id(first: &str) -> String {
    format!("{first}b")
}

/// Where both games of a match start: the first game's start position (the variant's,
/// or its ballot's) and its random-opening plies.
#[derive(Debug, Clone)]
pub struct MatchOpening {
    /// The position before ply 1.
    pub fen: String,
    /// The ballot `fen` is the position of, if any.
    pub ballot: Option<&'static Ballot>,
    /// The random opening's plies played from `fen`, full paths (empty for none).
    pub moves: Vec<String>,
}

impl MatchOpening {
    /// The position and opening plies under `rules`; the start position, without
    /// opening, if the stored text no longer reads (never for a match this server began).
    pub fn start(&self, rules: Rules) -> (Position, Vec<Move>) {
        let Ok(start) = Position::from_fen(rules, &self.fen) else {
            return (Position::new(rules), Vec::new());
        };
        let mut pos = start.clone();
        let mut plies = Vec::with_capacity(self.moves.len());
        for text in &self.moves {
            let Some(next) = pos
                .parse_move(text)
                .ok()
                .and_then(|m| pos.play(&m).ok().map(|p| (m, p)))
            else {
                tracing::warn!(ply = text, "a micro-match's opening ply does not read");
                return (start, Vec::new());
            };
            plies.push(next.0);
            pos = next.1;
        }
        (start, plies)
    }
}

/// Where a match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// The first game is being played.
    First,
    /// The first game is over; the second starts at `until` (server ms), or earlier when
    /// both players press start.
    Break {
        /// When the second game starts by itself.
        until: u64,
    },
    /// The second game is being played.
    Second,
    /// Both games are over, or an aborted game ended the match.
    Over,
}

/// A micro-match: its games, players, opening and score.
#[derive(Debug, Clone)]
pub struct MicroMatch {
    /// The ids of its games so far, the first first; the first is the match's id.
    pub games: Vec<String>,
    /// The players by their colour in the first game.
    pub players: ByColor<Player>,
    /// Where both games start.
    pub opening: MatchOpening,
    /// Half points of each player, by their colour in the first game.
    pub halves: ByColor<u32>,
    /// Where it stands.
    pub stage: Stage,
}

impl MicroMatch {
    /// The match whose first game `game` has just started.
    pub fn first(game: &LiveGame) -> MicroMatch {
        MicroMatch {
            games: vec![game.id.clone()],
            players: game.players.clone(),
            opening: opening_of(game),
            halves: ByColor::default(),
            stage: Stage::First,
        }
    }

    /// The store's note of the second game, about to start.
    pub fn second_slot(&self) -> MatchSlot {
        MatchSlot {
            id: self.games[0].clone(),
            game: 2,
        }
    }

    /// Whether the match is between its games (the second is next).
    pub fn in_break(&self) -> bool {
        matches!(self.stage, Stage::Break { .. })
    }

    /// During the break: when the second game starts by itself (server ms).
    pub fn break_until(&self) -> Option<u64> {
        match self.stage {
            Stage::Break { until } => Some(until),
            _ => None,
        }
    }

    /// The second game's id (see [`second_game_id`]).
    pub fn second_id(&self) -> String {
        second_game_id(&self.games[0])
    }

    /// The second game's players: the first game's, colours swapped.
    pub fn second_players(&self) -> (Player, Player) {
        (self.players.black.clone(), self.players.white.clone())
    }

    /// The second game (`id`) has started.
    pub fn second_started(&mut self, id: &str) {
        self.games.push(id.to_owned());
        self.stage = Stage::Second;
    }

    /// The current game ended (`winner`: `None` for a draw; `aborted`: no result): its
    /// points count, and the match goes to the break (`until`: when the second game
    /// starts by itself) or ends. An aborted game ends the match with the points so far.
    pub fn game_over(&mut self, winner: Option<Color>, aborted: bool, until: u64) {
        let second = match self.stage {
            Stage::First => false,
            Stage::Second => true,
            Stage::Break { .. } | Stage::Over => return,
        };
        if aborted {
            self.stage = Stage::Over;
            return;
        }
        match winner {
            // In the second game the colours are swapped: White is the one who had Black.
            Some(c) => self.halves[if second { c.other() } else { c }] += 2,
            None => {
                self.halves.white += 1;
                self.halves.black += 1;
            }
        }
        self.stage = if second {
            Stage::Over
        } else {
            Stage::Break { until }
        };
    }

    /// The match as the wire shows it at `now` (server ms).
    pub fn view(&self, now: u64) -> MatchView {
        MatchView {
            games: self.games.clone(),
            score: MatchScore {
                white_first: Points {
                    halves: self.halves.white,
                },
                black_first: Points {
                    halves: self.halves.black,
                },
            },
            players: MatchPlayers {
                white_first: self.players.white.clone(),
                black_first: self.players.black.clone(),
            },
            status: match self.stage {
                Stage::First | Stage::Second => MatchStatus::Playing,
                Stage::Break { .. } => MatchStatus::Break,
                Stage::Over => MatchStatus::Over,
            },
            next_game_in: self.break_until().map(|t| t.saturating_sub(now)),
        }
    }

    /// A match as the store has it: `rows` its games, the first first (the second
    /// possibly still being played), `first_moves` the first game's moves (its opening
    /// plies are the second game's too); `until`: when a match in its break starts the
    /// second game. `None` if the rows are not a match.
    pub fn restored(
        rows: &[GameRow],
        first_moves: &[String],
        until: u64,
        variant: draughts::Variant,
    ) -> Option<MicroMatch> {
        let first = rows
            .first()
            .filter(|r| r.micro_match.as_ref().is_some_and(|s| s.game == 1))?;
        let mut m = MicroMatch {
            games: vec![first.id.clone()],
            players: ByColor {
                white: crate::computer::stored_player(&first.white_id, &first.white_name),
                black: crate::computer::stored_player(&first.black_id, &first.black_name),
            },
            opening: MatchOpening {
                fen: first.initial_fen.clone(),
                ballot: first
                    .ballot
                    .as_deref()
                    .and_then(|id| draughts::ballot::find(variant, id)),
                moves: first_moves
                    .iter()
                    .take(usize::try_from(first.opening_plies).unwrap_or(0))
                    .cloned()
                    .collect(),
            },
            halves: ByColor::default(),
            stage: Stage::First,
        };
        for row in rows.iter().take(2) {
            if row.id != m.games[0] {
                m.second_started(&row.id);
            }
            if row.status == damka_protocol::GameStatus::Over {
                let winner = match row.result {
                    Some(damka_protocol::GameResult::White) => Some(Color::White),
                    Some(damka_protocol::GameResult::Black) => Some(Color::Black),
                    _ => None,
                };
                m.game_over(winner, row.result.is_none(), until);
            }
        }
        Some(m)
    }
}

/// The opening a started game was played from.
fn opening_of(game: &LiveGame) -> MatchOpening {
    MatchOpening {
        fen: game.initial_fen.clone(),
        ballot: game.ballot,
        moves: game
            .moves
            .iter()
            .take(game.opening_plies as usize)
            .map(|m| m.mv.clone())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a_match() -> MicroMatch {
        MicroMatch {
            games: vec!["g1".into()],
            players: ByColor {
                white: Player::guest("a", "Ala"),
                black: Player::guest("b", "Bolek"),
            },
            opening: MatchOpening {
                fen: draughts::Variant::Russian.start_fen().to_owned(),
                ballot: None,
                moves: Vec::new(),
            },
            halves: ByColor::default(),
            stage: Stage::First,
        }
    }

    fn score(m: &MicroMatch) -> (f64, f64) {
        let v = m.view(0);
        (v.score.white_first.into(), v.score.black_first.into())
    }

    #[test]
    fn the_second_game_swaps_the_colours_in_the_score() {
        // Ala wins with White, then Bolek (White in game 2) wins: 1-1.
        let mut m = a_match();
        m.game_over(Some(Color::White), false, 10);
        assert_eq!(m.stage, Stage::Break { until: 10 });
        assert_eq!(m.view(4).next_game_in, Some(6));
        assert_eq!(m.view(4).status, MatchStatus::Break);
        let (w, b) = m.second_players();
        assert_eq!((w.name.as_str(), b.name.as_str()), ("Bolek", "Ala"));
        m.second_started("g2");
        m.game_over(Some(Color::White), false, 20);
        assert_eq!(score(&m), (1.0, 1.0));
        assert_eq!(m.stage, Stage::Over);
        assert_eq!(m.view(30).games, vec!["g1", "g2"]);
        // Ala wins with White, then Ala wins with Black: 2-0; a draw then a win: 1½-½.
        for (second, expect) in [(Some(Color::Black), (2.0, 0.0)), (None, (1.5, 0.5))] {
            let mut m = a_match();
            m.game_over(Some(Color::White), false, 10);
            m.second_started("g2");
            m.game_over(second, false, 20);
            assert_eq!(score(&m), expect);
        }
    }

    #[test]
    fn an_aborted_game_ends_the_match() {
        let mut m = a_match();
        m.game_over(None, true, 10);
        assert_eq!(m.stage, Stage::Over);
        assert_eq!(score(&m), (0.0, 0.0));
        let mut m = a_match();
        m.game_over(None, false, 10);
        m.second_started("g2");
        m.game_over(None, true, 20);
        assert_eq!(m.stage, Stage::Over);
        assert_eq!(score(&m), (0.5, 0.5));
        // A game over twice counts once.
        m.game_over(Some(Color::White), false, 30);
        assert_eq!(score(&m), (0.5, 0.5));
    }
}
