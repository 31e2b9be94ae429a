//! GF(2^m) on AVX2, bitsliced: 256 field elements per vector of m
//! registers (plane `b` = bit `b`), for the decryption (products by one
//! level of Karatsuba, squarings, the inverse), and the products of
//! many 64-element blocks of the key generation ([`vmul_planes`]).
//!
//! Cost: the FFT butterflies' products dominate decryption (about 580
//! per decryption for m = 13). One level of Karatsuba (three half-size
//! product scans instead of one full one) costs 279 lane-wise operations
//! instead of 313 for m = 13; the half sum of a twiddle row is computed
//! once per row ([`halves`]), not once per product, and callers pass the
//! scratch planes in (a product that is not inlined writes them to
//! memory, and zeroing them per call cost a memset each time). Keeping
//! the whole product in registers (a macro-inlined multiply in
//! non-inlined butterflies) and reducing inside the product were both
//! tried and measured slower: more spills, lower IPC.

use core::arch::x86_64::{
    __m256i, _mm256_and_si256, _mm256_loadu_si256, _mm256_setzero_si256, _mm256_storeu_si256,
    _mm256_xor_si256,
};

use super::simd::{and, ld_words, wipe256, xor, zero};
use crate::gf;

/// 256 field elements, bitsliced (plane `b` = bit `b`).
pub(super) type V<const M: usize> = [__m256i; M];

/// The planes of an unreduced product.
pub(super) type Acc = [__m256i; 2 * gf::MAX_M - 1];

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
pub(super) fn low<const M: usize>(t: &Acc, j: usize) -> __m256i {
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
pub(super) fn halves<const M: usize>(b: &[__m256i]) -> [__m256i; 7] {
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
pub(super) fn prod_h<const M: usize>(t: &mut Acc, a: &[__m256i], b: &[__m256i], sb: &[__m256i]) {
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
pub(super) fn prod<const M: usize>(t: &mut Acc, a: &[__m256i], b: &[__m256i]) {
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
pub(super) fn mul_to<const M: usize>(d: &mut [__m256i], a: &[__m256i], b: &[__m256i], t: &mut Acc) {
    prod::<M>(t, a, b);
    for (j, x) in d[..M].iter_mut().enumerate() {
        *x = low::<M>(t, j);
    }
}

/// `d = d^(2^k)`.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn sqn<const M: usize>(d: &mut [__m256i], k: usize) {
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
pub(super) fn mul_in<const M: usize>(d: &mut [__m256i], b: &[__m256i]) {
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
pub(super) fn vinv<const M: usize>(a: &V<M>) -> V<M> {
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

/// Planes of four words to registers.
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn planes_in<const M: usize>(p: &[[u64; 4]]) -> V<M> {
    let mut v = [zero(); M];
    for (x, w) in v.iter_mut().zip(&p[..M]) {
        *x = ld_words(w);
    }
    v
}

/// [`crate::backend::Backend::vmul_planes`] for `m = M`: four blocks per register
/// (schoolbook bitsliced product, then the field reduction).
#[inline]
#[target_feature(enable = "avx2")]
pub(super) fn vmul_planes<const M: usize>(v: &mut [u64], l: &[u64], stride: usize, n: usize) {
    let ld4 = |s: &[u64], o: usize| {
        let s = &s[o..o + 4];
        // SAFETY: `s` has four words; unaligned load.
        unsafe { _mm256_loadu_si256(s.as_ptr().cast()) }
    };
    let mut q = 0;
    let mut a = [_mm256_setzero_si256(); M];
    let mut b = [_mm256_setzero_si256(); M];
    let mut t = [_mm256_setzero_si256(); 25];
    while q < n {
        for k in 0..M {
            a[k] = ld4(v, k * stride + q);
            b[k] = ld4(l, k * stride + q);
        }
        t = [_mm256_setzero_si256(); 25];
        for i in 0..M {
            for j in 0..M {
                t[i + j] = _mm256_xor_si256(t[i + j], _mm256_and_si256(a[i], b[j]));
            }
        }
        for i in (M..2 * M - 1).rev() {
            for &e in crate::gf::low_terms(M) {
                t[i - M + e] = _mm256_xor_si256(t[i - M + e], t[i]);
            }
        }
        for (k, x) in t[..M].iter().enumerate() {
            let d = &mut v[k * stride + q..k * stride + q + 4];
            // SAFETY: `d` has four words; unaligned store.
            unsafe { _mm256_storeu_si256(d.as_mut_ptr().cast(), *x) };
        }
        q += 4;
    }
    // The spilled products hold powers of the secret support.
    wipe256(&mut a);
    wipe256(&mut b);
    wipe256(&mut t);
}

#[cfg(test)]
mod tests {
    use super::vmul_planes;
    use crate::backend::{Backend, Portable};
    use pqforge_core::cpu::Avx2;

    /// Bitsliced products of column blocks, m = 12 and 13, block counts
    /// not multiples of 4.
    #[test]
    fn vmul_planes_matches_portable() {
        if Avx2::detect().is_none() {
            return;
        }
        let mut rng = pqforge_core::testing::TestRng::new(0x5EED);
        let mut next = || rng.next_u64();
        for m in [12usize, 13] {
            for n in [1usize, 3, 4, 27, 77] {
                let stride = n.next_multiple_of(4);
                let l: std::vec::Vec<u64> = (0..m * stride).map(|_| next()).collect();
                let v0: std::vec::Vec<u64> = (0..m * stride).map(|_| next()).collect();
                let mut p = v0.clone();
                let mut a = v0.clone();
                Portable::vmul_planes(m, &mut p, &l, stride, n);
                // SAFETY: AVX2 support was checked.
                unsafe {
                    if m == 12 {
                        vmul_planes::<12>(&mut a, &l, stride, n);
                    } else {
                        vmul_planes::<13>(&mut a, &l, stride, n);
                    }
                }
                for b in 0..m {
                    let r = b * stride..b * stride + n;
                    assert_eq!(p[r.clone()], a[r], "vmul_planes m {m} n {n}");
                }
            }
        }
    }
}
