//! Additive FFT over GF(2^m) (Gao–Mateer), bitsliced, and its transpose:
//! evaluation of a polynomial at all `2^m` field elements (root finding),
//! and the syndrome `s_j = sum_x w_x x^j` (the transposed map).
//!
//! Points are indexed in bit-reversed order, the order of the support
//! before the Benes network: output vector `v`, lane `l` holds the value
//! at the field element `bitrev_m(64 v + l)` (bit i of the index is the
//! coefficient of z^(m-1-i)).
//!
//! Recursion (all polynomials at one depth share one basis):
//! at depth L the basis is `B_L = (b_0..b_{k-1})`, `k = m - L`, with
//! `B_0 = (z^(m-1), ..., z, 1)`. A polynomial q is evaluated on span(B_L) via
//! `h(x) = q(b_{k-1} x)`, the Taylor expansion `h = h0(x^2+x) + x
//! h1(x^2+x)`, and `h0, h1` on span(B_{L+1}), `B_{L+1,i} = g_i^2 + g_i`
//! with `g_i = b_i / b_{k-1}` (i < k-1): for `a` in span(g), `q(b_{k-1}
//! a) = h0(a^2+a) + a h1(a^2+a)` and `q(b_{k-1}(a+1)) = that + h1(a^2+a)`.
//! The splitting stops at depth `m - 6`, where every polynomial is linear
//! (inputs have at most `2^(m-5)` coefficients) and span(B) has 64
//! points: one bitsliced vector each.
//!
//! Everything is public control flow on secret data: no branch or index
//! depends on coefficients or values.

use crate::gf::{self, MAX_M, Vec64};

/// Vectors of 64 points covering GF(2^13).
pub(crate) const NV: usize = (1 << MAX_M) / 64;
/// Maximum coefficient count, `2^(m-5)`.
pub(crate) const MAXC: usize = 1 << (MAX_M - 5);

/// Lanes whose index has bit i set.
const LANE: [u64; 6] = [
    0xAAAA_AAAA_AAAA_AAAA,
    0xCCCC_CCCC_CCCC_CCCC,
    0xF0F0_F0F0_F0F0_F0F0,
    0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000,
    0xFFFF_FFFF_0000_0000,
];

/// The bases B_0 .. B_{m-6} (row L: `m - L` elements); public constants.
fn bases(m: usize) -> [[u16; MAX_M]; MAX_M - 5] {
    let mut b = [[0u16; MAX_M]; MAX_M - 5];
    for (i, x) in b[0][..m].iter_mut().enumerate() {
        *x = 1 << (m - 1 - i);
    }
    for l in 0..m - 6 {
        let k = m - l;
        let inv = gf::inv(m, b[l][k - 1]);
        for i in 0..k - 1 {
            let g = gf::mul(m, b[l][i], inv);
            b[l + 1][i] = gf::sq(m, g) ^ g;
        }
    }
    b
}

/// `g_i = b_i / b_{k-1}` for the basis of depth `l` (i < k - 1).
fn gammas(m: usize, bs: &[[u16; MAX_M]; MAX_M - 5], l: usize) -> [u16; MAX_M] {
    let k = m - l;
    let inv = gf::inv(m, bs[l][k - 1]);
    let mut g = [0u16; MAX_M];
    for (x, &b) in g[..k - 1].iter_mut().zip(&bs[l][..k - 1]) {
        *x = gf::mul(m, b, inv);
    }
    g
}

/// The 64 points `sum_{i<6} bit_i(lane) v_i`, bitsliced.
fn lane_span(m: usize, v: &[u16]) -> Vec64 {
    let mut out = [0u64; MAX_M];
    for (b, p) in out[..m].iter_mut().enumerate() {
        for (i, &x) in v[..6].iter().enumerate() {
            *p ^= LANE[i] & u64::from((x >> b) & 1).wrapping_neg();
        }
    }
    out
}

/// `sum_{i>=6} bit_{i-6}(q) g_i` (public: q is a position).
fn high_span(g: &[u16], q: usize) -> u16 {
    let mut s = 0u16;
    for (i, &x) in g.iter().enumerate().skip(6) {
        s ^= x & (((q >> (i - 6)) & 1) as u16).wrapping_neg();
    }
    s
}

