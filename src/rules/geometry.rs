//! Bitboard features the evaluation and move ordering share: regions, neighbours, stable discs.

pub const CORNERS: u64 = 0x8100_0000_0000_0081;
pub const COL_A: u64 = 0x0101_0101_0101_0101;
pub const COL_H: u64 = 0x8080_8080_8080_8080;
pub const ROW_1: u64 = 0x0000_0000_0000_00FF;
pub const ROW_8: u64 = 0xFF00_0000_0000_0000;
pub const BORDER: u64 = COL_A | COL_H | ROW_1 | ROW_8;

/// Corner index -> (corner, its X-square, its two C-squares).
pub const CORNER_REGIONS: [(u64, u64, u64); 4] = [
    (1 << 0, 1 << 9, (1 << 1) | (1 << 8)),
    (1 << 7, 1 << 14, (1 << 6) | (1 << 15)),
    (1 << 56, 1 << 49, (1 << 57) | (1 << 48)),
    (1 << 63, 1 << 54, (1 << 62) | (1 << 55)),
];

/// The four 4x4 quadrants, used for parity.
pub const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// Squares next to any disc of `b` (in all eight directions).
#[inline]
pub fn neighbours(b: u64) -> u64 {
    let h = ((b << 1) & !COL_A) | ((b >> 1) & !COL_H);
    let hb = b | h;
    h | (hb << 8) | (hb >> 8)
}

/// The corners of `b` and its discs beside one of them along an edge: a
/// cheap count of discs that cannot be flipped (the exact solver orders by it).
#[inline]
pub fn corner_anchored(b: u64) -> u64 {
    let beside = ((b & 0x0100_0000_0000_0001) << 1)
        | ((b & 0x8000_0000_0000_0080) >> 1)
        | ((b & 0x0000_0000_0000_0081) << 8)
        | ((b & 0x8100_0000_0000_0000) >> 8);
    (beside | CORNERS) & b
}

/// Union of the quadrants holding an odd number of empty squares.
#[inline]
pub fn odd_quadrants(empties: u64) -> u64 {
    let mut m = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            m |= q;
        }
    }
    m
}

/// Squares whose line is full along each axis: (horizontal, vertical, a1-h8 diagonal, h1-a8 diagonal).
///
/// Branch-free: a row (column) is full when its eight bits AND together; a
/// diagonal is full when no empty square spreads along it (each empty square
/// is smeared both ways along the diagonal by shifts of 1, 2 and 4 steps).
#[inline]
fn full_lines(occupied: u64) -> (u64, u64, u64, u64) {
    const NOT_A: u64 = !COL_A;
    const NOT_AB: u64 = !(COL_A | COL_A << 1);
    const NOT_AD: u64 = !(COL_A * 0xF);
    const NOT_H: u64 = !COL_H;
    const NOT_GH: u64 = !(COL_H | COL_H >> 1);
    const NOT_EH: u64 = !(COL_A * 0xF0);
    let mut h = occupied & (occupied >> 4);
    h &= h >> 2;
    h &= h >> 1;
    let rows = (h & COL_A) * 0xFF;
    let mut v = occupied & (occupied >> 32);
    v &= v >> 16;
    v &= v >> 8;
    let cols = (v & ROW_1) * COL_A;
    let empty = !occupied;
    // a1-h8: +9 is one column right (a wrap lands in column A), -9 one left.
    let mut e9 = empty;
    e9 |= (e9 << 9) & NOT_A;
    e9 |= (e9 << 18) & NOT_AB;
    e9 |= (e9 << 36) & NOT_AD;
    e9 |= (e9 >> 9) & NOT_H;
    e9 |= (e9 >> 18) & NOT_GH;
    e9 |= (e9 >> 36) & NOT_EH;
    // h1-a8: +7 is one column left (a wrap lands in column H), -7 one right.
    let mut e7 = empty;
    e7 |= (e7 << 7) & NOT_H;
    e7 |= (e7 << 14) & NOT_GH;
    e7 |= (e7 << 28) & NOT_EH;
    e7 |= (e7 >> 7) & NOT_A;
    e7 |= (e7 >> 14) & NOT_AB;
    e7 |= (e7 >> 28) & NOT_AD;
    (rows, cols, !e9, !e7)
}

/// The discs of one edge (8 squares, bit `k` the `k`-th square along it)
/// that no sequence of placements on the edge can flip, for every edge
/// `(mine, theirs)`: `EDGE_STABLE[mine << 8 | theirs]` (64 KB, built on
/// first use). A placement may flip nothing along the edge (its flips can be
/// off the edge), so every empty square is tried for both colours.
fn edge_stable_table() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Box<[u8]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        // 0xFFFF: not yet computed (an entry is a mask of at most 8 bits).
        let mut memo = vec![0xFFFFu16; 1 << 16];
        for mine in 0..256u32 {
            for theirs in 0..256u32 {
                if mine & theirs == 0 {
                    edge_stable(mine as u8, theirs as u8, &mut memo);
                }
            }
        }
        memo.iter()
            .map(|&m| if m == 0xFFFF { 0 } else { m as u8 })
            .collect()
    })
}

