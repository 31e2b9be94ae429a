//! AVX2 FFT and inverse FFT on native `f64`, four lanes (not built with
//! the `fpr-emulated` feature, where `Fpr` is not an `f64`).
//!
//! Bit-identical to [`crate::fft::fft`] / [`crate::fft::ifft`]: every lane
//! performs exactly the scalar operations, in the same order (separate
//! multiply, add and subtract instructions; no fused multiply-add, which
//! would round differently). Only the data movement differs.
//!
//! Layers whose butterfly distance is 4 or more are plain vector code with
//! a broadcast twiddle. Distance 2 pairs two blocks through 128-bit lane
//! swaps, distance 1 four blocks through `unpacklo` / `unpackhi`.
//!
//! CT: no branch or index on the data (the FFT also runs on secret keys).

use core::arch::x86_64::{
    __m256d, _mm256_add_pd, _mm256_loadu_pd, _mm256_mul_pd, _mm256_permute2f128_pd,
    _mm256_permute4x64_pd, _mm256_set1_pd, _mm256_storeu_pd, _mm256_sub_pd, _mm256_unpackhi_pd,
    _mm256_unpacklo_pd, _mm256_xor_pd,
};

use pqforge_core::cpu::Avx2;

use crate::fpr::{Fpr, GM, P2_TAB};

/// Four lanes from `a[i..i + 4]`.
#[inline(always)]
fn ld(a: &[Fpr], i: usize) -> __m256d {
    let s = &a[i..i + 4];
    // SAFETY: `s` holds 4 `Fpr` (repr(transparent) over f64) = 32 bytes.
    unsafe { _mm256_loadu_pd(s.as_ptr().cast()) }
}

/// Stores four lanes into `a[i..i + 4]`.
#[inline(always)]
fn st(a: &mut [Fpr], i: usize, x: __m256d) {
    let s = &mut a[i..i + 4];
    // SAFETY: `s` holds 4 `Fpr` (repr(transparent) over f64) = 32 bytes.
    unsafe { _mm256_storeu_pd(s.as_mut_ptr().cast(), x) }
}

/// (a_re + i a_im)(b_re + i b_im), lane-wise, in the order of
/// [`crate::fft::cmul`].
#[inline]
#[target_feature(enable = "avx2")]
fn cmul(ar: __m256d, ai: __m256d, br: __m256d, bi: __m256d) -> (__m256d, __m256d) {
    (
        _mm256_sub_pd(_mm256_mul_pd(ar, br), _mm256_mul_pd(ai, bi)),
        _mm256_add_pd(_mm256_mul_pd(ar, bi), _mm256_mul_pd(ai, br)),
    )
}

/// Lane-wise negation (sign flip, as `Neg` on `f64`).
#[inline]
#[target_feature(enable = "avx2")]
fn neg(x: __m256d) -> __m256d {
    _mm256_xor_pd(x, _mm256_set1_pd(-0.0))
}

/// Twiddles of two consecutive blocks k, k+1, each repeated twice:
/// ([re_k re_k re_k1 re_k1], [im_k im_k im_k1 im_k1]).
#[inline]
#[target_feature(enable = "avx2")]
fn tw2(k: usize) -> (__m256d, __m256d) {
    let v = ld(&GM[..], k << 1);
    (
        _mm256_permute4x64_pd::<0xA0>(v),
        _mm256_permute4x64_pd::<0xF5>(v),
    )
}

/// Twiddles of four consecutive blocks k..k+4 in the order 0, 2, 1, 3 (the
/// order `unpacklo`/`unpackhi` leave the blocks in).
#[inline]
#[target_feature(enable = "avx2")]
fn tw4(k: usize) -> (__m256d, __m256d) {
    let v0 = ld(&GM[..], k << 1);
    let v1 = ld(&GM[..], (k << 1) + 4);
    (_mm256_unpacklo_pd(v0, v1), _mm256_unpackhi_pd(v0, v1))
}

/// Forward FFT, `logn` >= 4.
pub(crate) fn fft(_: Avx2, f: &mut [Fpr], logn: u32) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { fft_avx2(f, logn) }
}

