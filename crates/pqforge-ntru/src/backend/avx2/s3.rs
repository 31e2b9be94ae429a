//! `r = a⁻¹ mod (3, Φ_n)` on 256-bit vectors: the divsteps of
//! [`inv::s3_inverse`](crate::inv) (same iteration, same count, same
//! result), with the trits in *sign form* and every step written out in
//! vector operations.
//!
//! Sign form: a trit t is a pair of bits (n, s), n = [t ≠ 0] and s = [t =
//! −1] wherever n = 1; where n = 0 the sign bit is free (it may hold
//! garbage, which no operation below reads). Then
//!
//! * c·y for c ∈ {0, 1, −1} is (y.n ∧ [c ≠ 0], y.s ⊕ [c = −1]): 2
//!   operations;
//! * x + t is, with d = x.s ⊕ t.s and e = x.n ∧ t.n (both nonzero),
//!   n = (x.n ⊕ t.n) ∨ (e ∧ ¬d) (one nonzero, or both with the same sign:
//!   1 + 1 = −1 and −1 − 1 = 1) and s = t.s ⊕ (x.n ∧ d) ⊕ e (the sign of
//!   the nonzero one — t.s ⊕ d = x.s when x is — and ¬x.s when both are
//!   nonzero with the same sign; with opposite signs n = 0): 8 operations,
//!   where the two-plane encoding {1 → (1, 0), 2 → (0, 1)} of `inv.rs`
//!   takes 12 for the sum and 6 for the scaling.
//!
//! A polynomial of up to 256·V coefficients is V vectors per plane
//! (coefficient i at bit i mod 64 of 64-bit lane (i / 64) mod 4 of vector
//! i / 256). Every step's swap is fused into its update, the shifts by
//! one coefficient move the carries between lanes with a permute and a
//! blend. Control flow and addresses depend on n only; the data flows
//! through masks.

use core::arch::x86_64::{
    __m256i, _mm_cvtsi128_si64, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi32,
    _mm256_castsi256_si128, _mm256_loadu_si256, _mm256_or_si256, _mm256_permute4x64_epi64,
    _mm256_set1_epi32, _mm256_slli_epi64, _mm256_srli_epi64, _mm256_storeu_si256, _mm256_xor_si256,
};

use pqforge_core::ct::{self, barrier_u32};

use super::{wipe_vectors, zero};
use crate::poly::mod3;

/// A polynomial over GF(3) in sign form on V vectors: `n` (nonzero) and
/// `s` (sign) planes.
#[derive(Clone, Copy)]
struct Trits<const V: usize> {
    n: [__m256i; V],
    s: [__m256i; V],
}

impl<const V: usize> Trits<V> {
    fn zero() -> Self {
        Self {
            n: [zero(); V],
            s: [zero(); V],
        }
    }

    fn wipe(&mut self) {
        wipe_vectors(&mut self.n);
        wipe_vectors(&mut self.s);
    }
}

/// Bit planes as words, for the conversions at both ends.
#[target_feature(enable = "avx2")]
#[inline]
fn from_words<const V: usize>(w: &[u64]) -> [__m256i; V] {
    assert!(w.len() >= 4 * V);
    let mut out = [zero(); V];
    for (k, o) in out.iter_mut().enumerate() {
        // SAFETY: 4 words (32 bytes) from w[4k], within w (checked above);
        // unaligned load.
        *o = unsafe { _mm256_loadu_si256(w[4 * k..].as_ptr().cast()) };
    }
    out
}

/// The inverse of [`from_words`].
#[target_feature(enable = "avx2")]
#[inline]
fn to_words<const V: usize>(w: &mut [u64], x: &[__m256i; V]) {
    assert!(w.len() >= 4 * V);
    for (k, &v) in x.iter().enumerate() {
        // SAFETY: 4 words (32 bytes) from w[4k], within w (checked above);
        // unaligned store.
        unsafe { _mm256_storeu_si256(w[4 * k..].as_mut_ptr().cast(), v) };
    }
}

/// `x · X`: every coefficient one place up, the top one dropped. Within a
/// vector the 64-bit lanes shift by one bit, and the bit leaving each lane
/// enters the next one (lane 3's enters lane 0 of the next vector).
#[target_feature(enable = "avx2")]
#[inline]
fn shl1<const V: usize>(x: &mut [__m256i; V]) {
    // carry[k] lane j = the top bit of lane j − 1 (lane 0: of vector k − 1,
    // lane 3).
    let mut prev = zero();
    for v in x.iter_mut() {
        // (c3, c0, c1, c2): lanes 1–3 take their carries from here.
        let c = _mm256_permute4x64_epi64::<0b10_01_00_11>(_mm256_srli_epi64::<63>(*v));
        let carry = _mm256_blend_epi32::<0b0000_0011>(c, prev);
        prev = c;
        *v = _mm256_or_si256(_mm256_slli_epi64::<1>(*v), carry);
    }
}

