//! The portable kernels on pairs of 16-bit coefficients packed in 32-bit
//! words, written around the Cortex-M4's DSP instructions (`SMLADX`,
//! `SMUSD`, `SMULBB`, `SMLABB`: assembly in `armv7em.rs` there, the Rust
//! functions below on every other target, so that every host tests the
//! same algorithms against the plain kernels):
//!
//! * [`pairs_leaf`], the Karatsuba leaf of the product: product scanning,
//!   two products per `SMLADX`;
//! * [`rq_recip3_pairs`], `Rq_recip3` with f, g and v, r interleaved (one
//!   word per index), so that each new coefficient of g or r is one
//!   `SMUSD` and a two-instruction Montgomery reduction.
//!
//! Constant time: loop bounds and offsets depend on the lengths only; the
//! data flows through multiplies, logic operations and shifts, all
//! one-cycle instructions on the Cortex-M4 whatever their operands.
#![cfg_attr(
    not(any(
        test,
        all(
            target_arch = "arm",
            target_feature = "dsp",
            target_feature = "mclass",
            target_endian = "little"
        )
    )),
    allow(dead_code)
)]

use pqforge_core::ct::{self, barrier_u32};

use crate::arith::{ModQ, nonzero_mask, swap_mask};
use crate::params::{Buf, ParameterSet};
use crate::poly::{Karatsuba, Montgomery, Multiply, fq_recip, windows};

#[cfg(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
))]
use super::armv7em::{smlabb, smladx, smulbb, smusd};

/// The low half of `w` as `i16`, widened.
#[inline(always)]
fn lo(w: u32) -> i32 {
    i32::from(w as u16 as i16)
}

/// The high half of `w` as `i16`, widened.
#[inline(always)]
fn hi(w: u32) -> i32 {
    i32::from((w >> 16) as u16 as i16)
}

/// `acc + lo(x)·hi(y) + hi(x)·lo(y)` modulo 2^32 (`SMLADX`).
#[cfg(not(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
)))]
#[inline(always)]
fn smladx(acc: u32, x: u32, y: u32) -> u32 {
    acc.wrapping_add((lo(x) * hi(y)).wrapping_add(hi(x) * lo(y)) as u32)
}

/// `lo(x)·lo(y) - hi(x)·hi(y)` modulo 2^32 (`SMUSD`).
#[cfg(not(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
)))]
#[inline(always)]
fn smusd(x: u32, y: u32) -> u32 {
    (lo(x) * lo(y)).wrapping_sub(hi(x) * hi(y)) as u32
}

/// `lo(x)·lo(y)` (`SMULBB`).
#[cfg(not(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
)))]
#[inline(always)]
fn smulbb(x: u32, y: u32) -> u32 {
    (lo(x) * lo(y)) as u32
}

/// `acc + lo(x)·lo(y)` modulo 2^32 (`SMLABB`).
#[cfg(not(all(
    target_arch = "arm",
    target_feature = "dsp",
    target_feature = "mclass",
    target_endian = "little"
)))]
#[inline(always)]
fn smlabb(x: u32, y: u32, acc: u32) -> u32 {
    acc.wrapping_add((lo(x) * lo(y)) as u32)
}

/// The largest leaf: sntrup1277's operands padded to 1280, over 2^3.
const LEAF_MAX: usize = 160;

