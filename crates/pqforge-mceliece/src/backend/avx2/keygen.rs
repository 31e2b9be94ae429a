//! The AVX2 kernels of key generation's Gaussian eliminations (see
//! `keygen`): masked row sums, kept in registers across the source rows,
//! and the bit-vector helpers of the pivot decisions.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi32_si128, _mm256_and_si256, _mm256_cmpeq_epi8, _mm256_cmpgt_epi8,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8, _mm256_set1_epi32,
    _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8, _mm256_sll_epi16,
    _mm256_storeu_si256, _mm256_xor_si256,
};

use super::simd::{ld, st};
use crate::backend::{Backend, Portable};

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn xor_masked(dst: &mut [u8], src: &[u8], mask: u8) {
    let len = dst.len().min(src.len());
    // CT: opaque mask, so the compiler cannot skip the loop when it is 0.
    let mask = core::hint::black_box(mask);
    let m = _mm256_set1_epi8(mask as i8);
    let mut i = 0;
    while i + 32 <= len {
        let v = _mm256_xor_si256(ld(dst, i), _mm256_and_si256(ld(src, i), m));
        st(dst, i, v);
        i += 32;
    }
    Portable::xor_masked(&mut dst[i..len], &src[i..len], mask);
}

/// `Q` registers of [`xor_rows_masked`] from byte `j` on, kept in
/// registers across all the sources (one bounds check per source row).
#[inline]
#[target_feature(enable = "avx2")]
fn rows_masked_run<const Q: usize>(
    dst: &mut [u8],
    src: &[u8],
    stride: usize,
    masks: &[u8],
    j: usize,
) {
    let d = &mut dst[j..j + 32 * Q];
    // SAFETY: `d` has 32 * Q bytes; unaligned loads.
    let mut a: [__m256i; Q] =
        core::array::from_fn(|q| unsafe { _mm256_loadu_si256(d.as_ptr().add(32 * q).cast()) });
    for (b, &mk) in masks.iter().enumerate() {
        let m = _mm256_set1_epi8(mk as i8);
        let o = b * stride + j;
        let s = &src[o..o + 32 * Q];
        for (q, x) in a.iter_mut().enumerate() {
            // SAFETY: `s` has 32 * Q bytes; unaligned load.
            let v = unsafe { _mm256_loadu_si256(s.as_ptr().add(32 * q).cast()) };
            *x = _mm256_xor_si256(*x, _mm256_and_si256(v, m));
        }
    }
    for (q, x) in a.iter().enumerate() {
        // SAFETY: `d` has 32 * Q bytes; unaligned store.
        unsafe { _mm256_storeu_si256(d.as_mut_ptr().add(32 * q).cast(), *x) };
    }
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn xor_rows_masked(dst: &mut [u8], src: &[u8], stride: usize, masks: &[u8]) {
    let len = dst.len();
    // The whole 32-byte chunks in as few runs of at most twelve registers
    // as possible, of balanced sizes (13 chunks: 7 + 6, not 12 + 1): every
    // run reads each source row once, so fewer runs mean fewer passes
    // over the sources.
    let mut left = len / 32;
    let mut runs = left.div_ceil(12);
    let mut j = 0;
    while left > 0 {
        let q = left.div_ceil(runs);
        match q {
            1 => rows_masked_run::<1>(dst, src, stride, masks, j),
            2 => rows_masked_run::<2>(dst, src, stride, masks, j),
            3 => rows_masked_run::<3>(dst, src, stride, masks, j),
            4 => rows_masked_run::<4>(dst, src, stride, masks, j),
            5 => rows_masked_run::<5>(dst, src, stride, masks, j),
            6 => rows_masked_run::<6>(dst, src, stride, masks, j),
            7 => rows_masked_run::<7>(dst, src, stride, masks, j),
            8 => rows_masked_run::<8>(dst, src, stride, masks, j),
            9 => rows_masked_run::<9>(dst, src, stride, masks, j),
            10 => rows_masked_run::<10>(dst, src, stride, masks, j),
            11 => rows_masked_run::<11>(dst, src, stride, masks, j),
            _ => rows_masked_run::<12>(dst, src, stride, masks, j),
        }
        j += 32 * q;
        left -= q;
        runs -= 1;
    }
    if j < len && len >= 32 {
        // The last partial chunk: one vector over the last 32 bytes, the
        // bytes before `j` (already done) masked out of every source.
        let e = len - 32;
        let keep = _mm256_cmpgt_epi8(
            _mm256_setr_epi8(
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25, 26, 27, 28, 29, 30, 31,
            ),
            _mm256_set1_epi8((j - e) as i8 - 1),
        );
        let mut a = ld(dst, e);
        for (b, &mk) in masks.iter().enumerate() {
            let m = _mm256_and_si256(_mm256_set1_epi8(mk as i8), keep);
            a = _mm256_xor_si256(a, _mm256_and_si256(ld(src, b * stride + e), m));
        }
        st(dst, e, a);
    } else if j < len {
        for (b, &mk) in masks.iter().enumerate() {
            Portable::xor_masked(&mut dst[j..], &src[b * stride + j..b * stride + len], mk);
        }
    }
}

/// [`Backend::byte_planes`]: 32 bytes per register, one `vpmovmskb`
/// per plane after moving bit `i` of every byte to its top bit.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn byte_planes(bytes: &[u8], planes: &mut [u64], stride: usize, nb: usize) {
    let nw = bytes.len().div_ceil(64);
    for i in 0..nb {
        planes[i * stride..i * stride + nw].fill(0);
    }
    for (g, chunk) in bytes.chunks(32).enumerate() {
        let mut b = [0u8; 32];
        b[..chunk.len()].copy_from_slice(chunk);
        let v = ld(&b, 0);
        b.fill(0);
        let (q, s) = (g / 2, 32 * (g % 2));
        for i in 0..nb {
            // 16-bit lanes shifted left by 7 - i: bit i of both bytes
            // lands on the byte's top bit.
            let top = _mm256_sll_epi16(v, _mm_cvtsi32_si128(7 - i as i32));
            let bitsv = _mm256_movemask_epi8(top) as u32;
            planes[i * stride + q] |= u64::from(bitsv) << s;
        }
    }
}

