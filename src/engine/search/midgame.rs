//! The midgame search: fail-soft principal-variation alpha-beta with the transposition table.

use super::ordering::MoveList;
use super::params::{INFINITY, MIDGAME_SPLIT_MIN_DEPTH, SELECTIVE_SOLVE_EMPTIES, SPLIT_MIN_DEPTH};
use super::worker::{MidgameMove, SplitJob, SplitNode, SplitPoint, Worker};
use crate::engine::eval::{EVAL_LIMIT, UNITS_PER_DISC};
use crate::engine::tt::{Bound, Entry};
use crate::rules::position::Position;
use crate::rules::square::Square;
use std::sync::Arc;

impl Worker<'_> {
    /// Value of `pos` for the side to move, searched `depth` plies deep, in
    /// evaluation units. Fail-soft: a result <= `alpha` is an upper bound, >=
    /// `beta` a lower bound. Returns 0 (to be ignored) once stopped.
    pub fn pvs(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        let moves = pos.moves();
        if moves == 0 {
            let passed = pos.pass();
            if passed.moves() == 0 {
                return self.final_units(pos);
            }
            if depth <= 0 {
                // A leaf after a pass: the side to move now is the one that
                // chose this line, so the tempo goes the other way.
                return -self.leaf(&passed, -self.params.leaf_tempo);
            }
            // A pass costs no depth: it is forced and changes nothing on the board.
            return -self.pvs(&passed, depth, -beta, -alpha);
        }
        let empties = pos.empty_count();
        if depth >= empties as i32 && !(self.selective && empties > SELECTIVE_SOLVE_EMPTIES) {
            // Deep enough to see the end: the exact solver is far faster.
            let (a, b) = disc_window(alpha, beta);
            return self.solve(pos, a, b, empties) * UNITS_PER_DISC;
        }
        if depth <= 0 {
            return self.leaf(pos, self.params.leaf_tempo);
        }

        let key = pos.key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key) {
            if let Some(m) = e.mv.filter(|&m| moves >> m & 1 != 0) {
                tt_move = Some(m);
            }
            if let Some(s) = e.cutoff(depth, e.score as i32, alpha, beta) {
                return s;
            }
        }

        if self.params.probcut_t > 0.0 && depth >= self.params.probcut_min_depth as i32 {
            if let Some(v) = self.probcut(pos, depth, alpha, beta, empties) {
                return v;
            }
            if self.stopped {
                return 0;
            }
        }

        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        // The table's move is searched before the others are generated and
        // ordered: it sorts first anyway (`ORDER_TT_BONUS`), and where it
        // cuts off, the ordering's evaluation of every child is not needed.
        // The list, the tree and the node counts are the same as without.
        if let Some(m) = tt_move {
            let child = pos.play_unchecked(Square::from_index(m as u32));
            let v = -self.pvs(&child, depth - 1, -beta, -alpha);
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
                alpha = alpha.max(v);
            }
        }
        let mut list = MoveList::new();
        if best < beta {
            list.fill_midgame(
                pos,
                moves,
                tt_move,
                depth,
                self.eval,
                &self.params,
                self.fast_cpu,
            );
            debug_assert!(tt_move.is_none_or(|m| list.as_slice()[0].sq == m));
        }
        let searched = usize::from(tt_move.is_some());
        for (i, c) in list.as_slice().iter().enumerate().skip(searched) {
            // Young brothers wait: once the first move is searched, share
            // the rest with an idle thread. A midgame search splits at any
            // move after the first (a thread that comes free mid-node joins
            // at the next move), the selective pass of a solve only at the
            // second: split iterations settle on other root moves among
            // equals, which the exact passes paid for (FFO #43 2.4x).
            if i >= 1
                && list.as_slice().len() >= i + 2
                && self.may_split(i, depth)
                && self.pool.is_some_and(|pool| pool.acquire())
            {
                let moves: Arc<[MidgameMove]> = list
                    .as_slice()
                    .iter()
                    .map(|c| MidgameMove {
                        sq: c.sq,
                        child: c.child,
                    })
                    .collect();
                let sp = SplitPoint::new(i, alpha, best, best_move);
                let Some(result) = self.split(moves, sp, depth, beta) else {
                    return 0;
                };
                (best, best_move) = result;
                break;
            }
            let mut v;
            if i == 0 {
                v = -self.pvs(&c.child, depth - 1, -beta, -alpha);
            } else {
                v = -self.pvs(&c.child, depth - 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.pvs(&c.child, depth - 1, -beta, -alpha);
                }
            }
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(c.sq);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }

        self.tt.store(
            key,
            Entry {
                score: best as i16,
                depth: depth as u8,
                bound: Bound::of(best, alpha0, beta),
                mv: best_move,
            },
        );
        best
    }
}

