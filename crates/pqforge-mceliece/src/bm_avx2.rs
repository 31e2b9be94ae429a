//! Berlekamp–Massey on AVX2 (x86_64): the generic algorithm of
//! [`crate::bm`] instantiated with 128/256-bit lane groups.
//!
//! For t > 64 a polynomial's t lanes fit one 128-bit register and
//! `[C | B]` one 256-bit register, so every AND/XOR of the two bitsliced
//! products per step is a single instruction. For t = 64 C is one 64-bit
//! word (the discrepancy product runs on the integer units) and `[C | B]`
//! one 128-bit register (the update runs on the vector units in parallel).
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_blend_epi16, _mm_castps_si128, _mm_castsi128_ps,
    _mm_cmpeq_epi64, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_extract_epi64, _mm_movemask_epi8,
    _mm_or_si128, _mm_set_epi64x, _mm_set1_epi8, _mm_set1_epi16, _mm_set1_epi64x, _mm_setr_epi8,
    _mm_setzero_si128, _mm_shuffle_epi8, _mm_shuffle_epi32, _mm_shuffle_ps, _mm_slli_epi16,
    _mm_slli_epi32, _mm_sllv_epi64, _mm_srl_epi64, _mm_srli_epi16, _mm_srli_epi32,
    _mm_unpackhi_epi64, _mm_unpacklo_epi64, _mm_xor_si128, _mm256_and_si256,
    _mm256_castsi256_si128, _mm256_cmpeq_epi64, _mm256_extracti128_si256, _mm256_set_epi64x,
    _mm256_set_m128i, _mm256_set1_epi64x, _mm256_setzero_si256, _mm256_xor_si256,
};

use crate::ParameterSet;
use crate::bm::{Both, Lanes, Poly, bm_core};

/// [`crate::bm::bm`] on AVX2: identical output.
///
/// # Safety
/// The CPU must support AVX2 (callers check it with
/// `backend::avx2::Token::get()`).
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn bm_avx2<P: ParameterSet>(out: &mut [u16], s: &[u16]) {
    match (P::M, P::T <= 64) {
        (12, true) => bm_core::<X1, 12>(P::T, out, s),
        (12, false) => bm_core::<Y2, 12>(P::T, out, s),
        (_, true) => bm_core::<X1, 13>(P::T, out, s),
        (_, false) => bm_core::<Y2, 13>(P::T, out, s),
    }
}

// Invariant of the types below: their methods are only called from
// `bm_avx2` (they are `inline(always)`, so they are compiled inside its
// `target_feature(enable = "avx2")` body), which requires AVX2.

/// 128 lanes (two interleaved words): one polynomial for t <= 128.
#[derive(Clone, Copy)]
pub(crate) struct X(__m128i);

/// `[C | B]`, 128 lanes each (C in the low half).
#[derive(Clone, Copy)]
pub(crate) struct Y2(__m256i);

/// `[C | B]`, 64 lanes each (C in the low word).
#[derive(Clone, Copy)]
pub(crate) struct X1(__m128i);

impl Lanes for X {
    const HORNER: bool = true;
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: see the invariant above.
        unsafe { X(_mm_setzero_si128()) }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: see the invariant above.
        unsafe { X(_mm_and_si128(self.0, o.0)) }
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: see the invariant above.
        unsafe { X(_mm_xor_si128(self.0, o.0)) }
    }
}

