//! Additive FFT over GF(2^m) (Gao–Mateer), bitsliced, and its transpose:
//! evaluation of a polynomial at all `2^m` field elements (root finding),
//! and the syndrome `s_j = sum_x w_x x^j` (the transposed map). This is
//! the portable version; `backend::avx2::fft` runs the same algorithm on
//! 256 points per register.
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
//! The splitting stops at depth `lf = m - 6`, where span(B) has 64
//! points: one bitsliced vector each.
//!
//! The splitting of the coefficients (the radix conversion) runs
//! bitsliced over the coefficient index (`radix`); the constants (bases,
//! twiddles, scalings) are compile-time tables (`fft_consts`).
//!
//! * Evaluation takes a monic polynomial of degree `t <= 2^(m-6)` (the
//!   Goppa polynomial and the error locator): its low `2^(m-6)`
//!   coefficients split into constants (one per vector), and a leading
//!   `x^(2^(m-6))` is added at the end, evaluated directly.
//! * The transposed map returns `2^(m-5)` sums: its bottom polynomials
//!   are linear.
//!
//! Everything is public control flow on secret data: no branch or index
//! depends on coefficients or values.

use crate::backend::parity64;
use crate::fft_consts::{FftConsts, consts};
use crate::gf::{self, MAX_M, Vec64};
use crate::radix;

/// Vectors of 64 points covering GF(2^13).
pub(crate) const NV: usize = (1 << MAX_M) / 64;
/// Maximum coefficient count of the transposed map, `2^(m-5)`.
pub(crate) const MAXC: usize = 1 << (MAX_M - 5);

/// `bitrev_k(x)`.
#[inline(always)]
fn bitrev(k: usize, x: usize) -> usize {
    x.reverse_bits() >> (usize::BITS as usize - k)
}

/// The twiddle of depth `l` at position `q` (see `fft_consts`).
#[inline(always)]
fn twiddle(c: &FftConsts, m: usize, l: usize, q: usize) -> Vec64 {
    let base = c.tw_off[l] + (q / 4) * m * 4 + q % 4;
    let mut v = [0u64; MAX_M];
    for (b, x) in v[..m].iter_mut().enumerate() {
        *x = c.tw.0[base + 4 * b];
    }
    v
}

fn xor_into(a: &mut Vec64, b: &Vec64) {
    for (x, y) in a.iter_mut().zip(b) {
        *x ^= y;
    }
}

/// Evaluates the monic `f` (degree `t = f.len() - 1 <= 2^(m-6)`, so
/// `f[t] = 1`) at every field element: `out[v]` lane `l` =
/// f(bitrev(64 v + l)). Uses `out[..2^(m-6)]`.
pub(crate) fn eval_all(m: usize, f: &[u16], out: &mut [Vec64]) {
    // A constant m unrolls the bitsliced arithmetic.
    if m == 12 {
        eval_impl::<12, 1>(f, out);
    } else {
        eval_impl::<13, 2>(f, out);
    }
}

fn eval_impl<const M: usize, const W: usize>(f: &[u16], out: &mut [Vec64]) {
    let lf = M - 6;
    let nv = 1usize << lf;
    let c = consts(M);
    let t = f.len() - 1;
    let mut p = radix::to_planes::<M, W>(&f[..f.len().min(64 * W)]);
    radix::radix::<M, W>(&mut p);
    // Bottom: vector v is the constant at index bitrev_lf(v).
    for (v, o) in out[..nv].iter_mut().enumerate() {
        let idx = bitrev(lf, v);
        for (x, pb) in o.iter_mut().zip(&p) {
            *x = ((pb[idx / 64] >> (idx % 64)) & 1).wrapping_neg();
        }
    }
    zeroize::Zeroize::zeroize(p.as_flattened_mut());
    for l in (0..lf).rev() {
        let half = 1usize << (lf - 1 - l);
        for blk in out[..nv].chunks_exact_mut(2 * half) {
            let (lo, hi) = blk.split_at_mut(half);
            for (q, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                xor_into(x, &gf::vmul(M, &twiddle(c, M, l, q), y));
                xor_into(y, x);
            }
        }
    }
    // The leading term x^(2^lf) (when t = 2^lf), evaluated directly: the
    // Frobenius map is linear in the point.
    if t == nv {
        for (v, o) in out[..nv].iter_mut().enumerate() {
            for (b, x) in o[..M].iter_mut().enumerate() {
                *x ^= c.xt_lane[b] ^ u64::from((c.xt_high[v] >> b) & 1).wrapping_neg();
            }
        }
    }
}

