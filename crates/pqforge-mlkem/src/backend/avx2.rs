//! AVX2 backend (x86_64): NTT, inverse NTT, base multiplication and
//! SampleNTT's rejection step in 256-bit intrinsics; the remaining kernels
//! are the portable code compiled for AVX2.
//!
//! The protocol code is instantiated with [`Avx2`] inside
//! `#[target_feature(enable = "avx2")]` entry points, so the whole call tree
//! is compiled for AVX2 and inlines. The only way in is a [`Token`], which
//! exists only after run-time detection succeeded.
//!
//! Coefficient order is the standard FIPS 203 (bit-reversed) order of the
//! portable backend, and every kernel computes bit-identical results: the
//! vector Montgomery and Barrett reductions are exact lane-wise equivalents
//! of the scalar ones. The last three NTT layers (butterfly distance 8, 4, 2
//! coefficients) regroup a pair of registers with lane permutes so each
//! butterfly again works on two whole registers.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256i, _mm_loadu_si128, _mm_shuffle_epi8, _mm_storeu_si128, _mm256_add_epi16,
    _mm256_add_epi32, _mm256_and_si256, _mm256_andnot_si256, _mm256_blend_epi16,
    _mm256_castsi256_si128, _mm256_cmpgt_epi16, _mm256_extracti128_si256, _mm256_load_si256,
    _mm256_loadu_si256, _mm256_madd_epi16, _mm256_movemask_epi8, _mm256_mulhi_epi16,
    _mm256_mulhi_epu16, _mm256_mulhrs_epi16, _mm256_mullo_epi16, _mm256_or_si256,
    _mm256_permute2x128_si256, _mm256_permute4x64_epi64, _mm256_permutevar8x32_epi32,
    _mm256_set1_epi16, _mm256_set1_epi32, _mm256_setr_epi32, _mm256_setzero_si256,
    _mm256_shuffle_epi8, _mm256_shuffle_epi32, _mm256_shufflehi_epi16, _mm256_shufflelo_epi16,
    _mm256_slli_epi16, _mm256_slli_epi32, _mm256_srai_epi16, _mm256_srai_epi32, _mm256_srli_epi16,
    _mm256_store_si256, _mm256_storeu_si256, _mm256_sub_epi16, _mm256_sub_epi32,
    _mm256_testz_si256, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use crate::backend::Backend;
use crate::kem;
use crate::ntt::ZETAS;
use crate::params::ParameterSet;
use crate::poly::{N, POLY_BYTES, Poly, Q, QINV};
use crate::sample;

/// Proof that the CPU supports AVX2 (obtained only from [`Token::get`]).
#[derive(Clone, Copy)]
pub(crate) struct Token(());

impl Token {
    /// The token, if this CPU (and OS) supports AVX2.
    #[inline]
    pub(crate) fn get() -> Option<Self> {
        pqforge_core::cpu::avx2().then_some(Token(()))
    }
}

// ------------------------------------------------------------------ tables

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

/// Byte shuffle that spreads 12 bytes per 128-bit lane into eight 16-bit
/// candidates (bytes 3t, 3t+1 and 3t+1, 3t+2), after the qword permute
/// that gives lane 1 the input bytes 8..24 (so its data starts at 4).
const REJ_SPREAD: [u8; 32] = [
    0, 1, 1, 2, 3, 4, 4, 5, 6, 7, 7, 8, 9, 10, 10, 11, //
    4, 5, 5, 6, 7, 8, 8, 9, 10, 11, 11, 12, 13, 14, 14, 15,
];

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

// ------------------------------------------------------------------ helpers

#[inline]
#[target_feature(enable = "avx2")]
fn load16(t: &[i16; 16]) -> __m256i {
    // SAFETY: 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(t.as_ptr().cast()) }
}

