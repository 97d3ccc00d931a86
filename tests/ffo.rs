//! The FFO endgame problems (modern rules, empties to the winner) solved exactly.

use mollett::search::{Engine, Limits, Scoring, Settings};
use mollett::{Move, Position, Variant};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// One FFO problem: the position and each legal move's exact score, best first.
struct Problem {
    pos: Position,
    scores: Vec<(Move, i32)>,
}

fn read(file: &str) -> Vec<Problem> {
    let text = std::fs::read_to_string(format!(
        "{}/tests/data/ffo/{file}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.split(';').next().unwrap().split_whitespace();
            let board = parts.next().unwrap();
            let side = parts.next().unwrap();
            let pos = Position::from_obf(board, side, Variant::Modern, None).unwrap();
            let scores = line
                .split_whitespace()
                .skip(2)
                .filter_map(|t| {
                    let (m, s) = t.trim_end_matches(';').split_once(':')?;
                    Some((m.parse().ok()?, s.trim_start_matches('+').parse().ok()?))
                })
                .collect();
            Problem { pos, scores }
        })
        .collect()
}

fn solve(problems: &[Problem], first: usize, count: usize) {
    let settings = Settings {
        scoring: Scoring::EmptiesToWinner,
        hash_mb: 64,
        ..Settings::default()
    };
    let mut engine = Engine::new(settings);
    for (i, p) in problems.iter().enumerate().take(count) {
        engine.clear();
        let t = Instant::now();
        let limits = Limits {
            exact: true,
            multi_pv: 1,
            ..Limits::default()
        };
        let r = engine.search(&p.pos, &limits, &AtomicBool::new(false));
        eprintln!(
            "ffo #{:2}: {} {:+} in {:.3}s, {} nodes",
            first + i,
            r.best,
            r.score,
            t.elapsed().as_secs_f64(),
            r.nodes
        );
        let best = p.scores[0].1;
        assert!(r.exact, "#{}", first + i);
        assert_eq!(r.score, best as f64, "#{}: score", first + i);
        // Several moves may tie for best; the chosen one must be one of them.
        let chosen = p.scores.iter().find(|(m, _)| *m == r.best).map(|s| s.1);
        assert_eq!(
            chosen,
            Some(best),
            "#{}: {} is not a best move",
            first + i,
            r.best
        );
        assert_eq!(r.pv.first(), Some(&r.best));
    }
}

#[test]
fn ffo_1_to_19_are_solved_exactly() {
    solve(&read("fforum-1-19.obf"), 1, 19);
}

/// FFO #20-#27 (6 to 20 empties): a few seconds in release, so opt-in
/// (`cargo test --release -- --ignored`) for timing the solver.
#[test]
#[ignore]
fn ffo_20_to_27_are_solved_exactly() {
    solve(&read("fforum-20-39.obf"), 20, 8);
}
