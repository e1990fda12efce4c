//! Swiss pairing: a simplified Dutch system.
//!
//! Hard rules (never broken): no two players meet twice; a player gets at most one bye;
//! players who left are not paired. The colour rule (no colour three times in a row,
//! never two more games with one colour than with the other) is hard too, unless the
//! round cannot be paired with it at all; then it is relaxed for that round (as FIDE
//! relaxes absolute colour preferences in the last rounds).
//!
//! How: players are ranked by points, then seed. With an odd number, the bye goes to
//! the lowest-ranked player who has not had one and without whom everyone else can
//! still be paired. Then, from the top, each player takes the first opponent in order of
//! preference (closest score; then both getting the colour they are due; then, inside
//! the score group, the player half a group below, as S1 meets S2 in the Dutch system)
//! such that everyone left can still be paired, which a maximum matching decides
//! ([`super::matching`]). Last, two boards swap opponents while that brings paired
//! scores closer (sum of squared differences) or, at equal scores, gives more players
//! their colour. Colours: the player with more blacks (then the one who had Black last)
//! gets White; with no history, the higher-ranked player has White on odd boards.

use draughts::Color;

use super::RoundPairing;
use super::matching::{Graph, Matching};

/// A player as the pairing sees them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SwissPlayer {
    /// Points so far (win 2, draw 1, bye 2).
    pub points: u32,
    /// Colours of the games played, in order (forfeits and byes are not games).
    pub colours: Vec<Color>,
    /// Everyone already met or paired with (forfeits included).
    pub opponents: Vec<usize>,
    /// Had a bye already.
    pub had_bye: bool,
    /// Still in the tournament (has not left).
    pub active: bool,
}

impl SwissPlayer {
    /// Games with White minus games with Black.
    pub fn colour_difference(&self) -> i32 {
        self.colours
            .iter()
            .map(|c| if *c == Color::White { 1 } else { -1 })
            .sum()
    }

    /// Whether taking `colour` next keeps the colour rule.
    pub fn may_take(&self, colour: Color) -> bool {
        let step = if colour == Color::White { 1 } else { -1 };
        if (self.colour_difference() + step).abs() > 2 {
            return false;
        }
        !self.colours.ends_with(&[colour, colour])
    }

    /// How much the player wants White (negative: Black): the colour difference
    /// counts double, the alternation once.
    fn wants_white(&self) -> i32 {
        let last = match self.colours.last() {
            Some(Color::White) => -1,
            Some(Color::Black) => 1,
            None => 0,
        };
        -2 * self.colour_difference() + last
    }
}

/// Whether a history keeps the colour rule (tests and checks).
pub fn colour_rule_kept(colours: &[Color]) -> bool {
    let mut p = SwissPlayer::default();
    for &c in colours {
        if !p.may_take(c) {
            return false;
        }
        p.colours.push(c);
    }
    true
}

/// The next round, or `None` when it cannot be paired without a repeat or a second bye
/// (or fewer than two players are left).
pub fn pair(players: &[SwissPlayer]) -> Option<RoundPairing> {
    pair_with(players, true).or_else(|| pair_with(players, false))
}

/// Whether the next round can be paired keeping the colour rule.
pub fn pairable_keeping_colours(players: &[SwissPlayer]) -> bool {
    pair_with(players, true).is_some()
}

/// The allowed-pairs graph of the active players: no repeats, and with `strict` a
/// colour allocation that keeps the colour rule for both.
pub fn graph(players: &[SwissPlayer], strict: bool) -> Graph {
    let n = players.len();
    let mut g = Graph::new(n);
    for a in 0..n {
        g.set_alive(a, players[a].active);
        for b in a + 1..n {
            if players[a].active && players[b].active && allowed(players, a, b, strict) {
                g.connect(a, b);
            }
        }
    }
    g
}

fn allowed(players: &[SwissPlayer], a: usize, b: usize, strict: bool) -> bool {
    let (pa, pb) = (&players[a], &players[b]);
    if pa.opponents.contains(&b) || pb.opponents.contains(&a) {
        return false;
    }
    !strict
        || pa.may_take(Color::White) && pb.may_take(Color::Black)
        || pa.may_take(Color::Black) && pb.may_take(Color::White)
}

/// Ranking order: points, then seed.
fn ranked(players: &[SwissPlayer]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..players.len()).filter(|&p| players[p].active).collect();
    order.sort_by_key(|&p| (std::cmp::Reverse(players[p].points), p));
    order
}

