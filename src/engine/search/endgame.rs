//! The exact endgame solver: alpha-beta on the final disc difference, in whole discs.
//!
//! Windows of (-1, 1) make it a win/loss/draw solver. Classic positions go
//! through `Position::moves()` (empty supplies, opening placements) and end
//! games with empty squares when neither side can move. Modern positions
//! take a fast path over raw (player, opponent) bitboards (`kernel!` below),
//! compiled twice: with AVX2/BMI2 for CPUs that have them (checked at run
//! time) and portably.
//!
//! The fast path: with many empties, a transposition table, stability
//! cutoffs, enhanced transposition cutoffs and fastest-first ordering (fewest
//! opponent replies, parity, the table's move; a static evaluation at the
//! root-most levels, a 1-ply search over it from 16 empties); just below
//! the shared table, the thread's own small one (`tt::LocalTable`, in the
//! L2 cache); with few, no sorting: moves tried in parity order straight
//! from the empty squares (at 4 empties, the local table still);
//! the last two and the last empty square have code of their own (the last
//! one counts its flips without making them).

use super::ordering::MoveList;
use super::params::*;
use super::worker::{SplitJob, SplitMove, SplitNode, SplitPoint, Worker};
use crate::engine::eval::UNITS_PER_DISC;
use crate::engine::tt::{is_solved, Bound, Entry, SOLVED_DEPTH};
use crate::rules::bitboard::{count_last_flips, Bits};
use crate::rules::color::Variant;
use crate::rules::geometry::{corner_anchored, neighbours, odd_quadrants, stable_discs, CORNERS};
use crate::rules::position::{final_score_raw, key_raw, Position};
use crate::rules::square::Square;
use std::mem::MaybeUninit;
use std::sync::Arc;

/// Stability cutoff thresholds by empties: a null-window node with alpha at
/// least this high tries the (costly) stable-disc bound. Edax's table less
/// 4 discs: with the exact edge stability our bound is tighter, and FFO
/// #40-#49 takes 2.0 % fewer nodes (8 less: 2.2 %, but more instructions).
const STABILITY_THRESHOLD: [i32; 65] = [
    99, 99, 99, 99, 2, 4, 6, 8, 10, 12, 16, 18, 20, 22, 24, 26, 28, 30, 32, 34, 36, 38, 40, 42, 44,
    44, 46, 46, 48, 48, 50, 50, 52, 52, 54, 54, 56, 56, 58, 58, 60, 60, 60, 60, 60, 60, 60, 60, 60,
    60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60,
];

/// Stability: the opponent keeps its stable discs, which bounds our score
/// from above; the bound when it fails low at `alpha` with `n` empties
/// (tried only where alpha is high enough to make it likely).
#[inline(always)]
fn stability_cutoff(p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
    if alpha < STABILITY_THRESHOLD[n as usize] {
        return None;
    }
    let s = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (s <= alpha).then_some(s)
}

/// A move of the fast path's move list.
#[derive(Clone, Copy)]
struct Cand {
    sq: u32,
    flips: u64,
    /// The child's legal moves (the opponent's replies).
    moves: u64,
    score: i32,
}

/// The history heuristic's bonus ([`ENDGAME_HISTORY_WEIGHT`]) added to
/// each move's ordering score, in proportion to its square's count against
/// the node's most cutting square, to within a factor of two: the counts are
/// cut to their top [`HISTORY_BITS`] bits at the bit length of the largest
/// (a shift a move instead of a division a node). The table's move keeps its
/// own bonus.
#[inline(always)]
fn add_history(history: &[u64; 64], list: &mut [Cand]) {
    // The largest count's bit length is the OR's.
    let any = list.iter().fold(0, |a, c| a | history[c.sq as usize]);
    if any == 0 {
        return;
    }
    let shift = (64 - any.leading_zeros()).saturating_sub(HISTORY_BITS);
    for c in list.iter_mut().filter(|c| c.score < ORDER_TT_BONUS) {
        c.score +=
            (((history[c.sq as usize] >> shift) * ENDGAME_HISTORY_WEIGHT) >> HISTORY_BITS) as i32;
    }
}

// Solved entries (depth `SOLVED_DEPTH` + empties) always pass the table-move depth test.
const _: () = assert!(ENDGAME_MIDGAME_MOVE_MIN_DEPTH < SOLVED_DEPTH);

/// Bits of each count the history bonus keeps.
const HISTORY_BITS: u32 = 4;

