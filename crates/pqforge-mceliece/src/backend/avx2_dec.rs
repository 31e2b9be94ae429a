//! Niederreiter decryption on AVX2: the additive FFT, its transpose, the
//! batch inversion and the Benes network on 256 points per register.
//!
//! Same algorithm and point order as the portable `kem::decrypt` (see the
//! `fft`, `radix` and `benes` modules): register `r` of an FFT array holds
//! the portable 64-point vectors `4r .. 4r + 3` (one per 64-bit lane), so
//! the packed bits of the Benes network are the same words in the same
//! order. The butterflies of the two smallest distances (one and two
//! vectors) pair lanes of the same register; they run on two registers
//! at a time after a lane shuffle. The bottom of the transposed FFT (the
//! sums over the 64 lanes of each vector) transposes 64 x 64 bit blocks,
//! fused with the sums.
//!
//! Cost: the butterflies' bitsliced multiplications dominate (about 580
//! per decryption for m = 13). They use one level of Karatsuba (three
//! half-size product scans instead of one full one); the half sum of each
//! twiddle row is computed once per row, not once per butterfly, and the
//! scratch planes of the product are allocated once per FFT depth (a
//! product that is not inlined writes them to memory, and zeroing them
//! per call cost a memset each time). Keeping the whole product in
//! registers (a macro-inlined multiply in non-inlined butterflies) and
//! reducing inside the product were both tried and measured slower: more
//! spills, lower IPC.
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
#![allow(unsafe_code)]

use core::arch::x86_64::{
    __m128i, __m256i, _mm_cvtsi32_si128, _mm_loadu_si128, _mm256_add_epi8, _mm256_add_epi64,
    _mm256_andnot_si256, _mm256_bslli_epi128, _mm256_bsrli_epi128, _mm256_cmpeq_epi16,
    _mm256_cvtepu32_epi64, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_or_si256,
    _mm256_packus_epi16, _mm256_permute2x128_si256, _mm256_permute4x64_epi64, _mm256_sad_epu8,
    _mm256_set1_epi8, _mm256_set1_epi16, _mm256_set1_epi64x, _mm256_setr_epi8, _mm256_setr_epi16,
    _mm256_setr_epi64x, _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_sll_epi16,
    _mm256_sll_epi64, _mm256_srl_epi64, _mm256_srli_epi16, _mm256_srlv_epi64, _mm256_storeu_si256,
    _mm256_sub_epi64, _mm256_unpackhi_epi64, _mm256_unpacklo_epi64,
};

use super::avx2::{and, wipe256, xor};
use crate::ParameterSet;
use crate::bm_avx2::bm_avx2;
use crate::fft_consts::{FftConsts, consts};
use crate::gf;
#[cfg(test)]
use crate::radix;

/// 256 field elements, bitsliced (plane `b` = bit `b`).
type V<const M: usize> = [__m256i; M];

/// Registers of a full FFT array (8192 points).
#[cfg(test)]
const NR_MAX: usize = 32;
const MAX_T: usize = 128;

#[inline]
#[target_feature(enable = "avx2")]
fn zero() -> __m256i {
    _mm256_setzero_si256()
}

/// Unaligned load of four words.
#[inline]
#[target_feature(enable = "avx2")]
fn ld(s: &[u64]) -> __m256i {
    let s = &s[..4];
    // SAFETY: `s` has 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Unaligned load of 32 bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn ld8(s: &[u8]) -> __m256i {
    let s = &s[..32];
    // SAFETY: `s` has 32 readable bytes; unaligned load.
    unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
}

/// Unaligned load of 16 bytes.
#[inline]
#[target_feature(enable = "avx2")]
fn ld16(s: &[u8]) -> __m128i {
    let s = &s[..16];
    // SAFETY: `s` has 16 readable bytes; unaligned load.
    unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
}

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

/// The four 64-bit lanes of `v`.
#[inline]
#[target_feature(enable = "avx2")]
fn lanes(v: __m256i) -> [u64; 4] {
    let mut a = [0u64; 4];
    // SAFETY: `a` has 32 writable bytes; unaligned store.
    unsafe { _mm256_storeu_si256(a.as_mut_ptr().cast(), v) };
    a
}

/// The twiddle rows of the FFT constants as 256-bit registers (row
/// `k` = words `4k .. 4k + 4`).
#[inline]
fn tw_rows(c: &FftConsts) -> &[__m256i] {
    let w = &c.tw.0;
    #[allow(clippy::cast_ptr_alignment)] // `Tw` is `align(32)`
    let ptr = w.as_ptr().cast::<__m256i>();
    // SAFETY: `Tw` is 32-byte aligned and holds a multiple of four words;
    // every bit pattern is a valid `__m256i`.
    unsafe { core::slice::from_raw_parts(ptr, w.len() / 4) }
}

// ---------------------------------------------------------------------------
// GF(2^m), bitsliced over 256 lanes.

/// The planes of an unreduced product.
type Acc = [__m256i; 2 * gf::MAX_M - 1];

/// Folds the top planes `m .. 2m-2` of `t` into each other (top down),
/// leaving what reaches the low planes to [`low`].
#[inline]
#[target_feature(enable = "avx2")]
fn reduce_high<const M: usize>(t: &mut Acc) {
    for i in (M..2 * M - 1).rev() {
        for &e in gf::low_terms(M) {
            if i - M + e >= M {
                t[i - M + e] = xor(t[i - M + e], t[i]);
            }
        }
    }
}

