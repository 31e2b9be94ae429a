//! The AVX2 backend: the ring product on 16-lane `u16` vectors, the
//! inverse modulo 2 by carry-less products (`gf2`), the inverse modulo 3
//! by divsteps on 256-bit vectors in sign form ([`s3`]).
//!
//! Ring products split the operands into many equal sub-products and
//! compute them 16 at a time, one per lane: the operands of the 16
//! products are transposed (vector c holds coefficient c of each), so that
//! the remaining Karatsuba levels and the schoolbook base multiply lane by
//! lane with no broadcast and no wasted window; the 16 products are
//! transposed back and recombined. Two splits:
//!
//! * [`ring_mul_toom4`] (every set with q ≤ 2^13): one Toom-4 level (seven
//!   point products of quarters) and two Karatsuba levels inside each, 63
//!   sub-products in four groups of lanes; the interpolation's exact
//!   divisions by 2, 4 and 8 leave the product exact modulo 2^13 (enough
//!   for q, and for the {0, 1, 2} products reduced modulo 3).
//! * [`ring_mul_lanes`] (ntru-hrss-1373, q = 2^14): three Karatsuba levels
//!   (27 products of eighths, two groups), exact modulo 2^16.
//!
//! Every index and count is public.
//!
//! The kernel type [`Avx2Kernels`] is private to this module and named only
//! in [`run`], which takes the [`Avx2`] token: so its kernels only ever run
//! on a CPU with AVX2.
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m256i, _mm256_add_epi16, _mm256_loadu_si256, _mm256_mullo_epi16, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256, _mm256_sub_epi16,
};

use pqforge_core::cpu::Avx2Pclmul;
use pqforge_core::ct;
use pqforge_core::transpose::transpose16;

use crate::backend::Operation;
#[cfg(test)]
use crate::inv;
use crate::kem::{self, Backend};
use crate::params::{KARATSUBA_BASE, ParameterSet, padded_len};

/// The AVX2 kernels (only reachable through [`run`]).
struct Avx2Kernels;

impl Backend for Avx2Kernels {
    const NAME: &'static str = "avx2";

    fn mul_wide(r: &mut [u16], a: &[u16], b: &[u16], s: &mut [u16]) {
        // SAFETY: `Avx2Kernels` is only instantiated by `run`, whose
        // `Avx2Pclmul` token proves that this CPU has AVX2 and PCLMULQDQ.
        unsafe { mul_wide(r, a, b, s) }
    }

    fn ring_mul<P: ParameterSet>(r: &mut [u16], a: &[u16], b: &[u16]) {
        let m = padded_len(P::N);
        // SAFETY: as for `mul_wide`.
        unsafe {
            if P::LOGQ <= 13 {
                match m {
                    512 => return ring_mul_toom4::<32>(r, a, b),
                    768 => return ring_mul_toom4::<48>(r, a, b),
                    896 => return ring_mul_toom4::<64>(r, a, b),
                    1280 => return ring_mul_toom4::<80>(r, a, b),
                    _ => {}
                }
            }
            match (m % 8, m / 8) {
                (0, 64) => ring_mul_lanes::<64>(r, a, b),
                (0, 96) => ring_mul_lanes::<96>(r, a, b),
                (0, 112) => ring_mul_lanes::<112>(r, a, b),
                (0, 160) => ring_mul_lanes::<160>(r, a, b),
                (0, 192) => ring_mul_lanes::<192>(r, a, b),
                _ => kem::rq_mul_wide::<P, Self>(r, a, b),
            }
        }
    }

    fn sort_i32(x: &mut [i32]) {
        // SAFETY: as for `mul_wide`.
        unsafe { sort_i32(x) }
    }

    fn r2_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16]) {
        // SAFETY: as for `mul_wide` (the token also proves PCLMULQDQ).
        unsafe { r2_inverse::<P>(r, a) }
    }

    fn s3_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16]) {
        // SAFETY: as for `mul_wide`.
        unsafe { s3_inverse::<P>(r, a) }
    }
}

/// The shared AVX2 bitonic network ([`pqforge_core::sort`]): the same
/// sorted output as [`crate::sample::sort_i32`] (a sort's output depends only on
/// the multiset), about six times faster than its comparator runs.
#[target_feature(enable = "avx2")]
fn sort_i32(x: &mut [i32]) {
    pqforge_core::sort::sort_i32_avx2(x);
}

/// `r = a⁻¹ mod (2, Φ_n)` (coefficients in {0, 1}, `r[n−1] = 0`; the low
/// bit of each coefficient of `a` read) by exponentiation instead of the
/// portable divsteps: Φ_n is irreducible modulo 2 of degree n − 1, so
/// a⁻¹ = a^(2^(n−1) − 2) = (a^(2^(n−2) − 1))² in GF(2^(n−1)), computed in
/// GF(2)\[x\]/(x^n − 1) (which maps onto it) and reduced modulo Φ_n at the
/// end. The Itoh–Tsujii chain β_k = a^(2^k − 1), β_(j+k) = β_j^(2^k)·β_k,
/// follows the bits of n − 2: about 2·log₂ n carry-less products (PCLMULQDQ)
/// and the powers β^(2^k), which are bit permutations x^i → x^(2^k·i mod n):
/// k squarings for small k, one public permutation for large k. Every
/// branch and index depends on n only. An input divisible by Φ_n (not
/// invertible) gives 0.
#[target_feature(enable = "avx2,pclmulqdq")]
fn r2_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16]) {
    match P::N.div_ceil(64) {
        8 => gf2::inverse::<8>(r, a),
        11 => gf2::inverse::<11>(r, a),
        13 => gf2::inverse::<13>(r, a),
        20 => gf2::inverse::<20>(r, a),
        _ => gf2::inverse::<22>(r, a),
    }
}

/// Arithmetic in GF(2)\[x\]/(x^n − 1), W = ⌈n/64⌉ words, bit i of word i/64
/// (bits n.. of the last word zero), for [`r2_inverse`].
mod s3;

