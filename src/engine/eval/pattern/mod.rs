//! The learned pattern evaluation (Logistello / Edax style).
//!
//! The board is cut into 46 pattern *instances*: the 8 symmetric images of 11
//! base patterns (edges with their X-squares, 2x5 corner regions, 3x3
//! corners, rows and columns 2-4, diagonals of length 8 down to 4). Each
//! instance reads its squares as a base-3 number (0 empty, 1 side to move, 2
//! opponent) and looks the number up in its pattern's weight table; every
//! instance of a pattern shares the table, and configurations that a
//! symmetry of the pattern itself maps onto each other share one weight, so
//! the evaluation is exactly invariant under the board's 8 symmetries.
//! A few global features (mobility, parity, a bias, and for classic the
//! supplies) are added, with one set of weights per game stage (by discs on
//! the board).
//!
//! PatternWeights are quantised to `i16` in [`WEIGHT_SCALE`] units per disc and
//! stored in a small binary file (see [`PatternWeights::to_bytes`]); the shipped set
//! is embedded in the binary.
//!
//! Those 46 instances are layout `v1`, the shipped weights' shape. A layout
//! is a list of base patterns ([`layout`]); `v2` adds three ten-square
//! shapes (58 instances). A weight file names its layout by the checksum of
//! its definitions, and an evaluation reads the layout its weights were
//! fitted for (`mollett train --layout`).
//!
//! Here: [`PatternEval`], the evaluator, and [`instance_indices`]. The
//! pattern set, its definitions and the stages are in `set`, what is read
//! off a position (instance indices, global features) in `features`, the
//! BMI2 fast path in `fast`, the browser build's (WebAssembly `simd128`)
//! in `rows`, and the weight file in `weights`; their public
//! items are re-exported here.

#[cfg(target_arch = "x86_64")]
mod fast;
mod features;
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
mod rows;
mod set;
mod weights;

pub use features::{count_slots, features, global_features, Features};
pub use set::{
    layout, layout_names, pattern_set, stage_of, Count, CountTable, Instance, Pattern, PatternSet,
    DEFAULT_STAGES, GLOBALS, GLOBAL_NAMES, MAX_INSTANCES, WEIGHT_SCALE,
};
pub use weights::{shipped_bytes, PatternWeights, WeightError, MAGIC, VERSION};
#[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
pub use weights::{EMBEDDED_CLASSIC_WEIGHTS, EMBEDDED_WEIGHTS};

use super::evaluator::{Evaluator, SigmaModel, EVAL_LIMIT, UNITS_PER_DISC};
use crate::rules::color::Variant;
use crate::rules::position::Position;
use features::{count_weights, ternary_board};
// The browser build's `rows` takes its place (it stays the tests' reference).
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(unused_imports)
)]
use features::instance_indices_portable;
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

/// Configuration index of each of `set`'s instances (into its pattern's `3^len` table).
#[inline]
pub fn instance_indices(set: &PatternSet, pos: &Position, out: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    if crate::rules::cpu::has_fast_bits() {
        // SAFETY: the CPU supports the features `fast::instance_indices` is compiled for.
        unsafe { fast::instance_indices(set, pos, out) };
        return;
    }
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return rows::instance_indices(set, pos, out);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    instance_indices_portable(set, pos, out);
}

/// The pattern evaluator: expanded tables, one lookup per instance.
#[derive(Clone)]
pub struct PatternEval {
    /// The layout the weights are for.
    set: &'static PatternSet,
    stages: usize,
    /// `stages * full_per_stage` configuration weights.
    tables: Vec<i16>,
    /// `stages * GLOBALS` global weights.
    globals: Vec<i16>,
    /// The CPU runs the `fast` module (checked once, at construction).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    fast_cpu: bool,
}

#[cfg(any(
    target_arch = "x86_64",
    test,
    all(target_arch = "wasm32", target_feature = "simd128")
))]
impl PatternEval {
    /// The weights as the `fast` and `rows` kernels read them.
    fn weights(&self) -> set::Weights<'_> {
        set::Weights {
            set: self.set,
            stages: self.stages,
            tables: &self.tables,
            globals: &self.globals,
        }
    }
}

