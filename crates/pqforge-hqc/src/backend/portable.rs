//! The portable backend: the reference kernels, on every target (the
//! Cortex-M4 runs them).
//!
//! Karatsuba (the recursion of `gf2x::karatsuba_fn!`) down to 8-word
//! blocks, then schoolbook products over a constant-time 64x64 carry-less
//! multiply built from integer multiplications of "holey" operands; on
//! 32-bit targets, Karatsuba all the way down to 32x32-bit products. Sparse
//! supports use the default [`Kernels::xor_bits`]; the PKE stages run in
//! the default frames of [`Backend`].

use crate::gf2x::{Kernels, karatsuba_fn};
use crate::kem::Backend;

/// The portable backend.
pub(crate) struct Portable;

impl Kernels for Portable {
    const NAME: &'static str = "portable";

    fn mul_wide(r: &mut [u64], a: &[u64], b: &[u64], scratch: &mut [u64]) {
        karatsuba(r, a, b, scratch);
    }
}

impl Backend for Portable {}

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
/// Bits at positions ≡ i (mod 5) of a 64-bit word.
const HOLES64: [u64; 5] = {
    let mut m = [0u64; 5];
    let mut b = 0;
    while b < 64 {
        m[b % 5] |= 1 << b;
        b += 1;
    }
    m
};

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
/// Bits at positions ≡ i (mod 5) of a 128-bit word.
const HOLES128: [u128; 5] = {
    let mut m = [0u128; 5];
    let mut b = 0;
    while b < 128 {
        m[b % 5] |= 1 << b;
        b += 1;
    }
    m
};

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
/// The five "holey" parts of a word (see [`clmul_split`]).
#[inline(always)]
fn split(a: u64) -> [u64; 5] {
    [
        a & HOLES64[0],
        a & HOLES64[1],
        a & HOLES64[2],
        a & HOLES64[3],
        a & HOLES64[4],
    ]
}

// The 64-bit `schoolbook8` (and the tests) use it.
#[cfg_attr(not(target_pointer_width = "64"), allow(dead_code))]
/// Carry-less 64x64 -> 128-bit product of two pre-split words.
///
/// Integer multiplication of operands whose set bits are 5 apart: each
/// partial product `a_i * b_j` has at most 13 contributions per result
/// column, so column sums (< 16) never carry into the next column of the
/// same residue class; masking the residue class `i + j (mod 5)` and XORing
/// recovers the carry-less product. Integer multipliers are constant time on
/// every target we support, and nothing here branches on data.
#[inline(always)]
fn clmul_split(a: &[u64; 5], b: &[u64; 5]) -> u128 {
    let mut z = 0u128;
    for k in 0..5 {
        let mut acc = 0u128;
        for i in 0..5 {
            let j = (k + 5 - i) % 5;
            acc ^= u128::from(a[i]) * u128::from(b[j]);
        }
        z |= acc & HOLES128[k];
    }
    z
}

/// Carry-less 64x64 -> 128-bit product.
#[cfg(test)]
pub(crate) fn clmul64(a: u64, b: u64) -> u128 {
    clmul_split(&split(a), &split(b))
}

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
// The Rust `clmul32`; 32-bit Arm has the assembly one.
#[cfg(not(target_arch = "arm"))]
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Bits at positions ≡ i (mod 4) of a 32-bit word.
const HOLES32: [u32; 4] = [0x1111_1111, 0x2222_2222, 0x4444_4444, 0x8888_8888];

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
// The Rust `clmul32`; 32-bit Arm has the assembly one.
#[cfg(not(target_arch = "arm"))]
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Bits at positions ≡ i (mod 4) of a 64-bit word.
const HOLES64_4: [u64; 4] = [
    0x1111_1111_1111_1111,
    0x2222_2222_2222_2222,
    0x4444_4444_4444_4444,
    0x8888_8888_8888_8888,
];

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Carry-less 32x32 -> 64-bit product for 32-bit targets, where one
/// `u32 × u32 → u64` multiplication is a single instruction (Cortex-M4
/// `umull`, constant time) while the `u128` products of [`clmul_split`]
/// become long multi-word sequences.
///
/// Same idea with holes of 4: a column of a partial product `a_i * b_j`
/// collects at most 8 contributions, so its sum (< 16) never reaches the
/// next column of the same residue class.
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
fn clmul32(a: u32, b: u32) -> u64 {
    let a = HOLES32.map(|m| a & m);
    let b = HOLES32.map(|m| b & m);
    let mut z = 0u64;
    for k in 0..4 {
        let mut acc = 0u64;
        for i in 0..4 {
            acc ^= u64::from(a[i]) * u64::from(b[(k + 4 - i) % 4]);
        }
        z |= acc & HOLES64_4[k];
    }
    z
}

