//! AVX2 step of keygen's Gaussian sampler (x86_64 only): the 26 table
//! comparisons of one sample as seven 4-lane subtractions.
//!
//! CT: the count is a sum of borrow bits; no data-dependent branch or
//! index.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    _mm_add_epi64, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm256_add_epi64, _mm256_castsi256_si128,
    _mm256_extracti128_si256, _mm256_loadu_si256, _mm256_set1_epi64x, _mm256_setzero_si256,
    _mm256_srli_epi64, _mm256_sub_epi64,
};

use crate::keygen::{GAUSS_1024_12289, TailCount, poly_small_mkgauss_gen};
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

/// Proof that the CPU supports AVX2 (only built after the check).
struct Avx2(());

impl TailCount for Avx2 {
    #[inline(always)]
    fn tail_count(&self, r: u64) -> u32 {
        // SAFETY: an `Avx2` value exists only after AVX2 was detected.
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

/// The sampler body compiled with AVX2 enabled.
#[target_feature(enable = "avx2")]
fn mkgauss_poly(rng: &mut ShakeU64, f: &mut [i8], logn: u32, tok: &Avx2) {
    poly_small_mkgauss_gen(rng, f, logn, tok);
}

/// Runs keygen's `poly_small_mkgauss` with the AVX2 comparisons if the CPU
/// has AVX2; returns whether it did.
pub(crate) fn try_poly_small_mkgauss(rng: &mut ShakeU64, f: &mut [i8], logn: u32) -> bool {
    if pqforge_core::cpu::avx2() {
        let tok = Avx2(());
        // SAFETY: AVX2 support was checked above.
        unsafe { mkgauss_poly(rng, f, logn, &tok) };
        return true;
    }
    false
}