/// `x / X`: every coefficient one place down, the constant one dropped.
#[target_feature(enable = "avx2")]
#[inline]
fn shr1<const V: usize>(x: &mut [__m256i; V]) {
    // (c1, c2, c3, c0) of each vector: lanes 0–2 take their carries from
    // the same vector, lane 3 from the next vector's c0.
    let mut c = [zero(); V];
    for (ck, &v) in c.iter_mut().zip(x.iter()) {
        *ck = _mm256_permute4x64_epi64::<0b00_11_10_01>(_mm256_slli_epi64::<63>(v));
    }
    for k in 0..V {
        let next = if k + 1 < V { c[k + 1] } else { zero() };
        let carry = _mm256_blend_epi32::<0b1100_0000>(c[k], next);
        x[k] = _mm256_or_si256(_mm256_srli_epi64::<1>(x[k]), carry);
    }
}

/// One fused step on a pair: `(x, y) ← swap ? (y, x) : (x, y)`, then
/// `y ← y + c·x` with c given by `nz` = [c ≠ 0] and `neg` = [c = −1]
/// (all-ones or zero vectors), in sign form.
#[target_feature(enable = "avx2")]
#[inline]
fn swap_add<const V: usize>(
    x: &mut Trits<V>,
    y: &mut Trits<V>,
    sw: __m256i,
    nz: __m256i,
    neg: __m256i,
) {
    for k in 0..V {
        let tn = _mm256_and_si256(sw, _mm256_xor_si256(x.n[k], y.n[k]));
        let ts = _mm256_and_si256(sw, _mm256_xor_si256(x.s[k], y.s[k]));
        let (xn, xs) = (_mm256_xor_si256(x.n[k], tn), _mm256_xor_si256(x.s[k], ts));
        let (yn, ys) = (_mm256_xor_si256(y.n[k], tn), _mm256_xor_si256(y.s[k], ts));
        x.n[k] = xn;
        x.s[k] = xs;
        // t = c·x.
        let (cn, cs) = (_mm256_and_si256(xn, nz), _mm256_xor_si256(xs, neg));
        // y + t.
        let d = _mm256_xor_si256(ys, cs);
        let e = _mm256_and_si256(yn, cn);
        y.n[k] = _mm256_or_si256(_mm256_xor_si256(yn, cn), _mm256_andnot_si256(d, e));
        y.s[k] = _mm256_xor_si256(_mm256_xor_si256(cs, _mm256_and_si256(yn, d)), e);
    }
}

/// The low 64-bit word of a vector.
#[target_feature(enable = "avx2")]
#[inline]
fn low_word(v: __m256i) -> u64 {
    _mm_cvtsi128_si64(_mm256_castsi256_si128(v)) as u64
}

/// The masks of one divstep (each all-ones or zero): swap f, g (and v, w);
/// c = −g(0)/f(0) nonzero; c = −1.
struct Masks {
    swap: __m256i,
    nz: __m256i,
    neg: __m256i,
}

/// The masks of the next divstep from the constant trits of f and g (bit 0
/// of each plane's low word) and δ, which it updates. Scalar and masked:
/// no branch on the data.
#[target_feature(enable = "avx2")]
#[inline]
fn masks(delta: &mut i32, f: [u64; 2], g: [u64; 2]) -> Masks {
    // swap iff δ > 0 and g(0) ≠ 0; δ ← (swap ? −δ : δ) + 1.
    let g_nz = (g[0] & 1) as u32;
    let d = *delta;
    let pos = ((-d) >> 31) as u32;
    let swap = barrier_u32(pos & g_nz.wrapping_neg());
    *delta = (d ^ (swap as i32 & (d ^ -d))) + 1;
    // c = −g(0)·f(0) (1/f(0) = f(0)): nonzero iff g(0) is, −1 iff the
    // signs agree (the same before and after the swap).
    let nz = barrier_u32(g_nz.wrapping_neg());
    let neg = barrier_u32(((((f[1] ^ g[1]) & 1) as u32) ^ 1).wrapping_neg());
    let splat = |x: u32| _mm256_set1_epi32(x as i32);
    Masks {
        swap: splat(swap),
        nz: splat(nz),
        neg: splat(neg),
    }
}

