//! Search behaviour a user can observe: exact solves equal brute force, legal
//! answers under any limit, determinism, multi-PV and randomness.

use mollett::engine::search::{Engine, Limits, Scoring, Settings};
use mollett::{Color, Move, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A position reached by random play from the start, with `empties` empty
/// squares and the game not over; `None` when the playout ended first.
fn random_position(rng: &mut Rng, variant: Variant, empties: u32) -> Option<Position> {
    let mut pos = Position::start(variant, Color::Black);
    while pos.empty_count() > empties {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return None;
        }
        pos = pos.play(moves[rng.below(moves.len())]).unwrap();
    }
    (!pos.is_game_over()).then_some(pos)
}

/// Plain negamax over the rules, without any pruning: the oracle.
fn brute_force(pos: &Position, etw: bool) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return pos.final_score(etw);
    }
    moves
        .iter()
        .map(|&m| -brute_force(&pos.play(m).unwrap(), etw))
        .max()
        .unwrap()
}

fn engine(scoring: Scoring) -> Engine {
    Engine::new(Settings {
        scoring,
        hash_mb: 4,
        ..Settings::default()
    })
}

fn exact_all_moves(engine: &mut Engine, pos: &Position) -> mollett::engine::search::SearchResult {
    let limits = Limits {
        exact: true,
        multi_pv: 64,
        ..Limits::default()
    };
    engine.search(pos, &limits, &AtomicBool::new(false))
}

/// Checks the solver's score and every root move's score against brute force.
fn check_exact(engine: &mut Engine, pos: &Position, etw: bool) {
    let r = exact_all_moves(engine, pos);
    assert!(r.exact);
    let expect = brute_force(pos, etw);
    assert_eq!(
        r.score,
        expect as f64,
        "{} {:?} supply {:?}",
        pos.to_obf(),
        pos.variant,
        pos.supply
    );
    assert_eq!(r.lines.len(), pos.legal_moves().len());
    for line in &r.lines {
        let child = pos.play(line.mv).expect("legal root move");
        assert_eq!(
            line.score,
            -brute_force(&child, etw) as f64,
            "{} move {}",
            pos.to_obf(),
            line.mv
        );
    }
    assert_eq!(r.lines[0].mv, r.best);
    // The plain search agrees and plays a move that achieves the score.
    engine.clear();
    let plain = engine.search(
        pos,
        &Limits {
            exact: true,
            ..Limits::default()
        },
        &AtomicBool::new(false),
    );
    assert_eq!(plain.score, expect as f64);
    assert_eq!(-brute_force(&pos.play(plain.best).unwrap(), etw), expect);
}

#[test]
fn exact_solver_matches_brute_force_in_modern() {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    for &scoring in &[Scoring::Discs, Scoring::EmptiesToWinner] {
        let etw = scoring == Scoring::EmptiesToWinner;
        let mut e = engine(scoring);
        let mut done = 0;
        while done < 40 {
            let empties = 8 + rng.below(3) as u32;
            if let Some(pos) = random_position(&mut rng, Variant::Modern, empties) {
                check_exact(&mut e, &pos, etw);
                done += 1;
            }
        }
    }
}

#[test]
fn exact_solver_matches_brute_force_in_classic_with_short_supplies() {
    let mut rng = Rng(0xFEED_FACE_CAFE_BEEF);
    for &scoring in &[Scoring::Discs, Scoring::EmptiesToWinner] {
        let etw = scoring == Scoring::EmptiesToWinner;
        let mut e = engine(scoring);
        let mut done = 0;
        let mut starved = 0;
        while done < 40 {
            let empties = 8 + rng.below(4) as u32;
            let Some(pos) = random_position(&mut rng, Variant::Classic, empties) else {
                continue;
            };
            // Half of them with small supplies, so a side runs out before the board is full.
            let pos = if done % 2 == 0 {
                let supply = [rng.below(4) as u8, 1 + rng.below(4) as u8];
                let (b, w) = (pos.discs_of(Color::Black), pos.discs_of(Color::White));
                Position::from_colors(b, w, pos.side, Variant::Classic, supply)
            } else {
                pos
            };
            if pos.is_game_over() {
                continue;
            }
            check_exact(&mut e, &pos, etw);
            let end = end_of_best_play(&mut e, &pos);
            if end.empty_count() > 0 {
                starved += 1;
            }
            done += 1;
        }
        assert!(
            starved >= 5,
            "too few games ended with empty squares: {starved}"
        );
    }
}

