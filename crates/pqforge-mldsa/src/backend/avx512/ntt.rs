//! The NTT of FIPS 204 on 16 × 32-bit lanes (mirrors `crate::arith`, like
//! `avx2::ntt` on 8 lanes).
//!
//! Montgomery products are those of `avx2::ntt`: `_mm512_mul_epi32`
//! multiplies the even 32-bit lanes into 64-bit products, the odd lanes go
//! through a second multiply after a 32-bit shift, and with
//! t = (a z mod 2^32) q^-1 mod 2^32 the high halves of a z and t q subtract
//! exactly. (With a constant z, t is one `_mm512_mullo_epi32` by the
//! precomputed z q^-1 for all 16 lanes.) Every product is bit-identical to
//! `arith::montgomery_reduce(a * z)`, every butterfly does the portable
//! loop's additions, so `ntt`, `invntt_tomont` and `pointwise_montgomery`
//! return exactly what the portable functions return (same values, same
//! order, same ranges); `pointwise_acc` returns exactly what
//! `avx2::ntt::pointwise_acc` returns.
//!
//! Schedule (both directions): the whole polynomial lives in 16 registers
//! (register i holds coefficients 16i..16i + 16). The layers of butterfly
//! distance 128, 64, 32 and 16 pair whole registers; the layers of
//! distance 8, 4, 2 and 1 run on one register pair (32 consecutive
//! coefficients) at a time, regrouped before each layer by two
//! `_mm512_permutex2var_epi32` so that the pair's first register holds the
//! lower butterfly inputs and the second, lane for lane, the upper ones.
//! The regroupings and the per-lane twiddles are computed at compile time
//! from one description of the layouts ([`lower`]); the last regrouping
//! puts the pair back in the standard order, so memory always holds the
//! standard order.

use core::arch::x86_64::{
    __m512i, _MM_PERM_DDBB, _mm512_add_epi32, _mm512_add_epi64, _mm512_loadu_si512,
    _mm512_mask_shuffle_epi32, _mm512_mul_epi32, _mm512_mullo_epi32, _mm512_permutex2var_epi32,
    _mm512_set1_epi32, _mm512_setzero_si512, _mm512_srli_epi64, _mm512_storeu_si512,
    _mm512_sub_epi32,
};

use super::Poly;
use crate::arith::{F_INV, QINV, ZETAS};
use crate::params::Q;

/// The layout of a register pair (32 consecutive coefficients) for the
/// layer of distance `d` (1, 2, 4, 8; 16 is the standard order): lane l of
/// the first register holds the coefficient at offset `lower(d)[l]`, lane l
/// of the second the one at offset `lower(d)[l] + d`. The lower offsets
/// are those with bit `d` clear, in increasing order.
const fn lower(d: usize) -> [usize; 16] {
    let mut out = [0; 16];
    let (mut n, mut j) = (0, 0);
    while j < 32 {
        if j & d == 0 {
            out[n] = j;
            n += 1;
        }
        j += 1;
    }
    out
}

/// The offset held at position p (lane p of the first register, lane p - 16
/// of the second) in the layout of distance `d`.
const fn offset_at(d: usize, p: usize) -> usize {
    if p < 16 {
        lower(d)[p]
    } else {
        lower(d)[p - 16] + d
    }
}

/// The `_mm512_permutex2var_epi32` indices (one vector per output register)
/// that take a pair from the layout of distance `from` to that of `to`:
/// each output position names the input position (bit 4: second register)
/// holding the same coefficient.
const fn regrouping(from: usize, to: usize) -> [[i32; 16]; 2] {
    let mut idx = [[0i32; 16]; 2];
    let mut p = 0;
    while p < 32 {
        let want = offset_at(to, p);
        let mut s = 0;
        while offset_at(from, s) != want {
            s += 1;
        }
        idx[p / 16][p % 16] = s as i32;
        p += 1;
    }
    idx
}

