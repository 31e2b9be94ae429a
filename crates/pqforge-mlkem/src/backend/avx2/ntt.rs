//! The NTT on 256-bit vectors (mirrors `crate::ntt`): forward and inverse
//! transforms and the base multiplication, bit-identical to the portable
//! kernels after reduction.
//!
//! Coefficient order is the standard FIPS 203 (bit-reversed) order. The
//! last three layers (butterfly distance 8, 4, 2 coefficients) regroup a
//! pair of registers with lane permutes so each butterfly again works on
//! two whole registers.

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_add_epi32, _mm256_blend_epi16, _mm256_load_si256,
    _mm256_madd_epi16, _mm256_mulhi_epi16, _mm256_mullo_epi16, _mm256_permute2x128_si256,
    _mm256_set1_epi16, _mm256_setzero_si256, _mm256_shuffle_epi32, _mm256_shufflehi_epi16,
    _mm256_shufflelo_epi16, _mm256_slli_epi32, _mm256_srai_epi32, _mm256_store_si256,
    _mm256_sub_epi16, _mm256_sub_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use super::poly::{barrett, fqmul, fqmul_pre, load16, regs};
use crate::ntt::ZETAS;
use crate::poly::{N, Poly, Q, QINV};

/// Offsets (within a 32-coefficient register pair) of the lower butterfly
/// inputs that land in each lane of the regrouped register, for the layers
/// of distance 8, 4 and 2 (see `regroup8/4/2`).
const MAP8: [usize; 16] = [0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23];
const MAP4: [usize; 16] = [0, 1, 2, 3, 16, 17, 18, 19, 8, 9, 10, 11, 24, 25, 26, 27];
const MAP2: [usize; 16] = [0, 1, 4, 5, 16, 17, 20, 21, 8, 9, 12, 13, 24, 25, 28, 29];

/// Per-lane twiddles of an in-register layer: forward layer `len` uses
/// ZETAS[128/len + j/(2 len)] for coefficient j, the inverse layer
/// ZETAS[256/len - 1 - j/(2 len)] (the scalar loops' `k` counters).
/// `qinv` multiplies by q^-1 mod 2^16 (precomputed Montgomery factor).
const fn lane_zetas(map: [usize; 16], len: usize, inv: bool, qinv: bool) -> [[i16; 16]; 8] {
    let mut t = [[0i16; 16]; 8];
    let mut m = 0;
    while m < 8 {
        let mut l = 0;
        while l < 16 {
            let j = 32 * m + map[l];
            let z = if inv {
                ZETAS[256 / len - 1 - j / (2 * len)]
            } else {
                ZETAS[128 / len + j / (2 * len)]
            };
            t[m][l] = if qinv { z.wrapping_mul(QINV) } else { z };
            l += 1;
        }
        m += 1;
    }
    t
}

const FZ8: [[i16; 16]; 8] = lane_zetas(MAP8, 8, false, false);
const FZ8Q: [[i16; 16]; 8] = lane_zetas(MAP8, 8, false, true);
const FZ4: [[i16; 16]; 8] = lane_zetas(MAP4, 4, false, false);
const FZ4Q: [[i16; 16]; 8] = lane_zetas(MAP4, 4, false, true);
const FZ2: [[i16; 16]; 8] = lane_zetas(MAP2, 2, false, false);
const FZ2Q: [[i16; 16]; 8] = lane_zetas(MAP2, 2, false, true);
const IZ8: [[i16; 16]; 8] = lane_zetas(MAP8, 8, true, false);
const IZ8Q: [[i16; 16]; 8] = lane_zetas(MAP8, 8, true, true);
const IZ4: [[i16; 16]; 8] = lane_zetas(MAP4, 4, true, false);
const IZ4Q: [[i16; 16]; 8] = lane_zetas(MAP4, 4, true, true);
const IZ2: [[i16; 16]; 8] = lane_zetas(MAP2, 2, true, false);
const IZ2Q: [[i16; 16]; 8] = lane_zetas(MAP2, 2, true, true);