/// Taylor expansion at `x^2 + x` in place (length a power of two): entry
/// j becomes the coefficient of `x^(j mod 2) (x^2+x)^(j div 2)`.
fn taylor(f: &mut [u16]) {
    let len = f.len();
    if len <= 2 {
        return;
    }
    let k = len / 4;
    // x^i = x^(i-2k) (x^2+x)^k + x^(i-k), from the top down.
    for i in (2 * k..4 * k).rev() {
        f[i - k] ^= f[i];
    }
    let (lo, hi) = f.split_at_mut(2 * k);
    taylor(lo);
    taylor(hi);
}

/// Transpose of [`taylor`].
fn taylor_t(f: &mut [u16]) {
    let len = f.len();
    if len <= 2 {
        return;
    }
    let k = len / 4;
    let (lo, hi) = f.split_at_mut(2 * k);
    taylor_t(lo);
    taylor_t(hi);
    for i in 2 * k..4 * k {
        f[i] ^= f[i - k];
    }
}

/// Even entries, then odd entries.
fn deinterleave(f: &mut [u16]) {
    let mut t = [0u16; MAXC];
    let h = f.len() / 2;
    for i in 0..h {
        t[i] = f[2 * i];
        t[h + i] = f[2 * i + 1];
    }
    f.copy_from_slice(&t[..f.len()]);
    zeroize::Zeroize::zeroize(&mut t);
}

/// Inverse of [`deinterleave`].
fn interleave(f: &mut [u16]) {
    let mut t = [0u16; MAXC];
    let h = f.len() / 2;
    for i in 0..h {
        t[2 * i] = f[i];
        t[2 * i + 1] = f[h + i];
    }
    f.copy_from_slice(&t[..f.len()]);
    zeroize::Zeroize::zeroize(&mut t);
}

/// `f[j] *= pw[j]` (the powers of the level's scaling factor).
#[inline(always)]
fn scale(m: usize, f: &mut [u16], pw: &[u16]) {
    for (x, &p) in f.iter_mut().zip(pw) {
        *x = gf::mul(m, *x, p);
    }
}

/// `pw[j] = s^j` (public constants).
fn powers(m: usize, s: u16, pw: &mut [u16]) {
    let mut p = 1u16;
    for x in pw {
        *x = p;
        p = gf::mul(m, p, s);
    }
}

fn xor_into(a: &mut Vec64, b: &Vec64) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

fn parity_elem(m: usize, v: &Vec64) -> u16 {
    let mut x = 0u16;
    for (b, p) in v[..m].iter().enumerate() {
        x |= ((p.count_ones() & 1) as u16) << b;
    }
    x
}

/// Evaluates `f` (at most `2^(m-5)` coefficients, low first) at every
/// field element: `out[v]` lane `l` = f(bitrev(64 v + l)). Uses
/// `out[..2^(m-6)]`.
pub(crate) fn eval_all(m: usize, f: &[u16], out: &mut [Vec64]) {
    // A constant m unrolls the bitsliced arithmetic.
    if m == 12 {
        eval_impl::<12>(f, out);
    } else {
        eval_impl::<13>(f, out);
    }
}

fn eval_impl<const M: usize>(f: &[u16], out: &mut [Vec64]) {
    let m = M;
    let nc = 1usize << (m - 5);
    let lf = m - 6;
    let bs = bases(m);
    let mut c = [0u16; MAXC];
    c[..f.len()].copy_from_slice(f);
    for l in 0..lf {
        let len = nc >> l;
        let mut pw = [0u16; MAXC];
        powers(m, bs[l][m - l - 1], &mut pw[..len]);
        for q in c[..nc].chunks_exact_mut(len) {
            scale(m, q, &pw);
            taylor(q);
            deinterleave(q);
        }
    }
    let pv = lane_span(m, &bs[lf][..6]);
    for (o, h) in out[..1 << lf].iter_mut().zip(c.chunks_exact(2)) {
        let mut v = gf::vmul(m, &pv, &gf::broadcast(m, h[1]));
        xor_into(&mut v, &gf::broadcast(m, h[0]));
        *o = v;
    }
    for l in (0..lf).rev() {
        let k = m - l;
        let half = 1usize << (k - 7);
        let g = gammas(m, &bs, l);
        let a0 = lane_span(m, &g[..6]);
        for blk in out[..1 << lf].chunks_exact_mut(2 * half) {
            let (lo, hi) = blk.split_at_mut(half);
            for (q, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                let mut a = a0;
                xor_into(&mut a, &gf::broadcast(m, high_span(&g[..k - 1], q)));
                xor_into(x, &gf::vmul(m, &a, y));
                xor_into(y, x);
            }
        }
    }
    zeroize::Zeroize::zeroize(&mut c);
}

