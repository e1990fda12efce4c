//! Property tests of the Swiss pairing: many tournaments of 5 to 64 players with random
//! results (and a few players leaving), every round checked for the hard rules (no
//! repeated pairing, at most one bye each, nobody left out or paired twice, the colour
//! rule whenever the round can keep it), the bye going to the lowest score that can
//! take it, and the score groups (no two boards could swap opponents to pair closer
//! scores).

use draughts::Color;

use super::matching::Graph;
use super::swiss::{SwissPlayer, colour_rule_kept, graph, pair, pairable_keeping_colours};

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Whether the graph without `gone` has a perfect matching.
fn pairable_without(g: &Graph, gone: usize) -> bool {
    let mut g = g.clone();
    g.set_alive(gone, false);
    g.has_perfect_matching()
}

/// Plays one tournament of `n` players and `rounds` rounds; returns (rounds paired,
/// rounds that had to relax the colour rule).
fn tournament(n: usize, rounds: usize, rng: &mut Rng) -> (usize, usize) {
    let mut players = vec![
        SwissPlayer {
            active: true,
            ..SwissPlayer::default()
        };
        n
    ];
    let mut relaxed = 0;
    for round in 0..rounds {
        let active: Vec<usize> = (0..n).filter(|&p| players[p].active).collect();
        let strict = pairable_keeping_colours(&players);
        let Some(r) = pair(&players) else {
            // Only when nothing can pair them: no perfect matching with any bye.
            let g = graph(&players, false);
            if active.len().is_multiple_of(2) {
                assert!(
                    active.len() < 2 || !g.has_perfect_matching(),
                    "{n}/{round}: gave up"
                );
            } else {
                for &p in active.iter().filter(|&&p| !players[p].had_bye) {
                    assert!(!pairable_without(&g, p), "{n}/{round}: gave up");
                }
            }
            return (round, relaxed);
        };
        relaxed += usize::from(!strict);
        // Everyone active exactly once, nobody else.
        let mut seen = vec![0; n];
        for &(w, b) in &r.boards {
            seen[w] += 1;
            seen[b] += 1;
        }
        if let Some(p) = r.bye {
            seen[p] += 1;
        }
        for p in 0..n {
            assert_eq!(
                seen[p],
                usize::from(players[p].active),
                "{n}/{round}: player {p}"
            );
        }
        // No repeat; the colour rule when it can be kept.
        for &(w, b) in &r.boards {
            assert!(
                !players[w].opponents.contains(&b),
                "{n}/{round}: {w}-{b} again"
            );
            if strict {
                assert!(
                    players[w].may_take(Color::White) && players[b].may_take(Color::Black),
                    "{n}/{round}: colours of {w}-{b}: {:?} / {:?}",
                    players[w].colours,
                    players[b].colours
                );
            }
        }
        let g = graph(&players, strict);
        // The bye: one each at most, and nobody with fewer points could have taken it.
        assert_eq!(r.bye.is_some(), active.len() % 2 == 1);
        if let Some(bye) = r.bye {
            assert!(!players[bye].had_bye, "{n}/{round}: a second bye");
            for &y in &active {
                if !players[y].had_bye && players[y].points < players[bye].points {
                    assert!(
                        !pairable_without(&g, y),
                        "{n}/{round}: {y} has fewer points than {bye} and could sit out"
                    );
                }
            }
        }
        // Score groups: no two boards can swap opponents to pair closer scores.
        let sq = |a: usize, b: usize| {
            let d = players[a].points.abs_diff(players[b].points);
            d * d
        };
        for i in 0..r.boards.len() {
            for j in i + 1..r.boards.len() {
                let ((a, b), (c, d)) = (r.boards[i], r.boards[j]);
                let now = sq(a, b) + sq(c, d);
                for (x, y) in [((a, c), (b, d)), ((a, d), (b, c))] {
                    if g.connected(x.0, x.1) && g.connected(y.0, y.1) {
                        assert!(
                            sq(x.0, x.1) + sq(y.0, y.1) >= now,
                            "{n}/{round}: boards {:?} and {:?} could swap to closer scores",
                            r.boards[i],
                            r.boards[j]
                        );
                    }
                }
            }
        }
        // Play it: random results, sometimes someone leaves.
        for &(w, b) in &r.boards {
            let (pw, pb) = match rng.below(3) {
                0 => (2, 0),
                1 => (0, 2),
                _ => (1, 1),
            };
            players[w].points += pw;
            players[b].points += pb;
            players[w].colours.push(Color::White);
            players[b].colours.push(Color::Black);
            players[w].opponents.push(b);
            players[b].opponents.push(w);
        }
        if let Some(p) = r.bye {
            players[p].points += 2;
            players[p].had_bye = true;
        }
        for p in &mut players {
            if p.active && rng.below(100) < 3 {
                p.active = false;
            }
        }
    }
    for p in &players {
        if relaxed == 0 {
            assert!(colour_rule_kept(&p.colours), "{:?}", p.colours);
        }
    }
    (rounds, relaxed)
}