/// `r = a⁻¹ mod (3, Φ_n)` (coefficients in {0, 1, 2}, `r[n−1] = 0`) for
/// `a` with coefficients in {0, 1, 2}, n ≤ 256·V: the divsteps of
/// `inv::s3_inverse` (f = Φ_n, g = the reversal of a mod Φ_n, 2(n − 1) − 1
/// steps), in sign form on V vectors per plane.
#[target_feature(enable = "avx2")]
pub(super) fn s3_inverse<const V: usize>(r: &mut [u16], a: &[u16]) {
    const WORDS: usize = 4 * 6;
    let n = a.len();
    assert!(V <= 6 && n <= 256 * V && r.len() == n && n >= 2);
    let (mut f, mut g, mut v, mut w) = (
        Trits::<V>::zero(),
        Trits::<V>::zero(),
        Trits::<V>::zero(),
        Trits::<V>::zero(),
    );
    {
        let mut gn = [0u64; WORDS];
        let mut gs = [0u64; WORDS];
        let mut fnz = [0u64; WORDS];
        let mut wn = [0u64; WORDS];
        for i in 0..n {
            fnz[i / 64] |= 1 << (i % 64);
        }
        wn[0] = 1;
        // g = reversal of a mod Φ_n (a − a[n−1]·Φ_n), then 2 ↦ −1.
        let last = u32::from(a[n - 1] & 3);
        for i in 0..n - 1 {
            let c = u64::from(mod3(u32::from(a[i] & 3) + 2 * last));
            let j = n - 2 - i;
            gn[j / 64] |= ((c | (c >> 1)) & 1) << (j % 64);
            gs[j / 64] |= (c >> 1) << (j % 64);
        }
        f.n = from_words(&fnz);
        g.n = from_words(&gn);
        g.s = from_words(&gs);
        w.n = from_words(&wn);
        ct::wipe(&mut gn);
        ct::wipe(&mut gs);
    }
    let mut delta = 1i32;
    for _ in 0..2 * (n - 1) - 1 {
        shl1(&mut v.n);
        shl1(&mut v.s);
        let word = |x: &[__m256i; V]| low_word(x[0]);
        let m = masks(
            &mut delta,
            [word(&f.n), word(&f.s)],
            [word(&g.n), word(&g.s)],
        );
        swap_add(&mut f, &mut g, m.swap, m.nz, m.neg);
        swap_add(&mut v, &mut w, m.swap, m.nz, m.neg);
        shr1(&mut g.n);
        shr1(&mut g.s);
    }
    // r_i = f(0)·v_{n−2−i}: sign flipped when f(0) = −1.
    let fs = low_word(f.s[0]) & 1;
    let mut vn = [0u64; WORDS];
    let mut vs = [0u64; WORDS];
    to_words(&mut vn, &v.n);
    to_words(&mut vs, &v.s);
    for i in 0..n - 1 {
        let j = n - 2 - i;
        let nzb = (vn[j / 64] >> (j % 64)) & 1;
        let sb = ((vs[j / 64] >> (j % 64)) ^ fs) & 1;
        r[i] = (nzb * (1 + sb)) as u16;
    }
    r[n - 1] = 0;
    ct::wipe(&mut vn);
    ct::wipe(&mut vs);
    for x in [&mut f, &mut g, &mut v, &mut w] {
        x.wipe();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    /// Against the portable divsteps, on random inputs of every NTRU degree.
    #[test]
    fn matches_the_portable_inverse() {
        if !std::is_x86_feature_detected!("avx2") {
            return;
        }
        let mut seed = 5u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for n in [509usize, 677, 701, 821, 1229, 1373] {
            for round in 0..4 {
                let a: Vec<u16> = (0..n)
                    .map(|i| match round {
                        0 => u16::from(i == 0),
                        1 => 2 * u16::from(i == n - 1),
                        _ => (next() % 3) as u16,
                    })
                    .collect();
                let mut want = vec![0u16; n];
                crate::inv::s3_inverse_n(&mut want, &a);
                let mut got = vec![9u16; n];
                // SAFETY: AVX2 checked above.
                unsafe {
                    match n.div_ceil(256) {
                        2 => s3_inverse::<2>(&mut got, &a),
                        3 => s3_inverse::<3>(&mut got, &a),
                        4 => s3_inverse::<4>(&mut got, &a),
                        5 => s3_inverse::<5>(&mut got, &a),
                        _ => s3_inverse::<6>(&mut got, &a),
                    }
                }
                assert_eq!(got, want, "n = {n}, round {round}");
            }
        }
    }
}