mod gf2 {
    use core::arch::x86_64::{
        _mm_clmulepi64_si128, _mm_cvtsi64_si128, _mm_cvtsi128_si64, _mm_extract_epi64,
    };

    use pqforge_core::ct;

    /// The carry-less product of two words (low, high).
    #[target_feature(enable = "avx2,pclmulqdq")]
    #[inline]
    fn clmul(a: u64, b: u64) -> (u64, u64) {
        let p =
            _mm_clmulepi64_si128::<0x00>(_mm_cvtsi64_si128(a as i64), _mm_cvtsi64_si128(b as i64));
        (
            _mm_cvtsi128_si64(p) as u64,
            _mm_extract_epi64::<1>(p) as u64,
        )
    }

    /// `r = wide mod (x^n − 1)`: bit i + n folds onto bit i (`wide` holds
    /// 2W + 1 words, bits 2n − 1.. zero).
    #[target_feature(enable = "avx2,pclmulqdq")]
    #[inline]
    fn fold<const W: usize>(r: &mut [u64; W], wide: &[u64], n: usize) {
        let (q, s) = (n / 64, n % 64);
        for t in 0..W {
            // Bits n + 64t .. n + 64t + 63 (n is odd: 0 < s < 64).
            let hi = (wide[t + q] >> s) | (wide[t + q + 1] << (64 - s));
            r[t] = wide[t] ^ hi;
        }
        r[W - 1] &= (1u64 << (n - 64 * (W - 1))) - 1;
    }

    /// `r = a·b mod (x^n − 1)`.
    #[target_feature(enable = "avx2,pclmulqdq")]
    fn mul<const W: usize>(r: &mut [u64; W], a: &[u64; W], b: &[u64; W], n: usize) {
        let mut wide = [0u64; 48];
        for i in 0..W {
            for j in 0..W {
                let (lo, hi) = clmul(a[i], b[j]);
                wide[i + j] ^= lo;
                wide[i + j + 1] ^= hi;
            }
        }
        fold(r, &wide, n);
        ct::wipe(&mut wide);
    }

    /// `x = x^(2^k) mod (x^n − 1)`.
    #[target_feature(enable = "avx2,pclmulqdq")]
    fn pow2k<const W: usize>(x: &mut [u64; W], k: usize, n: usize) {
        if k < 32 {
            // k squarings: a square spreads the bits (x^i → x^2i).
            let mut wide = [0u64; 48];
            for _ in 0..k {
                for i in 0..W {
                    let (lo, hi) = clmul(x[i], x[i]);
                    wide[2 * i] = lo;
                    wide[2 * i + 1] = hi;
                }
                fold(x, &wide, n);
            }
            ct::wipe(&mut wide);
            return;
        }
        // The permutation x^i → x^(c·i mod n), c = 2^k mod n (public).
        let mut c = 1;
        for _ in 0..k {
            c *= 2;
            if c >= n {
                c -= n;
            }
        }
        let mut out = [0u64; W];
        let mut j = 0;
        for i in 0..n {
            out[j / 64] |= ((x[i / 64] >> (i % 64)) & 1) << (j % 64);
            j += c;
            if j >= n {
                j -= n;
            }
        }
        *x = out;
        ct::wipe(&mut out);
    }

    /// See [`super::r2_inverse`].
    #[target_feature(enable = "avx2,pclmulqdq")]
    pub(super) fn inverse<const W: usize>(r: &mut [u16], a: &[u16]) {
        let n = a.len();
        let mut base = [0u64; W];
        for (i, &c) in a.iter().enumerate() {
            base[i / 64] |= u64::from(c & 1) << (i % 64);
        }
        // β_k for k = the leading bits of e = n − 2 read so far.
        let e = n - 2;
        let mut beta = base;
        let mut t = [0u64; W];
        let mut k = 1;
        for bit in (0..usize::BITS - 1 - e.leading_zeros()).rev() {
            // β_2k = β_k^(2^k)·β_k.
            t = beta;
            pow2k(&mut t, k, n);
            let prev = beta;
            mul(&mut beta, &t, &prev, n);
            k *= 2;
            if (e >> bit) & 1 == 1 {
                // β_(k+1) = β_k²·a.
                t = beta;
                pow2k(&mut t, 1, n);
                mul(&mut beta, &t, &base, n);
                k += 1;
            }
        }
        debug_assert_eq!(k, e);
        // a⁻¹ = β_(n−2)², then modulo Φ_n: bit n − 1 set means subtracting
        // Φ_n (all n bits).
        pow2k(&mut beta, 1, n);
        let top = (beta[(n - 1) / 64] >> ((n - 1) % 64)) & 1;
        let top = u64::from(ct::barrier_u32(top as u32));
        for (i, ri) in r.iter_mut().enumerate() {
            *ri = (((beta[i / 64] >> (i % 64)) ^ top) & 1) as u16;
        }
        r[n - 1] = 0;
        ct::wipe(&mut base);
        ct::wipe(&mut beta);
        ct::wipe(&mut t);
    }
}

/// [`crate::inv::s3_inverse`] in sign form on 256-bit vectors ([`s3`]): ⌈n/256⌉
/// vectors per plane.
#[target_feature(enable = "avx2")]
fn s3_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16]) {
    match P::N.div_ceil(256) {
        2 => s3::s3_inverse::<2>(r, a),
        3 => s3::s3_inverse::<3>(r, a),
        4 => s3::s3_inverse::<4>(r, a),
        5 => s3::s3_inverse::<5>(r, a),
        6 => s3::s3_inverse::<6>(r, a),
        v => panic!("no NTRU degree takes {v} vectors"),
    }
}

/// `r = a·b` (2m coefficients, the last one zero): Karatsuba on the
/// 16-lane schoolbook (lengths [`ring_mul_lanes`] does not take).
#[target_feature(enable = "avx2")]
fn mul_wide(r: &mut [u16], a: &[u16], b: &[u16], s: &mut [u16]) {
    karatsuba(r, a, b, s);
}

