//! Constant-time sorts of 32-bit words on AVX2 (x86_64), shared by the
//! scheme crates whose samplers sort secret keys (NTRU's fixed-type
//! samples, Streamlined NTRU Prime's short vectors). Call them from code
//! compiled for AVX2 (a backend's kernels, which only run after the CPU
//! check of the dispatch).
//!
//! ```
//! # #[cfg(all(target_arch = "x86_64", not(pqforge_backend = "portable")))]
//! # {
//! if pqforge_core::cpu::Avx2::detect().is_some() {
//!     let mut x = [5u32, 1, 4, 1, 3];
//!     // SAFETY: AVX2 was detected.
//!     unsafe { pqforge_core::sort::sort_u32_avx2(&mut x) };
//!     assert_eq!(x, [1, 1, 3, 4, 5]);
//! }
//! # }
//! ```
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_blend_epi32, _mm256_loadu_si256, _mm256_max_epi32, _mm256_min_epi32,
    _mm256_permutevar8x32_epi32, _mm256_setr_epi32, _mm256_storeu_si256,
};

use crate::ct;

/// The longest list the sorts take (NTRU's longest fixed-type sample,
/// 1372 entries, rounded up to 8; sntrup1277 sorts 1277 words).
pub const MAX_SORT: usize = 1376;

/// The comparators of one stage inside each 8-word vector: lane j against
/// lane `j ^ x` (`PERM` = that permutation), the minimum to the lane whose
/// bit `MASK` (the blend mask, lanes taking the maximum) is clear.
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::cast_ptr_alignment)] // unaligned loads and stores
fn sort_in_lanes<const MASK: i32>(y: &mut [i32], perm: __m256i) {
    let mut i = 0;
    while i + 8 <= y.len() {
        // SAFETY: i + 8 ≤ y.len(); unaligned 256-bit load and store.
        unsafe {
            let p = y.as_mut_ptr().add(i).cast::<__m256i>();
            let v = _mm256_loadu_si256(p);
            let w = _mm256_permutevar8x32_epi32(v, perm);
            let r = _mm256_blend_epi32::<MASK>(_mm256_min_epi32(v, w), _mm256_max_epi32(v, w));
            _mm256_storeu_si256(p, r);
        }
        i += 8;
    }
}

/// The compare-exchange of the 8-word vectors at `lo` and `hi` (lo < hi,
/// hi + 8 ≤ y.len(), checked), the lower vector reversed first when
/// `MIRROR` (then lane k of `lo` meets lane 7 - k of `hi`).
#[target_feature(enable = "avx2")]
#[inline]
#[allow(clippy::cast_ptr_alignment)] // unaligned loads and stores
fn sort_pair<const MIRROR: bool>(y: &mut [i32], lo: usize, hi: usize, rev: __m256i) {
    assert!(lo < hi && hi + 8 <= y.len());
    // SAFETY: lo + 8 ≤ hi + 8 ≤ y.len() (checked); unaligned 256-bit
    // loads and stores.
    unsafe {
        let pl = y.as_mut_ptr().add(lo).cast::<__m256i>();
        let ph = y.as_mut_ptr().add(hi).cast::<__m256i>();
        let mut a = _mm256_loadu_si256(pl);
        if MIRROR {
            a = _mm256_permutevar8x32_epi32(a, rev);
        }
        let b = _mm256_loadu_si256(ph);
        let mut mn = _mm256_min_epi32(a, b);
        if MIRROR {
            mn = _mm256_permutevar8x32_epi32(mn, rev);
        }
        _mm256_storeu_si256(pl, mn);
        _mm256_storeu_si256(ph, _mm256_max_epi32(a, b));
    }
}

/// Sorts `x` (at most [`MAX_SORT`] words) ascending as unsigned words,
/// in constant time: [`sort_i32_avx2`]'s network on the words with their
/// top bit flipped (signed order is then unsigned order).
///
/// # Panics
/// If `x` is longer than [`MAX_SORT`].
///
/// # Safety
/// The CPU must have AVX2 (a safe call from code compiled for AVX2 needs
/// no `unsafe`).
#[target_feature(enable = "avx2")]
pub fn sort_u32_avx2(x: &mut [u32]) {
    let n = x.len();
    assert!(n <= MAX_SORT);
    let mut buf = [i32::MAX; MAX_SORT];
    for (o, &v) in buf.iter_mut().zip(x.iter()) {
        *o = (v ^ 0x8000_0000) as i32;
    }
    network(&mut buf, n);
    for (o, &v) in x.iter_mut().zip(buf.iter()) {
        *o = (v as u32) ^ 0x8000_0000;
    }
    // Secret (what the words encode): wiped.
    ct::wipe(&mut buf);
}

