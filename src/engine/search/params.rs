//! Search tunables in one place, each with why it has its value (a glossary for the option table).

use crate::engine::eval::UNITS_PER_DISC;

/// Larger than any score: exact scores are at most 64 discs.
pub const INFINITY: i32 = 100 * UNITS_PER_DISC;

/// Half-width of the first aspiration window around the previous iteration's
/// score, in evaluation units (2 discs; Othello scores swing between odd and even depths).
pub const ASPIRATION_WINDOW: i32 = 2 * UNITS_PER_DISC;
/// First iteration that uses an aspiration window (earlier ones are too unstable).
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

/// In endgame mode, the midgame iterations run before the solver go at
/// least this deep: enough to order root moves and to have a move if time
/// runs out. Past [`SELECTIVE_SOLVE_EMPTIES`] + 1 empties, with the score
/// below [`SELECTIVE_MAX_SCORE`], they go on to the empties minus one and
/// then to a selective pass to the end (`root.rs`): one thread, 128 MB,
/// FFO #40-#49 (20-24 empties) took 1,244M nodes with the iterations
/// stopped at 6, 946M with the selective pass after them, 800M with the
/// iterations to the end; #20-#39 110.1M and 83.0M.
pub const ENDGAME_PRESEARCH_DEPTH: u32 = 6;

/// The endgame's selective pass (`root.rs`) solves exactly only nodes with
/// at most this many empties; above, ProbCut prunes. One thread, 128 MB,
/// FFO #40-#49: 1,244M nodes with no selective pass, 841M at 14, 797M at 16;
/// 256 MB, #40-#52: 2,306M at 12, 2,246M at 16, 2,271M at 18, 2,418M at 20.
pub const SELECTIVE_SOLVE_EMPTIES: u32 = 16;
/// ProbCut's confidence in the selective pass (whatever the `probcut`
/// option, which must be on for the pass to run): wider than the midgame's,
/// as the pass only prepares the exact solve. One thread, 256 MB, nodes at
/// 1.5 and at 2.5: FFO #40-#49 800M and 799M, #50-#52 1,449M and 1,370M,
/// #53 2,538M and 2,397M, #56 907M and 848M, #58 1,467M and 1,472M (-3.8 %
/// in all); 3.5: #40-#49 773M, #50-#52 1,418M.
pub const SELECTIVE_PROBCUT_T: f64 = 2.5;
/// The iterations past [`ENDGAME_PRESEARCH_DEPTH`] and the selective pass
/// run only while the score is below this (evaluation units): near the
/// ends of the scale ProbCut has no room to prune and the midgame search
/// crawls. FFO #39 (26 empties, +64, read +57 at depth 1) took 77.7M nodes
/// and 15 s without this limit, 2.6M with it.
pub const SELECTIVE_MAX_SCORE: i32 = 32 * UNITS_PER_DISC;

/// Do not start an iteration that, growing by this factor over the last one,
/// would overrun the hard limit (Othello's effective branching factor is ~3).
pub const ITERATION_GROWTH: f64 = 2.5;

/// Before an exact solve of at least [`WIPEOUT_SCAN_MIN_EMPTIES`] empties
/// whose midgame estimate is a win by at least this much (evaluation
/// units), a null window at +64 checks for a wipe-out (`root.rs`). FFO #59
/// (34 empties, +64) on one thread: 961M nodes for the scan, which settles
/// it, against 1,330M for the win/loss/draw and exact passes. On 40
/// lopsided self-play positions at 22 empties (final results beyond ±40)
/// the scan cost 1.5% more nodes in all (up to 22% on one +58 position), so
/// it runs only where a solve takes long enough for a wipe-out to matter.
pub const WIPEOUT_SCAN_MIN_SCORE: i32 = 32 * UNITS_PER_DISC;
/// See [`WIPEOUT_SCAN_MIN_SCORE`]: below this many empties a solve takes
/// under a second and a scan is not worth its cost.
pub const WIPEOUT_SCAN_MIN_EMPTIES: u32 = 24;
/// The wipe-out scan's node budget: a safety net (a scan that has not
/// settled by then is abandoned and the normal solve runs).
pub const WIPEOUT_SCAN_NODES: u64 = 1 << 32;

