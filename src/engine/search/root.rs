//! The root: iterative deepening with aspiration windows, multi-PV scoring, and the switch to the solver.

use super::midgame::disc_window;
use super::params::*;
use super::progress::{Progress, Stage, Working};
use super::worker::{Beat, MidgameMove, SplitPoint, Worker};
use crate::clock::Instant;
use crate::engine::eval::UNITS_PER_DISC;
use crate::engine::tt::TranspositionTable;
use crate::rules::color::Variant;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::time::Duration;

/// A root move with its child position and its latest score (evaluation units).
#[derive(Clone, Copy, Debug)]
pub struct RootMove {
    pub mv: Move,
    pub child: Position,
    pub score: i32,
    /// `score` is the move's value at the searched depth, not just a bound.
    pub exact: bool,
}

/// How the children of the root are searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// Midgame search of the root to this depth.
    Midgame(u32),
    /// Exact solve, in a pass of this step (`WinLossDraw`: a (-1, 1)
    /// disc window; `Exact`: any other).
    Solve(Stage),
}

/// What a thread is asked to do.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The position searched.
    pub root: Position,
    /// Finish with the exact solver.
    pub endgame: bool,
    /// The solver must run whatever the soft time says (`Limits::exact`).
    pub force_exact: bool,
    /// Deepest midgame iteration.
    pub max_depth: u32,
    /// Root moves that need exact scores (1: a plain search).
    pub multi_pv: usize,
    /// Randomness, or a review's window: root moves within this many units
    /// of the best need exact scores too.
    pub margin: Option<i32>,
    /// A root move that needs an exact score whatever its rank.
    pub keep: Option<Move>,
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
    /// [`Limits::heartbeat`](super::Limits::heartbeat).
    pub heartbeat: Option<Duration>,
}

impl Plan {
    fn multi(&self) -> bool {
        self.multi_pv > 1 || self.margin.is_some()
    }
}

/// What a thread settled on; its root moves are ordered best first.
#[derive(Clone, Debug)]
pub struct Settled {
    /// Score of the first root move, in evaluation units.
    pub score: i32,
    /// Deepest completed iteration (empties for an exact solve).
    pub depth: u32,
    pub exact: bool,
}

/// Result of one pass over the root moves.
struct Sweep {
    completed: bool,
    /// Index and score of the best move whose search completed.
    best: Option<(usize, i32)>,
}

