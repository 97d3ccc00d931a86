//! Bitboard primitives: legal-move generation, flips and the eight symmetries.
//!
//! Bit `i` is square `i` (a1 = 0, h1 = 7, h8 = 63). Directions are shifts:
//! ±1 along a row, ±8 along a column, ±7 and ±9 along the diagonals. Masks on
//! the opponent's discs stop runs from wrapping across the board's edge.

const NOT_EDGE_COLS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// (shift, mask applied to the opponent's discs) for the four axes.
const AXES: [(u32, u64); 4] = [
    (1, NOT_EDGE_COLS),
    (8, u64::MAX),
    (7, NOT_EDGE_COLS),
    (9, NOT_EDGE_COLS),
];

/// Squares where `player` may move against `opponent` (Othello bracketing rule).
#[inline(always)]
pub fn moves(player: u64, opponent: u64) -> u64 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return moves_x2(player, opponent);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    moves_scalar(player, opponent)
}

/// [`moves`] on `u64`s, one axis after another.
#[inline(always)]
pub fn moves_scalar(player: u64, opponent: u64) -> u64 {
    let empty = !(player | opponent);
    let mut moves = 0;
    for &(s, mask) in &AXES {
        let o = opponent & mask;
        // Up to six opponent discs can lie between a move and a bracketing disc.
        let mut f = o & (player << s);
        f |= o & (f << s);
        let pre = o & (o << s);
        f |= pre & (f << (2 * s));
        f |= pre & (f << (2 * s));
        moves |= f << s;

        let mut f = o & (player >> s);
        f |= o & (f >> s);
        let pre = o & (o >> s);
        f |= pre & (f >> (2 * s));
        f |= pre & (f >> (2 * s));
        moves |= f >> s;
    }
    moves & empty
}

/// [`moves`] for WebAssembly `simd128` (the browser build has no AVX2):
/// lane 0 holds the board, lane 1 its mirror top to bottom, where a shift up
/// the board is a shift down the real one. So the shifts by 8, 7 and 9 serve
/// six directions (+8 and -8, +7 and -9, +9 and -7), Kogge-Stone style as
/// Edax's SSE code does; the row's two directions stay on `u64`s.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub fn moves_x2(player: u64, opponent: u64) -> u64 {
    use super::lanes::X2;
    let p = X2::mirrored(player);
    let o = X2::mirrored(opponent);
    let o_inner = o.and(X2::splat(NOT_EDGE_COLS));
    let mut vertical = X2::splat(0);
    for (s, o) in [(8, o), (7, o_inner), (9, o_inner)] {
        let mut f = o.and(p.shl(s));
        f = f.or(o.and(f.shl(s)));
        let pre = o.and(o.shl(s));
        f = f.or(pre.and(f.shl(2 * s)));
        f = f.or(pre.and(f.shl(2 * s)));
        vertical = vertical.or(f.shl(s));
    }
    let o = opponent & NOT_EDGE_COLS;
    let mut l = o & (player << 1);
    let mut r = o & (player >> 1);
    l |= o & (l << 1);
    r |= o & (r >> 1);
    let pre_l = o & (o << 1);
    let pre_r = pre_l >> 1;
    l |= pre_l & (l << 2);
    r |= pre_r & (r >> 2);
    l |= pre_l & (l << 2);
    r |= pre_r & (r >> 2);
    // Lane 1 mirrored back before the lanes are joined.
    (vertical.mirror_high().or_lanes() | l << 1 | r >> 1) & !(player | opponent)
}

/// Rays from each square: `[sq][d]` for the directions of `DIRS`, the square itself excluded.
/// The first four point towards higher bits, the last four towards lower bits.
static RAYS: [[u64; 8]; 64] = make_rays();

/// (column step, row step) of the eight directions: E, N, NE, NW, then W, S, SW, SE.
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