/// The all-zero vector.
#[inline(always)]
fn zero() -> __m256i {
    // SAFETY: register-only intrinsic; every caller is compiled with AVX2
    // (only reachable from `run`).
    unsafe { _mm256_setzero_si256() }
}

/// Loads 16 coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn load(x: &[u16]) -> __m256i {
    let x: &[u16; 16] = x[..16].try_into().expect("16 coefficients");
    // SAFETY: `x` is 16 readable u16 (32 bytes); unaligned loads are allowed.
    unsafe { _mm256_loadu_si256(x.as_ptr().cast()) }
}

/// Stores 16 coefficients.
#[target_feature(enable = "avx2")]
#[inline]
fn store(x: &mut [u16], v: __m256i) {
    let x: &mut [u16; 16] = (&mut x[..16]).try_into().expect("16 coefficients");
    // SAFETY: `x` is 16 writable u16 (32 bytes); unaligned stores are
    // allowed.
    unsafe { _mm256_storeu_si256(x.as_mut_ptr().cast(), v) }
}

/// Overwrites secret vectors with zeros (a value barrier keeps the stores).
#[inline(always)]
fn wipe_vectors(v: &mut [__m256i]) {
    v.fill(zero());
    core::hint::black_box(v);
}

/// Lane-wise schoolbook `r = a·b` (2N vectors, the last zero) for N-vector
/// operands, N ≤ [`LANE_BASE`]: fully unrolled, the 2N − 1 sums in
/// registers.
#[target_feature(enable = "avx2")]
#[inline]
fn lane_schoolbook<const N: usize>(r: &mut [__m256i], a: &[__m256i], b: &[__m256i]) {
    let a: &[__m256i; N] = a.try_into().expect("block");
    let b: &[__m256i; N] = b.try_into().expect("block");
    let mut acc = [zero(); 2 * LANE_BASE];
    for i in 0..N {
        for j in 0..N {
            acc[i + j] = _mm256_add_epi16(acc[i + j], _mm256_mullo_epi16(a[i], b[j]));
        }
    }
    // Element by element: a slice copy of this size becomes a `memcpy`
    // call.
    for (d, &v) in r[..2 * N].iter_mut().zip(&acc) {
        *d = v;
    }
}

/// Largest lane-wise schoolbook block of [`lane_karatsuba`].
const LANE_BASE: usize = 8;

/// Lane-wise Karatsuba `r = a·b` (2m vectors, the last zero) for
/// m-vector operands, down to [`lane_schoolbook`] blocks of at most
/// [`LANE_BASE`] vectors; `s` is scratch (4·⌈m/2⌉ per level).
#[target_feature(enable = "avx2")]
fn lane_karatsuba(r: &mut [__m256i], a: &[__m256i], b: &[__m256i], s: &mut [__m256i]) {
    let m = a.len();
    if m <= LANE_BASE {
        match m {
            1 => lane_schoolbook::<1>(r, a, b),
            2 => lane_schoolbook::<2>(r, a, b),
            3 => lane_schoolbook::<3>(r, a, b),
            4 => lane_schoolbook::<4>(r, a, b),
            5 => lane_schoolbook::<5>(r, a, b),
            6 => lane_schoolbook::<6>(r, a, b),
            7 => lane_schoolbook::<7>(r, a, b),
            _ => lane_schoolbook::<8>(r, a, b),
        }
        return;
    }
    let h = m.div_ceil(2);
    let l = m - h;
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = b.split_at(h);
    {
        let (r0, r1) = r.split_at_mut(2 * h);
        lane_karatsuba(r0, a0, b0, s);
        lane_karatsuba(&mut r1[..2 * l], a1, b1, s);
    }
    let (sa, rest) = s.split_at_mut(h);
    let (sb, rest) = rest.split_at_mut(h);
    let (mid, rest) = rest.split_at_mut(2 * h);
    if l == h {
        for i in 0..h {
            sa[i] = _mm256_add_epi16(a0[i], a1[i]);
            sb[i] = _mm256_add_epi16(b0[i], b1[i]);
        }
        lane_karatsuba(mid, sa, sb, rest);
        // With a0·b0 = (L0, H0), a1·b1 = (L1, H1), mid = (ML, MH) in
        // halves of h and T = H0 − L1: r = (L0, T + ML − L0, MH − H1 − T,
        // H1), one pass.
        let (r0, r1) = r.split_at_mut(2 * h);
        let (l0, h0) = r0.split_at_mut(h);
        let (l1, h1) = r1.split_at_mut(h);
        let (ml, mh) = mid.split_at(h);
        for i in 0..h {
            let t = _mm256_sub_epi16(h0[i], l1[i]);
            h0[i] = _mm256_sub_epi16(_mm256_add_epi16(t, ml[i]), l0[i]);
            l1[i] = _mm256_sub_epi16(_mm256_sub_epi16(mh[i], h1[i]), t);
        }
        return;
    }
    sa.copy_from_slice(a0);
    sb.copy_from_slice(b0);
    for i in 0..l {
        sa[i] = _mm256_add_epi16(sa[i], a1[i]);
        sb[i] = _mm256_add_epi16(sb[i], b1[i]);
    }
    lane_karatsuba(mid, sa, sb, rest);
    for i in 0..2 * h {
        mid[i] = _mm256_sub_epi16(mid[i], r[i]);
    }
    for i in 0..2 * l {
        mid[i] = _mm256_sub_epi16(mid[i], r[2 * h + i]);
    }
    // The top vector of `mid` is zero: 3h − 1 ≤ 2m vectors.
    for i in 0..2 * h - 1 {
        r[h + i] = _mm256_add_epi16(r[h + i], mid[i]);
    }
}

/// The 27 products of the three top Karatsuba levels, by index t = 9·d1 +
/// 3·d2 + d3 with digits d ∈ {0: low half, 1: high half, 2: sum of both}
/// (d1 the top level).
const TOP: usize = 27;

/// Digit k (0 = top level) of product index t.
const fn digit_of(t: usize, k: usize) -> u8 {
    let mut t = t;
    let mut i = 2;
    while i > k {
        t /= 3;
        i -= 1;
    }
    (t % 3) as u8
}