impl fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PatternEval {{ layout: {}, stages: {} }}",
            self.set.name, self.stages
        )
    }
}

impl PatternEval {
    /// Expands compact weights into lookup tables.
    pub fn new(w: &PatternWeights) -> PatternEval {
        let set = w.set;
        let per = w.per_stage();
        let mut tables = vec![0i16; w.stages * set.full_per_stage];
        let mut globals = vec![0i16; w.stages * GLOBALS];
        for s in 0..w.stages {
            let src = &w.data[s * per..(s + 1) * per];
            let dst = &mut tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
            for (p, pat) in set.patterns.iter().enumerate() {
                let so = set.slot_offset[p];
                let fo = set.full_offset[p];
                for (d, &slot) in dst[fo..fo + pat.size].iter_mut().zip(&pat.slot_of) {
                    *d = src[so + slot as usize];
                }
            }
            let entries = set.slots_per_stage - set.count_slot_offset;
            dst[set.count_full_offset..set.count_full_offset + entries]
                .copy_from_slice(&src[set.count_slot_offset..set.slots_per_stage]);
            globals[s * GLOBALS..(s + 1) * GLOBALS].copy_from_slice(&src[set.slots_per_stage..]);
        }
        PatternEval {
            set,
            stages: w.stages,
            tables,
            globals,
            fast_cpu: crate::rules::cpu::has_fast_bits(),
        }
    }

    /// The shipped weights for `variant`'s positions.
    pub fn embedded(variant: Variant) -> Result<PatternEval, WeightError> {
        Ok(PatternEval::new(&PatternWeights::from_bytes(
            shipped_bytes(variant),
        )?))
    }

    /// PatternWeights from a file written by `mollett train`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<PatternEval, WeightError> {
        Ok(PatternEval::new(&PatternWeights::read(path.as_ref())?))
    }

    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The raw sum in weight units ([`WEIGHT_SCALE`] per disc).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.fast_cpu {
            // SAFETY: `fast_cpu` is true only when the CPU has the features `fast::raw` needs.
            return unsafe { fast::raw(self.weights(), pos) };
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        return rows::raw(self.weights(), pos);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        self.raw_portable(pos)
    }

    /// [`PatternEval::raw`] square by square, for CPUs without BMI2 (and the
    /// reference the fast paths are tested against).
    #[cfg_attr(
        all(target_arch = "wasm32", target_feature = "simd128"),
        allow(dead_code)
    )]
    fn raw_portable(&self, pos: &Position) -> i32 {
        let set = self.set;
        let discs = (pos.player | pos.opponent).count_ones();
        let s = stage_of(discs, self.stages);
        let table = &self.tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
        let t = ternary_board(pos);
        let mut sum = 0i32;
        for inst in &set.instances {
            let mut idx = 0usize;
            for &sq in &inst.squares[..inst.len] {
                idx = idx * 3 + t[sq as usize] as usize;
            }
            sum += table[set.full_offset[inst.pattern] + idx] as i32;
        }
        let f = features(pos);
        let gw = &self.globals[s * GLOBALS..(s + 1) * GLOBALS];
        for (g, &w) in f.globals.iter().zip(gw) {
            sum += g * w as i32;
        }
        sum + count_weights(set, table, pos, &f)
    }
}

impl Evaluator for PatternEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        // Classic placements flip nothing and are symmetric; there is nothing to tell.
        if pos.in_classic_opening() {
            return 0;
        }
        let raw = self.raw(pos);
        let units = (raw * UNITS_PER_DISC).div_euclid(WEIGHT_SCALE);
        units.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
        PROBCUT_SIGMA.sigma(depth, shallow, empties)
    }
}

