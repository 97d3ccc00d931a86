//! Instance indices for the browser build (WebAssembly `simd128`, no
//! `pext`): eight instances to a vector of `u16` lanes, summed from one table
//! row per board row and colour.

use super::features::{count_weights, features};
use super::set::{stage_of, PatternSet, Weights, GLOBALS, LANES, MAX_INSTANCES};
use crate::rules::lanes::U16x8;
use crate::rules::position::Position;

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
pub(super) fn raw(weights: Weights<'_>, pos: &Position) -> i32 {
    let Weights {
        set,
        stages,
        tables,
        globals,
    } = weights;
    let discs = (pos.player | pos.opponent).count_ones();
    let s = stage_of(discs, stages);
    let table = &tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
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
    let gw = &globals[s * GLOBALS..(s + 1) * GLOBALS];
    for (g, &w) in f.globals.iter().zip(gw) {
        sum += g * w as i32;
    }
    sum + count_weights(set, table, pos, &f)
}
