//! The NTT of FIPS 204 on 8 × 32-bit lanes (mirrors `crate::arith`).
//!
//! Montgomery products are computed lane-wise with `_mm256_mul_epi32`,
//! which multiplies the even 32-bit lanes into 64-bit products; the odd
//! lanes go through a second multiply after `movshdup` moved them to the
//! even positions (a shuffle, not a shift: it leaves the multiplier ports
//! to the multiplies). t = (a z mod 2^32) q^-1 mod 2^32 is one
//! `_mm256_mullo_epi32` of a by the precomputed z q^-1 mod 2^32 for all 8
//! lanes. The high halves of a z and t q subtract exactly (their low halves
//! are equal), so every product is
//! bit-identical to `arith::montgomery_reduce(a * z)`, and `ntt`,
//! `invntt_tomont` and `pointwise_montgomery` return exactly what the
//! portable functions return (same values, same order, same ranges).
//!
//! Schedule (both directions): the layers of butterfly distance 128, 64
//! and 32 coefficients run on 8 registers at a time (one coefficient in 32
//! columns), then the layers of distance 16 and 8 and the three in-register
//! layers (4, 2, 1) on 4 consecutive registers, two such groups side by
//! side (written out by `each!`, so that the 8 registers never go through
//! the stack and four independent chains overlap). For the in-register layers
//! a pair of registers (16 coefficients) is regrouped by lane permutes
//! (`t8`, `t4`, `t2`, each its own inverse) so that each butterfly again
//! pairs two whole registers. Between the standard order and the
//! distance-1 layout (even coefficients in the first register, odd ones in
//! the second) four shuffles do the work of the three steps
//! ([`std_to_odd_even`], [`odd_even_to_std`]). The forward transform
//! undoes the regrouping before storing, so memory always holds the
//! standard order.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_add_epi64, _mm256_blend_epi32, _mm256_castps_si256,
    _mm256_castsi256_ps, _mm256_loadu_si256, _mm256_movehdup_ps, _mm256_moveldup_ps,
    _mm256_mul_epi32, _mm256_mullo_epi32, _mm256_permute2x128_si256, _mm256_set1_epi32,
    _mm256_setzero_si256, _mm256_shuffle_ps, _mm256_storeu_si256, _mm256_sub_epi32,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

use super::Poly;
use crate::arith::{F_INV, QINV, ZETAS};
use crate::params::Q;

/// Lane offsets (within 16 coefficients) of the lower butterfly inputs in
/// the regrouped register of the distance-4, -2 and -1 layers; the upper
/// inputs sit at offset + distance in the same lane of the other register.
const OFF4: [usize; 8] = [0, 1, 2, 3, 8, 9, 10, 11];
const OFF2: [usize; 8] = [0, 1, 4, 5, 8, 9, 12, 13];
const OFF1: [usize; 8] = [0, 2, 4, 6, 8, 10, 12, 14];

/// Per-lane twiddles of an in-register layer of distance `len`, for each
/// block m of 16 coefficients: [z, z q^-1 mod 2^32, z of the odd lanes]
/// (the odd lanes' z also in the even positions, the ones
/// `_mm256_mul_epi32` reads). Coefficient j uses the portable loops'
/// twiddle: ZETAS[128/len + j/(2 len)] forward, -ZETAS[256/len - 1 -
/// j/(2 len)] inverse.
const fn lane_twiddles(off: [usize; 8], len: usize, inv: bool) -> [[[i32; 8]; 3]; 16] {
    let mut t = [[[0i32; 8]; 3]; 16];
    let mut m = 0;
    while m < 16 {
        let mut l = 0;
        while l < 8 {
            let j = 16 * m + off[l];
            let z = if inv {
                -ZETAS[256 / len - 1 - j / (2 * len)]
            } else {
                ZETAS[128 / len + j / (2 * len)]
            };
            t[m][0][l] = z;
            t[m][1][l] = z.wrapping_mul(QINV);
            if l % 2 == 1 {
                t[m][2][l - 1] = z;
                t[m][2][l] = z;
            }
            l += 1;
        }
        m += 1;
    }
    t
}

