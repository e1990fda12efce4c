//! The endgame bitbases against independent checks: every entry of the
//! 3-piece tables satisfies the game's recursion (which pins the values
//! down exactly, see `Table::check_entry`), sampled entries agree with a plain
//! depth-limited minimax that proves wins and losses, a sample of 4-piece
//! entries is checked the same way, known endgames, colour symmetry, the
//! file round trip and a damaged file, and the engine converting a won
//! ending with the tables on.

use bot::bitbase::Material;
use bot::{Bitbases, Engine, Limits, Table, Wdl};
use draughts::{Bitboard, Color, Game, Position, Rules, Square, Variant};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

/// The 3-piece tables, made once for the whole test binary.
fn tables3() -> &'static [Table] {
    static T: OnceLock<Vec<Table>> = OnceLock::new();
    T.get_or_init(|| {
        [
            Variant::American,
            Variant::Russian,
            Variant::Italian,
            Variant::International,
        ]
        .map(|v| Table::generate(v, 3))
        .into_iter()
        .collect()
    })
}

fn table3(variant: Variant) -> &'static Table {
    tables3()
        .iter()
        .find(|t| t.variant() == variant)
        .expect("made")
}

fn pos(variant: Variant, fen: &str) -> Position {
    Position::from_fen(Rules::new(variant), fen).expect("valid FEN")
}

/// Every position of up to `max` pieces (each side at least one) of the
/// variant, visited by `f`.
fn for_each_position(variant: Variant, max: usize, f: &mut dyn FnMut(Position)) {
    let rules = Rules::new(variant);
    let squares: Vec<Square> = variant.squares().collect();
    // Kinds: white man, white king, black man, black king.
    fn rec(
        rules: Rules,
        squares: &[Square],
        from: usize,
        left: usize,
        sets: [u64; 4],
        f: &mut dyn FnMut(Position),
    ) {
        let (w, b) = (sets[0] | sets[1], sets[2] | sets[3]);
        if w != 0 && b != 0 {
            for turn in Color::ALL {
                if let Ok(p) = Position::from_pieces(
                    rules,
                    Bitboard(w),
                    Bitboard(b),
                    Bitboard(sets[1] | sets[3]),
                    turn,
                ) {
                    f(p);
                }
            }
        }
        if left == 0 {
            return;
        }
        for i in from..squares.len() {
            for kind in 0..4 {
                let mut s = sets;
                s[kind] |= 1 << squares[i].bit();
                rec(rules, squares, i + 1, left - 1, s, f);
            }
        }
    }
    rec(rules, &squares, 0, max, [0; 4], f);
}

#[test]
fn every_three_piece_entry_satisfies_the_recursion() {
    for table in tables3() {
        let mut count = 0u64;
        let mut errors = Vec::new();
        // International's 2.6 M positions: every third one.
        let stride = if table.variant() == Variant::International {
            3
        } else {
            1
        };
        for_each_position(table.variant(), 3, &mut |p| {
            count += 1;
            if count.is_multiple_of(stride)
                && let Err(e) = table.check_entry(&p)
                && errors.len() < 5
            {
                errors.push(e);
            }
        });
        assert!(errors.is_empty(), "{}: {errors:#?}", table.variant());
        assert_eq!(count, table.stats().positions, "{}", table.variant());
    }
}

/// A plain minimax to `depth` plies that proves wins and losses (no
/// tables, no pruning beyond the first lost child): `None` when the depth
/// does not settle it.
fn minimax(p: &Position, depth: u32) -> Option<Wdl> {
    let moves = p.legal_moves();
    if moves.is_empty() {
        return Some(Wdl::Loss);
    }
    if depth == 0 {
        return None;
    }
    let mut all_won = true;
    for m in moves.iter() {
        let mut c = p.clone();
        c.play_unchecked(m);
        match minimax(&c, depth - 1) {
            Some(Wdl::Loss) => return Some(Wdl::Win),
            Some(Wdl::Win) => {}
            _ => all_won = false,
        }
    }
    all_won.then_some(Wdl::Loss)
}

#[test]
fn sampled_entries_agree_with_a_minimax_search() {
    // Short kings search deeper in the same time.
    for (variant, depth) in [
        (Variant::American, 5),
        (Variant::Russian, 3),
        (Variant::International, 3),
    ] {
        let table = table3(variant);
        let mut rng = Rng(u64::from(depth) * 7 + 1);
        let mut proven = 0u64;
        for _ in 0..1_500 {
            let p = random_position(&mut rng, variant, 3);
            let got = table.probe(&p).expect("covered");
            if let Some(r) = minimax(&p, depth) {
                proven += 1;
                assert_eq!(r, got.wdl, "{p:?}: minimax {r:?}, table {got:?}");
                // A win proven in `depth` plies converts within them.
                assert!(
                    u32::from(got.dtc) <= depth,
                    "{p:?}: proven in {depth} plies but {got:?}"
                );
            }
        }
        assert!(proven > 300, "{variant}: only {proven} proven");
    }
}

