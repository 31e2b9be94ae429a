//! AVX2 step of keygen's Gaussian sampler: the 26 table comparisons of one
//! sample as seven 4-lane subtractions.
//!
//! CT: the count is a sum of borrow bits; no data-dependent branch or
//! index.

use core::arch::x86_64::{
    _mm_add_epi64, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm256_add_epi64, _mm256_castsi256_si128,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_srli_epi64, _mm256_sub_epi64,
};

use pqforge_core::cpu::Avx2;

use crate::keygen::{GAUSS_1024_12289, TailCount, poly_small_mkgauss};
use crate::rng::ShakeU64;

/// Entries 1..27 of the table, padded with zeros to 28 (a zero entry never
/// counts: r - 0 has its top bit clear for r < 2^63), in groups of four.
const TAIL_X4: [[u64; 4]; 7] = {
    let mut t = [[0u64; 4]; 7];
    let mut k = 1;
    while k < GAUSS_1024_12289.len() {
        t[(k - 1) / 4][(k - 1) % 4] = GAUSS_1024_12289[k];
        k += 1;
    }
    t
};

/// The AVX2 [`TailCount`]: holds the token.
struct Tail(Avx2);

impl TailCount for Tail {
    #[inline(always)]
    fn tail_count(&self, r: u64) -> u32 {
        // SAFETY: the token proves that the CPU supports AVX2.
        unsafe { tail_count(r) }
    }
}

/// #{k >= 1 : r < table[k]} for r < 2^63, four comparisons per lane op.
#[inline]
#[target_feature(enable = "avx2")]
fn tail_count(r: u64) -> u32 {
    let rv = _mm256_set1_epi64x(r as i64);
    let mut acc = _mm256_setzero_si256();
    for c in &TAIL_X4 {
        // SAFETY: `c` is 32 readable bytes; unaligned load.
        let cv = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
        acc = _mm256_add_epi64(acc, _mm256_srli_epi64(_mm256_sub_epi64(rv, cv), 63));
    }
    let h = _mm_add_epi64(
        _mm256_castsi256_si128(acc),
        _mm256_extracti128_si256::<1>(acc),
    );
    _mm_cvtsi128_si64(_mm_add_epi64(h, _mm_unpackhi_epi64(h, h))) as u32
}

/// Keygen's [`poly_small_mkgauss`] with the AVX2 comparisons.
pub(crate) fn gauss_poly(t: Avx2, rng: &mut ShakeU64, f: &mut [i8], logn: u32) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { gauss_poly_avx2(rng, f, logn, &Tail(t)) }
}

/// The sampler body compiled with AVX2 enabled.
#[target_feature(enable = "avx2")]
fn gauss_poly_avx2(rng: &mut ShakeU64, f: &mut [i8], logn: u32, tail: &Tail) {
    poly_small_mkgauss(rng, f, logn, tail);
}
