//! One search thread's state: node count, stop conditions, and the shared tables it reads.

use super::params::{Params, POLL_INTERVAL};
use super::Progress;
use crate::engine::eval::{Evaluator, UNITS_PER_DISC};
use crate::engine::tt::TranspositionTable;
use crate::rules::position::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What a search thread shares and counts. The midgame search, the endgame
/// solver and the root driver are `impl Worker` blocks in their own files.
pub struct Worker<'a> {
    pub tt: &'a TranspositionTable,
    pub eval: &'a dyn Evaluator,
    /// Empty squares go to the winner (the `EmptiesToWinner` scoring rule).
    pub empties_to_winner: bool,
    pub nodes: u64,
    /// Set once any stop condition held; every search unwinds without storing.
    pub stopped: bool,
    /// The caller's stop flag.
    stop: &'a AtomicBool,
    /// Set by the main thread when it is done, to end the helpers.
    done: &'a AtomicBool,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    /// Node count at which `tick` next checks the stop conditions.
    next_poll: u64,
    /// The CPU runs the endgame kernel compiled for AVX2/BMI2.
    pub fast_cpu: bool,
    /// Idle threads the exact solver may split work with (none: no splitting).
    pub pool: Option<&'a SplitPool>,
    /// The split points this worker is searching below, outermost first:
    /// a cutoff at any of them stops it.
    pub splits: Vec<Arc<SplitPoint>>,
    /// The tunable search constants (from the option table).
    pub params: Params,
    /// Told of each completed midgame iteration (the main thread only).
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
}

/// Threads available to the exact solver's split points (YBWC).
pub struct SplitPool {
    idle: AtomicUsize,
    /// Nodes with fewer empties are never split.
    pub min_empties: u32,
}

impl SplitPool {
    pub fn new(idle: usize) -> SplitPool {
        SplitPool {
            idle: AtomicUsize::new(idle),
            min_empties: super::params::SPLIT_MIN_EMPTIES,
        }
    }

    /// Takes an idle thread, if there is one.
    #[inline]
    pub fn acquire(&self) -> bool {
        let mut n = self.idle.load(Relaxed);
        while n > 0 {
            match self.idle.compare_exchange_weak(n, n - 1, Relaxed, Relaxed) {
                Ok(_) => return true,
                Err(m) => n = m,
            }
        }
        false
    }

    pub fn release(&self) {
        self.idle.fetch_add(1, Relaxed);
    }
}

/// A node whose remaining moves several threads search (after its first
/// move was searched alone: young brothers wait).
pub struct SplitPoint {
    pub state: Mutex<SplitState>,
    /// Set on a beta cutoff: everyone below this node stops.
    pub cutoff: AtomicBool,
}

/// The shared part of a split node's search.
pub struct SplitState {
    /// Index of the next move to hand out.
    pub next: usize,
    pub alpha: i32,
    pub best: i32,
    pub best_move: Option<u8>,
}

impl SplitPoint {
    pub fn new(next: usize, alpha: i32, best: i32, best_move: Option<u8>) -> SplitPoint {
        SplitPoint {
            state: Mutex::new(SplitState {
                next,
                alpha,
                best,
                best_move,
            }),
            cutoff: AtomicBool::new(false),
        }
    }
}