/// Plane `j < m` of the reduced product (after [`reduce_high`]). Callers
/// combine it with their destination directly, so the product never
/// takes an extra trip through memory.
#[inline]
#[target_feature(enable = "avx2")]
fn low<const M: usize>(t: &Acc, j: usize) -> __m256i {
    let mut v = t[j];
    for &e in gf::low_terms(M) {
        if j >= e && j - e + M < 2 * M - 1 {
            v = xor(v, t[j - e + M]);
        }
    }
    v
}

/// Plane `K` of the unreduced product `a * b`: the XOR of `a_i b_(K-i)`.
/// `K` is a constant so that the loop unrolls.
#[inline]
#[target_feature(enable = "avx2")]
fn column<const M: usize, const K: usize>(a: &[__m256i], b: &[__m256i]) -> __m256i {
    let lo = (K + 1).saturating_sub(M);
    let hi = if K < M { K } else { M - 1 };
    let mut acc = and(a[lo], b[K - lo]);
    // An inclusive range here keeps LLVM from unrolling the loop.
    #[allow(clippy::range_plus_one)]
    for i in lo + 1..hi + 1 {
        acc = xor(acc, and(a[i], b[K - i]));
    }
    acc
}

/// The `2N - 1` planes of the unreduced product of two `N`-plane
/// operands (product scanning, `N <= 7`).
#[inline]
#[target_feature(enable = "avx2")]
fn school<const N: usize>(a: &[__m256i], b: &[__m256i]) -> [__m256i; 13] {
    let (a, b) = (&a[..N], &b[..N]);
    let mut o = [zero(); 13];
    macro_rules! columns {
        ($($k:literal)*) => {$(
            if $k < 2 * N - 1 {
                o[$k] = column::<N, $k>(a, b);
            }
        )*};
    }
    columns!(0 1 2 3 4 5 6 7 8 9 10 11 12);
    o
}

/// One level of Karatsuba on the split `a = a0 + x^K0 a1` (`a0`: `K0`
/// planes, `a1`: `K1 <= K0`): `a b = L + x^K0 (S - L - H) + x^(2 K0) H`
/// with `L = a0 b0`, `H = a1 b1`, `S = (a0 + a1)(b0 + b1)`. Three
/// products of half size cost fewer lane-wise operations (and fewer live
/// registers) than the full product scan: 279 instead of 313 for m = 13.
#[inline]
#[target_feature(enable = "avx2")]
fn kara<const K0: usize, const K1: usize>(
    t: &mut Acc,
    a: &[__m256i],
    b: &[__m256i],
    sb: &[__m256i],
) {
    let (a0, a1) = (&a[..K0], &a[K0..K0 + K1]);
    let (b0, b1) = (&b[..K0], &b[K0..K0 + K1]);
    let sa = half_sum::<K0, K1>(a);
    let l = school::<K0>(a0, b0);
    let h = school::<K1>(a1, b1);
    let s = school::<K0>(&sa, sb);
    for i in 0..2 * K0 - 1 {
        let mut mid = xor(s[i], l[i]);
        if i < 2 * K1 - 1 {
            mid = xor(mid, h[i]);
        }
        // Plane K0 + i: L (if below 2 K0 - 1), mid, H (if at or above 2 K0).
        let j = K0 + i;
        let mut v = mid;
        if j < 2 * K0 - 1 {
            v = xor(v, l[j]);
        }
        if j >= 2 * K0 {
            v = xor(v, h[j - 2 * K0]);
        }
        t[j] = v;
    }
    t[..K0].copy_from_slice(&l[..K0]);
    // The planes of H above the middle part.
    for j in 3 * K0 - 1..K0 + K1 + K0 + K1 - 1 {
        t[j] = h[j - 2 * K0];
    }
}

/// `a0 + a1` for the split `a = a0 + x^K0 a1` of [`kara`].
#[inline]
#[target_feature(enable = "avx2")]
fn half_sum<const K0: usize, const K1: usize>(a: &[__m256i]) -> [__m256i; 7] {
    let mut s = [zero(); 7];
    for i in 0..K0 {
        s[i] = if i < K1 { xor(a[i], a[K0 + i]) } else { a[i] };
    }
    s
}

/// The half sum of `b` for [`prod_h`] (the split depends only on `M`).
#[inline]
#[target_feature(enable = "avx2")]
fn halves<const M: usize>(b: &[__m256i]) -> [__m256i; 7] {
    if M == 12 {
        half_sum::<6, 6>(b)
    } else {
        half_sum::<7, 6>(b)
    }
}

/// `t = a * b` (one level of Karatsuba, [`kara`]), high part folded;
/// read the result with [`low`]. `sb = halves(b)`, computed once by
/// callers that multiply many times by the same `b` (a twiddle row).
#[inline]
#[target_feature(enable = "avx2")]
fn prod_h<const M: usize>(t: &mut Acc, a: &[__m256i], b: &[__m256i], sb: &[__m256i]) {
    let (a, b) = (&a[..M], &b[..M]);
    if M == 12 {
        kara::<6, 6>(t, a, b, sb);
    } else {
        kara::<7, 6>(t, a, b, sb);
    }
    reduce_high::<M>(t);
}

/// `t = a * b`, see [`prod_h`].
#[inline]
#[target_feature(enable = "avx2")]
fn prod<const M: usize>(t: &mut Acc, a: &[__m256i], b: &[__m256i]) {
    prod_h::<M>(t, a, b, &halves::<M>(b));
}

/// `t = a^2` (linear: spread the planes), high part folded.
#[inline]
#[target_feature(enable = "avx2")]
fn prod_sq<const M: usize>(t: &mut Acc, a: &[__m256i]) {
    for k in 0..2 * M - 1 {
        t[k] = if k % 2 == 0 { a[k / 2] } else { zero() };
    }
    reduce_high::<M>(t);
}