#[cfg(target_arch = "arm")]
use super::armv7em::clmul32;

// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
/// Carry-less 64x64 -> 128-bit product as `(low, high)` words from three
/// [`clmul32`] (one Karatsuba step).
#[inline(always)]
fn clmul64_via32(a: u64, b: u64) -> (u64, u64) {
    let (a0, a1) = (a as u32, (a >> 32) as u32);
    let (b0, b1) = (b as u32, (b >> 32) as u32);
    let lo = clmul32(a0, b0);
    let hi = clmul32(a1, b1);
    let mid = clmul32(a0 ^ a1, b0 ^ b1) ^ lo ^ hi;
    (lo ^ (mid << 32), hi ^ (mid >> 32))
}

/// Schoolbook product of two 8-word operands into 16 words.
#[inline]
#[cfg(target_pointer_width = "64")]
fn schoolbook8(r: &mut [u64], a: &[u64], b: &[u64]) {
    let mut bs = [[0u64; 5]; 8];
    for (s, &w) in bs.iter_mut().zip(b) {
        *s = split(w);
    }
    let mut acc = [0u64; 16];
    for i in 0..8 {
        let ai = split(a[i]);
        for j in 0..8 {
            let p = clmul_split(&ai, &bs[j]);
            acc[i + j] ^= p as u64;
            acc[i + j + 1] ^= (p >> 64) as u64;
        }
    }
    r[..16].copy_from_slice(&acc);
}

/// Product of two 8-word operands into 16 words on 32-bit targets:
/// Karatsuba all the way down to single words ([`kara8`]), 27
/// [`clmul64_via32`] instead of 64, since each costs three 32-bit products.
///
/// Not inlined: the unrolled block product needs about 370 bytes of
/// frame, which would otherwise sit in every level of the recursive
/// Karatsuba (five levels for HQC-1: 1.9 KB of stack instead of one).
#[inline(never)]
#[cfg(not(target_pointer_width = "64"))]
fn schoolbook8(r: &mut [u64], a: &[u64], b: &[u64]) {
    let a: &[u64; 8] = a[..8].try_into().expect("8-word block");
    let b: &[u64; 8] = b[..8].try_into().expect("8-word block");
    r[..16].copy_from_slice(&kara8(a, b));
}

/// One word: [`clmul64_via32`].
// Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
#[cfg_attr(target_pointer_width = "64", allow(dead_code))]
#[inline(always)]
fn kara1(a: &[u64; 1], b: &[u64; 1]) -> [u64; 2] {
    let (lo, hi) = clmul64_via32(a[0], b[0]);
    [lo, hi]
}