macro_rules! kernel {
    ($moves:path, $flips:path $(, $feat:literal)?) => {
        use super::*;

        /// Exact score of (`p`, `o`) with `n` empties, fail-soft in (`alpha`, `beta`).
        $(#[target_feature(enable = $feat)])?
        pub unsafe fn solve(w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, beta: i32, n: u32) -> i32 {
            if n <= SHALLOW_EMPTIES {
                shallow(w, p, o, alpha, beta, n)
            } else {
                deep(w, p, o, $moves(p, o), alpha, beta, n)
            }
        }

        /// [`solve`] of a child whose legal moves (`moves`) the parent has
        /// already generated for its ordering.
        $(#[target_feature(enable = $feat)])?
        unsafe fn solve_child(w: &mut Worker<'_>, p: u64, o: u64, moves: u64, alpha: i32, beta: i32, n: u32) -> i32 {
            if n <= SHALLOW_EMPTIES {
                shallow(w, p, o, alpha, beta, n)
            } else {
                deep(w, p, o, moves, alpha, beta, n)
            }
        }

        /// Many empties: table, cutoffs, sorted moves. `moves` are the legal moves of `p`.
        $(#[target_feature(enable = $feat)])?
        unsafe fn deep(w: &mut Worker<'_>, p: u64, o: u64, moves: u64, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
            debug_assert!(alpha < beta, "an empty window ({alpha}, {beta})");
            if w.tick() {
                return 0;
            }
            let use_tt = n >= ENDGAME_TT_EMPTIES;
            let key = key_raw(p, o);
            if use_tt {
                // The probe below nearly always misses the cache: start the load now.
                w.tt.prefetch(key);
            }
            if moves == 0 {
                let replies = $moves(o, p);
                if replies == 0 {
                    return final_score_raw(p, o, w.empties_to_winner);
                }
                return -deep(w, o, p, replies, -beta, -alpha, n);
            }
            if let Some(s) = stability_cutoff(p, o, alpha, n) {
                return s;
            }
            let mut tt_move = 64u32;
            if use_tt {
                if let Some(e) = w.tt.probe(key) {
                    // A shallow midgame search's best move is no guide to the fastest
                    // refutation; a solved entry's depth is above any minimum.
                    let guides = e.depth >= w.table_move_min_depth;
                    if let Some(m) = e.mv.filter(|&m| guides && moves >> m & 1 != 0) {
                        tt_move = m as u32;
                    }
                    if is_solved(e.depth) {
                        let s = e.score as i32 / UNITS_PER_DISC;
                        if let Some(s) = e.cutoff(SOLVED_DEPTH as i32, s, alpha, beta) {
                            return s;
                        }
                        // A bound that does not cut still narrows the window.
                        match e.bound {
                            Bound::Lower => alpha = alpha.max(s),
                            Bound::Upper => beta = beta.min(s),
                            Bound::Exact => {}
                        }
                    }
                }
            }
            let use_local = !use_tt && n >= ENDGAME_LOCAL_TT_EMPTIES;
            if use_local {
                if let Some(e) = w.local.probe(key) {
                    if let Some(s) = e.cutoff(&mut alpha, &mut beta) {
                        return s;
                    }
                    if let Some(m) = e.mv().filter(|&m| moves >> m & 1 != 0) {
                        tt_move = m as u32;
                    }
                }
            }
            let alpha0 = alpha;

            // Left uninitialised: zeroing 1.5 KB cost 4% of a solve's instructions.
            let mut storage = [const { MaybeUninit::<Cand>::uninit() }; 64];
            let mut len = 0;
            let odd = odd_quadrants(!(p | o));
            let by_eval = n >= ENDGAME_EVAL_ORDER_EMPTIES;
            let order_depth = (n >= ENDGAME_ORDER_SEARCH_EMPTIES) as u32;
            let etc = use_tt && n >= ENDGAME_ETC_EMPTIES;
            // Children kept in the local table: their bounds cost an L2 load each.
            let local_etc = (ENDGAME_LOCAL_TT_EMPTIES + 1..=ENDGAME_TT_EMPTIES).contains(&n);
            let empties_now = !(p | o);
            for sq in Bits(moves) {
                let f = $flips(p, o, sq);
                if etc {
                    // Every child's bucket is loaded at once, while the moves are scored.
                    w.tt.prefetch(key_raw(o & !f, p | f | 1u64 << sq));
                }
                storage[len].write(Cand { sq, flips: f, moves: 0, score: 0 });
                len += 1;
            }
            // SAFETY: the first `len` entries were written just above.
            let list = unsafe { std::slice::from_raw_parts_mut(storage.as_mut_ptr() as *mut Cand, len) };
            for c in list.iter_mut() {
                let (sq, f) = (c.sq, c.flips);
                let (cp, co) = (o & !f, p | f | 1u64 << sq);
                let m = $moves(cp, co);
                c.moves = m;
                c.score = if sq == tt_move {
                    ORDER_TT_BONUS
                } else {
                    let mut s = -ORDER_MOBILITY_WEIGHT * (m.count_ones() + (m & CORNERS).count_ones()) as i32;
                    // Potential mobility: empty squares next to our discs, the opponent's future moves.
                    s -= ORDER_POTENTIAL_WEIGHT * (neighbours(co) & empties_now & !(1u64 << sq)).count_ones() as i32;
                    s += ORDER_CORNER_STABILITY_WEIGHT * corner_anchored(co).count_ones() as i32;
                    if odd >> sq & 1 != 0 {
                        s += ORDER_PARITY_BONUS;
                    }
                    if by_eval {
                        s -= order_value(w, cp, co, order_depth, -INFINITY, INFINITY) / ENDGAME_EVAL_ORDER_DIVISOR;
                    }
                    s
                };
                // Enhanced transposition cutoff: a child already known to lose enough.
                if etc {
                    if let Some(e) = w.tt.probe(key_raw(cp, co)) {
                        if is_solved(e.depth)
                            && matches!(e.bound, Bound::Upper | Bound::Exact)
                            && -(e.score as i32 / UNITS_PER_DISC) >= beta
                        {
                            return -(e.score as i32 / UNITS_PER_DISC);
                        }
                    }
                }
                if local_etc {
                    if let Some(e) = w.local.probe(key_raw(cp, co)) {
                        if -(e.hi as i32) >= beta {
                            return -(e.hi as i32);
                        }
                    }
                }
            }

            let history = n <= ENDGAME_HISTORY_EMPTIES;
            if history {
                add_history(&w.history, list);
            }
            let mut best = -INFINITY;
            let mut best_move = None;
            for i in 0..len {
                // Selection sort, lazily: a cutoff often comes at the first move.
                let mut k = i;
                for j in i + 1..len {
                    if list[j].score > list[k].score {
                        k = j;
                    }
                }
                list.swap(i, k);
                let c = list[i];
                let (cp, co) = (o & !c.flips, p | c.flips | 1u64 << c.sq);
                let mut v;
                if i == 0 {
                    v = -solve_child(w, cp, co, c.moves, -beta, -alpha, n - 1);
                } else {
                    v = -solve_child(w, cp, co, c.moves, -alpha - 1, -alpha, n - 1);
                    if v > alpha && v < beta && !w.stopped {
                        v = -solve_child(w, cp, co, c.moves, -beta, -alpha, n - 1);
                    }
                }
                if w.stopped {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = Some(c.sq as u8);
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            if history {
                                w.history[c.sq as usize] += (n * n) as u64;
                            }
                            break;
                        }
                    }
                }
                // Young brothers wait: after the first move, share the rest with an idle thread.
                if i == 0
                    && len >= 3
                    && w.pool.is_some_and(|pool| n >= pool.min_empties && pool.acquire())
                {
                    list[1..len].sort_by_key(|c| std::cmp::Reverse(c.score));
                    let moves: Arc<[SplitMove]> =
                        list.iter().map(|c| SplitMove { sq: c.sq, flips: c.flips, moves: c.moves }).collect();
                    let Some(result) = split(w, (p, o, n), moves, (alpha, beta), (best, best_move)) else {
                        return 0;
                    };
                    (best, best_move) = result;
                    break;
                }
            }
            if use_local {
                w.local.store(key, best, alpha0, beta, best_move);
            }
            if use_tt {
                w.tt.store(
                    key,
                    Entry {
                        score: (best * UNITS_PER_DISC) as i16,
                        depth: SOLVED_DEPTH + n as u8,
                        bound: Bound::of(best, alpha0, beta),
                        mv: best_move,
                    },
                );
            }
            best
        }

        /// The ordering value of (`p`, `o`) for `p`: a `depth`-ply alpha-beta
        /// search over the static evaluation (evaluation units, fail-hard in
        /// (`alpha`, `beta`)). Its nodes count as the solver's.
        $(#[target_feature(enable = $feat)])?
        unsafe fn order_value(w: &mut Worker<'_>, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
            w.nodes += 1;
            if depth == 0 {
                let pos = Position {
                    player: p,
                    opponent: o,
                    side: crate::rules::color::Color::Black,
                    variant: Variant::Modern,
                    supply: [0, 0],
                };
                return w.eval.order_evaluate(&pos);
            }
            let moves = $moves(p, o);
            if moves == 0 {
                if $moves(o, p) == 0 {
                    return final_score_raw(p, o, w.empties_to_winner) * UNITS_PER_DISC;
                }
                return -order_value(w, o, p, depth - 1, -beta, -alpha);
            }
            for sq in Bits(moves) {
                let f = $flips(p, o, sq);
                let v = -order_value(w, o & !f, p | f | 1u64 << sq, depth - 1, -beta, -alpha);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
            alpha
        }

        /// The moves of a node (`p`, `o`, `n` empties) from the second of
        /// `list` on, shared with the idle thread the caller has acquired as a
        /// split point, after the first scored `best`: the node's best score
        /// and move, or `None` once stopped.
        $(#[target_feature(enable = $feat)])?
        pub unsafe fn split(
            w: &mut Worker<'_>,
            (p, o, n): (u64, u64, u32),
            list: Arc<[SplitMove]>,
            (alpha, beta): (i32, i32),
            (best, best_move): (i32, Option<u8>),
        ) -> Option<(i32, Option<u8>)> {
            let sp = Arc::new(SplitPoint::new(1, alpha, best, best_move));
            let node = SplitNode::Exact {
                player: p,
                opponent: o,
                empties: n,
                table_move_min_depth: w.table_move_min_depth,
                moves: list.clone(),
            };
            w.post_split(&sp, beta, node, run_job);
            participate(w, &sp, p, o, &list, beta, n);
            w.join_split(&sp)
        }

        /// A helper's share of a posted split node.
        $(#[target_feature(enable = $feat)])?
        unsafe fn run_job(w: &mut Worker<'_>, job: &SplitJob) {
            let SplitNode::Exact { player, opponent, empties, table_move_min_depth, moves } = &job.node else {
                unreachable!("the solver's kernel runs only the solver's split nodes");
            };
            let own = std::mem::replace(&mut w.table_move_min_depth, *table_move_min_depth);
            participate(w, &job.sp, *player, *opponent, moves, job.beta, *empties);
            w.table_move_min_depth = own;
            // A share left unsearched must be for a reason that stops the
            // poster too, or the poster would take the node's value as whole.
            debug_assert!(!w.stopped || w.must_stop_all(), "a split point's move left unsearched");
        }

        /// One thread's share of a split node: takes the next move until none
        /// is left or one fails high; records results in the split point.
        $(#[target_feature(enable = $feat)])?
        unsafe fn participate(
            w: &mut Worker<'_>,
            sp: &SplitPoint,
            p: u64,
            o: u64,
            list: &[SplitMove],
            beta: i32,
            n: u32,
        ) {
            while let Some((i, alpha)) = sp.next_move(list.len()) {
                let c = list[i];
                let (cp, co) = (o & !c.flips, p | c.flips | 1u64 << c.sq);
                let mut v = -solve_child(w, cp, co, c.moves, -alpha - 1, -alpha, n - 1);
                if v > alpha && v < beta && !w.stopped {
                    // Against the latest alpha: `v` only bounds the value from below.
                    let a = sp.alpha();
                    if a >= beta {
                        // Another thread has cut this node off (before our next
                        // poll would say so): a window of (a, beta) would be
                        // empty, and a search of an empty window stores bounds
                        // that do not hold (FFO #37's wrong move on four threads).
                        return;
                    }
                    v = -solve_child(w, cp, co, c.moves, -beta, -a.max(alpha), n - 1);
                }
                if w.stopped || sp.record(v, c.sq as u8, beta) {
                    return;
                }
            }
        }

        /// Few empties: the local table (from [`ENDGAME_LOCAL_TT_EMPTIES`]),
        /// then [`shallow_search`].
        $(#[target_feature(enable = $feat)])?
        unsafe fn shallow(w: &mut Worker<'_>, p: u64, o: u64, mut alpha: i32, mut beta: i32, n: u32) -> i32 {
            if n < ENDGAME_LOCAL_TT_EMPTIES {
                return shallow_search(w, p, o, alpha, beta, n);
            }
            let key = key_raw(p, o);
            if let Some(e) = w.local.probe(key) {
                if let Some(s) = e.cutoff(&mut alpha, &mut beta) {
                    // A node visited, as a cutoff in `deep` is.
                    w.nodes += 1;
                    return s;
                }
            }
            let v = shallow_search(w, p, o, alpha, beta, n);
            w.local.store(key, v, alpha, beta, None);
            v
        }

        /// Few empties: no table; moves straight from the empty squares, odd quadrants first.
        $(#[target_feature(enable = $feat)])?
        unsafe fn shallow_search(w: &mut Worker<'_>, p: u64, o: u64, mut alpha: i32, beta: i32, n: u32) -> i32 {
            let empties = !(p | o);
            match n {
                0 => {
                    w.nodes += 1;
                    return final_score_raw(p, o, w.empties_to_winner);
                }
                1 => return last1(w, p, o, empties.trailing_zeros()),
                2 => return last2(w, p, o, alpha, beta, empties),
                _ => {}
            }
            w.nodes += 1;
            // From 4 empties too: FFO #40-#49 on two threads 734M -> 613M
            // nodes in the same time.
            if let Some(s) = stability_cutoff(p, o, alpha, n) {
                return s;
            }
            let odd = odd_quadrants(empties);
            let near = empties & neighbours(o);
            let mut best = -INFINITY;
            for part in [near & odd, near & !odd] {
                for sq in Bits(part) {
                    let f = $flips(p, o, sq);
                    if f == 0 {
                        continue;
                    }
                    let v = -shallow(w, o & !f, p | f | 1u64 << sq, -beta, -alpha, n - 1);
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if v >= beta {
                                return v;
                            }
                        }
                    }
                }
            }
            if best == -INFINITY {
                if $moves(o, p) == 0 {
                    return final_score_raw(p, o, w.empties_to_winner);
                }
                return -shallow(w, o, p, -beta, -alpha, n);
            }
            best
        }

        /// Two empty squares.
        $(#[target_feature(enable = $feat)])?
        unsafe fn last2(w: &mut Worker<'_>, p: u64, o: u64, alpha: i32, beta: i32, empties: u64) -> i32 {
            w.nodes += 1;
            let x = empties.trailing_zeros();
            let y = (empties & (empties - 1)).trailing_zeros();
            let mut best = -INFINITY;
            for (a, b) in [(x, y), (y, x)] {
                let f = $flips(p, o, a);
                if f != 0 {
                    let v = -last1(w, o & !f, p | f | 1u64 << a, b);
                    if v > best {
                        best = v;
                        if v >= beta {
                            return v;
                        }
                    }
                }
            }
            if best > -INFINITY {
                return best;
            }
            // Pass: the opponent moves, then we face the last square.
            w.nodes += 1;
            let mut worst = INFINITY;
            for (a, b) in [(x, y), (y, x)] {
                let f = $flips(o, p, a);
                if f != 0 {
                    let v = last1(w, p & !f, o | f | 1u64 << a, b);
                    if v < worst {
                        worst = v;
                        if v <= alpha {
                            return v;
                        }
                    }
                }
            }
            if worst < INFINITY {
                return worst;
            }
            final_score_raw(p, o, w.empties_to_winner)
        }

        /// The last empty square, `sq`: whoever can play there does; the board is then full.
        #[inline(always)]
        unsafe fn last1(w: &mut Worker<'_>, p: u64, o: u64, sq: u32) -> i32 {
            w.nodes += 1;
            // Only the number of flips matters here, and the full board gives it cheaply.
            let n = count_last_flips(p, sq) as i32;
            if n != 0 {
                return 2 * (p.count_ones() as i32 + n + 1) - 64;
            }
            let n = count_last_flips(o, sq) as i32;
            if n != 0 {
                return 2 * (p.count_ones() as i32 - n) - 64;
            }
            final_score_raw(p, o, w.empties_to_winner)
        }
    };
}

mod portable {
    use crate::rules::bitboard;
    kernel!(bitboard::moves, bitboard::flips);
}

#[cfg(target_arch = "x86_64")]
mod fast {
    use crate::rules::bitboard;
    kernel!(
        bitboard::avx2::moves,
        bitboard::avx2::flips,
        "popcnt,lzcnt,bmi1,bmi2,avx2"
    );
}

impl Worker<'_> {
    /// The root moves of a solve pass (`squares`, in the pass's order) from
    /// the second on, in `window` (discs) after the first scored `first`:
    /// searched as a split point that an idle thread (which the caller has
    /// acquired) joins at once. The best score and move, or `None` if the
    /// search was stopped. Modern positions only.
    pub fn solve_rest_of_root(
        &mut self,
        root: &Position,
        squares: &[u32],
        window: (i32, i32),
        first: i32,
    ) -> Option<(i32, Option<u8>)> {
        let (p, o) = (root.player, root.opponent);
        let best = (first, Some(squares[0] as u8));
        let list: Arc<[SplitMove]> = squares
            .iter()
            .map(|&sq| {
                let f = crate::rules::bitboard::flips(p, o, sq);
                let (cp, co) = (o & !f, p | f | 1u64 << sq);
                SplitMove {
                    sq,
                    flips: f,
                    moves: crate::rules::bitboard::moves(cp, co),
                }
            })
            .collect();
        let node = (p, o, root.empty_count());
        #[cfg(target_arch = "x86_64")]
        if self.fast_cpu {
            // SAFETY: `fast_cpu` is true only when the CPU has the kernel's features.
            return unsafe { fast::split(self, node, list, window, best) };
        }
        // SAFETY: the portable kernel needs no target features.
        unsafe { portable::split(self, node, list, window, best) }
    }

    /// Exact final disc difference of `pos` for the side to move under the
    /// scoring rule, with `empties` empty squares. Fail-soft in (`alpha`,
    /// `beta`). Returns 0 (to be ignored) once stopped.
    pub fn solve(&mut self, pos: &Position, alpha: i32, beta: i32, empties: u32) -> i32 {
        if pos.variant == Variant::Modern {
            let (p, o) = (pos.player, pos.opponent);
            #[cfg(target_arch = "x86_64")]
            if self.fast_cpu {
                // SAFETY: `fast_cpu` is true only when the CPU has the kernel's features.
                return unsafe { fast::solve(self, p, o, alpha, beta, empties) };
            }
            // SAFETY: the portable kernel needs no target features.
            return unsafe { portable::solve(self, p, o, alpha, beta, empties) };
        }
        self.solve_general(pos, alpha, beta, empties)
    }

    /// The solver for any rules (classic supplies and opening placements).
    fn solve_general(&mut self, pos: &Position, mut alpha: i32, beta: i32, empties: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        let moves = pos.moves();
        if moves == 0 {
            let passed = pos.pass();
            if passed.moves() == 0 {
                return self.final_discs(pos);
            }
            return -self.solve_general(&passed, -beta, -alpha, empties);
        }
        if empties == 1 {
            // The last square: play it; the board is then full.
            let child = pos.play_unchecked(Square::from_index(moves.trailing_zeros()));
            self.nodes += 1;
            return -self.final_discs(&child);
        }

        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;

        if empties <= ENDGAME_SORT_EMPTIES {
            // Shallow: no table, no sorting; odd quadrants first (parity).
            let odd = odd_quadrants(pos.empties());
            'outer: for part in [moves & odd, moves & !odd] {
                for i in Bits(part) {
                    let child = pos.play_unchecked(Square::from_index(i));
                    let v = -self.solve_general(&child, -beta, -alpha, empties - 1);
                    if self.stopped {
                        return 0;
                    }
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if v >= beta {
                                break 'outer;
                            }
                        }
                    }
                }
            }
            return best;
        }

        let use_tt = empties >= ENDGAME_TT_EMPTIES;
        let key = pos.key();
        let mut tt_move = None;
        if use_tt {
            if let Some(e) = self.tt.probe(key) {
                if let Some(m) = e.mv.filter(|&m| moves >> m & 1 != 0) {
                    tt_move = Some(m);
                }
                let s = e.score as i32 / UNITS_PER_DISC;
                if let Some(s) = e.cutoff(SOLVED_DEPTH as i32, s, alpha, beta) {
                    return s;
                }
            }
        }

        let mut list = MoveList::new();
        list.fill_endgame(pos, moves, tt_move);
        for (i, c) in list.as_slice().iter().enumerate() {
            let mut v;
            if i == 0 {
                v = -self.solve_general(&c.child, -beta, -alpha, empties - 1);
            } else {
                v = -self.solve_general(&c.child, -alpha - 1, -alpha, empties - 1);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.solve_general(&c.child, -beta, -alpha, empties - 1);
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

        if use_tt {
            self.tt.store(
                key,
                Entry {
                    score: (best * UNITS_PER_DISC) as i16,
                    depth: SOLVED_DEPTH + empties as u8,
                    bound: Bound::of(best, alpha0, beta),
                    mv: best_move,
                },
            );
        }
        best
    }
}