const fn make_rays() -> [[u64; 8]; 64] {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dc, dr) = DIRS[d];
            let (mut c, mut r) = ((sq % 8) as i32 + dc, (sq / 8) as i32 + dr);
            let mut m = 0u64;
            while c >= 0 && c < 8 && r >= 0 && r < 8 {
                m |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            rays[sq][d] = m;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Discs of `opponent` flipped when `player` places on square `sq` (0 when none).
///
/// Per direction: the first square of the ray that is not the opponent's
/// (lowest bit for rays towards higher bits, highest bit for the others) is
/// the outflanking square; if the player holds it, the ray's squares before
/// it flip. Branch-free; `leading_zeros` is one instruction with `lzcnt`.
#[inline(always)]
pub fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    return flips_x2(player, opponent, sq);
    #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
    flips_scalar(player, opponent, sq)
}

/// [`flips`] on `u64`s, one ray after another.
#[inline(always)]
pub fn flips_scalar(player: u64, opponent: u64, sq: u32) -> u64 {
    let rays = &RAYS[sq as usize];
    let mut flipped = 0;
    for &mask in &rays[..4] {
        let e = mask & !opponent;
        let out = e & e.wrapping_neg() & player;
        flipped |= out.wrapping_sub((out != 0) as u64) & mask;
    }
    for &mask in &rays[4..] {
        let e = mask & !opponent;
        // `| 1` keeps the shift in range; a fake bit 0 outside the ray is masked off.
        let out = (0x8000_0000_0000_0000u64 >> (e | 1).leading_zeros()) & player & mask;
        flipped |= out.wrapping_neg().wrapping_shl(1) & mask;
    }
    flipped
}

/// [`flips`] for WebAssembly `simd128`: as [`moves_x2`], lane 1 holds the
/// board mirrored top to bottom, where the rays S, SE and SW from `sq` are the
/// rays N, NE and NW from `sq ^ 56`; so six rays take the lowest-bit way of
/// the rays towards higher bits, two to a vector. The row's two stay on `u64`s.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
#[inline(always)]
pub fn flips_x2(player: u64, opponent: u64, sq: u32) -> u64 {
    use super::lanes::X2;
    let rays = &RAYS_X2[sq as usize];
    let (p, o) = (X2::mirrored(player), X2::mirrored(opponent));
    let mut f = X2::splat(0);
    for ray in rays {
        let mask = X2::load(ray);
        let e = mask.and_not(o);
        let out = e.and(e.neg()).and(p);
        // `out - 1` below the outflanking disc, nothing where there is none.
        f = f.or(out.add(out.nonzero()).and(mask));
    }
    let [east, _, _, _, west, ..] = RAYS[sq as usize];
    let e = east & !opponent;
    let out = e & e.wrapping_neg() & player;
    let mut row = out.wrapping_sub((out != 0) as u64) & east;
    let e = west & !opponent;
    let out = (0x8000_0000_0000_0000u64 >> (e | 1).leading_zeros()) & player & west;
    row |= out.wrapping_neg().wrapping_shl(1) & west;
    f.mirror_high().or_lanes() | row
}

/// `[sq][k]`: ray N, NE, NW (k = 0, 1, 2) from `sq`, and the same ray from
/// `sq ^ 56` (the square on the board mirrored top to bottom).
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
static RAYS_X2: [[[u64; 2]; 3]; 64] = {
    let rays = make_rays();
    let mut t = [[[0u64; 2]; 3]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut k = 0;
        while k < 3 {
            t[sq][k] = [rays[sq][k + 1], rays[sq ^ 56][k + 1]];
            k += 1;
        }
        sq += 1;
    }
    t
};

