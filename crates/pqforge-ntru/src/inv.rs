//! Constant-time inversion modulo (2, Φ_n) and (3, Φ_n).
//!
//! Both use the Bernstein–Yang "divstep" iteration on the reversed
//! polynomials (f = Φ_n, which is its own reversal, and g = the reversal of
//! the input reduced modulo Φ_n), run for the fixed count 2(n − 1) − 1:
//! every step is the same sequence of operations, the swap and the
//! elimination chosen by masks. At the end v holds, reversed and scaled by
//! f(0), the inverse. The polynomials are bit-sliced (one bit plane for
//! GF(2), two for GF(3): one word operation per 64 coefficients). Φ_n is
//! irreducible modulo 2 and 3 for every NTRU
//! degree, so every input not divisible by Φ_n is invertible.
//!
//! The inverse modulo q (a power of two) is lifted from the one modulo 2 by
//! Newton's iteration in the backend's ring product (see `kem.rs`).

use pqforge_core::ct::barrier_u32;
use zeroize::Zeroize;

use crate::params::ParameterSet;
use crate::poly::mod3;

/// A polynomial over GF(2) in W words (W from [`by_words`], a constant of
/// each instantiation, so that the word loops unroll), one bit per
/// coefficient, bit i of word i/64.
type Bits<const W: usize> = [u64; W];

/// A polynomial over GF(3) in *sign form*: `.0` has the bit of each
/// nonzero coefficient, `.1` the bit of each coefficient −1 (= 2); where a
/// coefficient is 0 its sign bit is free (it may hold anything, and no
/// operation reads it). See [`add_scaled`] for why.
#[derive(Clone, Copy)]
struct Trits<const W: usize>(Bits<W>, Bits<W>);

impl<const W: usize> Trits<W> {
    /// Overwrites both planes with zeros.
    fn zeroize(&mut self) {
        self.0.zeroize();
        self.1.zeroize();
    }
}

/// Calls `$f::<W>($($arg),*)` for the word count W of the NTRU degree n (a
/// parameter set's constant: one instantiation per set): ⌈n/64⌉, on
/// x86_64 rounded up to a multiple of four (whole 256-bit vectors: the word
/// loops vectorize without scalar tails; the Cortex-M4 would only do more
/// work).
macro_rules! by_words {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match words($n) {
            8 => $f::<8>($($arg),*),
            11 => $f::<11>($($arg),*),
            12 => $f::<12>($($arg),*),
            13 => $f::<13>($($arg),*),
            16 => $f::<16>($($arg),*),
            20 => $f::<20>($($arg),*),
            22 => $f::<22>($($arg),*),
            24 => $f::<24>($($arg),*),
            w => panic!("no NTRU degree takes {w} words"),
        }
    };
}

/// The word count of [`by_words`].
const fn words(n: usize) -> usize {
    let w = n.div_ceil(64);
    if cfg!(target_arch = "x86_64") {
        w.next_multiple_of(4)
    } else {
        w
    }
}

/// `x · X` on the first `len` words (coefficients move one place up; the
/// bit leaving word `len − 1` drops).
#[inline(always)]
fn shl1(x: &mut [u64], len: usize) {
    let x = &mut x[..len];
    for i in (1..len).rev() {
        x[i] = (x[i] << 1) | (x[i - 1] >> 63);
    }
    x[0] <<= 1;
}

/// `x / X` on the first `len` words (coefficients move one place down;
/// the constant term drops, word `len` reads as zero).
#[inline(always)]
fn shr1(x: &mut [u64], len: usize) {
    let x = &mut x[..len];
    for i in 0..len - 1 {
        x[i] = (x[i] >> 1) | (x[i + 1] << 63);
    }
    x[len - 1] >>= 1;
}

/// The divstep windows, in words, of step k (0-based) of an inversion of
/// degree n: only f, g below min(n, 2(n − 1) − k) coefficients and v, w
/// below min(n, k + 2) can be nonzero. The argument of `ntruprime`'s
/// `poly::windows` with p = n − 1 (f = Φ_n has n coefficients, 2(n − 1) −
/// 1 steps): for an invertible input the final δ is 0, which bounds |δ| by
/// the steps left, hence the f, g bound; v, w gain one place a step. Every
/// input here is invertible (Φ_n is irreducible modulo 2 and 3 and the
/// input is not a multiple of it); for one that is not, the result is
/// garbage with or without windows (the key check detects an h⁻¹ that
/// is not invertible from the lift's first product). Words above a window
/// are left alone: f, g's windows only shrink (their stale upper words
/// are never read again; the shift reads zero past the window), v, w's
/// only grow (their upper words are still the initial zeros when they
/// join). Public: from n and k only.
#[inline(always)]
fn windows(n: usize, k: usize) -> (usize, usize) {
    (
        n.min(2 * (n - 1) - k).div_ceil(64),
        n.min(k + 2).div_ceil(64),
    )
}