impl Poly for X {
    const W: usize = 2;
    #[inline(always)]
    fn splat(mask: u64) -> Self {
        // SAFETY: see the invariant above.
        unsafe { X(_mm_set1_epi64x(mask as i64)) }
    }
    #[inline(always)]
    fn scalar(x: u16) -> Self {
        // SAFETY: see the invariant above.
        unsafe { X(_mm_cvtsi64_si128(i64::from(x))) }
    }
    #[inline(always)]
    fn keep(t: usize) -> Self {
        let w = <[u64; 2] as Poly>::keep(t);
        // SAFETY: see the invariant above.
        unsafe { X(_mm_set_epi64x(w[1] as i64, w[0] as i64)) }
    }
    #[inline(always)]
    fn shl1(self, src: Self, p: usize) -> Self {
        // SAFETY: see the invariant above.
        unsafe {
            // [w0, w1] -> [w1 << 1 | bit, w0].
            let sw = _mm_shuffle_epi32::<0x4E>(self.0);
            let up = _mm_sllv_epi64(sw, _mm_set_epi64x(0, 1));
            let bit = _mm_and_si128(
                _mm_srl_epi64(src.0, _mm_cvtsi64_si128(p as i64)),
                _mm_set_epi64x(0, 1),
            );
            X(_mm_or_si128(up, bit))
        }
    }
    #[inline(always)]
    fn words(self) -> [u64; 2] {
        // SAFETY: see the invariant above.
        unsafe {
            [
                _mm_cvtsi128_si64(self.0) as u64,
                _mm_extract_epi64::<1>(self.0) as u64,
            ]
        }
    }
    /// XOR-folds the planes while packing them into one register (128 ->
    /// 64 -> 32 -> 16 -> 8 bits per plane), then takes the byte parities
    /// with a nibble table and collects them with `movemask`. The planes
    /// enter in the order that makes byte k the fold of plane k.
    #[inline(always)]
    fn parities<const M: usize>(v: &[Self; 13]) -> u16 {
        // Slot q of the packing network ends in byte ORDER^-1(q).
        const ORDER: [usize; 16] = [0, 4, 8, 12, 2, 6, 10, 14, 1, 5, 9, 13, 3, 7, 11, 15];
        // SAFETY: see the invariant above.
        unsafe {
            let z = _mm_setzero_si128();
            // Unused slots take any plane (their bits are masked off at
            // the end): with a zero there LLVM emits the register form of
            // `vmovq` (66 0F D6), which valgrind 3.19 cannot decode, and
            // the constant-time harness runs under valgrind.
            let pl = |q: usize| if ORDER[q] < M { v[ORDER[q]].0 } else { v[0].0 };
            // 128 -> 64: q[i] = [fold(slot 2i), fold(slot 2i + 1)].
            let mut q = [z; 8];
            for (i, x) in q.iter_mut().enumerate() {
                let (a, b) = (pl(2 * i), pl(2 * i + 1));
                *x = _mm_xor_si128(_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b));
            }
            // 64 -> 32: r[i] dword k = slot 4i + k.
            let mut r = [z; 4];
            for (i, x) in r.iter_mut().enumerate() {
                let (a, b) = (_mm_castsi128_ps(q[2 * i]), _mm_castsi128_ps(q[2 * i + 1]));
                *x = _mm_xor_si128(
                    _mm_castps_si128(_mm_shuffle_ps::<0x88>(a, b)),
                    _mm_castps_si128(_mm_shuffle_ps::<0xDD>(a, b)),
                );
            }
            // 32 -> 16: word 2k of s[i] = r[2i] dword k, word 2k + 1 =
            // r[2i + 1] dword k.
            let mut s = [z; 2];
            for (i, x) in s.iter_mut().enumerate() {
                let (a, b) = (r[2 * i], r[2 * i + 1]);
                let lo = _mm_blend_epi16::<0xAA>(a, _mm_slli_epi32::<16>(b));
                let hi = _mm_blend_epi16::<0xAA>(_mm_srli_epi32::<16>(a), b);
                *x = _mm_xor_si128(lo, hi);
            }
            // 16 -> 8: byte 2m = s[0] word m, byte 2m + 1 = s[1] word m.
            let lo8 = _mm_set1_epi16(0x00FF);
            let hi8 = _mm_set1_epi16(0xFF00u16 as i16);
            let lo = _mm_or_si128(_mm_and_si128(s[0], lo8), _mm_slli_epi16::<8>(s[1]));
            let hi = _mm_or_si128(_mm_srli_epi16::<8>(s[0]), _mm_and_si128(s[1], hi8));
            let x = _mm_xor_si128(lo, hi);
            // Byte parity into the top bit: table of nibble parities.
            let tab = _mm_setr_epi8(
                0, -128, -128, 0, -128, 0, 0, -128, -128, 0, 0, -128, 0, -128, -128, 0,
            );
            let nib = _mm_set1_epi8(0x0F);
            let pl = _mm_shuffle_epi8(tab, _mm_and_si128(x, nib));
            let ph = _mm_shuffle_epi8(tab, _mm_and_si128(_mm_srli_epi16::<4>(x), nib));
            (_mm_movemask_epi8(_mm_xor_si128(pl, ph)) as u16) & ((1 << M) - 1)
        }
    }
}