/// Inverse FFT (with the 2/n scaling of [`crate::fft::ifft`]), `logn` >= 4.
pub(crate) fn ifft(_: Avx2, f: &mut [Fpr], logn: u32) {
    // SAFETY: the token proves that the CPU supports AVX2.
    unsafe { ifft_avx2(f, logn) }
}

#[target_feature(enable = "avx2")]
fn fft_avx2(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let f = &mut f[..n];
    let mut t = hn;
    let mut m = 2;
    for _ in 1..logn {
        let ht = t >> 1;
        let hm = m >> 1;
        if ht >= 4 {
            for i1 in 0..hm {
                let j1 = i1 * t;
                let sr = _mm256_set1_pd(GM[(m + i1) << 1].to_f64());
                let si = _mm256_set1_pd(GM[((m + i1) << 1) + 1].to_f64());
                for j in (j1..j1 + ht).step_by(4) {
                    let (xr, xi) = (ld(f, j), ld(f, j + hn));
                    let (yr, yi) = cmul(ld(f, j + ht), ld(f, j + ht + hn), sr, si);
                    st(f, j, _mm256_add_pd(xr, yr));
                    st(f, j + hn, _mm256_add_pd(xi, yi));
                    st(f, j + ht, _mm256_sub_pd(xr, yr));
                    st(f, j + ht + hn, _mm256_sub_pd(xi, yi));
                }
            }
        } else if ht == 2 {
            // Blocks of 4: [a a b b]; two blocks per step.
            for i1 in (0..hm).step_by(2) {
                let j = i1 * 4;
                let (sr, si) = tw2(m + i1);
                let (r0, r1) = (ld(f, j), ld(f, j + 4));
                let (q0, q1) = (ld(f, j + hn), ld(f, j + 4 + hn));
                let ar = _mm256_permute2f128_pd::<0x20>(r0, r1);
                let br = _mm256_permute2f128_pd::<0x31>(r0, r1);
                let ai = _mm256_permute2f128_pd::<0x20>(q0, q1);
                let bi = _mm256_permute2f128_pd::<0x31>(q0, q1);
                let (yr, yi) = cmul(br, bi, sr, si);
                let (xr, zr) = (_mm256_add_pd(ar, yr), _mm256_sub_pd(ar, yr));
                let (xi, zi) = (_mm256_add_pd(ai, yi), _mm256_sub_pd(ai, yi));
                st(f, j, _mm256_permute2f128_pd::<0x20>(xr, zr));
                st(f, j + 4, _mm256_permute2f128_pd::<0x31>(xr, zr));
                st(f, j + hn, _mm256_permute2f128_pd::<0x20>(xi, zi));
                st(f, j + 4 + hn, _mm256_permute2f128_pd::<0x31>(xi, zi));
            }
        } else {
            // Blocks of 2: [a b]; four blocks per step.
            for i1 in (0..hm).step_by(4) {
                let j = i1 * 2;
                let (sr, si) = tw4(m + i1);
                let (r0, r1) = (ld(f, j), ld(f, j + 4));
                let (q0, q1) = (ld(f, j + hn), ld(f, j + 4 + hn));
                let ar = _mm256_unpacklo_pd(r0, r1);
                let br = _mm256_unpackhi_pd(r0, r1);
                let ai = _mm256_unpacklo_pd(q0, q1);
                let bi = _mm256_unpackhi_pd(q0, q1);
                let (yr, yi) = cmul(br, bi, sr, si);
                let (xr, zr) = (_mm256_add_pd(ar, yr), _mm256_sub_pd(ar, yr));
                let (xi, zi) = (_mm256_add_pd(ai, yi), _mm256_sub_pd(ai, yi));
                st(f, j, _mm256_unpacklo_pd(xr, zr));
                st(f, j + 4, _mm256_unpackhi_pd(xr, zr));
                st(f, j + hn, _mm256_unpacklo_pd(xi, zi));
                st(f, j + 4 + hn, _mm256_unpackhi_pd(xi, zi));
            }
        }
        t = ht;
        m <<= 1;
    }
}