impl Worker<'_> {
    /// Whether a node searched `depth` deep may share its moves from the
    /// `i`th on (the first already searched) with an idle thread.
    #[inline]
    fn may_split(&self, i: usize, depth: i32) -> bool {
        if self.selective {
            i == 1 && depth >= SPLIT_MIN_DEPTH
        } else {
            self.midgame_splits && depth >= MIDGAME_SPLIT_MIN_DEPTH
        }
    }

    /// Searches the moves of a midgame node from the split point's next
    /// move on (those before already searched: its alpha, best score and
    /// best move are their result) together with the idle thread taken
    /// from the pool. Returns the node's best score and move, or `None`
    /// when the search stopped.
    pub(super) fn split(
        &mut self,
        moves: Arc<[MidgameMove]>,
        sp: SplitPoint,
        depth: i32,
        beta: i32,
    ) -> Option<(i32, Option<u8>)> {
        let sp = Arc::new(sp);
        let node = SplitNode::Midgame {
            depth,
            selective: self.selective,
            midgame_splits: self.midgame_splits,
            probcut_t: self.params.probcut_t,
            moves: moves.clone(),
        };
        self.post_split(&sp, beta, node, run_midgame_job);
        self.participate(&sp, &moves, depth, beta);
        self.join_split(&sp)
    }

    /// One thread's share of a split midgame node: takes the next move
    /// until none is left or one fails high; records results in `sp`.
    fn participate(&mut self, sp: &SplitPoint, moves: &[MidgameMove], depth: i32, beta: i32) {
        while let Some((i, alpha)) = sp.next_move(moves.len()) {
            let c = moves[i];
            let mut v = -self.pvs(&c.child, depth - 1, -alpha - 1, -alpha);
            if v > alpha && v < beta && !self.stopped {
                let a = sp.alpha();
                if a >= beta {
                    // Cut off by another thread: (a, beta) would be empty.
                    return;
                }
                v = -self.pvs(&c.child, depth - 1, -beta, -a.max(alpha));
            }
            if self.stopped || sp.record(v, c.sq, beta) {
                return;
            }
        }
    }
}

/// A helper's share of a posted split midgame node, searched with the
/// poster's selectivity.
fn run_midgame_job(w: &mut Worker<'_>, job: &SplitJob) {
    let SplitNode::Midgame {
        depth,
        selective,
        midgame_splits,
        probcut_t,
        moves,
    } = &job.node
    else {
        unreachable!("the midgame search runs only its own split nodes");
    };
    let saved = (w.selective, w.midgame_splits, w.params.probcut_t);
    (w.selective, w.midgame_splits, w.params.probcut_t) = (*selective, *midgame_splits, *probcut_t);
    w.participate(&job.sp, moves, *depth, job.beta);
    (w.selective, w.midgame_splits, w.params.probcut_t) = saved;
}

impl Worker<'_> {
    /// A leaf's value: the static evaluation plus `tempo` for the side to move.
    #[inline]
    fn leaf(&self, pos: &Position, tempo: i32) -> i32 {
        (self.eval.evaluate(pos) + tempo).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// Multi-ProbCut (Buro): a shallow null-window search predicts whether
    /// the deep one would fail high (or low), with `probcut_t` standard
    /// deviations of the evaluation's shallow-to-deep error as the margin.
    /// Returns the bound to cut with, or `None` to search normally.
    fn probcut(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        empties: u32,
    ) -> Option<i32> {
        let shallow = probcut_shallow_depth(depth);
        let sigma = self
            .eval
            .probcut_sigma(depth as u32, shallow as u32, empties);
        let margin = (self.params.probcut_t * sigma * UNITS_PER_DISC as f64).round() as i32;
        let hi = beta + margin;
        if hi < EVAL_LIMIT {
            let v = self.pvs(pos, shallow, hi - 1, hi);
            if self.stopped {
                return None;
            }
            if v >= hi {
                return Some(beta);
            }
        }
        let lo = alpha - margin;
        if lo > -EVAL_LIMIT {
            let v = self.pvs(pos, shallow, lo, lo + 1);
            if self.stopped {
                return None;
            }
            if v <= lo {
                return Some(alpha);
            }
        }
        None
    }
}

/// ProbCut's shallow search depth for a `depth`-ply node: about half, with
/// the same parity (Othello evaluations swing between odd and even depths).
pub fn probcut_shallow_depth(depth: i32) -> i32 {
    2 * (depth / 4) + (depth & 1)
}

/// The disc window that answers an evaluation-unit window (`alpha`, `beta`):
/// exact scores are whole discs, so round outwards.
#[inline]
pub fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    (
        alpha.div_euclid(UNITS_PER_DISC),
        -(-beta).div_euclid(UNITS_PER_DISC),
    )
}

#[cfg(test)]
mod tests {
    use super::disc_window;

    #[test]
    fn disc_window_rounds_outwards() {
        assert_eq!(disc_window(-150, 250), (-2, 3));
        assert_eq!(disc_window(100, 101), (1, 2));
        assert_eq!(disc_window(-100, 100), (-1, 1));
        assert_eq!(disc_window(-1, 0), (-1, 0));
    }
}
