//! The AVX2 helpers every kernel module shares: unaligned loads and
//! stores on byte and word slices (bounds-checked), lane-wise logic,
//! the word pairing of two registers, and the wipes of spilled secret
//! registers.

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_setzero_si128, _mm256_and_si256, _mm256_loadu_si256,
    _mm256_permute2x128_si256, _mm256_setzero_si256, _mm256_storeu_si256, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi64, _mm256_xor_si256,
};

/// All lanes 0.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn zero() -> __m256i {
    _mm256_setzero_si256()
}

/// Unaligned load of the 32 bytes at `off`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn ld(buf: &[u8], off: usize) -> __m256i {
    let s = &buf[off..off + 32];
    // SAFETY: `s` has 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Unaligned store of 32 bytes at `off`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn st(buf: &mut [u8], off: usize, v: __m256i) {
    let s = &mut buf[off..off + 32];
    // SAFETY: `s` has 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(s.as_mut_ptr().cast(), v) }
}

/// Unaligned load of the first four words of `s`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn ld_words(s: &[u64]) -> __m256i {
    let s = &s[..4];
    // SAFETY: `s` has 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Unaligned load of the first 16 bytes of `s`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn ld128(s: &[u8]) -> __m128i {
    let s = &s[..16];
    // SAFETY: `s` has 16 readable bytes; unaligned load.
    unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
}

/// The four 64-bit lanes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn lanes(v: __m256i) -> [u64; 4] {
    let mut a = [0u64; 4];
    // SAFETY: `a` has 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) };
    a
}

/// `a ^ b`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn xor(a: __m256i, b: __m256i) -> __m256i {
    _mm256_xor_si256(a, b)
}

/// `a & b`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn and(a: __m256i, b: __m256i) -> __m256i {
    _mm256_and_si256(a, b)
}

/// Splits two registers of four words into the two halves of the pairs
/// at distance one word (`D1`: words 0, 2 against 1, 3) or two words
/// (words 0, 1 against 2, 3): the butterflies of the FFT and the swaps
/// of the Benes network whose partners share a register.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn split<const D1: bool>(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    if D1 {
        (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
    } else {
        (
            _mm256_permute2x128_si256::<0x20>(a, b),
            _mm256_permute2x128_si256::<0x31>(a, b),
        )
    }
}

/// The inverse of [`split`].
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn join<const D1: bool>(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    split::<D1>(x, y)
}

/// Overwrites registers spilled to the stack with zeros (secret scratch).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn wipe256(v: &mut [__m256i]) {
    for x in v.iter_mut() {
        // SAFETY: `x` is a valid, aligned `__m256i`; the volatile write
        // keeps the compiler from dropping the wipe.
        unsafe { core::ptr::write_volatile(x, _mm256_setzero_si256()) };
    }
}

/// As [`wipe256`], for 128-bit registers.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn wipe128(v: &mut [__m128i]) {
    for x in v.iter_mut() {
        // SAFETY: as in `wipe256`.
        unsafe { core::ptr::write_volatile(x, _mm_setzero_si128()) };
    }
}
