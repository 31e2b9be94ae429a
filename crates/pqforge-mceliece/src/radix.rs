//! The coefficient side of the additive FFT, bitsliced over the
//! coefficient index: the radix conversions (the repeated Taylor
//! expansions at `x^2 + x` with their scalings) and their transposes.
//!
//! A polynomial of up to `64 W` coefficients is `[[u64; W]; M]`: plane `b`
//! holds bit `b` of every coefficient, coefficient `i` in bit `i % 64` of
//! word `i / 64`. The `fft` module's recursion splits each polynomial into
//! even and odd parts (`h0`, `h1`) after every Taylor expansion. Here the
//! parts are never moved: at depth `l` the polynomials are the classes of
//! the index modulo `2^l` (sub-index `i >> l`), so one depth is a few
//! shift-and-mask steps on whole planes and one lane-wise product by the
//! powers of the scaling factor, for all polynomials of that depth at once.
//! After `lf` depths the low `lf` index bits select the polynomial: the
//! FFT's vector `v` finds its parts at index `bitrev_lf(v)` (and
//! `2^lf + bitrev_lf(v)` for the linear term).
//!
//! Generic over `W` so that the same code runs on 64-bit words (portable)
//! and vectorizes when inlined into the AVX2 decryption.

use crate::fft_consts::consts;
use crate::gf;

/// `PAT[k][r]`: bits `j` of a word with `(j >> k) % 4 == r`.
const PAT: [[u64; 4]; 6] = {
    let mut p = [[0u64; 4]; 6];
    let mut k = 0;
    while k < 6 {
        let mut j = 0;
        while j < 64 {
            p[k][(j >> k) % 4] |= 1u64 << j;
            j += 1;
        }
        k += 1;
    }
    p
};

/// Mask of the index positions `p` (word `w`) in quarter `q` of their
/// block of `4 sh` positions, `sh = 2^k`: `(p >> k) % 4 == q`.
#[inline(always)]
fn quarter(k: usize, q: usize, w: usize) -> u64 {
    if k >= 6 {
        if ((w << 6) >> k) % 4 == q {
            u64::MAX
        } else {
            0
        }
    } else {
        let o = ((w << 6) >> k) % 4;
        PAT[k][(q + 4 - o) % 4]
    }
}

/// `x >> 2^k` over the whole `64 W`-bit plane (towards index 0).
#[inline(always)]
fn shr<const W: usize>(x: &[u64; W], k: usize) -> [u64; W] {
    let mut out = [0u64; W];
    if k >= 6 {
        let d = 1 << (k - 6);
        if d < W {
            out[..W - d].copy_from_slice(&x[d..]);
        }
    } else {
        for w in 0..W {
            out[w] = x[w] >> (1 << k);
            if w + 1 < W {
                out[w] |= x[w + 1] << (64 - (1 << k));
            }
        }
    }
    out
}

/// `x << 2^k` over the whole plane (away from index 0).
#[inline(always)]
fn shl<const W: usize>(x: &[u64; W], k: usize) -> [u64; W] {
    let mut out = [0u64; W];
    if k >= 6 {
        let d = 1 << (k - 6);
        if d < W {
            out[d..].copy_from_slice(&x[..W - d]);
        }
    } else {
        for w in 0..W {
            out[w] = x[w] << (1 << k);
            if w > 0 {
                out[w] |= x[w - 1] >> (64 - (1 << k));
            }
        }
    }
    out
}

/// One Taylor step on every plane: with `sh = 2^k`, moves the quarter
/// `q` of each `4 sh` block by `sh` (down, or up for the transpose) and
/// adds it: `x ^= shr(x & quarter)` / `x ^= shl(x & quarter)`.
#[inline(always)]
fn step<const M: usize, const W: usize>(p: &mut [[u64; W]; M], k: usize, q: usize, up: bool) {
    let mut mask = [0u64; W];
    for (w, m) in mask.iter_mut().enumerate() {
        *m = quarter(k, q, w);
    }
    for x in p.iter_mut() {
        let mut t = [0u64; W];
        for w in 0..W {
            t[w] = x[w] & mask[w];
        }
        let t = if up { shl(&t, k) } else { shr(&t, k) };
        for w in 0..W {
            x[w] ^= t[w];
        }
    }
}

/// Plane `K` of the unreduced lane-wise product: the XOR of
/// `a_i b_(K-i)` (`K` a constant, so that the loops unroll).
#[inline(always)]
fn column<const M: usize, const W: usize, const K: usize>(
    a: &[[u64; W]; M],
    b: &[[u64; W]; M],
) -> [u64; W] {
    let lo = (K + 1).saturating_sub(M);
    let hi = if K < M { K } else { M - 1 };
    let mut acc = [0u64; W];
    // An inclusive range here keeps LLVM from unrolling the loop.
    #[allow(clippy::range_plus_one)]
    for i in lo..hi + 1 {
        for w in 0..W {
            acc[w] ^= a[i][w] & b[K - i][w];
        }
    }
    acc
}

