//! One search thread's state: node count, stop conditions, and the shared tables it reads.

use super::params::{Params, POLL_INTERVAL};
use super::progress::{Progress, Stage, Working};
use crate::clock::Instant;
use crate::engine::eval::{Evaluator, UNITS_PER_DISC};
use crate::engine::tt::{LocalTable, TranspositionTable};
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::Duration;

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
    /// Idle threads the search may split work with (none: no splitting).
    /// The exact solver splits, the midgame search where `selective` or
    /// `midgame_splits` is set.
    pub pool: Option<&'a SplitPool>,
    /// The split points this worker is searching below, outermost first:
    /// a cutoff at any of them stops it.
    pub splits: Vec<Arc<SplitPoint>>,
    /// The tunable search constants (from the option table).
    pub params: Params,
    /// In the endgame's selective pass: a midgame node that sees the end
    /// searches on with ProbCut, and only solves exactly from
    /// [`SELECTIVE_SOLVE_EMPTIES`](super::params::SELECTIVE_SOLVE_EMPTIES) empties.
    pub selective: bool,
    /// A midgame search on two or more threads (not the presearch of a
    /// solve): its midgame nodes split as the selective pass's do.
    pub midgame_splits: bool,
    /// The solver tries a midgame table move first only from a search of at
    /// least this depth ([`ENDGAME_MIDGAME_MOVE_MIN_DEPTH`](super::params::ENDGAME_MIDGAME_MOVE_MIN_DEPTH);
    /// 0 in the wipe-out scan, which follows the iterations' line).
    pub table_move_min_depth: u8,
    /// Told of each completed midgame iteration (the main thread only).
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// The nodes of every thread of the search, each adding its own at its
    /// polls (for the heartbeat: `nodes` holds helpers' nodes only once
    /// they have left a split point).
    pub searched: Option<&'a AtomicU64>,
    /// This worker's nodes already added to `searched` (never more than `nodes`).
    reported: u64,
    /// What the main thread is searching, while a progress callback
    /// wants heartbeats ([`Stage::Working`]).
    pub beat: Option<Beat>,
    /// The exact solver's history heuristic: per square, the cutoffs it
    /// gave at nodes of at most
    /// [`ENDGAME_HISTORY_EMPTIES`](super::params::ENDGAME_HISTORY_EMPTIES)
    /// empties, each weighted by the empties squared. Zero at the start of
    /// each search; each thread keeps its own.
    pub history: [u64; 64],
    /// The exact solver's bounds at nodes just below the shared table's
    /// ([`LocalTable`]); each thread keeps its own for its whole search.
    pub local: LocalTable,
    /// Wall time spent waiting at split points for helpers to finish.
    pub waited: Duration,
}

/// What the main thread is at, for its heartbeat reports.
#[derive(Clone, Copy, Debug)]
pub struct Beat {
    pub working: Working,
    /// The iteration's depth, or the empties for a pass to the end.
    pub depth: u32,
    /// The root move being searched.
    pub mv: Move,
    /// When the search started.
    pub start: Instant,
    /// When the next heartbeat is due.
    pub due: Instant,
    /// The interval between heartbeats.
    pub every: std::time::Duration,
}

/// Helper threads of the exact solver's split points (YBWC), and of the
/// midgame search's (`Worker::split`): a midgame search's own, or the
/// selective pass's before a solve. They live as
/// long as the search, waiting for work ([`SplitPool::serve`]): a thread
/// spawned per split cost more than the split gained at the smaller nodes.
pub struct SplitPool {
    /// Helpers not busy with a job (nor about to take one).
    idle: AtomicUsize,
    /// Nodes with fewer empties are never split.
    pub min_empties: u32,
    /// Jobs posted and not yet taken.
    queue: Mutex<VecDeque<SplitJob>>,
    /// The queue's length, changed under its lock and read without it by
    /// threads spinning for work ([`SplitPool::spin`]).
    queued: AtomicUsize,
    /// How long a thread out of work spins before it sleeps (zero where
    /// the search has more threads than the machine has cores).
    spin: Duration,
    /// Signalled when a job is posted or the pool closes.
    ready: Condvar,
    /// Set once the search is over: helpers return.
    closed: AtomicBool,
    /// The helpers' CPU time, each added as it returns ([`thread_cpu`]).
    helper_cpu: Mutex<Vec<Duration>>,
}