/// Lane-wise Montgomery product a * z * 2^-16 with zq = z * q^-1 mod 2^16;
/// bit-identical to `poly::fqmul`.
#[inline]
#[target_feature(enable = "avx2")]
fn fqmul_pre(a: __m256i, z: __m256i, zq: __m256i) -> __m256i {
    let hi = _mm256_mulhi_epi16(a, z);
    let t = _mm256_mullo_epi16(a, zq);
    _mm256_sub_epi16(hi, _mm256_mulhi_epi16(t, _mm256_set1_epi16(Q)))
}

#[inline]
#[target_feature(enable = "avx2")]
fn fqmul(a: __m256i, b: __m256i) -> __m256i {
    fqmul_pre(a, b, _mm256_mullo_epi16(b, _mm256_set1_epi16(QINV)))
}

/// Lane-wise Barrett reduction; bit-identical to `poly::barrett_reduce`:
/// ((v a) >> 16 + 2^9) >> 10 == (v a + 2^25) >> 26.
#[inline]
#[target_feature(enable = "avx2")]
fn barrett(a: __m256i) -> __m256i {
    let t = _mm256_mulhi_epi16(a, _mm256_set1_epi16(20159));
    let t = _mm256_mulhrs_epi16(t, _mm256_set1_epi16(32));
    _mm256_sub_epi16(a, _mm256_mullo_epi16(t, _mm256_set1_epi16(Q)))
}

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

/// The polynomial as 16 vectors, in place (no copy: a local copy of the
/// 512 bytes is turned into `memcpy` calls by the optimiser).
#[inline]
fn regs(p: &mut Poly) -> &mut [__m256i; 16] {
    // SAFETY: Poly is repr(C, align(32)), 512 bytes of i16 at offset 0; an
    // [__m256i; 16] has the same size, alignment 32 and no invalid bit
    // patterns, and the borrow of `p` covers the whole lifetime.
    unsafe { &mut *core::ptr::from_mut(p).cast::<[__m256i; 16]>() }
}

// ------------------------------------------------------------------ kernels

/// Forward NTT then Barrett reduction (= `Portable::ntt`).
#[target_feature(enable = "avx2")]
fn ntt(p: &mut Poly) {
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
fn invntt_tomont(p: &mut Poly) {
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
fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
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
fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
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

/// Byte 0-2 of each 32-bit lane of a 128-bit half, then zeros.
const PICK24: [u8; 32] = [
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80, //
    0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0x80, 0x80, 0x80, 0x80,
];

/// ByteEncode12 (= `poly::to_bytes`) of a polynomial with |c| < q: adds q
/// to negative values, joins each pair to `t0 + 2^12 t1` in a 32-bit lane
/// and keeps its three low bytes; 16 coefficients (24 bytes) per step.
#[target_feature(enable = "avx2")]
fn to_bytes(p: &Poly, out: &mut [u8]) {
    let out = &mut out[..POLY_BYTES];
    let q = _mm256_set1_epi16(Q);
    let pair = _mm256_set1_epi32(0x1000_0001);
    // SAFETY: 32-byte table, unaligned load.
    let pick = unsafe { _mm256_loadu_si256(PICK24.as_ptr().cast()) };
    // Dwords 0-2 (low half) and 4-6 (high half) hold the 24 bytes.
    let join = _mm256_setr_epi32(0, 1, 2, 4, 5, 6, 3, 7);
    // Index loop with a constant trip count: no length division.
    for i in 0..N / 16 {
        let c = &p.c[16 * i..16 * i + 16];
        // SAFETY: `c` has 16 values = 32 readable bytes; unaligned load.
        let a = unsafe { _mm256_loadu_si256(c.as_ptr().cast()) };
        let a = _mm256_add_epi16(a, _mm256_and_si256(_mm256_srai_epi16::<15>(a), q));
        let x = _mm256_madd_epi16(a, pair);
        let x = _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(x, pick), join);
        let mut b = [0u8; 32];
        // SAFETY: `b` has 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(b.as_mut_ptr().cast(), x) };
        out[24 * i..24 * i + 24].copy_from_slice(&b[..24]);
    }
}

/// Modulus check of ByteEncode12 data (= `poly::is_canonical_12`), 16
/// values per step; runs on public encapsulation keys.
#[target_feature(enable = "avx2")]
fn is_canonical_12(bytes: &[u8]) -> bool {
    let mut pos = 0;
    let mut bad = _mm256_setzero_si256();
    let qm1 = _mm256_set1_epi16(Q - 1);
    let mask = _mm256_set1_epi16(0x0FFF);
    // SAFETY: 32-byte table, unaligned load.
    let spread = unsafe { _mm256_loadu_si256(REJ_SPREAD.as_ptr().cast()) };
    while pos + 32 <= bytes.len() {
        // SAFETY: pos + 32 <= bytes.len() (24 of the 32 bytes are used).
        let f = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(pos).cast()) };
        let f = _mm256_shuffle_epi8(_mm256_permute4x64_epi64::<0x94>(f), spread);
        let f = _mm256_and_si256(
            _mm256_blend_epi16::<0xAA>(f, _mm256_srli_epi16::<4>(f)),
            mask,
        );
        bad = _mm256_or_si256(bad, _mm256_cmpgt_epi16(f, qm1));
        pos += 24;
    }
    _mm256_testz_si256(bad, bad) == 1 && crate::poly::is_canonical_12(&bytes[pos..])
}