/// Base-multiplication twiddles: odd lane 2p+1 of register i holds
/// +-ZETAS[64 + (8i + p)/2] (plus for even pair index, minus for odd).
const BM_ZETAS: [[i16; 16]; 16] = {
    let mut t = [[0i16; 16]; 16];
    let mut i = 0;
    while i < 16 {
        let mut p = 0;
        while p < 8 {
            let pair = 8 * i + p;
            let z = ZETAS[64 + pair / 2];
            t[i][2 * p + 1] = if pair % 2 == 0 { z } else { -z };
            p += 1;
        }
        i += 1;
    }
    t
};

/// Cooley-Tukey butterfly: (x + z y, x - z y).
#[inline]
#[target_feature(enable = "avx2")]
fn ct_bf(x: __m256i, y: __m256i, z: __m256i, zq: __m256i) -> (__m256i, __m256i) {
    let t = fqmul_pre(y, z, zq);
    (_mm256_add_epi16(x, t), _mm256_sub_epi16(x, t))
}

/// Gentleman-Sande butterfly: (Barrett(x + y), z (y - x)).
#[inline]
#[target_feature(enable = "avx2")]
fn gs_bf(x: __m256i, y: __m256i, z: __m256i, zq: __m256i) -> (__m256i, __m256i) {
    let s = barrett(_mm256_add_epi16(x, y));
    let d = fqmul_pre(_mm256_sub_epi16(y, x), z, zq);
    (s, d)
}

// Regrouping of a register pair (a, b) = coefficients 32m..32m+32 into
// (x, y) = (lower, upper) butterfly inputs for distance 8, 4, 2; each is
// its own inverse in the sense that `ungroup(regroup(a, b)) == (a, b)`.

#[inline]
#[target_feature(enable = "avx2")]
fn regroup8(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (
        _mm256_permute2x128_si256::<0x20>(a, b),
        _mm256_permute2x128_si256::<0x31>(a, b),
    )
}

#[inline]
#[target_feature(enable = "avx2")]
fn regroup4(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

#[inline]
#[target_feature(enable = "avx2")]
fn regroup2(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    let a = _mm256_shuffle_epi32::<0xD8>(a);
    let b = _mm256_shuffle_epi32::<0xD8>(b);
    (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
}

#[inline]
#[target_feature(enable = "avx2")]
fn ungroup2(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    let (a, b) = (_mm256_unpacklo_epi64(x, y), _mm256_unpackhi_epi64(x, y));
    (
        _mm256_shuffle_epi32::<0xD8>(a),
        _mm256_shuffle_epi32::<0xD8>(b),
    )
}

/// Forward NTT then Barrett reduction (= `Portable::ntt`).
#[target_feature(enable = "avx2")]
pub(super) fn ntt(p: &mut Poly) {
    let r = regs(p);
    // Distances 128..16 coefficients = 8..1 registers.
    let mut k = 1;
    let mut dist = 8;
    while dist >= 1 {
        let mut start = 0;
        while start < 16 {
            let z = _mm256_set1_epi16(ZETAS[k]);
            let zq = _mm256_set1_epi16(ZETAS[k].wrapping_mul(QINV));
            k += 1;
            for i in start..start + dist {
                (r[i], r[i + dist]) = ct_bf(r[i], r[i + dist], z, zq);
            }
            start += 2 * dist;
        }
        dist >>= 1;
    }
    // Distances 8, 4, 2 coefficients, inside register pairs.
    for m in 0..8 {
        let (a, b) = (r[2 * m], r[2 * m + 1]);
        let (x, y) = regroup8(a, b);
        let (x, y) = ct_bf(x, y, load16(&FZ8[m]), load16(&FZ8Q[m]));
        let (a, b) = regroup8(x, y);
        let (x, y) = regroup4(a, b);
        let (x, y) = ct_bf(x, y, load16(&FZ4[m]), load16(&FZ4Q[m]));
        let (a, b) = regroup4(x, y);
        let (x, y) = regroup2(a, b);
        let (x, y) = ct_bf(x, y, load16(&FZ2[m]), load16(&FZ2Q[m]));
        (r[2 * m], r[2 * m + 1]) = ungroup2(x, y);
    }
    for v in &mut r[..] {
        *v = barrett(*v);
    }
}

/// Inverse NTT times 2^16 (= `ntt::invntt_tomont`, bit for bit).
#[target_feature(enable = "avx2")]
pub(super) fn invntt_tomont(p: &mut Poly) {
    let r = regs(p);
    for m in 0..8 {
        let (a, b) = (r[2 * m], r[2 * m + 1]);
        let (x, y) = regroup2(a, b);
        let (x, y) = gs_bf(x, y, load16(&IZ2[m]), load16(&IZ2Q[m]));
        let (a, b) = ungroup2(x, y);
        let (x, y) = regroup4(a, b);
        let (x, y) = gs_bf(x, y, load16(&IZ4[m]), load16(&IZ4Q[m]));
        let (a, b) = regroup4(x, y);
        let (x, y) = regroup8(a, b);
        let (x, y) = gs_bf(x, y, load16(&IZ8[m]), load16(&IZ8Q[m]));
        (r[2 * m], r[2 * m + 1]) = regroup8(x, y);
    }
    let mut dist = 1;
    while dist <= 8 {
        // Zeta index of block b at coefficient distance 16 dist:
        // 256 / (16 dist) - 1 - b.
        let mut block = 0;
        let mut start = 0;
        while start < 16 {
            let zi = 16 / dist - 1 - block;
            let z = _mm256_set1_epi16(ZETAS[zi]);
            let zq = _mm256_set1_epi16(ZETAS[zi].wrapping_mul(QINV));
            for i in start..start + dist {
                (r[i], r[i + dist]) = gs_bf(r[i], r[i + dist], z, zq);
            }
            block += 1;
            start += 2 * dist;
        }
        dist <<= 1;
    }
    let f = _mm256_set1_epi16(1441);
    let fq = _mm256_set1_epi16(1441i16.wrapping_mul(QINV));
    for v in &mut r[..] {
        *v = fqmul_pre(*v, f, fq);
    }
}

/// Lane-wise Montgomery reduction of i32 lanes (= `poly::montgomery_reduce`):
/// (acc >> 16) - ((lo16(acc) q^-1 mod 2^16) q >> 16), exact because
/// acc - t q is a multiple of 2^16.
#[inline]
#[target_feature(enable = "avx2")]
fn mont32(acc: __m256i) -> __m256i {
    let hi = _mm256_srai_epi32::<16>(acc);
    let t = _mm256_mullo_epi16(acc, _mm256_set1_epi16(QINV));
    let m = _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q));
    let m = _mm256_srai_epi32::<16>(_mm256_slli_epi32::<16>(m));
    _mm256_sub_epi32(hi, m)
}