/// The learned evaluation as shipped: one weight set per variant, each the
/// set that won its variant's matches (the seventh set for modern, the fourth
/// for classic; docs/training.md), and the fourth set ordering the exact
/// solver in both. A weight file named by the `eval` option scores and
/// orders both variants with one set, as `mollett train` wrote it.
///
/// Each set is decoded on its first evaluation, once per process, and
/// shared by every engine of the process: an engine that starts, answers
/// `name` and quits decodes nothing, and a modern game never decodes the
/// classic set (start-up, issue 29: expanding both sets was 42 % of the
/// CPU time of `name` + `quit`).
#[derive(Clone, Copy, Debug, Default)]
pub struct EmbeddedEval;

/// The embedded sets, decoded on first use.
static EMBEDDED_MODERN: OnceLock<PatternEval> = OnceLock::new();
static EMBEDDED_CLASSIC: OnceLock<PatternEval> = OnceLock::new();

impl EmbeddedEval {
    /// The shipped evaluation. Nothing is decoded yet; that the embedded
    /// files decode is a unit test (`embedded_weights_load_fast_and_stay_in_range`).
    pub fn new() -> EmbeddedEval {
        EmbeddedEval
    }

    /// The weight set that scores `variant`'s positions (decoded now if
    /// this is its first use).
    #[inline]
    pub fn for_variant(&self, variant: Variant) -> &'static PatternEval {
        let cell = match variant {
            Variant::Modern => &EMBEDDED_MODERN,
            Variant::Classic => &EMBEDDED_CLASSIC,
        };
        cell.get_or_init(|| {
            // Natively the files are tested; in the browser a file that
            // could not be fetched ends here (a trap that stops the Worker).
            PatternEval::embedded(variant)
                .unwrap_or_else(|e| panic!("the shipped {variant} weights cannot be read: {e}"))
        })
    }
}

impl Evaluator for EmbeddedEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        self.for_variant(pos.variant).evaluate(pos)
    }

    /// The fourth set (the classic one) orders the solver in both variants:
    /// trained on 2.9 times the games, it takes fewer nodes on modern FFO
    /// problems too (docs/history.md), though it did not play modern better.
    fn order_evaluate(&self, pos: &Position) -> i32 {
        self.for_variant(Variant::Classic).evaluate(pos)
    }

    /// Both sets share one model ([`PROBCUT_SIGMA`]).
    fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
        PROBCUT_SIGMA.sigma(depth, shallow, empties)
    }
}