/// A SplitMix64 stream for sampling.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n
    }
}

/// A random valid position of exactly `n` pieces.
fn random_position(rng: &mut Rng, variant: Variant, n: usize) -> Position {
    let squares: Vec<Square> = variant.squares().collect();
    loop {
        let mut sets = [0u64; 4];
        let mut used = 0u64;
        while used.count_ones() < n as u32 {
            let sq = squares[rng.below(squares.len() as u64) as usize].bit();
            if used >> sq & 1 == 0 {
                used |= 1 << sq;
                sets[rng.below(4) as usize] |= 1 << sq;
            }
        }
        let turn = Color::ALL[rng.below(2) as usize];
        if let Ok(p) = Position::from_pieces(
            Rules::new(variant),
            Bitboard(sets[0] | sets[1]),
            Bitboard(sets[2] | sets[3]),
            Bitboard(sets[1] | sets[3]),
            turn,
        ) && !p.pieces(Color::White).is_empty()
            && !p.pieces(Color::Black).is_empty()
        {
            return p;
        }
    }
}

#[test]
fn sampled_four_piece_entries_satisfy_the_recursion() {
    // Russian (flying kings, men capturing backwards, crowning mid-capture).
    let owned = Table::generate(Variant::Russian, 4);
    let table = &owned;
    // Three kings cannot beat a king holding the long diagonal.
    assert_eq!(
        table
            .probe(&pos(Variant::Russian, "W:WKa3,Kc1,Ke1:BKd4"))
            .map(|p| p.wdl),
        Some(Wdl::Draw)
    );
    let mut rng = Rng(24);
    let mut proven = 0;
    for i in 0..8_000 {
        let p = random_position(&mut rng, Variant::Russian, 4);
        if let Err(e) = table.check_entry(&p) {
            panic!("{e}");
        }
        if i % 8 == 0
            && let Some(r) = minimax(&p, 3)
        {
            proven += 1;
            assert_eq!(r, table.probe(&p).expect("covered").wdl, "{p:?}");
        }
    }
    assert!(proven > 40, "{proven}");
}

#[test]
fn known_endings() {
    let am = table3(Variant::American);
    let probe = |t: &Table, v, fen| t.probe(&pos(v, fen)).expect("covered").wdl;
    // American: two kings beat one, whoever is to move, from the double
    // corner too; one king against one is a draw (away from the edge).
    assert_eq!(probe(am, Variant::American, "W:WK1,K3:BK32"), Wdl::Win);
    assert_eq!(probe(am, Variant::American, "B:WK1,K3:BK32"), Wdl::Loss);
    assert_eq!(probe(am, Variant::American, "B:WK14,K23:BK1"), Wdl::Loss);
    assert_eq!(probe(am, Variant::American, "W:WK14:BK30"), Wdl::Draw);
    assert_eq!(probe(am, Variant::American, "B:WK1:BK32"), Wdl::Draw);
    // A king against a man a long way from crowning wins.
    assert_eq!(probe(am, Variant::American, "W:WK32:B1"), Wdl::Win);
    // International: a king against a king is a draw, and two kings
    // against one (three are needed)...
    let int = table3(Variant::International);
    for fen in [
        "W:WK28:BK3",
        "B:WK28:BK3",
        "W:WK47,K48:BK3",
        "B:WK47,K48:BK23",
    ] {
        assert_eq!(probe(int, Variant::International, fen), Wdl::Draw, "{fen}");
    }
    // ... but a king in the corner of the long diagonal with the enemy
    // king on it must step into its capture.
    assert_eq!(probe(int, Variant::International, "W:WK46:BK5"), Wdl::Loss);
    // Russian: a king on the long diagonal holds two kings to a draw (and
    // three: see the 4-piece test); the lone king cornered on h8 with a king on a1 is lost.
    let ru = table3(Variant::Russian);
    assert_eq!(probe(ru, Variant::Russian, "B:WKc1,Ke1:BKd4"), Wdl::Draw);
    assert_eq!(probe(ru, Variant::Russian, "W:WKa1,Kc1:BKh8"), Wdl::Win);
    // Italian: men cannot take kings, so a king against a man wins.
    let it = table3(Variant::Italian);
    assert_eq!(probe(it, Variant::Italian, "W:WK21:B5"), Wdl::Win);
}