fn pair_with(players: &[SwissPlayer], strict: bool) -> Option<RoundPairing> {
    let mut g = graph(players, strict);
    let order = ranked(players);
    if order.len() < 2 {
        return None;
    }
    let bye = if order.len() % 2 == 1 {
        let mut found = None;
        for &p in order.iter().rev().filter(|&&p| !players[p].had_bye) {
            g.set_alive(p, false);
            if g.has_perfect_matching() {
                found = Some(p);
                break;
            }
            g.set_alive(p, true);
        }
        Some(found?)
    } else {
        None
    };
    let mut matching = Matching::maximum(&g);
    if !matching.is_perfect(&g) {
        return None;
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (i, &a) in order.iter().enumerate() {
        if !g.alive(a) {
            continue;
        }
        let left: Vec<usize> = order[i + 1..]
            .iter()
            .copied()
            .filter(|&b| g.alive(b))
            .collect();
        // S1 meets S2: the player half a score group below.
        let group = left
            .iter()
            .filter(|&&b| players[b].points == players[a].points)
            .count();
        let mirror = group.div_ceil(2).saturating_sub(1);
        let mut candidates: Vec<(usize, usize)> = left
            .iter()
            .copied()
            .enumerate()
            .filter(|&(_, b)| g.connected(a, b))
            .collect();
        candidates.sort_by_key(|&(pos, b)| {
            (
                players[a].points.abs_diff(players[b].points),
                colour_cost(players, a, b),
                pos.abs_diff(mirror),
            )
        });
        let chosen = candidates
            .into_iter()
            .find_map(|(_, b)| still_pairable(&g, &matching, a, b).map(|m| (b, m)));
        let (b, m) = chosen?;
        matching = m;
        g.set_alive(a, false);
        g.set_alive(b, false);
        pairs.push((a, b));
    }
    let strict_graph = graph(players, strict);
    improve(players, &strict_graph, &mut pairs);
    // Boards in order of the higher-placed player.
    let rank_of = |p: usize| order.iter().position(|&q| q == p).unwrap_or(usize::MAX);
    for pair in &mut pairs {
        if rank_of(pair.1) < rank_of(pair.0) {
            *pair = (pair.1, pair.0);
        }
    }
    pairs.sort_by_key(|&(a, _)| rank_of(a));
    let boards = pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| allocate(players, a, b, i + 1, strict))
        .collect();
    Some(RoundPairing { boards, bye })
}

/// The matching left when `a` and `b` are paired, if everyone else can still be paired.
fn still_pairable(g: &Graph, m: &Matching, a: usize, b: usize) -> Option<Matching> {
    let mut rest = g.clone();
    rest.set_alive(a, false);
    rest.set_alive(b, false);
    let mut m = m.clone();
    let ma = m.mate(a);
    m.unmatch(a);
    m.unmatch(b);
    if ma == Some(b) {
        return Some(m);
    }
    // The partners of a and b are left alone: one augmenting path must join them.
    if let Some(ma) = ma
        && !m.augment(&rest, ma)
    {
        return None;
    }
    m.is_perfect(&rest).then_some(m)
}

/// The colour cost of a board: players not getting the colour they are due (and, when
/// the colour rule is relaxed, ten for each break of it).
fn colour_cost(players: &[SwissPlayer], a: usize, b: usize) -> u32 {
    let (white, black) = allocate(players, a, b, 1, false);
    let (w, bl) = (&players[white], &players[black]);
    let mut cost = u32::from(w.wants_white() < 0) + u32::from(bl.wants_white() > 0);
    cost += 10 * u32::from(!w.may_take(Color::White));
    cost += 10 * u32::from(!bl.may_take(Color::Black));
    cost
}

/// What a set of boards costs: (sum of squared score differences, colour cost).
fn cost(players: &[SwissPlayer], a: usize, b: usize) -> (u32, u32) {
    let d = players[a].points.abs_diff(players[b].points);
    (d * d, colour_cost(players, a, b))
}

