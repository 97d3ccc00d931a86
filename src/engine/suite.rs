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

/// The table size `mollett solve` gives a problem of `empties` empty
/// squares when none is asked for, in megabytes. A bigger table saves
/// nodes from 28 empties, where a solve stores hundreds of millions of
/// them, but makes each node dearer (its probes miss further out). Two
/// threads, seconds against `--hash 256` (docs/history.md, fifth round): FFO
/// #50-#52 (26-27 empties) 44.2 at 128 MB against 49.1; #53-#54 (28) 212.2
/// at 1 GB against 237.9; #55-#58 (29-30) 654.9 at 1 GB, 748.7 at 2 GB,
/// against 668.2; but #59 (34 empties, a wipe-out) 11.7 at 1 GB against
/// 7.8. At most half the memory available, rounded down to a power of two.
pub fn auto_hash_mb(empties: u32) -> usize {
    let wanted: usize = if empties <= 27 { 128 } else { 1024 };
    let room = crate::engine::tt::available_memory()
        .map_or(usize::MAX, |bytes| (bytes / 2 / (1 << 20)) as usize);
    if wanted <= room {
        wanted
    } else {
        // The largest power of two that fits, and at least a megabyte.
        1 << room.max(1).ilog2()
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
        // halves the time of FFO #40-#47 against the handcrafted one (docs/history.md).
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
            "{:>4} {:>7} {:>4} {:>6} {:>6} {:>14} {:>8.3}s {:>10.0}{}",
            format!("#{}", p.id),
            p.pos.empty_count(),
            s.best.to_string(),
            exact_text(s.score as i64),
            p.best_score().map_or("?".into(), |b| exact_text(b as i64)),
            s.nodes,
            t,
            s.nodes as f64 / t.max(1e-9),
            if s.correct { "" } else { "  WRONG" }
        )
    }
}

/// An exact disc difference as the protocol writes it: `+18`, `-4`, `0`.
fn exact_text(score: i64) -> String {
    if score == 0 {
        "0".into()
    } else {
        format!("{score:+}")
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

/// Told of each problem's progress (its iterations, passes and heartbeats).
pub type SolveProgress = dyn Fn(&Problem, &Progress) + Sync;

/// Solves the problems of `problems` whose ids lie in `ids`, on a table of
/// `hash_mb` (refused when it cannot be allocated; `None`: sized by each
/// problem's empties, [`auto_hash_mb`]), ordering with `eval`;
/// `row` sees each result as it comes, `progress` each step of a solve (and
/// every `heartbeat` of a step still at work, what it is at).
#[allow(clippy::too_many_arguments)]
pub fn solve_all(
    problems: &[Problem],
    ids: RangeInclusive<usize>,
    threads: usize,
    hash_mb: Option<usize>,
    eval: &EvalKind,
    row: &mut dyn FnMut(&SolveRow),
    progress: Option<&SolveProgress>,
    heartbeat: Option<Duration>,
) -> Result<SolveTotals, String> {
    let mut totals = SolveTotals {
        threads,
        ..SolveTotals::default()
    };
    // The engine and its table's size, made anew when a problem wants another size.
    let mut current: Option<(usize, Engine)> = None;
    for problem in problems.iter().filter(|p| ids.contains(&p.id)) {
        let mb = hash_mb.unwrap_or_else(|| auto_hash_mb(problem.pos.empty_count()));
        if current.as_ref().is_none_or(|(size, _)| *size != mb) {
            // The old table goes before the new one is allocated.
            drop(current.take());
            let mut engine = Engine::try_new(settings(threads.max(1), mb))?;
            engine.set_evaluator(eval.evaluator());
            current = Some((mb, engine));
        }
        let engine = &mut current.as_mut().expect("an engine was just made").1;
        let live = progress.map(|f| move |p: &Progress| f(problem, p));
        let solved = solve_with_progress(
            engine,
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

#[cfg(test)]
mod tests {
    use super::auto_hash_mb;

    #[test]
    fn the_table_grows_with_the_empties_within_half_the_memory() {
        let sizes: Vec<usize> = (0..=60).map(auto_hash_mb).collect();
        assert!(sizes.windows(2).all(|w| w[0] <= w[1]), "{sizes:?}");
        assert!(sizes.iter().all(|s| s.is_power_of_two()), "{sizes:?}");
        if let Some(bytes) = crate::engine::tt::available_memory() {
            let half = (bytes / 2 / (1 << 20)) as usize;
            assert!(
                sizes.iter().all(|&s| s <= half.max(1)),
                "{sizes:?} against {half} MB"
            );
            if half >= 1024 {
                assert_eq!(
                    (auto_hash_mb(27), auto_hash_mb(28), auto_hash_mb(34)),
                    (128, 1024, 1024)
                );
            }
        }
    }
}