/// The position with the colours swapped and the board turned half round
/// (same side to move in the other colour).
fn flipped(p: &Position) -> Position {
    let variant = p.variant();
    let size = variant.board_size();
    let n = variant.square_count();
    let turn = |b: Bitboard| -> Bitboard {
        b.map(|sq| Square::from_reference(size, n + 1 - sq.reference(size)).expect("on the board"))
            .collect()
    };
    Position::from_pieces(
        *p.rules(),
        turn(p.pieces(Color::Black)),
        turn(p.pieces(Color::White)),
        turn(p.kings()),
        p.turn().other(),
    )
    .expect("a mirrored position is valid")
}

#[test]
fn colour_flipped_positions_have_the_same_value() {
    for table in tables3() {
        let mut n = 0u64;
        for_each_position(table.variant(), 3, &mut |p| {
            n += 1;
            if !n.is_multiple_of(7) {
                return;
            }
            let f = flipped(&p);
            assert_eq!(table.probe(&p), table.probe(&f), "{p:?} / {f:?}");
        });
    }
}

#[test]
fn files_round_trip_and_damage_is_caught() {
    let table = table3(Variant::Russian);
    let mut bytes = Vec::new();
    table.write(&mut bytes).expect("write to memory");
    let back = Table::read(&bytes[..]).expect("reads back");
    assert_eq!(back.variant(), Variant::Russian);
    assert_eq!(back.max_pieces(), 3);
    assert_eq!(back.stats(), table.stats());
    for_each_position(Variant::Russian, 3, &mut |p| {
        assert_eq!(back.probe(&p), table.probe(&p));
    });
    // One flipped bit in the data, then in the checksum itself.
    for at in [bytes.len() / 2, bytes.len() - 1] {
        let mut bad = bytes.clone();
        bad[at] ^= 0x10;
        assert!(
            matches!(
                Table::read(&bad[..]),
                Err(bot::bitbase::BitbaseError::Checksum)
            ),
            "damage at {at} not caught"
        );
    }
    // Cut short, and not a table at all.
    assert!(Table::read(&bytes[..bytes.len() - 100]).is_err());
    assert!(Table::read(&b"hello world, not a table"[..]).is_err());
    // Through a directory.
    let dir = std::env::temp_dir().join(format!("damka-bb-test-{}", std::process::id()));
    let path = table.save(&dir).expect("save");
    assert!(path.ends_with("russian-3.dbb"));
    let loaded = Bitbases::load_dir(&dir).expect("load");
    let p = pos(Variant::Russian, "W:WKa1,Kc1:BKh8");
    assert_eq!(loaded.probe(&p), Some(Wdl::Win));
    assert_eq!(loaded.probe(&pos(Variant::American, "W:WK1:BK32")), None);
    std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("damage the file");
    assert!(Bitbases::load_dir(&dir).is_err());
    std::fs::remove_dir_all(&dir).expect("clean up");
}

/// Plays the game out with the engine on both sides (the tables given to
/// the side to move at the start only) and returns the winner, if any,
/// within `max_plies` (the game's own draw rules apply).
fn play_out(mut game: Game, tables: Arc<Bitbases>, max_plies: usize) -> Option<Color> {
    let stop = AtomicBool::new(false);
    let strong = game.position().turn();
    let mut engines = [Engine::new(14), Engine::new(14)];
    engines[0].set_bitbases(Some(tables));
    let limits = Limits {
        depth: Some(8),
        ..Limits::default()
    };
    for _ in 0..max_plies {
        if let Some(outcome) = game.outcome() {
            return outcome.winner;
        }
        let turn = game.position().turn();
        let e = &mut engines[usize::from(turn != strong)];
        let r = e.search(&game, &limits, &stop).expect("a move");
        game.play(&r.mv).expect("legal");
    }
    game.outcome().and_then(|o| o.winner)
}

#[test]
fn the_engine_converts_won_endings_with_the_tables() {
    // American: two kings against one heading for the double corner; the
    // win takes at most 34 plies, well within the 40-move rule.
    let start = pos(Variant::American, "W:WK5,K10:BK28");
    assert_eq!(
        table3(Variant::American).probe(&start).map(|p| p.wdl),
        Some(Wdl::Win)
    );
    let tables = Arc::new(Bitbases::generate(Variant::American, 3));
    assert_eq!(play_out(Game::new(start), tables, 120), Some(Color::White));
}