/// `r[0..2n-1] = a · b` (n even, n ≤ [`LEAF_MAX`]; |a_i| < 2^15, |b_i| ≤ 8,
/// so every sum is exact in 32 bits), by product scanning on packed pairs.
///
/// With A\[k\] = (a\[2k\], a\[2k+1\]), S\[j\] = (b\[2j−1\], b\[2j\]) and
/// W\[j\] = (b\[2j\], b\[2j+1\]) (low half first, zero outside b),
/// `smladx(A[k], S[t−k])` = a\[2k\]·b\[2t−2k\] + a\[2k+1\]·b\[2t−2k−1\],
/// the terms of r\[2t\] from pair k, and `smladx(A[k], W[t−k])` those of
/// r\[2t+1\]. Output pairs t and t + 1 are computed together (four
/// accumulators): each A\[k\] meets S, W at t + 1 − k and t − k, and the
/// words at t − k are those at t + 1 − (k + 1) of the next k, so each step
/// loads three words for eight products. S and W carry a zero word on each
/// side, so that k runs over the union of both outputs' ranges,
/// max(0, t − h) ..= min(h − 1, t + 1) (h = n/2): public bounds. The pairs
/// (S\[j\], W\[j\]) are stored in one array in reverse order, so that
/// the inner loop walks two arrays forward (one counter, `LDRD` loads).
///
/// Out of line: one copy, compiled once with all registers free (inlined
/// into the 27 leaves of three Karatsuba levels, its inner loop came out
/// at 15 to 25 instructions per step depending on the copy).
#[inline(never)]
pub(super) fn pairs_leaf(r: &mut [i32], a: &[i16], b: &[i16]) {
    let n = a.len();
    let h = n / 2;
    assert!(n.is_multiple_of(2) && n <= LEAF_MAX && b.len() == n && r.len() >= 2 * n - 1);
    let pack = |lo: i16, hi: i16| u32::from(lo as u16) | (u32::from(hi as u16) << 16);
    let mut pa = [0u32; LEAF_MAX / 2];
    // q[h + 1 - j] = (S[j], W[j]) for j in -1 ..= h + 1.
    let mut q = [[0u32; 2]; LEAF_MAX / 2 + 3];
    for k in 0..h {
        pa[k] = pack(a[2 * k], a[2 * k + 1]);
        q[h + 1 - k][1] = pack(b[2 * k], b[2 * k + 1]);
    }
    q[h + 1][0] = pack(0, b[0]);
    for j in 1..h {
        q[h + 1 - j][0] = pack(b[2 * j - 1], b[2 * j]);
    }
    q[1][0] = pack(b[n - 1], 0);
    let mut t = 0;
    while t < n {
        let lo = t.saturating_sub(h);
        let hi = (h - 1).min(t + 1);
        // k = lo meets S[t - lo] at m0 and S[t + 1 - lo] at m0 - 1 ≥ 0.
        let m0 = h + 1 + lo - t;
        let len = hi + 1 - lo;
        let (mut e0, mut o0, mut e1, mut o1) = (0u32, 0u32, 0u32, 0u32);
        let [mut s1, mut w1] = q[m0 - 1];
        for (&x, &[s0, w0]) in pa[lo..lo + len].iter().zip(&q[m0..m0 + len]) {
            e1 = smladx(e1, x, s1);
            o1 = smladx(o1, x, w1);
            e0 = smladx(e0, x, s0);
            o0 = smladx(o0, x, w0);
            (s1, w1) = (s0, w0);
        }
        r[2 * t] = e0 as i32;
        r[2 * t + 1] = o0 as i32;
        r[2 * t + 2] = e1 as i32;
        // r[2n - 1] (always 0) is not part of the product.
        if t + 2 < n {
            r[2 * t + 3] = o1 as i32;
        }
        t += 2;
    }
    // Packed copies of secret operands.
    ct::wipe(&mut pa);
    ct::wipe(q.as_flattened_mut());
}

/// [`pairs_leaf`] as a [`Multiply`].
pub(super) struct Pairs;

impl Multiply for Pairs {
    #[inline(always)]
    fn mul(r: &mut [i32], a: &[i16], b: &[i16], _: &mut [i16], _: &mut [i32]) {
        pairs_leaf(r, a, b);
    }
}

/// Three Karatsuba levels over [`pairs_leaf`].
pub(super) type Karatsuba3Pairs = Karatsuba<Karatsuba<Karatsuba<Pairs>>>;

