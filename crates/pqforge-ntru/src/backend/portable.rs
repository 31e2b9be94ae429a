//! The portable backend: the reference kernels on every target (the
//! Cortex-M4 runs them): Karatsuba on `u16` coefficients down to blocks of
//! 20 to 32 coefficients, multiplied by a product-scanning schoolbook on
//! coefficient pairs packed in 32-bit words ([`base_pairs`]: one
//! `SMLADX` per two products on the Cortex-M4, see `armv7em.rs`).

use pqforge_core::ct;

use crate::kem::Backend;
use crate::poly::{karatsuba_fn, schoolbook};

/// The portable backend.
pub(crate) struct Portable;

impl Backend for Portable {
    const NAME: &'static str = "portable";

    fn mul_wide(r: &mut [u16], a: &[u16], b: &[u16], s: &mut [u16]) {
        karatsuba_pairs(r, a, b, s);
    }
}

karatsuba_fn!(
    /// The portable Karatsuba product on [`base_pairs`].
    fn karatsuba_pairs, base = base_pairs
);

/// `acc + lo(x)·hi(y) + hi(x)·lo(y)` modulo 2^32, the 16-bit halves read
/// as `i16` (the Cortex-M4's `SMLADX`; 32-bit Arm has the assembly one).
#[cfg(not(target_arch = "arm"))]
#[inline(always)]
fn smladx(acc: u32, x: u32, y: u32) -> u32 {
    let half = |w: u32| i32::from(w as u16 as i16);
    let p = (half(x) * half(y >> 16)).wrapping_add(half(x >> 16) * half(y));
    acc.wrapping_add(p as u32)
}

#[cfg(target_arch = "arm")]
use super::armv7em::smladx;

/// Largest block [`base_pairs`] multiplies (the Karatsuba base).
const PAIRS_MAX: usize = crate::params::KARATSUBA_BASE;

/// `r = a·b` (2B coefficients, the last one zero) for B-coefficient
/// operands (B even, at most 32): product scanning on packed pairs. With
/// A\[p\] = (a\[2p\], a\[2p+1\]), S\[j\] = (b\[2j−1\], b\[2j\]) and W\[j\] =
/// (b\[2j\], b\[2j+1\]) (zero outside b, low half first), output pair t is
/// r\[2t\] = Σ_p smladx(A\[p\], S\[t−p\]) and r\[2t+1\] = Σ_p
/// smladx(A\[p\], W\[t−p\]) over max(0, t − B/2) ≤ p < min(t + 1, B/2)
/// (terms outside b meet the zero halves). The bounds depend on t only
/// (public); only the low 16 bits of each sum are kept, which do not
/// depend on reading the halves as signed.
#[inline(always)]
fn pairs_fixed<const B: usize>(r: &mut [u16], a: &[u16], b: &[u16]) {
    const { assert!(B.is_multiple_of(2) && B <= PAIRS_MAX) };
    let h = B / 2;
    let a: &[u16; B] = a.try_into().expect("block size");
    let b: &[u16; B] = b.try_into().expect("block size");
    let r = &mut r[..2 * B];
    let pack = |lo: u16, hi: u16| u32::from(lo) | (u32::from(hi) << 16);
    let mut pa = [0u32; PAIRS_MAX / 2];
    let mut ps = [0u32; PAIRS_MAX / 2 + 1];
    let mut pw = [0u32; PAIRS_MAX / 2 + 1];
    for p in 0..h {
        pa[p] = pack(a[2 * p], a[2 * p + 1]);
        pw[p] = pack(b[2 * p], b[2 * p + 1]);
    }
    ps[0] = pack(0, b[0]);
    for j in 1..h {
        ps[j] = pack(b[2 * j - 1], b[2 * j]);
    }
    ps[h] = pack(b[B - 1], 0);
    for t in 0..B {
        let lo = t.saturating_sub(h);
        let hi = t.min(h - 1);
        let (mut even, mut odd) = (0u32, 0u32);
        // p runs up from lo, j = t − p down from t − lo.
        let bs = ps[t - hi..=t - lo].iter().rev();
        let bw = pw[t - hi..=t - lo].iter().rev();
        for ((&x, &s), &w) in pa[lo..=hi].iter().zip(bs).zip(bw) {
            even = smladx(even, x, s);
            odd = smladx(odd, x, w);
        }
        r[2 * t] = even as u16;
        r[2 * t + 1] = odd as u16;
    }
    // Packed copies of secret operands.
    ct::wipe(&mut pa);
    ct::wipe(&mut ps);
    ct::wipe(&mut pw);
}

/// The portable base case: [`pairs_fixed`] for the block sizes of
/// [`padded_len`](crate::params::padded_len), the generic schoolbook
/// otherwise.
fn base_pairs(r: &mut [u16], a: &[u16], b: &[u16]) {
    match a.len() {
        20 => pairs_fixed::<20>(r, a, b),
        24 => pairs_fixed::<24>(r, a, b),
        28 => pairs_fixed::<28>(r, a, b),
        32 => pairs_fixed::<32>(r, a, b),
        _ => schoolbook(r, a, b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec;
    use std::vec::Vec;

    #[test]
    fn pairs_product_matches_schoolbook() {
        let mut seed = 9u64;
        let mut rand_poly = |n: usize| -> Vec<u16> {
            (0..n)
                .map(|_| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    (seed >> 40) as u16
                })
                .collect()
        };
        for m in [20, 24, 28, 32, 40, 512, 768, 896, 1280, 1536] {
            for round in 0..3 {
                let (mut a, mut b) = (rand_poly(m), rand_poly(m));
                if round == 0 {
                    a.fill(u16::MAX);
                    b.fill(0x8000);
                }
                let mut want = vec![0u16; 2 * m];
                schoolbook(&mut want, &a, &b);
                let mut got = vec![1u16; 2 * m];
                let mut s = vec![0u16; crate::params::karatsuba_scratch(m)];
                karatsuba_pairs(&mut got, &a, &b, &mut s);
                assert_eq!(got, want, "m = {m}");
            }
        }
    }
}
