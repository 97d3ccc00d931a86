//! Perft: leaves of the game tree to a fixed number of plies.
//!
//! A pass is a ply; a finished game is one leaf, whatever depth remains
//! (the convention of `RULES.md`). Modern positions take a fast path over
//! raw bitboards, compiled twice: once for CPUs with `popcnt`/`lzcnt`/BMI
//! and AVX2 (chosen at run time) and once portably. Classic positions, whose moves
//! depend on supplies and the opening placements, use the general rules.

use crate::rules::bitboard::{self, Bits};
use crate::rules::color::Variant;
use crate::rules::position::Position;
use crate::rules::square::Square;

/// Counts the leaves below `pos` at `depth` plies.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if pos.variant == Variant::Modern {
        return perft_modern(pos.player, pos.opponent, depth);
    }
    perft_general(pos, depth)
}

fn perft_general(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.moves();
    if moves == 0 {
        let passed = pos.pass();
        if passed.moves() == 0 {
            return 1;
        }
        return perft_general(&passed, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    Bits(moves)
        .map(|i| perft_general(&pos.play_unchecked(Square::from_index(i)), depth - 1))
        .sum()
}

/// Modern perft on (player, opponent) discs, with the CPU's best instructions.
pub fn perft_modern(player: u64, opponent: u64, depth: u32) -> u64 {
    if crate::rules::cpu::has_fast_bits() {
        // SAFETY: the CPU supports the features `raw_fast` is compiled for.
        #[cfg(target_arch = "x86_64")]
        return unsafe { raw_fast(player, opponent, depth) };
    }
    // SAFETY: no target features required.
    unsafe { raw_portable(player, opponent, depth) }
}

/// Leaves two plies below (p, o), whose moves are `moves`. Most of the tree's
/// nodes are the children here: a loop counts their moves, with no call per
/// node. A macro so that both uses are inlined (a closure or an `#[inline]`
/// function with target features stays a call).
macro_rules! two_plies {
    ($moves:path, $reply_moves:path, $p:expr, $o:expr, $moves_bb:expr) => {{
        let (p, o, moves): (u64, u64, u64) = ($p, $o, $moves_bb);
        if moves == 0 {
            // A pass, then the opponent's moves; or a finished game, one leaf.
            ($moves(o, p).count_ones() as u64).max(1)
        } else {
            let mut n = 0;
            for sq in Bits(moves) {
                n += ($reply_moves(p, o, sq).count_ones() as u64).max(1);
            }
            n
        }
    }};
}

macro_rules! perft_raw {
    ($name:ident, $moves:path, $flips:path, $reply_moves:path $(, $feat:literal)?) => {
        $(#[target_feature(enable = $feat)])?
        unsafe fn $name(p: u64, o: u64, depth: u32) -> u64 {
            if depth == 0 {
                return 1;
            }
            let moves = $moves(p, o);
            if depth == 1 {
                // No move is one leaf either way: a finished game, or a pass as the last ply.
                return (moves.count_ones() as u64).max(1);
            }
            if depth == 2 {
                return two_plies!($moves, $reply_moves, p, o, moves);
            }
            if moves == 0 {
                if $moves(o, p) == 0 {
                    return 1;
                }
                return $name(o, p, depth - 1);
            }
            let mut n = 0;
            for sq in Bits(moves) {
                let f = $flips(p, o, sq);
                let (p, o) = (o & !f, p | f | 1u64 << sq);
                n += if depth == 3 {
                    two_plies!($moves, $reply_moves, p, o, $moves(p, o))
                } else {
                    $name(p, o, depth - 1)
                };
            }
            n
        }
    };
}

perft_raw!(
    raw_portable,
    bitboard::moves,
    bitboard::flips,
    bitboard::reply_moves
);
#[cfg(target_arch = "x86_64")]
perft_raw!(
    raw_fast,
    bitboard::avx2::moves,
    bitboard::avx2::flips,
    bitboard::avx2::reply_moves,
    "popcnt,lzcnt,bmi1,bmi2,avx2"
);

/// The portable path, for tests on any CPU.
pub fn perft_modern_portable(player: u64, opponent: u64, depth: u32) -> u64 {
    // SAFETY: no target features required.
    unsafe { raw_portable(player, opponent, depth) }
}

/// [`perft`], but `stop` ends it (`None`) between subtrees of depth 6: the
/// protocol's `perft`, which `stop` interrupts.
pub fn perft_stoppable(
    pos: &Position,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<u64> {
    if depth <= 6 {
        return Some(perft(pos, depth));
    }
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(1);
    }
    let mut leaves = 0;
    for mv in moves {
        leaves += perft_stoppable(&pos.play(mv)?, depth - 1, stop)?;
    }
    Some(leaves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::Color;

    #[test]
    fn stoppable_perft_agrees() {
        let never = std::sync::atomic::AtomicBool::new(false);
        for variant in [Variant::Modern, Variant::Classic] {
            let pos = Position::start(variant, Color::Black);
            for depth in [0, 1, 7, 8] {
                assert_eq!(
                    perft_stoppable(&pos, depth, &never),
                    Some(perft(&pos, depth))
                );
            }
        }
        let stopped = std::sync::atomic::AtomicBool::new(true);
        assert_eq!(
            perft_stoppable(&Position::start(Variant::Modern, Color::Black), 9, &stopped),
            None
        );
    }
}