/// Sorts `x` (at most [`MAX_SORT`] words) ascending as signed words, in
/// constant time: Batcher's bitonic network (all ascending, virtual +∞
/// past the end, as the portable sorts of the scheme crates) on 8-word
/// vectors with `vpminsd` / `vpmaxsd`.
///
/// # Panics
/// If `x` is longer than [`MAX_SORT`].
///
/// # Safety
/// As [`sort_u32_avx2`].
#[target_feature(enable = "avx2")]
pub fn sort_i32_avx2(x: &mut [i32]) {
    let n = x.len();
    assert!(n <= MAX_SORT);
    let mut buf = [i32::MAX; MAX_SORT];
    buf[..n].copy_from_slice(x);
    network(&mut buf, n);
    x.copy_from_slice(&buf[..n]);
    ct::wipe(&mut buf);
}

/// The network on the first n words of `buf`, padded with +∞ (`i32::MAX`)
/// to a multiple of 8: a comparator meeting a pad leaves it in place, as
/// the virtual entries do, so the result is the portable one (no
/// data-dependent branch or index). Distances 1, 2 and 4 (and mirrors of
/// blocks up to 8) stay inside a vector: a lane permutation, min, max and
/// a blend; longer ones pair whole vectors, skipping the pairs whose upper
/// vector lies past the end (public bounds).
#[target_feature(enable = "avx2")]
fn network(buf: &mut [i32; MAX_SORT], n: usize) {
    let m = n.next_multiple_of(8);
    let y = &mut buf[..m];
    let rev = _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0);
    let xor1 = _mm256_setr_epi32(1, 0, 3, 2, 5, 4, 7, 6);
    let xor2 = _mm256_setr_epi32(2, 3, 0, 1, 6, 7, 4, 5);
    let xor3 = _mm256_setr_epi32(3, 2, 1, 0, 7, 6, 5, 4);
    let xor4 = _mm256_setr_epi32(4, 5, 6, 7, 0, 1, 2, 3);
    let mut size = 2;
    while size / 2 < n {
        let half = size / 2;
        // Mirror stage.
        match size {
            2 => sort_in_lanes::<0xAA>(y, xor1),
            4 => sort_in_lanes::<0xCC>(y, xor3),
            8 => sort_in_lanes::<0xF0>(y, rev),
            _ => {
                let mut s = 0;
                while s + half < m {
                    let mut k = 0;
                    while k < half && s + half + k + 8 <= m {
                        sort_pair::<true>(y, s + half - 8 - k, s + half + k, rev);
                        k += 8;
                    }
                    s += size;
                }
            }
        }
        // Half-cleaners.
        let mut d = half / 2;
        while d >= 1 {
            match d {
                1 => sort_in_lanes::<0xAA>(y, xor1),
                2 => sort_in_lanes::<0xCC>(y, xor2),
                4 => sort_in_lanes::<0xF0>(y, xor4),
                _ => {
                    let mut s = 0;
                    while s + d < m {
                        let mut k = 0;
                        while k < d && s + d + k + 8 <= m {
                            sort_pair::<false>(y, s + k, s + d + k, rev);
                            k += 8;
                        }
                        s += 2 * d;
                    }
                }
            }
            d /= 2;
        }
        size *= 2;
    }
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use std::vec::Vec;

    #[test]
    fn sorts_like_the_standard_library() {
        if crate::cpu::Avx2::detect().is_none() {
            return;
        }
        let mut seed = 1u64;
        for n in [0usize, 1, 2, 7, 8, 9, 100, 676, 761, 1228, 1277, MAX_SORT] {
            let mut x: Vec<u32> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    // Few distinct values now and then: ties.
                    let v = (seed >> 32) as u32;
                    if n % 2 == 0 { v % 7 } else { v }
                })
                .collect();
            let mut y: Vec<i32> = x.iter().map(|&v| v as i32).collect();
            let mut want = x.clone();
            want.sort_unstable();
            let mut want_i: Vec<i32> = y.clone();
            want_i.sort_unstable();
            // SAFETY: AVX2 was detected above.
            unsafe {
                sort_u32_avx2(&mut x);
                sort_i32_avx2(&mut y);
            }
            assert_eq!(x, want, "u32, n = {n}");
            assert_eq!(y, want_i, "i32, n = {n}");
        }
    }
}