/// Transpose of [`eval_all`]: `out[j] = sum_x w_x x^j` for `j < 2^(m-5)`,
/// where `w[v]` lane `l` is `w_x` for `x = bitrev(64 v + l)`. Destroys `w`.
pub(crate) fn syndrome_all(m: usize, w: &mut [Vec64], out: &mut [u16]) {
    if m == 12 {
        syndrome_impl::<12>(w, out);
    } else {
        syndrome_impl::<13>(w, out);
    }
}

fn syndrome_impl<const M: usize>(w: &mut [Vec64], out: &mut [u16]) {
    let m = M;
    let nc = 1usize << (m - 5);
    let lf = m - 6;
    let bs = bases(m);
    for l in 0..lf {
        let k = m - l;
        let half = 1usize << (k - 7);
        let g = gammas(m, &bs, l);
        let a0 = lane_span(m, &g[..6]);
        for blk in w[..1 << lf].chunks_exact_mut(2 * half) {
            let (lo, hi) = blk.split_at_mut(half);
            for (q, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                let mut a = a0;
                xor_into(&mut a, &gf::broadcast(m, high_span(&g[..k - 1], q)));
                xor_into(x, y);
                xor_into(y, &gf::vmul(m, &a, x));
            }
        }
    }
    let pv = lane_span(m, &bs[lf][..6]);
    let mut c = [0u16; MAXC];
    for (v, h) in w[..1 << lf].iter().zip(c.chunks_exact_mut(2)) {
        h[0] = parity_elem(m, v);
        h[1] = parity_elem(m, &gf::vmul(m, &pv, v));
    }
    for l in (0..lf).rev() {
        let len = nc >> l;
        let mut pw = [0u16; MAXC];
        powers(m, bs[l][m - l - 1], &mut pw[..len]);
        for q in c[..nc].chunks_exact_mut(len) {
            interleave(q);
            taylor_t(q);
            scale(m, q, &pw);
        }
    }
    let n = out.len().min(nc);
    out[..n].copy_from_slice(&c[..n]);
    zeroize::Zeroize::zeroize(&mut c);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn horner(m: usize, f: &[u16], x: u16) -> u16 {
        let mut r = 0u16;
        for &c in f.iter().rev() {
            r = gf::mul(m, r, x) ^ c;
        }
        r
    }

    #[test]
    fn fft_matches_horner_and_transpose() {
        let mut s = 0x2545_F491u32;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            s
        };
        for m in [12usize, 13] {
            let nc = 1 << (m - 5);
            let f: std::vec::Vec<u16> = (0..nc).map(|_| (next() as u16) & ((1 << m) - 1)).collect();
            let mut out = [[0u64; MAX_M]; NV];
            eval_all(m, &f, &mut out);
            for x in (0..1usize << m).step_by(37) {
                let got = (0..m).fold(0u16, |a, b| {
                    a | ((((out[x / 64][b] >> (x % 64)) & 1) as u16) << b)
                });
                assert_eq!(got, horner(m, &f, gf::bitrev(m, x as u16)), "m={m} x={x}");
            }
            // Transpose: <E f, w> = <f, E^T w> for random w.
            let mut w = [[0u64; MAX_M]; NV];
            for v in &mut w[..1 << (m - 6)] {
                for p in &mut v[..m] {
                    *p = u64::from(next()) | (u64::from(next()) << 32);
                }
            }
            let mut lhs = 0u16;
            for x in 0..1usize << m {
                let wx = (0..m).fold(0u16, |a, b| {
                    a | ((((w[x / 64][b] >> (x % 64)) & 1) as u16) << b)
                });
                lhs ^= gf::mul(m, wx, horner(m, &f, gf::bitrev(m, x as u16)));
            }
            let mut st = [0u16; MAXC];
            syndrome_all(m, &mut w, &mut st[..nc]);
            let mut rhs = 0u16;
            for j in 0..nc {
                rhs ^= gf::mul(m, f[j], st[j]);
            }
            assert_eq!(lhs, rhs, "m={m}");
        }
    }
}
