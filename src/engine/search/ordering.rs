//! Move ordering: move lists with their children, square priors, fastest-first and parity.

use super::params::*;
use crate::engine::eval::Evaluator;
use crate::rules::bitboard::{self, Bits};
use crate::rules::geometry::{odd_quadrants, CORNERS};
use crate::rules::position::Position;
use crate::rules::square::Square;
use std::mem::MaybeUninit;

/// Static preference of each square, in ordering points: corners best,
/// X-squares and C-squares worst (they give corners away), edges fair.
#[rustfmt::skip]
pub const SQUARE_PRIOR: [i32; 64] = [
     60, -20,  10,   5,   5,  10, -20,  60,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
     10,  -5,   3,   1,   1,   3,  -5,  10,
      5,  -5,   1,   0,   0,   1,  -5,   5,
      5,  -5,   1,   0,   0,   1,  -5,   5,
     10,  -5,   3,   1,   1,   3,  -5,  10,
    -20, -40,  -5,  -5,  -5,  -5, -40, -20,
     60, -20,  10,   5,   5,  10, -20,  60,
];

/// A legal move with its resulting position and ordering score.
#[derive(Clone, Copy)]
pub struct Candidate {
    pub sq: u8,
    pub score: i32,
    pub child: Position,
}

/// Upper bound on legal moves (any 64-square board has fewer).
const MAX_MOVES: usize = 64;

/// The moves of one node, in the order they should be searched.
pub struct MoveList {
    len: usize,
    /// The first `len` are written. Left uninitialised: zeroing the 2.5 KB
    /// at every node showed in the midgame's profile (as in the solver).
    items: [MaybeUninit<Candidate>; MAX_MOVES],
}

impl MoveList {
    /// An empty list, to be filled in place by [`MoveList::fill_midgame`]
    /// or [`MoveList::fill_endgame`]: returning a filled 2.5 KB list by
    /// value copied it (self-play spent 1.5-2.8 % of its time in `memmove`).
    #[inline(always)]
    pub fn new() -> MoveList {
        MoveList {
            len: 0,
            items: [const { MaybeUninit::uninit() }; MAX_MOVES],
        }
    }

    /// Replaces the list with the moves of `pos` (bits of `moves`),
    /// unsorted, each with its child; `flips` gives the discs a move flips
    /// outside the classic opening.
    #[inline(always)]
    fn generate_with(&mut self, pos: &Position, moves: u64, flips: impl Fn(u64, u64, u32) -> u64) {
        self.len = 0;
        let opening = pos.in_classic_opening();
        for i in Bits(moves) {
            let f = if opening {
                0
            } else {
                flips(pos.player, pos.opponent, i)
            };
            self.items[self.len].write(Candidate {
                sq: i as u8,
                score: 0,
                child: pos.play_flipping(Square::from_index(i), f),
            });
            self.len += 1;
        }
    }

    /// Midgame order: TT move, then (deep nodes) the child's evaluation or
    /// (shallow nodes) fewest opponent replies, plus square priors. With
    /// `fast` (the CPU has AVX2 and BMI2: `Worker::fast_cpu`) the children
    /// and their replies come from the AVX2 move generator.
    #[allow(clippy::too_many_arguments)]
    pub fn fill_midgame(
        &mut self,
        pos: &Position,
        moves: u64,
        tt_move: Option<u8>,
        depth: i32,
        eval: &dyn Evaluator,
        params: &Params,
        fast: bool,
    ) {
        #[cfg(target_arch = "x86_64")]
        if fast {
            // SAFETY: `fast` is set only when the CPU has the features.
            return unsafe { midgame_fast(self, pos, moves, tt_move, depth, eval, params) };
        }
        let _ = fast;
        self.midgame_with(
            pos,
            moves,
            tt_move,
            depth,
            eval,
            params,
            bitboard::moves,
            bitboard::flips,
        )
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn midgame_with(
        &mut self,
        pos: &Position,
        moves: u64,
        tt_move: Option<u8>,
        depth: i32,
        eval: &dyn Evaluator,
        params: &Params,
        gen_moves: impl Fn(u64, u64) -> u64,
        flips: impl Fn(u64, u64, u32) -> u64,
    ) {
        self.generate_with(pos, moves, flips);
        for c in self.slice_mut() {
            c.score = if depth >= params.order_eval_depth {
                -eval.evaluate(&c.child) + SQUARE_PRIOR[c.sq as usize]
            } else {
                let m = c
                    .child
                    .classic_special_moves()
                    .unwrap_or_else(|| gen_moves(c.child.player, c.child.opponent));
                mobility_score(m, params.order_mobility_weight) + SQUARE_PRIOR[c.sq as usize]
            };
            if Some(c.sq) == tt_move {
                c.score += ORDER_TT_BONUS;
            }
        }
        self.sort();
    }

    /// Endgame order: TT move, then fastest first (fewest opponent replies), parity, priors.
    pub fn fill_endgame(&mut self, pos: &Position, moves: u64, tt_move: Option<u8>) {
        self.generate_with(pos, moves, bitboard::flips);
        let odd = odd_quadrants(pos.empties());
        for c in self.slice_mut() {
            c.score = mobility_score(c.child.moves(), ORDER_MOBILITY_WEIGHT)
                + SQUARE_PRIOR[c.sq as usize] / 4;
            if odd >> c.sq & 1 != 0 {
                c.score += ORDER_PARITY_BONUS;
            }
            if Some(c.sq) == tt_move {
                c.score += ORDER_TT_BONUS;
            }
        }
        self.sort();
    }

    fn slice_mut(&mut self) -> &mut [Candidate] {
        // SAFETY: the first `len` items were written by `generate_with`.
        unsafe {
            std::slice::from_raw_parts_mut(self.items.as_mut_ptr() as *mut Candidate, self.len)
        }
    }

    /// Insertion sort, best first: lists are short.
    fn sort(&mut self) {
        let items = self.slice_mut();
        for i in 1..items.len() {
            let c = items[i];
            let mut j = i;
            while j > 0 && items[j - 1].score < c.score {
                items[j] = items[j - 1];
                j -= 1;
            }
            items[j] = c;
        }
    }

    pub fn as_slice(&self) -> &[Candidate] {
        // SAFETY: the first `len` items were written by `generate_with`.
        unsafe { std::slice::from_raw_parts(self.items.as_ptr() as *const Candidate, self.len) }
    }
}

/// [`MoveList::fill_midgame`] compiled for AVX2 and BMI2: the closures inherit
/// the features, so both kernels inline into the loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
unsafe fn midgame_fast(
    list: &mut MoveList,
    pos: &Position,
    moves: u64,
    tt_move: Option<u8>,
    depth: i32,
    eval: &dyn Evaluator,
    params: &Params,
) {
    list.midgame_with(
        pos,
        moves,
        tt_move,
        depth,
        eval,
        params,
        // SAFETY (both): this function runs only on CPUs with the features.
        |p, o| unsafe { bitboard::avx2::moves(p, o) },
        |p, o, sq| unsafe { bitboard::avx2::flips(p, o, sq) },
    )
}

/// Fewer replies (`replies`, the opponent's moves in the child) is better; corner replies count double.
#[inline]
fn mobility_score(replies: u64, weight: i32) -> i32 {
    -weight * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
}
