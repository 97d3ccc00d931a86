//! Move ordering: move lists with their children, square priors, fastest-first and parity.

use super::params::*;
use crate::engine::eval::Evaluator;
use crate::rules::bitboard::Bits;
use crate::rules::geometry::{odd_quadrants, CORNERS};
use crate::rules::position::Position;
use crate::rules::square::Square;

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
    items: [Candidate; MAX_MOVES],
}

const BLANK: Candidate = Candidate {
    sq: 0,
    score: 0,
    child: Position {
        player: 0,
        opponent: 0,
        side: crate::rules::color::Color::Black,
        variant: crate::rules::color::Variant::Modern,
        supply: [0, 0],
    },
};

impl MoveList {
    /// The moves of `pos` (bits of `moves`), unsorted, each with its child.
    #[inline]
    fn generate(pos: &Position, moves: u64) -> MoveList {
        let mut list = MoveList {
            len: 0,
            items: [BLANK; MAX_MOVES],
        };
        for i in Bits(moves) {
            list.items[list.len] = Candidate {
                sq: i as u8,
                score: 0,
                child: pos.play_unchecked(Square::from_index(i)),
            };
            list.len += 1;
        }
        list
    }

    /// Midgame order: TT move, then (deep nodes) the child's evaluation or
    /// (shallow nodes) fewest opponent replies, plus square priors.
    pub fn midgame(
        pos: &Position,
        moves: u64,
        tt_move: Option<u8>,
        depth: i32,
        eval: &dyn Evaluator,
        params: &Params,
    ) -> MoveList {
        let mut list = MoveList::generate(pos, moves);
        for c in list.items[..list.len].iter_mut() {
            c.score = if depth >= params.order_eval_depth {
                -eval.evaluate(&c.child) + SQUARE_PRIOR[c.sq as usize]
            } else {
                mobility_score(&c.child, params.order_mobility_weight) + SQUARE_PRIOR[c.sq as usize]
            };
            if Some(c.sq) == tt_move {
                c.score += ORDER_TT_BONUS;
            }
        }
        list.sort();
        list
    }

    /// Endgame order: TT move, then fastest first (fewest opponent replies), parity, priors.
    pub fn endgame(pos: &Position, moves: u64, tt_move: Option<u8>) -> MoveList {
        let mut list = MoveList::generate(pos, moves);
        let odd = odd_quadrants(pos.empties());
        for c in list.items[..list.len].iter_mut() {
            c.score =
                mobility_score(&c.child, ORDER_MOBILITY_WEIGHT) + SQUARE_PRIOR[c.sq as usize] / 4;
            if odd >> c.sq & 1 != 0 {
                c.score += ORDER_PARITY_BONUS;
            }
            if Some(c.sq) == tt_move {
                c.score += ORDER_TT_BONUS;
            }
        }
        list.sort();
        list
    }

    /// Insertion sort, best first: lists are short.
    fn sort(&mut self) {
        let items = &mut self.items[..self.len];
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
        &self.items[..self.len]
    }
}

/// Fewer replies for the opponent (who moves in `child`) is better; corner replies count double.
#[inline]
fn mobility_score(child: &Position, weight: i32) -> i32 {
    let m = child.moves();
    -weight * (m.count_ones() + (m & CORNERS).count_ones()) as i32
}