/// The digits of every product index, evaluated at compile time: at
/// opt-level "z" the run-time `/ 3` and `% 3` were `div` instructions
/// (public operands, but the division scan must stay clean).
const DIGITS: [[u8; 3]; TOP] = {
    let mut d = [[0u8; 3]; TOP];
    let mut t = 0;
    while t < TOP {
        let mut k = 0;
        while k < 3 {
            d[t][k] = digit_of(t, k);
            k += 1;
        }
        t += 1;
    }
    d
};

/// Whether product t of the `levels` lowest Karatsuba levels (t < 3^levels,
/// its digits the last `levels` of [`DIGITS`]) has block `blk` of its
/// operand in its sum (blk's `levels` bits, top level first, must match
/// the digits that are not 2).
const fn takes(t: usize, levels: usize, blk: usize) -> bool {
    let mut take = true;
    let mut k = 0;
    while k < levels {
        let bit = ((blk >> (levels - 1 - k)) & 1) as u8;
        let d = DIGITS[t][3 - levels + k];
        take &= d == 2 || d == bit;
        k += 1;
    }
    take
}

/// For product t of `levels` Karatsuba levels (t < 3^levels), bit `blk`
/// set iff its operand contains block `blk` of 2^levels.
const fn select(t: usize, levels: usize) -> u8 {
    let mut s = 0u8;
    let mut blk = 0;
    while blk < 1 << levels {
        if takes(t, levels, blk) {
            s |= 1 << blk;
        }
        blk += 1;
    }
    s
}

/// [`select`] for the 27 products of the three top levels (eighths).
const SELECT: [u8; TOP] = {
    let mut s = [0u8; TOP];
    let mut t = 0;
    while t < TOP {
        s[t] = select(t, 3);
        t += 1;
    }
    s
};

/// Coefficients `16·blk..16·blk + 16` of the operand of product t of `x`
/// (8·mb coefficients, the eighths of mb): the sum of the selected
/// eighths' blocks.
#[target_feature(enable = "avx2")]
#[inline]
fn top_operand_block(x: &[u16], mb: usize, t: usize, blk: usize) -> __m256i {
    let sel = SELECT[t];
    let mut v = zero();
    for e in 0..8 {
        if (sel >> e) & 1 == 1 {
            v = _mm256_add_epi16(v, load(&x[e * mb + 16 * blk..]));
        }
    }
    v
}

/// The terms (offset, sign) with which product t (t < 3^levels) of the
/// `levels` lowest Karatsuba levels enters the product of m-coefficient
/// operands: level k (half size h = m/2^(k+1)) multiplies the low product
/// by 1 − x^h, the high one by x^2h − x^h and the middle one by x^h.
/// Returns the count (≤ 2^levels).
const fn kara_terms(t: usize, levels: usize, m: usize) -> ([(usize, bool); 8], usize) {
    let mut terms = [(0usize, true); 8];
    let mut count = 1;
    let mut k = 0;
    while k < levels {
        let h = m >> (k + 1);
        let d = DIGITS[t][3 - levels + k];
        let mut i = 0;
        let old = count;
        while i < old {
            let (off, pos) = terms[i];
            match d {
                0 => {
                    terms[i] = (off, pos);
                    terms[count] = (off + h, !pos);
                    count += 1;
                }
                1 => {
                    terms[i] = (off + 2 * h, pos);
                    terms[count] = (off + h, !pos);
                    count += 1;
                }
                _ => terms[i] = (off + h, pos),
            }
            i += 1;
        }
        k += 1;
    }
    (terms, count)
}

/// The terms of product t of the three top levels ([`kara_terms`]).
const fn top_terms(t: usize, m: usize) -> ([(usize, bool); 8], usize) {
    kara_terms(t, 3, m)
}

/// [`top_terms`] of the 27 products.
const fn top_terms_table(m: usize) -> [([(usize, bool); 8], usize); TOP] {
    let mut table = [([(0usize, true); 8], 0usize); TOP];
    let mut t = 0;
    while t < TOP {
        table[t] = top_terms(t, m);
        t += 1;
    }
    table
}

/// One group of up to 16 products, one per lane: `operand(side, l, blk)`
/// gives coefficients 16·blk.. of operand `side` (0: a, 1: b) of product
/// l < `lanes`; both operands are transposed into `va` and `vb` (vector c
/// holds coefficient c of every product, unused lanes zero), multiplied by
/// [`lane_karatsuba`] into `vp` (with `scratch`) and transposed back block
/// by block: `sink(l, blk, x)` receives coefficients 16·blk.. of product l.
#[target_feature(enable = "avx2")]
#[inline]
fn lane_group(
    va: &mut [__m256i],
    vb: &mut [__m256i],
    vp: &mut [__m256i],
    scratch: &mut [__m256i],
    lanes: usize,
    mut operand: impl FnMut(usize, usize, usize) -> __m256i,
    mut sink: impl FnMut(usize, usize, __m256i),
) {
    for side in 0..2 {
        let v = if side == 0 { &mut *va } else { &mut *vb };
        for blk in 0..v.len() / 16 {
            let mut t = [zero(); 16];
            for (l, tl) in t.iter_mut().enumerate().take(lanes) {
                *tl = operand(side, l, blk);
            }
            transpose16(&mut t);
            // Element by element: a slice copy becomes a `memcpy` call.
            for (d, &x) in v[16 * blk..16 * blk + 16].iter_mut().zip(&t) {
                *d = x;
            }
        }
    }
    lane_karatsuba(vp, va, vb, scratch);
    for blk in 0..vp.len() / 16 {
        let mut t: [__m256i; 16] = vp[16 * blk..16 * blk + 16].try_into().expect("16");
        transpose16(&mut t);
        for (l, &x) in t.iter().enumerate().take(lanes) {
            sink(l, blk, x);
        }
    }
}