#[test]
fn swiss_tournaments_of_5_to_64_players_keep_the_rules() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut total, mut relaxed) = (0, 0);
    for n in 5..=64 {
        for _ in 0..3 {
            // As many rounds as the tournament allows (players rounded up to even, less
            // one), at most the 15 a tournament may ask for.
            let rounds = (n + n % 2 - 1).min(15);
            let (played, r) = tournament(n, rounds, &mut rng);
            total += played;
            relaxed += r;
        }
    }
    eprintln!("{total} rounds paired, {relaxed} with the colour rule relaxed");
    assert!(total > 2000);
}

#[test]
fn up_to_half_the_field_in_rounds_always_pairs_keeping_colours_when_nobody_leaves() {
    // With at most n/2 rounds the allowed pairs stay dense enough that a pairing always
    // exists; check that the search finds one in every tournament tried.
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    for n in 5..=40 {
        let rounds = (n + n % 2) / 2;
        let mut players = vec![
            SwissPlayer {
                active: true,
                ..SwissPlayer::default()
            };
            n
        ];
        for round in 0..rounds {
            assert!(
                pairable_keeping_colours(&players),
                "{n} players, round {round}"
            );
            let r = pair(&players).unwrap_or_else(|| panic!("{n} players, round {round}"));
            for &(w, b) in &r.boards {
                let (pw, pb) = [(2, 0), (0, 2), (1, 1)][rng.below(3) as usize];
                players[w].points += pw;
                players[b].points += pb;
                players[w].colours.push(Color::White);
                players[b].colours.push(Color::Black);
                players[w].opponents.push(b);
                players[b].opponents.push(w);
            }
            if let Some(p) = r.bye {
                players[p].points += 2;
                players[p].had_bye = true;
            }
        }
    }
}

/// Measurement, not a check (`cargo test -- --ignored pairing_time`): how long the
/// pairing of a 64-player Swiss takes per round, over 15 rounds.
#[test]
#[ignore]
fn pairing_time_of_64_players() {
    let mut rng = Rng(7);
    let mut players = vec![
        SwissPlayer {
            active: true,
            ..SwissPlayer::default()
        };
        64
    ];
    let started = std::time::Instant::now();
    let mut slowest = std::time::Duration::ZERO;
    for _ in 0..15 {
        let t = std::time::Instant::now();
        let r = pair(&players).unwrap_or_default();
        slowest = slowest.max(t.elapsed());
        for &(w, b) in &r.boards {
            let (pw, pb) = [(2, 0), (0, 2), (1, 1)][rng.below(3) as usize];
            players[w].points += pw;
            players[b].points += pb;
            players[w].colours.push(Color::White);
            players[b].colours.push(Color::Black);
            players[w].opponents.push(b);
            players[b].opponents.push(w);
        }
    }
    eprintln!(
        "64 players, 15 rounds: {:?} per round on average, slowest {slowest:?}",
        started.elapsed() / 15
    );
}
