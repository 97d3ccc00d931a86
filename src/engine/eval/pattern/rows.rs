//! Instance indices for the browser build (WebAssembly `simd128`, no
//! `pext`): eight instances to a vector of `u16` lanes, summed from one table
//! row per board row and colour.

use super::features::{count_weights, features};
use super::set::{stage_of, Instance, PatternSet, GLOBALS, MAX_INSTANCES};
use super::PatternEval;
use crate::rules::lanes::U16x8;
use crate::rules::position::Position;

/// Instances a vector holds.
pub(super) const LANES: usize = 8;

/// The table [`indices`] reads: for board row `r`, byte `b` (a colour's discs
/// in that row) and group of [`LANES`] instances `c`, entry
/// `(r * 256 + b) * groups + c` holds each instance's sum of the digit weights
/// `3^(len - 1 - k)` of its squares in `b` (`k`: the square's place in digit
/// order). An instance's index is then the sum over rows of the side to
/// move's entries plus twice the opponent's; every index is below `3^10`,
/// so `u16` lanes hold it. 8 x 256 x 6 entries of 16 bytes for 46 instances.
pub(super) fn row_values(instances: &[Instance]) -> Vec<[u16; LANES]> {
    let groups = instances.len().div_ceil(LANES);
    let mut t = vec![[0u16; LANES]; 8 * 256 * groups];
    for (i, inst) in instances.iter().enumerate() {
        for (k, &q) in inst.squares[..inst.len].iter().enumerate() {
            let w = 3u16.pow((inst.len - 1 - k) as u32);
            let (r, col) = (q as usize / 8, q as usize % 8);
            for b in (0..256).filter(|b| b >> col & 1 == 1) {
                t[(r * 256 + b) * groups + i / LANES][i % LANES] += w;
            }
        }
    }
    t
}

/// Every instance's configuration index, [`LANES`] to an array (the last
/// group's spare lanes hold 0).
#[inline(always)]
fn indices(set: &PatternSet, pos: &Position) -> [[u16; LANES]; MAX_INSTANCES / LANES] {
    let t = &set.row_values[..];
    let groups = t.len() / (8 * 256);
    let mut out = [[0u16; LANES]; MAX_INSTANCES / LANES];
    let (p, o) = (pos.player.to_le_bytes(), pos.opponent.to_le_bytes());
    for (c, out) in out[..groups].iter_mut().enumerate() {
        let (mut mine, mut theirs) = (U16x8::zero(), U16x8::zero());
        for r in 0..8 {
            let (at_p, at_o) = (
                (r * 256 + p[r] as usize) * groups + c,
                (r * 256 + o[r] as usize) * groups + c,
            );
            debug_assert!(at_p.max(at_o) < t.len());
            // SAFETY: `r < 8`, a byte is below 256 and `c < groups`: within the 8 x 256 x groups entries.
            let (tp, to) = unsafe { (t.get_unchecked(at_p), t.get_unchecked(at_o)) };
            mine = mine.add(U16x8::load(tp));
            theirs = theirs.add(U16x8::load(to));
        }
        mine.add(theirs.shl(1)).store(out);
    }
    out
}

/// Same as `super::features::instance_indices_portable`.
pub(super) fn instance_indices(set: &PatternSet, pos: &Position, out: &mut [u32]) {
    let idx = indices(set, pos);
    for (i, o) in out[..set.instances.len()].iter_mut().enumerate() {
        *o = idx[i / LANES][i % LANES] as u32;
    }
}

/// Same as `PatternEval::raw_portable`.
pub(super) fn raw(eval: &PatternEval, pos: &Position) -> i32 {
    let set = eval.set;
    let discs = (pos.player | pos.opponent).count_ones();
    let s = stage_of(discs, eval.stages);
    let table = &eval.tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
    let idx = indices(set, pos);
    let mut sum = 0i32;
    for (i, l) in set.lookups.iter().enumerate() {
        let at = l.table as usize + idx[i / LANES][i % LANES] as usize;
        // `l.table` starts the pattern's `3^len` entries, and an index is below `3^len`.
        debug_assert!(at < table.len());
        // SAFETY: in bounds, as above.
        sum += unsafe { *table.get_unchecked(at) } as i32;
    }
    let f = features(pos);
    let gw = &eval.globals[s * GLOBALS..(s + 1) * GLOBALS];
    for (g, &w) in f.globals.iter().zip(gw) {
        sum += g * w as i32;
    }
    sum + count_weights(set, table, pos, &f)
}