const STD_TO_8: [[i32; 16]; 2] = regrouping(16, 8);
const P8_TO_4: [[i32; 16]; 2] = regrouping(8, 4);
const P4_TO_2: [[i32; 16]; 2] = regrouping(4, 2);
const P2_TO_1: [[i32; 16]; 2] = regrouping(2, 1);
const P1_TO_STD: [[i32; 16]; 2] = regrouping(1, 16);
const STD_TO_1: [[i32; 16]; 2] = regrouping(16, 1);
const P1_TO_2: [[i32; 16]; 2] = regrouping(1, 2);
const P2_TO_4: [[i32; 16]; 2] = regrouping(2, 4);
const P4_TO_8: [[i32; 16]; 2] = regrouping(4, 8);
const P8_TO_STD: [[i32; 16]; 2] = regrouping(8, 16);

/// Per-lane twiddles of the in-register layer of distance `d`, for each
/// register pair m (coefficients 32m..32m + 32): [z, z q^-1 mod 2^32].
/// Coefficient j uses the portable loops' twiddle: ZETAS[128/d + j/(2d)]
/// forward, -ZETAS[256/d - 1 - j/(2d)] inverse.
const fn lane_twiddles(d: usize, inv: bool) -> [[[i32; 16]; 2]; 8] {
    let mut t = [[[0i32; 16]; 2]; 8];
    let mut m = 0;
    while m < 8 {
        let mut l = 0;
        while l < 16 {
            let j = 32 * m + lower(d)[l];
            let z = if inv {
                -ZETAS[256 / d - 1 - j / (2 * d)]
            } else {
                ZETAS[128 / d + j / (2 * d)]
            };
            t[m][0][l] = z;
            t[m][1][l] = z.wrapping_mul(QINV);
            l += 1;
        }
        m += 1;
    }
    t
}

const FWD8: [[[i32; 16]; 2]; 8] = lane_twiddles(8, false);
const FWD4: [[[i32; 16]; 2]; 8] = lane_twiddles(4, false);
const FWD2: [[[i32; 16]; 2]; 8] = lane_twiddles(2, false);
const FWD1: [[[i32; 16]; 2]; 8] = lane_twiddles(1, false);
const INV1: [[[i32; 16]; 2]; 8] = lane_twiddles(1, true);
const INV2: [[[i32; 16]; 2]; 8] = lane_twiddles(2, true);
const INV4: [[[i32; 16]; 2]; 8] = lane_twiddles(4, true);
const INV8: [[[i32; 16]; 2]; 8] = lane_twiddles(8, true);

/// Whether every odd lane of a twiddle table has the twiddle of the even
/// lane below it (then [`tw_pairs`] applies).
const fn odd_lanes_repeat(t: &[[[i32; 16]; 2]; 8]) -> bool {
    let mut m = 0;
    while m < 8 {
        let mut l = 0;
        while l < 16 {
            if t[m][0][l] != t[m][0][l + 1] {
                return false;
            }
            l += 2;
        }
        m += 1;
    }
    true
}

// In the layers of distance 2, 4 and 8 the lanes 2i and 2i + 1 hold
// coefficients of the same block of 2d, hence the same twiddle: their
// odd-lane multipliers are the even-lane ones (no shift needed).
const _: () = assert!(
    odd_lanes_repeat(&FWD8)
        && odd_lanes_repeat(&FWD4)
        && odd_lanes_repeat(&FWD2)
        && odd_lanes_repeat(&INV8)
        && odd_lanes_repeat(&INV4)
        && odd_lanes_repeat(&INV2)
);

/// A Montgomery multiplier in the form [`mont_mul`] takes: z and
/// z q^-1 mod 2^32 in every lane (`z`, `zq`), and the odd lanes' z in the
/// even positions (`zo`, the ones `_mm512_mul_epi32` reads).
#[derive(Clone, Copy)]
struct Tw {
    z: __m512i,
    zq: __m512i,
    zo: __m512i,
}

/// The same multiplier z in every lane.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn tw_bcast(z: i32) -> Tw {
    let zq = _mm512_set1_epi32(z.wrapping_mul(QINV));
    let z = _mm512_set1_epi32(z);
    Tw { z, zq, zo: z }
}