#[target_feature(enable = "avx2")]
fn ifft_avx2(f: &mut [Fpr], logn: u32) {
    let n = 1usize << logn;
    let hn = n >> 1;
    let f = &mut f[..n];
    let mut t = 1;
    let mut m = n;
    for _ in (2..=logn).rev() {
        let hm = m >> 1;
        let dt = t << 1;
        if t == 1 {
            for i1 in (0..hn >> 1).step_by(4) {
                let j = i1 * 2;
                let (sr, si) = tw4(hm + i1);
                let si = neg(si);
                let (r0, r1) = (ld(f, j), ld(f, j + 4));
                let (q0, q1) = (ld(f, j + hn), ld(f, j + 4 + hn));
                let xr = _mm256_unpacklo_pd(r0, r1);
                let yr = _mm256_unpackhi_pd(r0, r1);
                let xi = _mm256_unpacklo_pd(q0, q1);
                let yi = _mm256_unpackhi_pd(q0, q1);
                let (ar, ai) = (_mm256_add_pd(xr, yr), _mm256_add_pd(xi, yi));
                let (dr, di) = cmul(_mm256_sub_pd(xr, yr), _mm256_sub_pd(xi, yi), sr, si);
                st(f, j, _mm256_unpacklo_pd(ar, dr));
                st(f, j + 4, _mm256_unpackhi_pd(ar, dr));
                st(f, j + hn, _mm256_unpacklo_pd(ai, di));
                st(f, j + 4 + hn, _mm256_unpackhi_pd(ai, di));
            }
        } else if t == 2 {
            for i1 in (0..hn >> 2).step_by(2) {
                let j = i1 * 4;
                let (sr, si) = tw2(hm + i1);
                let si = neg(si);
                let (r0, r1) = (ld(f, j), ld(f, j + 4));
                let (q0, q1) = (ld(f, j + hn), ld(f, j + 4 + hn));
                let xr = _mm256_permute2f128_pd::<0x20>(r0, r1);
                let yr = _mm256_permute2f128_pd::<0x31>(r0, r1);
                let xi = _mm256_permute2f128_pd::<0x20>(q0, q1);
                let yi = _mm256_permute2f128_pd::<0x31>(q0, q1);
                let (ar, ai) = (_mm256_add_pd(xr, yr), _mm256_add_pd(xi, yi));
                let (dr, di) = cmul(_mm256_sub_pd(xr, yr), _mm256_sub_pd(xi, yi), sr, si);
                st(f, j, _mm256_permute2f128_pd::<0x20>(ar, dr));
                st(f, j + 4, _mm256_permute2f128_pd::<0x31>(ar, dr));
                st(f, j + hn, _mm256_permute2f128_pd::<0x20>(ai, di));
                st(f, j + 4 + hn, _mm256_permute2f128_pd::<0x31>(ai, di));
            }
        } else {
            let mut i1 = 0;
            let mut j1 = 0;
            while j1 < hn {
                let sr = _mm256_set1_pd(GM[(hm + i1) << 1].to_f64());
                let si = neg(_mm256_set1_pd(GM[((hm + i1) << 1) + 1].to_f64()));
                for j in (j1..j1 + t).step_by(4) {
                    let (xr, xi) = (ld(f, j), ld(f, j + hn));
                    let (yr, yi) = (ld(f, j + t), ld(f, j + t + hn));
                    st(f, j, _mm256_add_pd(xr, yr));
                    st(f, j + hn, _mm256_add_pd(xi, yi));
                    let (dr, di) = cmul(_mm256_sub_pd(xr, yr), _mm256_sub_pd(xi, yi), sr, si);
                    st(f, j + t, dr);
                    st(f, j + t + hn, di);
                }
                i1 += 1;
                j1 += dt;
            }
        }
        t = dt;
        m = hm;
    }
    let ni = _mm256_set1_pd(P2_TAB[logn as usize].to_f64());
    for j in (0..n).step_by(4) {
        st(f, j, _mm256_mul_pd(ld(f, j), ni));
    }
}