/// `r = a·b mod (x^n − 1)` for n-coefficient operands, n ≤ 8·MB: see the
/// module documentation. Stack: 10·MB vectors (30 KB for MB = 96, 60 KB
/// for MB = 192).
#[target_feature(enable = "avx2")]
fn ring_mul_lanes<const MB: usize>(r: &mut [u16], a: &[u16], b: &[u16]) {
    const { assert!(MB.is_multiple_of(16)) };
    let m = 8 * MB;
    let n = a.len();
    assert!(n <= m && b.len() == n && r.len() == n);
    let table = const { top_terms_table(8 * MB) };
    // The operands zero-padded to 8·MB coefficients, and the full product
    // (2m coefficients).
    let mut pad = [[[0u16; MB]; 8]; 2];
    pad[0].as_flattened_mut()[..n].copy_from_slice(a);
    pad[1].as_flattened_mut()[..n].copy_from_slice(b);
    let mut wide = [[0u16; MB]; 16];
    let acc = wide.as_flattened_mut();
    let mut va = [zero(); MB];
    let mut vb = [zero(); MB];
    let mut vp = [[zero(); MB]; 2];
    let mut scratch = [[zero(); MB]; 4];
    for group in 0..TOP.div_ceil(16) {
        let lanes = (TOP - 16 * group).min(16);
        let terms = &table[16 * group..16 * group + lanes];
        lane_group(
            &mut va,
            &mut vb,
            vp.as_flattened_mut(),
            scratch.as_flattened_mut(),
            lanes,
            |side, l, blk| top_operand_block(pad[side].as_flattened(), MB, 16 * group + l, blk),
            // Each product added into the full product at its terms'
            // offsets.
            |l, blk, v| {
                let (terms, count) = &terms[l];
                for &(off, pos) in &terms[..*count] {
                    let dst = &mut acc[off + 16 * blk..];
                    let x = load(dst);
                    let x = if pos {
                        _mm256_add_epi16(x, v)
                    } else {
                        _mm256_sub_epi16(x, v)
                    };
                    store(dst, x);
                }
            },
        );
    }
    // The product has degree below 2n − 1: fold it modulo x^n − 1.
    crate::poly::fold(r, &acc[..2 * n]);
    ct::wipe(acc);
    for p in &mut pad {
        ct::wipe(p.as_flattened_mut());
    }
    wipe_vectors(&mut va);
    wipe_vectors(&mut vb);
    wipe_vectors(vp.as_flattened_mut());
    wipe_vectors(scratch.as_flattened_mut());
}

/// Toom-4 evaluation points, in this order: 0, 1, −1, 2, −2, 1/2 (the
/// operands scaled by 8 there, so the product by 64), ∞.
const TOOM_POINTS: usize = 7;

/// The 63 sub-products of [`ring_mul_toom4`]: u = 9·p + s, p the Toom
/// point, s < 9 the product of the two Karatsuba levels inside it.
const TOOM_SUBS: usize = 9 * TOOM_POINTS;

/// Toom point (u / 9) and Karatsuba product (u % 9) of each sub-product u,
/// as a table (no run-time division, even at opt-level "z").
const TOOM_INDEX: [(u8, u8); TOOM_SUBS] = {
    let mut t = [(0u8, 0u8); TOOM_SUBS];
    let mut u = 0;
    while u < TOOM_SUBS {
        t[u] = ((u / 9) as u8, (u % 9) as u8);
        u += 1;
    }
    t
};

/// Quarter selections ([`select`] with two levels) of the 9 products.
const SELECT2: [u8; 9] = {
    let mut s = [0u8; 9];
    let mut t = 0;
    while t < 9 {
        s[t] = select(t, 2);
        t += 1;
    }
    s
};

/// The Toom-4 evaluations of the four parts x0..x3 (one 16-coefficient
/// block each) at the seven points, in [`TOOM_POINTS`] order.
#[target_feature(enable = "avx2")]
#[inline]
fn toom4_evaluate(x: [__m256i; 4]) -> [__m256i; TOOM_POINTS] {
    let add = |a, b| _mm256_add_epi16(a, b);
    let sub = |a, b| _mm256_sub_epi16(a, b);
    let dbl = |a| _mm256_add_epi16(a, a);
    let even = add(x[0], x[2]);
    let odd = add(x[1], x[3]);
    // x0 + 4·x2 and 2·x1 + 8·x3.
    let even2 = add(x[0], dbl(dbl(x[2])));
    let odd2 = dbl(add(x[1], dbl(dbl(x[3]))));
    // 8·x0 + 4·x1 + 2·x2 + x3.
    let half = add(dbl(add(dbl(add(dbl(x[0]), x[1])), x[2])), x[3]);
    [
        x[0],
        add(even, odd),
        sub(even, odd),
        add(even2, odd2),
        sub(even2, odd2),
        half,
        x[3],
    ]
}

/// 3⁻¹ and 5⁻¹ modulo 2^16.
const INV3: u16 = 0xAAAB;
const INV5: u16 = 0xCCCD;