/// CPU time the calling thread has used: a helper's against the main
/// thread's tells how busy it was, whatever else the machine runs (zero
/// where the platform cannot say).
pub fn thread_cpu() -> Duration {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid timespec to write to.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
            return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
        }
    }
    Duration::ZERO
}

/// Closes the pool when dropped, so that the helpers end even when the
/// main search thread panics.
pub struct CloseOnDrop<'a>(pub &'a SplitPool);

impl Drop for CloseOnDrop<'_> {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// A move of a split node's list: its square, the discs it flips, the replies.
#[derive(Clone, Copy)]
pub struct SplitMove {
    pub sq: u32,
    pub flips: u64,
    /// The child's legal moves.
    pub moves: u64,
}

/// A move of a split midgame node: its square and the child position.
#[derive(Clone, Copy)]
pub struct MidgameMove {
    pub sq: u8,
    pub child: Position,
}

/// The moves after the first of a split node, for a helper to share.
pub struct SplitJob {
    pub sp: Arc<SplitPoint>,
    /// The split points the helper searches below (`sp` last): a cutoff at
    /// any of them stops it.
    pub splits: Vec<Arc<SplitPoint>>,
    pub beta: i32,
    /// What kind of node it is, and its moves.
    pub node: SplitNode,
    /// The entry for a helper: the solver kernel the poster runs, or the
    /// midgame search's.
    pub run: unsafe fn(&mut Worker<'_>, &SplitJob),
}

/// A split node's own part of a [`SplitJob`].
pub enum SplitNode {
    /// A node of the exact solver's fast path.
    Exact {
        player: u64,
        opponent: u64,
        empties: u32,
        /// The poster's [`Worker::table_move_min_depth`], which the helper searches with.
        table_move_min_depth: u8,
        /// The node's moves in search order (the first one already searched).
        moves: Arc<[SplitMove]>,
    },
    /// A node of the midgame search (a midgame search on several threads,
    /// or the selective pass before an exact solve).
    Midgame {
        depth: i32,
        /// The poster's [`Worker::selective`], [`Worker::midgame_splits`]
        /// and ProbCut threshold, which the helper searches with.
        selective: bool,
        midgame_splits: bool,
        probcut_t: f64,
        /// The node's moves in search order (the first one already searched).
        moves: Arc<[MidgameMove]>,
    },
}

impl SplitPool {
    pub fn new(idle: usize) -> SplitPool {
        SplitPool {
            idle: AtomicUsize::new(idle),
            min_empties: super::params::SPLIT_MIN_EMPTIES,
            queue: Mutex::new(VecDeque::new()),
            queued: AtomicUsize::new(0),
            spin: if idle > 0 && std::thread::available_parallelism().map_or(1, |n| n.get()) > idle
            {
                super::params::SPLIT_SPIN
            } else {
                Duration::ZERO
            },
            ready: Condvar::new(),
            closed: AtomicBool::new(false),
            helper_cpu: Mutex::new(Vec::new()),
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

    /// Hands `job` to the helper taken by [`SplitPool::acquire`].
    pub fn post(&self, job: SplitJob) {
        job.sp.helpers.lock().unwrap_or_else(|e| e.into_inner()).0 += 1;
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        q.push_back(job);
        self.queued.store(q.len(), Relaxed);
        drop(q);
        self.ready.notify_one();
    }

    /// A helper thread's life: runs posted jobs with `w` (the search's
    /// tables and flags) until the pool closes.
    pub fn serve(&self, mut w: Worker<'_>) {
        loop {
            let mut job = {
                let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                let mut spun = false;
                loop {
                    if let Some(job) = q.pop_front() {
                        self.queued.store(q.len(), Relaxed);
                        break job;
                    }
                    if self.closed.load(Relaxed) {
                        drop(q);
                        self.helper_cpu
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(thread_cpu());
                        return;
                    }
                    q = self.pause(q, &mut spun, || {
                        self.queued.load(Relaxed) > 0 || self.closed.load(Relaxed)
                    });
                }
            };
            w.nodes = 0;
            w.reported = 0;
            w.stopped = false;
            w.next_poll = POLL_INTERVAL;
            w.splits = std::mem::take(&mut job.splits);
            // SAFETY: `run` is the poster's kernel, which this CPU runs.
            unsafe { (job.run)(&mut w, &job) };
            w.splits.clear();
            self.idle.fetch_add(1, Relaxed);
            self.finished(&job.sp, w.nodes);
        }
    }

    /// A helper leaves `sp` having searched `nodes` there; wakes its poster
    /// (which may be waiting in [`SplitPool::join`] for this).
    fn finished(&self, sp: &SplitPoint, nodes: u64) {
        sp.finish(nodes);
        let _q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        self.ready.notify_all();
    }

    /// Waits until every helper has left `sp`, the split point `w` posted
    /// and has run out of moves at; returns the nodes they searched there.
    /// While it waits, `w` counts as idle and runs jobs posted below `sp`
    /// (a helper splitting its share), so the poster's core does not sit
    /// idle while the last helper finishes ("helpful master").
    pub fn join(&self, w: &mut Worker<'_>, sp: &Arc<SplitPoint>) -> u64 {
        self.idle.fetch_add(1, Relaxed);
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        // The helper count is read under the queue's lock, and a finishing
        // helper notifies under it: no wake-up is lost.
        let mut spun = false;
        while sp.helpers_left() > 0 {
            let below = q
                .iter()
                .position(|j| j.splits.iter().any(|s| Arc::ptr_eq(s, sp)));
            if let Some(job) = below.and_then(|i| q.remove(i)) {
                self.queued.store(q.len(), Relaxed);
                drop(q);
                self.run_here(w, &job);
                self.idle.fetch_add(1, Relaxed);
                q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
            } else {
                let queued = q.len();
                let t = Instant::now();
                q = self.pause(q, &mut spun, || {
                    sp.helpers_left() == 0 || self.queued.load(Relaxed) > queued
                });
                w.waited += t.elapsed();
            }
        }
        // Take back the idle slot; if a poster has just claimed it, run that
        // poster's job (it is posted right after the claim, or retracted).
        loop {
            let n = self.idle.load(Relaxed);
            if n > 0 {
                if self
                    .idle
                    .compare_exchange_weak(n, n - 1, Relaxed, Relaxed)
                    .is_ok()
                {
                    break;
                }
                continue;
            }
            if let Some(job) = q.pop_front() {
                self.queued.store(q.len(), Relaxed);
                drop(q);
                self.run_here(w, &job);
                q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
                break;
            }
            let t = Instant::now();
            q = self
                .ready
                .wait_timeout(q, Duration::from_micros(50))
                .unwrap_or_else(|e| e.into_inner())
                .0;
            w.waited += t.elapsed();
        }
        drop(q);
        sp.helper_nodes()
    }

    /// Runs a posted job on a thread that is waiting at a split point of its
    /// own, leaving its state as it was (its nodes go to the job's poster).
    ///
    /// The job runs without this thread's node budget (the wipe-out scan's,
    /// or the caller's `nodes` limit): the budget is this thread's own, and
    /// a share it stopped halfway would leave a move of the poster's node
    /// unsearched while the poster, not stopped, took the node's value as whole.
    fn run_here(&self, w: &mut Worker<'_>, job: &SplitJob) {
        // The poll mark too: left past the job's nodes, the next check of
        // the clock would come that many nodes late.
        let (nodes, stopped, next_poll) = (w.nodes, w.stopped, w.next_poll);
        let splits = std::mem::replace(&mut w.splits, job.splits.clone());
        let node_limit = w.node_limit.take();
        w.stopped = false;
        // SAFETY: `run` is the poster's kernel, which this CPU runs.
        unsafe { (job.run)(w, job) };
        let searched = w.nodes - nodes;
        w.node_limit = node_limit;
        (w.nodes, w.stopped, w.next_poll, w.splits) = (nodes, stopped, next_poll, splits);
        // The job's polls added its nodes to `searched`, and with them those
        // of ours still pending before it: none is added twice.
        w.reported = w.reported.min(nodes);
        self.finished(&job.sp, searched);
    }

    /// Takes back `sp`'s job if no helper has started it (the poster
    /// finished the node alone), so that the poster need not wait for one
    /// to wake up only to find nothing left.
    pub fn retract(&self, sp: &Arc<SplitPoint>) {
        let mut q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = q.iter().position(|j| Arc::ptr_eq(&j.sp, sp)) {
            q.remove(i);
            self.queued.store(q.len(), Relaxed);
            drop(q);
            self.idle.fetch_add(1, Relaxed);
            sp.finish(0);
        }
    }

    /// Waits, lock `q` released, for a change its caller rechecks under
    /// the lock: on every other call by spinning up to the pool's spin time
    /// until `ready` holds (work comes back within microseconds in a busy
    /// search, and a thread that sleeps wakes late), else on the condition
    /// variable. `spun` carries the turn between a caller's calls.
    fn pause<'a>(
        &'a self,
        q: MutexGuard<'a, VecDeque<SplitJob>>,
        spun: &mut bool,
        ready: impl Fn() -> bool,
    ) -> MutexGuard<'a, VecDeque<SplitJob>> {
        *spun = !*spun && !self.spin.is_zero();
        if !*spun {
            return self.ready.wait(q).unwrap_or_else(|e| e.into_inner());
        }
        drop(q);
        let start = Instant::now();
        'spin: while start.elapsed() < self.spin {
            for _ in 0..32 {
                if ready() {
                    break 'spin;
                }
                std::hint::spin_loop();
            }
        }
        self.queue.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The CPU time of each helper that has returned.
    pub fn helper_cpu(&self) -> Vec<Duration> {
        self.helper_cpu
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Ends the helpers once they are idle (the search is over).
    pub fn close(&self) {
        let _q = self.queue.lock().unwrap_or_else(|e| e.into_inner());
        self.closed.store(true, Relaxed);
        self.ready.notify_all();
    }
}

/// A node whose remaining moves several threads search (after its first
/// move was searched alone: young brothers wait).
pub struct SplitPoint {
    state: Mutex<SplitState>,
    /// Set on a beta cutoff: everyone below this node stops.
    cutoff: AtomicBool,
    /// Helpers still working here, and the nodes the finished ones searched.
    helpers: Mutex<(usize, u64)>,
}

/// The shared part of a split node's search.
struct SplitState {
    /// Index of the next move to hand out.
    next: usize,
    alpha: i32,
    best: i32,
    best_move: Option<u8>,
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
            helpers: Mutex::new((0, 0)),
        }
    }