/// Lane-wise product of bitsliced vectors (`64 W` lanes).
#[inline(always)]
pub(crate) fn pmul<const M: usize, const W: usize>(
    a: &[[u64; W]; M],
    b: &[[u64; W]; M],
) -> [[u64; W]; M] {
    let mut t = [[0u64; W]; 2 * gf::MAX_M - 1];
    macro_rules! columns {
        ($($k:literal)*) => {$(
            if $k < 2 * M - 1 {
                t[$k] = column::<M, W, $k>(a, b);
            }
        )*};
    }
    columns!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24);
    for i in (M..2 * M - 1).rev() {
        for &e in gf::low_terms(M) {
            for w in 0..W {
                t[i - M + e][w] ^= t[i][w];
            }
        }
    }
    let mut out = [[0u64; W]; M];
    for (o, x) in out.iter_mut().zip(&t) {
        *o = *x;
    }
    out
}

/// The scaling vector of depth `l`, first `W` words.
#[inline(always)]
fn scale<const M: usize, const W: usize>(l: usize) -> [[u64; W]; M] {
    let s = &consts(M).scale[l];
    let mut v = [[0u64; W]; M];
    for (p, q) in v.iter_mut().zip(s) {
        p.copy_from_slice(&q[..W]);
    }
    v
}

/// Radix conversion of the FFT: on return, the constant (and, if
/// `64 W = 2^(m-5)`, the linear) terms of the `2^lf` final polynomials
/// (see the module documentation). `64 W` is the coefficient count,
/// `2^(m-6)` or `2^(m-5)`.
#[inline(always)]
pub(crate) fn radix<const M: usize, const W: usize>(p: &mut [[u64; W]; M]) {
    let lf = M - 6;
    let lc = 6 + W.trailing_zeros() as usize; // log2 of the coefficient count
    for l in 0..lf {
        *p = pmul(p, &scale::<M, W>(l));
        // Taylor expansion of every sub-polynomial (length 2^(lc - l)):
        // blocks of 4K, K = len/4 down to 1 (sub-index units), i.e.
        // shifts of 2^k with k = lc - 2 down to l.
        for k in (l..lc - 1).rev() {
            step(p, k, 3, false);
            step(p, k, 2, false);
        }
    }
}

/// Transpose of [`radix`].
#[inline(always)]
pub(crate) fn radix_tr<const M: usize, const W: usize>(p: &mut [[u64; W]; M]) {
    let lf = M - 6;
    let lc = 6 + W.trailing_zeros() as usize;
    for l in (0..lf).rev() {
        for k in l..lc - 1 {
            step(p, k, 1, true);
            step(p, k, 2, true);
        }
        *p = pmul(p, &scale::<M, W>(l));
    }
}

/// Loads `f` (at most `64 W` coefficients) into planes.
#[inline(always)]
pub(crate) fn to_planes<const M: usize, const W: usize>(f: &[u16]) -> [[u64; W]; M] {
    let mut p = [[0u64; W]; M];
    for (i, &c) in f.iter().enumerate().take(64 * W) {
        for (b, x) in p.iter_mut().enumerate() {
            x[i / 64] |= u64::from((c >> b) & 1) << (i % 64);
        }
    }
    p
}

/// Stores the first `out.len()` coefficients of `p`.
#[inline(always)]
pub(crate) fn from_planes<const M: usize, const W: usize>(p: &[[u64; W]; M], out: &mut [u16]) {
    for (i, o) in out.iter_mut().enumerate().take(64 * W) {
        let mut v = 0u16;
        for (b, x) in p.iter().enumerate() {
            v |= (((x[i / 64] >> (i % 64)) & 1) as u16) << b;
        }
        *o = v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planes version of the scalar `fft` radix conversion: after the
    /// conversion, `fft`'s deinterleaved position `p` holds in-place index
    /// `bitrev_{lf+1}(p)`.
    #[test]
    #[allow(clippy::items_after_statements)]
    fn radix_matches_transpose() {
        let mut rng = pqforge_core::testing::TestRng::new(0x1357_9BDF);
        let mut next = || rng.next_u32();
        // <radix(a), b> == <a, radix_tr(b)> (dot product of coefficient
        // vectors over GF(2^m)).
        fn check<const M: usize, const W: usize>(next: &mut dyn FnMut() -> u32) {
            let n = 64 * W;
            let a: std::vec::Vec<u16> = (0..n).map(|_| (next() as u16) & ((1 << M) - 1)).collect();
            let b: std::vec::Vec<u16> = (0..n).map(|_| (next() as u16) & ((1 << M) - 1)).collect();
            let mut pa = to_planes::<M, W>(&a);
            radix::<M, W>(&mut pa);
            let mut pb = to_planes::<M, W>(&b);
            radix_tr::<M, W>(&mut pb);
            let mut ra = std::vec![0u16; n];
            let mut rb = std::vec![0u16; n];
            from_planes(&pa, &mut ra);
            from_planes(&pb, &mut rb);
            let mut lhs = 0;
            let mut rhs = 0;
            for i in 0..n {
                lhs ^= gf::mul(M, ra[i], b[i]);
                rhs ^= gf::mul(M, a[i], rb[i]);
            }
            assert_eq!(lhs, rhs, "M={M} W={W}");
        }
        for _ in 0..4 {
            check::<12, 1>(&mut next);
            check::<12, 2>(&mut next);
            check::<13, 2>(&mut next);
            check::<13, 4>(&mut next);
        }
    }
}