/// The exact pass after the win/loss/draw one starts with a window of this
/// many discs either side of the midgame estimate (rounded to an even
/// score), doubled on each failure. One thread, 128 MB, nodes: FFO #40-#47
/// 758.7M with the full window, 704.3M at 1, 704.4M at 2, 747.7M at 4;
/// #26-#39 174.9M, 170.6M at 1, 176.6M at 2. Without the win/loss/draw pass
/// first, 728.4M at 1.
pub const EXACT_ASPIRATION_WINDOW: i32 = 1;

/// Nodes between checks of the clock, the stop flag and the node limit.
pub const POLL_INTERVAL: u64 = 1024;

/// Midgame nodes at least this deep order moves by the static evaluation of
/// the child; shallower ones by the cheaper mobility heuristic.
pub const ORDER_BY_EVAL_DEPTH: i32 = 3;

/// Endgame nodes with at least this many empties use the transposition table.
pub const ENDGAME_TT_EMPTIES: u32 = 8;
/// The solver tries a table move first when the solver stored it, or a
/// midgame search of at least this depth (the selective pass, the deeper
/// iterations): the best move of a shallower search (the first iterations,
/// ProbCut's verifications) is a poor guess at the fastest refutation, and a
/// big table keeps many. One thread, FFO #40-#52 with a 1 GB table: 1,112.4M
/// nodes taking every move; from depth 2 1,013.6M, 4 929.1M, 6 918.0M, 8
/// 899.2M, 10 905.3M, 12 972.5M; only the passes that saw the end 993.3M,
/// none 1,251.6M. At 128 MB 919.5M -> 888.4M; #53 2.19 G -> 1.84 G, #57
/// 2.29 G -> 1.47 G (1 GB).
pub const ENDGAME_MIDGAME_MOVE_MIN_DEPTH: u8 = 8;
/// Endgame nodes from this many empties up to [`ENDGAME_TT_EMPTIES`] keep
/// bounds in the thread's small local table (`tt::LocalTable`; at or below
/// [`SHALLOW_EMPTIES`] in `shallow`), and the sorted ones read their
/// children's there (ETC). One thread, 128 MB, FFO #40-#49: 480.7M nodes
/// without it, 438.2M from 6, 422.9M from 5, 413.0M with the ETC from 6,
/// 394.2M from 4 with the ETC from 5; 4-6 % less time. From 3: 1.5 % fewer
/// nodes, 1 % more instructions.
pub const ENDGAME_LOCAL_TT_EMPTIES: u32 = 4;
/// Endgame nodes with more empties than this sort moves fastest-first
/// (fewest opponent replies); at or below it, parity order is cheaper.
pub const ENDGAME_SORT_EMPTIES: u32 = 6;

/// Modern fast path: at or below this many empties the solver uses no
/// table and no sorting, trying moves from the empty squares in parity order.
/// Once the deep nodes got cheaper (no zeroed move list, moves passed down,
/// ETC from 9), one thread, 128 MB: FFO #40-#47 675.6M nodes 24.3 s at 6,
/// 627.7M 23.6 s at 5, 551.1M 23.1-23.6 s at 4, 847.9M 27.2-28.0 s at 7;
/// #26-#39 165.4M 6.2 s at 6, 145.0M 5.64 s at 5, 129.7M 5.60 s at 4.
pub const SHALLOW_EMPTIES: u32 = 4;
/// Modern fast path: with at least this many empties, moves are also
/// ordered by the static evaluation of the child (a shallow search's cheapest
/// form). With the learned evaluation, 14 took 322M nodes on FFO #40-#44
/// and #46-#47 against 365M at 16, 307M (but slower) at 12, 430M at 18; a
/// 1- or 2-ply search instead of the static value cost more than it saved
/// from 14 empties (it pays from 16: [`ENDGAME_ORDER_SEARCH_EMPTIES`]).
pub const ENDGAME_EVAL_ORDER_EMPTIES: u32 = 14;
/// With at least this many empties the static value of
/// [`ENDGAME_EVAL_ORDER_EMPTIES`] becomes a 1-ply search over it (the
/// best reply's value; its evaluations count as nodes). One thread, 128 MB,
/// FFO #40-#49, nodes and seconds with self-play paused: 1,511M 60.1 s with
/// no search, 1,244M 48.8 s at 16, 1,294M 48.4 s at 17, 1,340M 51.9 s at
/// 18, 1,260M at 15. A second ply from 22 or 24 empties saved under 7% of
/// the nodes of #50 and cost more on #52 (884M/834M against 894M, 337M/361M
/// against 320M); from 24, one thread, 256 MB: #53 2,469M against 2,527M,
/// #57 4,831M against 4,350M.
pub const ENDGAME_ORDER_SEARCH_EMPTIES: u32 = 16;
/// Evaluation units per ordering point in that order: how much the
/// evaluation counts against the mobility, parity and potential terms.
/// With the fourth weight set ordering, one thread, FFO #40-#52 with
/// 128 MB: 1,944.0M nodes at 8, 2,235.8M at 4, 2,024.3M at 6,
/// 1,748.6M at 12, **1,703.3M at 16**, 1,718.1M at 24; #53 2,317.1M at 8
/// against 1,709.5M at 16, #54 4,495.9M against 4,525.5M, #20-#39 the same
/// (docs/history.md, "Exact solver: move ordering").
pub const ENDGAME_EVAL_ORDER_DIVISOR: i32 = 16;
/// Modern fast path: with at least this many empties, children are probed
/// in the table before searching (enhanced transposition cutoffs). With the
/// children's buckets prefetched, one thread, 128 MB, FFO #40-#47: 704.3M
/// nodes at 12, 722.3M at 14, 689.2M at 10, 675.6M at 9 (8: the same, its
/// children are below the table); #26-#39 170.6M at 12, 165.4M at 9.
pub const ENDGAME_ETC_EMPTIES: u32 = 9;

