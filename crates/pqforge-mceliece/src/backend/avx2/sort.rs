//! The sorting networks on AVX2 (the `sort` kernels of key generation).
//!
//! The bitonic network in its direction-free form (each merge of size k
//! first compares `i` with the mirrored `k - 1 - i`, then runs ascending
//! half-cleaners), which sorts exactly like the portable network's
//! compare-exchanges: both produce the sorted sequence, and sorting is a
//! function of the input. Distances of a whole register and more pair
//! two registers; the smaller ones permute lanes inside one register.
//! Compare-exchange is `min`/`max` (u32) or a 64-bit compare and blend
//! (u64): no branch, no data-dependent address.

use core::arch::x86_64::{
    __m256i, _mm256_blend_epi32, _mm256_blendv_epi8, _mm256_cmpgt_epi64, _mm256_max_epu32,
    _mm256_min_epu32, _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32, _mm256_set1_epi64x,
    _mm256_setr_epi32, _mm256_shuffle_epi32, _mm256_xor_si256,
};

use super::simd::{ld, st};
use crate::backend::{Backend, Portable};

/// One register of sort keys and the compare-exchange network pieces
/// that stay inside it. The methods need AVX2: only [`sort`] calls them.
pub(super) trait Lanes {
    /// Words per register.
    const L: usize;
    /// Bytes per word.
    const W: usize;
    /// Lane-wise `(min, max)`.
    fn minmax(a: __m256i, b: __m256i) -> (__m256i, __m256i);
    /// Lanes in reverse order.
    fn rev(v: __m256i) -> __m256i;
    /// Sorts the register ascending (merges of size 2..=L).
    fn sort_in(v: __m256i) -> __m256i;
    /// Half-cleaners of distance L/2, ..., 1 inside the register.
    fn clean_in(v: __m256i) -> __m256i;
}

pub(super) struct U32x8;

/// Compare-exchange of lane `l` with lane `l ^ d` (or the mirrored lane),
/// `t` holding the partner lanes, `$hi` the blend mask of the upper lanes.
macro_rules! cx_in {
    ($ty:ty, $v:expr, $t:expr, $hi:literal) => {{
        let (mn, mx) = <$ty>::minmax($v, $t);
        _mm256_blend_epi32::<$hi>(mn, mx)
    }};
}

impl Lanes for U32x8 {
    const L: usize = 8;
    const W: usize = 4;
    #[inline(always)]
    fn minmax(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: only called by `sort`, which runs with AVX2 enabled.
        unsafe { (mm_u32(a, b, true), mm_u32(a, b, false)) }
    }
    #[inline(always)]
    fn rev(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { rev_u32(v) }
    }
    #[inline(always)]
    fn sort_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { sort_in_u32(v) }
    }
    #[inline(always)]
    fn clean_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { clean_in_u32(v) }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn mm_u32(a: __m256i, b: __m256i, min: bool) -> __m256i {
    if min {
        _mm256_min_epu32(a, b)
    } else {
        _mm256_max_epu32(a, b)
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn rev_u32(v: __m256i) -> __m256i {
    _mm256_permutevar8x32_epi32(v, _mm256_setr_epi32(7, 6, 5, 4, 3, 2, 1, 0))
}

#[inline]
#[target_feature(enable = "avx2")]
fn clean_in_u32(v: __m256i) -> __m256i {
    let v = cx_in!(U32x8, v, _mm256_permute4x64_epi64::<0x4E>(v), 0xF0); // d = 4
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0x4E>(v), 0xCC); // d = 2
    cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA) // d = 1
}

#[inline]
#[target_feature(enable = "avx2")]
fn sort_in_u32(v: __m256i) -> __m256i {
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA); // k = 2
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0x1B>(v), 0xCC); // k = 4: mirror
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA);
    let v = cx_in!(U32x8, v, rev_u32(v), 0xF0); // k = 8: mirror
    let v = cx_in!(U32x8, v, _mm256_shuffle_epi32::<0x4E>(v), 0xCC);
    cx_in!(U32x8, v, _mm256_shuffle_epi32::<0xB1>(v), 0xAA)
}

pub(super) struct U64x4;

impl Lanes for U64x4 {
    const L: usize = 4;
    const W: usize = 8;
    #[inline(always)]
    fn minmax(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
        // SAFETY: only called by `sort`, which runs with AVX2 enabled.
        unsafe { mm_u64(a, b) }
    }
    #[inline(always)]
    fn rev(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { rev_u64(v) }
    }
    #[inline(always)]
    fn sort_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { sort_in_u64(v) }
    }
    #[inline(always)]
    fn clean_in(v: __m256i) -> __m256i {
        // SAFETY: as above.
        unsafe { clean_in_u64(v) }
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn mm_u64(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // Unsigned compare as a signed one on words with the top bit flipped.
    let s = _mm256_set1_epi64x(i64::MIN);
    let gt = _mm256_cmpgt_epi64(_mm256_xor_si256(a, s), _mm256_xor_si256(b, s));
    (_mm256_blendv_epi8(a, b, gt), _mm256_blendv_epi8(b, a, gt))
}

#[inline]
#[target_feature(enable = "avx2")]
fn rev_u64(v: __m256i) -> __m256i {
    _mm256_permute4x64_epi64::<0x1B>(v)
}

#[inline]
#[target_feature(enable = "avx2")]
fn clean_in_u64(v: __m256i) -> __m256i {
    let v = cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0x4E>(v), 0xF0); // d = 2
    cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0xB1>(v), 0xCC) // d = 1
}

#[inline]
#[target_feature(enable = "avx2")]
fn sort_in_u64(v: __m256i) -> __m256i {
    let v = cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0xB1>(v), 0xCC); // k = 2
    let v = cx_in!(U64x4, v, rev_u64(v), 0xF0); // k = 4: mirror
    cx_in!(U64x4, v, _mm256_permute4x64_epi64::<0xB1>(v), 0xCC)
}

/// Sorts the little-endian words of `buf` ascending (power-of-two count).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn sort<V: Lanes>(buf: &mut [u8]) {
    let (l, w) = (V::L, V::W);
    let n = buf.len() / w;
    debug_assert!(n.is_power_of_two() && buf.len() == n * w);
    if n < 2 * l {
        if w == 4 {
            Portable::sort_u32(buf);
        } else {
            Portable::sort_u64(buf);
        }
        return;
    }
    let rb = 32; // bytes per register
    for off in (0..n * w).step_by(rb) {
        st(buf, off, V::sort_in(ld(buf, off)));
    }
    let mut k = 2 * l;
    while k <= n {
        // Merge: mirror stage, then half-cleaners down to one register.
        for blk in (0..n).step_by(k) {
            for i in (0..k / 2).step_by(l) {
                let (a, b) = ((blk + i) * w, (blk + k - l - i) * w);
                let (mn, mx) = V::minmax(ld(buf, a), V::rev(ld(buf, b)));
                st(buf, a, mn);
                st(buf, b, V::rev(mx));
            }
        }
        let mut j = k / 4;
        while j >= l {
            for blk in (0..n).step_by(2 * j) {
                for i in (0..j).step_by(l) {
                    let (a, b) = ((blk + i) * w, (blk + i + j) * w);
                    let (mn, mx) = V::minmax(ld(buf, a), ld(buf, b));
                    st(buf, a, mn);
                    st(buf, b, mx);
                }
            }
            j /= 2;
        }
        for off in (0..n * w).step_by(rb) {
            st(buf, off, V::clean_in(ld(buf, off)));
        }
        k *= 2;
    }
}