/// `d = a * b` (`t`: scratch, reused by the caller's loop).
#[inline]
#[target_feature(enable = "avx2")]
fn mul_to<const M: usize>(d: &mut [__m256i], a: &[__m256i], b: &[__m256i], t: &mut Acc) {
    prod::<M>(t, a, b);
    for (j, x) in d[..M].iter_mut().enumerate() {
        *x = low::<M>(t, j);
    }
}

/// `d = d^(2^k)`.
#[inline]
#[target_feature(enable = "avx2")]
fn sqn<const M: usize>(d: &mut [__m256i], k: usize) {
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    for _ in 0..k {
        prod_sq::<M>(&mut t, d);
        for (j, x) in d[..M].iter_mut().enumerate() {
            *x = low::<M>(&t, j);
        }
    }
}

/// `d = a * b` with `d` and `a` the same registers.
#[inline]
#[target_feature(enable = "avx2")]
fn mul_in<const M: usize>(d: &mut [__m256i], b: &[__m256i]) {
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    prod::<M>(&mut t, d, b);
    for (j, x) in d[..M].iter_mut().enumerate() {
        *x = low::<M>(&t, j);
    }
}

/// Lane-wise `a^(2^m - 2)` (the inverse; 0 stays 0), by an addition
/// chain for `2^(m-1) - 1` and one squaring.
#[inline]
#[target_feature(enable = "avx2")]
fn vinv<const M: usize>(a: &V<M>) -> V<M> {
    let mut e2 = *a;
    sqn::<M>(&mut e2, 1);
    mul_in::<M>(&mut e2, a); // a^(2^2-1)
    let mut x = e2;
    sqn::<M>(&mut x, 1);
    mul_in::<M>(&mut x, a); // a^(2^3-1)
    if M == 12 {
        sqn::<M>(&mut x, 2);
        mul_in::<M>(&mut x, &e2); // a^(2^5-1)
        let e5 = x;
        sqn::<M>(&mut x, 5);
        mul_in::<M>(&mut x, &e5); // a^(2^10-1)
        sqn::<M>(&mut x, 1);
        mul_in::<M>(&mut x, a); // a^(2^11-1)
    } else {
        let e3 = x;
        sqn::<M>(&mut x, 3);
        mul_in::<M>(&mut x, &e3); // a^(2^6-1)
        let e6 = x;
        sqn::<M>(&mut x, 6);
        mul_in::<M>(&mut x, &e6); // a^(2^12-1)
    }
    sqn::<M>(&mut x, 1);
    x
}

// ---------------------------------------------------------------------------
// Additive FFT.

/// `x ^= y * tw; y ^= x` on two registers of 256 points (`t`: scratch,
/// passed in so that it is not zeroed for every butterfly).
#[inline]
#[target_feature(enable = "avx2")]
fn bfly<const M: usize>(x: &mut V<M>, y: &mut V<M>, tw: &[__m256i], th: &[__m256i], t: &mut Acc) {
    prod_h::<M>(t, y, tw, th);
    for b in 0..M {
        x[b] = xor(x[b], low::<M>(t, b));
        y[b] = xor(y[b], x[b]);
    }
}

/// Transpose of [`bfly`]: `x ^= y; y ^= x * tw`.
#[inline]
#[target_feature(enable = "avx2")]
fn bfly_tr<const M: usize>(
    x: &mut V<M>,
    y: &mut V<M>,
    tw: &[__m256i],
    th: &[__m256i],
    t: &mut Acc,
) {
    for b in 0..M {
        x[b] = xor(x[b], y[b]);
    }
    prod_h::<M>(t, x, tw, th);
    for b in 0..M {
        y[b] = xor(y[b], low::<M>(t, b));
    }
}

/// Splits two registers into the halves of the butterflies of distance
/// one vector (`D1`: lanes 0, 2 against 1, 3) or two vectors (lanes 0, 1
/// against 2, 3).
#[inline]
#[target_feature(enable = "avx2")]
fn split<const D1: bool>(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    if D1 {
        (_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b))
    } else {
        (
            _mm256_permute2x128_si256::<0x20>(a, b),
            _mm256_permute2x128_si256::<0x31>(a, b),
        )
    }
}

/// The inverse of [`split`].
#[inline]
#[target_feature(enable = "avx2")]
fn join<const D1: bool>(x: __m256i, y: __m256i) -> (__m256i, __m256i) {
    split::<D1>(x, y)
}

/// The butterflies of distance one or two vectors (in-register), forward
/// or transposed, with the depth's twiddle row.
#[inline]
#[target_feature(enable = "avx2")]
fn small_depth<const M: usize, const D1: bool, const TR: bool>(d: &mut [V<M>], tw: &[__m256i]) {
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    let th = halves::<M>(tw);
    for pr in d.chunks_exact_mut(2) {
        let (a, b) = pr.split_at_mut(1);
        let (a, b) = (&mut a[0], &mut b[0]);
        let mut x = [zero(); M];
        let mut y = [zero(); M];
        for i in 0..M {
            (x[i], y[i]) = split::<D1>(a[i], b[i]);
        }
        if TR {
            bfly_tr(&mut x, &mut y, tw, &th, &mut t);
        } else {
            bfly(&mut x, &mut y, tw, &th, &mut t);
        }
        for i in 0..M {
            (a[i], b[i]) = join::<D1>(x[i], y[i]);
        }
    }
    wipe256(&mut t);
}