impl<'a> Worker<'a> {
    pub fn new(
        tt: &'a TranspositionTable,
        eval: &'a dyn Evaluator,
        empties_to_winner: bool,
        stop: &'a AtomicBool,
        done: &'a AtomicBool,
        deadline: Option<Instant>,
        node_limit: Option<u64>,
    ) -> Worker<'a> {
        Worker {
            tt,
            eval,
            empties_to_winner,
            nodes: 0,
            stopped: false,
            stop,
            done,
            deadline,
            node_limit,
            next_poll: POLL_INTERVAL,
            fast_cpu: crate::rules::cpu::has_fast_bits(),
            pool: None,
            splits: Vec::new(),
            params: Params::default(),
            progress: None,
        }
    }

    /// A worker for a helper thread at a split point: the same tables,
    /// flags and deadline, no node budget of its own, the same split chain.
    pub fn helper(&self) -> Worker<'a> {
        Worker {
            nodes: 0,
            stopped: false,
            node_limit: None,
            next_poll: POLL_INTERVAL,
            splits: self.splits.clone(),
            ..*self
        }
    }

    /// Whether any stop condition holds now (the caller's flag, the main
    /// thread's end, the deadline, the node budget, a cutoff above us).
    pub fn must_stop(&self) -> bool {
        self.stop.load(Relaxed)
            || self.done.load(Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.splits.iter().any(|s| s.cutoff.load(Relaxed))
    }

    /// Runs `f` with at most `budget` more nodes (within any budget already
    /// set). Returns `None` when the budget ran out before `f` finished; a
    /// stop for any other reason stays set for the caller to see.
    pub fn with_node_budget<T>(
        &mut self,
        budget: u64,
        f: impl FnOnce(&mut Self) -> T,
    ) -> Option<T> {
        let outer = self.node_limit;
        let limit = self.nodes.saturating_add(budget);
        self.node_limit = Some(outer.map_or(limit, |o| o.min(limit)));
        let result = f(self);
        self.node_limit = outer;
        if self.stopped && !self.must_stop() {
            // Only the budget stopped it.
            self.stopped = false;
            return None;
        }
        Some(result)
    }

    /// Counts a node and, every `POLL_INTERVAL` nodes, checks the stop
    /// conditions. Returns true when the search must unwind.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.next_poll {
            // Nodes counted without a poll (the solver's last plies) may have passed the mark.
            self.next_poll = self.nodes + POLL_INTERVAL;
            self.poll();
        }
        self.stopped
    }

    /// Checks the stop flags, the hard deadline and the node budget now.
    pub fn poll(&mut self) -> bool {
        if self.must_stop() {
            self.stopped = true;
        }
        self.stopped
    }

    /// Final disc difference under the scoring rule, in discs.
    #[inline]
    pub fn final_discs(&self, pos: &Position) -> i32 {
        pos.final_score(self.empties_to_winner)
    }

    /// Final disc difference under the scoring rule, in evaluation units.
    #[inline]
    pub fn final_units(&self, pos: &Position) -> i32 {
        self.final_discs(pos) * UNITS_PER_DISC
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::learned_evaluator;
    use crate::rules::color::Variant;

    /// FFO #40 (20 empties, +38 for the side to move).
    const FFO_40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X--------";

    #[test]
    fn a_spent_node_budget_ends_only_its_own_search() {
        let (tt, eval) = (TranspositionTable::new(1), learned_evaluator());
        let (stop, done) = (AtomicBool::new(false), AtomicBool::new(false));
        let mut w = Worker::new(&tt, eval.as_ref(), false, &stop, &done, None, None);
        let pos = Position::from_obf(FFO_40, "X", Variant::Modern, None).expect("a position");
        let n = pos.empty_count();

        let cut = w.with_node_budget(5000, |w| w.solve(&pos, -64, 64, n));
        assert_eq!(cut, None, "a 20-empty solve needs more than 5000 nodes");
        assert!(!w.stopped, "the worker can search on");
        let full = w.with_node_budget(u64::MAX, |w| w.solve(&pos, -64, 64, n));
        assert_eq!(full, Some(38));

        // A stop from outside is not the budget's: it stays set.
        stop.store(true, Relaxed);
        let tt = TranspositionTable::new(1);
        let mut w = Worker::new(&tt, eval.as_ref(), false, &stop, &done, None, None);
        let stopped = w.with_node_budget(1 << 20, |w| w.solve(&pos, -64, 64, n));
        assert_eq!(stopped, Some(0), "a stopped solve answers 0, to be ignored");
        assert!(w.stopped);
    }
}