/// A row of [`lane_twiddles`] whose odd lanes repeat the even ones
/// (checked by [`odd_lanes_repeat`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn tw_pairs(t: &[[i32; 16]; 2]) -> Tw {
    let (z, zq) = (load16(&t[0]), load16(&t[1]));
    Tw { z, zq, zo: z }
}

/// Any row of [`lane_twiddles`]: the odd lanes' z shifted down.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn tw_lanes(t: &[[i32; 16]; 2]) -> Tw {
    let (z, zq) = (load16(&t[0]), load16(&t[1]));
    Tw {
        z,
        zq,
        zo: _mm512_srli_epi64::<32>(z),
    }
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn load16(v: &[i32; 16]) -> __m512i {
    // SAFETY: `v` is 64 readable bytes; the load is unaligned.
    unsafe { _mm512_loadu_si512(v.as_ptr().cast()) }
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn store16(v: &mut [i32; 16], x: __m512i) {
    // SAFETY: `v` is 64 writable bytes; the store is unaligned.
    unsafe { _mm512_storeu_si512(v.as_mut_ptr().cast(), x) }
}

/// Coefficients 16i..16i + 16.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn load(a: &Poly, i: usize) -> __m512i {
    load16(&a.as_chunks::<16>().0[i])
}

#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn store(a: &mut Poly, i: usize, x: __m512i) {
    store16(&mut a.as_chunks_mut::<16>().0[i], x);
}

/// The 32-bit lanes of `re`'s high halves (its odd positions) moved to the
/// even positions, and `ro`'s odd positions kept: one masked `vpshufd`.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn merge_high(re: __m512i, ro: __m512i) -> __m512i {
    _mm512_mask_shuffle_epi32::<_MM_PERM_DDBB>(ro, 0x5555, re)
}

/// Montgomery reduction of the 64-bit products `pe` (of the even lanes)
/// and `po` (of the odd lanes, in the even positions): each lane is
/// `arith::montgomery_reduce` of its product, in (-q, q) for
/// |product| ≤ 2^31 q.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn reduce_products(pe: __m512i, po: __m512i) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let qinv = _mm512_set1_epi32(QINV);
    // t = (p mod 2^32) q^-1 mod 2^32, as a signed 32-bit value.
    let ue = _mm512_mul_epi32(_mm512_mul_epi32(pe, qinv), q);
    let uo = _mm512_mul_epi32(_mm512_mul_epi32(po, qinv), q);
    // (p - t q) / 2^32: the low halves are equal, so the high halves
    // subtract without a borrow (odd 32-bit positions).
    merge_high(_mm512_sub_epi32(pe, ue), _mm512_sub_epi32(po, uo))
}

/// Lane-wise `montgomery_reduce(a * z)` (bit-identical), z given with its
/// precomputed z q^-1: t = a z q^-1 mod 2^32 for all 16 lanes at once
/// (`vpmulld`), then the even and odd 64-bit products a z and t q.
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn mont_mul(a: __m512i, w: Tw) -> __m512i {
    let q = _mm512_set1_epi32(Q);
    let t = _mm512_mullo_epi32(a, w.zq);
    let pe = _mm512_mul_epi32(a, w.z);
    let po = _mm512_mul_epi32(_mm512_srli_epi64::<32>(a), w.zo);
    let ue = _mm512_mul_epi32(t, q);
    let uo = _mm512_mul_epi32(_mm512_srli_epi64::<32>(t), q);
    merge_high(_mm512_sub_epi32(pe, ue), _mm512_sub_epi32(po, uo))
}

/// Cooley-Tukey butterfly of `arith::ntt`: (x + z y, x - z y).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn ct(x: __m512i, y: __m512i, w: Tw) -> (__m512i, __m512i) {
    let t = mont_mul(y, w);
    (_mm512_add_epi32(x, t), _mm512_sub_epi32(x, t))
}

/// Gentleman-Sande butterfly of `arith::invntt_tomont` (w = -ζ):
/// (x + y, w (x - y)).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn gs(x: __m512i, y: __m512i, w: Tw) -> (__m512i, __m512i) {
    (_mm512_add_epi32(x, y), mont_mul(_mm512_sub_epi32(x, y), w))
}

