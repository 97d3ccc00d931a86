//! The FFO endgame problems (modern rules, empties to the winner) solved exactly.
//! FFO #40-#59 (20 to 34 empties) are too slow for the suite: run them with
//! `mollett solve tests/data/ffo/fforum-40-59.obf --threads 2`.

use mollett::engine::suite;
use std::path::Path;
use std::time::Instant;

fn check(file: &str, threads: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ffo")
        .join(file);
    let problems = mollett::rules::obf::read(&path).unwrap();
    let mut engine = suite::engine(threads, 64);
    let t = Instant::now();
    for p in &problems {
        let s = suite::solve(&mut engine, p);
        eprintln!(
            "ffo #{:2}: {} {:+} in {:.3}s, {} nodes",
            p.id,
            s.best,
            s.score,
            s.time.as_secs_f64(),
            s.nodes
        );
        assert_eq!(Some(s.score), p.best_score(), "#{}: score", p.id);
        assert!(
            p.is_best(s.best),
            "#{}: {} is not a best move",
            p.id,
            s.best
        );
    }
    eprintln!("{file}: {:.3}s", t.elapsed().as_secs_f64());
}

#[test]
fn ffo_1_to_19_are_solved_exactly() {
    check("fforum-1-19.obf", 1);
}

/// Two threads (split points): the same exact results.
#[test]
fn ffo_20_to_39_are_solved_exactly_with_two_threads() {
    check("fforum-20-39.obf", 2);
}

/// More threads than the CI machine's two cores: helpers that wait at their
/// own split points run the jobs posted below them, and every solve still
/// ends with the exact results.
#[test]
fn ffo_20_to_39_are_solved_exactly_with_four_threads() {
    check("fforum-20-39.obf", 4);
}
