//! Conditional moves (issue 40, item 4; docs/protocol.md "Conditional moves"): at a
//! correspondence table, the side waiting for the opponent's move prepares replies. Each
//! line starts with a move of the opponent, then the reply, then the opponent again...;
//! when the opponent's move is the first of a line, its reply is played at once, and the
//! lines that went that way go on (two moves shorter); a move no line expected cancels
//! them all.
//!
//! Pure: checked against the rules here ([`Conditional::new`]) and advanced by
//! [`Conditional::after`]; the table stores them (durable before they are answered) and
//! plays the reply as the player's own move.

use draughts::{Color, Game};
use serde::{Deserialize, Serialize};

use crate::refusal::Refusal;

/// Lines a player may prepare at most.
pub const MAX_LINES: usize = 10;

/// Moves (of both sides) a line may hold at most.
pub const MAX_PLIES: usize = 16;

/// A player's prepared replies in one game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conditional {
    /// The side that prepared them (not to move).
    pub by: Color,
    /// The moves played in the game when the lines start (they are for the next ply).
    pub ply: u32,
    /// The lines, every move written in full by the engine.
    pub lines: Vec<Vec<String>>,
}

/// The stored form.
#[derive(Serialize, Deserialize)]
struct Stored {
    by: String,
    ply: u32,
    lines: Vec<Vec<String>>,
}

fn bad(m: impl Into<String>) -> Refusal {
    Refusal::bad(m)
}

impl Conditional {
    /// Checks `lines` from `game`'s position, where `by`'s opponent is to move and `ply`
    /// moves have been played. `Ok(None)` for no lines (clearing them).
    ///
    /// Fails with `bad_message` when `by` is the side to move, for too many lines, a line
    /// too long, of an odd number of moves (a last move of the opponent answers nothing)
    /// or empty, a move that is not legal where it stands (the message names it), or two
    /// lines with the same first move but different replies (which one would be played?).
    pub fn new(
        game: &Game,
        by: Color,
        ply: u32,
        lines: &[Vec<String>],
    ) -> Result<Option<Conditional>, Refusal> {
        if lines.is_empty() {
            return Ok(None);
        }
        if game.position().turn() == by {
            return Err(bad(
                "conditional moves are prepared while the opponent is to move",
            ));
        }
        if lines.len() > MAX_LINES {
            return Err(bad(format!("at most {MAX_LINES} lines")));
        }
        let mut out: Vec<Vec<String>> = Vec::with_capacity(lines.len());
        for (i, line) in lines.iter().enumerate() {
            if line.is_empty() || line.len() % 2 != 0 {
                return Err(bad(format!(
                    "line {}: an opponent's move and a reply, in pairs",
                    i + 1
                )));
            }
            if line.len() > MAX_PLIES {
                return Err(bad(format!("line {}: at most {MAX_PLIES} moves", i + 1)));
            }
            let mut g = game.clone();
            let mut full = Vec::with_capacity(line.len());
            for text in line {
                let pos = g.position().clone();
                let mv = pos
                    .parse_move(text)
                    .map_err(|e| bad(format!("line {}, {text}: {e}", i + 1)))?;
                full.push(pos.move_to_string(&mv));
                g.play(&mv)
                    .map_err(|_| bad(format!("line {}, {text}: not legal here", i + 1)))?;
                if g.outcome().is_some() && full.len() < line.len() {
                    return Err(bad(format!("line {}: the game ends at {text}", i + 1)));
                }
            }
            for other in &out {
                // The same moves of the opponent so far must get the same replies.
                for (a, b) in other.chunks(2).zip(full.chunks(2)) {
                    if a[0] != b[0] {
                        break;
                    }
                    if a[1] != b[1] {
                        return Err(bad(format!(
                            "line {}: another line answers {} with {}",
                            i + 1,
                            a[0],
                            a[1]
                        )));
                    }
                }
            }
            out.push(full);
        }
        Ok(Some(Conditional {
            by,
            ply,
            lines: out,
        }))
    }

    /// The opponent played `played` (written in full): the reply to play now, if a line
    /// expected it, and the lines left after that reply (`None`: none left).
    pub fn after(&self, played: &str) -> (Option<String>, Option<Conditional>) {
        let mut reply = None;
        let mut left = Vec::new();
        for line in &self.lines {
            if line.first().map(String::as_str) != Some(played) {
                continue;
            }
            let Some(r) = line.get(1) else { continue };
            // Checked when set: every line of this first move has this reply.
            reply.get_or_insert_with(|| r.clone());
            if line.len() > 2 {
                left.push(line[2..].to_vec());
            }
        }
        let left = (reply.is_some() && !left.is_empty()).then(|| Conditional {
            by: self.by,
            ply: self.ply + 2,
            lines: left,
        });
        (reply, left)
    }