/// A register pair moved from one layout to another ([`regrouping`]).
#[inline]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
fn regroup(x: __m512i, y: __m512i, idx: &[[i32; 16]; 2]) -> (__m512i, __m512i) {
    (
        _mm512_permutex2var_epi32(x, load16(&idx[0]), y),
        _mm512_permutex2var_epi32(x, load16(&idx[1]), y),
    )
}

/// `$body` once for each `$i` of the list, written out: with constant
/// indices the 16 registers of a polynomial stay in registers (LLVM does not
/// fully unroll loops of this size and keeps the array in memory).
macro_rules! unroll {
    ($i:ident in [$($n:expr),* $(,)?] $body:block) => {
        $({
            let $i: usize = $n;
            $body
        })*
    };
}

/// Forward NTT in place, equal to `arith::ntt` (standard bit-reversed
/// output order, no reduction): inputs with |a_i| < q give |â_i| < 9q.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VL and AVX2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
pub(crate) unsafe fn ntt(a: &mut Poly) {
    let mut v = [_mm512_setzero_si512(); 16];
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        v[i] = load(a, i);
    });
    // Distance 128, 64, 32, 16: registers i and i + 8 (4, 2, 1), in blocks
    // of 16 (8, 4, 2) registers with twiddle ZETAS[1] (ZETAS[2 + block],
    // ...).
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        (v[i], v[i + 8]) = ct(v[i], v[i + 8], tw_bcast(ZETAS[1]));
    });
    unroll!(i in [0, 1, 2, 3, 8, 9, 10, 11] {
        (v[i], v[i + 4]) = ct(v[i], v[i + 4], tw_bcast(ZETAS[2 + i / 8]));
    });
    unroll!(i in [0, 1, 4, 5, 8, 9, 12, 13] {
        (v[i], v[i + 2]) = ct(v[i], v[i + 2], tw_bcast(ZETAS[4 + i / 4]));
    });
    unroll!(i in [0, 2, 4, 6, 8, 10, 12, 14] {
        (v[i], v[i + 1]) = ct(v[i], v[i + 1], tw_bcast(ZETAS[8 + i / 2]));
    });
    // Distances 8, 4, 2, 1 inside each register pair.
    unroll!(m in [0, 1, 2, 3, 4, 5, 6, 7] {
        let (x, y) = regroup(v[2 * m], v[2 * m + 1], &STD_TO_8);
        let (x, y) = ct(x, y, tw_pairs(&FWD8[m]));
        let (x, y) = regroup(x, y, &P8_TO_4);
        let (x, y) = ct(x, y, tw_pairs(&FWD4[m]));
        let (x, y) = regroup(x, y, &P4_TO_2);
        let (x, y) = ct(x, y, tw_pairs(&FWD2[m]));
        let (x, y) = regroup(x, y, &P2_TO_1);
        let (x, y) = ct(x, y, tw_lanes(&FWD1[m]));
        let (x, y) = regroup(x, y, &P1_TO_STD);
        store(a, 2 * m, x);
        store(a, 2 * m + 1, y);
    });
}