/// Toom-4 interpolation of one 16-coefficient block of the seven point
/// products (in [`TOOM_POINTS`] order) into the blocks of the seven
/// coefficients c0..c6 of the product in y = x^S. The exact divisions by
/// 2, 4 and 8 are logical shifts (each costs the top bits: the results
/// are exact modulo 2^13), those by 3 and 5 products with their inverses
/// modulo 2^16.
#[target_feature(enable = "avx2")]
#[inline]
fn toom4_interpolate(v: [__m256i; TOOM_POINTS]) -> [__m256i; TOOM_POINTS] {
    use core::arch::x86_64::_mm256_srli_epi16;
    let add = |a, b| _mm256_add_epi16(a, b);
    let sub = |a, b| _mm256_sub_epi16(a, b);
    let mul = |a, k: u16| _mm256_mullo_epi16(a, _mm256_set1_epi16(k as i16));
    let [v0, v1, vm1, v2, vm2, vh, vinf] = v;
    let (c0, c6) = (v0, vinf);
    // c2 + c4 and c1 + c3 + c5.
    let e1 = sub(sub(_mm256_srli_epi16::<1>(add(v1, vm1)), c0), c6);
    let o1 = _mm256_srli_epi16::<1>(sub(v1, vm1));
    // c2 + 4·c4 and c1 + 4·c3 + 16·c5.
    let e2 = _mm256_srli_epi16::<2>(sub(
        sub(_mm256_srli_epi16::<1>(add(v2, vm2)), c0),
        mul(c6, 64),
    ));
    let o2 = _mm256_srli_epi16::<2>(sub(v2, vm2));
    let c4 = mul(sub(e2, e1), INV3);
    let c2 = sub(e1, c4);
    // 16·c1 + 4·c3 + c5.
    let oh = _mm256_srli_epi16::<1>(sub(
        sub(sub(sub(vh, mul(c0, 64)), mul(c2, 16)), mul(c4, 4)),
        c6,
    ));
    // c3 + 5·c5 and 4·c3 + 5·c5.
    let t1 = mul(sub(o2, o1), INV3);
    let t2 = mul(sub(mul(o1, 16), oh), INV3);
    let c3 = mul(sub(t2, t1), INV3);
    let c5 = mul(sub(t1, c3), INV5);
    let c1 = sub(sub(o1, c3), c5);
    [c0, c1, c2, c3, c4, c5, c6]
}

/// A Karatsuba recombination: (low, high, middle) products P0,
/// P1, P2 of halves of h vectors give P0 + X(P2 − P0 − P1) + X²P1
/// (4h vectors, X = x^(16h)).
#[target_feature(enable = "avx2")]
#[inline]
fn combine(out: &mut [__m256i], p0: &[__m256i], p1: &[__m256i], p2: &[__m256i], h: usize) {
    for i in 0..h {
        out[i] = p0[i];
        out[3 * h + i] = p1[h + i];
    }
    for i in 0..2 * h {
        let mid = _mm256_sub_epi16(_mm256_sub_epi16(p2[i], p0[i]), p1[i]);
        let base = if i < h { p0[h + i] } else { p1[i - h] };
        out[h + i] = _mm256_add_epi16(base, mid);
    }
}

/// `r = a·b mod (x^n − 1)` modulo 2^13 (coefficients reduced below 2^13),
/// n ≤ 16·L: one Toom-4 level (parts of S = 4·L coefficients, seven point
/// products), two Karatsuba levels inside each point product, and the 63
/// products of L coefficients 16 at a time, one per lane, as in
/// [`ring_mul_lanes`]. For q ≤ 2^13 (every set but ntru-hrss-1373); the
/// products of {0, 1, 2} polynomials the callers reduce modulo 3 stay
/// below 4n < 2^13, so they are exact. Stack: about 22.5·L vectors (35 KB
/// for L = 48, 58 KB for L = 80).
#[target_feature(enable = "avx2")]
fn ring_mul_toom4<const L: usize>(r: &mut [u16], a: &[u16], b: &[u16]) {
    const { assert!(L.is_multiple_of(16)) };
    let n = a.len();
    assert!(n <= 16 * L && b.len() == n && r.len() == n);
    // The operands evaluated at the seven points, each of four quarters of
    // L coefficients; the operands zero-padded to 16·L go through `pad`.
    let mut ev = [[[[0u16; L]; 4]; TOOM_POINTS]; 2];
    let mut pad = [[0u16; L]; 16];
    for (x, e) in [a, b].into_iter().zip(ev.iter_mut()) {
        let p = pad.as_flattened_mut();
        p[..n].copy_from_slice(x);
        for j in 0..L / 4 {
            let parts = core::array::from_fn(|i| load(&p[4 * L * i + 16 * j..]));
            for (pt, &v) in toom4_evaluate(parts).iter().enumerate() {
                store(&mut e[pt].as_flattened_mut()[16 * j..], v);
            }
        }
    }
    // w vectors hold L coefficients. The 63 sub-products (2w vectors each,
    // sub-product u at 2w·u) and the seven point products (8w each).
    let w = L / 16;
    let mut sp = [[zero(); L]; 8];
    let sp = sp.as_flattened_mut();
    let mut va = [zero(); L];
    let mut vb = [zero(); L];
    let mut vp = [[zero(); L]; 2];
    let mut scratch = [[zero(); L]; 4];
    for group in 0..TOOM_SUBS.div_ceil(16) {
        let lanes = (TOOM_SUBS - 16 * group).min(16);
        lane_group(
            &mut va,
            &mut vb,
            vp.as_flattened_mut(),
            scratch.as_flattened_mut(),
            lanes,
            // The sum of the quarters of the evaluated operand that the
            // sub-product's Karatsuba digits select.
            |side, l, blk| {
                let (pt, k) = TOOM_INDEX[16 * group + l];
                let (pt, sel) = (usize::from(pt), SELECT2[usize::from(k)]);
                let mut v = zero();
                for (q, quarter) in ev[side][pt].iter().enumerate() {
                    if (sel >> q) & 1 == 1 {
                        v = _mm256_add_epi16(v, load(&quarter[16 * blk..]));
                    }
                }
                v
            },
            // Block blk of sub-product u, stored whole.
            |l, blk, v| sp[2 * w * (16 * group + l) + blk] = v,
        );
    }
    // The lanes' buffers are free now: the point products go to `scratch`
    // (3.5·L of 4·L vectors), the halves to `va`, the full product to `vp`.
    let tp = scratch.as_flattened_mut();
    let halves = &mut va;
    for pt in 0..TOOM_POINTS {
        let sub = &sp[18 * w * pt..18 * w * (pt + 1)];
        for d1 in 0..3 {
            let s3 = &sub[6 * w * d1..6 * w * (d1 + 1)];
            let (p0, rest) = s3.split_at(2 * w);
            let (p1, p2) = rest.split_at(2 * w);
            combine(&mut halves[4 * w * d1..4 * w * (d1 + 1)], p0, p1, p2, w);
        }
        let (h0, rest) = halves[..12 * w].split_at(4 * w);
        let (h1, h2) = rest.split_at(4 * w);
        combine(&mut tp[8 * w * pt..8 * w * (pt + 1)], h0, h1, h2, 2 * w);
    }
    // Interpolation into the full product (2·16·L coefficients): block j
    // of c_i lands at i·S + 16·j (S = 4L, 4w vectors).
    let acc = vp.as_flattened_mut();
    acc.fill(zero());
    for j in 0..8 * w {
        let v = core::array::from_fn(|pt| tp[8 * w * pt + j]);
        for (i, c) in toom4_interpolate(v).into_iter().enumerate() {
            let d = &mut acc[4 * w * i + j];
            *d = _mm256_add_epi16(*d, c);
        }
    }
    let mut prod = [[0u16; L]; 32];
    let prod = prod.as_flattened_mut();
    for (j, &v) in acc.iter().enumerate() {
        store(&mut prod[16 * j..], v);
    }
    // The product has degree below 2n − 1: fold it modulo x^n − 1 and
    // reduce modulo 2^13.
    crate::poly::fold(r, &prod[..2 * n]);
    for c in r.iter_mut() {
        *c &= (1 << 13) - 1;
    }
    ct::wipe(prod);
    ct::wipe(pad.as_flattened_mut());
    for e in &mut ev {
        ct::wipe(e.as_flattened_mut().as_flattened_mut());
    }
    wipe_vectors(sp);
    wipe_vectors(&mut va);
    wipe_vectors(&mut vb);
    wipe_vectors(vp.as_flattened_mut());
    wipe_vectors(scratch.as_flattened_mut());
}