/// The modulus check on AVX2 (through a [`Token`]).
pub(crate) fn check_modulus(_t: Token, bytes: &[u8]) -> bool {
    // SAFETY: the token proves AVX2 support.
    unsafe { is_canonical_12(bytes) }
}

/// The AVX2 kernels. Invariant: its methods run only inside the
/// `target_feature(enable = "avx2")` entry points below (reached through a
/// [`Token`]), and in tests after checking AVX2 support.
pub(crate) struct Avx2;

impl Backend for Avx2 {
    const BATCH_HASHES: bool = true;

    #[inline]
    fn ntt(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { ntt(p) }
    }
    #[inline]
    fn invntt_tomont(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { invntt_tomont(p) }
    }
    #[inline]
    fn basemul_acc(r: &mut Poly, a: &[Poly], b: &[Poly]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { basemul_acc(r, a, b) }
    }
    #[inline]
    fn reduce(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { reduce(p) }
    }
    #[inline]
    fn tomont(p: &mut Poly) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { tomont(p) }
    }
    #[inline]
    fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; N]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { compress_values::<D>(p, v) }
    }
    #[inline]
    fn to_bytes(p: &Poly, out: &mut [u8]) {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { to_bytes(p, out) }
    }
    #[inline]
    fn rej_uniform(out: &mut [i16], buf: &[u8]) -> usize {
        // SAFETY: see the invariant on `Avx2`.
        unsafe { rej_uniform(out, buf) }
    }
}