/// Exact solves with two or more threads split nodes with at least this
/// many empties (after their first move) between idle threads.
pub const SPLIT_MIN_EMPTIES: u32 = 12;
/// The selective pass before a solve, on two or more threads, splits its
/// midgame nodes searched at least this deep (after their first move).
/// FFO #40-#49, two threads, four runs alternating: 12.47 s without,
/// 12.09 s at 5, **12.03 s at 8** (docs/history.md).
pub const SPLIT_MIN_DEPTH: i32 = 8;
/// A midgame search on two or more threads splits nodes searched at least
/// this deep, at any move after the first. `bench --midgame --depth 22`,
/// two threads against one, three runs each: 1.55x at 5, **1.67x at 6**,
/// 1.64x at 7 (and 1.47x at 8 splitting at the second move only, as before).
pub const MIDGAME_SPLIT_MIN_DEPTH: i32 = 6;
/// How long a search thread out of work spins before it sleeps: with a
/// split every 0.4 ms, a sleeping thread woke too late (`bench --midgame
/// --depth 22`: 1.56x without, **1.67x at 200 µs**, 1.71x at 1 ms, which
/// burns more of a shared machine). Not where the search has more threads
/// than the machine has cores.
pub const SPLIT_SPIN: std::time::Duration = std::time::Duration::from_micros(200);

/// Ordering points per opponent reply after a move (fewer replies first).
pub const ORDER_MOBILITY_WEIGHT: i32 = 16;
/// Endgame ordering points per empty square next to the mover's discs after
/// the move (potential mobility of the opponent; measured: 2% fewer nodes on FFO #26-#37).
pub const ORDER_POTENTIAL_WEIGHT: i32 = 4;
/// Endgame ordering points per disc of the mover's after the move that is a
/// corner or beside an own corner along an edge ([`corner_anchored`]). One
/// thread, 128 MB, FFO #40-#49: none 386.5M nodes, 2 372.2M, **4 359.2M**,
/// 6 359.7M, 8 360.5M, 16 394.4M; the exact edge-stable discs instead
/// order better (343.8M at 4) but cost 8.7% more instructions a node
/// (docs/history.md).
///
/// [`corner_anchored`]: crate::rules::geometry::corner_anchored
pub const ORDER_CORNER_STABILITY_WEIGHT: i32 = 4;
/// Ordering bonus for a move into an odd quadrant in the endgame (parity).
pub const ORDER_PARITY_BONUS: i32 = 8;
/// Ordering bonus for the transposition table's move: always tried first.
pub const ORDER_TT_BONUS: i32 = 1 << 24;
/// The history heuristic in the exact solver: at nodes with at most
/// [`ENDGAME_HISTORY_EMPTIES`] empties, each move gets up to this many
/// ordering points, in proportion to how often its square has cut at such
/// nodes of this search (weighted by the empties squared) against the most
/// cutting square among the node's moves, to within a factor of two (the
/// counts' top four bits: the most cutting square gets 8/16 to 15/16 of
/// it). One thread, 128 MB, FFO #40-#52: none 1,307.7M nodes; with an exact
/// proportion (a division a node) 8 points 1,223.5M, 12 1,216.5M, 16
/// 1,224.4M; **with the top bits, 16: 1,214.9M**, 12: 1,233.9M
/// (docs/history.md).
pub const ENDGAME_HISTORY_WEIGHT: u64 = 16;
/// Nodes with at most this many empties use and feed the history (13:
/// 1,233.9M at 8 points, 20: 1,220.2M at 12; one table for both colours,
/// since one a colour gave 1,231.7M).
pub const ENDGAME_HISTORY_EMPTIES: u32 = 16;