crate::poly::karatsuba_fn!(
    /// The Karatsuba product compiled for AVX2, on [`base_mul`] (lengths
    /// [`mul_wide`] does not give to [`mul_lanes`]).
    #[target_feature(enable = "avx2")]
    fn karatsuba, base = base_mul
);

/// `r = a·b` (2m coefficients) for m ≤ 32: the fixed-size kernel for the
/// block sizes of [`padded_len`](crate::params::padded_len), operands
/// zero-padded to 32 coefficients otherwise.
#[target_feature(enable = "avx2")]
fn base_mul(r: &mut [u16], a: &[u16], b: &[u16]) {
    let m = a.len();
    assert!(m <= KARATSUBA_BASE && b.len() == m && r.len() >= 2 * m);
    match m {
        20 => base_fixed::<20, 3>(r, a, b),
        24 => base_fixed::<24, 3>(r, a, b),
        28 => base_fixed::<28, 4>(r, a, b),
        32 => base_fixed::<32, 4>(r, a, b),
        _ => {
            // Zero-padding both operands leaves the product unchanged.
            let (mut pa, mut pb, mut pr) = ([0u16; 32], [0u16; 32], [0u16; 64]);
            pa[..m].copy_from_slice(a);
            pb[..m].copy_from_slice(b);
            base_fixed::<32, 4>(&mut pr, &pa, &pb);
            r[..2 * m].copy_from_slice(&pr[..2 * m]);
        }
    }
}

/// `r = a·b` (2M coefficients) for M-coefficient operands, G = ⌈2M/16⌉
/// accumulators: output-stationary, the product coefficients in G
/// registers, each a\[i\] broadcast and multiplied with G 16-coefficient
/// windows of `b` zero-padded on both sides (loads only: no store is
/// reloaded).
#[target_feature(enable = "avx2")]
#[inline]
fn base_fixed<const M: usize, const G: usize>(r: &mut [u16], a: &[u16], b: &[u16]) {
    let a: &[u16; M] = a.try_into().expect("block");
    // bz[32 + j] = b[j], zero outside 0 ≤ j < M.
    let mut bz = [0u16; 96];
    bz[32..32 + M].copy_from_slice(&b[..M]);
    let mut acc: [__m256i; G] = [_mm256_setzero_si256(); G];
    for (i, &ai) in a.iter().enumerate() {
        let x = _mm256_set1_epi16(ai as i16);
        for (t, acc_t) in acc.iter_mut().enumerate() {
            let win: &[u16; 16] = bz[32 + 16 * t - i..48 + 16 * t - i]
                .try_into()
                .expect("window");
            // SAFETY: `win` is 16 readable u16 (32 bytes); unaligned loads
            // are allowed.
            let w = unsafe { _mm256_loadu_si256(win.as_ptr().cast()) };
            *acc_t = _mm256_add_epi16(*acc_t, _mm256_mullo_epi16(x, w));
        }
    }
    let mut out = [0u16; 64];
    for (t, acc_t) in acc.iter().enumerate() {
        let dst: &mut [u16; 16] = (&mut out[16 * t..16 * t + 16]).try_into().expect("group");
        // SAFETY: `dst` is 16 writable u16 (32 bytes); unaligned stores
        // are allowed.
        unsafe { _mm256_storeu_si256(dst.as_mut_ptr().cast(), *acc_t) };
    }
    r[..2 * M].copy_from_slice(&out[..2 * M]);
    // Windows of a secret operand and partial products.
    ct::wipe(&mut bz);
    ct::wipe(&mut out);
}

/// `op` instantiated for this backend and compiled for AVX2 (and
/// PCLMULQDQ, for [`r2_inverse`]).
#[target_feature(enable = "avx2,pclmulqdq")]
fn run_with_features<O: Operation>(op: O) -> O::Output {
    op.run::<Avx2Kernels>()
}