/// Transpose of the evaluation (with linear bottom polynomials):
/// `out[j] = sum_x w_x x^j` for `j < out.len() <= 2^(m-5)`, where `w[v]`
/// lane `l` is `w_x` for `x = bitrev(64 v + l)`. Destroys `w`.
pub(crate) fn syndrome_all(m: usize, w: &mut [Vec64], out: &mut [u16]) {
    if m == 12 {
        syndrome_impl::<12, 2>(w, out);
    } else {
        syndrome_impl::<13, 4>(w, out);
    }
}

fn syndrome_impl<const M: usize, const W2: usize>(w: &mut [Vec64], out: &mut [u16]) {
    let lf = M - 6;
    let nv = 1usize << lf;
    let c = consts(M);
    for l in 0..lf {
        let half = 1usize << (lf - 1 - l);
        for blk in w[..nv].chunks_exact_mut(2 * half) {
            let (lo, hi) = blk.split_at_mut(half);
            for (q, (x, y)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
                xor_into(x, y);
                xor_into(y, &gf::vmul(M, &twiddle(c, M, l, q), x));
            }
        }
    }
    // Bottom: h0 = sum of the lanes -> index bitrev_lf(v); h1 = sum of
    // span_l w_l -> index 2^lf + bitrev_lf(v).
    let mut p = [[0u64; W2]; M];
    for (v, x) in w[..nv].iter().enumerate() {
        let i0 = bitrev(lf, v);
        let i1 = nv + i0;
        let y = gf::vmul(M, &c.bottom_span, x);
        for (b, pb) in p.iter_mut().enumerate() {
            pb[i0 / 64] |= parity64(x[b]) << (i0 % 64);
            pb[i1 / 64] |= parity64(y[b]) << (i1 % 64);
        }
    }
    radix::radix_tr::<M, W2>(&mut p);
    radix::from_planes::<M, W2>(&p, out);
    zeroize::Zeroize::zeroize(p.as_flattened_mut());
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
        let mut rng = pqforge_core::testing::TestRng::new(0x2545_F491);
        let mut next = || rng.next_u32();
        // Under Miri one set (the transpose check evaluates f at all 2^m points).
        let sets: &[(usize, usize)] = if cfg!(miri) {
            &[(12, 40)]
        } else {
            &[(12, 64), (12, 40), (13, 96), (13, 119), (13, 128)]
        };
        for &(m, t) in sets {
            let nc = 1 << (m - 5);
            let mut f: std::vec::Vec<u16> =
                (0..=t).map(|_| (next() as u16) & ((1 << m) - 1)).collect();
            f[t] = 1;
            let mut out = [[0u64; MAX_M]; NV];
            eval_all(m, &f, &mut out);
            for x in (0..1usize << m).step_by(37) {
                let got = (0..m).fold(0u16, |a, b| {
                    a | ((((out[x / 64][b] >> (x % 64)) & 1) as u16) << b)
                });
                assert_eq!(got, horner(m, &f, gf::bitrev(m, x as u16)), "m={m} x={x}");
            }
            // Transpose: sum_x w_x f(x) = <f, E^T w> for random w.
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
            for j in 0..=t {
                rhs ^= gf::mul(m, f[j], st[j]);
            }
            assert_eq!(lhs, rhs, "m={m}");
        }
    }
}