#[test]
fn the_engine_converts_three_kings_against_one() {
    // Russian: three kings against one (Petrov's triangle) when the lone
    // king is off the long diagonal.
    // Only the kings-only slices (closed under captures).
    let kings_only = |m: Material| m.white_men + m.black_men == 0;
    let table = Table::generate_slices(Variant::Russian, 4, &kings_only, &mut |_, _| {});
    let mut ru = Bitbases::new();
    ru.insert(table);
    let start = pos(Variant::Russian, "W:WKa1,Kc1,Ke1:BKd8");
    let p = ru.probe_dtc(&start).expect("covered");
    assert_eq!(p.wdl, Wdl::Win, "{p:?}");
    // A position with a man is not covered by these slices.
    assert_eq!(ru.probe(&pos(Variant::Russian, "W:WKa1,Kc1,e3:BKd8")), None);
    assert_eq!(
        play_out(Game::new(start), Arc::new(ru), 200),
        Some(Color::White)
    );
}

#[test]
fn the_search_counts_hits_and_scores_known_wins() {
    let tables = Arc::new(Bitbases::generate(Variant::American, 3));
    let start = pos(Variant::American, "W:WK5,K10:BK28");
    let game = Game::new(start);
    let mut engine = Engine::new(14);
    engine.set_bitbases(Some(tables));
    let stop = AtomicBool::new(false);
    let r = engine
        .search(
            &game,
            &Limits {
                depth: Some(4),
                ..Limits::default()
            },
            &stop,
        )
        .expect("a move");
    assert!(r.bitbase_hits > 0);
    assert!(
        r.score > bot::BITBASE_WIN - 200 && r.score < bot::WIN_BOUND,
        "{r:?}"
    );
}

#[test]
#[should_panic(expected = "not selected")]
fn a_selection_of_slices_must_be_closed_under_captures() {
    let four_only = |m: Material| m.total() == 4;
    let _ = Table::generate_slices(Variant::American, 4, &four_only, &mut |_, _| {});
}

/// 64-bit FNV-1a, as the file format's checksum (module docs of
/// `bot::bitbase`), to forge a damaged file that still loads.
fn fnv1a(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

#[test]
fn verify_checks_every_entry_and_finds_a_wrong_one() {
    let table = table3(Variant::Russian);
    let mut slices = 0;
    let checked = table
        .verify(2, &mut |_, _| slices += 1)
        .expect("the made table is right");
    assert_eq!(checked, table.stats().positions);
    assert!(slices > 10, "{slices}");
    // A won or lost entry turned into a draw, in a file whose checksum fits:
    // it loads, and the verification finds it.
    let mut bytes = Vec::new();
    table.write(&mut bytes).expect("write to memory");
    let body = bytes.len() - 8;
    let at = (0..body)
        .rev()
        .find(|&i| bytes[i] != 0)
        .expect("a decided entry");
    bytes[at] = 0;
    let sum = fnv1a(&bytes[..body]);
    bytes[body..].copy_from_slice(&sum.to_le_bytes());
    let forged = Table::read(&bytes[..]).expect("the checksum fits");
    let err = forged.verify(1, &mut |_, _| {}).expect_err("a wrong entry");
    assert!(err.contains("children say"), "{err}");
}

#[test]
fn five_piece_kings_only_slices_satisfy_the_recursion() {
    // The kings-only slices of American up to 5 pieces (closed under
    // captures; 3 kings against 2 has 4.9 M indices), in a few seconds. The
    // whole 5-piece tables are checked entry by entry with `draughts bitbase
    // --verify` (docs/engine.md).
    let kings_only = |m: Material| m.white_men + m.black_men == 0;
    let table = Table::generate_slices(Variant::American, 5, &kings_only, &mut |_, _| {});
    let mut rng = Rng(36);
    let mut seen = [0u32; 3];
    for _ in 0..4_000 {
        let p = loop {
            let p = random_position(&mut rng, Variant::American, 5);
            if p.kings() == p.occupied() {
                break p;
            }
        };
        if let Err(e) = table.check_entry(&p) {
            panic!("{e}");
        }
        seen[table.probe(&p).expect("covered").wdl as usize] += 1;
    }
    // Wins, draws and losses all occur.
    assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    // Three kings against two, the two in the double corners, the three to
    // move: known to take long, but won.
    let p = pos(Variant::American, "W:WK14,K18,K22:BK1,K5");
    assert_eq!(table.probe(&p).map(|p| p.wdl), Some(Wdl::Win));
}