impl Worker<'_> {
    /// Value of a root child in the root mover's view, in evaluation units.
    fn child_value(&mut self, mode: Mode, child: &Position, alpha: i32, beta: i32) -> i32 {
        match mode {
            Mode::Midgame(depth) => -self.pvs(child, depth as i32 - 1, -beta, -alpha),
            Mode::Solve(_) => {
                let (a, b) = disc_window(alpha, beta);
                -self.solve(child, -b, -a, child.empty_count()) * UNITS_PER_DISC
            }
        }
    }

    /// A root child's value in (`floor`, `beta`) for multi-PV, where each
    /// move needs its own value: searched first in a narrow window around
    /// `guess` (the move's value from the iteration before, or the
    /// presearch's before a solve), widened on each failure, as the single
    /// best move's search is. A solve's value is the one the whole window
    /// gives, for fewer nodes; a midgame value may differ a little (the
    /// search's pruning sees the window) but depends on the position alone
    /// (`mollett analyze`'s figures: docs/history.md, issue 79).
    fn aspired_value(
        &mut self,
        mode: Mode,
        child: &Position,
        (floor, beta): (i32, i32),
        guess: Option<i32>,
    ) -> i32 {
        let u = UNITS_PER_DISC;
        let (g, step) = match (mode, guess) {
            (Mode::Midgame(depth), Some(g)) if depth >= self.params.aspiration_min_depth => {
                (g, self.params.aspiration_window.max(1))
            }
            // Whole discs, an even score as a full board's.
            (Mode::Solve(_), Some(g)) => (
                2 * u * (g as f64 / (2 * u) as f64).round() as i32,
                EXACT_ASPIRATION_WINDOW * u,
            ),
            _ => return self.child_value(mode, child, floor, beta),
        };
        let (mut a, mut b) = ((g - step).max(floor), (g + step).min(beta));
        if a >= b {
            return self.child_value(mode, child, floor, beta);
        }
        let mut delta = step;
        loop {
            let v = self.child_value(mode, child, a, b);
            if self.stopped {
                return v;
            }
            // Widened on the failing side only, as the iterations' windows
            // are: a midgame search is not always consistent (a fail low
            // may fail high in the next window), and windows that only grow
            // end.
            if v <= a && a > floor {
                a = (v.min(a) - delta).max(floor);
            } else if v >= b && b < beta {
                b = (v.max(b) + delta).min(beta);
            } else {
                return v;
            }
            delta *= 2;
        }
    }

    /// Searches the root moves once in (`alpha`, `beta`): PVS for a plain
    /// search; for multi-PV, every move that might rank among the first
    /// `multi_pv` (or lie within `margin` of the best) gets an exact score.
    #[allow(clippy::needless_range_loop)] // the loop reads and updates `moves[i]`
    fn root_pass(
        &mut self,
        moves: &mut [RootMove],
        mode: Mode,
        mut alpha: i32,
        beta: i32,
        plan: &Plan,
    ) -> Sweep {
        let mut best: Option<(usize, i32)> = None;
        let mut exact_scores: Vec<i32> = Vec::new();
        for i in 0..moves.len() {
            if i > 0 && self.poll() {
                return Sweep {
                    completed: false,
                    best,
                };
            }
            let child = moves[i].child;
            if let (Some(_), Some(every)) = (self.progress, plan.heartbeat) {
                self.set_beat(
                    mode,
                    (alpha, beta),
                    (i, moves.len()),
                    &moves[i],
                    plan,
                    every,
                );
            }
            let (v, floor) = if plan.multi() {
                // Moves at or below `floor` need no exact score.
                exact_scores.sort_unstable_by(|a, b| b.cmp(a));
                let kth = exact_scores
                    .get(plan.multi_pv - 1)
                    .copied()
                    .unwrap_or(-INFINITY);
                let near = match (plan.margin, exact_scores.first()) {
                    (Some(m), Some(&b)) => b - m - 1,
                    (Some(_), None) => -INFINITY,
                    (None, _) => INFINITY,
                };
                let floor = if plan.keep == Some(moves[i].mv) {
                    alpha
                } else {
                    kth.min(near).max(alpha)
                };
                let guess = moves[i].exact.then_some(moves[i].score);
                (
                    self.aspired_value(mode, &child, (floor, beta), guess),
                    floor,
                )
            } else if i == 0 {
                (self.child_value(mode, &child, alpha, beta), alpha)
            } else {
                let mut v = self.child_value(mode, &child, alpha, alpha + 1);
                if v > alpha && v < beta && !self.stopped {
                    v = self.child_value(mode, &child, alpha, beta);
                }
                (v, alpha)
            };
            if self.stopped {
                return Sweep {
                    completed: false,
                    best,
                };
            }
            moves[i].score = v;
            moves[i].exact = v > floor && v < beta;
            if i == 0 && v > alpha && v < beta {
                if let Some(sweep) = self.split_root(moves, mode, (alpha, beta), v, plan) {
                    return sweep;
                }
                if let Some(sweep) = self.split_midgame_root(moves, mode, beta, v, plan) {
                    return sweep;
                }
            }
            if moves[i].exact {
                exact_scores.push(v);
            }
            if best.is_none_or(|(_, b)| v > b) {
                best = Some((i, v));
            }
            if !plan.multi() && v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
        Sweep {
            completed: true,
            best,
        }
    }

    /// The rest of a solve pass's root moves, after a first that holds
    /// (scored `v` inside the window), shared with an idle thread as a split
    /// point: the root of a pass is then an all-node (FFO #55's
    /// win/loss/draw pass proves 13 moves no better than the first), and
    /// each thread proves whole root moves in the pass's order, as one
    /// thread would. The caller keeps a first move that fails low on one
    /// thread: FFO #53's win/loss/draw pass, where every move loses, took
    /// 2.36-2.47 G split against 2.17-2.21 G (docs/history.md). `None`
    /// where no thread is idle, or the pass is not a plain solve of a
    /// modern position with the empties of a split point.
    fn split_root(
        &mut self,
        moves: &[RootMove],
        mode: Mode,
        (alpha, beta): (i32, i32),
        v: i32,
        plan: &Plan,
    ) -> Option<Sweep> {
        if !matches!(mode, Mode::Solve(_))
            || plan.multi()
            || moves.len() < 3
            || plan.root.variant != Variant::Modern
            || !self
                .pool
                .is_some_and(|pool| plan.root.empty_count() >= pool.min_empties && pool.acquire())
        {
            return None;
        }
        let squares: Vec<u32> = moves
            .iter()
            .map(|m| {
                m.mv.square()
                    .expect("three or more root moves, none a pass")
                    .index() as u32
            })
            .collect();
        if let (Some(_), Some(every)) = (self.progress, plan.heartbeat) {
            // Beats name the second move: the threads share the rest.
            self.set_beat(
                mode,
                (alpha, beta),
                (1, moves.len()),
                &moves[1],
                plan,
                every,
            );
        }
        let Some((best, best_move)) = self.solve_rest_of_root(
            &plan.root,
            &squares,
            disc_window(v, beta),
            v / UNITS_PER_DISC,
        ) else {
            return Some(Sweep {
                completed: false,
                best: Some((0, v)),
            });
        };
        let k = squares
            .iter()
            .position(|&s| Some(s as u8) == best_move)
            .expect("a split point's best move is one of its moves");
        Some(Sweep {
            completed: true,
            best: Some((k, best * UNITS_PER_DISC)),
        })
    }

    /// The rest of a midgame iteration's root moves, after a first that
    /// holds (scored `v` inside the window), shared with an idle thread as a
    /// split point, as `pvs` shares a node's. The other moves keep the
    /// scores of the iteration before, which order them for the next.
    /// `None` where the search does not split its midgame nodes or no
    /// thread is idle.
    fn split_midgame_root(
        &mut self,
        moves: &[RootMove],
        mode: Mode,
        beta: i32,
        v: i32,
        plan: &Plan,
    ) -> Option<Sweep> {
        let Mode::Midgame(depth) = mode else {
            return None;
        };
        if !self.midgame_splits
            || plan.multi()
            || moves.len() < 3
            || moves.iter().any(|m| m.mv.square().is_none())
            || !self.pool.is_some_and(|pool| pool.acquire())
        {
            return None;
        }
        let list: std::sync::Arc<[MidgameMove]> = moves
            .iter()
            .map(|m| MidgameMove {
                sq: m
                    .mv
                    .square()
                    .expect("no pass among three or more moves")
                    .index() as u8,
                child: m.child,
            })
            .collect();
        let first = list[0].sq;
        let Some((best, best_move)) = self.split(
            list.clone(),
            SplitPoint::new(1, v, v, Some(first)),
            depth as i32,
            beta,
        ) else {
            return Some(Sweep {
                completed: false,
                best: Some((0, v)),
            });
        };
        let k = list
            .iter()
            .position(|m| Some(m.sq) == best_move)
            .expect("a split point's best move is one of its moves");
        Some(Sweep {
            completed: true,
            best: Some((k, best)),
        })
    }

    /// One thread's search of the root: midgame iterations, then (in the
    /// endgame) a selective pass to the end, a win/loss/draw solve and an
    /// exact solve. `moves` must not be empty; on return it is ordered best first.
    pub fn think(&mut self, moves: &mut [RootMove], plan: &Plan, empties: u32) -> Settled {
        let mut report = Settled {
            score: -self.eval.evaluate(&moves[0].child),
            depth: 0,
            exact: false,
        };
        let mut last_iteration = Duration::ZERO;
        let mut depth = 1;
        // In the endgame the solver (and the selective pass before it) sees
        // the end: the plain iterations stop short of it.
        let max_depth = if plan.endgame {
            plan.max_depth.min(empties.saturating_sub(1))
        } else {
            plan.max_depth.min(empties.max(1))
        };

        // Before a long solve, and where the score leaves ProbCut room to
        // prune, the iterations go on to the selective pass below (without
        // ProbCut, the deep iterations would cost more than the solve).
        let probcut = self.params.probcut_t > 0.0;
        let deepens = |report: &Settled| {
            plan.endgame
                && probcut
                && !plan.multi()
                && empties > SELECTIVE_SOLVE_EMPTIES + 1
                && report.score.abs() < SELECTIVE_MAX_SCORE
        };
        while depth <= max_depth || (depth < empties && deepens(&report)) {
            if report.depth > 0 && !self.may_start(plan, last_iteration) {
                return report;
            }
            let t0 = Instant::now();
            if !self.iterate(moves, plan, depth, &mut report) {
                return report;
            }
            // A search as deep as the empties sees every game to its end.
            report.exact = depth >= empties;
            last_iteration = t0.elapsed();
            self.log(plan, &report, moves, Stage::Midgame);
            if report.exact || (moves.len() == 1 && (plan.soft.is_some() || plan.hard.is_some())) {
                return report;
            }
            // Multi-PV to a fixed depth (every move its own value, as a
            // review wants) deepens two plies at a time from the aspiration
            // depth, to `max_depth` exactly: each move's window is then
            // centred on its value at the same parity, and an iteration of
            // every move is dear (issue 79: a review's CPU -16 %). A search
            // on the clock keeps every depth, to stop at the latest one.
            depth += if plan.multi()
                && plan.soft.is_none()
                && plan.hard.is_none()
                && depth >= self.params.aspiration_min_depth
                && depth + 1 < max_depth
            {
                2
            } else {
                1
            };
        }

        if !plan.endgame || self.stopped {
            return report;
        }
        if !plan.force_exact && plan.soft.is_some_and(|s| plan.start.elapsed() >= s) {
            return report;
        }
        // The selective pass: a search to the end with ProbCut, which
        // solves exactly only from SELECTIVE_SOLVE_EMPTIES. It leaves a best
        // move in the table at the nodes near the root and a close estimate
        // of the score for the exact pass's window (FFO #40-#49: a third
        // fewer nodes; docs/history.md).
        if deepens(&report) {
            self.selective = true;
            let probcut_t = self.params.probcut_t;
            self.params.probcut_t = SELECTIVE_PROBCUT_T;
            let completed = self.iterate(moves, plan, empties, &mut report);
            self.params.probcut_t = probcut_t;
            self.selective = false;
            if !completed {
                return report;
            }
            self.log(plan, &report, moves, Stage::Selective);
        }
        // A special ending first: a wipe-out (every disc ours) is proved or
        // refuted by a null window at the top score far faster than the full
        // solve finds it (FFO #59: 28% fewer nodes). A node budget bounds it.
        if !plan.multi()
            && empties >= WIPEOUT_SCAN_MIN_EMPTIES
            && report.score >= WIPEOUT_SCAN_MIN_SCORE
        {
            let top = 64 * UNITS_PER_DISC;
            let scan = self.with_node_budget(WIPEOUT_SCAN_NODES, |w| {
                // The wipe-out's one line is the iterations' own: follow every table move
                // (FFO #59: 2,591 nodes, against 53.5M from depth 8 only).
                let min_depth = std::mem::replace(&mut w.table_move_min_depth, 0);
                let pass = w.root_pass(
                    moves,
                    Mode::Solve(Stage::Exact),
                    top - UNITS_PER_DISC,
                    top,
                    plan,
                );
                w.table_move_min_depth = min_depth;
                pass
            });
            if self.stopped {
                return report;
            }
            if let Some(Sweep {
                completed: true,
                best: Some((i, v)),
            }) = scan
            {
                if v >= top {
                    put_first(moves, i);
                    report.score = top;
                    report.exact = true;
                    report.depth = empties;
                    self.log(plan, &report, moves, Stage::Exact);
                    return report;
                }
            }
        }
        // Win/loss/draw first: cheap, and it bounds the exact solve's window.
        let guess = report.score;
        let (mut alpha, mut beta) = (-INFINITY, INFINITY);
        if !plan.multi() {
            let (a, b) = (-UNITS_PER_DISC, UNITS_PER_DISC);
            let pass = self.root_pass(moves, Mode::Solve(Stage::WinLossDraw), a, b, plan);
            if !pass.completed {
                self.accept_partial(moves, &mut report, pass.best, a);
                return report;
            }
            let (i, v) = pass.best.expect("a completed pass scored a move");
            put_first(moves, i);
            report.score = v.clamp(a, b);
            self.log(plan, &report, moves, Stage::WinLossDraw);
            match v {
                v if v >= b => alpha = 0,
                v if v <= a => beta = 0,
                _ => {
                    // A draw needs no more work: its exact score is 0.
                    report.score = 0;
                    report.exact = true;
                    report.depth = empties;
                    return report;
                }
            }
        }
        // The exact pass: an aspiration window at the midgame estimate
        // (rounded to an even score, as a full board scores), widened on each failure.
        let u = UNITS_PER_DISC;
        let (mut a, mut b) = (alpha, beta);
        let mut delta = EXACT_ASPIRATION_WINDOW * u;
        if !plan.multi() {
            let g = 2 * u * (guess as f64 / (2 * u) as f64).round() as i32;
            (a, b) = ((g - delta).max(alpha), (g + delta).min(beta));
            if a >= b {
                (a, b) = (alpha, beta);
            }
        }
        let (i, v) = loop {
            let pass = self.root_pass(moves, Mode::Solve(Stage::Exact), a, b, plan);
            if !pass.completed {
                self.accept_partial(moves, &mut report, pass.best, a);
                return report;
            }
            let (i, v) = pass.best.expect("a completed pass scored a move");
            // Fail-soft: a fail low bounds the value by `v` from above, a fail high from below.
            if v <= a && a > alpha {
                (a, b) = ((v - delta).max(alpha), (v + u).min(beta));
            } else if v >= b && b < beta {
                put_first(moves, i);
                (a, b) = ((v - u).max(alpha), (v + delta).min(beta));
            } else {
                break (i, v);
            }
            delta *= 2;
        };
        order(moves, i);
        report.score = v;
        report.exact = true;
        report.depth = empties;
        self.log(plan, &report, moves, Stage::Exact);
        report
    }

    /// One midgame iteration to `depth` with aspiration windows around
    /// `report`'s score; on success it orders `moves` best first and records
    /// the score and depth in `report`. False when stopped (`report` then
    /// holds the best the partial pass found).
    fn iterate(
        &mut self,
        moves: &mut [RootMove],
        plan: &Plan,
        depth: u32,
        report: &mut Settled,
    ) -> bool {
        let mode = Mode::Midgame(depth);
        let mut delta = self.params.aspiration_window.max(1);
        let (mut alpha, mut beta) =
            if !plan.multi() && depth >= self.params.aspiration_min_depth && report.depth > 0 {
                (report.score - delta, report.score + delta)
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let pass = self.root_pass(moves, mode, alpha, beta, plan);
            if !pass.completed {
                self.accept_partial(moves, report, pass.best, alpha);
                return false;
            }
            let (i, v) = pass.best.expect("a completed pass scored a move");
            if v <= alpha {
                alpha = (v - delta).max(-INFINITY);
                delta *= 2;
            } else if v >= beta {
                put_first(moves, i);
                beta = (v + delta).min(INFINITY);
                delta *= 2;
            } else {
                order(moves, i);
                report.score = v;
                report.depth = depth;
                return true;
            }
        }
    }

    /// After a stop mid-pass: a move whose search completed above `alpha`
    /// beat the previous best (searched first), so it becomes the answer.
    fn accept_partial(
        &self,
        moves: &mut [RootMove],
        report: &mut Settled,
        best: Option<(usize, i32)>,
        alpha: i32,
    ) {
        if let Some((i, v)) = best {
            if v > alpha {
                put_first(moves, i);
                report.score = v;
                report.exact = false;
            }
        }
    }

    /// Whether the main thread may start another iteration: not past the soft
    /// limit, and not one predicted to run past the hard limit.
    fn may_start(&self, plan: &Plan, last_iteration: Duration) -> bool {
        let elapsed = plan.start.elapsed();
        if plan.soft.is_some_and(|s| elapsed >= s) {
            return false;
        }
        if let Some(h) = plan.hard {
            if elapsed + last_iteration.mul_f64(self.params.iteration_growth) > h {
                return false;
            }
        }
        true
    }

    /// Records what the main thread is searching now (root move `root.0`
    /// of `root.1`, in the window `window`), for its heartbeat reports.
    fn set_beat(
        &mut self,
        mode: Mode,
        window: (i32, i32),
        root: (usize, usize),
        mv: &RootMove,
        plan: &Plan,
        every: Duration,
    ) {
        let (step, depth) = match mode {
            Mode::Midgame(d) if self.selective => (Stage::Selective, d),
            Mode::Midgame(d) => (Stage::Midgame, d),
            Mode::Solve(step) => (step, mv.child.empty_count() + 1),
        };
        let due = self.beat.map_or(plan.start + every, |b| b.due);
        self.beat = Some(Beat {
            working: Working {
                step,
                // A window wider than the scores (the first iterations') reads as all of them.
                window: {
                    let (a, b) = disc_window(window.0, window.1);
                    (a.max(-64), b.min(64))
                },
                root: (root.0 + 1, root.1),
            },
            depth,
            mv: mv.mv,
            start: plan.start,
            due,
            every,
        });
    }

    /// Tells the log (at info level) and the progress callback of a
    /// completed step.
    fn log(&mut self, plan: &Plan, report: &Settled, moves: &[RootMove], stage: Stage) {
        if let Some(progress) = self.progress {
            progress(&Progress {
                stage,
                depth: report.depth,
                score: report.score as f64 / UNITS_PER_DISC as f64,
                pv: pv_from_tt(self.tt, &moves[0], 24),
                nodes: self.nodes_so_far(),
                time: plan.start.elapsed(),
                working: None,
            });
            // A completed step shows life too: the next heartbeat is due a full interval on.
            if let Some(beat) = self.beat.as_mut() {
                beat.due = Instant::now() + beat.every;
            }
        }
        if !log::log_enabled!(log::Level::Info) {
            return;
        }
        let what = stage.name();
        let secs = plan.start.elapsed().as_secs_f64();
        let pv: Vec<String> = pv_from_tt(self.tt, &moves[0], 24)
            .iter()
            .map(|m| m.to_string())
            .collect();
        log::info!(
            "{what} {} score {:+.2} nodes {} nps {:.0} time {:.3}s pv {}",
            report.depth,
            report.score as f64 / UNITS_PER_DISC as f64,
            self.nodes,
            self.nodes as f64 / secs.max(1e-6),
            secs,
            pv.join(" ")
        );
    }
}

