//! Bitsliced arithmetic in R/3: 32 coefficients of {-1, 0, 1} per pair of
//! 32-bit words, and the inversion `R3_recip` of the portable backend on
//! them (the same divsteps and windows as [`crate::poly::r3_recip`], so the
//! same verdict and inverse, with each masked step costing a few logic
//! operations per 32 coefficients instead of a few per coefficient).
//!
//! Encoding: coefficient j of a polynomial lives in bit j mod 32 of word
//! j / 32 of two planes, `nz` (the coefficient is nonzero) and `neg` (it is
//! -1; set only where `nz` is). Every operation is a word-wide logic
//! operation or shift: no branch or memory index depends on the data.

use pqforge_core::ct::{barrier_u32, wipe};

use crate::arith::{nonzero_mask, swap_mask};
use crate::params::ParameterSet;
use crate::poly::windows;

/// Words per plane: p + 1 ≤ 1278 coefficients, plus one zero word read
/// past the window by the shifts.
const WORDS: usize = 1278usize.div_ceil(32) + 1;

/// A polynomial mod 3 in bitsliced form (see the module documentation).
#[derive(Clone, Copy)]
struct Planes {
    nz: [u32; WORDS],
    neg: [u32; WORDS],
}

impl Planes {
    const ZERO: Self = Self {
        nz: [0; WORDS],
        neg: [0; WORDS],
    };

    /// Coefficient `j` set to `x` in {-1, 0, 1} (was 0).
    #[inline(always)]
    fn set(&mut self, j: usize, x: i8) {
        // x & 1 = 1 iff x is ±1; the sign bit says -1.
        self.nz[j / 32] |= u32::from((x & 1) as u8) << (j % 32);
        self.neg[j / 32] |= u32::from((x as u8) >> 7) << (j % 32);
    }

    /// Coefficient `j` as -1, 0 or 1.
    #[inline(always)]
    fn get(&self, j: usize) -> i8 {
        let nz = (self.nz[j / 32] >> (j % 32)) & 1;
        let neg = (self.neg[j / 32] >> (j % 32)) & 1;
        // 1 - 2·neg where nonzero.
        (nz as i8) - 2 * (neg as i8)
    }

    fn wipe(&mut self) {
        wipe(&mut self.nz);
        wipe(&mut self.neg);
    }
}

/// `(a0, a1) + (b0, b1)` coefficient-wise mod 3 on (nz, neg) planes.
///
/// Nonzero: exactly one operand nonzero (a0 ^ b0), or both nonzero with the
/// same sign (1 + 1 = -1, -1 - 1 = 1). Sign: with one operand zero, the
/// other's sign (a1 | b1, the zero one's sign bit being clear); with both
/// nonzero, -1 iff both are 1, i.e. not (a1 | b1) — and then the nonzero
/// bit is clear when the signs differ, so `(a1 | b1) ^ (a0 & b0)` covers
/// every case (both zero: all clear).
#[inline(always)]
fn add(a0: u32, a1: u32, b0: u32, b1: u32) -> (u32, u32) {
    let nz = (a0 ^ b0) | (a0 & b0 & !(a1 ^ b1));
    let neg = (a1 | b1) ^ (a0 & b0);
    (nz, neg)
}

/// `c · (x0, x1)` for a scalar c in {-1, 0, 1} given as masks: `cnz` all
/// ones iff c ≠ 0, `cneg` all ones iff c = -1. Negation flips the sign
/// where the coefficient is nonzero.
#[inline(always)]
fn scale(x0: u32, x1: u32, cnz: u32, cneg: u32) -> (u32, u32) {
    let y0 = x0 & cnz;
    (y0, (x1 ^ cneg) & y0)
}

/// The mask keeping bit positions below `len` of word `k` (public).
#[inline(always)]
fn below(len: usize, k: usize) -> u32 {
    let lo = 32 * k;
    if len >= lo + 32 {
        u32::MAX
    } else if len <= lo {
        0
    } else {
        (1u32 << (len - lo)) - 1
    }
}

/// Masked exchange of words `..n` of `a` and `b` (`m` all ones: swap).
#[inline(always)]
fn cswap(a: &mut Planes, b: &mut Planes, n: usize, m: u32) {
    for k in 0..n {
        let t = m & (a.nz[k] ^ b.nz[k]);
        a.nz[k] ^= t;
        b.nz[k] ^= t;
        let t = m & (a.neg[k] ^ b.neg[k]);
        a.neg[k] ^= t;
        b.neg[k] ^= t;
    }
}