/// Plays the engine's exact choices to the end of the game.
fn end_of_best_play(engine: &mut Engine, pos: &Position) -> Position {
    let mut pos = *pos;
    while !pos.is_game_over() {
        let r = engine.search(
            &pos,
            &Limits {
                exact: true,
                ..Limits::default()
            },
            &AtomicBool::new(false),
        );
        pos = pos.play(r.best).expect("legal");
    }
    pos
}

#[test]
fn classic_game_where_black_runs_out_of_discs_is_solved_exactly() {
    // Black has one disc left in hand with ten squares empty: after placing
    // it black must pass to the end, and the game ends with empty squares.
    let mut rng = Rng(0x0BAD_5EED_0000_0001);
    let (mut checked, mut starved) = (0, 0);
    while checked < 6 {
        let Some(pos) = random_position(&mut rng, Variant::Classic, 10) else {
            continue;
        };
        let (b, w) = (pos.discs_of(Color::Black), pos.discs_of(Color::White));
        let pos = Position::from_colors(b, w, pos.side, Variant::Classic, [1, 9]);
        if pos.is_game_over() {
            continue;
        }
        for scoring in [Scoring::Discs, Scoring::EmptiesToWinner] {
            let etw = scoring == Scoring::EmptiesToWinner;
            let mut e = engine(scoring);
            check_exact(&mut e, &pos, etw);
            let end = end_of_best_play(&mut e, &pos);
            if end.empty_count() > 0 {
                starved += 1;
            }
            // Two threads agree (classic takes the general solver).
            let mut two = Engine::new(Settings {
                threads: 2,
                scoring,
                ..Settings::default()
            });
            let r = two.search(
                &pos,
                &Limits {
                    exact: true,
                    ..Limits::default()
                },
                &AtomicBool::new(false),
            );
            assert_eq!(r.score, brute_force(&pos, etw) as f64);
        }
        checked += 1;
    }
    assert!(
        starved >= 3,
        "only {starved} games ended with empty squares"
    );
}

#[test]
fn exact_solver_matches_brute_force_with_two_threads() {
    // Modern positions big enough for split points to happen.
    let mut rng = Rng(0x2222_3333_4444_5555);
    let mut done = 0;
    while done < 3 {
        let Some(pos) = random_position(&mut rng, Variant::Modern, 14) else {
            continue;
        };
        for scoring in [Scoring::Discs, Scoring::EmptiesToWinner] {
            let limits = Limits {
                exact: true,
                ..Limits::default()
            };
            let one = engine(scoring).search(&pos, &limits, &AtomicBool::new(false));
            let two = Engine::new(Settings {
                threads: 2,
                scoring,
                hash_mb: 4,
                ..Settings::default()
            })
            .search(&pos, &limits, &AtomicBool::new(false));
            assert_eq!(one.score, two.score, "{}", pos.to_obf());
            let child = pos.play(two.best).unwrap();
            // The move achieves the score: its exact value from a fresh solve.
            let v = engine(scoring).search(&child, &limits, &AtomicBool::new(false));
            let v = if child.side == pos.side {
                v.score
            } else {
                -v.score
            };
            assert_eq!(v, two.score, "{} {}", pos.to_obf(), two.best);
        }
        done += 1;
    }
}

#[test]
fn classic_opening_placements_are_solved_too() {
    // A tiny classic game: few discs in hand, so the tree stays small even
    // from the free centre placements.
    let start = Position::from_colors(1 << 27, 0, Color::White, Variant::Classic, [2, 3]);
    let mut e = engine(Scoring::Discs);
    check_exact(&mut e, &start, false);
}

#[test]
fn search_answers_a_legal_move_when_stopped_at_once() {
    let mut rng = Rng(0xA5A5_5A5A_1234_4321);
    let mut e = engine(Scoring::Discs);
    let stopped = AtomicBool::new(true);
    let running = AtomicBool::new(false);
    for i in 0..200 {
        let variant = if i % 2 == 0 {
            Variant::Modern
        } else {
            Variant::Classic
        };
        let empties = 4 + rng.below(57) as u32;
        let Some(pos) = random_position(&mut rng, variant, empties) else {
            continue;
        };
        let zero = Limits {
            hard_time: Some(Duration::ZERO),
            soft_time: Some(Duration::ZERO),
            ..Limits::default()
        };
        for (limits, stop) in [
            (&zero, &running),
            (&Limits::default(), &stopped),
            (
                &Limits {
                    exact: true,
                    ..zero.clone()
                },
                &running,
            ),
        ] {
            let r = e.search(&pos, limits, stop);
            assert!(
                pos.play(r.best).is_some(),
                "{} {:?}: {} is illegal",
                pos.to_obf(),
                variant,
                r.best
            );
            assert_eq!(r.pv.first(), Some(&r.best));
            assert!(r.time < Duration::from_millis(500));
        }
    }
}

