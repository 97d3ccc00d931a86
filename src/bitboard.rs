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
#[inline]
pub fn moves(player: u64, opponent: u64) -> u64 {
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

/// Discs of `opponent` flipped when `player` places on square `sq` (0 when none).
#[inline]
pub fn flips(player: u64, opponent: u64, sq: u32) -> u64 {
    let x = 1u64 << sq;
    let mut flipped = 0;
    for &(s, mask) in &AXES {
        let o = opponent & mask;
        let mut run = 0;
        let mut t = x << s;
        while t & o != 0 {
            run |= t;
            t <<= s;
        }
        if t & player != 0 {
            flipped |= run;
        }
        let mut run = 0;
        let mut t = x >> s;
        while t & o != 0 {
            run |= t;
            t >>= s;
        }
        if t & player != 0 {
            flipped |= run;
        }
    }
    flipped
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
                    if f != 0 {
                        expect |= 1 << sq;
                    }
                }
            }
            assert_eq!(moves(p, o), expect);
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
