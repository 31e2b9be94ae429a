//! The AVX2 kernels of encapsulation (see `kem`): the error vector's
//! constant-time scatter and the syndrome's inner products over GF(2).

use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm_unpackhi_epi64, _mm_xor_si128, _mm256_and_si256,
    _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_or_si256,
    _mm256_set1_epi64x, _mm256_setr_epi64x, _mm256_setzero_si256, _mm256_sub_epi64,
    _mm256_xor_si256,
};

use super::simd::{ld, st};
use crate::backend::portable::{parity64, split_positions};
use crate::backend::{Backend, MAX_T, Portable};

/// XOR of the four 64-bit lanes of `x`.
#[inline]
#[target_feature(enable = "avx2")]
fn fold64(x: __m256i) -> u64 {
    let h = _mm_xor_si128(_mm256_castsi256_si128(x), _mm256_extracti128_si256::<1>(x));
    let h = _mm_xor_si128(h, _mm_unpackhi_epi64(h, h));
    _mm_cvtsi128_si64(h) as u64
}

/// [`Backend::and_parities`]: four rows at a time, so every 32-byte chunk
/// of `v` is loaded once per four rows. A row's last chunk is read as a
/// full vector (the bytes past the row meet the zeros of `v`) unless that
/// would run past `rows`; that happens only for the last row or two,
/// which take the portable path. Everything here is public-length control
/// flow.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn and_parities(rows: &[u8], rb: usize, v: &[u8], out: &mut [u8]) {
    let nr = rows.len() / rb;
    let nv = rb.div_ceil(32);
    // Rows whose vector reads stay inside `rows`.
    let mut fast = nr;
    while fast > 0 && (fast - 1) * rb + 32 * nv > rows.len() {
        fast -= 1;
    }
    let mut r = 0;
    while r + 4 <= fast {
        let base = r * rb;
        let mut acc = [_mm256_setzero_si256(); 4];
        for k in 0..nv {
            let e = ld(v, 32 * k);
            for (i, a) in acc.iter_mut().enumerate() {
                *a = _mm256_xor_si256(*a, _mm256_and_si256(ld(rows, base + i * rb + 32 * k), e));
            }
        }
        for (i, a) in acc.iter().enumerate() {
            let p = parity64(fold64(*a)) as u8;
            out[(r + i) / 8] ^= p << ((r + i) % 8);
        }
        r += 4;
    }
    while r < fast {
        let base = r * rb;
        let mut acc = _mm256_setzero_si256();
        for k in 0..nv {
            acc = _mm256_xor_si256(
                acc,
                _mm256_and_si256(ld(rows, base + 32 * k), ld(v, 32 * k)),
            );
        }
        out[r / 8] ^= (parity64(fold64(acc)) as u8) << (r % 8);
        r += 1;
    }
    if r < nr {
        // The remaining rows, through the portable kernel on a shifted
        // output: flip the bits into a zeroed byte buffer, then merge.
        let mut tmp = [0u8; 8];
        let k = nr - r;
        Portable::and_parities(&rows[r * rb..], rb, v, &mut tmp[..k.div_ceil(8)]);
        for i in 0..k {
            out[(r + i) / 8] ^= ((tmp[i / 8] >> (i % 8)) & 1) << ((r + i) % 8);
        }
    }
}

/// [`Backend::set_bits`]: 32 words of `e` at a time in eight registers;
/// every position is compared with every word index (`cmpeq`, no branch,
/// no secret address) and its bit ORed in where they match.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn set_bits(e: &mut [u8], pos: &[u16]) {
    let mut bit = [0u64; MAX_T];
    let mut hi = [0u64; MAX_T];
    split_positions(pos, &mut bit, &mut hi);
    let t = pos.len();
    let nw = e.len().div_ceil(8);
    let mut j0 = 0;
    while j0 < nw {
        let mut acc = [_mm256_setzero_si256(); 8];
        let base = _mm256_setr_epi64x(j0 as i64, j0 as i64 + 1, j0 as i64 + 2, j0 as i64 + 3);
        for (&b, &h) in bit[..t].iter().zip(&hi[..t]) {
            let hb = _mm256_set1_epi64x(h as i64);
            let bb = _mm256_set1_epi64x(b as i64);
            // Lane l of register k compares h with j0 + 4k + l.
            let d = _mm256_sub_epi64(hb, base);
            for (k, a) in acc.iter_mut().enumerate() {
                let same = _mm256_cmpeq_epi64(d, _mm256_set1_epi64x(4 * k as i64));
                *a = _mm256_or_si256(*a, _mm256_and_si256(same, bb));
            }
        }
        let mut words = [0u8; 256];
        for (k, a) in acc.iter().enumerate() {
            st(&mut words, 32 * k, *a);
        }
        let lo = 8 * j0;
        let hi_b = e.len().min(lo + 256);
        e[lo..hi_b].copy_from_slice(&words[..hi_b - lo]);
        zeroize::Zeroize::zeroize(&mut words);
        j0 += 32;
    }
    zeroize::Zeroize::zeroize(&mut bit);
    zeroize::Zeroize::zeroize(&mut hi);
}
