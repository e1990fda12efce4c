//! Standings: points and tie-breaks from the results so far. Pure.
//!
//! Points are the draughts convention: a win 2, a draw 1, a loss 0. A Swiss bye scores
//! a win (2; in micro-match rounds both games' worth, 4); a round-robin bye (odd numbers:
//! everyone sits out once) scores nothing. Micro-match rounds are scored by games: each of
//! a pairing's two games counts as above, so a match won 2-0 is 4 points, 1½-½ is 3.
//! A forfeit (a game not played because a player had left) counts as a win for the
//! opponent; a game without a result (both forfeited) gives neither anything.
//!
//! Tie-breaks, all in points of the same scale:
//! - Buchholz: the sum of the points of every opponent met (forfeits included, a bye
//!   adds nothing);
//! - Sonneborn-Berger: the points of the opponents beaten plus half the points of the
//!   opponents drawn;
//! - wins: games won (forfeits included).
//!
//! Order: round-robin by points, Sonneborn-Berger, wins; Swiss by points, Buchholz,
//! Sonneborn-Berger, wins. Players equal on all of them share a rank and are listed by
//! seed.

use damka_protocol::tournament::TournamentKind;

/// How a game between two players ended, as far as points go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// White won.
    White,
    /// Black won.
    Black,
    /// Drawn.
    Draw,
    /// No result for either (a double forfeit, or a game the server had to abort).
    Void,
}

impl Outcome {
    /// The same game seen with the colours swapped (a micro-match's second game).
    pub fn swapped(self) -> Outcome {
        match self {
            Outcome::White => Outcome::Black,
            Outcome::Black => Outcome::White,
            other => other,
        }
    }

    /// Points of (white, black).
    pub fn points(self) -> (u32, u32) {
        match self {
            Outcome::White => (2, 0),
            Outcome::Black => (0, 2),
            Outcome::Draw => (1, 1),
            Outcome::Void => (0, 0),
        }
    }
}

/// A finished game (or forfeit) between two players, by seed index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decided {
    /// White.
    pub white: usize,
    /// Black.
    pub black: usize,
    /// How it ended.
    pub outcome: Outcome,
}

/// One line of the standings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The player (seed index).
    pub player: usize,
    /// Place from 1 (shared when equal on everything).
    pub rank: u32,
    /// Points.
    pub points: u32,
    /// Games against an opponent.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Byes.
    pub byes: u32,
    /// Buchholz.
    pub buchholz: u32,
    /// Sonneborn-Berger, doubled (so it stays an integer).
    pub sonneborn_berger_x2: u32,
}

/// Points of a bye for this kind.
pub fn bye_points(kind: TournamentKind) -> u32 {
    match kind {
        TournamentKind::Swiss => 2,
        TournamentKind::RoundRobin => 0,
    }
}

/// Each player's points from the decided games and the byes (`bye`: what one is worth).
pub fn points(bye: u32, players: usize, games: &[Decided], byes: &[usize]) -> Vec<u32> {
    let mut points = vec![0; players];
    for g in games {
        let (w, b) = g.outcome.points();
        points[g.white] += w;
        points[g.black] += b;
    }
    for &p in byes {
        points[p] += bye;
    }
    points
}

/// The standings of `players` players, best first (`bye`: what a bye is worth).
pub fn standings(
    kind: TournamentKind,
    bye: u32,
    players: usize,
    games: &[Decided],
    byes: &[usize],
) -> Vec<Line> {
    let points = points(bye, players, games, byes);
    let mut lines: Vec<Line> = (0..players)
        .map(|p| Line {
            player: p,
            rank: 0,
            points: points[p],
            games: 0,
            wins: 0,
            byes: u32::try_from(byes.iter().filter(|&&b| b == p).count()).unwrap_or(0),
            buchholz: 0,
            sonneborn_berger_x2: 0,
        })
        .collect();
    for g in games {
        let (w, b) = g.outcome.points();
        for (me, opp, mine) in [(g.white, g.black, w), (g.black, g.white, b)] {
            let line = &mut lines[me];
            line.games += 1;
            line.wins += u32::from(mine == 2);
            line.buchholz += points[opp];
            line.sonneborn_berger_x2 += mine * points[opp];
        }
    }
    let key = |l: &Line| -> (u32, u32, u32, u32) {
        match kind {
            TournamentKind::RoundRobin => (l.points, l.sonneborn_berger_x2, l.wins, 0),
            TournamentKind::Swiss => (l.points, l.buchholz, l.sonneborn_berger_x2, l.wins),
        }
    };
    lines.sort_by(|a, b| key(b).cmp(&key(a)).then(a.player.cmp(&b.player)));
    let mut rank = 0;
    for i in 0..lines.len() {
        if i == 0 || key(&lines[i]) != key(&lines[i - 1]) {
            rank = u32::try_from(i).unwrap_or(u32::MAX) + 1;
        }
        lines[i].rank = rank;
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(white: usize, black: usize, outcome: Outcome) -> Decided {
        Decided {
            white,
            black,
            outcome,
        }
    }

    #[test]
    fn a_small_round_robin_by_hand() {
        // A beats B, A draws C, B beats C; D loses to everyone but draws C.
        let (a, b, c, d) = (0, 1, 2, 3);
        let games = [
            game(a, b, Outcome::White),
            game(c, a, Outcome::Draw),
            game(b, c, Outcome::White),
            game(a, d, Outcome::White),
            game(d, b, Outcome::Black),
            game(c, d, Outcome::Draw),
        ];
        let s = standings(TournamentKind::RoundRobin, 0, 4, &games, &[]);
        // Points: A 2+1+2 = 5, B 0+2+2 = 4, C 1+0+1 = 2, D 0+0+1 = 1.
        let by = |p: usize| {
            s.iter()
                .find(|l| l.player == p)
                .cloned()
                .unwrap_or_else(|| panic!())
        };
        assert_eq!(
            [by(a).points, by(b).points, by(c).points, by(d).points],
            [5, 4, 2, 1]
        );
        // SB: A beat B (4) and D (1), drew C (2): 4 + 1 + 2/2 = 6 → doubled 12.
        assert_eq!(by(a).sonneborn_berger_x2, 12);
        // B beat C (2) and D (1): 3 → 6. C drew A (5) and D (1): 3 → 6. D drew C: 1 → 2.
        assert_eq!(by(b).sonneborn_berger_x2, 6);
        assert_eq!(by(c).sonneborn_berger_x2, 6);
        assert_eq!(by(d).sonneborn_berger_x2, 2);
        assert_eq!(s.iter().map(|l| l.player).collect::<Vec<_>>(), [a, b, c, d]);
        assert_eq!(s.iter().map(|l| l.rank).collect::<Vec<_>>(), [1, 2, 3, 4]);
    }

    #[test]
    fn equal_players_share_a_rank_and_a_swiss_bye_scores_a_win() {
        // Three players, one game drawn, one bye.
        let games = [game(0, 1, Outcome::Draw)];
        let s = standings(TournamentKind::Swiss, 2, 3, &games, &[2]);
        assert_eq!(s[0].player, 2);
        assert_eq!(s[0].points, 2);
        assert_eq!(s[0].buchholz, 0, "a bye adds nothing");
        assert_eq!((s[1].rank, s[2].rank), (2, 2));
        assert_eq!((s[1].player, s[2].player), (0, 1));
        let rr = standings(TournamentKind::RoundRobin, 0, 3, &games, &[2]);
        assert_eq!(rr.iter().find(|l| l.player == 2).map(|l| l.points), Some(0));
    }
}