/// `r = Barrett(sum a_i o b_i * 2^-16)`, equal to `ntt::basemul_acc`
/// (both end in the unique centred representative).
#[target_feature(enable = "avx2")]
pub(super) fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
    let rp = core::ptr::from_mut(r).cast::<__m256i>();
    for i in 0..N / 16 {
        let zv = load16(&BM_ZETAS[i]);
        let mut acc0 = _mm256_setzero_si256();
        let mut acc1 = _mm256_setzero_si256();
        for (ap, bp) in a.iter().zip(b) {
            // SAFETY: register i of a 32-byte aligned 512-byte polynomial.
            let (av, bv) = unsafe {
                (
                    _mm256_load_si256(core::ptr::from_ref(ap).cast::<__m256i>().add(i)),
                    _mm256_load_si256(core::ptr::from_ref(bp).cast::<__m256i>().add(i)),
                )
            };
            // Odd lanes: mont(a1 b1); then (a0, t) . (b0, zeta) = a0 b0 + t zeta.
            let p = fqmul(av, bv);
            let x = _mm256_blend_epi16::<0xAA>(av, p);
            let y = _mm256_blend_epi16::<0xAA>(bv, zv);
            acc0 = _mm256_add_epi32(acc0, _mm256_madd_epi16(x, y));
            // (a0, a1) . (b1, b0) = a0 b1 + a1 b0.
            let bs = _mm256_shufflehi_epi16::<0xB1>(_mm256_shufflelo_epi16::<0xB1>(bv));
            acc1 = _mm256_add_epi32(acc1, _mm256_madd_epi16(av, bs));
        }
        let r0 = mont32(acc0);
        let r1 = mont32(acc1);
        let v = _mm256_blend_epi16::<0xAA>(r0, _mm256_slli_epi32::<16>(r1));
        // SAFETY: register i of the output polynomial (aligned, in bounds).
        unsafe { _mm256_store_si256(rp.add(i), barrett(v)) };
    }
}
