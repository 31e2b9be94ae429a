//! SampleNTT's rejection step on 256-bit vectors (mirrors `crate::sample`):
//! 16 candidates per iteration, compacted by table-driven byte shuffles.
//! Branches and table indices depend on the XOF output of the public seed
//! rho only.

use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128, _mm256_and_si256,
    _mm256_blend_epi16, _mm256_castsi256_si128, _mm256_cmpgt_epi16, _mm256_extracti128_si256,
    _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_permute4x64_epi64, _mm256_set1_epi16,
    _mm256_shuffle_epi8, _mm256_srli_epi16,
};

use super::poly::REJ_SPREAD;
use crate::poly::Q;
use crate::sample;

/// For each 8-bit accept mask: the byte shuffle that packs the accepted
/// 16-bit lanes to the front (public data: SampleNTT reads rho's XOF).
const REJ_COMPACT: [[u8; 16]; 256] = {
    let mut t = [[0x80u8; 16]; 256];
    let mut m = 0;
    while m < 256 {
        let mut n = 0;
        let mut i = 0;
        while i < 8 {
            if (m >> i) & 1 == 1 {
                t[m][2 * n] = 2 * i as u8;
                t[m][2 * n + 1] = 2 * i as u8 + 1;
                n += 1;
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// Population count of each 8-bit accept mask (a table: `count_ones`
/// compiles to a bit-trick sequence without the `popcnt` feature).
const REJ_COUNT: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut m = 0;
    while m < 256 {
        t[m] = (m as u8).count_ones() as u8;
        m += 1;
    }
    t
};

/// Compresses the even bits of a 32-bit mask into 16 bits.
#[inline]
fn even_bits(x: u32) -> u32 {
    let mut x = x & 0x5555_5555;
    x = (x | (x >> 1)) & 0x3333_3333;
    x = (x | (x >> 2)) & 0x0F0F_0F0F;
    x = (x | (x >> 4)) & 0x00FF_00FF;
    (x | (x >> 8)) & 0x0000_FFFF
}

/// SampleNTT's rejection step, 16 candidates per iteration; same output
/// as `sample::rej_uniform`. Branches and table indices depend on the
/// XOF output of rho only (public).
#[target_feature(enable = "avx2")]
pub(super) fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
    let mut ctr = 0;
    let mut pos = 0;
    let bound = _mm256_set1_epi16(Q);
    let mask = _mm256_set1_epi16(0x0FFF);
    // SAFETY: 32-byte table, unaligned load.
    let spread = unsafe { _mm256_loadu_si256(REJ_SPREAD.as_ptr().cast()) };
    while ctr + 16 <= out.len() && pos + 32 <= buf.len() {
        // SAFETY: pos + 32 <= buf.len(): 32 readable bytes (24 used).
        let f = unsafe { _mm256_loadu_si256(buf.as_ptr().add(pos).cast()) };
        let f = _mm256_permute4x64_epi64::<0x94>(f);
        let f = _mm256_shuffle_epi8(f, spread);
        let g = _mm256_srli_epi16::<4>(f);
        let f = _mm256_and_si256(_mm256_blend_epi16::<0xAA>(f, g), mask);
        pos += 24;
        let good = even_bits(_mm256_movemask_epi8(_mm256_cmpgt_epi16(bound, f)) as u32);
        let (lo_m, hi_m) = ((good & 0xFF) as usize, (good >> 8) as usize);
        let lo = _mm256_castsi256_si128(f);
        let hi = _mm256_extracti128_si256::<1>(f);
        // SAFETY: 16-byte table rows; ctr + 16 <= out.len(), so both
        // 8-lane stores (at ctr and at ctr + popcount <= ctr + 8) are in
        // bounds.
        unsafe {
            let sl: __m128i = _mm_loadu_si128(REJ_COMPACT[lo_m].as_ptr().cast());
            _mm_storeu_si128(out.as_mut_ptr().add(ctr).cast(), _mm_shuffle_epi8(lo, sl));
            ctr += usize::from(REJ_COUNT[lo_m]);
            let sh: __m128i = _mm_loadu_si128(REJ_COMPACT[hi_m].as_ptr().cast());
            _mm_storeu_si128(out.as_mut_ptr().add(ctr).cast(), _mm_shuffle_epi8(hi, sh));
            ctr += usize::from(REJ_COUNT[hi_m]);
        }
    }
    ctr + sample::rej_uniform(&mut out[ctr..], &buf[pos..])
}