/// The butterflies of depth `l` with a distance of at least four vectors
/// (one register or more), forward or transposed.
#[inline]
#[target_feature(enable = "avx2")]
fn big_depth<const M: usize, const TR: bool>(d: &mut [V<M>], c: &FftConsts, l: usize) {
    let lf = M - 6;
    let hr = 1usize << (lf - 3 - l);
    let rows = &tw_rows(c)[c.tw_off[l] / 4..];
    let mut t = [zero(); 2 * gf::MAX_M - 1];
    // Twiddle row outer, so that its half sum is computed once.
    for qq in 0..hr {
        let tw = &rows[qq * M..];
        let th = halves::<M>(tw);
        for blk in d.chunks_exact_mut(2 * hr) {
            let (lo, hi) = blk.split_at_mut(hr);
            let (x, y) = (&mut lo[qq], &mut hi[qq]);
            if TR {
                bfly_tr(x, y, tw, &th, &mut t);
            } else {
                bfly(x, y, tw, &th, &mut t);
            }
        }
    }
    wipe256(&mut t);
}

/// `bitrev_k(x)`.
#[inline(always)]
fn bitrev(k: usize, x: usize) -> usize {
    x.reverse_bits() >> (usize::BITS as usize - k)
}

/// Evaluates the monic `f` (degree `t = f.len() - 1 <= 64 W = 2^(m-6)`) at
/// every field element: `out[r]` lane `j` is the portable vector
/// `4r + j` (`2^(m-8)` registers).
#[inline]
#[target_feature(enable = "avx2")]
fn fft_eval<const M: usize, const W: usize>(out: &mut [V<M>], f: &[u16]) {
    let lf = M - 6;
    let nr = 1usize << (lf - 2);
    let c = consts(M);
    let t = f.len() - 1;
    let mut coef = to_planes::<M, W>(&f[..f.len().min(64 * W)]);
    let mut p = planes_in::<M>(&coef);
    zeroize::Zeroize::zeroize(coef.as_flattened_mut());
    radix_v::<M>(&mut p, 6 + W.trailing_zeros() as usize);
    // Bottom: vector v is the constant at index bitrev_lf(v).
    let one = _mm256_set1_epi64x(1);
    for (r, o) in out[..nr].iter_mut().enumerate() {
        let idx = [0, 1, 2, 3].map(|j| bitrev(lf, 4 * r + j));
        let sh = _mm256_setr_epi64x(
            (idx[0] % 64) as i64,
            (idx[1] % 64) as i64,
            (idx[2] % 64) as i64,
            (idx[3] % 64) as i64,
        );
        for (b, ob) in o.iter_mut().enumerate() {
            // Lane j needs word idx_j / 64: always 0 (W = 1), or 0, 1, 0, 1
            // (W = 2: bit 6 of bitrev_7(4r + j) is bit 0 of j).
            let word = if W == 1 {
                _mm256_permute4x64_epi64::<0x00>(p[b])
            } else {
                _mm256_permute4x64_epi64::<0x44>(p[b])
            };
            *ob = _mm256_sub_epi64(zero(), and(_mm256_srlv_epi64(word, sh), one));
        }
    }
    wipe256(&mut p);
    let d = &mut out[..nr];
    let rows = tw_rows(c);
    small_depth::<M, true, false>(d, &rows[c.tw_off[lf - 1] / 4..]);
    small_depth::<M, false, false>(d, &rows[c.tw_off[lf - 2] / 4..]);
    for l in (0..lf - 2).rev() {
        big_depth::<M, false>(d, c, l);
    }
    // The leading term x^(2^lf) (when t = 2^lf), evaluated directly: the
    // Frobenius map is linear in the point.
    if t == 1 << lf {
        for (r, o) in d.iter_mut().enumerate() {
            let hs = _mm256_setr_epi64x(
                i64::from(c.xt_high[4 * r]),
                i64::from(c.xt_high[4 * r + 1]),
                i64::from(c.xt_high[4 * r + 2]),
                i64::from(c.xt_high[4 * r + 3]),
            );
            for (b, ob) in o.iter_mut().enumerate() {
                let h = and(_mm256_srl_epi64(hs, _mm_cvtsi32_si128(b as i32)), one);
                let h = _mm256_sub_epi64(zero(), h);
                *ob = xor(*ob, xor(h, _mm256_set1_epi64x(c.xt_lane[b] as i64)));
            }
        }
    }
}

/// `LO[k]`: the low half of every `2^(k+1)`-bit field of a word.
const LO: [u64; 6] = [
    0x5555_5555_5555_5555,
    0x3333_3333_3333_3333,
    0x0F0F_0F0F_0F0F_0F0F,
    0x00FF_00FF_00FF_00FF,
    0x0000_FFFF_0000_FFFF,
    0x0000_0000_FFFF_FFFF,
];

/// One stage of a 64 x 64 bit transposition (per 64-bit lane), with
/// `s = 2^k`, followed by the XOR of its two outputs: rows `a`, `b` (fields
/// of `2s` bits) become `d` = the sum of the two transposed rows (each
/// field of `a` folded to `s` bits in the low half, each field of `b` in
/// the high half) and `p` = the second transposed row alone (the high
/// halves of the fields).
#[inline]
#[target_feature(enable = "avx2")]
fn fold_pair(a: __m256i, b: __m256i, k: usize) -> (__m256i, __m256i) {
    let lo = _mm256_set1_epi64x(LO[k] as i64);
    let cnt = _mm_cvtsi32_si128(1 << k);
    let ahi = _mm256_srl_epi64(a, cnt);
    let d = _mm256_or_si256(
        and(xor(a, ahi), lo),
        _mm256_andnot_si256(lo, xor(b, _mm256_sll_epi64(b, cnt))),
    );
    let p = _mm256_or_si256(and(ahi, lo), _mm256_andnot_si256(lo, b));
    (d, p)
}