impl Lanes for Y2 {
    const HORNER: bool = true;
    #[inline(always)]
    fn zero() -> Self {
        // SAFETY: see the invariant above.
        unsafe { Y2(_mm256_setzero_si256()) }
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        // SAFETY: see the invariant above.
        unsafe { Y2(_mm256_and_si256(self.0, o.0)) }
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        // SAFETY: see the invariant above.
        unsafe { Y2(_mm256_xor_si256(self.0, o.0)) }
    }
}

impl Both for Y2 {
    type H = X;
    #[inline(always)]
    fn c(self) -> X {
        // SAFETY: see the invariant above.
        unsafe { X(_mm256_castsi256_si128(self.0)) }
    }
    #[inline(always)]
    fn b(self) -> X {
        // SAFETY: see the invariant above.
        unsafe { X(_mm256_extracti128_si256::<1>(self.0)) }
    }
    #[inline(always)]
    fn join(c: X, b: X) -> Self {
        // SAFETY: see the invariant above.
        unsafe { Y2(_mm256_set_m128i(b.0, c.0)) }
    }
    #[inline(always)]
    fn masks<const M: usize>(cs: u16, bs: u16) -> [Self; 13] {
        let mut mk = [Self::zero(); 13];
        // SAFETY: see the invariant above.
        unsafe {
            let v = _mm256_set_epi64x(i64::from(bs), i64::from(bs), i64::from(cs), i64::from(cs));
            for (j, x) in mk[..M].iter_mut().enumerate() {
                let bit = _mm256_set1_epi64x(1 << j);
                *x = Y2(_mm256_cmpeq_epi64(_mm256_and_si256(v, bit), bit));
            }
        }
        // CT: opaque (kept in memory; the products read them from there).
        core::hint::black_box(mk)
    }
}

impl Lanes for X1 {
    const HORNER: bool = true;
    #[inline(always)]
    fn zero() -> Self {
        X1(X::zero().0)
    }
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        X1(X(self.0).and(X(o.0)).0)
    }
    #[inline(always)]
    fn xor(self, o: Self) -> Self {
        X1(X(self.0).xor(X(o.0)).0)
    }
}

impl Both for X1 {
    type H = [u64; 1];
    #[inline(always)]
    fn c(self) -> [u64; 1] {
        // SAFETY: see the invariant above.
        unsafe { [_mm_cvtsi128_si64(self.0) as u64] }
    }
    #[inline(always)]
    fn b(self) -> [u64; 1] {
        // SAFETY: see the invariant above.
        unsafe { [_mm_extract_epi64::<1>(self.0) as u64] }
    }
    #[inline(always)]
    fn join(c: [u64; 1], b: [u64; 1]) -> Self {
        // SAFETY: see the invariant above.
        unsafe { X1(_mm_set_epi64x(b[0] as i64, c[0] as i64)) }
    }
    #[inline(always)]
    fn masks<const M: usize>(cs: u16, bs: u16) -> [Self; 13] {
        let mut mk = [Self::zero(); 13];
        // SAFETY: see the invariant above.
        unsafe {
            let v = _mm_set_epi64x(i64::from(bs), i64::from(cs));
            for (j, x) in mk[..M].iter_mut().enumerate() {
                let bit = _mm_set1_epi64x(1 << j);
                *x = X1(_mm_cmpeq_epi64(_mm_and_si128(v, bit), bit));
            }
        }
        // CT: opaque (kept in memory; the products read them from there).
        core::hint::black_box(mk)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parities_match_scalar() {
        if crate::backend::avx2::Token::get().is_none() {
            return;
        }
        let mut s = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..200 {
            let mut v = [[0u64; 2]; 13];
            for p in v.iter_mut().flatten() {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *p = s;
            }
            // SAFETY: AVX2 checked above.
            let x: [X; 13] = unsafe {
                core::array::from_fn(|k| X(_mm_set_epi64x(v[k][1] as i64, v[k][0] as i64)))
            };
            let want = <[u64; 2] as Poly>::parities::<13>(&v);
            // SAFETY: AVX2 checked above.
            let got = unsafe { par13(&x) };
            assert_eq!(got, want);
        }
    }

    #[target_feature(enable = "avx2")]
    fn par13(x: &[X; 13]) -> u16 {
        X::parities::<13>(x)
    }
}
