//! Perft: leaves of the game tree to a fixed number of plies.
//!
//! A pass is a ply; a finished game is one leaf, whatever depth remains
//! (the convention of `RULES.md`).

use crate::bitboard::Bits;
use crate::board::Position;
use crate::square::Square;

/// Counts the leaves below `pos` at `depth` plies.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves();
    if moves == 0 {
        let passed = pos.pass();
        if passed.moves() == 0 {
            return 1;
        }
        return perft(&passed, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    Bits(moves)
        .map(|i| perft(&pos.play_unchecked(Square::from_index(i)), depth - 1))
        .sum()
}