/// Swaps the first `len` words of `x` and `y` where `m` is all-ones.
#[inline(always)]
fn cswap(x: &mut [u64], y: &mut [u64], m: u64, len: usize) {
    for i in 0..len {
        let t = m & (x[i] ^ y[i]);
        x[i] ^= t;
        y[i] ^= t;
    }
}

/// All-ones iff δ > 0 and `nonzero` (0 or 1), and the δ update of the
/// divstep: δ ← (swap ? −δ : δ) + 1.
#[inline(always)]
fn swap_mask(delta: &mut i32, nonzero: u64) -> u64 {
    let pos = ((-*delta) >> 31) as u32;
    let m = barrier_u32(pos & (nonzero as u32).wrapping_neg());
    let m32 = m as i32;
    *delta = (*delta ^ (m32 & (*delta ^ -*delta))) + 1;
    u64::from(m) | (u64::from(m) << 32)
}

/// `r = a⁻¹ mod (2, Φ_n)` (coefficients in {0, 1}, `r[n−1] = 0`); only
/// the low bit of each coefficient of `a` is read. Inlined into each
/// backend's kernel (compiled for its instruction set).
#[inline(always)]
pub(crate) fn r2_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16]) {
    debug_assert_eq!(a.len(), P::N);
    by_words!(P::N, r2_inverse_w(r, a));
}

/// [`r2_inverse`] on W-word bit arrays.
#[inline(always)]
fn r2_inverse_w<const W: usize>(r: &mut [u16], a: &[u16]) {
    let n = a.len();
    let (mut f, mut g, mut v, mut w) = ([0u64; W], [0u64; W], [0u64; W], [0u64; W]);
    w[0] = 1;
    for i in 0..n {
        f[i / 64] |= 1 << (i % 64);
    }
    // g = reversal of a mod Φ_n.
    for i in 0..n - 1 {
        let c = u64::from((a[i] ^ a[n - 1]) & 1);
        let j = n - 2 - i;
        g[j / 64] |= c << (j % 64);
    }
    let mut delta = 1i32;
    // Full width: the word loops are cheap enough here that windows (as in
    // `s3_inverse_w`) cost more in loop overhead than they save (Cortex-M4:
    // hrss-701 key check 4.31M -> 4.56M instructions with them).
    for _ in 0..2 * (n - 1) - 1 {
        shl1(&mut v, W);
        let m = swap_mask(&mut delta, g[0] & 1);
        cswap(&mut f, &mut g, m, W);
        cswap(&mut v, &mut w, m, W);
        // f(0) = 1: g += g(0)·f, w += g(0)·v.
        let c = barrier_u32(((g[0] & f[0] & 1) as u32).wrapping_neg());
        let c = u64::from(c) | (u64::from(c) << 32);
        for i in 0..W {
            g[i] ^= c & f[i];
            w[i] ^= c & v[i];
        }
        shr1(&mut g, W);
    }
    for i in 0..n - 1 {
        let j = n - 2 - i;
        r[i] = ((v[j / 64] >> (j % 64)) & 1) as u16;
    }
    r[n - 1] = 0;
    for x in [&mut f, &mut g, &mut v, &mut w] {
        x.zeroize();
    }
}

/// `x += c·y` over GF(3) on the first `len` words, for a scalar c given by its masks (`nz`
/// all-ones iff c ≠ 0, `neg` iff c = −1), in sign form: c·y is (y.n ∧ nz,
/// y.s ⊕ neg) (2 operations), and x + t, with d = x.s ⊕ t.s and e =
/// x.n ∧ t.n (both nonzero), has n = (x.n ⊕ t.n) ∨ (e ∧ ¬d) (one nonzero,
/// or both with the same sign: 1 + 1 = −1, −1 − 1 = 1) and s = t.s ⊕
/// (x.n ∧ d) ⊕ e (the sign of the nonzero one — t.s ⊕ d = x.s where x is —
/// and ¬x.s where both are, with equal signs; with opposite signs n = 0):
/// 8 operations, against 18 for the encoding {1 → (1, 0), 2 → (0, 1)}.
#[inline(always)]
fn add_scaled<const W: usize>(x: &mut Trits<W>, y: &Trits<W>, nz: u64, neg: u64, len: usize) {
    for i in 0..len {
        let (tn, ts) = (y.0[i] & nz, y.1[i] ^ neg);
        let (xn, xs) = (x.0[i], x.1[i]);
        let d = xs ^ ts;
        let e = xn & tn;
        x.0[i] = (xn ^ tn) | (e & !d);
        x.1[i] = ts ^ (xn & d) ^ e;
    }
}

/// The constant coefficient of a trit polynomial as (nonzero, sign) bits
/// (the sign bit is meaningful only when the first is 1).
#[inline(always)]
fn trit0<const W: usize>(x: &Trits<W>) -> (u32, u32) {
    ((x.0[0] & 1) as u32, (x.1[0] & 1) as u32)
}