    /// Their stored form (migration 0021).
    pub fn to_json(&self) -> String {
        let stored = Stored {
            by: if self.by == Color::White {
                "white"
            } else {
                "black"
            }
            .to_owned(),
            ply: self.ply,
            lines: self.lines.clone(),
        };
        serde_json::to_string(&stored).unwrap_or_default()
    }

    /// From their stored form, if it reads.
    pub fn from_json(text: &str) -> Option<Conditional> {
        let s: Stored = serde_json::from_str(text).ok()?;
        let by = match s.by.as_str() {
            "white" => Color::White,
            "black" => Color::Black,
            _ => return None,
        };
        Some(Conditional {
            by,
            ply: s.ply,
            lines: s.lines,
        })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use draughts::{Position, Rules, Variant};

    fn russian_after(moves: &[&str]) -> Game {
        let mut g = Game::new(Position::new(Rules::new(Variant::Russian)));
        for m in moves {
            let mv = g.position().parse_move(m).unwrap();
            g.play(&mv).unwrap();
        }
        g
    }

    fn lines(l: &[&[&str]]) -> Vec<Vec<String>> {
        l.iter()
            .map(|x| x.iter().map(|m| (*m).to_owned()).collect())
            .collect()
    }

    #[test]
    fn lines_are_checked_against_the_rules() {
        // White played c3-d4: Black to move, White prepares.
        let g = russian_after(&["c3-d4"]);
        let ok = Conditional::new(
            &g,
            Color::White,
            1,
            &lines(&[&["f6-g5", "g3-h4"], &["b6-a5", "b2-c3", "a7-b6", "c3-b4"]]),
        )
        .unwrap()
        .unwrap();
        assert_eq!(ok.lines.len(), 2);
        assert_eq!(ok.by, Color::White);
        // Nothing to clear with: none.
        assert_eq!(Conditional::new(&g, Color::White, 1, &[]).unwrap(), None);
        // The side to move prepares nothing.
        assert!(Conditional::new(&g, Color::Black, 1, &lines(&[&["f6-g5", "g3-h4"]])).is_err());
        // An illegal move, an odd line, an empty one, too long, too many.
        for l in [
            lines(&[&["f6-g5", "a1-h8"]]),
            lines(&[&["e3-f4", "g3-h4"]]),
            lines(&[&["f6-g5"]]),
            lines(&[&[]]),
        ] {
            assert!(Conditional::new(&g, Color::White, 1, &l).is_err(), "{l:?}");
        }
        let long: Vec<String> = ["f6-g5", "g3-h4", "g7-f6", "h2-g3"]
            .iter()
            .cycle()
            .take(MAX_PLIES + 2)
            .map(|m| (*m).to_owned())
            .collect();
        assert!(Conditional::new(&g, Color::White, 1, &[long]).is_err());
        let many = vec![vec!["f6-g5".to_owned(), "g3-h4".to_owned()]; MAX_LINES + 1];
        assert!(Conditional::new(&g, Color::White, 1, &many).is_err());
        // Two answers to one move.
        let two = lines(&[&["f6-g5", "g3-h4"], &["f6-g5", "e3-f4"]]);
        assert!(Conditional::new(&g, Color::White, 1, &two).is_err());
    }

    #[test]
    fn the_matching_line_is_played_and_the_others_go() {
        let g = russian_after(&["c3-d4"]);
        let c = Conditional::new(
            &g,
            Color::White,
            1,
            &lines(&[
                &["f6-g5", "g3-h4", "g7-f6", "h2-g3"],
                &["f6-g5", "g3-h4", "b6-a5", "h4xf6"],
                &["b6-a5", "b2-c3"],
            ]),
        )
        .unwrap()
        .unwrap();
        let (reply, left) = c.after("f6-g5");
        assert_eq!(reply.as_deref(), Some("g3-h4"));
        let left = left.unwrap();
        assert_eq!(left.ply, 3);
        assert_eq!(left.lines.len(), 2);
        assert_eq!(left.lines[0], lines(&[&["g7-f6", "h2-g3"]])[0]);
        assert_eq!(left.lines[1][0], "b6-a5");
        // The last pair of a line: played, nothing left.
        let (reply, rest) = left.after("b6-a5");
        assert_eq!(reply.as_ref(), Some(&left.lines[1][1]));
        assert_eq!(rest, None);
        // A move no line expected: no reply, all gone.
        assert_eq!(c.after("h6-g5"), (None, None));
        // Stored and read back.
        assert_eq!(Conditional::from_json(&c.to_json()), Some(c));
    }
}
