//! Round-robin by the Berger tables (FIDE C.05 Annex 1, as FMJD uses them): with `n`
//! players numbered 1..n (a dummy n+1 when `n` is odd, whose opponent has the bye), round
//! `r` of `N - 1` seats player N against player `a = ((r - 1) * N/2) mod (N - 1) + 1`,
//! N with White in even rounds, and pairs `a + k` (White) with `a - k` for k = 1..N/2-1,
//! counted round 1..N-1. For four players: 1-4 2-3 / 4-3 1-2 / 2-4 3-1.

use super::RoundPairing;

/// Every round of a round-robin of `n` players (indices `0..n`, seed order).
pub fn rounds(n: usize) -> Vec<RoundPairing> {
    if n < 2 {
        return Vec::new();
    }
    // With an odd number the dummy `n` takes the last place: its opponent sits out.
    let big = n + n % 2;
    let rest = big - 1;
    // Numbers 1..big as in the published tables; a number past `n` is the dummy.
    let wrap = |x: isize| -> usize { ((x - 1).rem_euclid(rest as isize) + 1) as usize };
    (1..=rest)
        .map(|r| {
            let a = ((r - 1) * (big / 2)) % rest + 1;
            let mut tables = Vec::with_capacity(big / 2);
            tables.push(if r % 2 == 1 { (a, big) } else { (big, a) });
            for k in 1..big / 2 {
                let (ai, ki) = (a as isize, k as isize);
                tables.push((wrap(ai + ki), wrap(ai - ki)));
            }
            let mut round = RoundPairing::default();
            for (white, black) in tables {
                if black > n {
                    round.bye = Some(white - 1);
                } else if white > n {
                    round.bye = Some(black - 1);
                } else {
                    round.boards.push((white - 1, black - 1));
                }
            }
            round
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players_as_published() {
        let r = rounds(4);
        let one_based = |p: &RoundPairing| -> Vec<(usize, usize)> {
            p.boards.iter().map(|&(w, b)| (w + 1, b + 1)).collect()
        };
        assert_eq!(one_based(&r[0]), [(1, 4), (2, 3)]);
        assert_eq!(one_based(&r[1]), [(4, 3), (1, 2)]);
        assert_eq!(one_based(&r[2]), [(2, 4), (3, 1)]);
    }

    #[test]
    fn six_players_as_published() {
        let r = rounds(6);
        let expected: [[(usize, usize); 3]; 5] = [
            [(1, 6), (2, 5), (3, 4)],
            [(6, 4), (5, 3), (1, 2)],
            [(2, 6), (3, 1), (4, 5)],
            [(6, 5), (1, 4), (2, 3)],
            [(3, 6), (4, 2), (5, 1)],
        ];
        for (round, want) in r.iter().zip(expected) {
            let got: Vec<(usize, usize)> =
                round.boards.iter().map(|&(w, b)| (w + 1, b + 1)).collect();
            assert_eq!(got, want);
        }
    }

    #[test]
    fn every_size_from_3_to_12_meets_every_pair_once_with_balanced_colours() {
        for n in 3..=12 {
            let r = rounds(n);
            assert_eq!(r.len(), if n % 2 == 0 { n - 1 } else { n }, "{n} players");
            let mut met = vec![vec![0; n]; n];
            let mut whites = vec![0i32; n];
            let mut blacks = vec![0i32; n];
            let mut byes = vec![0; n];
            for round in &r {
                let mut seen = vec![false; n];
                for &(w, b) in &round.boards {
                    met[w][b] += 1;
                    met[b][w] += 1;
                    whites[w] += 1;
                    blacks[b] += 1;
                    assert!(!seen[w] && !seen[b], "{n}: someone plays twice in a round");
                    seen[w] = true;
                    seen[b] = true;
                }
                if let Some(p) = round.bye {
                    byes[p] += 1;
                    assert!(!seen[p]);
                    seen[p] = true;
                }
                assert!(seen.iter().all(|&s| s), "{n}: everyone plays or sits out");
                assert_eq!(round.bye.is_some(), n % 2 == 1);
            }
            for a in 0..n {
                for (b, &count) in met[a].iter().enumerate() {
                    assert_eq!(count, usize::from(a != b), "{n}: {a} and {b}");
                }
                // As balanced as possible: n - 1 games (even n) → one colour once more;
                // odd n → n - 1 games, an even count → exactly half each.
                assert!(
                    (whites[a] - blacks[a]).abs() <= 1,
                    "{n}: player {a} has {} whites, {} blacks",
                    whites[a],
                    blacks[a]
                );
                if n % 2 == 1 {
                    assert_eq!(whites[a], blacks[a], "{n}: player {a}");
                    assert_eq!(byes[a], 1);
                }
            }
        }
    }
}