/// `Rq_recip3`: 1/(3·s) in R/q for a small `s`, into `out`; returns 0 if s
/// is invertible, -1 otherwise. The divsteps and windows of
/// [`crate::poly::rq_recip3`] on interleaved pairs: word i of `fg` holds
/// (g_i, f_i) (low half first), word i of `rv` holds (r_i, v_i).
///
/// Each step uses f0, g0 from before its swap, and computes the new g and r
/// without swapping: g' = f0·g - g0·f (shifted down) and r' = f0·r - g0·x·v
/// are the reference's new g and r when it does not swap, and their
/// negatives when it does (its f0, g0 and f, g are then exchanged); only f
/// and v take the masked selection (f' = g or f, v' = r or x·v). The sign
/// is common to the pair (g, r), as the Montgomery factor 2^-16 is, and
/// every pair keeps a common factor through later steps, so the verdict
/// (g0 ≠ 0 tests) and the final v / f0 are the reference's.
///
/// Bounds: every stored value lies in (-q, q): |f0·g - g0·f| < 2q² < 2^31,
/// and the Montgomery reduction of x, (x - t·q)/2^16 with |t| ≤ 2^15, is
/// below (2q² + 2^15·q)/2^16 < q (q < 2^14).
pub(super) fn rq_recip3_pairs<P: ParameterSet>(out: &mut [i16], s: &[i8]) -> i32 {
    let p = P::P;
    assert!(out.len() == p && s.len() == p);
    let md = const { ModQ::new(P::Q) };
    // q^-1 mod 2^16 (`pre(1)`) and -q, in the low halves.
    let qinv = u32::from(const { Montgomery::new(P::Q) }.pre(1) as u16);
    let negq = (-P::Q) as u32;
    let mut fg = P::Pairs1::zeroed();
    let mut rv = P::Pairs1::zeroed();
    let (fg, rv) = (fg.as_mut(), rv.as_mut());
    let high = |x: i32| (x as u32) << 16;
    let low = |x: i32| u32::from(x as u16);
    // f = x^p - x - 1 and g = s, both reversed; r = 1/3.
    fg[0] = high(1);
    fg[p - 1] = high(-1);
    fg[p] = high(-1);
    for (i, &x) in s.iter().enumerate() {
        fg[p - 1 - i] |= low(i32::from(x));
    }
    rv[0] = low(i32::from(fq_recip::<P>(3)));
    // x·2^-16 mod q, for |x| < 2^31 ... (x - t·q)/2^16 exactly, t = (x mod
    // 2^16)·q^-1 mod 2^16 (signed): two instructions, the result in the
    // high half (the low half is zero).
    let reduce = |x: u32| smlabb(smulbb(x, qinv), negq, x);
    let mut delta: i32 = 1;
    for n in 0..2 * p - 1 {
        // Public windows (see [`windows`]): f, g below `l`, v, r below `w`.
        let (l, w) = windows(p, n);
        let w0 = fg[0];
        let g0c = md.freeze(lo(w0));
        let swap = swap_mask(delta, i32::from(g0c));
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        let m = barrier_u32(swap as u32);
        // (f0, g0): smusd(c, (a, b)) = f0·a - g0·b.
        let c = w0.rotate_left(16);
        // The new high half of word x: its low half where m is set
        // (the low half of the result is discarded).
        let select = |x: u32| x ^ (m & (x ^ (x << 16)));
        // New word from x (the high half's source) and y (the product's).
        let step = |x: u32, y: u32| (select(x) & 0xffff_0000) | (reduce(smusd(c, y)) >> 16);
        // Two indices per pass in both loops: the loop overhead was a
        // third of the instructions.
        assert!(l <= fg.len());
        let mut x = fg[0];
        let mut i = 0;
        while i + 2 < l {
            let (y0, y1) = (fg[i + 1], fg[i + 2]);
            fg[i] = step(x, y0);
            fg[i + 1] = step(y0, y1);
            x = y1;
            i += 2;
        }
        if i + 1 < l {
            let y = fg[i + 1];
            fg[i] = step(x, y);
            x = y;
        }
        // The reference's g[l - 1] = 0.
        fg[l - 1] = select(x) & 0xffff_0000;
        // (r_i, v_{i-1}): r and x·v at index i.
        let mut prev = 0u32;
        assert!(w <= rv.len());
        let mut i = 0;
        while i + 1 < w {
            let (u0, u1) = (rv[i], rv[i + 1]);
            let y0 = (prev & 0xffff_0000) | (u0 & 0xffff);
            let y1 = (u0 & 0xffff_0000) | (u1 & 0xffff);
            rv[i] = step(y0, y0);
            rv[i + 1] = step(y1, y1);
            prev = u1;
            i += 2;
        }
        if i < w {
            let y = (prev & 0xffff_0000) | (rv[i] & 0xffff);
            rv[i] = step(y, y);
        }
    }
    let scale = i32::from(fq_recip::<P>(md.freeze(hi(fg[0]))));
    for (i, o) in out.iter_mut().enumerate() {
        *o = md.freeze(scale * hi(rv[p - 1 - i]));
    }
    let ret = nonzero_mask(delta);
    ct::wipe(fg);
    ct::wipe(rv);
    ret
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sntrup653, Sntrup761, Sntrup857, Sntrup953, Sntrup1013, Sntrup1277};
    use crate::poly::{Karatsuba3, mod_q, mul_karatsuba};
    use crate::poly::{inversion_input, rq_recip3, xorshift};

    #[test]
    fn pairs_leaf_matches_schoolbook() {
        let mut seed = 5u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as i32
        };
        for n in (2..=LEAF_MAX).step_by(2) {
            for round in 0..3 {
                let (a, b): (std::vec::Vec<i16>, std::vec::Vec<i16>) = match round {
                    0 => (std::vec![-32767; n], std::vec![8; n]),
                    1 => (std::vec![32767; n], std::vec![-8; n]),
                    _ => (
                        (0..n).map(|_| (next() % 32768) as i16).collect(),
                        (0..n).map(|_| (next() % 9) as i16).collect(),
                    ),
                };
                let mut want = std::vec![0i32; 2 * n - 1];
                crate::poly::Schoolbook::mul(&mut want, &a, &b, &mut [], &mut []);
                let mut got = std::vec![7i32; 2 * n - 1];
                pairs_leaf(&mut got, &a, &b);
                assert_eq!(got, want, "n = {n}, round {round}");
            }
        }
    }

    fn check_product<P: ParameterSet>() {
        let p = P::P;
        let mut seed = p as u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as i32
        };
        let md = mod_q::<P>();
        let a: std::vec::Vec<i16> = (0..p).map(|_| md.freeze(next() % P::Q)).collect();
        let b: std::vec::Vec<i8> = (0..p).map(|_| (next() % 3) as i8 - 1).collect();
        let (mut want, mut got) = (std::vec![0i16; p], std::vec![0i16; p]);
        mul_karatsuba::<P, Karatsuba3>(&mut want, &a, &b, md);
        mul_karatsuba::<P, Karatsuba3Pairs>(&mut got, &a, &b, md);
        assert_eq!(got, want, "p = {p}");
    }

    #[test]
    fn pairs_product_matches_karatsuba() {
        check_product::<Sntrup653>();
        check_product::<Sntrup761>();
        check_product::<Sntrup857>();
        check_product::<Sntrup953>();
        check_product::<Sntrup1013>();
        check_product::<Sntrup1277>();
    }

    fn check_recip<P: ParameterSet>(rounds: usize) {
        let p = P::P;
        let mut next = xorshift(0x2545_f491_4f6c_dd1d ^ p as u64);
        let (mut want, mut got) = (std::vec![0i16; p], std::vec![0i16; p]);
        for t in 0..rounds {
            let s = inversion_input(p, t, &mut next);
            let want_fail = rq_recip3::<P>(&mut want, &s);
            let got_fail = rq_recip3_pairs::<P>(&mut got, &s);
            assert_eq!(got_fail, want_fail, "verdict, p = {p}, input {t}");
            assert_eq!(got, want, "inverse, p = {p}, input {t}");
        }
        // Zero is not invertible.
        let zero = std::vec![0i8; p];
        assert_eq!(rq_recip3_pairs::<P>(&mut got, &zero), -1);
        assert_eq!(rq_recip3::<P>(&mut want, &zero), -1);
    }

    #[test]
    #[cfg_attr(miri, ignore = "inversions of degree 653+: too slow under Miri")]
    fn pairs_recip_matches_reference() {
        check_recip::<Sntrup653>(12);
        check_recip::<Sntrup761>(8);
        check_recip::<Sntrup857>(4);
        check_recip::<Sntrup953>(4);
        check_recip::<Sntrup1013>(4);
        check_recip::<Sntrup1277>(4);
    }

    #[test]
    fn dsp_twins() {
        let xs = [
            0u32,
            1,
            0xffff,
            0x8000,
            0x7fff_8000,
            0x8000_7fff,
            0xffff_ffff,
            0x1234_abcd,
        ];
        for &x in &xs {
            for &y in &xs {
                let (a, b, c, d) = (lo(x) as i64, hi(x) as i64, lo(y) as i64, hi(y) as i64);
                assert_eq!(i64::from(smusd(x, y) as i32), (a * c - b * d) as i32 as i64);
                assert_eq!(smulbb(x, y), (a * c) as u32);
                assert_eq!(smlabb(x, y, 5), (a * c + 5) as u32);
                assert_eq!(smladx(7, x, y), (7 + a * d + b * c) as u32);
            }
        }
    }
}
