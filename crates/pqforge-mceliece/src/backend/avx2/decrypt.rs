//! Niederreiter decryption on AVX2: the additive FFT and its transpose
//! ([`super::fft`]), the batch inversion ([`super::gf`]), the Benes
//! network ([`super::benes`]) and Berlekamp–Massey ([`super::bm`]) on 256
//! points per register.
//!
//! Same algorithm and point order as the portable `kem::decrypt` (see the
//! `fft`, `radix` and `benes` modules): register `r` of an FFT array holds
//! the portable 64-point vectors `4r .. 4r + 3` (one per 64-bit lane), so
//! the packed bits of the Benes network are the same words in the same
//! order.
//!
//! The re-encryption check runs before the forward Benes network (in FFT
//! order) as in the reference implementation: accepting needs the roots
//! to have weight t among all `2^m` points and among the n code positions,
//! which accepts exactly when the portable check (weight t among the code
//! positions, same syndrome) does, since the locator has at most t roots.
//!
//! Constant time: every branch, index and shift count is public (`M`, `t`,
//! `n`, loop counters); the secret data only flows through lane-wise
//! logic.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi8, _mm256_add_epi64, _mm256_andnot_si256, _mm256_or_si256,
    _mm256_sad_epu8, _mm256_set1_epi8, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_shuffle_epi8,
    _mm256_srli_epi16, _mm256_storeu_si256,
};

use super::benes::benes;
use super::bm::bm;
use super::fft::{fft_eval, fft_tr};
use super::gf::{V, low, mul_to, prod, sqn, vinv};
use super::radix::from_planes;
use super::simd::{and, lanes, ld, wipe256, zero};
use crate::ParameterSet;
use crate::gf;

const MAX_T: usize = 128;

/// Bit counts of the four 64-bit lanes (nibble table lookup, then byte
/// sums), branch-free.
#[inline]
#[target_feature(enable = "avx2")]
fn popcount(v: __m256i) -> __m256i {
    let tbl = _mm256_setr_epi8(
        0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3,
        3, 4,
    );
    let lo = _mm256_set1_epi8(0x0F);
    let a = _mm256_shuffle_epi8(tbl, and(v, lo));
    let b = _mm256_shuffle_epi8(tbl, and(_mm256_srli_epi16::<4>(v), lo));
    _mm256_sad_epu8(_mm256_add_epi8(a, b), zero())
}

/// `1 / g(x)^2` at every field element (one FFT, Montgomery's batch
/// inversion; g has no roots).
#[inline]
#[target_feature(enable = "avx2")]
fn ginv2<const M: usize, const W: usize>(g: &[u16], out: &mut [V<M>], scratch: &mut [V<M>]) {
    let nr = out.len();
    fft_eval::<M, W>(out, g);
    for v in out.iter_mut() {
        sqn::<M>(v, 1);
    }
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    let mut t2 = [zero(); 2 * gf::MAX_M - 1];
    scratch[0] = out[0];
    for i in 1..nr {
        let (done, rest) = scratch.split_at_mut(i);
        mul_to::<M>(&mut rest[0], &done[i - 1], &out[i], &mut t);
    }
    let mut inv = vinv(&scratch[nr - 1]);
    for i in (1..nr).rev() {
        // out[i] = inv * prefix[i-1]; inv *= old out[i].
        prod::<M>(&mut t2, &inv, &out[i]);
        mul_to::<M>(&mut out[i], &inv, &scratch[i - 1], &mut t);
        for (j, x) in inv.iter_mut().enumerate() {
            *x = low::<M>(&t2, j);
        }
    }
    out[0] = inv;
    wipe256(&mut inv);
    wipe256(&mut t);
    wipe256(&mut t2);
}

/// Niederreiter decryption (as `kem::decrypt`): writes `e` (n/8 bytes);
/// returns 0xFF if e has weight t and reproduces the syndrome, else 0.
#[target_feature(enable = "avx2")]
pub(super) fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
    if P::M == 12 {
        decrypt_m::<P, 12, 1, 2, 16>(e, sk, c0)
    } else {
        decrypt_m::<P, 13, 2, 4, 32>(e, sk, c0)
    }
}