/// Compress_d of every coefficient (= `poly::compress_values`), for
/// d = 4, 5 (round(x 2^d / q) from one unsigned high multiplication and a
/// rounding shift) and d = 10, 11 (with a correction term from the low
/// product); other d fall back to the portable code. All formulas were
/// checked exhaustively over [0, q) (tests/backends.rs repeats it).
// Unaligned stores only, so the pointer cast needs no alignment.
#[allow(clippy::cast_ptr_alignment)]
#[target_feature(enable = "avx2")]
fn compress_values<const D: u32>(p: &Poly, v: &mut [u16; N]) {
    if !matches!(D, 4 | 5 | 10 | 11) {
        crate::poly::compress_values::<D>(p, v);
        return;
    }
    // SAFETY: as in `regs` (shared borrow).
    let r = unsafe { &*core::ptr::from_ref(p).cast::<[__m256i; 16]>() };
    let q = _mm256_set1_epi16(Q);
    let mask = _mm256_set1_epi16(((1u32 << D) - 1) as i16);
    let vp = v.as_mut_ptr().cast::<__m256i>();
    for (i, &x) in r.iter().enumerate() {
        // Canonical representative: add q to negative lanes.
        let x = _mm256_add_epi16(x, _mm256_and_si256(_mm256_srai_epi16::<15>(x), q));
        let c = match D {
            4 => _mm256_mulhrs_epi16(
                _mm256_mulhi_epu16(x, _mm256_set1_epi16(40318u16 as i16)),
                _mm256_set1_epi16(1 << 8),
            ),
            5 => _mm256_mulhrs_epi16(
                _mm256_mulhi_epu16(x, _mm256_set1_epi16(40318u16 as i16)),
                _mm256_set1_epi16(1 << 9),
            ),
            _ => {
                // t = round(8 x v / 2^16) - borrow, then round off (d = 10: 3
                // bits, d = 11: 2 bits); v = 20159.
                let (off, sh) = if D == 10 {
                    (15, 1 << 12)
                } else {
                    (36, 1 << 13)
                };
                let v20159 = _mm256_set1_epi16(20159);
                let f1 = _mm256_mullo_epi16(x, _mm256_slli_epi16::<3>(v20159));
                let f2 = _mm256_sub_epi16(f1, _mm256_add_epi16(x, _mm256_set1_epi16(off)));
                let borrow = _mm256_srli_epi16::<15>(_mm256_andnot_si256(f1, f2));
                let f0 = _mm256_mulhi_epi16(_mm256_slli_epi16::<3>(x), v20159);
                _mm256_mulhrs_epi16(_mm256_sub_epi16(f0, borrow), _mm256_set1_epi16(sh))
            }
        };
        // SAFETY: register i of a 512-byte array (unaligned store).
        unsafe { _mm256_storeu_si256(vp.add(i), _mm256_and_si256(c, mask)) };
    }
}

#[target_feature(enable = "avx2")]
fn reduce(p: &mut Poly) {
    for v in regs(p) {
        *v = barrett(*v);
    }
}

#[target_feature(enable = "avx2")]
fn tomont(p: &mut Poly) {
    let f = _mm256_set1_epi16(crate::poly::MONT_SQ);
    for v in regs(p) {
        *v = fqmul(*v, f);
    }
}

// ------------------------------------------------------------------ entry points

#[target_feature(enable = "avx2")]
fn keygen_avx2<P: ParameterSet>(
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    kem::keygen::<P, Avx2>(d, z, ek, dk, ipd);
}

#[target_feature(enable = "avx2")]
fn encaps_avx2<P: ParameterSet>(
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    kem::encaps::<P, Avx2>(ek, h, m, c, key);
}

#[target_feature(enable = "avx2")]
fn decaps_avx2<P: ParameterSet>(dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    kem::decaps::<P, Avx2>(dk, c, key);
}

/// KeyGen_internal on AVX2.
pub(crate) fn keygen<P: ParameterSet>(
    _t: Token,
    d: &[u8; 32],
    z: &[u8; 32],
    ek: &mut [u8],
    dk: &mut [u8],
    ipd: bool,
) {
    // SAFETY: the token proves AVX2 support.
    unsafe { keygen_avx2::<P>(d, z, ek, dk, ipd) }
}

/// Encaps_internal on AVX2.
pub(crate) fn encaps<P: ParameterSet>(
    _t: Token,
    ek: &[u8],
    h: &[u8; 32],
    m: &[u8; 32],
    c: &mut [u8],
    key: &mut [u8; 32],
) {
    // SAFETY: the token proves AVX2 support.
    unsafe { encaps_avx2::<P>(ek, h, m, c, key) }
}

/// Decaps_internal on AVX2.
pub(crate) fn decaps<P: ParameterSet>(_t: Token, dk: &[u8], c: &[u8], key: &mut [u8; 32]) {
    // SAFETY: the token proves AVX2 support.
    unsafe { decaps_avx2::<P>(dk, c, key) }
}