/// `r = a⁻¹ mod (3, Φ_n)` (coefficients in {0, 1, 2}, `r[n−1] = 0`); `a`
/// has coefficients in {0, 1, 2}. Inlined into each backend's kernel.
#[inline(always)]
pub(crate) fn s3_inverse<P: ParameterSet>(r: &mut [u16], a: &[u16]) {
    debug_assert_eq!(a.len(), P::N);
    by_words!(P::N, s3_inverse_w(r, a));
}

/// [`s3_inverse`] for any NTRU degree n = `a.len()` (the reference of the
/// vector kernels' tests).
#[cfg(all(test, target_arch = "x86_64", not(pqforge_backend = "portable")))]
pub(crate) fn s3_inverse_n(r: &mut [u16], a: &[u16]) {
    by_words!(a.len(), s3_inverse_w(r, a));
}

/// [`s3_inverse`] on W-word bit planes.
#[inline(always)]
fn s3_inverse_w<const W: usize>(r: &mut [u16], a: &[u16]) {
    let n = a.len();
    let zero = Trits([0; W], [0; W]);
    let (mut f, mut g, mut v, mut w) = (zero, zero, zero, zero);
    w.0[0] = 1;
    for i in 0..n {
        f.0[i / 64] |= 1 << (i % 64);
    }
    // g = reversal of a mod Φ_n (a − a[n−1]·Φ_n), then 2 ↦ (nonzero, −).
    let last = u32::from(a[n - 1] & 3);
    for i in 0..n - 1 {
        let c = u64::from(mod3(u32::from(a[i] & 3) + 2 * last));
        let j = n - 2 - i;
        g.0[j / 64] |= ((c | (c >> 1)) & 1) << (j % 64);
        g.1[j / 64] |= (c >> 1) << (j % 64);
    }
    let mut delta = 1i32;
    for k in 0..2 * (n - 1) - 1 {
        let (fg, vw) = windows(n, k);
        shl1(&mut v.0, vw);
        shl1(&mut v.1, vw);
        let (f_s, (g_nz, g_s)) = (trit0(&f).1, trit0(&g));
        let m = swap_mask(&mut delta, u64::from(g_nz));
        cswap(&mut f.0, &mut g.0, m, fg);
        cswap(&mut f.1, &mut g.1, m, fg);
        cswap(&mut v.0, &mut w.0, m, vw);
        cswap(&mut v.1, &mut w.1, m, vw);
        // g −= (g(0)/f(0))·f with 1/f(0) = f(0): add c = −g(0)·f(0),
        // nonzero iff g(0) is, −1 iff the signs agree (the same before
        // and after the swap). f(0) is never 0.
        let nz = barrier_u32(g_nz.wrapping_neg());
        let neg = barrier_u32((f_s ^ g_s ^ 1).wrapping_neg());
        let (nz, neg) = (
            u64::from(nz) | (u64::from(nz) << 32),
            u64::from(neg) | (u64::from(neg) << 32),
        );
        add_scaled(&mut g, &f, nz, neg, fg);
        add_scaled(&mut w, &v, nz, neg, vw);
        shr1(&mut g.0, fg);
        shr1(&mut g.1, fg);
    }
    // r_i = f(0)·v_{n−2−i}: the sign flipped when f(0) = −1.
    let f_s = u64::from(trit0(&f).1);
    for i in 0..n - 1 {
        let j = n - 2 - i;
        let vn = (v.0[j / 64] >> (j % 64)) & 1;
        let vs = ((v.1[j / 64] >> (j % 64)) ^ f_s) & 1;
        r[i] = (vn * (1 + vs)) as u16;
    }
    r[n - 1] = 0;
    for x in [&mut f, &mut g, &mut v, &mut w] {
        x.zeroize();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::poly::{mod3_phi_n, schoolbook};
    use std::vec;
    use std::vec::Vec;

    fn cyclic(a: &[u16], b: &[u16]) -> Vec<u16> {
        let n = a.len();
        let mut wide = vec![0u16; 2 * n];
        schoolbook(&mut wide, a, b);
        (0..n).map(|k| wide[k].wrapping_add(wide[k + n])).collect()
    }

    #[test]
    fn inverses() {
        let mut seed = 11u64;
        for n in [509usize, 677, 701, 821, 1229, 1373] {
            let a: Vec<u16> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % 3) as u16
                })
                .collect();
            let mut r = vec![0u16; n];
            by_words!(n, s3_inverse_w(&mut r, &a));
            let mut p = cyclic(&a, &r);
            mod3_phi_n(&mut p);
            assert_eq!(p[0], 1);
            assert!(p[1..].iter().all(|&c| c == 0), "mod 3, n = {n}");
            let a2: Vec<u16> = a.iter().map(|&c| c & 1).collect();
            by_words!(n, r2_inverse_w(&mut r, &a2));
            let p = cyclic(&a2, &r);
            let last = p[n - 1] & 1;
            let p: Vec<u16> = p.iter().map(|&c| (c ^ last) & 1).collect();
            assert_eq!(p[0], 1);
            assert!(p[1..].iter().all(|&c| c == 0), "mod 2, n = {n}");
        }
    }
}