/// The XOR of all rows of the transposition of `rows` (`2^j` rows whose
/// fields are `2^j` bits wide): per field, the parity of its row.
#[inline]
#[target_feature(enable = "avx2")]
fn fold_all(rows: &mut [__m256i]) -> __m256i {
    let mut n = rows.len();
    while n > 1 {
        let s = n / 2;
        for i in 0..s {
            rows[i] = fold_pair(rows[i], rows[i + s], s.trailing_zeros() as usize).0;
        }
        n = s;
    }
    rows[0]
}

/// Column sums of the transposes of four 64 x 64 bit matrices (one per
/// 64-bit lane; row `i` bit `k` becomes row `k` bit `i`): `[H, Q_0, ..,
/// Q_5]` with `H` the XOR of all 64 transposed rows and `Q_k` that of the
/// transposed rows with bit k set; bit `i` of each is a parity of the
/// original row `i`. The transposition and the sums are fused: the
/// stages only XOR rows, so the rows that are summed anyway are added as
/// soon as a stage has produced them, and the later stages run on half
/// as many rows (about 1000 lane-wise operations instead of 1700).
/// Destroys `rows`.
#[inline]
#[target_feature(enable = "avx2")]
fn column_sums(rows: &mut [__m256i; 64]) -> [__m256i; 7] {
    let mut out = [zero(); 7];
    for k in (0..6).rev() {
        let s = 1usize << k;
        for i in 0..s {
            (rows[i], rows[i + s]) = fold_pair(rows[i], rows[i + s], k);
        }
        // Q_k: the transposed rows of the upper half, summed.
        out[1 + k] = fold_all(&mut rows[s..2 * s]);
    }
    out[0] = rows[0];
    out
}

/// Transpose of [`fft_eval`] with the linear bottom: returns
/// `sum_x w_x x^j` for `j < 2^(m-5)`, bitsliced (`W2 = 2^(m-11)` words of
/// each plane; `W1 = W2 / 2`). Destroys `w`.
#[inline]
#[target_feature(enable = "avx2")]
fn fft_tr<const M: usize, const W1: usize, const W2: usize>(w: &mut [V<M>]) -> [[u64; 4]; M] {
    let lf = M - 6;
    let nr = 1usize << (lf - 2);
    let c = consts(M);
    let d = &mut w[..nr];
    for l in 0..lf - 2 {
        big_depth::<M, true>(d, c, l);
    }
    let rows = tw_rows(c);
    small_depth::<M, false, true>(d, &rows[c.tw_off[lf - 2] / 4..]);
    small_depth::<M, true, true>(d, &rows[c.tw_off[lf - 1] / 4..]);

    // Bottom: per vector v, h0 = sum of the 64 lanes (-> index
    // bitrev_lf(v)) and h1 = sum_l span_l w_l = sum_k bottom[k] Q_k (->
    // index 2^lf + bitrev_lf(v)), with Q_k the sum of the lanes with bit
    // k set. Matrices (plane b, block h) with rows i = vectors
    // bitrev_lf(64 h + i), columns = lanes; four per transposition.
    let mut p = [[0u64; 4]; M];
    // Q_k, laid out for the products with `bottom_lanes`.
    let mut q = [[[0u64; 4]; M]; 3];
    let mut rows = [zero(); 64];
    let groups = (M * W1).div_ceil(4);
    for g in 0..groups {
        if W1 == 1 {
            // Planes 4g..4g+3, v = bitrev_6(i): a 4 x 4 word transposition
            // of register r gives the rows of vectors 4r .. 4r+3.
            for (r, dr) in d.iter().enumerate() {
                let (a0, a1) = split::<true>(dr[4 * g], dr[4 * g + 1]);
                let (a2, a3) = split::<true>(dr[4 * g + 2], dr[4 * g + 3]);
                let (r0, r2) = split::<false>(a0, a2);
                let (r1, r3) = split::<false>(a1, a3);
                for (j, x) in [r0, r1, r2, r3].into_iter().enumerate() {
                    rows[bitrev(lf, 4 * r + j)] = x;
                }
            }
        } else {
            // Planes b = 2g, 2g + 1 (blocks 0 and 1 each): row i of block h
            // is vector v = bitrev_7(i) + h (v even for h = 0), and
            // lanes (b, 0), (b, 1), (b+1, 0), (b+1, 1) come from lanes
            // v, v+1 of two planes of register v / 4.
            let b = 2 * g;
            for (r, dr) in d.iter().enumerate() {
                let x = dr[b];
                let y = if b + 1 < M { dr[b + 1] } else { zero() };
                let (lo, hi) = split::<false>(x, y);
                rows[bitrev(lf, 4 * r)] = lo;
                rows[bitrev(lf, 4 * r + 2)] = hi;
            }
        }
        let mut sums = column_sums(&mut rows).map(|x| lanes(x));
        for j in 0..4 {
            let (b, h) = ((4 * g + j) / W1, (4 * g + j) % W1);
            if b >= M {
                continue;
            }
            p[b][h] = sums[0][j];
            for k in 0..6 {
                q[k * W1 / 4][b][(k * W1) % 4 + h] = sums[1 + k][j];
            }
        }
        zeroize::Zeroize::zeroize(sums.as_flattened_mut());
    }
    wipe256(&mut rows);
    // h1 = sum_k bottom[k] Q_k, over the 2^lf vectors at once: four sums
    // per 256-lane product, then the lanes folded.
    let mut h1 = [zero(); M];
    for (qg, cg) in q.iter().zip(&c.bottom_lanes).take((6 * W1).div_ceil(4)) {
        let (qv, cv) = (planes_in::<M>(qg), planes_in::<M>(cg));
        let mut t = [zero(); 2 * gf::MAX_M - 1];
        prod::<M>(&mut t, &qv, &cv);
        for (j, x) in h1.iter_mut().enumerate() {
            *x = xor(*x, low::<M>(&t, j));
        }
        wipe256(&mut t);
    }
    for (pb, hb) in p.iter_mut().zip(&h1) {
        let l = lanes(*hb);
        if W1 == 1 {
            pb[1] = l[0] ^ l[1] ^ l[2] ^ l[3];
        } else {
            pb[2] = l[0] ^ l[2];
            pb[3] = l[1] ^ l[3];
        }
    }
    zeroize::Zeroize::zeroize(q.as_flattened_mut().as_flattened_mut());
    wipe256(&mut h1);
    let mut v = planes_in::<M>(&p);
    radix_tr_v::<M>(&mut v, 6 + W2.trailing_zeros() as usize);
    for (pb, vb) in p.iter_mut().zip(&v) {
        *pb = lanes(*vb);
    }
    wipe256(&mut v);
    p
}