/// Moves the best move (index `i`) to the front, keeping the others' order.
fn put_first(moves: &mut [RootMove], i: usize) {
    moves[..=i].rotate_right(1);
}

/// Best first, then the rest by score (bounds, mostly), stable.
fn order(moves: &mut [RootMove], best: usize) {
    put_first(moves, best);
    moves[1..].sort_by_key(|m| std::cmp::Reverse(m.score));
}

/// The principal variation from `root`: its move, then the table's best
/// moves while they are legal (passes inserted where forced).
pub fn pv_from_tt(tt: &TranspositionTable, root: &RootMove, max_len: usize) -> Vec<Move> {
    let mut pv = vec![root.mv];
    let mut pos = root.child;
    while pv.len() < max_len {
        let moves = pos.moves();
        if moves == 0 {
            let passed = pos.pass();
            if passed.moves() == 0 {
                break;
            }
            pv.push(Move::Pass);
            pos = passed;
            continue;
        }
        match tt
            .probe(pos.key())
            .and_then(|e| e.mv)
            .filter(|&m| moves >> m & 1 != 0)
        {
            Some(m) => {
                let sq = crate::rules::square::Square::from_index(m as u32);
                pv.push(Move::Place(sq));
                pos = pos.play_unchecked(sq);
            }
            None => break,
        }
    }
    pv
}