const FWD4: [[[i32; 8]; 3]; 16] = lane_twiddles(OFF4, 4, false);
const FWD2: [[[i32; 8]; 3]; 16] = lane_twiddles(OFF2, 2, false);
const FWD1: [[[i32; 8]; 3]; 16] = lane_twiddles(OFF1, 1, false);
const INV4: [[[i32; 8]; 3]; 16] = lane_twiddles(OFF4, 4, true);
const INV2: [[[i32; 8]; 3]; 16] = lane_twiddles(OFF2, 2, true);
const INV1: [[[i32; 8]; 3]; 16] = lane_twiddles(OFF1, 1, true);

/// A Montgomery multiplier in the form [`mont_mul`] takes: z and
/// z q^-1 mod 2^32 in every lane (`z`, `zq`), and the odd lanes' z in the
/// even positions (`zo`).
#[derive(Clone, Copy)]
struct Tw {
    z: __m256i,
    zq: __m256i,
    zo: __m256i,
}

/// The same multiplier z in every lane.
#[inline]
#[target_feature(enable = "avx2")]
fn tw_bcast(z: i32) -> Tw {
    let zq = _mm256_set1_epi32(z.wrapping_mul(QINV));
    let z = _mm256_set1_epi32(z);
    Tw { z, zq, zo: z }
}

/// A row of [`lane_twiddles`].
#[inline]
#[target_feature(enable = "avx2")]
fn tw_lanes(t: &[[i32; 8]; 3]) -> Tw {
    Tw {
        z: load8(&t[0]),
        zq: load8(&t[1]),
        zo: load8(&t[2]),
    }
}

/// `movshdup`: lanes [x1, x1, x3, x3, ...] (the odd lanes also in the
/// even positions).
#[inline]
#[target_feature(enable = "avx2")]
fn hdup(x: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_movehdup_ps(_mm256_castsi256_ps(x)))
}