/// Stack size for search threads: move lists live on the stack, up to 60 plies deep.
pub const THREAD_STACK: usize = 16 << 20;

/// Default ProbCut confidence (standard deviations; 0 turns ProbCut off).
/// 1.5 with the learned evaluation passed an SPRT against 0 (44-2-20, docs/history.md).
pub const PROBCUT_T: f64 = 1.5;
/// Nodes at least this deep try ProbCut.
pub const PROBCUT_MIN_DEPTH: u32 = 3;

/// Added to the side to move's static evaluation at the midgame search's
/// leaves (evaluation units). The parent of every leaf picked it as its best
/// child, so a leaf's evaluation is biased towards the side that moved into
/// it: without this, scores read too high after an odd number of plies and
/// too low after an even number, and a GUI's evaluation column zigzags.
/// `mollett swing` measured it with the third learned weight set (issue 13,
/// docs/history.md, "Training rounds"): without it, at 20-22 empties odd depths read +1.0 to
/// +1.8 discs and even depths -1.0 to -1.2 against exact results, and the
/// mean |v(d) - v(d-1)| at 30-40 empties (d = 6..12) was 2.71 discs; with
/// 1.3 discs every depth is within 0.35 discs of the exact results and the
/// swing is 1.16.
pub const LEAF_TEMPO: i32 = 130;

/// The search constants that change how Mollett plays, as the option table
/// sets them (`set_option`; see `protocol.md`). Their defaults are the
/// constants above. Constants of the exact solver's fast path stay compiled
/// in: they change how fast a solve runs, never its result, and each was
/// chosen by node counts on FFO positions (`docs/history.md`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Params {
    /// [`ASPIRATION_WINDOW`], in evaluation units.
    pub aspiration_window: i32,
    /// [`ASPIRATION_MIN_DEPTH`].
    pub aspiration_min_depth: u32,
    /// [`ENDGAME_PRESEARCH_DEPTH`].
    pub endgame_presearch_depth: u32,
    /// [`ITERATION_GROWTH`].
    pub iteration_growth: f64,
    /// [`ORDER_BY_EVAL_DEPTH`].
    pub order_eval_depth: i32,
    /// [`ORDER_MOBILITY_WEIGHT`] in the midgame.
    pub order_mobility_weight: i32,
    /// ProbCut's confidence `t`: a node is cut when a shallow search says, with
    /// `t` standard deviations of the shallow-to-deep error to spare, that the
    /// deep one would fail high (or low). 0 turns ProbCut off.
    pub probcut_t: f64,
    /// [`PROBCUT_MIN_DEPTH`].
    pub probcut_min_depth: u32,
    /// [`LEAF_TEMPO`], in evaluation units.
    pub leaf_tempo: i32,
}

impl Default for Params {
    fn default() -> Params {
        Params {
            aspiration_window: ASPIRATION_WINDOW,
            aspiration_min_depth: ASPIRATION_MIN_DEPTH,
            endgame_presearch_depth: ENDGAME_PRESEARCH_DEPTH,
            iteration_growth: ITERATION_GROWTH,
            order_eval_depth: ORDER_BY_EVAL_DEPTH,
            order_mobility_weight: ORDER_MOBILITY_WEIGHT,
            probcut_t: PROBCUT_T,
            probcut_min_depth: PROBCUT_MIN_DEPTH,
            leaf_tempo: LEAF_TEMPO,
        }
    }
}