#[test]
fn must_pass_answers_pass() {
    // White to move cannot bracket the lone black disc on a1; black can (c1).
    let pos =
        Position::from_obf(&format!("XO{}", "-".repeat(62)), "O", Variant::Modern, None).unwrap();
    assert!(pos.must_pass());
    let r = engine(Scoring::Discs).search(&pos, &Limits::default(), &AtomicBool::new(false));
    assert_eq!(r.best, Move::Pass);
}

#[test]
fn depth_limited_search_is_deterministic() {
    let mut rng = Rng(0x0DDB_A11C_AFE0_0001);
    for variant in [Variant::Modern, Variant::Classic] {
        for _ in 0..3 {
            let Some(pos) = random_position(&mut rng, variant, 40) else {
                continue;
            };
            let limits = Limits {
                depth: Some(7),
                ..Limits::default()
            };
            let a = engine(Scoring::Discs).search(&pos, &limits, &AtomicBool::new(false));
            let b = engine(Scoring::Discs).search(&pos, &limits, &AtomicBool::new(false));
            assert_eq!(
                (a.best, a.score, a.nodes, &a.pv),
                (b.best, b.score, b.nodes, &b.pv)
            );
            assert_eq!(a.depth, 7);
            assert!(!a.exact);
        }
    }
}

