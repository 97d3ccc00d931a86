//! The evaluation and instance indices with BMI2 `pext` (one gather per
//! instance and colour, then two lookups in [`super::PatternSet::digit_values`]),
//! POPCNT and the AVX2 move generator. Only called after the run-time check
//! in `crate::rules::cpu`.

use super::features::{count_weights, features_with};
use super::set::{stage_of, Lookup, PatternSet, Weights, GLOBALS};
use crate::rules::position::Position;
use std::arch::x86_64::_pext_u64;

/// The instance's configuration index, in digit order (below `3^len`).
///
/// # Safety
/// The CPU must support BMI2.
#[inline]
#[target_feature(enable = "bmi2")]
unsafe fn index(digits: &[u16], l: &Lookup, player: u64, opponent: u64) -> usize {
    let (p, o) = (_pext_u64(player, l.mask), _pext_u64(opponent, l.mask));
    // A gather from a mask of `len` squares is below `2^len`, and `build`
    // gives every instance `2^len` entries from `l.digits`.
    debug_assert!(l.digits as usize + (p.max(o) as usize) < digits.len());
    // SAFETY: in bounds, as above.
    unsafe {
        *digits.get_unchecked(l.digits as usize + p as usize) as usize
            + 2 * *digits.get_unchecked(l.digits as usize + o as usize) as usize
    }
}

/// Same as `super::features::instance_indices_portable`.
///
/// # Safety
/// The CPU must support BMI2 (callers check `crate::rules::cpu::has_fast_bits`).
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
pub unsafe fn instance_indices(set: &PatternSet, pos: &Position, out: &mut [u32]) {
    for (l, o) in set.lookups.iter().zip(out.iter_mut()) {
        *o = index(&set.digit_values, l, pos.player, pos.opponent) as u32;
    }
}

/// Same as `PatternEval::raw_portable`.
///
/// # Safety
/// The CPU must support popcnt, lzcnt, BMI1, BMI2 and AVX2 (callers check
/// `crate::rules::cpu::has_fast_bits`).
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
pub unsafe fn raw(weights: Weights<'_>, pos: &Position) -> i32 {
    let Weights {
        set,
        stages,
        tables,
        globals,
    } = weights;
    let discs = (pos.player | pos.opponent).count_ones();
    let s = stage_of(discs, stages);
    let table = &tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
    let mut sum = 0i32;
    for l in &set.lookups {
        let idx = l.table as usize + index(&set.digit_values, l, pos.player, pos.opponent);
        // `l.table` starts the pattern's `3^len` entries in a stage's table.
        debug_assert!(idx < table.len());
        // SAFETY: `index` is below `3^len`, so in bounds, as above.
        sum += unsafe { *table.get_unchecked(idx) } as i32;
    }
    let f = features_with::<true>(pos);
    let gw = &globals[s * GLOBALS..(s + 1) * GLOBALS];
    for (g, &w) in f.globals.iter().zip(gw) {
        sum += g * w as i32;
    }
    sum + count_weights(set, table, pos, &f)
}