/// 1/s in R/3 for `s` with coefficients in {-1, 0, 1} (`R3_recip`), into
/// `out`; returns 0 if s is invertible mod 3, -1 otherwise (then `out` is
/// meaningless).
///
/// The divsteps of [`crate::poly::r3_recip`] with its public windows
/// rounded up to whole words: f, g over words below ⌈l/32⌉ and v, r below
/// ⌈w/32⌉. Every coefficient the reference reads is computed exactly: g is
/// cleared from position l - 1 on after each update (the reference's
/// `g[l-1] = 0`; positions past l it leaves stale and never reads), so
/// the extra positions of f, g only feed cleared ones; v and r below
/// n + 1 are exact and zero above, so the extra words of v, r compute
/// zeros (past p, v's top bit may move into positions no output reads).
pub(crate) fn r3_recip_bits<P: ParameterSet>(out: &mut [i8], s: &[i8]) -> i32 {
    let p = P::P;
    assert!(p + 1 < 32 * WORDS && out.len() == p && s.len() == p);
    let (mut f, mut g, mut v, mut r) = (Planes::ZERO, Planes::ZERO, Planes::ZERO, Planes::ZERO);
    // f = x^p - x - 1 and g = s, both reversed; r = 1.
    r.set(0, 1);
    f.set(0, 1);
    f.set(p - 1, -1);
    f.set(p, -1);
    for (i, &x) in s.iter().enumerate() {
        g.set(p - 1 - i, x);
    }
    let mut delta: i32 = 1;
    for n in 0..2 * p - 1 {
        let (l, w) = windows(p, n);
        let (lw, ww) = (l.div_ceil(32), w.div_ceil(32));
        // v ← x·v (the top bit of word ww - 1 leaves the window: zero, or
        // past p, see above).
        for k in (1..ww).rev() {
            v.nz[k] = (v.nz[k] << 1) | (v.nz[k - 1] >> 31);
            v.neg[k] = (v.neg[k] << 1) | (v.neg[k - 1] >> 31);
        }
        v.nz[0] <<= 1;
        v.neg[0] <<= 1;
        // c = -g0·f0 (before the swap: symmetric in f, g): nonzero iff
        // both are, -1 iff their signs agree.
        let (g0, f0) = (g.nz[0] & 1, f.nz[0] & 1);
        let cnz = (g0 & f0).wrapping_neg();
        let cneg = (!(g.neg[0] ^ f.neg[0]) & 1).wrapping_neg() & cnz;
        let swap = swap_mask(delta, g0 as i32);
        delta ^= swap & (delta ^ -delta);
        delta += 1;
        // CT: the masks pass value barriers, so that LLVM cannot turn the
        // masked updates back into branches on them.
        let sw = barrier_u32(swap as u32);
        let (cnz, cneg) = (barrier_u32(cnz), barrier_u32(cneg));
        cswap(&mut f, &mut g, lw, sw);
        cswap(&mut v, &mut r, ww, sw);
        // g ← (g + c·f) / x, cleared from position l - 1 on.
        for k in 0..lw {
            let f0 = (f.nz[k] >> 1) | (f.nz[k + 1] << 31);
            let f1 = (f.neg[k] >> 1) | (f.neg[k + 1] << 31);
            let g0 = (g.nz[k] >> 1) | (g.nz[k + 1] << 31);
            let g1 = (g.neg[k] >> 1) | (g.neg[k + 1] << 31);
            let (y0, y1) = scale(f0, f1, cnz, cneg);
            let (s0, s1) = add(g0, g1, y0, y1);
            let keep = below(l - 1, k);
            g.nz[k] = s0 & keep;
            g.neg[k] = s1 & keep;
        }
        // r ← r + c·v.
        for k in 0..ww {
            let (y0, y1) = scale(v.nz[k], v.neg[k], cnz, cneg);
            let (s0, s1) = add(r.nz[k], r.neg[k], y0, y1);
            r.nz[k] = s0;
            r.neg[k] = s1;
        }
    }
    // 1/s = v / f0 = f0 · v (f0 = ±1), reversed.
    let sign = f.get(0);
    for (i, o) in out.iter_mut().enumerate() {
        *o = sign * v.get(p - 1 - i);
    }
    let ret = nonzero_mask(delta);
    f.wipe();
    g.wipe();
    v.wipe();
    r.wipe();
    ret
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Sntrup653, Sntrup761, Sntrup1277};
    use crate::poly::{inversion_input, r3_recip, xorshift};

    #[test]
    fn add_and_scale_all() {
        let enc = |x: i32| -> (u32, u32) { (u32::from(x != 0), u32::from(x < 0)) };
        let dec = |(a, b): (u32, u32)| -> i32 {
            assert!(b & !a == 0, "neg without nz");
            a as i32 - 2 * b as i32
        };
        let m3 = |x: i32| (x + 1).rem_euclid(3) - 1;
        for a in -1..=1 {
            for b in -1..=1 {
                let ((a0, a1), (b0, b1)) = (enc(a), enc(b));
                assert_eq!(dec(add(a0, a1, b0, b1)), m3(a + b), "{a} + {b}");
                let (cnz, cneg) = (
                    u32::from(b != 0).wrapping_neg(),
                    u32::from(b < 0).wrapping_neg(),
                );
                assert_eq!(dec(scale(a0, a1, cnz, cneg)), a * b, "{a} * {b}");
            }
        }
    }

    /// Compares with the reference on `rounds` inputs; returns the number
    /// of non-invertible ones.
    fn check<P: ParameterSet>(rounds: usize) -> usize {
        let p = P::P;
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15 ^ p as u64);
        let (mut want, mut got) = (std::vec![0i8; p], std::vec![0i8; p]);
        let (mut ok, mut bad) = (0, 0);
        for t in 0..rounds {
            let s = inversion_input(p, t, &mut next);
            let want_fail = r3_recip::<P>(&mut want, &s);
            let got_fail = r3_recip_bits::<P>(&mut got, &s);
            assert_eq!(got_fail, want_fail, "verdict, input {t}");
            if want_fail == 0 {
                assert_eq!(got, want, "inverse, input {t}");
                ok += 1;
            } else {
                bad += 1;
            }
        }
        assert!(ok > 0, "invertible inputs exercised");
        // Zero is not invertible.
        assert_eq!(r3_recip_bits::<P>(&mut got, &std::vec![0i8; p]), -1);
        bad
    }

    #[test]
    #[cfg_attr(miri, ignore = "many inversions of degree 653+: too slow under Miri")]
    fn bitsliced_r3_recip_matches_reference() {
        let bad = check::<Sntrup653>(24) + check::<Sntrup761>(12) + check::<Sntrup1277>(8);
        assert!(bad > 0, "non-invertible inputs exercised");
    }
}