/// ProbCut's error model, fitted for the third weight set by
/// `mollett probcut corpus/chunks/modern-1-000.games.zst corpus/chunks/classic-1-000.games.zst --eval learned --positions 300 --max-depth 10 --seed 1`
/// (docs/history.md, "Training rounds") and kept for the fourth (the shipped classic set):
/// the same command with the fourth set gave base 1.7348, per_depth 0.1828,
/// per_shallow -0.3629, per_empty 0.0081 (sigma 2.39 discs against 2.30 at
/// depth 10, shallow 4, 35 empties), and the fourth set won its classic
/// match with this model; so did the seventh (the shipped modern set) its
/// modern match, not yet refitted. Weight files from other runs use it too. The second
/// set's model was base 3.0010, per_depth 0.3441, per_shallow -0.6678,
/// per_empty -0.0122 (3.34 discs at depth 10, 35 empties).
pub const PROBCUT_SIGMA: SigmaModel = SigmaModel {
    base: 2.2851,
    per_depth: 0.1579,
    per_shallow: -0.3803,
    per_empty: -0.0013,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bitboard::symmetry;
    use crate::rules::color::{Color, Variant};

    fn random_position(seed: u64, variant: Variant) -> Position {
        crate::rules::position::playout(variant, 20 + (seed % 30) as u32, seed)
    }

    pub(super) fn random_weights(stages: usize, seed: u64) -> PatternWeights {
        random_weights_for(pattern_set(), stages, seed)
    }

    fn random_weights_for(set: &'static PatternSet, stages: usize, seed: u64) -> PatternWeights {
        let mut w = PatternWeights::zeros_for(set, stages);
        let mut x = seed | 1;
        for v in w.data.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *v = if x.is_multiple_of(3) {
                0
            } else {
                (x % 601) as i16 - 300
            };
        }
        w
    }

    #[test]
    fn evaluation_is_invariant_under_the_eight_symmetries() {
        for name in layout_names() {
            let set = layout(name).expect("a layout");
            let eval = PatternEval::new(&random_weights_for(set, DEFAULT_STAGES, 7));
            invariant_under_symmetries(&eval);
        }
    }

    fn invariant_under_symmetries(eval: &PatternEval) {
        for seed in 1..40 {
            for variant in [Variant::Modern, Variant::Classic] {
                let pos = random_position(seed, variant);
                let base = eval.raw(&pos);
                for s in 1..8 {
                    let img = Position {
                        player: symmetry(pos.player, s),
                        opponent: symmetry(pos.opponent, s),
                        ..pos
                    };
                    assert_eq!(eval.raw(&img), base, "seed {seed} symmetry {s}");
                }
                let v = eval.evaluate(&pos);
                assert!(v.abs() <= EVAL_LIMIT);
            }
        }
    }

    /// Positions for the fast/portable comparison: playouts of both variants
    /// at every stage (the classic opening included), then the same discs
    /// with odd classic supplies (empty ones too), then arbitrary disjoint
    /// bitboards (not reachable in play, but `raw` takes any board).
    fn comparison_positions() -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..1500u64 {
            for variant in [Variant::Modern, Variant::Classic] {
                let max = if variant == Variant::Modern { 58 } else { 62 };
                let pos = crate::rules::position::playout(variant, 2 + (seed % max) as u32, seed);
                out.push(pos);
                if variant == Variant::Classic {
                    let supply = [(seed % 5) as u8, (seed / 5 % 4) as u8];
                    out.push(Position { supply, ..pos });
                }
            }
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for k in 0..2000u64 {
            let (a, b) = (next(), next());
            let player = a & b;
            let opponent = !player & next() & (a | b);
            let variant = if k % 2 == 0 {
                Variant::Modern
            } else {
                Variant::Classic
            };
            let side = if k % 4 < 2 {
                Color::Black
            } else {
                Color::White
            };
            let supply = [(next() % 33) as u8, (next() % 33) as u8];
            out.push(Position {
                player,
                opponent,
                side,
                variant,
                supply,
            });
        }
        out
    }

    #[test]
    fn count_tables_add_one_weight_per_count_clamped_to_the_last_entry() {
        let set = layout("v3").expect("v3");
        let mut w = PatternWeights::zeros_for(set, 1);
        // moves-mine: entry i is i discs; potential-theirs: only the last entry, 100 discs.
        let (_, _, size_moves) = set.counts[0];
        let pot_at = set.count_slot_offset + size_moves + set.counts[1].2 + set.counts[2].2;
        let (_, _, size_pot) = set.counts[3];
        for i in 0..size_moves {
            w.data[set.count_slot_offset + i] = (i as i32 * WEIGHT_SCALE) as i16;
        }
        w.data[pot_at + size_pot - 1] = (100 * WEIGHT_SCALE) as i16;
        let eval = PatternEval::new(&w);
        let portable = PatternEval {
            fast_cpu: false,
            ..eval.clone()
        };
        for pos in comparison_positions().iter().take(2000) {
            let moves = pos.moves().count_ones().min(size_moves as u32 - 1) as i32;
            let empty = !(pos.player | pos.opponent);
            let pot = (crate::rules::geometry::neighbours(pos.player) & empty).count_ones();
            let big = if pot as usize >= size_pot - 1 { 100 } else { 0 };
            let expect = (moves + big) * WEIGHT_SCALE;
            assert_eq!(portable.raw(pos), expect, "{}", pos.to_obf());
            assert_eq!(eval.raw(pos), expect, "{}", pos.to_obf());
        }
        // Layouts without count tables: no entries, the checksum of before.
        assert!(layout("v2").expect("v2").counts.is_empty());
        assert_ne!(set.checksum, layout("v2").expect("v2").checksum);
    }

    #[test]
    fn fast_evaluation_matches_the_portable_one_exactly() {
        let evals = [
            PatternEval::embedded(Variant::Modern).expect("embedded weights load"),
            PatternEval::embedded(Variant::Classic).expect("embedded weights load"),
            PatternEval::new(&random_weights(DEFAULT_STAGES, 11)),
            PatternEval::new(&random_weights(4, 5)),
            PatternEval::new(&random_weights_for(layout("v2").expect("v2"), 3, 9)),
            PatternEval::new(&random_weights_for(layout("v3").expect("v3"), 5, 13)),
            PatternEval::new(&random_weights_for(layout("v4").expect("v4"), 5, 17)),
        ];
        let positions = comparison_positions();
        assert_eq!(positions.len(), 6500);
        let fast_cpu = crate::rules::cpu::has_fast_bits();
        if !fast_cpu {
            eprintln!("CPU without BMI2/AVX2: only the portable path is tested");
        }
        for eval in &evals {
            assert_eq!(eval.fast_cpu, fast_cpu);
            let portable = PatternEval {
                fast_cpu: false,
                ..eval.clone()
            };
            for pos in &positions {
                let expect = eval.raw_portable(pos);
                // Through the public entry points, on the path this CPU takes and forced portable.
                assert_eq!(eval.raw(pos), expect, "{}", pos.to_obf());
                assert_eq!(portable.raw(pos), expect, "{}", pos.to_obf());
                assert_eq!(eval.evaluate(pos), portable.evaluate(pos));
                // The browser build's path, its vectors as arrays here.
                assert_eq!(rows::raw(eval.weights(), pos), expect, "{}", pos.to_obf());
                #[cfg(target_arch = "x86_64")]
                if fast_cpu {
                    // SAFETY: the CPU has the features (checked above).
                    assert_eq!(
                        unsafe { fast::raw(eval.weights(), pos) },
                        expect,
                        "{}",
                        pos.to_obf()
                    );
                }
            }
        }
    }

    #[test]
    fn fast_indices_and_globals_match_the_portable_ones() {
        for name in layout_names() {
            indices_and_globals_match(layout(name).expect("a layout"));
        }
    }

    fn indices_and_globals_match(set: &PatternSet) {
        let positions = comparison_positions();
        let n = set.instances.len();
        for pos in &positions {
            let mut expect = [0u32; MAX_INSTANCES];
            instance_indices_portable(set, pos, &mut expect[..n]);
            let mut got = [u32::MAX; MAX_INSTANCES];
            instance_indices(set, pos, &mut got[..n]);
            assert_eq!(got[..n], expect[..n], "{}", pos.to_obf());
            let mut by_rows = [u32::MAX; MAX_INSTANCES];
            rows::instance_indices(set, pos, &mut by_rows[..n]);
            assert_eq!(by_rows[..n], expect[..n], "{}", pos.to_obf());
            let globals = global_features(pos);
            // The reference: mobility through `Position::moves`.
            let mobility = pos.moves().count_ones() as i32 - pos.pass().moves().count_ones() as i32;
            assert_eq!(globals[0], mobility, "{}", pos.to_obf());
            let f = features(pos);
            assert_eq!(f.count(Count::MovesMine, pos), pos.moves().count_ones());
            assert_eq!(
                f.count(Count::MovesTheirs, pos),
                pos.pass().moves().count_ones()
            );
            #[cfg(target_arch = "x86_64")]
            if crate::rules::cpu::has_fast_bits() {
                let mut fast = [u32::MAX; MAX_INSTANCES];
                // SAFETY: the CPU has the features (checked above).
                unsafe { fast::instance_indices(set, pos, &mut fast[..n]) };
                assert_eq!(fast[..n], expect[..n], "{}", pos.to_obf());
                // SAFETY: as above.
                assert_eq!(
                    unsafe { features::features_with::<true>(pos) },
                    features(pos)
                );
            }
        }
        // Every pext gather value maps to its digit-order index: all 2^len
        // player subsets of every instance, against the ternary board.
        for (k, inst) in set.instances.iter().enumerate() {
            let l = &set.lookups[k];
            assert_eq!(l.mask.count_ones() as usize, inst.len);
            for v in 0..1u64 << inst.len {
                let mut bits = 0u64;
                let mut rest = l.mask;
                for j in 0..inst.len {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    if v >> j & 1 == 1 {
                        bits |= 1 << sq;
                    }
                }
                let pos = Position {
                    player: bits,
                    opponent: l.mask & !bits,
                    ..Position::start(Variant::Modern, Color::Black)
                };
                let mut expect = [0u32; MAX_INSTANCES];
                instance_indices_portable(set, &pos, &mut expect[..n]);
                let got = set.digit_values[l.digits as usize + v as usize] as u32
                    + 2 * set.digit_values[l.digits as usize + (v ^ ((1 << inst.len) - 1)) as usize]
                        as u32;
                assert_eq!(got, expect[k], "instance {k} subset {v:b}");
                let mut by_rows = [u32::MAX; MAX_INSTANCES];
                rows::instance_indices(set, &pos, &mut by_rows[..n]);
                assert_eq!(by_rows[..n], expect[..n], "instance {k} subset {v:b}");
            }
        }
    }

    #[test]
    fn embedded_weights_load_fast_and_stay_in_range() {
        pattern_set();
        // The best of a few decodes of both sets, in this thread's CPU time:
        // other tests (and, in CI, the browser build) share the cores, and a
        // wall clock counted their time too (117 ms once under a load of 15).
        let cpu_ms = || {
            let mut ts = libc::timespec {
                tv_sec: 0,
                tv_nsec: 0,
            };
            // SAFETY: clock_gettime writes the timespec it is given.
            unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
            ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 / 1e6
        };
        let mut ms = f64::INFINITY;
        for _ in 0..5 {
            let t = cpu_ms();
            for v in [Variant::Modern, Variant::Classic] {
                PatternEval::embedded(v).expect("embedded weights load");
            }
            ms = ms.min(cpu_ms() - t);
        }
        // Both variants' sets: twice the one set's 50 ms.
        assert!(ms < 100.0, "loading took {ms:.1} ms");
        let eval = EmbeddedEval::new();
        let modern = PatternEval::embedded(Variant::Modern).expect("embedded weights load");
        let classic = PatternEval::embedded(Variant::Classic).expect("embedded weights load");
        for seed in 1..200 {
            for (variant, own) in [(Variant::Modern, &modern), (Variant::Classic, &classic)] {
                let pos = random_position(seed, variant);
                let v = eval.evaluate(&pos);
                assert!(v.abs() <= EVAL_LIMIT);
                // Each variant is scored by its own set.
                assert_eq!(v, own.evaluate(&pos));
            }
        }
        // The two sets differ: a classic position past its free opening
        // reads differently under the modern set.
        let differ = (1..50).any(|seed| {
            let pos = random_position(seed, Variant::Classic);
            !pos.in_classic_opening() && eval.evaluate(&pos) != modern.evaluate(&pos)
        });
        assert!(differ, "classic positions are scored by the classic set");
        // The solver orders both variants by the fourth (classic) set.
        for seed in 1..50 {
            let pos = random_position(seed, Variant::Modern);
            assert_eq!(eval.order_evaluate(&pos), classic.evaluate(&pos));
            assert_eq!(modern.order_evaluate(&pos), modern.evaluate(&pos));
        }
        let extreme = PatternEval::new(&PatternWeights {
            set: pattern_set(),
            stages: 1,
            data: vec![i16::MAX; pattern_set().weights_per_stage()],
        });
        let start = Position::start(Variant::Modern, Color::Black);
        assert_eq!(extreme.evaluate(&start), EVAL_LIMIT);
    }
}
