//! Property tests over random games of both variants, checked against a
//! slow square-by-square reading of RULES.md written independently here.

use mollett::rules::bitboard::symmetry;
use mollett::{Color, Game, Move, Position, Square, Variant, CENTRE};
use proptest::prelude::*;

const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// Discs of the opponent flipped by `me` placing at (c0, r0), walking the board square by square.
fn reference_flips(me: u64, them: u64, sq: usize) -> u64 {
    let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
    let on = |b: u64, c: i32, r: i32| {
        (0..8).contains(&c) && (0..8).contains(&r) && b >> (r * 8 + c) & 1 != 0
    };
    let mut all = 0;
    for (dc, dr) in DIRS {
        let (mut c, mut r, mut run) = (c0 + dc, r0 + dr, 0u64);
        while on(them, c, r) {
            run |= 1 << (r * 8 + c);
            c += dc;
            r += dr;
        }
        if on(me, c, r) {
            all |= run;
        }
    }
    all
}

/// The legal squares by the rules text: classic supplies and free centre placements first.
fn reference_moves(pos: &Position) -> Vec<Square> {
    let me = pos.discs_of(pos.side);
    let them = pos.discs_of(pos.side.other());
    let occupied = me | them;
    if pos.variant == Variant::Classic && pos.supply[pos.side.index()] == 0 {
        return vec![];
    }
    let opening = pos.variant == Variant::Classic && occupied & CENTRE != CENTRE;
    Square::all()
        .filter(|sq| occupied & sq.bit() == 0)
        .filter(|sq| {
            if opening {
                CENTRE & sq.bit() != 0
            } else {
                reference_flips(me, them, sq.index()) != 0
            }
        })
        .collect()
}

/// Plays a random game, choosing moves by the given bytes; returns the game.
fn random_game(variant: Variant, first: Color, choices: &[u8]) -> Game {
    let mut game = Game::new(variant, first);
    for &c in choices {
        let moves = game.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[c as usize % moves.len()];
        game.play(mv).expect("legal_moves are playable");
    }
    game
}

fn variants() -> impl Strategy<Value = (Variant, Color)> {
    prop_oneof![
        Just((Variant::Modern, Color::Black)),
        Just((Variant::Classic, Color::Black)),
        Just((Variant::Classic, Color::White)),
    ]
}