/// Edge stability by exhaustion, memoised: the occupied squares that keep
/// their colour after every placement on an empty square, by either side.
fn edge_stable(mine: u8, theirs: u8, memo: &mut [u16]) -> u8 {
    let key = (mine as usize) << 8 | theirs as usize;
    if memo[key] != 0xFFFF {
        return memo[key] as u8;
    }
    // On a board holding only row 1, `flips` flips along that row alone.
    let flips =
        |me: u8, them: u8, x: u32| crate::rules::bitboard::flips(me as u64, them as u64, x) as u8;
    let mut stable = mine | theirs;
    for x in (0..8).filter(|&x| (mine | theirs) >> x & 1 == 0) {
        let f = flips(mine, theirs, x);
        stable &= !f & edge_stable(mine | f | 1 << x, theirs & !f, memo);
        let f = flips(theirs, mine, x);
        stable &= !f & edge_stable(mine & !f, theirs | f | 1 << x, memo);
    }
    memo[key] = stable as u16;
    stable
}

/// Column A's squares as the bits of one byte (bit `k`: row `k + 1`).
#[inline(always)]
fn gather_col_a(b: u64) -> u64 {
    ((b & COL_A).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The inverse of [`gather_col_a`] (a multiplication would carry: bits 0
/// and 7 meet at square 7).
#[inline(always)]
fn scatter_col_a(m: u64) -> u64 {
    const SCATTER: [u64; 256] = {
        let mut t = [0u64; 256];
        let mut m = 0;
        while m < 256 {
            let mut k = 0;
            while k < 8 {
                if m >> k & 1 == 1 {
                    t[m] |= 1 << (8 * k);
                }
                k += 1;
            }
            m += 1;
        }
        t
    };
    SCATTER[m as usize & 0xFF]
}

/// The discs of `p` on the four edges that no placement can flip (exact for
/// each edge: an edge disc can be flipped only along its edge).
#[inline]
pub fn edge_stable_discs(p: u64, o: u64) -> u64 {
    let t = edge_stable_table();
    let at = |mine: u64, theirs: u64| t[(mine as usize) << 8 | theirs as usize] as u64;
    let row1 = at(p & 0xFF, o & 0xFF);
    let row8 = at(p >> 56, o >> 56);
    let col_a = at(gather_col_a(p), gather_col_a(o));
    let col_h = at(gather_col_a(p >> 7), gather_col_a(o >> 7));
    p & (row1 | row8 << 56 | scatter_col_a(col_a) | scatter_col_a(col_h) << 7)
}

/// Discs of `p` that can never be flipped: the edges' exactly stable discs
/// ([`edge_stable_discs`]), then by contact: a disc is stable when along
/// each of the four axes its line is full or one neighbour is the board's
/// edge or a stable disc of its own colour. A lower bound on true stability.
pub fn stable_discs(p: u64, o: u64) -> u64 {
    let edges = edge_stable_discs(p, o);
    let (fh, fv, f9, f7) = full_lines(p | o);
    // Per-axis conditions that do not depend on the stable set found so far.
    let (base_h, base_v, base_9, base_7) = (
        fh | COL_A | COL_H,
        fv | ROW_1 | ROW_8,
        f9 | BORDER,
        f7 | BORDER,
    );
    let mut stable = edges;
    loop {
        let h = base_h | ((stable << 1) & !COL_A) | ((stable >> 1) & !COL_H);
        let v = base_v | (stable << 8) | (stable >> 8);
        let d9 = base_9 | ((stable << 9) & !COL_A) | ((stable >> 9) & !COL_H);
        let d7 = base_7 | ((stable << 7) & !COL_H) | ((stable >> 7) & !COL_A);
        let next = edges | (p & h & v & d9 & d7);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::rules::bitboard::{self, symmetry};

    #[test]
    fn corner_anchored_discs_are_corners_and_their_edge_neighbours() {
        let sq = |c: u32, r: u32| 1u64 << (r * 8 + c);
        // a1 with b1, a2 (anchored) and b2 (not on an edge); b8 without a8 (not anchored).
        let b = sq(0, 0) | sq(1, 0) | sq(0, 1) | sq(1, 1) | sq(1, 7);
        assert_eq!(corner_anchored(b), sq(0, 0) | sq(1, 0) | sq(0, 1));
        // Every corner with both edge neighbours: 12 discs; the same is true of each image.
        let all = CORNERS
            | sq(1, 0)
            | sq(0, 1)
            | sq(6, 0)
            | sq(7, 1)
            | sq(0, 6)
            | sq(1, 7)
            | sq(7, 6)
            | sq(6, 7);
        assert_eq!(corner_anchored(all), all);
        let mut rng = Rng::new(7);
        for _ in 0..1000 {
            let b = rng.next_u64();
            for s in 0..8 {
                assert_eq!(
                    corner_anchored(symmetry(b, s)),
                    symmetry(corner_anchored(b), s)
                );
            }
            // Only the squares beside a corner that is the disc's own count.
            assert_eq!(corner_anchored(b & !CORNERS), 0);
        }
    }

    /// The masks of the 38 lines of length >= 2: 8 rows, 8 columns, 11 + 11 diagonals.
    struct Lines {
        rows: [u64; 8],
        cols: [u64; 8],
        diag9: [u64; 15],
        diag7: [u64; 15],
    }

    const fn make_lines() -> Lines {
        let mut l = Lines {
            rows: [0; 8],
            cols: [0; 8],
            diag9: [0; 15],
            diag7: [0; 15],
        };
        let mut sq = 0;
        while sq < 64 {
            let (c, r) = (sq % 8, sq / 8);
            l.rows[r] |= 1 << sq;
            l.cols[c] |= 1 << sq;
            l.diag9[c + 7 - r] |= 1 << sq;
            l.diag7[c + r] |= 1 << sq;
            sq += 1;
        }
        l
    }

    static LINES: Lines = make_lines();

    /// [`full_lines`] the slow way, one line mask at a time.
    fn full_lines_by_mask(occupied: u64) -> (u64, u64, u64, u64) {
        let full = |masks: &[u64]| {
            masks
                .iter()
                .filter(|&&m| occupied & m == m)
                .fold(0, |a, &m| a | m)
        };
        (
            full(&LINES.rows),
            full(&LINES.cols),
            full(&LINES.diag9),
            full(&LINES.diag7),
        )
    }

    #[test]
    fn full_lines_match_the_line_masks() {
        let mut rng = Rng::new(1);
        for i in 0..20000 {
            let x = rng.next_u64();
            // Mostly full boards, where full lines are common.
            let holes = if i % 2 == 0 {
                x & (x >> 11) & (x >> 23)
            } else {
                x & (x >> 5)
            };
            let occ = !holes;
            assert_eq!(full_lines(occ), full_lines_by_mask(occ), "{occ:#x}");
        }
    }

    #[test]
    fn a_lone_corner_is_stable_and_an_edge_run_from_it_too() {
        // a1 b1 c1 for the player, d1 for the opponent, e1 empty.
        let p = 0b111;
        let o = 0b1000;
        assert_eq!(stable_discs(p, o), 0b111);
        // The opponent's d1 can be flipped from e1: not stable.
        assert_eq!(stable_discs(o, p), 0);
    }

    #[test]
    fn columns_gather_and_scatter_back() {
        let mut rng = Rng::new(3);
        for _ in 0..1000 {
            let b = rng.next_u64();
            assert_eq!(scatter_col_a(gather_col_a(b)), b & COL_A);
            assert_eq!(scatter_col_a(gather_col_a(b >> 7)) << 7, b & COL_H);
        }
    }

    #[test]
    fn edge_stability_is_exact_on_known_edges_and_never_wrong() {
        // x o x x x x x _ (a1 first): o's b1 is bracketed by x but nothing
        // can flip it (contact alone does not see it); x's c1-g1 fall to o at h1.
        let (x, o) = (0b0111_1101u64, 0b0000_0010u64);
        assert_eq!(edge_stable_discs(o, x), 0b10);
        assert_eq!(edge_stable_discs(x, o), 0b1);
        assert_eq!(stable_discs(o, x) & 0xFF, 0b10);
        // No disc called stable is ever flipped by random placements on its
        // edge (either colour, flipping along the edge), from random edges.
        let mut rng = Rng::new(7);
        for _ in 0..20000 {
            let (a, b) = (rng.next_u64() as u8, rng.next_u64() as u8);
            let (mut mine, mut theirs) = (a & !b, b & !a);
            let stable_mine = edge_stable_discs(mine as u64, theirs as u64) as u8;
            let stable_theirs = edge_stable_discs(theirs as u64, mine as u64) as u8;
            while mine | theirs != 0xFF {
                let empties = !(mine | theirs);
                let x = (0..8)
                    .filter(|k| empties >> k & 1 == 1)
                    .nth(rng.below(empties.count_ones() as u64) as usize)
                    .unwrap();
                let line_flips =
                    |me: u8, them: u8| bitboard::flips(me as u64, them as u64, x) as u8;
                if rng.below(2) == 0 {
                    let f = line_flips(mine, theirs);
                    mine |= f | 1 << x;
                    theirs &= !f;
                } else {
                    let f = line_flips(theirs, mine);
                    theirs |= f | 1 << x;
                    mine &= !f;
                }
                assert_eq!(mine & stable_mine, stable_mine, "{a:08b} {b:08b}");
                assert_eq!(theirs & stable_theirs, stable_theirs, "{a:08b} {b:08b}");
            }
        }
    }

    #[test]
    fn full_board_is_all_stable_and_symmetric() {
        let p = 0x0F0F_0F0F_0F0F_0F0Fu64;
        assert_eq!(stable_discs(p, !p), p);
        let (pp, oo) = (0x0000_0000_0000_0307u64, 0x0000_0000_0000_0408u64);
        let s = stable_discs(pp, oo);
        for i in 0..8 {
            assert_eq!(
                stable_discs(symmetry(pp, i), symmetry(oo, i)),
                symmetry(s, i)
            );
        }
    }
}