/// Inverse NTT in place with the factor 2^32 of `arith::invntt_tomont`,
/// equal to it: inputs with |â_i| < q (standard order) give |a_i| < q.
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VL and AVX2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
pub(crate) unsafe fn invntt_tomont(a: &mut Poly) {
    let mut v = [_mm512_setzero_si512(); 16];
    // Distances 1, 2, 4, 8 inside each register pair.
    unroll!(m in [0, 1, 2, 3, 4, 5, 6, 7] {
        let (x, y) = regroup(load(a, 2 * m), load(a, 2 * m + 1), &STD_TO_1);
        let (x, y) = gs(x, y, tw_lanes(&INV1[m]));
        let (x, y) = regroup(x, y, &P1_TO_2);
        let (x, y) = gs(x, y, tw_pairs(&INV2[m]));
        let (x, y) = regroup(x, y, &P2_TO_4);
        let (x, y) = gs(x, y, tw_pairs(&INV4[m]));
        let (x, y) = regroup(x, y, &P4_TO_8);
        let (x, y) = gs(x, y, tw_pairs(&INV8[m]));
        (v[2 * m], v[2 * m + 1]) = regroup(x, y, &P8_TO_STD);
    });
    // Distance 16, 32, 64, 128: registers i and i + 1 (2, 4, 8), in blocks
    // of 2 (4, 8, 16) registers with twiddle -ZETAS[15 - block] (...,
    // -ZETAS[1]).
    unroll!(i in [0, 2, 4, 6, 8, 10, 12, 14] {
        (v[i], v[i + 1]) = gs(v[i], v[i + 1], tw_bcast(-ZETAS[15 - i / 2]));
    });
    unroll!(i in [0, 1, 4, 5, 8, 9, 12, 13] {
        (v[i], v[i + 2]) = gs(v[i], v[i + 2], tw_bcast(-ZETAS[7 - i / 4]));
    });
    unroll!(i in [0, 1, 2, 3, 8, 9, 10, 11] {
        (v[i], v[i + 4]) = gs(v[i], v[i + 4], tw_bcast(-ZETAS[3 - i / 8]));
    });
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7] {
        (v[i], v[i + 8]) = gs(v[i], v[i + 8], tw_bcast(-ZETAS[1]));
    });
    // The scale by F_INV.
    unroll!(i in [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] {
        store(a, i, mont_mul(v[i], tw_bcast(F_INV)));
    });
}