/// [`Backend::expand_bits`]: 32 masks per register (the 32 bits
/// broadcast, byte `i` picks the byte holding its bit, then one compare).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn expand_bits(bits: &[u64], first: usize, out: &mut [u8]) {
    let word = |k: usize| bits.get(k).copied().unwrap_or(0);
    let spread = _mm256_setr_epi8(
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3,
        3, 3,
    );
    let bit = _mm256_set1_epi64x(0x8040_2010_0804_0201u64 as i64);
    for (g, chunk) in out.chunks_mut(32).enumerate() {
        let k = first + 32 * g;
        let (q, r) = (k / 64, k % 64);
        let w = if r == 0 {
            word(q)
        } else {
            (word(q) >> r) | (word(q + 1) << (64 - r))
        };
        let v = _mm256_shuffle_epi8(_mm256_set1_epi32(w as u32 as i32), spread);
        let m = _mm256_cmpeq_epi8(_mm256_and_si256(v, bit), bit);
        let mut b = [0u8; 32];
        st(&mut b, 0, m);
        chunk.copy_from_slice(&b[..chunk.len()]);
        zeroize::Zeroize::zeroize(&mut b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::{Backend, Portable};
    use pqforge_core::cpu::Avx2;

    /// The bit-vector kernels of the elimination, AVX2 against portable,
    /// on lengths and offsets that are not multiples of the vector width.
    #[test]
    fn bit_kernels_match_portable() {
        if Avx2::detect().is_none() {
            return;
        }
        let mut rng = pqforge_core::testing::TestRng::new(0x5EED);
        let mut next = || rng.next_u64();
        for len in [1usize, 7, 8, 31, 32, 33, 64, 65, 200, 1547, 1664] {
            let bytes: std::vec::Vec<u8> = (0..len).map(|_| next() as u8).collect();
            for nb in [1usize, 5, 8] {
                let mut p = std::vec![!0u64; 8 * 27];
                let mut a = p.clone();
                Portable::byte_planes(&bytes, &mut p, 27, nb);
                // SAFETY: AVX2 support was checked.
                unsafe { byte_planes(&bytes, &mut a, 27, nb) };
                assert_eq!(p, a, "byte_planes len {len} nb {nb}");
            }
            let bits: std::vec::Vec<u64> = (0..len.div_ceil(64)).map(|_| next()).collect();
            for first in [0usize, 1, 7, 63, 64, 65] {
                let n = len.saturating_sub(first).max(1);
                let mut p = std::vec![0x11u8; n];
                let mut a = std::vec![0x22u8; n];
                Portable::expand_bits(&bits, first, &mut p);
                // SAFETY: AVX2 support was checked.
                unsafe { expand_bits(&bits, first, &mut a) };
                assert_eq!(p, a, "expand_bits len {len} first {first}");
            }
        }
        // Masked row sums with a partial last chunk (the overlapping
        // vector) and with balanced runs.
        for len in [5usize, 32, 45, 194, 208, 224, 416, 483, 608] {
            let stride = len + 40;
            for ns in [1usize, 3, 13] {
                let src: std::vec::Vec<u8> = (0..ns * stride).map(|_| next() as u8).collect();
                let masks: std::vec::Vec<u8> = (0..ns).map(|_| (next() & 1) as u8 * 0xFF).collect();
                let dst0: std::vec::Vec<u8> = (0..len).map(|_| next() as u8).collect();
                let mut p = dst0.clone();
                let mut a = dst0.clone();
                Portable::xor_rows_masked(&mut p, &src, stride, &masks);
                // SAFETY: AVX2 support was checked.
                unsafe { xor_rows_masked(&mut a, &src, stride, &masks) };
                assert_eq!(p, a, "xor_rows_masked len {len} sources {ns}");
            }
        }
    }
}