#[inline]
#[target_feature(enable = "avx2")]
fn decrypt_m<P: ParameterSet, const M: usize, const W1: usize, const W2: usize, const NR: usize>(
    e: &mut [u8],
    sk: &[u8],
    c0: &[u8],
) -> u8 {
    let (n, t) = (P::N, P::T);
    let nr = NR;
    debug_assert_eq!(nr, 1 << (M - 8));
    let mut g = [0u16; MAX_T + 1];
    for (k, x) in g[..t].iter_mut().enumerate() {
        *x = u16::from_le_bytes([sk[40 + 2 * k], sk[41 + 2 * k]]) & ((1 << M) - 1);
    }
    g[t] = 1;
    let cb = &sk[40 + 2 * t..40 + 2 * t + P::COND_BYTES];
    let mut gi = [[zero(); M]; NR];
    let mut w = [[zero(); M]; NR];
    let (gi, w) = (&mut gi[..nr], &mut w[..nr]);
    ginv2::<M, W1>(&g[..=t], gi, w);

    // r = C0 || 0, to the FFT order.
    let mut rb = [[0u8; 32]; NR];
    rb.as_flattened_mut()[..P::SYND_BYTES].copy_from_slice(&c0[..P::SYND_BYTES]);
    let mut bits = [zero(); NR];
    for (x, ch) in bits.iter_mut().zip(&rb) {
        *x = ld(ch, 0);
    }
    let bits = &mut bits[..];
    benes::<true>(bits, cb, M);
    for ((wv, gv), &mk) in w.iter_mut().zip(gi.iter()).zip(bits.iter()) {
        for (x, y) in wv.iter_mut().zip(gv) {
            *x = and(*y, mk);
        }
    }
    let s = fft_tr::<M, W1, W2>(w);
    let mut sv = [0u16; 2 * MAX_T];
    from_planes::<M, W2>(&s, &mut sv[..2 * t]);
    let mut loc = [0u16; MAX_T + 1];
    bm::<P>(&mut loc, &sv[..2 * t]);

    // Roots of the locator: e_x = 1 iff loc(x) = 0 (FFT order).
    fft_eval::<M, W1>(w, &loc[..=t]);
    let mut cnt = zero();
    for (bv, wv) in bits.iter_mut().zip(w.iter()) {
        let mut nz = wv[0];
        for x in &wv[1..] {
            nz = _mm256_or_si256(nz, *x);
        }
        *bv = _mm256_andnot_si256(nz, _mm256_set1_epi64x(-1));
        cnt = _mm256_add_epi64(cnt, popcount(*bv));
    }
    let wt_all = lanes(cnt).iter().sum::<u64>();
    // Re-encryption: the syndrome of the roots.
    for ((wv, gv), &mk) in w.iter_mut().zip(gi.iter()).zip(bits.iter()) {
        for (x, y) in wv.iter_mut().zip(gv) {
            *x = and(*y, mk);
        }
    }
    let s2 = fft_tr::<M, W1, W2>(w);
    let mut diff = 0u64;
    for (a, b) in s.iter().zip(&s2) {
        for (k, (x, y)) in a.iter().zip(b).enumerate() {
            // Lanes below 2t only.
            let valid = (2 * t).saturating_sub(64 * k).min(64);
            let keep = if valid == 64 {
                u64::MAX
            } else {
                (1u64 << valid) - 1
            };
            diff |= (x ^ y) & keep;
        }
    }
    // To support order; positions n.. are not code positions.
    benes::<false>(bits, cb, M);
    let mut eb = [[0u8; 32]; NR];
    for (k, x) in bits.iter().enumerate() {
        // SAFETY: `eb[k]` has 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(eb[k].as_mut_ptr().cast(), *x) };
    }
    e[..n / 8].copy_from_slice(&eb.as_flattened()[..n / 8]);
    let mut cnt = zero();
    for (k, x) in bits.iter().enumerate() {
        // Bits below n only (n is a multiple of 8).
        let mut keep = [0u8; 32];
        for (i, b) in keep.iter_mut().enumerate() {
            *b = if 32 * k + i < n / 8 { 0xFF } else { 0 };
        }
        cnt = _mm256_add_epi64(cnt, popcount(and(*x, ld(&keep, 0))));
    }
    let wt_code = lanes(cnt).iter().sum::<u64>();
    let diff = (diff >> 32) | (diff & 0xFFFF_FFFF);
    let check = diff | (wt_all ^ t as u64) | (wt_code ^ t as u64);

    zeroize::Zeroize::zeroize(&mut g);
    zeroize::Zeroize::zeroize(&mut sv);
    zeroize::Zeroize::zeroize(&mut loc);
    zeroize::Zeroize::zeroize(eb.as_flattened_mut());
    let (mut s, mut s2) = (s, s2);
    zeroize::Zeroize::zeroize(s.as_flattened_mut());
    zeroize::Zeroize::zeroize(s2.as_flattened_mut());
    for v in gi.iter_mut().chain(w.iter_mut()) {
        wipe256(v);
    }
    wipe256(bits);
    // 0xFF iff check == 0 (check < 2^63).
    ((check.wrapping_sub(1) >> 63) as u8).wrapping_neg()
}