/// Without ProbCut a midgame search to a fixed depth is plain alpha-beta:
/// within one iteration every node of a position is searched to the depth
/// its empties give, so the table never lends a deeper bound and the score
/// is the depth's minimax value, on any number of threads. Two and four
/// threads, which share the nodes of 8 plies or more (and the root's moves),
/// must find one thread's score, and a move whose own search scores it.
#[test]
fn midgame_search_on_two_and_four_threads_finds_one_threads_value() {
    use mollett::engine::search::params::Params;
    let search = |pos: &Position, threads: usize, depth: u32| {
        let mut e = Engine::new(Settings {
            threads,
            hash_mb: 16,
            params: Params {
                probcut_t: 0.0,
                ..Params::default()
            },
            ..Settings::default()
        });
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        e.search(pos, &limits, &AtomicBool::new(false))
    };
    let mut rng = Rng(0x5EED_0071_7171_0002);
    let mut checked = 0;
    for variant in [Variant::Modern, Variant::Classic] {
        for _ in 0..3 {
            let Some(pos) = random_position(&mut rng, variant, 40) else {
                continue;
            };
            let one = search(&pos, 1, 9);
            for threads in [2, 4] {
                let r = search(&pos, threads, 9);
                assert_eq!(r.depth, 9);
                assert_eq!(
                    r.score,
                    one.score,
                    "{threads} threads on {} ({} for one thread)",
                    pos.to_obf(),
                    one.best
                );
                let child = pos.play(r.best).expect("a legal move");
                if child.moves() != 0 {
                    // A forced pass would cost the child's search a ply the root's did not.
                    assert_eq!(-search(&child, 1, 8).score, r.score, "{}", r.best);
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 4, "only {checked} positions");
}

#[test]
fn multi_pv_lists_the_best_moves_best_first() {
    let mut rng = Rng(0x5EED_0000_0000_0042);
    let pos = random_position(&mut rng, Variant::Modern, 36).unwrap();
    let limits = Limits {
        depth: Some(5),
        multi_pv: 3,
        ..Limits::default()
    };
    let r = engine(Scoring::Discs).search(&pos, &limits, &AtomicBool::new(false));
    assert_eq!(r.lines.len(), 3.min(pos.legal_moves().len()));
    assert_eq!(r.lines[0].mv, r.best);
    assert!(r.lines.windows(2).all(|w| w[0].score >= w[1].score));
    let mut seen: Vec<Move> = r.lines.iter().map(|l| l.mv).collect();
    seen.dedup();
    assert_eq!(seen.len(), r.lines.len());
}

#[test]
fn randomness_picks_among_near_best_moves_reproducibly() {
    let mut rng = Rng(0x0123_4567_89AB_CDEF);
    // Exact, so that "within the margin" can be checked against brute force.
    let pos = random_position(&mut rng, Variant::Modern, 9).unwrap();
    let best = brute_force(&pos, false);
    let mut choices = Vec::new();
    for seed in 0..12 {
        let settings = Settings {
            randomness: 4.0,
            seed,
            ..Settings::default()
        };
        let mut e = Engine::new(settings.clone());
        let r = e.search(
            &pos,
            &Limits {
                exact: true,
                ..Limits::default()
            },
            &AtomicBool::new(false),
        );
        let value = -brute_force(&pos.play(r.best).unwrap(), false);
        assert!(
            value >= best - 4,
            "seed {seed}: {} scores {value}, best {best}",
            r.best
        );
        assert_eq!(r.score, value as f64);
        let again = Engine::new(settings).search(
            &pos,
            &Limits {
                exact: true,
                ..Limits::default()
            },
            &AtomicBool::new(false),
        );
        assert_eq!(again.best, r.best);
        choices.push(r.best);
    }
    let near = pos
        .legal_moves()
        .iter()
        .filter(|&&m| -brute_force(&pos.play(m).unwrap(), false) >= best - 4)
        .count();
    choices.sort_by_key(|m| m.to_string());
    choices.dedup();
    if near > 1 {
        assert!(
            choices.len() > 1,
            "always the same move among {near} near-best ones"
        );
    }
}

#[test]
fn time_limit_is_respected_and_threads_agree_on_exact_scores() {
    let mut rng = Rng(0x7777_0000_1111_2222);
    let pos = random_position(&mut rng, Variant::Modern, 30).unwrap();
    let limits = Limits {
        soft_time: Some(Duration::from_millis(50)),
        hard_time: Some(Duration::from_millis(200)),
        ..Limits::default()
    };
    let r = engine(Scoring::Discs).search(&pos, &limits, &AtomicBool::new(false));
    assert!(r.time < Duration::from_millis(400), "{:?}", r.time);
    assert!(pos.play(r.best).is_some());

    let pos = random_position(&mut rng, Variant::Modern, 14).unwrap();
    let one = engine(Scoring::EmptiesToWinner).search(
        &pos,
        &Limits {
            exact: true,
            ..Limits::default()
        },
        &AtomicBool::new(false),
    );
    let mut e = Engine::new(Settings {
        threads: 2,
        scoring: Scoring::EmptiesToWinner,
        ..Settings::default()
    });
    let two = e.search(
        &pos,
        &Limits {
            exact: true,
            ..Limits::default()
        },
        &AtomicBool::new(false),
    );
    assert!(one.exact && two.exact);
    assert_eq!(one.score, two.score);
    assert!(pos.play(two.best).is_some());
}

#[test]
fn game_over_is_reported_as_exact_final_score() {
    // Black wiped out: game over with 63 empty squares, white wins by one disc.
    let pos = Position::from_colors(0, 1 << 27, Color::Black, Variant::Modern, [0, 0]);
    let r =
        engine(Scoring::EmptiesToWinner).search(&pos, &Limits::default(), &AtomicBool::new(false));
    assert!(r.exact);
    assert_eq!(r.score, -64.0);
}

#[test]
fn stop_flag_and_node_limit_end_an_unlimited_search() {
    let mut rng = Rng(0x3141_5926_5358_9793);
    let pos = random_position(&mut rng, Variant::Modern, 40).unwrap();
    let stop = AtomicBool::new(false);
    let mut e = engine(Scoring::Discs);
    let r = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        e.search(&pos, &Limits::default(), &stop)
    });
    assert!(r.time < Duration::from_secs(2), "{:?}", r.time);
    assert!(pos.play(r.best).is_some());
    assert!(r.depth >= 1);

    let r = engine(Scoring::Discs).search(
        &pos,
        &Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
        &AtomicBool::new(false),
    );
    assert!(r.nodes < 20_000 + 2048, "{}", r.nodes);
    assert!(pos.play(r.best).is_some());
}

#[test]
fn classic_opening_placements_are_searched() {
    // From the empty board through the four free centre placements.
    let mut pos = Position::start(Variant::Classic, Color::Black);
    let mut e = engine(Scoring::Discs);
    for _ in 0..6 {
        let r = e.search(
            &pos,
            &Limits {
                depth: Some(6),
                ..Limits::default()
            },
            &AtomicBool::new(false),
        );
        assert!(r.score.abs() < 64.0);
        pos = pos.play(r.best).expect("legal");
    }
    assert_eq!(pos.empty_count(), 58);
}

/// ProbCut (`probcut` > 0) prunes: the same fixed-depth searches visit far
/// fewer nodes in total, still answer legal moves, and mostly agree on the
/// score; a depth that reaches the end still gives the exact score.
#[test]
fn probcut_searches_fewer_nodes_and_stays_sound_at_the_end() {
    let mut rng = Rng(0x9B0B_CA70_0000_0001);
    let (mut plain_nodes, mut cut_nodes) = (0u64, 0u64);
    let mut checked = 0;
    for variant in [Variant::Modern, Variant::Classic] {
        for _ in 0..4 {
            let Some(pos) = random_position(&mut rng, variant, 36) else {
                continue;
            };
            let limits = Limits {
                depth: Some(9),
                ..Limits::default()
            };
            let mut off = Settings::default();
            off.params.probcut_t = 0.0;
            let plain = Engine::new(off).search(&pos, &limits, &AtomicBool::new(false));
            let mut settings = Settings::default();
            settings.params.probcut_t = 1.5;
            let cut = Engine::new(settings).search(&pos, &limits, &AtomicBool::new(false));
            assert!(pos.legal_moves().contains(&cut.best));
            plain_nodes += plain.nodes;
            cut_nodes += cut.nodes;
            checked += 1;
        }
    }
    assert!(checked >= 4);
    assert!(
        cut_nodes * 10 < plain_nodes * 8,
        "probcut {cut_nodes} nodes against {plain_nodes} without"
    );
    // At 12 empties a 12-ply search is an exact solve, ProbCut or not.
    for _ in 0..4 {
        let Some(pos) = random_position(&mut rng, Variant::Modern, 12) else {
            continue;
        };
        let limits = Limits {
            depth: Some(12),
            ..Limits::default()
        };
        let mut settings = Settings::default();
        settings.params.probcut_t = 1.0;
        let cut = Engine::new(settings).search(&pos, &limits, &AtomicBool::new(false));
        let mut off = Settings::default();
        off.params.probcut_t = 0.0;
        let plain = Engine::new(off).search(&pos, &limits, &AtomicBool::new(false));
        assert!(cut.exact && plain.exact);
        assert_eq!(cut.score, plain.score);
    }
}

#[test]
fn the_leaf_tempo_moves_odd_and_even_depths_towards_each_other() {
    // From the start no line within two plies passes or ends the game, so
    // the tempo shifts every leaf alike: even depths up, odd depths down,
    // and the move chosen stays the same.
    let pos = Position::start(Variant::Modern, Color::Black);
    let search = |tempo: i32, depth: u32| {
        let mut settings = Settings::default();
        settings.params.leaf_tempo = tempo;
        Engine::new(settings).search(
            &pos,
            &Limits {
                depth: Some(depth),
                ..Limits::default()
            },
            &AtomicBool::new(false),
        )
    };
    for depth in [1, 2] {
        let (plain, tempo) = (search(0, depth), search(130, depth));
        let shift = if depth % 2 == 0 { 1.3 } else { -1.3 };
        assert!(
            (tempo.score - plain.score - shift).abs() < 1e-9,
            "depth {depth}: {} against {}",
            tempo.score,
            plain.score
        );
        assert_eq!(tempo.best, plain.best);
    }
}

/// With ProbCut off (`probcut 0`) an exact solve past 17 empties skips the
/// selective pass and the deep iterations before it, which only ProbCut
/// makes cheap: it gives the same exact score as with ProbCut on, in a
/// comparable number of nodes.
#[test]
fn an_exact_solve_without_probcut_is_as_exact_and_not_much_longer() {
    let mut rng = Rng(0x5E1E_C71E_0000_0002);
    let mut checked = 0;
    while checked < 2 {
        let Some(pos) = random_position(&mut rng, Variant::Modern, 20) else {
            continue;
        };
        let limits = Limits {
            exact: true,
            ..Limits::default()
        };
        let solve = |t: f64| {
            let mut settings = Settings {
                hash_mb: 16,
                ..Settings::default()
            };
            settings.params.probcut_t = t;
            Engine::new(settings).search(&pos, &limits, &AtomicBool::new(false))
        };
        let (on, off) = (solve(1.5), solve(0.0));
        assert!(on.exact && off.exact);
        assert_eq!(on.score, off.score, "{}", pos.to_obf());
        assert!(
            off.nodes < 3 * on.nodes + 1_000_000,
            "{}: {} nodes without ProbCut against {} with it",
            pos.to_obf(),
            off.nodes,
            on.nodes
        );
        checked += 1;
    }
}