/// Two boards swap opponents while that lowers the total cost (squared score
/// differences first, then colours), keeping every hard rule of `g`.
pub fn improve(players: &[SwissPlayer], g: &Graph, pairs: &mut [(usize, usize)]) {
    let total = |x: (u32, u32), y: (u32, u32)| (x.0 + y.0, x.1 + y.1);
    // Each swap lowers a bounded cost, so this ends; the bound is only a safeguard.
    for _ in 0..1000 {
        let mut better = false;
        for i in 0..pairs.len() {
            for j in i + 1..pairs.len() {
                let ((a, b), (c, d)) = (pairs[i], pairs[j]);
                let now = total(cost(players, a, b), cost(players, c, d));
                for (x, y) in [((a, c), (b, d)), ((a, d), (b, c))] {
                    if g.connected(x.0, x.1)
                        && g.connected(y.0, y.1)
                        && total(cost(players, x.0, x.1), cost(players, y.0, y.1)) < now
                    {
                        pairs[i] = x;
                        pairs[j] = y;
                        better = true;
                        break;
                    }
                }
            }
        }
        if !better {
            break;
        }
    }
}

/// Whether some swap of opponents between two boards would lower the cost (for tests:
/// [`improve`] leaves none).
pub fn improvable(players: &[SwissPlayer], g: &Graph, boards: &[(usize, usize)]) -> bool {
    let mut pairs = boards.to_vec();
    let before = pairs.clone();
    improve(players, g, &mut pairs);
    pairs != before
}

/// Colours for the board of `a` (higher placed) and `b`, board number `board`: the
/// allocation the colour rule allows (when `strict`), then the one giving more players
/// what they are due, then alternation of the higher-placed player's colour, then the
/// board number (odd: `a` has White).
fn allocate(
    players: &[SwissPlayer],
    a: usize,
    b: usize,
    board: usize,
    strict: bool,
) -> (usize, usize) {
    let (pa, pb) = (&players[a], &players[b]);
    let a_white_ok = pa.may_take(Color::White) && pb.may_take(Color::Black);
    let b_white_ok = pb.may_take(Color::White) && pa.may_take(Color::Black);
    if strict || a_white_ok != b_white_ok {
        if a_white_ok && !b_white_ok {
            return (a, b);
        }
        if b_white_ok && !a_white_ok {
            return (b, a);
        }
    }
    let (wa, wb) = (pa.wants_white(), pb.wants_white());
    if wa != wb {
        return if wa > wb { (a, b) } else { (b, a) };
    }
    match pa.colours.last() {
        Some(Color::Black) => (a, b),
        Some(Color::White) => (b, a),
        None if board % 2 == 1 => (a, b),
        None => (b, a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh(n: usize) -> Vec<SwissPlayer> {
        vec![
            SwissPlayer {
                active: true,
                ..SwissPlayer::default()
            };
            n
        ]
    }

    #[test]
    fn round_one_pairs_the_top_half_with_the_bottom_half() {
        let r = pair(&fresh(8)).unwrap_or_default();
        assert_eq!(r.boards, [(0, 4), (5, 1), (2, 6), (7, 3)]);
        assert_eq!(r.bye, None);
        let r = pair(&fresh(5)).unwrap_or_default();
        assert_eq!(r.bye, Some(4), "the lowest seed sits out");
        assert_eq!(r.boards, [(0, 2), (3, 1)]);
    }

    #[test]
    fn the_colour_rule() {
        use Color::{Black, White};
        assert!(colour_rule_kept(&[White, Black, White, White, Black]));
        assert!(!colour_rule_kept(&[White, White, White]));
        assert!(!colour_rule_kept(&[
            White, Black, White, White, Black, White, White
        ]));
        assert!(colour_rule_kept(&[
            White, White, Black, White, Black, Black
        ]));
    }

    #[test]
    fn two_players_who_met_are_not_paired_again() {
        let mut p = fresh(4);
        // 0 beat 2, 1 beat 3: the winners would meet, but they met already.
        p[0].points = 2;
        p[1].points = 2;
        p[0].opponents = vec![1];
        p[1].opponents = vec![0];
        p[2].opponents = vec![3];
        p[3].opponents = vec![2];
        let r = pair(&p).unwrap_or_default();
        for &(w, b) in &r.boards {
            assert!(!p[w].opponents.contains(&b));
        }
        assert_eq!(r.boards.len(), 2);
    }

    #[test]
    fn nobody_left_to_meet_ends_the_pairing() {
        let mut p = fresh(2);
        p[0].opponents = vec![1];
        p[1].opponents = vec![0];
        assert_eq!(pair(&p), None);
        let mut p = fresh(3);
        for q in &mut p {
            q.had_bye = true;
        }
        assert_eq!(pair(&p), None, "nobody can take the bye");
    }
}