/// Planes of four words to registers.
#[inline]
#[target_feature(enable = "avx2")]
fn planes_in<const M: usize>(p: &[[u64; 4]]) -> V<M> {
    let mut v = [zero(); M];
    for (x, w) in v.iter_mut().zip(&p[..M]) {
        *x = ld(w);
    }
    v
}

/// `QM[k][q]`: the index positions `i < 256` with `(i >> k) % 4 == q`
/// (quarter q of the blocks of `4 * 2^k`), as four words.
const QM: [[[u64; 4]; 4]; 7] = {
    let mut m = [[[0u64; 4]; 4]; 7];
    let mut k = 0;
    while k < 7 {
        let mut i = 0;
        while i < 256 {
            m[k][(i >> k) % 4][i / 64] |= 1u64 << (i % 64);
            i += 1;
        }
        k += 1;
    }
    m
};

/// One Taylor step on every plane (see `radix`): with `sh = 2^k`, quarter
/// `q` of each block of `4 sh` index positions moves by `sh` (towards 0,
/// or away for the transpose) and is added. Blocks never cross a
/// 64-bit word for `k < 5`, nor a 128-bit lane for `k = 5`.
#[inline]
#[target_feature(enable = "avx2")]
fn taylor_step<const M: usize>(p: &mut V<M>, k: usize, q: usize, up: bool) {
    let mask = ld(&QM[k][q]);
    let cnt = _mm_cvtsi32_si128(1 << k);
    for x in p.iter_mut() {
        let t = and(*x, mask);
        let t = match (k, up) {
            (0..5, false) => _mm256_srl_epi64(t, cnt),
            (0..5, true) => _mm256_sll_epi64(t, cnt),
            (5, false) => _mm256_bsrli_epi128::<4>(t),
            (5, true) => _mm256_bslli_epi128::<4>(t),
            // k = 6: one word; the masked word is never the one that
            // wraps around.
            (_, false) => _mm256_permute4x64_epi64::<0x39>(t),
            (_, true) => _mm256_permute4x64_epi64::<0x93>(t),
        };
        *x = xor(*x, t);
    }
}

/// `radix::radix` on 256-lane planes (`2^lc` coefficients, the rest 0).
#[inline]
#[target_feature(enable = "avx2")]
fn radix_v<const M: usize>(p: &mut V<M>, lc: usize) {
    let c = consts(M);
    for l in 0..M - 6 {
        mul_in::<M>(p, &planes_in::<M>(&c.scale[l]));
        for k in (l..lc - 1).rev() {
            taylor_step(p, k, 3, false);
            taylor_step(p, k, 2, false);
        }
    }
}

/// `radix::radix_tr` on 256-lane planes.
#[inline]
#[target_feature(enable = "avx2")]
fn radix_tr_v<const M: usize>(p: &mut V<M>, lc: usize) {
    let c = consts(M);
    for l in (0..M - 6).rev() {
        for k in l..lc - 1 {
            taylor_step(p, k, 1, true);
            taylor_step(p, k, 2, true);
        }
        mul_in::<M>(p, &planes_in::<M>(&c.scale[l]));
    }
}

/// Coefficients (at most `64 W`) to planes, 32 at a time: the bytes of
/// the 16-bit values are packed, then `movemask` collects one bit of
/// each.
#[inline]
#[target_feature(enable = "avx2")]
fn to_planes<const M: usize, const W: usize>(f: &[u16]) -> [[u64; 4]; M] {
    let mut buf = [0u16; 128];
    buf[..f.len()].copy_from_slice(f);
    let mut p = [[0u64; 4]; M];
    let ff = _mm256_set1_epi16(0xFF);
    for ch in 0..2 * W {
        let s = &buf[32 * ch..32 * ch + 32];
        // SAFETY: `s` has 64 readable bytes; two unaligned loads.
        let (a, b) = unsafe {
            (
                _mm256_loadu_si256(s.as_ptr().cast()),
                _mm256_loadu_si256(s[16..].as_ptr().cast()),
            )
        };
        // packus interleaves the 128-bit halves; permute restores order.
        let lo = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(and(a, ff), and(b, ff)));
        let hi = _mm256_permute4x64_epi64::<0xD8>(_mm256_packus_epi16(
            _mm256_srli_epi16::<8>(a),
            _mm256_srli_epi16::<8>(b),
        ));
        for (bit, x) in p.iter_mut().enumerate() {
            let src = if bit < 8 { lo } else { hi };
            let sh = _mm_cvtsi32_si128(7 - (bit % 8) as i32);
            let mk = _mm256_movemask_epi8(_mm256_sll_epi16(src, sh)) as u32;
            x[ch / 2] |= u64::from(mk) << (32 * (ch % 2));
        }
    }
    zeroize::Zeroize::zeroize(&mut buf);
    p
}