/// Discs flipped when `player` places on `sq`, the board's one empty square
/// (every other square not the player's is the opponent's): the last move of
/// a game, which the exact solver plays at every leaf. Same as
/// `flips(player, !player & !(1 << sq), sq).count_ones()`, without building
/// the flips: each of the four lines through `sq` is gathered into a byte
/// (shifts and multiplications, no `pext`, which is slow on older AMD
/// CPUs) and looked up in [`LAST_FLIP_COUNT`].
#[inline(always)]
pub fn count_last_flips(player: u64, sq: u32) -> u32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    let (col, row) = ((sq & 7) as usize, (sq >> 3) as usize);
    let [diag, anti] = LAST_FLIP_DIAGONALS[sq as usize];
    // A row is a byte already; a column's bit r lands on bit r of the top
    // byte; a diagonal's squares sit in distinct columns, so summing the
    // bytes (multiplying by FILE_A) packs the diagonal into the top byte by column.
    let row_bits = (player >> (sq & 56)) as u8 as usize;
    let col_bits = (((player >> col) & FILE_A).wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
    let diag_bits = ((player & diag).wrapping_mul(FILE_A) >> 56) as usize;
    let anti_bits = ((player & anti).wrapping_mul(FILE_A) >> 56) as usize;
    (LAST_FLIP_COUNT[col][row_bits]
        + LAST_FLIP_COUNT[row][col_bits]
        + LAST_FLIP_COUNT[col][diag_bits]
        + LAST_FLIP_COUNT[col][anti_bits]) as u32
}

/// `[i][bits]`: opponent discs flipped by placing at position `i` of a full
/// line of eight whose player discs are `bits` (bit `i` ignored). A shorter
/// line (a diagonal) reads its missing squares as the opponent's: they lie
/// beyond the line's ends, where a run of opponent discs never brackets.
static LAST_FLIP_COUNT: [[u8; 256]; 8] = make_last_flip_count();

const fn make_last_flip_count() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut i = 0;
    while i < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            // Towards higher positions, then lower: a run of the opponent's discs ended by the player's.
            let mut j = i + 1;
            while j < 8 && bits >> j & 1 == 0 {
                j += 1;
            }
            if j < 8 {
                n += j - i - 1;
            }
            let mut j = i as i32 - 1;
            while j >= 0 && bits >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += i - j as usize - 1;
            }
            t[i][bits] = n as u8;
            bits += 1;
        }
        i += 1;
    }
    t
}

/// The two diagonals through each square (a1-h8 direction, then a8-h1), the square included.
static LAST_FLIP_DIAGONALS: [[u64; 2]; 64] = make_last_flip_diagonals();

const fn make_last_flip_diagonals() -> [[u64; 2]; 64] {
    let rays = make_rays();
    let mut t = [[0u64; 2]; 64];
    let mut sq = 0;
    while sq < 64 {
        let bit = 1u64 << sq;
        // RAYS directions: 2 = NE, 6 = SW (one diagonal); 3 = NW, 7 = SE (the other).
        t[sq][0] = rays[sq][2] | rays[sq][6] | bit;
        t[sq][1] = rays[sq][3] | rays[sq][7] | bit;
        sq += 1;
    }
    t
}

/// Moves of `opponent` once `player` has played on `sq` (a legal move): what a
/// perft node just above the leaves counts for each of its moves.
#[inline(always)]
pub fn reply_moves(player: u64, opponent: u64, sq: u32) -> u64 {
    let f = flips(player, opponent, sq);
    moves(opponent & !f, player | f | 1u64 << sq)
}

/// AVX2 versions of `moves`, `flips` and `reply_moves`: the four axes in the four lanes of a
/// 256-bit register. Only called from code compiled with these features,
/// after the run-time check in `crate::rules::cpu`.
#[cfg(target_arch = "x86_64")]
pub mod avx2 {
    use std::arch::x86_64::*;

    /// Per lane: (shift, mask on the opponent's discs) of axes E-W, N-S, NW-SE, NE-SW.
    const SHIFTS: [i64; 4] = [1, 8, 7, 9];
    const MASKS: [i64; 4] = [
        0x7E7E_7E7E_7E7E_7E7E,
        -1,
        0x7E7E_7E7E_7E7E_7E7E,
        0x7E7E_7E7E_7E7E_7E7E,
    ];

    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn or_lanes(v: __m256i) -> u64 {
        let x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        let x = _mm_or_si128(x, _mm_unpackhi_epi64(x, x));
        _mm_cvtsi128_si64(x) as u64
    }

    // `moves` and `flips` repeat `move_lanes` and `flip_lanes` rather than call them:
    // built from the calls, the endgame solver got the same instructions in another
    // order and measured 4-5% slower (FFO #26-#37, alternating runs).

