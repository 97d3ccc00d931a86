//! What the evaluation reads off a position: each instance's configuration
//! index square by square (the BMI2 way is in `fast`), the global features,
//! and the ternary board.

use super::set::{Count, PatternSet, GLOBALS};
use crate::rules::color::Variant;
use crate::rules::geometry::{corner_anchored, neighbours, odd_quadrants};
use crate::rules::position::Position;

/// Squares' ternary contents: 0 empty, 1 side to move, 2 opponent.
#[inline]
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
pub(super) fn ternary_board(pos: &Position) -> [u8; 64] {
    let mut t = [0u8; 64];
    let (p, o) = (pos.player, pos.opponent);
    for (i, v) in t.iter_mut().enumerate() {
        *v = ((p >> i) & 1) as u8 + 2 * ((o >> i) & 1) as u8;
    }
    t
}

/// [`super::instance_indices`] square by square, for CPUs without BMI2.
#[cfg_attr(
    all(target_arch = "wasm32", target_feature = "simd128"),
    allow(dead_code)
)]
pub(super) fn instance_indices_portable(set: &PatternSet, pos: &Position, out: &mut [u32]) {
    let t = ternary_board(pos);
    for (inst, o) in set.instances.iter().zip(out.iter_mut()) {
        let mut idx = 0u32;
        for &sq in &inst.squares[..inst.len] {
            idx = idx * 3 + t[sq as usize] as u32;
        }
        *o = idx;
    }
}

/// The global features of a position (integers; their weights are per stage).
#[inline]
pub fn global_features(pos: &Position) -> [i32; GLOBALS] {
    features(pos).globals
}

/// The global features and the counts that count tables read.
#[inline]
pub fn features(pos: &Position) -> Features {
    // SAFETY: with `FAST` false no CPU feature is needed.
    unsafe { features_with::<false>(pos) }
}

/// What the evaluation reads besides the patterns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// The global features, in [`super::set::GLOBAL_NAMES`] order.
    pub globals: [i32; GLOBALS],
    /// Legal moves of the side to move and of the opponent: the mobility
    /// term's parts, kept for the count tables.
    moves: (u32, u32),
    /// Empty squares next to the opponent's discs and next to the side to
    /// move's: the potential-mobility term's parts.
    potential: (u32, u32),
}

impl Features {
    /// The value of `count` for `pos`, whose features these are (not yet
    /// clamped to a table's size). The counts that are not the global
    /// terms' parts are computed here, for layouts that have their tables
    /// only, not with every evaluation.
    #[inline(always)]
    pub fn count(&self, count: Count, pos: &Position) -> u32 {
        match count {
            Count::MovesMine => self.moves.0,
            Count::MovesTheirs => self.moves.1,
            Count::PotentialMine => self.potential.0,
            Count::PotentialTheirs => self.potential.1,
            Count::AnchoredMine => corner_anchored(pos.player).count_ones(),
            Count::AnchoredTheirs => corner_anchored(pos.opponent).count_ones(),
            Count::DiscsMine => pos.player.count_ones(),
            Count::OddQuadrants => odd_quadrants(pos.empties()).count_ones() / 16,
        }
    }
}

/// Legal moves of the side to move, as `Position::moves` gives them (the
/// board decides the classic supplies and opening placements). With `FAST`,
/// from the AVX2 kernel.
///
/// # Safety
/// With `FAST` the CPU must support AVX2 (callers check `crate::rules::cpu::has_fast_bits`).
#[inline(always)]
unsafe fn side_moves<const FAST: bool>(pos: &Position) -> u64 {
    if let Some(m) = pos.classic_special_moves() {
        return m;
    }
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: the caller guarantees AVX2 when `FAST`.
        return unsafe { crate::rules::bitboard::avx2::moves(pos.player, pos.opponent) };
    }
    crate::rules::bitboard::moves(pos.player, pos.opponent)
}

/// [`features`]; with `FAST`, legal moves come from the AVX2 kernel.
///
/// # Safety
/// With `FAST` the CPU must support AVX2 (callers check `crate::rules::cpu::has_fast_bits`).
#[inline(always)]
pub(super) unsafe fn features_with<const FAST: bool>(pos: &Position) -> Features {
    // As through `Position::moves` (a classic side with an empty supply has no moves).
    // SAFETY: passed on from the caller.
    let (mine, theirs) = unsafe { (side_moves::<FAST>(pos), side_moves::<FAST>(&pos.pass())) };
    let (moves_mine, moves_theirs) = (mine.count_ones(), theirs.count_ones());
    let mobility = moves_mine as i32 - moves_theirs as i32;
    let e = pos.empty_count() as i32;
    let parity = if e & 1 == 1 { 1 } else { -1 };
    let empty = pos.empties();
    let potential_mine = (neighbours(pos.opponent) & empty).count_ones();
    let potential_theirs = (neighbours(pos.player) & empty).count_ones();
    let potential = potential_mine as i32 - potential_theirs as i32;
    let mut g = [mobility, potential, parity, 1, 0, 0, 0];
    if pos.variant == Variant::Classic {
        // Without passes the side to move places ceil(e/2) more discs, the other floor(e/2).
        let mine = pos.supply[pos.side.index()] as i32;
        let theirs = pos.supply[pos.side.other().index()] as i32;
        let short_mine = ((e + 1) / 2 - mine).max(0);
        let short_theirs = (e / 2 - theirs).max(0);
        g[4] = 1;
        g[5] = short_theirs - short_mine;
        g[6] = mine - theirs;
    }
    Features {
        globals: g,
        moves: (moves_mine, moves_theirs),
        potential: (potential_mine, potential_theirs),
    }
}

/// Each count table's entry for `pos` (`f` its features), as an offset
/// from `start`: the tables lie one after another from there.
#[inline(always)]
fn count_entries<'a>(
    set: &'a PatternSet,
    start: usize,
    pos: &'a Position,
    f: &'a Features,
) -> impl Iterator<Item = usize> + 'a {
    set.counts.iter().scan(start, move |at, &(count, _, size)| {
        let entry = *at + (f.count(count, pos) as usize).min(size - 1);
        *at += size;
        Some(entry)
    })
}

/// The weights of a layout's count tables for `pos`, from a stage's expanded table.
#[inline(always)]
pub(super) fn count_weights(set: &PatternSet, table: &[i16], pos: &Position, f: &Features) -> i32 {
    count_entries(set, set.count_full_offset, pos, f)
        .map(|i| table[i] as i32)
        .sum()
}

/// The compact weight slots of a layout's count tables for `pos` (in a
/// stage's weights, as [`super::PatternWeights`] lays them out): what `train` fits.
pub fn count_slots<'a>(
    set: &'a PatternSet,
    pos: &'a Position,
    f: &'a Features,
) -> impl Iterator<Item = usize> + 'a {
    count_entries(set, set.count_slot_offset, pos, f)
}
