//! One search thread's state: node count, stop conditions, and the shared tables it reads.

use super::params::POLL_INTERVAL;
use crate::board::Position;
use crate::eval::{Evaluator, UNITS_PER_DISC};
use crate::tt::TranspositionTable;
use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
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
        }
    }

    /// Counts a node and, every `POLL_INTERVAL` nodes, checks the stop
    /// conditions. Returns true when the search must unwind.
    #[inline]
    pub fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_INTERVAL) {
            self.poll();
        }
        self.stopped
    }

    /// Checks the stop flags, the hard deadline and the node budget now.
    pub fn poll(&mut self) -> bool {
        if self.stop.load(Relaxed)
            || self.done.load(Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.nodes >= n)
        {
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