    /// Same as `super::moves`.
    ///
    /// # Safety
    /// The CPU must support AVX2 (callers check `is_x86_feature_detected!`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn moves(player: u64, opponent: u64) -> u64 {
        let sh = _mm256_loadu_si256(SHIFTS.as_ptr() as *const __m256i);
        let sh2 = _mm256_add_epi64(sh, sh);
        let pp = _mm256_set1_epi64x(player as i64);
        let o = _mm256_and_si256(
            _mm256_set1_epi64x(opponent as i64),
            _mm256_loadu_si256(MASKS.as_ptr() as *const __m256i),
        );
        let mut fl = _mm256_and_si256(o, _mm256_sllv_epi64(pp, sh));
        let mut fr = _mm256_and_si256(o, _mm256_srlv_epi64(pp, sh));
        fl = _mm256_or_si256(fl, _mm256_and_si256(o, _mm256_sllv_epi64(fl, sh)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(o, _mm256_srlv_epi64(fr, sh)));
        let pl = _mm256_and_si256(o, _mm256_sllv_epi64(o, sh));
        let pr = _mm256_srlv_epi64(pl, sh);
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
        let m = _mm256_or_si256(_mm256_sllv_epi64(fl, sh), _mm256_srlv_epi64(fr, sh));
        or_lanes(m) & !(player | opponent)
    }

