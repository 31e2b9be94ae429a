//! Berlekamp–Massey over GF(2^m), constant time: the error locator of a
//! syndrome of length 2t (decapsulation step of the round-4
//! specification, §2.4).

use crate::ParameterSet;
use crate::gf::{self, MAX_M};

const MAX_T: usize = 128;

/// Words per plane of a bitsliced polynomial (coefficient i in lane i;
/// at least t + 1 lanes).
const BW: usize = (MAX_T + 1).div_ceil(64);

/// A polynomial of degree at most t, bitsliced over its coefficients.
type Bpoly = [[u64; BW]; MAX_M];

/// Lane-wise product of two bitsliced polynomials (first `nw` words).
#[inline(always)]
fn bp_mul(m: usize, a: &Bpoly, b: &Bpoly, nw: usize) -> Bpoly {
    let mut t = [[0u64; BW]; 2 * MAX_M - 1];
    for i in 0..m {
        for j in 0..m {
            for w in 0..nw {
                t[i + j][w] ^= a[i][w] & b[j][w];
            }
        }
    }
    for i in (m..2 * m - 1).rev() {
        for &e in gf::low_terms(m) {
            for w in 0..nw {
                t[i - m + e][w] ^= t[i][w];
            }
        }
    }
    let mut out = [[0u64; BW]; MAX_M];
    out[..m].copy_from_slice(&t[..m]);
    out
}

/// Every lane equal to `c`.
#[inline(always)]
fn bp_broadcast(m: usize, c: u16) -> Bpoly {
    let mut v = [[0u64; BW]; MAX_M];
    for (b, p) in v[..m].iter_mut().enumerate() {
        *p = [u64::from((c >> b) & 1).wrapping_neg(); BW];
    }
    v
}

/// Moves every lane up by one (lane 0 becomes 0).
#[inline(always)]
fn bp_shift(m: usize, a: &mut Bpoly, nw: usize) {
    for p in &mut a[..m] {
        for w in (1..nw).rev() {
            p[w] = (p[w] << 1) | (p[w - 1] >> 63);
        }
        p[0] <<= 1;
    }
}

/// Berlekamp–Massey, constant time (reference structure), with the
/// polynomials bitsliced over their coefficients: one lane-wise product
/// per update instead of t + 1 scalar ones. Output: the error locator,
/// reversed (`out[i] = C[t - i]`).
pub(crate) fn bm<P: ParameterSet>(out: &mut [u16], s: &[u16]) {
    let (m, t) = (P::M, P::T);
    let nw = (t + 1).div_ceil(64);
    // Lanes 0..=t.
    let mut keep = [0u64; BW];
    for (w, k) in keep[..nw].iter_mut().enumerate() {
        let valid = (t + 1 - 64 * w).min(64);
        *k = if valid == 64 {
            u64::MAX
        } else {
            (1u64 << valid) - 1
        };
    }
    let mut c = [[0u64; BW]; MAX_M];
    let mut bb = [[0u64; BW]; MAX_M];
    // win lane i = s[nn - i] (0 for i > nn).
    let mut win = [[0u64; BW]; MAX_M];
    let mut b = 1u16;
    let mut l = 0u16;
    c[0][0] = 1; // C = 1
    bb[0][0] = 2; // B = x
    for nn in 0..2 * t {
        bp_shift(m, &mut win, nw);
        for (bit, p) in win[..m].iter_mut().enumerate() {
            p[0] |= u64::from((s[nn] >> bit) & 1);
        }
        let prod = bp_mul(m, &c, &win, nw);
        let mut d = 0u16;
        for (bit, p) in prod[..m].iter().enumerate() {
            let mut x = 0u64;
            for (w, k) in p[..nw].iter().zip(&keep) {
                x ^= w & k;
            }
            d |= ((x.count_ones() & 1) as u16) << bit;
        }
        // CT: masks, no branches.
        let mne = ((u32::from(d).wrapping_sub(1) >> 31) as u16).wrapping_sub(1);
        let mne = core::hint::black_box(mne);
        let mle = (((nn as u32).wrapping_sub(2 * u32::from(l)) >> 31) as u16).wrapping_sub(1) & mne;
        let mle = core::hint::black_box(mle);
        // CT: opaque 64-bit masks (from a known 0/1 value the compiler
        // would rebuild a branch for the selects below).
        let mne64 = core::hint::black_box(u64::from(mne & 1).wrapping_neg());
        let mle64 = core::hint::black_box(u64::from(mle & 1).wrapping_neg());
        let f = gf::mul(m, gf::inv(m, b), d);
        // CT: opaque broadcast, so the all-0 / all-1 planes of f cannot be
        // turned back into branches or conditional moves.
        let fbc = core::hint::black_box(bp_broadcast(m, f));
        let fb = bp_mul(m, &fbc, &bb, nw);
        for bit in 0..m {
            for w in 0..nw {
                let old = c[bit][w];
                c[bit][w] ^= fb[bit][w] & mne64;
                bb[bit][w] = (bb[bit][w] & !mle64) | (old & mle64);
            }
        }
        l = (l & !mle) | ((nn as u16 + 1 - l) & mle);
        b = (b & !mle) | (d & mle);
        bp_shift(m, &mut bb, nw);
        for p in &mut bb[..m] {
            for (w, k) in p[..nw].iter_mut().zip(&keep) {
                *w &= k;
            }
        }
    }
    for (i, o) in out[..=t].iter_mut().enumerate() {
        let lane = t - i;
        let mut x = 0u16;
        for (bit, p) in c[..m].iter().enumerate() {
            x |= (((p[lane / 64] >> (lane % 64)) & 1) as u16) << bit;
        }
        *o = x;
    }
    zeroize::Zeroize::zeroize(c.as_flattened_mut());
    zeroize::Zeroize::zeroize(bb.as_flattened_mut());
    zeroize::Zeroize::zeroize(win.as_flattened_mut());
}
