//! Solving endgame problems (the FFO files, read by `rules::obf`) exactly,
//! for `mollett solve` and the tests.

use crate::engine::search::{Engine, Limits, Scoring, Settings};
use crate::rules::obf::Problem;
use crate::rules::square::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// The outcome of one exact solve.
#[derive(Clone, Debug)]
pub struct Solved {
    pub best: Move,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    /// Score equal to the file's best and the move among the tied best
    /// (true when the file gives no scores).
    pub correct: bool,
}

/// Solves `problem` exactly with the empties-to-the-winner rule, on a cleared table.
pub fn solve(engine: &mut Engine, problem: &Problem) -> Solved {
    engine.clear();
    let limits = Limits {
        exact: true,
        multi_pv: 1,
        ..Limits::default()
    };
    let r = engine.search(&problem.pos, &limits, &AtomicBool::new(false));
    let score = r.score.round() as i32;
    let correct = r.exact
        && match problem.best_score() {
            Some(b) => b == score && problem.is_best(r.best),
            None => true,
        };
    Solved {
        best: r.best,
        score,
        nodes: r.nodes,
        time: r.time,
        correct,
    }
}

/// An engine set up for suites: empties to the winner, `threads`, `hash_mb`.
pub fn engine(threads: usize, hash_mb: usize) -> Engine {
    Engine::new(Settings {
        scoring: Scoring::EmptiesToWinner,
        threads,
        hash_mb,
        // Orders the solver's moves at many empties: the learned evaluation
        // halves the time of FFO #40-#47 against the handcrafted one (BENCHMARKS.md).
        eval: crate::engine::eval::EvalKind::Learned,
        ..Settings::default()
    })
}