    /// Same as `super::flips`: towards higher bits the outflank is the ray's
    /// lowest non-opponent square; towards lower bits the opponent run is filled from the move.
    ///
    /// # Safety
    /// The CPU must support AVX2 (callers check `is_x86_feature_detected!`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
        let rays = super::RAYS[sq as usize].as_ptr() as *const __m256i;
        let up = _mm256_loadu_si256(rays);
        let pp = _mm256_set1_epi64x(player as i64);
        let oo = _mm256_set1_epi64x(opponent as i64);
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        // Upwards: e & -e isolates the first non-opponent square.
        let e = _mm256_andnot_si256(oo, up);
        let out = _mm256_and_si256(_mm256_and_si256(e, _mm256_sub_epi64(zero, e)), pp);
        let none = _mm256_cmpeq_epi64(out, zero);
        let fu = _mm256_andnot_si256(none, _mm256_and_si256(_mm256_sub_epi64(out, one), up));
        // Downwards: fill the opponent's run from the move, check the square past it.
        let sh = _mm256_loadu_si256(SHIFTS.as_ptr() as *const __m256i);
        let sh2 = _mm256_add_epi64(sh, sh);
        let o = _mm256_and_si256(oo, _mm256_loadu_si256(MASKS.as_ptr() as *const __m256i));
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let mut f = _mm256_and_si256(o, _mm256_srlv_epi64(x, sh));
        f = _mm256_or_si256(f, _mm256_and_si256(o, _mm256_srlv_epi64(f, sh)));
        let pre = _mm256_and_si256(o, _mm256_srlv_epi64(o, sh));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, sh2)));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, sh2)));
        let bracketed = _mm256_and_si256(_mm256_srlv_epi64(f, sh), pp);
        let fd = _mm256_andnot_si256(_mm256_cmpeq_epi64(bracketed, zero), f);
        or_lanes(_mm256_or_si256(fu, fd))
    }

    /// Same as `super::reply_moves`, with the new board kept in vector
    /// registers between the two kernels.
    ///
    /// # Safety
    /// The CPU must support AVX2 (callers check `is_x86_feature_detected!`).
    #[inline]
    #[target_feature(enable = "avx2")]
    pub unsafe fn reply_moves(player: u64, opponent: u64, sq: u32) -> u64 {
        let pp = _mm256_set1_epi64x(player as i64);
        let oo = _mm256_set1_epi64x(opponent as i64);
        // The flips in all four lanes: OR each lane with the others, twice.
        let f = flip_lanes(pp, oo, sq);
        let f = _mm256_or_si256(f, _mm256_permute4x64_epi64::<0b01_00_11_10>(f));
        let f = _mm256_or_si256(f, _mm256_shuffle_epi32::<0b01_00_11_10>(f));
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let mover = _mm256_andnot_si256(f, oo);
        let other = _mm256_or_si256(_mm256_or_si256(pp, x), f);
        or_lanes(move_lanes(mover, other)) & !(player | opponent | 1u64 << sq)
    }

    /// Per axis (lane), the squares next to a bracketed run, empty or not.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn move_lanes(pp: __m256i, oo: __m256i) -> __m256i {
        let sh = _mm256_loadu_si256(SHIFTS.as_ptr() as *const __m256i);
        let sh2 = _mm256_add_epi64(sh, sh);
        let o = _mm256_and_si256(oo, _mm256_loadu_si256(MASKS.as_ptr() as *const __m256i));
        let mut fl = _mm256_and_si256(o, _mm256_sllv_epi64(pp, sh));
        let mut fr = _mm256_and_si256(o, _mm256_srlv_epi64(pp, sh));
        fl = _mm256_or_si256(fl, _mm256_and_si256(o, _mm256_sllv_epi64(fl, sh)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(o, _mm256_srlv_epi64(fr, sh)));
        let pl = _mm256_and_si256(o, _mm256_sllv_epi64(o, sh));
        let pr = _mm256_srlv_epi64(pl, sh);
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pl, _mm256_sllv_epi64(fl, sh2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pr, _mm256_srlv_epi64(fr, sh2)));
        _mm256_or_si256(_mm256_sllv_epi64(fl, sh), _mm256_srlv_epi64(fr, sh))
    }

    /// Per axis (lane), the discs flipped by a move on `sq`: towards higher bits the
    /// outflank is the ray's lowest non-opponent square; towards lower bits the
    /// opponent run is filled from the move.
    #[inline]
    #[target_feature(enable = "avx2")]
    unsafe fn flip_lanes(pp: __m256i, oo: __m256i, sq: u32) -> __m256i {
        let rays = super::RAYS[sq as usize].as_ptr() as *const __m256i;
        let up = _mm256_loadu_si256(rays);
        let zero = _mm256_setzero_si256();
        let one = _mm256_set1_epi64x(1);
        // Upwards: e & -e isolates the first non-opponent square.
        let e = _mm256_andnot_si256(oo, up);
        let out = _mm256_and_si256(_mm256_and_si256(e, _mm256_sub_epi64(zero, e)), pp);
        let none = _mm256_cmpeq_epi64(out, zero);
        let fu = _mm256_andnot_si256(none, _mm256_and_si256(_mm256_sub_epi64(out, one), up));
        // Downwards: fill the opponent's run from the move, check the square past it.
        let sh = _mm256_loadu_si256(SHIFTS.as_ptr() as *const __m256i);
        let sh2 = _mm256_add_epi64(sh, sh);
        let o = _mm256_and_si256(oo, _mm256_loadu_si256(MASKS.as_ptr() as *const __m256i));
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let mut f = _mm256_and_si256(o, _mm256_srlv_epi64(x, sh));
        f = _mm256_or_si256(f, _mm256_and_si256(o, _mm256_srlv_epi64(f, sh)));
        let pre = _mm256_and_si256(o, _mm256_srlv_epi64(o, sh));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, sh2)));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, sh2)));
        let bracketed = _mm256_and_si256(_mm256_srlv_epi64(f, sh), pp);
        let fd = _mm256_andnot_si256(_mm256_cmpeq_epi64(bracketed, zero), f);
        _mm256_or_si256(fu, fd)
    }
}

/// Iterates the set bits of a bitboard as square indices, lowest first.
#[derive(Clone, Copy)]
pub struct Bits(pub u64);

