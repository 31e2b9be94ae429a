//! The NTRU equation check for imported secret keys.
//!
//! A secret key carries f, g and F; G is recomputed as g·F/f mod q, which
//! makes f·G − g·F ≡ 0 (mod q) hold by construction, but says nothing about
//! the equation over the integers. A crafted key (say F = f, so G = g)
//! passes every encoding check and yields a singular basis, whose Gram
//! matrix drives the sampler into NaN/infinite values. So decoding also
//! checks f·G − g·F = q in Z[x]/(x^n + 1), in constant time.

use crate::zint::{
    self, intt, modp_mkgm2, modp_montymul, modp_ninv31, modp_norm, modp_r2, modp_set, ntt,
};

/// All-ones iff f·G − g·F = q (mod x^n + 1) over the integers, n = 2^logn
/// = `N`.
///
/// Every coefficient of f, g, F, G is in [−127, 127], so every coefficient
/// of f·G − g·F is below 2·1024·127² < 2^25 in absolute value: computed
/// modulo a 31-bit prime p (NTT, first prime of the solver table) and
/// normalised to (−p/2, p/2], it is the integer itself.
pub(crate) fn ntru_equation_mask<const N: usize>(
    f: &[i8; N],
    g: &[i8; N],
    ff: &[i8; N],
    gg: &[i8; N],
    logn: u32,
) -> u32 {
    let sp = zint::prime(0);
    let p = sp.p;
    let p0i = modp_ninv31(p);
    let r2 = modp_r2(p, p0i);
    let mut gm = [0u32; N];
    let mut igm = [0u32; N];
    modp_mkgm2(&mut gm, &mut igm, logn, sp.g, p, p0i);
    let mut a = [0u32; N];
    let mut b = [0u32; N];
    let mut c = [0u32; N];
    // a = f·G, c = g·F (NTT domain; montymul divides by R, r2 restores).
    for i in 0..N {
        a[i] = modp_set(i32::from(f[i]), p);
        b[i] = modp_set(i32::from(gg[i]), p);
    }
    ntt(&mut a, &gm, logn, p, p0i);
    ntt(&mut b, &gm, logn, p, p0i);
    for i in 0..N {
        a[i] = modp_montymul(modp_montymul(a[i], b[i], p, p0i), r2, p, p0i);
        b[i] = modp_set(i32::from(g[i]), p);
        c[i] = modp_set(i32::from(ff[i]), p);
    }
    ntt(&mut b, &gm, logn, p, p0i);
    ntt(&mut c, &gm, logn, p, p0i);
    for i in 0..N {
        let gf = modp_montymul(modp_montymul(b[i], c[i], p, p0i), r2, p, p0i);
        a[i] = zint::modp_sub(a[i], gf, p);
    }
    intt(&mut a, &igm, logn, p, p0i);
    // OR of (coefficient − expected) over all coefficients: zero iff equal.
    let mut diff = 0u32;
    for (i, &x) in a.iter().enumerate() {
        let want = if i == 0 { 12289 } else { 0 };
        diff |= (modp_norm(x, p) ^ want) as u32;
    }
    for t in [&mut a, &mut b, &mut c] {
        zeroize::Zeroize::zeroize(t.as_mut_slice());
    }
    pqforge_core::ct::nonzero_mask_u32(diff) ^ u32::MAX
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_a_singular_basis() {
        // F = f and G = g: f·G − g·F = 0, not q. (Valid keys pass: every
        // KAT key is decoded through this check in tests/kat.rs.)
        let f = [1i8, 2, -3, 4];
        let g = [0i8, -1, 5, 2];
        assert_eq!(ntru_equation_mask(&f, &g, &f, &g, 2), 0);
    }
}