    /// Hands out the next move of the node to a thread: its index in the
    /// node's list of `count` moves and the alpha to search it with; `None`
    /// once every move is handed out or the node is cut off.
    #[inline]
    pub fn next_move(&self, count: usize) -> Option<(usize, i32)> {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if st.next >= count || self.cutoff.load(Relaxed) {
            return None;
        }
        st.next += 1;
        Some((st.next - 1, st.alpha))
    }

    /// The node's alpha now, raised by every thread's results.
    #[inline]
    pub fn alpha(&self) -> i32 {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).alpha
    }

    /// Records a move's value `v`; returns true when it cuts the node off
    /// (`v >= beta`: every thread below it stops).
    #[inline]
    pub fn record(&self, v: i32, sq: u8, beta: i32) -> bool {
        let mut st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if v > st.best {
            st.best = v;
            st.best_move = Some(sq);
            if v > st.alpha {
                st.alpha = v;
                if v >= beta {
                    self.cutoff.store(true, Relaxed);
                    return true;
                }
            }
        }
        false
    }

    /// The node's best value and move once every thread has left it.
    #[inline]
    pub fn result(&self) -> (i32, Option<u8>) {
        let st = self.state.lock().unwrap_or_else(|e| e.into_inner());
        (st.best, st.best_move)
    }

    fn finish(&self, nodes: u64) {
        let mut h = self.helpers.lock().unwrap_or_else(|e| e.into_inner());
        h.0 -= 1;
        h.1 += nodes;
    }

    fn helpers_left(&self) -> usize {
        self.helpers.lock().unwrap_or_else(|e| e.into_inner()).0
    }

    /// The nodes the helpers that have left searched here.
    fn helper_nodes(&self) -> u64 {
        self.helpers.lock().unwrap_or_else(|e| e.into_inner()).1
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
            selective: false,
            midgame_splits: false,
            table_move_min_depth: super::params::ENDGAME_MIDGAME_MOVE_MIN_DEPTH,
            progress: None,
            searched: None,
            reported: 0,
            beat: None,
            history: [0; 64],
            local: LocalTable::default(),
            waited: Duration::ZERO,
        }
    }

    /// Opens a split point at a node whose first move is searched: pushes
    /// `sp` on this worker's split points and posts the node's other moves
    /// to the pool's idle thread (taken by [`SplitPool::acquire`]).
    pub fn post_split(
        &mut self,
        sp: &Arc<SplitPoint>,
        beta: i32,
        node: SplitNode,
        run: unsafe fn(&mut Worker<'_>, &SplitJob),
    ) {
        self.splits.push(sp.clone());
        self.pool.expect("a pool").post(SplitJob {
            sp: sp.clone(),
            splits: self.splits.clone(),
            beta,
            node,
            run,
        });
    }

    /// Closes the split point `sp` once this worker has run out of its
    /// moves: waits for the helpers (running jobs posted below it
    /// meanwhile), adds their nodes, and returns the node's best value and
    /// move, or `None` when the search stopped.
    pub fn join_split(&mut self, sp: &Arc<SplitPoint>) -> Option<(i32, Option<u8>)> {
        let pool = self.pool.expect("a pool");
        self.splits.pop();
        pool.retract(sp);
        let helper_nodes = pool.join(self, sp);
        self.merge_nodes(helper_nodes);
        // A stop caused by this split's own cutoff ends here. Any other stop
        // holds for us too, though we may not have polled since: a helper
        // that saw it first left its move unsearched, and the node's value
        // is not whole (FFO #37's wrong move on four threads: that value
        // was stored).
        self.stopped = self.must_stop();
        (!self.stopped).then(|| sp.result())
    }

    /// Adds `nodes` searched elsewhere (by helpers at a split point, which
    /// told `searched` of them themselves) to this worker's count.
    pub fn merge_nodes(&mut self, nodes: u64) {
        self.nodes += nodes;
        self.reported += nodes;
    }

    /// Nodes searched so far by all threads of the search (those of a
    /// helper since its last poll excepted).
    pub fn nodes_so_far(&self) -> u64 {
        self.searched
            .map_or(self.nodes, |s| s.load(Relaxed) + self.nodes - self.reported)
    }

    /// Tells the progress callback what the main thread is at, when a
    /// heartbeat is due.
    fn heartbeat(&mut self) {
        let (Some(progress), Some(mut beat)) = (self.progress, self.beat) else {
            return;
        };
        let now = Instant::now();
        if now < beat.due {
            return;
        }
        beat.due = now + beat.every;
        self.beat = Some(beat);
        progress(&Progress {
            stage: Stage::Working,
            depth: beat.depth,
            score: 0.0,
            pv: vec![beat.mv],
            nodes: self.nodes_so_far(),
            time: now - beat.start,
            working: Some(beat.working),
        });
    }

    /// Whether any stop condition holds now (the caller's flag, the main
    /// thread's end, the deadline, the node budget, a cutoff above us).
    pub fn must_stop(&self) -> bool {
        self.must_stop_all() || self.node_limit.is_some_and(|n| self.nodes >= n)
    }

    /// Whether a stop condition holds that also stops every thread
    /// searching below this one's split points: all of [`Worker::must_stop`]
    /// but the node budget, which is this thread's own.
    pub fn must_stop_all(&self) -> bool {
        self.stop.load(Relaxed)
            || self.done.load(Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
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
        if let Some(searched) = self.searched {
            searched.fetch_add(self.nodes - self.reported, Relaxed);
            self.reported = self.nodes;
        }
        if self.beat.is_some() {
            self.heartbeat();
        }
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