/// `movsldup`: lanes [x0, x0, x2, x2, ...] (the even lanes also in the odd
/// positions).
#[inline]
#[target_feature(enable = "avx2")]
fn ldup(x: __m256i) -> __m256i {
    _mm256_castps_si256(_mm256_moveldup_ps(_mm256_castsi256_ps(x)))
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn load8(v: &[i32; 8]) -> __m256i {
    // SAFETY: `v` is 32 readable bytes; the load is unaligned.
    unsafe { _mm256_loadu_si256(v.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn store8(v: &mut [i32; 8], x: __m256i) {
    // SAFETY: `v` is 32 writable bytes; the store is unaligned.
    unsafe { _mm256_storeu_si256(v.as_mut_ptr().cast(), x) }
}

/// Coefficients 8i..8i + 8.
#[inline]
#[target_feature(enable = "avx2")]
fn load(a: &Poly, i: usize) -> __m256i {
    load8(&a.as_chunks::<8>().0[i])
}

#[inline]
#[target_feature(enable = "avx2")]
fn store(a: &mut Poly, i: usize, x: __m256i) {
    store8(&mut a.as_chunks_mut::<8>().0[i], x);
}

/// Montgomery reduction of the 64-bit products `pe` (of the even lanes)
/// and `po` (of the odd lanes, in the even positions): each lane is
/// `arith::montgomery_reduce` of its product, in (-q, q) for
/// |product| ≤ 2^31 q.
#[inline]
#[target_feature(enable = "avx2")]
fn reduce_products(pe: __m256i, po: __m256i) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    let qinv = _mm256_set1_epi32(QINV);
    // t = (p mod 2^32) q^-1 mod 2^32, as a signed 32-bit value.
    let ue = _mm256_mul_epi32(_mm256_mul_epi32(pe, qinv), q);
    let uo = _mm256_mul_epi32(_mm256_mul_epi32(po, qinv), q);
    // (p - t q) / 2^32: the low halves are equal, so the high halves
    // subtract without a borrow (odd 32-bit positions).
    let re = _mm256_sub_epi32(pe, ue);
    let ro = _mm256_sub_epi32(po, uo);
    _mm256_blend_epi32::<0xAA>(hdup(re), ro)
}

/// Lane-wise `montgomery_reduce(a * z)` (bit-identical), z given with its
/// precomputed z q^-1.
#[inline]
#[target_feature(enable = "avx2")]
fn mont_mul(a: __m256i, w: Tw) -> __m256i {
    let q = _mm256_set1_epi32(Q);
    // t = a z q^-1 mod 2^32 in every lane; `_mm256_mul_epi32` reads its
    // low 32 bits as signed, as `montgomery_reduce` does.
    let t = _mm256_mullo_epi32(a, w.zq);
    let pe = _mm256_mul_epi32(a, w.z);
    let po = _mm256_mul_epi32(hdup(a), w.zo);
    let ue = _mm256_mul_epi32(t, q);
    let uo = _mm256_mul_epi32(hdup(t), q);
    let re = _mm256_sub_epi32(pe, ue);
    let ro = _mm256_sub_epi32(po, uo);
    _mm256_blend_epi32::<0xAA>(hdup(re), ro)
}

/// Cooley-Tukey butterfly of `arith::ntt`: (x + z y, x - z y).
#[inline]
#[target_feature(enable = "avx2")]
fn ct(x: __m256i, y: __m256i, w: Tw) -> (__m256i, __m256i) {
    let t = mont_mul(y, w);
    (_mm256_add_epi32(x, t), _mm256_sub_epi32(x, t))
}

/// Gentleman-Sande butterfly of `arith::invntt_tomont` (w = -ζ):
/// (x + y, w (x - y)).
#[inline]
#[target_feature(enable = "avx2")]
fn gs(x: __m256i, y: __m256i, w: Tw) -> (__m256i, __m256i) {
    (_mm256_add_epi32(x, y), mont_mul(_mm256_sub_epi32(x, y), w))
}

// Regroupings of a register pair holding 16 coefficients. From the
// standard order (a = 0..8, b = 8..16), `t8` gives the distance-4 layout
// (OFF4), `t4` of that the distance-2 layout (OFF2), `t2` of that the
// distance-1 layout (OFF1); each is its own inverse.

/// (a0..a3 b0..b3, a4..a7 b4..b7): swaps the 128-bit halves across.
#[inline]
#[target_feature(enable = "avx2")]
fn t8(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256::<0x20>(a, b),
        _mm256_permute2x128_si256::<0x31>(a, b),
    )
}

/// Swaps the 64-bit halves of each 128-bit lane across the pair.
#[inline]
#[target_feature(enable = "avx2")]
fn t4(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

/// Swaps the odd 32-bit lanes of `a` with the even ones of `b`.
#[inline]
#[target_feature(enable = "avx2")]
fn t2(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_blend_epi32::<0xAA>(a, ldup(b)),
        _mm256_blend_epi32::<0xAA>(hdup(a), b),
    )
}

/// From the standard order (a = 0..8, b = 8..16) to the distance-1
/// layout (OFF1: the even coefficients, then the odd ones); equal to `t8`,
/// `t4`, `t2` in turn.
#[inline]
#[target_feature(enable = "avx2")]
fn std_to_odd_even(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // 0..4 8..12, 4..8 12..16.
    let (x, y) = t8(a, b);
    let (x, y) = (_mm256_castsi256_ps(x), _mm256_castsi256_ps(y));
    // Per 128-bit half: [x0, x2, y0, y2] and [x1, x3, y1, y3].
    (
        _mm256_castps_si256(_mm256_shuffle_ps::<0x88>(x, y)),
        _mm256_castps_si256(_mm256_shuffle_ps::<0xDD>(x, y)),
    )
}

/// The inverse of [`std_to_odd_even`] (equal to `t2`, `t4`, `t8` in turn).
#[inline]
#[target_feature(enable = "avx2")]
fn odd_even_to_std(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // 0..4 8..12, 4..8 12..16.
    let (x, y) = (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
    t8(x, y)
}

/// Writes `body` out once per listed index (bound to `k` as a constant),
/// so that the register arrays stay in registers.
macro_rules! each {
    ($k:ident in [$($i:expr),*] => $body:expr) => {
        $({
            let $k: usize = $i;
            $body;
        })*
    };
}

/// Forward NTT in place, equal to `arith::ntt` (standard bit-reversed
/// output order, no reduction): inputs with |a_i| < q give |â_i| < 9q.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn ntt(a: &mut Poly) {
    // Distances 128, 64, 32: registers r + 4c (coefficients 32c + 8r..).
    for r in 0..4 {
        let mut v: [__m256i; 8] = core::array::from_fn(|c| load(a, r + 4 * c));
        let w = tw_bcast(ZETAS[1]);
        each!(c in [0, 1, 2, 3] => (v[c], v[c + 4]) = ct(v[c], v[c + 4], w));
        each!(c in [0, 1, 4, 5] => {
            let w = tw_bcast(ZETAS[2 + c / 4]);
            (v[c], v[c + 2]) = ct(v[c], v[c + 2], w);
        });
        each!(b in [0, 1, 2, 3] => {
            let w = tw_bcast(ZETAS[4 + b]);
            (v[2 * b], v[2 * b + 1]) = ct(v[2 * b], v[2 * b + 1], w);
        });
        each!(c in [0, 1, 2, 3, 4, 5, 6, 7] => store(a, r + 4 * c, v[c]));
    }
    // Distances 16 and 8 on coefficients 32g..32g + 32, then 4, 2, 1
    // inside each register pair.
    for gg in 0..4 {
        // Two groups side by side: registers 8gg..8gg + 8, four
        // independent chains in the in-register layers.
        let mut v: [__m256i; 8] = core::array::from_fn(|i| load(a, 8 * gg + i));
        each!(h in [0, 1] => {
            let g = 2 * gg + h;
            let w = tw_bcast(ZETAS[8 + g]);
            (v[4 * h], v[4 * h + 2]) = ct(v[4 * h], v[4 * h + 2], w);
            (v[4 * h + 1], v[4 * h + 3]) = ct(v[4 * h + 1], v[4 * h + 3], w);
        });
        each!(h in [0, 1] => {
            let g = 2 * gg + h;
            let w0 = tw_bcast(ZETAS[16 + 2 * g]);
            let w1 = tw_bcast(ZETAS[17 + 2 * g]);
            (v[4 * h], v[4 * h + 1]) = ct(v[4 * h], v[4 * h + 1], w0);
            (v[4 * h + 2], v[4 * h + 3]) = ct(v[4 * h + 2], v[4 * h + 3], w1);
        });
        // Register pair k (registers 8gg + 2k, + 1) is block m = 4gg + k.
        each!(k in [0, 1, 2, 3] => {
            (v[2 * k], v[2 * k + 1]) = t8(v[2 * k], v[2 * k + 1]);
        });
        each!(k in [0, 1, 2, 3] => {
            let w = tw_lanes(&FWD4[4 * gg + k]);
            (v[2 * k], v[2 * k + 1]) = ct(v[2 * k], v[2 * k + 1], w);
            (v[2 * k], v[2 * k + 1]) = t4(v[2 * k], v[2 * k + 1]);
        });
        each!(k in [0, 1, 2, 3] => {
            let w = tw_lanes(&FWD2[4 * gg + k]);
            (v[2 * k], v[2 * k + 1]) = ct(v[2 * k], v[2 * k + 1], w);
            (v[2 * k], v[2 * k + 1]) = t2(v[2 * k], v[2 * k + 1]);
        });
        each!(k in [0, 1, 2, 3] => {
            let w = tw_lanes(&FWD1[4 * gg + k]);
            (v[2 * k], v[2 * k + 1]) = ct(v[2 * k], v[2 * k + 1], w);
            (v[2 * k], v[2 * k + 1]) = odd_even_to_std(v[2 * k], v[2 * k + 1]);
        });
        each!(i in [0, 1, 2, 3, 4, 5, 6, 7] => store(a, 8 * gg + i, v[i]));
    }
}

/// Inverse NTT in place with the factor 2^32 of `arith::invntt_tomont`,
/// equal to it: inputs with |â_i| < q (standard order) give |a_i| < q.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn invntt_tomont(a: &mut Poly) {
    for gg in 0..4 {
        // Two groups side by side, as in `ntt`.
        let mut v: [__m256i; 8] = core::array::from_fn(|i| load(a, 8 * gg + i));
        each!(k in [0, 1, 2, 3] => {
            (v[2 * k], v[2 * k + 1]) = std_to_odd_even(v[2 * k], v[2 * k + 1]);
            let w = tw_lanes(&INV1[4 * gg + k]);
            (v[2 * k], v[2 * k + 1]) = gs(v[2 * k], v[2 * k + 1], w);
        });
        each!(k in [0, 1, 2, 3] => {
            (v[2 * k], v[2 * k + 1]) = t2(v[2 * k], v[2 * k + 1]);
            let w = tw_lanes(&INV2[4 * gg + k]);
            (v[2 * k], v[2 * k + 1]) = gs(v[2 * k], v[2 * k + 1], w);
        });
        each!(k in [0, 1, 2, 3] => {
            (v[2 * k], v[2 * k + 1]) = t4(v[2 * k], v[2 * k + 1]);
            let w = tw_lanes(&INV4[4 * gg + k]);
            (v[2 * k], v[2 * k + 1]) = gs(v[2 * k], v[2 * k + 1], w);
        });
        each!(k in [0, 1, 2, 3] => {
            (v[2 * k], v[2 * k + 1]) = t8(v[2 * k], v[2 * k + 1]);
        });
        each!(h in [0, 1] => {
            let g = 2 * gg + h;
            let w0 = tw_bcast(-ZETAS[31 - 2 * g]);
            let w1 = tw_bcast(-ZETAS[30 - 2 * g]);
            (v[4 * h], v[4 * h + 1]) = gs(v[4 * h], v[4 * h + 1], w0);
            (v[4 * h + 2], v[4 * h + 3]) = gs(v[4 * h + 2], v[4 * h + 3], w1);
        });
        each!(h in [0, 1] => {
            let g = 2 * gg + h;
            let w = tw_bcast(-ZETAS[15 - g]);
            (v[4 * h], v[4 * h + 2]) = gs(v[4 * h], v[4 * h + 2], w);
            (v[4 * h + 1], v[4 * h + 3]) = gs(v[4 * h + 1], v[4 * h + 3], w);
        });
        each!(i in [0, 1, 2, 3, 4, 5, 6, 7] => store(a, 8 * gg + i, v[i]));
    }
    let f = tw_bcast(F_INV);
    for r in 0..4 {
        let mut v: [__m256i; 8] = core::array::from_fn(|c| load(a, r + 4 * c));
        each!(b in [0, 1, 2, 3] => {
            let w = tw_bcast(-ZETAS[7 - b]);
            (v[2 * b], v[2 * b + 1]) = gs(v[2 * b], v[2 * b + 1], w);
        });
        each!(c in [0, 1, 4, 5] => {
            let w = tw_bcast(-ZETAS[3 - c / 4]);
            (v[c], v[c + 2]) = gs(v[c], v[c + 2], w);
        });
        let w = tw_bcast(-ZETAS[1]);
        each!(c in [0, 1, 2, 3] => (v[c], v[c + 4]) = gs(v[c], v[c + 4], w));
        each!(c in [0, 1, 2, 3, 4, 5, 6, 7] => store(a, r + 4 * c, mont_mul(v[c], f)));
    }
}

/// c = a ∘ b · 2^-32, equal to `arith::pointwise_montgomery`: for
/// |a_i|, |b_i| < 9q the outputs are in (-q, q).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn pointwise_montgomery(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..32 {
        let (x, y) = (load(a, i), load(b, i));
        let pe = _mm256_mul_epi32(x, y);
        let po = _mm256_mul_epi32(hdup(x), hdup(y));
        store(c, i, reduce_products(pe, po));
    }
}

