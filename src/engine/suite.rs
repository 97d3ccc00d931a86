//! Solving endgame problems (the FFO files, read by `rules::obf`) exactly,
//! for `mollett solve` and the tests.

use crate::engine::eval::EvalKind;
use crate::engine::search::{Engine, Limits, Progress, Scoring, Settings};
use crate::rules::obf::Problem;
use crate::rules::square::Move;
use std::fmt;
use std::ops::RangeInclusive;
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
    solve_with_progress(engine, problem, None, None)
}

/// [`solve`], telling `progress` of each step as it completes and, every
/// `heartbeat` of a step still at work, what it is at ([`Stage::Working`](crate::engine::search::Stage::Working)).
pub fn solve_with_progress(
    engine: &mut Engine,
    problem: &Problem,
    progress: Option<&(dyn Fn(&Progress) + Sync)>,
    heartbeat: Option<Duration>,
) -> Solved {
    engine.clear();
    let limits = Limits {
        exact: true,
        multi_pv: 1,
        heartbeat,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let r = engine.search_with_progress(&problem.pos, &limits, &stop, progress);
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
    Engine::new(settings(threads, hash_mb))
}

/// The settings of [`engine`].
fn settings(threads: usize, hash_mb: usize) -> Settings {
    Settings {
        scoring: Scoring::EmptiesToWinner,
        threads,
        hash_mb,
        // Orders the solver's moves at many empties: the learned evaluation
        // halves the time of FFO #40-#47 against the handcrafted one (BENCHMARKS.md).
        eval: crate::engine::eval::EvalKind::Learned,
        ..Settings::default()
    }
}
/// One problem's line of `mollett solve`.
pub struct SolveRow<'a> {
    pub problem: &'a Problem,
    pub solved: Solved,
}

impl SolveRow<'_> {
    /// The column heads of the rows.
    pub const HEADER: &'static str =
        "  id empties move  score expect          nodes      time    nodes/s";
}

impl fmt::Display for SolveRow<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (p, s) = (self.problem, &self.solved);
        let t = s.time.as_secs_f64();
        write!(
            f,
            "{:>4} {:>7} {:>4} {:>+6} {:>6} {:>14} {:>8.3}s {:>10.0}{}",
            format!("#{}", p.id),
            p.pos.empty_count(),
            s.best.to_string(),
            s.score,
            p.best_score().map_or("?".into(), |b| format!("{b:+}")),
            s.nodes,
            t,
            s.nodes as f64 / t.max(1e-9),
            if s.correct { "" } else { "  WRONG" }
        )
    }
}

/// The totals of a `mollett solve` run.
#[derive(Clone, Copy, Debug, Default)]
pub struct SolveTotals {
    pub count: usize,
    pub wrong: usize,
    pub nodes: u64,
    pub secs: f64,
    pub threads: usize,
}

impl fmt::Display for SolveTotals {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "total {} positions, {} wrong, {} nodes, {:.3}s, {:.0} nodes/s, threads {}",
            self.count,
            self.wrong,
            self.nodes,
            self.secs,
            self.nodes as f64 / self.secs.max(1e-9),
            self.threads
        )
    }
}

/// Solves the problems of `problems` whose ids lie in `ids`, on a table of
/// `hash_mb` (refused when it cannot be allocated), ordering with `eval`;
/// `row` sees each result as it comes, `progress` each step of a solve (and
/// every `heartbeat` of a step still at work, what it is at).
#[allow(clippy::too_many_arguments)]
pub fn solve_all(
    problems: &[Problem],
    ids: RangeInclusive<usize>,
    threads: usize,
    hash_mb: usize,
    eval: &EvalKind,
    row: &mut dyn FnMut(&SolveRow),
    progress: Option<&(dyn Fn(&Problem, &Progress) + Sync)>,
    heartbeat: Option<Duration>,
) -> Result<SolveTotals, String> {
    let mut engine = Engine::try_new(settings(threads.max(1), hash_mb))?;
    engine.set_evaluator(eval.evaluator());
    let mut totals = SolveTotals {
        threads,
        ..SolveTotals::default()
    };
    for problem in problems.iter().filter(|p| ids.contains(&p.id)) {
        let live = progress.map(|f| move |p: &Progress| f(problem, p));
        let solved = solve_with_progress(
            &mut engine,
            problem,
            live.as_ref().map(|f| f as &(dyn Fn(&Progress) + Sync)),
            heartbeat,
        );
        totals.nodes += solved.nodes;
        totals.secs += solved.time.as_secs_f64();
        totals.count += 1;
        totals.wrong += !solved.correct as usize;
        row(&SolveRow { problem, solved });
    }
    Ok(totals)
}