/// `kara_fixed!(name, N, half)`: the product of two N-word arrays by one
/// Karatsuba step over `half` (N/2 words), on fixed-size arrays so that
/// the whole small product unrolls: no recursion, slices, bounds checks or
/// zeroed scratch (on the Cortex-M4 these cost more than the 27 word
/// products of an 8-word block did).
macro_rules! kara_fixed {
    ($(#[$attr:meta])* $name:ident, $n:literal, $half:ident) => {
        $(#[$attr])*
        // Only the 32-bit `schoolbook8` and the tests use it on 64-bit targets.
        #[cfg_attr(target_pointer_width = "64", allow(dead_code))]
        fn $name(a: &[u64; $n], b: &[u64; $n]) -> [u64; 2 * $n] {
            const H: usize = $n / 2;
            let a0: [u64; H] = core::array::from_fn(|i| a[i]);
            let a1: [u64; H] = core::array::from_fn(|i| a[H + i]);
            let b0: [u64; H] = core::array::from_fn(|i| b[i]);
            let b1: [u64; H] = core::array::from_fn(|i| b[H + i]);
            let sa: [u64; H] = core::array::from_fn(|i| a0[i] ^ a1[i]);
            let sb: [u64; H] = core::array::from_fn(|i| b0[i] ^ b1[i]);
            let lo = $half(&a0, &b0);
            let hi = $half(&a1, &b1);
            let mid = $half(&sa, &sb);
            let mut r = [0u64; 2 * $n];
            for i in 0..2 * H {
                r[i] = lo[i];
                r[2 * H + i] = hi[i];
            }
            // r += X^H (mid - lo - hi).
            for i in 0..2 * H {
                r[H + i] ^= mid[i] ^ lo[i] ^ hi[i];
            }
            r
        }
    };
}

kara_fixed!(
    /// Two words: three [`kara1`] (nine 32-bit products), not inlined: the
    /// unit [`kara8`] calls nine times.
    #[inline(never)]
    kara2,
    2,
    kara1
);
kara_fixed!(
    /// Four words: three [`kara2`].
    #[inline(always)]
    kara4,
    4,
    kara2
);
kara_fixed!(
    /// Eight words: three [`kara4`] (27 word products).
    #[inline(always)]
    kara8,
    8,
    kara4
);

karatsuba_fn!(
    /// Portable Karatsuba on 8-word blocks.
    karatsuba,
    8,
    8,
    schoolbook8
);

#[cfg(test)]
mod tests {
    use pqforge_core::testing::TestRng;

    use super::*;
    use crate::gf2x;

    fn clmul_ref(a: u64, b: u64) -> u128 {
        let mut r = 0u128;
        for i in 0..64 {
            if (b >> i) & 1 == 1 {
                r ^= u128::from(a) << i;
            }
        }
        r
    }

    #[test]
    fn clmul_matches_reference() {
        let mut s = TestRng::new(0x1234_5678_9abc_def1);
        for _ in 0..if cfg!(miri) { 50 } else { 10_000 } {
            let (a, b) = (s.next_u64(), s.next_u64());
            assert_eq!(clmul64(a, b), clmul_ref(a, b));
        }
        assert_eq!(clmul64(u64::MAX, u64::MAX), clmul_ref(u64::MAX, u64::MAX));
    }

    #[test]
    fn kara8_matches_schoolbook() {
        let mut s = TestRng::new(0x5555_aaaa_1234_9876);
        for _ in 0..if cfg!(miri) { 3 } else { 200 } {
            let a: [u64; 8] = core::array::from_fn(|_| s.next_u64());
            let b: [u64; 8] = core::array::from_fn(|_| s.next_u64());
            let mut want = [0u64; 16];
            for i in 0..8 {
                for j in 0..8 {
                    let p = clmul_ref(a[i], b[j]);
                    want[i + j] ^= p as u64;
                    want[i + j + 1] ^= (p >> 64) as u64;
                }
            }
            assert_eq!(kara8(&a, &b), want);
        }
    }

    #[test]
    fn clmul_via32_matches_reference() {
        let mut s = TestRng::new(0x0fed_cba9_8765_4321);
        let split = |p: u128| (p as u64, (p >> 64) as u64);
        for _ in 0..if cfg!(miri) { 50 } else { 10_000 } {
            let (a, b) = (s.next_u64(), s.next_u64());
            assert_eq!(clmul64_via32(a, b), split(clmul_ref(a, b)));
        }
        for (a, b) in [(u64::MAX, u64::MAX), (0, u64::MAX), (1 << 63, 1 << 63)] {
            assert_eq!(clmul64_via32(a, b), split(clmul_ref(a, b)));
        }
    }

    #[test]
    fn mul_mod_matches_bitwise() {
        // The portable kernels under the reduction.
        gf2x::check_mul_mod::<Portable>();
    }

    #[test]
    fn mul_mod_support_matches_dense() {
        gf2x::check_mul_mod_support::<Portable>();
    }
}