/// c = Σ_i a_i ∘ b_i · 2^-32 with one Montgomery reduction of the 64-bit
/// sum per coefficient: congruent to the sum of `arith::pointwise_montgomery`
/// products, in (-q, q) whenever Σ_i |a_i,j b_i,j| ≤ 2^31 q, e.g. for
/// |a_i| < q, |b_i| < 9q and up to 28 terms (ML-DSA uses ℓ ≤ 7).
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn pointwise_acc(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    debug_assert_eq!(a.len(), b.len());
    debug_assert!(a.len() <= 28);
    for i in 0..32 {
        let mut se = _mm256_setzero_si256();
        let mut so = _mm256_setzero_si256();
        for (pa, pb) in a.iter().zip(b) {
            let (x, y) = (load(pa, i), load(pb, i));
            se = _mm256_add_epi64(se, _mm256_mul_epi32(x, y));
            let (xo, yo) = (hdup(x), hdup(y));
            so = _mm256_add_epi64(so, _mm256_mul_epi32(xo, yo));
        }
        store(c, i, reduce_products(se, so));
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use pqforge_core::testing::TestRng;

    use super::super::testutil::{avx2_or_skip, edges, poly_in};
    use super::*;
    use crate::arith;
    use crate::params::N;

    const Q9: i32 = 9 * Q;

    fn modq(x: i64) -> i64 {
        x.rem_euclid(i64::from(Q))
    }

    #[test]
    fn avx2_ntt_matches_portable() {
        if !avx2_or_skip("avx2_ntt_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5401);
        // The callers' ranges: s1/s2, t0, y, the challenge, reduced w / z.
        let ranges = [
            (-4, 4),
            (-(1 << 12) + 1, 1 << 12),
            (-(1 << 19) + 1, 1 << 19),
            (-1, 1),
            (-Q + 1, Q - 1),
        ];
        let mut inputs = std::vec::Vec::new();
        for (lo, hi) in ranges {
            for _ in 0..if cfg!(miri) { 2 } else { 200 } {
                inputs.push(poly_in(&mut rng, lo, hi));
            }
        }
        inputs.extend(edges(Q - 1));
        for a in inputs {
            let (mut want, mut got) = (a, a);
            arith::ntt(&mut want);
            // SAFETY: AVX2 detected above.
            unsafe { ntt(&mut got) };
            assert_eq!(got, want, "input {a:?}");
            assert!(got.iter().all(|x| x.abs() < Q9));
        }
    }

    #[test]
    fn avx2_invntt_matches_portable() {
        if !avx2_or_skip("avx2_invntt_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5402);
        let inputs = (0..if cfg!(miri) { 4 } else { 1000 })
            .map(|_| poly_in(&mut rng, -Q + 1, Q - 1))
            .chain(edges(Q - 1));
        for a in inputs {
            let (mut want, mut got) = (a, a);
            arith::invntt_tomont(&mut want);
            // SAFETY: AVX2 detected above.
            unsafe { invntt_tomont(&mut got) };
            assert_eq!(got, want, "input {a:?}");
            assert!(got.iter().all(|x| x.abs() < Q));
        }
    }

    #[test]
    fn avx2_pointwise_matches_portable() {
        if !avx2_or_skip("avx2_pointwise_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5403);
        let mut pairs: std::vec::Vec<(Poly, Poly)> = (0..if cfg!(miri) { 4 } else { 1000 })
            .map(|_| {
                (
                    poly_in(&mut rng, -Q9 + 1, Q9 - 1),
                    poly_in(&mut rng, -Q9 + 1, Q9 - 1),
                )
            })
            .collect();
        for a in edges(Q9 - 1) {
            for b in [[Q9 - 1; N], [-Q9 + 1; N], a] {
                pairs.push((a, b));
            }
        }
        for (a, b) in pairs {
            let (mut want, mut got) = ([0; N], [0; N]);
            arith::pointwise_montgomery(&mut want, &a, &b);
            // SAFETY: AVX2 detected above.
            unsafe { pointwise_montgomery(&mut got, &a, &b) };
            assert_eq!(got, want);
            assert!(got.iter().all(|x| x.abs() < Q));
        }
    }

    #[test]
    fn avx2_pointwise_acc_is_the_sum_of_products() {
        if !avx2_or_skip("avx2_pointwise_acc_is_the_sum_of_products") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5404);
        let check = |a: &[Poly], b: &[Poly]| {
            let mut want = [0i64; N];
            for (pa, pb) in a.iter().zip(b) {
                let mut p = [0; N];
                arith::pointwise_montgomery(&mut p, pa, pb);
                for (w, x) in want.iter_mut().zip(p) {
                    *w += i64::from(x);
                }
            }
            let mut got = [0; N];
            // SAFETY: AVX2 detected above.
            unsafe { pointwise_acc(&mut got, a, b) };
            for i in 0..N {
                assert!(got[i].abs() < Q, "{} out of range", got[i]);
                assert_eq!(modq(got[i].into()), modq(want[i]), "coefficient {i}");
            }
        };
        for len in 0..=7 {
            for _ in 0..if cfg!(miri) { 1 } else { 100 } {
                let a: std::vec::Vec<Poly> =
                    (0..len).map(|_| poly_in(&mut rng, -Q + 1, Q - 1)).collect();
                let b: std::vec::Vec<Poly> = (0..len)
                    .map(|_| poly_in(&mut rng, -Q9 + 1, Q9 - 1))
                    .collect();
                check(&a, &b);
            }
            // The largest sums, both signs.
            for (x, y) in [(Q - 1, Q9 - 1), (Q - 1, -Q9 + 1), (-Q + 1, -Q9 + 1)] {
                check(&std::vec![[x; N]; len], &std::vec![[y; N]; len]);
            }
        }
    }

    /// Schoolbook negacyclic product mod q.
    fn schoolbook(a: &Poly, b: &Poly) -> [i64; N] {
        let mut want = [0i64; N];
        for i in 0..N {
            for j in 0..N {
                let p = i64::from(a[i]) * i64::from(b[j]);
                if i + j < N {
                    want[i + j] = modq(want[i + j] + p);
                } else {
                    want[i + j - N] = modq(want[i + j - N] - p);
                }
            }
        }
        want
    }

    /// NTT, reduction, pointwise product and inverse NTT with the AVX2
    /// kernels only: the negacyclic product; and the round trip
    /// NTT^-1(NTT(a)) = 2^32 a.
    #[test]
    fn avx2_ntt_product_and_round_trip() {
        if !avx2_or_skip("avx2_ntt_product_and_round_trip") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5405);
        let mont = modq(1 << 32);
        for t in 0..if cfg!(miri) { 2 } else { 30 } {
            let a = poly_in(&mut rng, -Q + 1, Q - 1);
            let b = if t == 0 {
                [Q - 1; N]
            } else {
                poly_in(&mut rng, -Q + 1, Q - 1)
            };
            let (mut ah, mut bh, mut c) = (a, b, [0; N]);
            // SAFETY: AVX2 detected above.
            unsafe {
                ntt(&mut ah);
                ntt(&mut bh);
                super::super::rounding::reduce32(&mut ah);
                super::super::rounding::reduce32(&mut bh);
                pointwise_montgomery(&mut c, &ah, &bh);
                invntt_tomont(&mut c);
            }
            let want = schoolbook(&a, &b);
            for i in 0..N {
                assert!(c[i].abs() < Q);
                assert_eq!(modq(c[i].into()), want[i], "product coefficient {i}");
            }
            let mut back = ah;
            // SAFETY: AVX2 detected above.
            unsafe { invntt_tomont(&mut back) };
            for i in 0..N {
                assert_eq!(
                    modq(back[i].into()),
                    modq(i64::from(a[i]) * mont),
                    "round trip {i}"
                );
            }
        }
    }
}