/// Runs `op` on this backend; the token proves the CPU has AVX2 and
/// PCLMULQDQ.
pub(super) fn run<O: Operation>(token: Avx2Pclmul, op: O) -> O::Output {
    let _ = token;
    // SAFETY: the token exists, so this CPU has AVX2 and PCLMULQDQ.
    unsafe { run_with_features(op) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::schoolbook;
    use crate::poly::tests::rand_poly;
    use std::vec;
    use std::vec::Vec;

    #[test]
    fn transpose_is_a_transpose() {
        if Avx2Pclmul::detect().is_none() {
            return;
        }
        let mut x = [[0u16; 16]; 16];
        for (i, row) in x.iter_mut().enumerate() {
            for (j, c) in row.iter_mut().enumerate() {
                *c = (16 * i + j) as u16;
            }
        }
        let mut t = [[0u16; 16]; 16];
        // SAFETY: AVX2 was detected above.
        unsafe {
            let mut v: [__m256i; 16] = core::array::from_fn(|i| load(&x[i]));
            transpose16(&mut v);
            for (row, &vi) in t.iter_mut().zip(&v) {
                store(row, vi);
            }
        }
        for i in 0..16 {
            for j in 0..16 {
                assert_eq!(t[i][j], x[j][i]);
            }
        }
    }

    #[test]
    fn ring_product_matches_schoolbook() {
        if Avx2Pclmul::detect().is_none() {
            return;
        }
        let mut seed = 5;
        for n in [509, 677, 701, 821, 1229, 1373] {
            for round in 0..3 {
                let (mut a, mut b) = (rand_poly(&mut seed, n), rand_poly(&mut seed, n));
                if round == 0 {
                    a.fill(u16::MAX);
                    b.fill(u16::MAX);
                }
                let mut wide = vec![0u16; 2 * n];
                schoolbook(&mut wide, &a, &b);
                let want: Vec<u16> = (0..n).map(|k| wide[k].wrapping_add(wide[k + n])).collect();
                let mut got = vec![1u16; n];
                let mb = crate::params::padded_len(n) / 8;
                // SAFETY: AVX2 was detected above.
                unsafe {
                    match mb {
                        64 => ring_mul_lanes::<64>(&mut got, &a, &b),
                        96 => ring_mul_lanes::<96>(&mut got, &a, &b),
                        112 => ring_mul_lanes::<112>(&mut got, &a, &b),
                        160 => ring_mul_lanes::<160>(&mut got, &a, &b),
                        _ => ring_mul_lanes::<192>(&mut got, &a, &b),
                    }
                }
                assert_eq!(got, want, "n = {n}");
            }
        }
    }

    #[test]
    fn toom4_product_matches_schoolbook_mod_2_13() {
        if Avx2Pclmul::detect().is_none() {
            return;
        }
        let mut seed = 9;
        for n in [509, 677, 701, 821, 1229] {
            for round in 0..4 {
                let (mut a, mut b) = (rand_poly(&mut seed, n), rand_poly(&mut seed, n));
                match round {
                    0 => {
                        a.fill(u16::MAX);
                        b.fill(u16::MAX);
                    }
                    // {0, 1, 2} operands: the product must be exact.
                    1 => {
                        for c in a.iter_mut().chain(b.iter_mut()) {
                            *c %= 3;
                        }
                        a.fill(2);
                        b.fill(2);
                    }
                    2 => {
                        for c in a.iter_mut().chain(b.iter_mut()) {
                            *c %= 3;
                        }
                    }
                    _ => {}
                }
                let mut wide = vec![0u16; 2 * n];
                schoolbook(&mut wide, &a, &b);
                let want: Vec<u16> = (0..n)
                    .map(|k| wide[k].wrapping_add(wide[k + n]) & 0x1FFF)
                    .collect();
                let mut got = vec![1u16; n];
                // SAFETY: AVX2 was detected above.
                unsafe {
                    match crate::params::padded_len(n) {
                        512 => ring_mul_toom4::<32>(&mut got, &a, &b),
                        768 => ring_mul_toom4::<48>(&mut got, &a, &b),
                        896 => ring_mul_toom4::<64>(&mut got, &a, &b),
                        _ => ring_mul_toom4::<80>(&mut got, &a, &b),
                    }
                }
                assert_eq!(got, want, "n = {n}, round {round}");
            }
        }
    }

    /// The PCLMULQDQ inverse against the portable divsteps for one set.
    fn check_r2<P: ParameterSet>(seed: &mut u64) {
        for round in 0..4 {
            let mut a = rand_poly(seed, P::N);
            if round == 0 {
                // Φ_n: not invertible, both give the same value.
                a.fill(1);
            }
            let mut want = vec![0u16; P::N];
            inv::r2_inverse::<P>(&mut want, &a);
            let mut got = vec![7u16; P::N];
            // SAFETY: AVX2 and PCLMULQDQ were detected above.
            unsafe { r2_inverse::<P>(&mut got, &a) };
            if round == 0 {
                assert!(got.iter().all(|&c| c == 0), "{}: Φ_n", P::INFO.name);
                continue;
            }
            assert_eq!(got, want, "{}", P::INFO.name);
        }
    }

    #[test]
    fn r2_inverse_matches_the_divsteps() {
        if Avx2Pclmul::detect().is_none() {
            return;
        }
        let mut seed = 17;
        check_r2::<crate::NtruHps2048509>(&mut seed);
        check_r2::<crate::NtruHps2048677>(&mut seed);
        check_r2::<crate::NtruHps4096821>(&mut seed);
        check_r2::<crate::NtruHps40961229>(&mut seed);
        check_r2::<crate::NtruHrss701>(&mut seed);
        check_r2::<crate::NtruHrss1373>(&mut seed);
    }

    #[test]
    fn product_matches_schoolbook() {
        if Avx2Pclmul::detect().is_none() {
            return;
        }
        let mut seed = 3;
        for m in [100, 512, 768] {
            for round in 0..3 {
                let (mut a, mut b) = (rand_poly(&mut seed, m), rand_poly(&mut seed, m));
                if round == 0 {
                    a.fill(u16::MAX);
                    b.fill(u16::MAX);
                }
                let mut want = vec![0u16; 2 * m];
                schoolbook(&mut want, &a, &b);
                let mut got = vec![1u16; 2 * m];
                let mut s = vec![0u16; crate::params::karatsuba_scratch(m)];
                // SAFETY: AVX2 was detected above.
                unsafe { mul_wide(&mut got, &a, &b, &mut s) };
                assert_eq!(got, want, "m = {m}");
            }
        }
    }
}