/// The first `out.len()` (at most `64 W`) coefficients of the planes, 16
/// at a time: each 16-bit piece of a plane is broadcast and compared
/// against the lane's bit.
#[inline]
#[target_feature(enable = "avx2")]
fn from_planes<const M: usize, const W: usize>(p: &[[u64; 4]; M], out: &mut [u16]) {
    let mut buf = [0u16; 256];
    let sel = _mm256_setr_epi16(
        1,
        2,
        4,
        8,
        16,
        32,
        64,
        128,
        256,
        512,
        1024,
        2048,
        4096,
        8192,
        16384,
        i16::MIN,
    );
    for (ch, o) in buf[..16 * W * 4].chunks_exact_mut(16).enumerate() {
        let mut acc = zero();
        for (b, x) in p.iter().enumerate() {
            let piece = (x[ch / 4] >> (16 * (ch % 4))) as u16;
            let v = _mm256_cmpeq_epi16(and(_mm256_set1_epi16(piece as i16), sel), sel);
            acc = _mm256_or_si256(acc, and(v, _mm256_set1_epi16(1 << b)));
        }
        // SAFETY: `o` has 32 writable bytes; unaligned store.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), acc) };
    }
    out.copy_from_slice(&buf[..out.len()]);
    zeroize::Zeroize::zeroize(&mut buf);
}

// ---------------------------------------------------------------------------
// Benes network on packed bits (256 per register); see `benes::layer_bits`.

/// One layer of conditional swaps at stride `2^s` bits.
#[inline]
#[target_feature(enable = "avx2")]
fn layer(p: &mut [__m256i], cb: &[u8], s: usize) {
    if s >= 8 {
        let sr = 1usize << (s - 8);
        let mut k = 0;
        for blk in p.chunks_exact_mut(2 * sr) {
            let (lo, hi) = blk.split_at_mut(sr);
            for (x, y) in lo.iter_mut().zip(hi.iter_mut()) {
                // CT: control bits as masks.
                let d = and(xor(*x, *y), ld8(&cb[k..]));
                *x = xor(*x, d);
                *y = xor(*y, d);
                k += 32;
            }
        }
    } else if s >= 6 {
        // Word pairs inside one register: (0, 1), (2, 3) for s = 6 (their
        // control words 2r, 2r + 1), (0, 2), (1, 3) for s = 7.
        for (i, pr) in p.chunks_exact_mut(2).enumerate() {
            let c = ld8(&cb[32 * i..]);
            let (x, y, c) = if s == 6 {
                let (x, y) = split::<true>(pr[0], pr[1]);
                (x, y, _mm256_permute4x64_epi64::<0xD8>(c))
            } else {
                let (x, y) = split::<false>(pr[0], pr[1]);
                (x, y, c)
            };
            let d = and(xor(x, y), c);
            let (x, y) = (xor(x, d), xor(y, d));
            (pr[0], pr[1]) = if s == 6 {
                join::<true>(x, y)
            } else {
                join::<false>(x, y)
            };
        }
    } else {
        const HI: [u64; 5] = [
            0xAAAA_AAAA_AAAA_AAAA,
            0xCCCC_CCCC_CCCC_CCCC,
            0xF0F0_F0F0_F0F0_F0F0,
            0xFF00_FF00_FF00_FF00,
            0xFFFF_0000_FFFF_0000,
        ];
        let st = _mm_cvtsi32_si128(1 << s);
        for (r, x) in p.iter_mut().enumerate() {
            // 32 control bits per word, spread to the positions whose bit
            // s is clear (as `benes::spread`).
            let mut m = _mm256_cvtepu32_epi64(ld16(&cb[16 * r..]));
            for j in (s..5).rev() {
                let h = _mm256_set1_epi64x(HI[j] as i64);
                let sj = _mm_cvtsi32_si128(1 << j);
                m = _mm256_or_si256(_mm256_andnot_si256(h, m), _mm256_sll_epi64(and(m, h), sj));
            }
            let d = and(xor(_mm256_srl_epi64(*x, st), *x), m);
            *x = xor(*x, xor(d, _mm256_sll_epi64(d, st)));
        }
    }
}

/// The Benes network (as `benes::apply_bits`), or its inverse.
#[inline]
#[target_feature(enable = "avx2")]
fn benes<const INV: bool>(p: &mut [__m256i], cb: &[u8], w: usize) {
    let lb = p.len() * 16; // bytes per layer: 2^w / 16
    let nl = 2 * w - 1;
    for i in 0..nl {
        let li = if INV { nl - 1 - i } else { i };
        let s = if li < w { li } else { 2 * w - 2 - li };
        layer(p, &cb[li * lb..(li + 1) * lb], s);
    }
}

