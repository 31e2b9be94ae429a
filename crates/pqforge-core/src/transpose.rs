//! A 16 × 16 transpose of 16-bit words on AVX2 (x86_64), shared by the
//! scheme crates that turn 16 polynomials into lanes (NTRU's lane
//! products, NTRU Prime's NTT). Call it from code compiled for AVX2 (a
//! backend's kernels, which only run after the CPU check of the dispatch).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_permute2x128_si256, _mm256_setzero_si256, _mm256_unpackhi_epi16,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32,
    _mm256_unpacklo_epi64,
};

/// Transposes a 16×16 matrix of `u16`: afterwards lane l of `x[c]` is
/// what lane c of `x[l]` was (three rounds of interleaving within the
/// 128-bit halves, then the halves exchanged).
///
/// # Safety
/// The CPU must have AVX2 (a safe call from code compiled for AVX2 needs
/// no `unsafe`).
#[target_feature(enable = "avx2")]
#[inline]
pub fn transpose16(x: &mut [__m256i; 16]) {
    let mut a = [_mm256_setzero_si256(); 16];
    // a[2p] / a[2p + 1]: rows 2p, 2p + 1 interleaved, columns 0–3 / 4–7
    // of each half.
    for p in 0..8 {
        a[2 * p] = _mm256_unpacklo_epi16(x[2 * p], x[2 * p + 1]);
        a[2 * p + 1] = _mm256_unpackhi_epi16(x[2 * p], x[2 * p + 1]);
    }
    // b[4q + j]: rows 4q..4q + 4, columns 2j, 2j + 1 of each half.
    let mut b = [_mm256_setzero_si256(); 16];
    for q in 0..4 {
        b[4 * q] = _mm256_unpacklo_epi32(a[4 * q], a[4 * q + 2]);
        b[4 * q + 1] = _mm256_unpackhi_epi32(a[4 * q], a[4 * q + 2]);
        b[4 * q + 2] = _mm256_unpacklo_epi32(a[4 * q + 1], a[4 * q + 3]);
        b[4 * q + 3] = _mm256_unpackhi_epi32(a[4 * q + 1], a[4 * q + 3]);
    }
    // c[8o + j]: rows 8o..8o + 8, column j of each half.
    let mut c = [_mm256_setzero_si256(); 16];
    for o in 0..2 {
        for j in 0..4 {
            c[8 * o + 2 * j] = _mm256_unpacklo_epi64(b[8 * o + j], b[8 * o + 4 + j]);
            c[8 * o + 2 * j + 1] = _mm256_unpackhi_epi64(b[8 * o + j], b[8 * o + 4 + j]);
        }
    }
    for j in 0..8 {
        x[j] = _mm256_permute2x128_si256::<0x20>(c[j], c[8 + j]);
        x[j + 8] = _mm256_permute2x128_si256::<0x31>(c[j], c[8 + j]);
    }
}