/// c = a ∘ b · 2^-32, equal to `arith::pointwise_montgomery`: for
/// |a_i|, |b_i| < 9q the outputs are in (-q, q).
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VL and AVX2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
pub(crate) unsafe fn pointwise_montgomery(c: &mut Poly, a: &Poly, b: &Poly) {
    for i in 0..16 {
        let (x, y) = (load(a, i), load(b, i));
        let pe = _mm512_mul_epi32(x, y);
        let po = _mm512_mul_epi32(_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
        store(c, i, reduce_products(pe, po));
    }
}

/// c += Σ_i a_i ∘ b_i · 2^-32 with one Montgomery reduction of the 64-bit
/// sum per coefficient (wrapping 32-bit addition to c): the reduced sum is
/// exactly `avx2::ntt::pointwise_acc`'s, congruent to the sum of
/// `arith::pointwise_montgomery` products, in (-q, q) whenever
/// Σ_i |a_i,j b_i,j| ≤ 2^31 q, e.g. for |a_i| < q, |b_i| < 9q and up to 28
/// terms (ML-DSA uses ℓ ≤ 7).
///
/// # Safety
/// The CPU must support AVX-512F, AVX-512BW, AVX-512VL and AVX2.
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
pub(crate) unsafe fn pointwise_acc_add(c: &mut Poly, a: &[Poly], b: &[Poly]) {
    debug_assert_eq!(a.len(), b.len());
    debug_assert!(a.len() <= 28);
    for i in 0..16 {
        let mut se = _mm512_setzero_si512();
        let mut so = _mm512_setzero_si512();
        for (pa, pb) in a.iter().zip(b) {
            let (x, y) = (load(pa, i), load(pb, i));
            se = _mm512_add_epi64(se, _mm512_mul_epi32(x, y));
            let (xo, yo) = (_mm512_srli_epi64::<32>(x), _mm512_srli_epi64::<32>(y));
            so = _mm512_add_epi64(so, _mm512_mul_epi32(xo, yo));
        }
        store(c, i, _mm512_add_epi32(load(c, i), reduce_products(se, so)));
    }
}

#[cfg(test)]
mod tests {
    extern crate std;

    use pqforge_core::testing::TestRng;

    use super::super::avx512_or_skip;
    use super::*;
    use crate::arith;
    use crate::backend::avx2::ntt as avx2;
    use crate::backend::avx2::testutil::{edges, poly_in};
    use crate::params::N;

    const Q9: i32 = 9 * Q;

    #[test]
    fn regroupings_are_permutations() {
        for idx in [
            STD_TO_8, P8_TO_4, P4_TO_2, P2_TO_1, P1_TO_STD, STD_TO_1, P1_TO_2, P2_TO_4, P4_TO_8,
            P8_TO_STD,
        ] {
            let mut seen = [false; 32];
            for &i in idx.as_flattened() {
                assert!(!seen[i as usize]);
                seen[i as usize] = true;
            }
        }
    }

    #[test]
    fn avx512_ntt_matches_portable() {
        if !avx512_or_skip("avx512_ntt_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5501);
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
            for _ in 0..200 {
                inputs.push(poly_in(&mut rng, lo, hi));
            }
        }
        inputs.extend(edges(Q - 1));
        for a in inputs {
            let (mut want, mut got) = (a, a);
            arith::ntt(&mut want);
            // SAFETY: AVX-512 detected above.
            unsafe { ntt(&mut got) };
            assert_eq!(got, want, "input {a:?}");
            assert!(got.iter().all(|x| x.abs() < Q9));
        }
    }

    #[test]
    fn avx512_invntt_matches_portable() {
        if !avx512_or_skip("avx512_invntt_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5502);
        let inputs = (0..1000)
            .map(|_| poly_in(&mut rng, -Q + 1, Q - 1))
            .chain(edges(Q - 1));
        for a in inputs {
            let (mut want, mut got) = (a, a);
            arith::invntt_tomont(&mut want);
            // SAFETY: AVX-512 detected above.
            unsafe { invntt_tomont(&mut got) };
            assert_eq!(got, want, "input {a:?}");
            assert!(got.iter().all(|x| x.abs() < Q));
        }
    }

    #[test]
    fn avx512_pointwise_matches_portable() {
        if !avx512_or_skip("avx512_pointwise_matches_portable") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5503);
        let mut pairs: std::vec::Vec<(Poly, Poly)> = (0..1000)
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
            // SAFETY: AVX-512 detected above.
            unsafe { pointwise_montgomery(&mut got, &a, &b) };
            assert_eq!(got, want);
            assert!(got.iter().all(|x| x.abs() < Q));
        }
    }

    /// Equal to the AVX2 kernel plus the accumulator, and congruent to the
    /// sum of portable products, in range.
    #[test]
    fn avx512_pointwise_acc_matches_avx2() {
        if !avx512_or_skip("avx512_pointwise_acc_matches_avx2") {
            return;
        }
        let mut rng = TestRng::new(0x4e54_5504);
        let check = |acc: &Poly, a: &[Poly], b: &[Poly]| {
            let mut want = [0i64; N];
            for (pa, pb) in a.iter().zip(b) {
                let mut p = [0; N];
                arith::pointwise_montgomery(&mut p, pa, pb);
                for (w, x) in want.iter_mut().zip(p) {
                    *w += i64::from(x);
                }
            }
            let mut t = [0; N];
            let mut got = *acc;
            // SAFETY: AVX-512 (hence AVX2) detected above.
            unsafe {
                avx2::pointwise_acc(&mut t, a, b);
                pointwise_acc_add(&mut got, a, b);
            }
            for i in 0..N {
                assert_eq!(got[i], acc[i] + t[i], "coefficient {i}");
                assert!(t[i].abs() < Q, "{} out of range", t[i]);
                let d = i64::from(t[i]) - want[i];
                assert_eq!(d.rem_euclid(i64::from(Q)), 0, "coefficient {i}");
            }
        };
        for len in 0..=7 {
            for _ in 0..100 {
                let acc = poly_in(&mut rng, -8 * Q, 8 * Q);
                let a: std::vec::Vec<Poly> =
                    (0..len).map(|_| poly_in(&mut rng, -Q + 1, Q - 1)).collect();
                let b: std::vec::Vec<Poly> = (0..len)
                    .map(|_| poly_in(&mut rng, -Q9 + 1, Q9 - 1))
                    .collect();
                check(&acc, &a, &b);
            }
            // The largest sums, both signs.
            for (x, y) in [(Q - 1, Q9 - 1), (Q - 1, -Q9 + 1), (-Q + 1, -Q9 + 1)] {
                check(&[0; N], &std::vec![[x; N]; len], &std::vec![[y; N]; len]);
            }
        }
    }
}