// ---------------------------------------------------------------------------
// Decryption.

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
/// Callers hold a `Token` (AVX2 support).
#[target_feature(enable = "avx2")]
pub(crate) fn decrypt<P: ParameterSet>(e: &mut [u8], sk: &[u8], c0: &[u8]) -> u8 {
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
        *x = ld8(ch);
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
    // SAFETY: this function runs only on AVX2 CPUs (reached through the
    // AVX2 token), which is all `bm_avx2` requires.
    unsafe { bm_avx2::<P>(&mut loc, &sv[..2 * t]) };

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
        cnt = _mm256_add_epi64(cnt, popcount(and(*x, ld8(&keep))));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf::Vec64;
    use pqforge_core::testing::TestRng;
    use std::vec::Vec;

    /// Registers to portable vectors (vector `4r + j` = lane j of r).
    fn to_vec64<const M: usize>(d: &[V<M>]) -> Vec<Vec64> {
        let mut out = Vec::new();
        for r in d {
            // SAFETY: test-only; AVX2 was detected by the caller.
            let l: Vec<[u64; 4]> = r.iter().map(|x| unsafe { lanes(*x) }).collect();
            for j in 0..4 {
                let mut v = [0u64; gf::MAX_M];
                for b in 0..M {
                    v[b] = l[b][j];
                }
                out.push(v);
            }
        }
        out
    }

    #[target_feature(enable = "avx2")]
    fn from_vec64<const M: usize>(w: &[Vec64], d: &mut [V<M>]) {
        for (r, x) in d.iter_mut().enumerate() {
            for b in 0..M {
                x[b] = _mm256_setr_epi64x(
                    w[4 * r][b] as i64,
                    w[4 * r + 1][b] as i64,
                    w[4 * r + 2][b] as i64,
                    w[4 * r + 3][b] as i64,
                );
            }
        }
    }

    fn check<const M: usize, const W1: usize, const W2: usize>(rng: &mut TestRng, t: usize) {
        let nr = 1 << (M - 8);
        let nv = 4 * nr;
        let mut f: Vec<u16> = (0..=t)
            .map(|_| (rng.next_u64() as u16) & ((1 << M) - 1))
            .collect();
        f[t] = 1;
        let mut want = [[0u64; gf::MAX_M]; crate::fft::NV];
        crate::fft::eval_all(M, &f, &mut want);
        // SAFETY: AVX2 was detected.
        let mut d = [[unsafe { zero() }; M]; NR_MAX];
        // SAFETY: AVX2 was detected.
        unsafe { fft_eval::<M, W1>(&mut d[..nr], &f) };
        let gotv = to_vec64(&d[..nr]);
        for v in 0..nv {
            if gotv[v] != want[v] {
                std::eprintln!("v={v} got={:x?} want={:x?}", &gotv[v][..2], &want[v][..2]);
            }
        }
        assert!(gotv == want[..nv], "eval M={M} t={t}");

        let mut w = [[0u64; gf::MAX_M]; crate::fft::NV];
        for v in &mut w[..nv] {
            for p in &mut v[..M] {
                *p = rng.next_u64();
            }
        }
        // SAFETY: AVX2 was detected.
        unsafe { from_vec64::<M>(&w[..nv], &mut d[..nr]) };
        let mut want = [0u16; 256];
        crate::fft::syndrome_all(M, &mut w, &mut want[..1 << (M - 5)]);
        // SAFETY: AVX2 was detected.
        let p = unsafe { fft_tr::<M, W1, W2>(&mut d[..nr]) };
        let mut pw = [[0u64; W2]; M];
        for (a, b) in pw.iter_mut().zip(&p) {
            a.copy_from_slice(&b[..W2]);
        }
        let mut got = [0u16; 256];
        radix::from_planes::<M, W2>(&pw, &mut got[..1 << (M - 5)]);
        assert!(got == want, "tr M={M}");
        let mut got2 = [0u16; 256];
        // SAFETY: AVX2 was detected.
        unsafe { from_planes::<M, W2>(&p, &mut got2[..1 << (M - 5)]) };
        assert!(got2 == want, "from_planes M={M}");
        // SAFETY: AVX2 was detected.
        let q2 = unsafe { to_planes::<M, W1>(&f[..f.len().min(64 * W1)]) };
        let q1 = radix::to_planes::<M, W1>(&f[..f.len().min(64 * W1)]);
        for (a, b) in q1.iter().zip(&q2) {
            assert!(
                a[..] == b[..W1] && b[W1..].iter().all(|&x| x == 0),
                "to_planes M={M}"
            );
        }

        // Benes.
        let cb: Vec<u8> = (0..(2 * M - 1) << (M - 4))
            .map(|_| rng.next_u64() as u8)
            .collect();
        let bits: Vec<u64> = (0..nv).map(|_| rng.next_u64()).collect();
        for inv in [false, true] {
            let mut want = bits.clone();
            if inv {
                crate::benes::apply_bits_inv(&mut want, &cb, M);
            } else {
                crate::benes::apply_bits(&mut want, &cb, M);
            }
            // SAFETY: AVX2 was detected.
            let mut regs = [unsafe { zero() }; NR_MAX];
            let mut got = std::vec![0u64; nv];
            // SAFETY: AVX2 was detected.
            unsafe {
                for (r, x) in regs[..nr].iter_mut().enumerate() {
                    *x = ld(&bits[4 * r..]);
                }
                if inv {
                    benes::<true>(&mut regs[..nr], &cb, M);
                } else {
                    benes::<false>(&mut regs[..nr], &cb, M);
                }
                for (r, x) in regs[..nr].iter().enumerate() {
                    got[4 * r..4 * r + 4].copy_from_slice(&lanes(*x));
                }
            }
            assert!(got == want, "benes M={M} inv={inv}");
        }
    }

    #[test]
    fn avx2_pieces_match_portable() {
        if !pqforge_core::cpu::avx2() {
            return;
        }
        let mut rng = TestRng::new(0x0123_4567_89AB_CDEF);
        for _ in 0..3 {
            check::<13, 2, 4>(&mut rng, 96);
            check::<12, 1, 2>(&mut rng, 64);
            check::<13, 2, 4>(&mut rng, 119);
            check::<13, 2, 4>(&mut rng, 128);
        }
    }
}