#[test]
fn the_last_move_flips_what_the_rules_text_says() {
    // Every square as the one empty square, on boards from nearly all the
    // opponent's to nearly all the player's (long runs to bracket or not).
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for sq in 0..64u32 {
        for i in 0..600 {
            let r = next();
            let player = match i % 5 {
                0 => r & next() & next(),
                1 => r & next(),
                2 => r,
                3 => r | next(),
                _ => r | next() | next(),
            } & !(1u64 << sq);
            let opponent = !player & !(1u64 << sq);
            let expect = reference_flips(player, opponent, sq as usize).count_ones();
            assert_eq!(
                mollett::rules::bitboard::count_last_flips(player, sq),
                expect,
                "player {player:#018x}, last square {sq}"
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn moves_match_the_rules_text((variant, first) in variants(), choices in prop::collection::vec(any::<u8>(), 0..80)) {
        let game = random_game(variant, first, &choices);
        let mut pos = *game.start();
        for &mv in game.moves() {
            let legal = pos.legal_moves();
            let expect: Vec<Move> = reference_moves(&pos).into_iter().map(Move::Place).collect();
            if expect.is_empty() {
                let other = pos.pass();
                if reference_moves(&other).is_empty() {
                    prop_assert!(legal.is_empty());
                } else {
                    prop_assert_eq!(&legal, &vec![Move::Pass]);
                }
            } else {
                prop_assert_eq!(&legal, &expect);
            }
            prop_assert!(legal.contains(&mv));
            pos = pos.play(mv).unwrap();
        }
    }

    #[test]
    fn every_move_is_on_an_empty_square_and_flips_outside_the_classic_opening(
        (variant, first) in variants(), choices in prop::collection::vec(any::<u8>(), 0..80)
    ) {
        let game = random_game(variant, first, &choices);
        let mut pos = *game.start();
        for &mv in game.moves() {
            if let Move::Place(sq) = mv {
                prop_assert_eq!(pos.empties() & sq.bit(), sq.bit());
                let before_me = pos.player.count_ones();
                let before_them = pos.opponent.count_ones();
                let flips = pos.flips(sq).count_ones();
                if pos.in_classic_opening() {
                    prop_assert_eq!(flips, 0);
                    prop_assert!(CENTRE & sq.bit() != 0);
                } else {
                    prop_assert!(flips >= 1);
                }
                let next = pos.play(mv).unwrap();
                // Relative boards swap: the mover is now the opponent.
                prop_assert_eq!(next.opponent.count_ones(), before_me + 1 + flips);
                prop_assert_eq!(next.player.count_ones(), before_them - flips);
                pos = next;
            } else {
                prop_assert!(pos.moves() == 0);
                pos = pos.play(mv).unwrap();
            }
        }
    }

    #[test]
    fn disc_totals_and_supplies_add_up((variant, first) in variants(), choices in prop::collection::vec(any::<u8>(), 0..80)) {
        let game = random_game(variant, first, &choices);
        let pos = game.position();
        let placements = game.moves().iter().filter(|m| **m != Move::Pass).count() as u32;
        let discs = (pos.player | pos.opponent).count_ones();
        prop_assert_eq!(pos.player & pos.opponent, 0);
        match variant {
            Variant::Modern => prop_assert_eq!(discs, 4 + placements),
            Variant::Classic => {
                prop_assert_eq!(discs, placements);
                prop_assert_eq!(discs + pos.supply[0] as u32 + pos.supply[1] as u32, 64);
                for c in [Color::Black, Color::White] {
                    let placed_by_c = {
                        let mut p = *game.start();
                        let mut n = 0u32;
                        for &mv in game.moves() {
                            if mv != Move::Pass && p.side == c { n += 1; }
                            p = p.play(mv).unwrap();
                        }
                        n
                    };
                    prop_assert_eq!(32 - pos.supply[c.index()] as u32, placed_by_c);
                }
            }
        }
    }

    #[test]
    fn undo_restores_exactly_and_redo_replays((variant, first) in variants(), choices in prop::collection::vec(any::<u8>(), 0..80), back in 0usize..80) {
        let game = random_game(variant, first, &choices);
        let n = back.min(game.moves().len());
        let mut replay = Game::new(variant, first);
        for &mv in &game.moves()[..game.moves().len() - n] {
            replay.play(mv).unwrap();
        }
        let mut g = game.clone();
        prop_assert!(g.undo(n));
        prop_assert_eq!(g.position(), replay.position());
        prop_assert_eq!(g.moves(), replay.moves());
        prop_assert!(g.redo(n));
        prop_assert_eq!(g.position(), game.position());
        prop_assert_eq!(g.moves(), game.moves());
        prop_assert!(!g.redo(1));
        prop_assert!(!g.undo(g.moves().len() + 1));
    }

    #[test]
    fn symmetries_commute_with_move_generation((variant, first) in variants(), choices in prop::collection::vec(any::<u8>(), 0..80), sym in 0usize..8) {
        let game = random_game(variant, first, &choices);
        let pos = *game.position();
        let image = Position { player: symmetry(pos.player, sym), opponent: symmetry(pos.opponent, sym), ..pos };
        prop_assert_eq!(image.moves(), symmetry(pos.moves(), sym));
        for mv in pos.legal_moves() {
            if let Move::Place(sq) = mv {
                let isq = Square::from_index(symmetry(sq.bit(), sym).trailing_zeros());
                let a = pos.play_unchecked(sq);
                let b = image.play_unchecked(isq);
                prop_assert_eq!(symmetry(a.player, sym), b.player);
                prop_assert_eq!(symmetry(a.opponent, sym), b.opponent);
            }
        }
    }

    #[test]
    fn random_games_end_within_sixty_placements((variant, first) in variants(), choices in prop::collection::vec(any::<u8>(), 130)) {
        let game = random_game(variant, first, &choices);
        prop_assert!(game.position().is_game_over());
        let placements = game.moves().iter().filter(|m| **m != Move::Pass).count();
        let most = if variant == Variant::Modern { 60 } else { 64 };
        prop_assert!(placements <= most);
        // No two passes in a row: the second would mean the game had ended.
        prop_assert!(!game.moves().windows(2).any(|w| w == [Move::Pass, Move::Pass]));
    }
}

#[test]
fn modern_start_has_the_four_othello_moves() {
    let pos = Position::start(Variant::Modern, Color::Black);
    let names: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["d3", "c4", "f5", "e6"]);
}

#[test]
fn classic_starts_empty_with_free_centre_placements() {
    let mut game = Game::new(Variant::Classic, Color::Black);
    assert_eq!(game.position().player | game.position().opponent, 0);
    // The parallel arrangement: black d4 e4, red d5 e5.
    for m in ["d4", "d5", "e4", "e5"] {
        game.play(m.parse().unwrap()).unwrap();
    }
    let pos = game.position();
    let sq = |s: &str| s.parse::<Square>().unwrap().bit();
    assert_eq!(pos.discs_of(Color::Black), sq("d4") | sq("e4"));
    assert_eq!(pos.discs_of(Color::White), sq("d5") | sq("e5"));
    assert_eq!(pos.side, Color::Black);
    assert_eq!(pos.supply, [30, 30]);
    // Black brackets red from row 6: d6 and e6 down the columns, c6 and f6 along the diagonals.
    let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(legal, ["c6", "d6", "e6", "f6"]);
}

fn sq(s: &str) -> u64 {
    s.parse::<Square>().unwrap().bit()
}

#[test]
fn a_side_with_an_empty_supply_cannot_move_even_with_a_bracket() {
    // Centre full (cross), black also on c4: red e4/d5 ... black has brackets.
    let black = sq("d4") | sq("e5") | sq("c3");
    let red = sq("e4") | sq("d5");
    let placed = (black | red).count_ones() as u8;
    let pos = Position::from_colors(black, red, Color::Black, Variant::Classic, [0, 64 - placed]);
    assert_eq!(pos.moves(), 0, "no discs in hand, no move");
    assert!(pos.must_pass(), "red still has moves");
    let modern = Position::from_colors(black, red, Color::Black, Variant::Modern, [0, 0]);
    assert_ne!(
        modern.moves(),
        0,
        "the same board in modern rules has moves"
    );
    // Both sides empty-handed: the game is over with the board far from full.
    let over = Position::from_colors(black, red, Color::Black, Variant::Classic, [0, 0]);
    assert!(over.is_game_over());
}

#[test]
fn the_opponent_makes_the_remaining_moves_when_a_supply_runs_out() {
    // Black (out of discs) holds the centre cross's d4 and e5 plus f6; red holds e4, d5.
    let black = sq("d4") | sq("e5") | sq("f6");
    let red = sq("e4") | sq("d5");
    let pos = Position::from_colors(black, red, Color::Black, Variant::Classic, [0, 59]);
    assert!(pos.must_pass());
    let after = pos.play(Move::Pass).unwrap();
    assert_eq!(after.side, Color::White);
    // Red brackets d4 from d3 and c4, e5 from f5 and e6; nothing reaches f6.
    let legal: Vec<String> = after.legal_moves().iter().map(|m| m.to_string()).collect();
    assert_eq!(legal, ["d3", "c4", "f5", "e6"]);
    let next = after.play("d3".parse().unwrap()).unwrap();
    assert_eq!(next.supply, [0, 58]);
    assert_eq!(next.discs_of(Color::White), red | sq("d3") | sq("d4"));
    // Black still has discs on the board and brackets, but nothing in hand: red moves again.
    assert!(next.must_pass());
}
