//! Constant-time inversion modulo (2, Φ_n) and (3, Φ_n).
//!
//! Both use the Bernstein–Yang "divstep" iteration on the reversed
//! polynomials (f = Φ_n, which is its own reversal, and g = the reversal of
//! the input reduced modulo Φ_n), run for the fixed count 2(n − 1) − 1:
//! every step is the same sequence of operations, the swap and the
//! elimination chosen by masks. At the end v holds, reversed and scaled by
//! f(0), the inverse. Φ_n is irreducible modulo 2 and 3 for every NTRU
//! degree, so every input not divisible by Φ_n is invertible.
//!
//! The inverse modulo q (a power of two) is lifted from the one modulo 2 by
//! Newton's iteration in the backend's ring product (see `kem.rs`).

use pqforge_core::ct::barrier_u32;

use crate::poly::mod3;

/// The four work polynomials of a divstep inversion (n coefficients each).
pub(crate) struct Work<'a> {
    pub(crate) f: &'a mut [u16],
    pub(crate) g: &'a mut [u16],
    pub(crate) v: &'a mut [u16],
    pub(crate) w: &'a mut [u16],
}

/// Mask step common to both moduli: shifts v up, decides the swap
/// (δ > 0 and g(0) ≠ 0), updates δ and swaps (f, g), (v, w) under the mask.
#[inline(always)]
fn step_swap(work: &mut Work<'_>, delta: &mut i32) {
    let n = work.v.len();
    work.v.copy_within(0..n - 1, 1);
    work.v[0] = 0;
    let g0 = i32::from(work.g[0]);
    let swap = barrier_u32((((-*delta) >> 31) & ((-g0) >> 31)) as u32);
    let swap32 = swap as i32;
    *delta = (*delta ^ (swap32 & (*delta ^ -*delta))) + 1;
    let m = swap as u16;
    for i in 0..n {
        let t = m & (work.f[i] ^ work.g[i]);
        work.f[i] ^= t;
        work.g[i] ^= t;
        let t = m & (work.v[i] ^ work.w[i]);
        work.v[i] ^= t;
        work.w[i] ^= t;
    }
}

/// `r = a⁻¹ mod (2, Φ_n)` (coefficients in {0, 1}, `r[n−1] = 0`).
pub(crate) fn r2_inverse(r: &mut [u16], a: &[u16], work: &mut Work<'_>) {
    let n = a.len();
    work.v.fill(0);
    work.w.fill(0);
    work.w[0] = 1;
    work.f.fill(1);
    for i in 0..n - 1 {
        work.g[n - 2 - i] = (a[i] ^ a[n - 1]) & 1;
    }
    work.g[n - 1] = 0;
    let mut delta = 1i32;
    for _ in 0..2 * (n - 1) - 1 {
        step_swap(work, &mut delta);
        // f(0) = 1: eliminate g(0) by g += g(0)·f, w += g(0)·v.
        let c = (work.g[0] & work.f[0]).wrapping_neg();
        for i in 0..n {
            work.g[i] ^= c & work.f[i];
            work.w[i] ^= c & work.v[i];
        }
        work.g.copy_within(1..n, 0);
        work.g[n - 1] = 0;
    }
    for i in 0..n - 1 {
        r[i] = work.v[n - 2 - i];
    }
    r[n - 1] = 0;
}

/// `r = a⁻¹ mod (3, Φ_n)` (coefficients in {0, 1, 2}, `r[n−1] = 0`); `a`
/// has coefficients in {0, 1, 2}.
pub(crate) fn s3_inverse(r: &mut [u16], a: &[u16], work: &mut Work<'_>) {
    let n = a.len();
    work.v.fill(0);
    work.w.fill(0);
    work.w[0] = 1;
    work.f.fill(1);
    let last = u32::from(a[n - 1] & 3);
    for i in 0..n - 1 {
        work.g[n - 2 - i] = mod3(u32::from(a[i] & 3) + 2 * last);
    }
    work.g[n - 1] = 0;
    let mut delta = 1i32;
    for _ in 0..2 * (n - 1) - 1 {
        step_swap(work, &mut delta);
        // g −= (g(0)/f(0))·f with 1/f(0) = f(0): add c = −g(0)·f(0).
        let c = u32::from(mod3(2 * u32::from(work.g[0]) * u32::from(work.f[0])));
        for i in 0..n {
            work.g[i] = mod3(u32::from(work.g[i]) + c * u32::from(work.f[i]));
            work.w[i] = mod3(u32::from(work.w[i]) + c * u32::from(work.v[i]));
        }
        work.g.copy_within(1..n, 0);
        work.g[n - 1] = 0;
    }
    let f0 = u32::from(work.f[0]);
    for i in 0..n - 1 {
        r[i] = mod3(f0 * u32::from(work.v[n - 2 - i]));
    }
    r[n - 1] = 0;
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
        for n in [509usize, 701] {
            let mut bufs = [vec![0u16; n], vec![0u16; n], vec![0u16; n], vec![0u16; n]];
            let [f, g, v, w] = &mut bufs;
            let mut work = Work { f, g, v, w };
            let a: Vec<u16> = (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 33) % 3) as u16
                })
                .collect();
            let mut r = vec![0u16; n];
            s3_inverse(&mut r, &a, &mut work);
            let mut p = cyclic(&a, &r);
            mod3_phi_n(&mut p);
            assert_eq!(p[0], 1);
            assert!(p[1..].iter().all(|&c| c == 0), "mod 3, n = {n}");
            let a2: Vec<u16> = a.iter().map(|&c| c & 1).collect();
            r2_inverse(&mut r, &a2, &mut work);
            let p = cyclic(&a2, &r);
            let last = p[n - 1] & 1;
            let p: Vec<u16> = p.iter().map(|&c| (c ^ last) & 1).collect();
            assert_eq!(p[0], 1);
            assert!(p[1..].iter().all(|&c| c == 0), "mod 2, n = {n}");
        }
    }
}