impl Iterator for Bits {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0 == 0 {
            None
        } else {
            let i = self.0.trailing_zeros();
            self.0 &= self.0 - 1;
            Some(i)
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

/// Mirror top to bottom (row 1 <-> row 8).
pub fn flip_vertical(b: u64) -> u64 {
    b.swap_bytes()
}

/// Mirror left to right (column a <-> column h).
pub fn flip_horizontal(b: u64) -> u64 {
    let k1 = 0x5555_5555_5555_5555u64;
    let k2 = 0x3333_3333_3333_3333u64;
    let k4 = 0x0F0F_0F0F_0F0F_0F0Fu64;
    let b = ((b >> 1) & k1) | ((b & k1) << 1);
    let b = ((b >> 2) & k2) | ((b & k2) << 2);
    ((b >> 4) & k4) | ((b & k4) << 4)
}

/// Reflect in the a1-h8 diagonal (square (c, r) -> (r, c)).
pub fn flip_diagonal(b: u64) -> u64 {
    let k1 = 0x5500_5500_5500_5500u64;
    let k2 = 0x3333_0000_3333_0000u64;
    let k4 = 0x0F0F_0F0F_0000_0000u64;
    let mut b = b;
    let t = k4 & (b ^ (b << 28));
    b ^= t ^ (t >> 28);
    let t = k2 & (b ^ (b << 14));
    b ^= t ^ (t >> 14);
    let t = k1 & (b ^ (b << 7));
    b ^= t ^ (t >> 7);
    b
}

/// The `i`-th of the eight board symmetries (0 is the identity).
pub fn symmetry(b: u64, i: usize) -> u64 {
    let b = if i & 1 != 0 { flip_horizontal(b) } else { b };
    let b = if i & 2 != 0 { flip_vertical(b) } else { b };
    if i & 4 != 0 {
        flip_diagonal(b)
    } else {
        b
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Slow reference: walk each direction square by square.
    fn flips_ref(p: u64, o: u64, sq: u32) -> u64 {
        let (c0, r0) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut all = 0;
        for (dc, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ] {
            let (mut c, mut r) = (c0 + dc, r0 + dr);
            let mut run = 0;
            while (0..8).contains(&c) && (0..8).contains(&r) && o >> (r * 8 + c) & 1 != 0 {
                run |= 1u64 << (r * 8 + c);
                c += dc;
                r += dr;
            }
            if (0..8).contains(&c) && (0..8).contains(&r) && p >> (r * 8 + c) & 1 != 0 {
                all |= run;
            }
        }
        all
    }

    #[test]
    fn moves_agree_with_reference_on_random_boards() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..20000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let a = x;
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let p = a & x;
            let o = !a & x.rotate_left(11);
            let mut expect = 0;
            for sq in 0..64 {
                if (p | o) >> sq & 1 == 0 {
                    let f = flips_ref(p, o, sq);
                    assert_eq!(flips(p, o, sq), f);
                    assert_eq!(flips_scalar(p, o, sq), f);
                    assert_eq!(flips_x2(p, o, sq), f);
                    #[cfg(target_arch = "x86_64")]
                    if std::is_x86_feature_detected!("avx2") {
                        assert_eq!(unsafe { avx2::flips(p, o, sq) }, f);
                    }
                    if f != 0 {
                        expect |= 1 << sq;
                        let reply = moves(o & !f, p | f | 1 << sq);
                        assert_eq!(reply_moves(p, o, sq), reply);
                        #[cfg(target_arch = "x86_64")]
                        if std::is_x86_feature_detected!("avx2") {
                            assert_eq!(unsafe { avx2::reply_moves(p, o, sq) }, reply);
                        }
                    }
                }
            }
            assert_eq!(moves(p, o), expect);
            assert_eq!(moves_scalar(p, o), expect);
            assert_eq!(moves_x2(p, o), expect);
            #[cfg(target_arch = "x86_64")]
            if std::is_x86_feature_detected!("avx2") {
                assert_eq!(unsafe { avx2::moves(p, o) }, expect);
            }
        }
    }

    #[test]
    fn symmetries_are_distinct_and_invertible() {
        let b = 0x0000_0000_0000_0106u64; // b1, c1, a2
        let images: Vec<u64> = (0..8).map(|i| symmetry(b, i)).collect();
        for i in 0..8 {
            for j in 0..i {
                assert_ne!(images[i], images[j]);
            }
        }
        assert_eq!(flip_diagonal(flip_diagonal(b)), b);
        assert_eq!(flip_diagonal(1 << 1), 1 << 8); // b1 -> a2
        assert_eq!(flip_horizontal(1), 1 << 7); // a1 -> h1
        assert_eq!(flip_vertical(1), 1 << 56); // a1 -> a8
    }
}
