//! The NTRU equation check for imported secret keys.
//!
//! A secret key carries f, g and F; G is recomputed as g·F/f mod q, which
//! makes f·G − g·F ≡ 0 (mod q) hold by construction, but says nothing about
//! the equation over the integers. A crafted key (say F = f, so G = g)
//! passes every encoding check and yields a singular basis, whose Gram
//! matrix drives the sampler into NaN/infinite values. So decoding also
//! checks f·G − g·F = q in Z[x]/(x^n + 1), in constant time.

use super::NtruKey;
use crate::backend::Backend;
use crate::modp::{Prime, mkgm2};

/// All-ones iff f·G − g·F = q (mod x^n + 1) over the integers, n = 2^logn
/// = `N`.
///
/// Every coefficient of f, g, F, G is in [−127, 127], so every coefficient
/// of f·G − g·F is below 2·1024·127² < 2^25 in absolute value: computed
/// modulo a 31-bit prime p (NTT, first prime of the solver table) and
/// normalised to (−p/2, p/2], it is the integer itself.
pub(crate) fn ntru_equation_mask<B: Backend, const N: usize>(
    b: B,
    key: &NtruKey<'_>,
    logn: u32,
) -> u32 {
    // Four arrays of n words (8 KB for n = 512): the inverse table is built
    // twice, into buffers that are free at the time.
    let pr = Prime::new(0);
    let c = pr;
    let mut gm = [0u32; N];
    let mut a = [0u32; N];
    let mut bb = [0u32; N];
    let mut cc = [0u32; N];
    let ntt = |x: &mut [u32], gm: &[u32]| {
        if logn > 0 {
            b.modp_ntt(x.into(), gm, logn, &pr);
        }
    };
    mkgm2(b, &mut gm, &mut cc, logn, &pr);
    // a = f·G, then a − g·F (NTT domain; montymul divides by R, r2 restores).
    for i in 0..N {
        a[i] = c.set(i32::from(key.f[i]));
        bb[i] = c.set(i32::from(key.gg[i]));
    }
    ntt(&mut a, &gm);
    ntt(&mut bb, &gm);
    for i in 0..N {
        a[i] = c.mul(a[i], bb[i]);
        bb[i] = c.set(i32::from(key.g[i]));
        cc[i] = c.set(i32::from(key.ff[i]));
    }
    ntt(&mut bb, &gm);
    ntt(&mut cc, &gm);
    for i in 0..N {
        let gf = c.mul(bb[i], cc[i]);
        a[i] = c.sub(a[i], gf);
    }
    // The inverse table into cc (bb takes the forward one again).
    mkgm2(b, &mut bb, &mut cc, logn, &pr);
    if logn > 0 {
        b.modp_intt((&mut a[..]).into(), &cc, logn, &pr);
    }
    // OR of (coefficient − expected) over all coefficients: zero iff equal.
    let mut diff = 0u32;
    for (i, &x) in a.iter().enumerate() {
        let want = if i == 0 { 12289 } else { 0 };
        diff |= (c.norm(x) ^ want) as u32;
    }
    for t in [&mut a, &mut bb, &mut cc] {
        zeroize::Zeroize::zeroize(t.as_mut_slice());
    }
    pqforge_core::ct::nonzero_mask_u32(diff) ^ u32::MAX
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::backend::Portable;

    #[test]
    fn rejects_a_singular_basis() {
        // F = f and G = g: f·G − g·F = 0, not q. (Valid keys pass: every
        // KAT key is decoded through this check in tests/kat.rs.)
        let f = [1i8, 2, -3, 4];
        let g = [0i8, -1, 5, 2];
        let key = NtruKey {
            f: &f,
            g: &g,
            ff: &f,
            gg: &g,
        };
        assert_eq!(ntru_equation_mask::<_, 4>(Portable, &key, 2), 0);
    }
}
