//! 128-bit vectors for the browser build's kernels: WebAssembly `simd128`
//! under `target_feature = "simd128"`, plain arrays elsewhere, so the
//! native tests run the same kernels' arithmetic as the browser.
//!
//! Only the operations the kernels use, each one WebAssembly instruction
//! (or a short fixed sequence) in the browser.

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    /// Two `u64` lanes.
    #[derive(Clone, Copy)]
    pub struct X2(v128);

    impl X2 {
        #[inline(always)]
        pub fn splat(x: u64) -> X2 {
            X2(u64x2_splat(x))
        }
        /// (`x`, `x` with its bytes reversed): the board and its mirror top to bottom.
        #[inline(always)]
        pub fn mirrored(x: u64) -> X2 {
            X2::splat(x).mirror_high()
        }
        /// The high lane's bytes reversed (its board mirrored top to bottom), the low lane kept.
        #[inline(always)]
        pub fn mirror_high(self) -> X2 {
            X2(i8x16_shuffle::<
                0,
                1,
                2,
                3,
                4,
                5,
                6,
                7,
                15,
                14,
                13,
                12,
                11,
                10,
                9,
                8,
            >(self.0, self.0))
        }
        /// The two `u64`s of `x`, in order.
        #[inline(always)]
        pub fn load(x: &[u64; 2]) -> X2 {
            // SAFETY: `x` is 16 readable bytes; v128 loads need no alignment.
            X2(unsafe { v128_load(x.as_ptr() as *const v128) })
        }
        #[inline(always)]
        pub fn shl(self, n: u32) -> X2 {
            X2(u64x2_shl(self.0, n))
        }
        #[inline(always)]
        pub fn add(self, o: X2) -> X2 {
            X2(u64x2_add(self.0, o.0))
        }
        /// Two's complement negation, lane by lane.
        #[inline(always)]
        pub fn neg(self) -> X2 {
            X2(i64x2_neg(self.0))
        }
        /// All ones in each lane that is not zero, else zero.
        #[inline(always)]
        pub fn nonzero(self) -> X2 {
            X2(i64x2_ne(self.0, u64x2_splat(0)))
        }
        /// `self & !o`.
        #[inline(always)]
        pub fn and_not(self, o: X2) -> X2 {
            X2(v128_andnot(self.0, o.0))
        }
        #[inline(always)]
        pub fn and(self, o: X2) -> X2 {
            X2(v128_and(self.0, o.0))
        }
        #[inline(always)]
        pub fn or(self, o: X2) -> X2 {
            X2(v128_or(self.0, o.0))
        }
        /// Both lanes OR'd together.
        #[inline(always)]
        pub fn or_lanes(self) -> u64 {
            u64x2_extract_lane::<0>(self.0) | u64x2_extract_lane::<1>(self.0)
        }
    }

    /// Eight `u16` lanes (wrapping arithmetic).
    #[derive(Clone, Copy)]
    pub struct U16x8(v128);

    impl U16x8 {
        #[inline(always)]
        pub fn zero() -> U16x8 {
            U16x8(u16x8_splat(0))
        }
        #[inline(always)]
        pub fn load(x: &[u16; 8]) -> U16x8 {
            // SAFETY: `x` is 16 readable bytes; v128 loads need no alignment.
            U16x8(unsafe { v128_load(x.as_ptr() as *const v128) })
        }
        #[inline(always)]
        pub fn add(self, o: U16x8) -> U16x8 {
            U16x8(u16x8_add(self.0, o.0))
        }
        #[inline(always)]
        pub fn shl(self, n: u32) -> U16x8 {
            U16x8(u16x8_shl(self.0, n))
        }
        #[inline(always)]
        pub fn store(self, out: &mut [u16; 8]) {
            // SAFETY: `out` is 16 writable bytes; v128 stores need no alignment.
            unsafe { v128_store(out.as_mut_ptr() as *mut v128, self.0) }
        }
    }
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    /// Two `u64` lanes.
    #[derive(Clone, Copy)]
    pub struct X2([u64; 2]);

    impl X2 {
        pub fn splat(x: u64) -> X2 {
            X2([x, x])
        }
        pub fn mirrored(x: u64) -> X2 {
            X2::splat(x).mirror_high()
        }
        pub fn mirror_high(self) -> X2 {
            X2([self.0[0], self.0[1].swap_bytes()])
        }
        pub fn load(x: &[u64; 2]) -> X2 {
            X2(*x)
        }
        pub fn shl(self, n: u32) -> X2 {
            X2([self.0[0] << n, self.0[1] << n])
        }
        pub fn add(self, o: X2) -> X2 {
            X2([
                self.0[0].wrapping_add(o.0[0]),
                self.0[1].wrapping_add(o.0[1]),
            ])
        }
        pub fn neg(self) -> X2 {
            X2(self.0.map(u64::wrapping_neg))
        }
        pub fn nonzero(self) -> X2 {
            X2(self.0.map(|x| if x != 0 { u64::MAX } else { 0 }))
        }
        pub fn and_not(self, o: X2) -> X2 {
            X2([self.0[0] & !o.0[0], self.0[1] & !o.0[1]])
        }
        pub fn and(self, o: X2) -> X2 {
            X2([self.0[0] & o.0[0], self.0[1] & o.0[1]])
        }
        pub fn or(self, o: X2) -> X2 {
            X2([self.0[0] | o.0[0], self.0[1] | o.0[1]])
        }
        pub fn or_lanes(self) -> u64 {
            self.0[0] | self.0[1]
        }
    }

    /// Eight `u16` lanes (wrapping arithmetic).
    #[derive(Clone, Copy)]
    pub struct U16x8([u16; 8]);

    impl U16x8 {
        pub fn zero() -> U16x8 {
            U16x8([0; 8])
        }
        pub fn load(x: &[u16; 8]) -> U16x8 {
            U16x8(*x)
        }
        pub fn add(self, o: U16x8) -> U16x8 {
            U16x8(std::array::from_fn(|i| self.0[i].wrapping_add(o.0[i])))
        }
        pub fn shl(self, n: u32) -> U16x8 {
            U16x8(self.0.map(|x| x << n))
        }
        pub fn store(self, out: &mut [u16; 8]) {
            *out = self.0;
        }
    }
}

pub use imp::{U16x8, X2};
